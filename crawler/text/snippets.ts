/**
 * Sliding windows of sentences (Quin: 5 sentences, stride 3, so neighbours share 2 sentences).
 * Pure: sentences in, windows out.
 */

export interface WindowOptions {
  size: number;
  stride: number;
  /** Windows whose text is shorter than this are dropped. */
  minChars: number;
}

export interface SnippetDraft {
  position: number;
  sentenceStart: number;
  /** Exclusive. */
  sentenceEnd: number;
  text: string;
  /** [start, end) offsets of each sentence in `text`. */
  sentenceSpans: [number, number][];
}

/**
 * The snippet window: part of the index format (snippets, their vectors and the fitted models were
 * all made with it), so a product constant, not a setting. 5 sentences as in Quin; stride 3 so that
 * neighbours share 2 sentences; windows under 40 characters are bylines and captions.
 */
export const DEFAULT_WINDOW: WindowOptions = { size: 5, stride: 3, minChars: 40 };

/**
 * Window ranges over n sentences, as in Quin: a window starts at every stride-th sentence
 * (0, stride, 2·stride, … < n) and takes up to `size` sentences, so the last sentences also begin
 * windows of their own and are never only at the edge of a longer one. For SciFact (5,183 abstracts,
 * 45,952 sentences) size 5 / stride 3 gives 17,031 windows.
 */
export function windowRanges(n: number, size: number, stride: number): [number, number][] {
  if (n <= 0) return [];
  if (size < 1 || stride < 1) throw new RangeError('window size and stride must be ≥ 1');
  const ranges: [number, number][] = [];
  for (let start = 0; start < n; start += stride) ranges.push([start, Math.min(start + size, n)]);
  return ranges;
}

export function joinSentences(sentences: readonly string[]): { text: string; spans: [number, number][] } {
  const spans: [number, number][] = [];
  let text = '';
  for (const s of sentences) {
    if (text) text += ' ';
    spans.push([text.length, text.length + s.length]);
    text += s;
  }
  return { text, spans };
}

export function makeSnippets(sentences: readonly string[], opts: WindowOptions = DEFAULT_WINDOW): SnippetDraft[] {
  const drafts: SnippetDraft[] = [];
  for (const [start, end] of windowRanges(sentences.length, opts.size, opts.stride)) {
    const { text, spans } = joinSentences(sentences.slice(start, end));
    if (text.length < opts.minChars) continue;
    drafts.push({ position: drafts.length, sentenceStart: start, sentenceEnd: end, text, sentenceSpans: spans });
  }
  return drafts;
}
