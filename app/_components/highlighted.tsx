import { highlightPieces, type Span } from '../../lib/web/highlight';

/**
 * Untrusted article text with evidence sentences marked. The text is split by offsets and every
 * piece is rendered as a React text node, so markup in it ("<script>", "onerror=") shows as text.
 */
export function Highlighted({ text, spans }: { text: string; spans: readonly Span[] }) {
  return (
    <>
      {highlightPieces(text, spans).map((p, i) =>
        p.mark ? (
          <mark key={i} data-evidence="">
            {p.text}
          </mark>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  );
}
