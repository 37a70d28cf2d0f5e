import { describe, expect, it } from 'vitest';
import { joinSentences, makeSnippets, windowRanges } from './snippets';

describe('windowRanges', () => {
  it('starts a window at every stride-th sentence, as Quin does', () => {
    expect(windowRanges(7, 5, 3)).toEqual([
      [0, 5],
      [3, 7],
      [6, 7],
    ]);
    expect(windowRanges(5, 5, 3)).toEqual([
      [0, 5],
      [3, 5],
    ]);
  });
  it('gives one short window for a short text and none for an empty one', () => {
    expect(windowRanges(2, 5, 3)).toEqual([[0, 2]]);
    expect(windowRanges(0, 5, 3)).toEqual([]);
  });
  it('covers every sentence, whatever the size and stride', () => {
    for (let n = 1; n < 40; n++) {
      for (const [size, stride] of [
        [5, 3],
        [5, 5],
        [3, 1],
        [4, 2],
      ] as const) {
        const covered = new Set(windowRanges(n, size, stride).flatMap(([a, b]) => Array.from({ length: b - a }, (_, i) => a + i)));
        expect(covered.size).toBe(n);
      }
    }
  });
  it('rejects a zero stride instead of looping forever', () => {
    expect(() => windowRanges(10, 5, 0)).toThrow(RangeError);
  });
});

describe('makeSnippets', () => {
  const sentences = Array.from({ length: 8 }, (_, i) => `This is sentence number ${i} of the article.`);
  it('records sentence ranges and offsets that slice back to each sentence', () => {
    const snippets = makeSnippets(sentences, { size: 5, stride: 3, minChars: 10 });
    expect(snippets.map((s) => [s.sentenceStart, s.sentenceEnd])).toEqual([
      [0, 5],
      [3, 8],
      [6, 8],
    ]);
    for (const s of snippets) {
      s.sentenceSpans.forEach(([a, b], i) => expect(s.text.slice(a, b)).toBe(sentences[s.sentenceStart + i]));
    }
    expect(snippets.map((s) => s.position)).toEqual([0, 1, 2]);
  });
  it('drops windows shorter than the minimum and renumbers positions', () => {
    const snippets = makeSnippets(['A long enough first sentence is here.', 'Tiny.', 'Ok.', 'Another long enough sentence.'], {
      size: 1,
      stride: 1,
      minChars: 10,
    });
    expect(snippets.map((s) => s.text)).toEqual(['A long enough first sentence is here.', 'Another long enough sentence.']);
    expect(snippets.map((s) => s.position)).toEqual([0, 1]);
  });
  it('joins with single spaces', () => {
    expect(joinSentences(['a', 'b'])).toEqual({
      text: 'a b',
      spans: [
        [0, 1],
        [2, 3],
      ],
    });
  });
});
