import type { ScoreBreakdown } from '../../ranking/types';

const fmt = (v: number | null | undefined, digits = 3) => (v === null || v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(digits));
/** A factor or score that old archives make tiny: "0.0000" would hide it, so small values keep two significant digits. */
const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const small = (v: number) =>
  v > 0 && v < 0.001
    ? v.toExponential(1).replace(/e-(\d+)$/, (_, e: string) => ` × 10⁻${[...e].map((d) => SUPERSCRIPT[Number(d)]).join('')}`)
    : fmt(v, 4);
const days = (d: number) => `${Math.max(0, Math.round(d)).toLocaleString('en')} days`;

function recencyNote(s: ScoreBreakdown, publishedAt: string | null, halfLifeDays: number | null, asOf: string): string {
  if (s.recencyBasis === 'off' || halfLifeDays === null) return 'time decay off';
  if (s.recencyBasis === 'undated' || !publishedAt) {
    const age = s.assumedAgeDays ?? null;
    return age === null
      ? 'date unknown'
      : `date unknown: ranked as if ${days(age)} old — as old as the dated results it competes with for the first page, or its time in the archive when that is longer (or there is no dated match) — half-life ${halfLifeDays} days`;
  }
  return `${days((Date.parse(asOf) - Date.parse(publishedAt)) / 86_400_000)} old, half-life ${halfLifeDays} days`;
}

/**
 * "Why this result": every factor of the final score, so that the shown product is the final score:
 * relevance (the fused score, or the reranker's mix of its score with it) × recency.
 */
export function WhyThisResult({
  scores,
  publishedAt,
  halfLifeDays,
  asOf,
}: {
  scores: ScoreBreakdown;
  publishedAt: string | null;
  halfLifeDays: number | null;
  asOf: string;
}) {
  const relevance = scores.relevance ?? (scores.recency > 0 ? scores.final / scores.recency : scores.fused);
  const reranked = scores.rerank !== null;
  return (
    <details className="why">
      <summary>Why this result</summary>
      <table>
        <caption className="visually-hidden">Score contributions</caption>
        <tbody>
          <tr>
            <th scope="row">Keyword match (BM25)</th>
            <td className="num">{fmt(scores.bm25, 2)}</td>
            <td className="small muted">{scores.bm25Rank ? `rank ${scores.bm25Rank}` : 'not in the keyword results'}</td>
          </tr>
          <tr>
            <th scope="row">Meaning match (dense)</th>
            <td className="num">{fmt(scores.dense)}</td>
            <td className="small muted">{scores.denseRank ? `rank ${scores.denseRank}` : 'not in the semantic results'}</td>
          </tr>
          <tr>
            <th scope="row">Fused relevance</th>
            <td className="num">{fmt(scores.fused)}</td>
            <td className="small muted">both matches combined</td>
          </tr>
          <tr>
            <th scope="row">Reranker</th>
            <td className="num">{fmt(scores.rerank)}</td>
            <td className="small muted">
              {reranked ? 'the cross-encoder’s score, mixed with the fused relevance' : 'not reranked: the fused relevance is used'}
            </td>
          </tr>
          <tr className="why__factor">
            <th scope="row">Relevance</th>
            <td className="num" data-testid="why-relevance">
              {fmt(relevance, 4)}
            </td>
            <td className="small muted">{reranked ? 'after reranking' : '= fused relevance'}</td>
          </tr>
          <tr className="why__factor">
            <th scope="row">× Recency</th>
            <td className="num" data-testid="why-recency">
              {small(scores.recency)}
            </td>
            <td className="small muted">{recencyNote(scores, publishedAt, halfLifeDays, asOf)}</td>
          </tr>
          <tr className="why__factor">
            <th scope="row">× De-duplication</th>
            <td className="num">1.0000</td>
            <td className="small muted">copies of a story are shown once, not scored down</td>
          </tr>
          <tr className="why__total">
            <th scope="row">= Final score</th>
            <td className="num" data-testid="why-final">
              <strong>{small(scores.final)}</strong>
            </td>
            <td className="small muted">
              {fmt(relevance, 4)} × {small(scores.recency)}
            </td>
          </tr>
        </tbody>
      </table>
    </details>
  );
}
