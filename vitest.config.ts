import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'e2e/**', '.next/**', 'data/**', 'lib/db/generated/**'],
    // Native modules (better-sqlite3, faiss-node, onnxruntime-node) are safest in child processes.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    env: { QUIN_LOG_LEVEL: 'warn' },
  },
});
