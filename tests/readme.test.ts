import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configReferenceMarkdown } from '../lib/config';

const read = (file: string) => fs.readFileSync(path.resolve(__dirname, '..', file), 'utf8');

describe('README', () => {
  const readme = read('README.md');
  it('has the two-command quick start', () => {
    expect(readme).toMatch(/## Quick start/);
    expect(readme).toContain('npm start');
    expect(readme).toContain('npm test');
  });
  it('stays short enough to read in ten minutes (details belong in docs/)', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  });
});

describe('docs/operations.md', () => {
  it('documents every setting exactly as lib/config.ts defines it (run `npm run docs:config`)', () => {
    expect(read('docs/operations.md')).toContain(configReferenceMarkdown());
  });
});

describe('links between the documents', () => {
  // Relative Markdown links in the README and docs/ name a file that exists and, with a #fragment,
  // a heading of that file (GitHub's anchors: lower case, punctuation dropped, spaces as hyphens).
  const anchor = (heading: string) =>
    heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
  const anchorsOf = (file: string) =>
    new Set(
      read(file)
        .split('\n')
        .filter((l) => /^#{1,6}\s/.test(l))
        .map((l) => anchor(l.replace(/^#+\s*/, ''))),
    );
  const docs = ['README.md', ...fs.readdirSync(path.resolve(__dirname, '..', 'docs')).map((f) => `docs/${f}`)].filter((f) =>
    f.endsWith('.md'),
  );
  for (const file of docs) {
    it(`${file}: every relative link resolves`, () => {
      const broken: string[] = [];
      for (const m of read(file).matchAll(/\]\(([^)\s]+)\)/g)) {
        const link = m[1]!;
        if (/^[a-z]+:/i.test(link)) continue;
        const [target, fragment] = link.split('#') as [string, string | undefined];
        const resolved = target ? path.posix.normalize(path.posix.join(path.posix.dirname(file), target)) : file;
        if (!fs.existsSync(path.resolve(__dirname, '..', resolved))) broken.push(`${link} (no ${resolved})`);
        else if (fragment && resolved.endsWith('.md') && !anchorsOf(resolved).has(fragment))
          broken.push(`${link} (no heading #${fragment})`);
      }
      expect(broken).toEqual([]);
    });
  }
});
