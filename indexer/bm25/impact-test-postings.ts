/**
 * FOR TESTS: postings drawn at random as FTS5's instance table would list them, for the tests of the
 * accelerator's block updates (bm25/impact-append.test.ts, bm25/impact-rewrite.test.ts).
 */
import { expect } from 'vitest';
import { mulberry32 as rng } from '../../lib/random';
import { compareTerms, ImpactBuilder } from './impact';
import type { ImpactArrays } from './impact-types';

/**
 * Postings of rows `ids` as FTS5's instance table lists them (term, row, column), from a skewed draw
 * of `vocabulary` words: some terms in most rows (lists of many blocks), a title word repeated past
 * 7 (the frequency's extension byte), rows without any token.
 */
export function postings(seed: number, ids: number[], vocabulary: string[]): ImpactArrays {
  const r = rng(seed);
  const instances: [string, number, number][] = [];
  for (const id of ids) {
    if (r() < 0.03) continue;
    for (let k = 1 + Math.floor(r() * 30); k > 0; k--)
      instances.push([vocabulary[Math.floor(r() ** 3 * vocabulary.length)]!, id, r() < 0.2 ? 0 : 1]);
    if (r() < 0.05) for (let k = 0; k < 9; k++) instances.push([vocabulary[0]!, id, 0]);
  }
  instances.sort((a, b) => compareTerms(a[0], b[0]) || a[1] - b[1] || a[2] - b[2]);
  const builder = new ImpactBuilder(ids);
  for (const [term, id, col] of instances) expect(builder.add(term, id, col)).toBe(true);
  return builder.finish();
}

export const words = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i.toString(36)}`);
export const range = (from: number, n: number, step = 1) => Array.from({ length: n }, (_, i) => from + i * step);
