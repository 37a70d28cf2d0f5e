import { describe, expect, it } from 'vitest';
import type { Encoder } from '../indexer/types';
import { embedQuery } from './query-vectors';

function countingEncoder(): Encoder & { calls: string[] } {
  const calls: string[] = [];
  return { id: 'count', dim: 1, calls, embed: async (texts) => (calls.push(...texts), texts.map((t) => new Float32Array([t.length]))) };
}

describe('embedQuery', () => {
  it('embeds a text once and returns the cached vector afterwards', async () => {
    const enc = countingEncoder();
    const a = await embedQuery(enc, 'hello');
    const b = await embedQuery(enc, 'hello');
    expect(b).toBe(a);
    expect(enc.calls).toEqual(['hello']);
  });
  it('evicts the least recently used text beyond its size, per encoder', async () => {
    const enc = countingEncoder();
    await embedQuery(enc, 'a', 2);
    await embedQuery(enc, 'b', 2);
    await embedQuery(enc, 'a', 2); // a is now the most recent
    await embedQuery(enc, 'c', 2); // evicts b
    await embedQuery(enc, 'a', 2);
    await embedQuery(enc, 'b', 2);
    expect(enc.calls).toEqual(['a', 'b', 'c', 'b']);
    const other = countingEncoder();
    await embedQuery(other, 'a', 2);
    expect(other.calls).toEqual(['a']);
  });
});
