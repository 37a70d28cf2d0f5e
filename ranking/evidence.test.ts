import { describe, expect, it } from 'vitest';
import { cosine, foldWord, overlapShare, pickEvidence, sentencesAtSpans } from './evidence';

const text = 'Vaccines are safe. The moon is far away. Measles vaccines prevent measles.';
const spans = JSON.stringify([
  [0, 18],
  [19, 40],
  [41, 74],
]);

describe('snippetSentences', () => {
  it('cuts the text at the stored spans', () => {
    expect(sentencesAtSpans(text, spans).map((s) => s.text)).toEqual([
      'Vaccines are safe.',
      'The moon is far away.',
      'Measles vaccines prevent measles.',
    ]);
  });
  it('falls back to the whole text when spans are missing or out of range', () => {
    for (const bad of ['', 'nope', '[]', '[[0, 999]]', '[[5, 2]]', '{"a":1}']) {
      expect(sentencesAtSpans(text, bad)).toEqual([{ text, start: 0, end: text.length }]);
    }
  });
});

describe('word overlap', () => {
  it('folds plurals', () => {
    expect(['vaccines', 'studies', 'glasses', 'bus', 'goes'].map(foldWord)).toEqual(['vaccine', 'study', 'glasse', 'bus', 'goe']);
  });
  it('is the share of query words in the sentence', () => {
    expect(overlapShare(['measles', 'vaccine', 'autism'], 'Measles vaccines prevent measles.')).toBeCloseTo(2 / 3, 12);
    expect(overlapShare([], 'x')).toBe(0);
  });
});

describe('cosine', () => {
  it('is the normalised dot product, 0 for mismatched or zero vectors', () => {
    expect(cosine(new Float32Array([1, 0]), new Float32Array([1, 1]))).toBeCloseTo(Math.SQRT1_2, 6);
    expect(cosine(new Float32Array([1, 0]), new Float32Array([1, 0, 0]))).toBe(0);
    expect(cosine(new Float32Array([0, 0]), new Float32Array([1, 0]))).toBe(0);
  });
});

describe('pickEvidence', () => {
  const sentences = sentencesAtSpans(text, spans);
  it('ranks sentences by cosine and word overlap, with offsets into the text', () => {
    const q = new Float32Array([1, 0]);
    const vecs = [new Float32Array([0.6, 0.8]), new Float32Array([0, 1]), new Float32Array([1, 0])];
    const ev = pickEvidence(sentences, vecs, q, ['measles', 'vaccines'], 2);
    expect(ev.map((e) => e.text)).toEqual(['Measles vaccines prevent measles.', 'Vaccines are safe.']);
    expect(ev[0]!.score).toBeCloseTo(0.5 * 1 + 0.5 * 1, 6);
    expect(ev[1]!.score).toBeCloseTo(0.5 * 0.6 + 0.5 * 0.5, 6);
    for (const e of ev) expect(text.slice(e.start, e.end)).toBe(e.text);
  });
  it('scores sentences without vectors on words only and still returns the best ones', () => {
    const ev = pickEvidence(sentences, [null, null, null], null, ['unrelated'], 1);
    expect(ev).toEqual([{ text: 'Vaccines are safe.', start: 0, end: 18, score: 0 }]);
  });
});
