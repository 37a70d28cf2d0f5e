import { describe, expect, it } from 'vitest';
import { sentenceTexts } from '../../lib/text/sentences';
import { poolSnippet } from './pooling';

const v = (...xs: number[]) => Float32Array.from(xs);
const norm = (x: Float32Array) => Math.hypot(...x);

describe('snippet sentences and pooling', () => {
  it('cuts sentences by their spans', () => {
    const text = 'One two. Three four five. Six.';
    expect(sentenceTexts(text, '[[0,8],[9,25],[26,30]]')).toEqual(['One two.', 'Three four five.', 'Six.']);
  });

  it('falls back to the whole text when spans are unusable', () => {
    expect(sentenceTexts('Just text.', 'not json')).toEqual(['Just text.']);
    expect(sentenceTexts('Just text.', '[]')).toEqual(['Just text.']);
  });

  it('mean pooling is the normalised mean', () => {
    const p = poolSnippet([v(1, 0), v(0, 1)], null, 'mean');
    expect(p[0]).toBeCloseTo(Math.SQRT1_2);
    expect(p[1]).toBeCloseTo(Math.SQRT1_2);
  });

  it('mean-title counts the title as a sentence; title-mean weighs it half', () => {
    const s = [v(1, 0), v(1, 0)];
    const t = v(0, 1);
    const a = poolSnippet(s, t, 'mean-title');
    expect(a[0]! / a[1]!).toBeCloseTo(2);
    const b = poolSnippet(s, t, 'title-mean');
    expect(b[0]! / b[1]!).toBeCloseTo(1);
    expect(norm(a)).toBeCloseTo(1);
    expect(norm(b)).toBeCloseTo(1);
  });

  it('refuses an empty sentence list', () => {
    expect(() => poolSnippet([], null, 'mean')).toThrow();
  });
});
