// Lint: typescript-eslint's recommended rules plus the import rule that keeps the data flow one-way:
// feeds → articles → snippets → indexes → ranking → API/UI. A folder imports only from folders
// upstream of it, plus lib/. (tests/architecture.test.ts checks the same rule over the whole tree.)
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const forbid = (...folders) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: folders.map((f) => ({
        group: [`**/${f}`, `**/${f}/**`, `../${f}/*`],
        message: `data flows one way: this folder must not import ${f}/`,
      })),
    },
  ],
});

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.next/**',
      'lib/db/generated/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'e2e/artifacts/**',
      'scratch/**',
      // Caches (the training environment's site-packages ship JavaScript of their own).
      '.cache/**',
      'next-env.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  { files: ['lib/**/*.ts'], rules: forbid('crawler', 'indexer', 'ranking', 'check', 'app', 'cli') },
  { files: ['crawler/**/*.ts'], rules: forbid('indexer', 'ranking', 'check', 'app', 'cli') },
  { files: ['indexer/**/*.ts'], rules: forbid('crawler', 'ranking', 'check', 'app', 'cli') },
  { files: ['ranking/**/*.ts'], rules: forbid('crawler', 'check', 'app', 'cli') },
  // check/ (an article's claims checked): fetches through the crawler, searches through ranking.
  { files: ['check/**/*.ts'], rules: forbid('eval', 'bench', 'app', 'cli') },
  { files: ['scripts/**/*.mjs', 'bin/**/*.mjs', '*.mjs', '*.js'], languageOptions: { sourceType: 'module' } },
);
