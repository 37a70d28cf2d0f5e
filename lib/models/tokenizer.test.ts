import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readModelFolder } from './folder';
import { TextTokenizer, truncateLongestFirst } from './tokenizer';

const folder = readModelFolder(path.join(__dirname, 'fixtures', 'tiny-encoder'));
const tok = new TextTokenizer(folder.tokenizerJson, folder.tokenizerConfig);

describe('TextTokenizer (BERT uncased tokenizer.json through tokenizers.js)', () => {
  it('lowercases, splits punctuation and word pieces, adds [CLS]/[SEP]', () => {
    // Ids from the real vocab.txt: hello=7592 ","=1010 world=2088 "!"=999; un ##af ##ford ##able.
    const { ids, types } = tok.encodeOne('Hello, World!', undefined, 512);
    expect(ids).toEqual([101, 7592, 1010, 2088, 999, 102]);
    expect(types).toEqual([0, 0, 0, 0, 0, 0]);
    expect(tok.tokenize('unaffordable')).toEqual(['una', '##ff', '##ord', '##able']);
  });

  it('encodes pairs with segment ids', () => {
    const { ids, types } = tok.encodeOne('the cat', 'a dog', 512);
    expect(ids).toEqual([101, 1996, 4937, 102, 1037, 3899, 102]);
    expect(types).toEqual([0, 0, 0, 0, 1, 1, 1]);
  });

  it('truncates pairs longest-first to the model limit', () => {
    const long = 'word '.repeat(100);
    const { ids, types } = tok.encodeOne('short query here', long, 16);
    expect(ids).toHaveLength(16);
    expect(ids.slice(0, 5)).toEqual([101, 2460, 23032, 2182, 102]);
    expect(types.filter((t) => t === 1)).toHaveLength(11);
    expect(ids[15]).toBe(102);
    expect(truncateLongestFirst([1, 2, 3, 4, 5, 6], [7, 8], 5)).toEqual([[1, 2, 3], [7, 8]]);
  });

  it('pads a batch to its longest row with attention mask 0', () => {
    const b = tok.encodeBatch(['the cat', ['the cat', 'a dog']], 512);
    expect(b.seqLen).toBe(7);
    expect(b.lengths).toEqual([4, 7]);
    expect(Array.from(b.attentionMask.slice(0, 7), Number)).toEqual([1, 1, 1, 1, 0, 0, 0]);
    expect(Array.from(b.inputIds.slice(0, 7), Number)).toEqual([101, 1996, 4937, 102, 0, 0, 0]);
  });

  it('reuses the first text of a pair across calls without its truncation leaking into the next', () => {
    const fresh = () => new TextTokenizer(folder.tokenizerJson, folder.tokenizerConfig);
    const claim = 'short query here about cats';
    const long = 'word '.repeat(100);
    // Truncated longest-first in the first call, the claim must come back whole in the next ones.
    const calls: [string, string, number][] = [
      [claim, long, 12],
      [claim, 'a dog', 512],
      ['another text', 'a dog', 512],
      [claim, 'a dog', 512],
    ];
    for (const [a, b, max] of calls) expect(tok.encodeOne(a, b, max)).toEqual(fresh().encodeOne(a, b, max));
    expect(tok.encodeOne(claim, 'a dog', 512).ids.slice(0, 7)).toEqual(fresh().encodeOne(claim, undefined, 512).ids.slice(0, 7));
  });

  it('handles empty and unusual text without throwing', () => {
    expect(tok.encodeOne('', undefined, 8).ids).toEqual([101, 102]);
    expect(tok.encodeOne('😀 ∑ \u0000 naïve', undefined, 32).ids[0]).toBe(101);
  });
});
