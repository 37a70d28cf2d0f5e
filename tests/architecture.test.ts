/**
 * The one-way data flow, checked over the whole tree: feeds → articles → snippets → indexes →
 * ranking → API/UI. Each folder may import only the folders listed for it (plus itself and lib/).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');
const ALLOWED: Record<string, string[]> = {
  lib: [],
  crawler: [],
  indexer: [],
  ranking: ['indexer'],
  check: ['crawler', 'indexer', 'ranking'],
  app: ['crawler', 'indexer', 'ranking', 'check'],
  eval: ['crawler', 'indexer', 'ranking', 'check'],
  bench: ['crawler', 'indexer', 'ranking', 'check', 'eval'],
  cli: ['crawler', 'indexer', 'ranking', 'check', 'eval', 'bench'],
};
// Upstream-to-downstream order. Tests may also import any folder upstream of their own (e.g. a
// ranking test seeds its database through the crawler's import), never one downstream.
const ORDER = ['lib', 'crawler', 'indexer', 'ranking', 'check', 'eval', 'bench', 'cli', 'app'];
const upstreamOf = (folder: string) => ORDER.slice(0, Math.max(0, ORDER.indexOf(folder)));
const TOP = new Set([...Object.keys(ALLOWED), 'testing', 'tests', 'e2e', 'scripts']);

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'generated' || e.name === 'node_modules' ? [] : sourceFiles(p);
    return /\.(ts|tsx|mts)$/.test(e.name) ? [p] : [];
  });
}

export function importsOf(code: string): string[] {
  const specs: string[] = [];
  const re = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
  for (let m = re.exec(code); m; m = re.exec(code)) specs.push((m[1] ?? m[2] ?? m[3])!);
  return specs;
}

function violations(): string[] {
  const out: string[] = [];
  for (const folder of Object.keys(ALLOWED)) {
    for (const file of sourceFiles(path.join(root, folder))) {
      const isTest = /\.test\.tsx?$/.test(file);
      for (const spec of importsOf(fs.readFileSync(file, 'utf8'))) {
        if (!spec.startsWith('.')) continue;
        const target = path.relative(root, path.resolve(path.dirname(file), spec)).split(path.sep)[0]!;
        if (target === folder || target === 'lib' || !TOP.has(target)) continue;
        if (isTest && (target === 'testing' || upstreamOf(folder).includes(target))) continue;
        if (!ALLOWED[folder]!.includes(target)) out.push(`${path.relative(root, file)} imports ${spec} (${folder}/ → ${target}/)`);
      }
    }
  }
  return out;
}

/** Relative imports between the non-test modules of these folders, resolved to files. */
function importGraph(folders: readonly string[]): Map<string, string[]> {
  const files = folders.flatMap((f) => sourceFiles(path.join(root, f))).filter((f) => !/\.test\.tsx?$/.test(f));
  const known = new Set(files);
  const resolve = (from: string, spec: string) => {
    const base = path.resolve(path.dirname(from), spec);
    return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((c) => known.has(c));
  };
  return new Map(
    files.map((f) => [
      f,
      importsOf(fs.readFileSync(f, 'utf8'))
        .filter((s) => s.startsWith('.'))
        .flatMap((s) => resolve(f, s) ?? []),
    ]),
  );
}

/** One file path per import cycle (its files, relative), found by depth-first search. */
export function importCycles(graph: Map<string, string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (f: string) => {
    state.set(f, 'open');
    stack.push(f);
    for (const g of graph.get(f) ?? []) {
      if (state.get(g) === 'open') cycles.push(stack.slice(stack.indexOf(g)).map((x) => path.relative(root, x)));
      else if (!state.has(g)) visit(g);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of graph.keys()) if (!state.has(f)) visit(f);
  return cycles;
}

describe('architecture', () => {
  it('finds import specifiers of every form', () => {
    expect(importsOf(`import a from '../x';\nexport { b } from "./y";\nconst c = await import('../z');\nimport '../side';`)).toEqual([
      '../x',
      './y',
      '../z',
      '../side',
    ]);
  });

  it('keeps the data flow one-way', () => {
    expect(violations()).toEqual([]);
  });

  it('has no import cycles in the pipeline (a backend or stage never imports what imports it)', () => {
    const a = path.join(root, 'a.ts');
    const b = path.join(root, 'b.ts');
    expect(
      importCycles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts']]);
    expect(importCycles(importGraph(['lib', 'crawler', 'indexer', 'ranking', 'check']))).toEqual([]);
  });
});
