import { describe, expect, it } from 'vitest';
import { highlightPieces } from './highlight';

describe('evidence highlighting by offsets', () => {
  const text = 'First sentence. Second one here. Third.';

  it('marks the spans and keeps everything else as plain text', () => {
    expect(highlightPieces(text, [{ start: 16, end: 32 }])).toEqual([
      { text: 'First sentence. ', mark: false },
      { text: 'Second one here.', mark: true },
      { text: ' Third.', mark: false },
    ]);
  });

  it('merges overlapping spans, sorts them, clamps out-of-range ones and ignores empty ones', () => {
    const pieces = highlightPieces(text, [
      { start: 33, end: 999 },
      { start: 0, end: 10 },
      { start: 5, end: 15 },
      { start: 20, end: 20 },
      { start: -5, end: -1 },
    ]);
    expect(pieces).toEqual([
      { text: 'First sentence.', mark: true },
      { text: ' Second one here. ', mark: false },
      { text: 'Third.', mark: true },
    ]);
    expect(pieces.map((p) => p.text).join('')).toBe(text);
  });

  it('returns markup in the text unchanged as text (React escapes it)', () => {
    const evil = 'Hi <script>alert(1)</script> <img src=x onerror="alert(2)">';
    expect(highlightPieces(evil, [{ start: 3, end: 28 }]).map((p) => p.text)).toEqual([
      'Hi ',
      '<script>alert(1)</script>',
      ' <img src=x onerror="alert(2)">',
    ]);
  });

  it('handles no spans and empty text', () => {
    expect(highlightPieces(text, [])).toEqual([{ text, mark: false }]);
    expect(highlightPieces('', [{ start: 0, end: 3 }])).toEqual([{ text: '', mark: false }]);
  });
});
