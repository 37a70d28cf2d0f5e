import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configReferenceMarkdown } from '../lib/config';

describe('README', () => {
  const readme = fs.readFileSync(path.resolve(__dirname, '..', 'README.md'), 'utf8');
  it('documents every setting exactly as lib/config.ts defines it (run `npm run docs:config`)', () => {
    expect(readme).toContain(configReferenceMarkdown());
  });
  it('has the two-command quick start', () => {
    expect(readme).toMatch(/## Quick start/);
    expect(readme).toContain('npm start');
    expect(readme).toContain('npm test');
  });
});
