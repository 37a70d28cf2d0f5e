/**
 * Evidence highlighting by character offsets. The snippet text is untrusted: it is cut into plain
 * string pieces here and rendered as React text (escaped by React), never as HTML.
 */
export interface Span {
  start: number;
  end: number;
}

export interface Piece {
  text: string;
  mark: boolean;
}

/** Cuts `text` into alternating plain / marked pieces. Spans are clamped, sorted and merged. */
export function highlightPieces(text: string, spans: readonly Span[]): Piece[] {
  const clean = spans
    .map((s) => ({
      start: Math.max(0, Math.min(text.length, Math.floor(s.start))),
      end: Math.max(0, Math.min(text.length, Math.floor(s.end))),
    }))
    .filter((s) => Number.isFinite(s.start) && Number.isFinite(s.end) && s.end > s.start)
    .sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const s of clean) {
    const last = merged[merged.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else merged.push({ ...s });
  }
  const pieces: Piece[] = [];
  let at = 0;
  for (const s of merged) {
    if (s.start > at) pieces.push({ text: text.slice(at, s.start), mark: false });
    pieces.push({ text: text.slice(s.start, s.end), mark: true });
    at = s.end;
  }
  if (at < text.length || pieces.length === 0) pieces.push({ text: text.slice(at), mark: false });
  return pieces;
}
