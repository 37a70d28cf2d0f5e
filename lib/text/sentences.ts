/**
 * A snippet's sentences from its stored spans (JSON `[[start, end], ...]`, character offsets into the
 * text), pure. One reading for every stage: the indexer embeds these sentences, ranking picks
 * evidence among them and highlights them by their offsets. Spans that are not a valid [start, end)
 * range of the text are skipped; with no valid span at all the whole text is the one sentence.
 */
export interface SentenceSpan {
  text: string;
  /** [start, end) in the snippet's text. */
  start: number;
  end: number;
}

function parseSpans(spans: string | readonly unknown[]): unknown[] {
  if (Array.isArray(spans)) return spans;
  try {
    const v: unknown = JSON.parse(spans as string);
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

const isSpan = (s: unknown, length: number): s is [number, number] =>
  Array.isArray(s) && s.length === 2 && Number.isInteger(s[0]) && Number.isInteger(s[1]) && 0 <= s[0] && s[0] < s[1] && s[1] <= length;

export function sentencesAtSpans(text: string, spans: string | readonly unknown[]): SentenceSpan[] {
  const valid = parseSpans(spans).filter((s): s is [number, number] => isSpan(s, text.length));
  if (!valid.length) return text.trim() ? [{ text, start: 0, end: text.length }] : [];
  return valid.map(([start, end]) => ({ text: text.slice(start, end), start, end }));
}

/** The sentences as the encoder reads them (trimmed, empty ones dropped): the embedding cache's keys. */
export function sentenceTexts(text: string, spans: string | readonly unknown[]): string[] {
  return sentencesAtSpans(text, spans)
    .map((s) => s.text.trim())
    .filter(Boolean);
}
