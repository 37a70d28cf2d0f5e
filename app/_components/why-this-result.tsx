import type { ScoreBreakdown } from '../../ranking/types';

const fmt = (v: number | null, digits = 3) => (v === null || !Number.isFinite(v) ? '—' : v.toFixed(digits));

function Bar({ value, max }: { value: number | null; max: number }) {
  const pct = value === null || max <= 0 ? 0 : Math.max(0, Math.min(100, (value / max) * 100));
  return (
    <span className="bar-track" aria-hidden="true">
      <span className="bar" style={{ width: `${pct}%` }} />
    </span>
  );
}

/** "Why this result": what each stage contributed to the final score. */
export function WhyThisResult({ scores, publishedAt, halfLifeDays, asOf }: { scores: ScoreBreakdown; publishedAt: string | null; halfLifeDays: number | null; asOf: string }) {
  const ageDays = publishedAt ? (Date.parse(asOf) - Date.parse(publishedAt)) / 86_400_000 : null;
  const relevance = scores.recency > 0 ? scores.final / scores.recency : scores.fused;
  const recencyNote =
    halfLifeDays === null
      ? 'time decay off'
      : ageDays === null
        ? 'no publication date: not decayed'
        : `${Math.max(0, Math.round(ageDays)).toLocaleString('en')} days old, half-life ${halfLifeDays} days`;
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
            <td>
              <Bar value={scores.fused} max={Math.max(scores.fused, relevance, 1e-9)} />
            </td>
          </tr>
          <tr>
            <th scope="row">Reranker</th>
            <td className="num">{fmt(scores.rerank)}</td>
            <td className="small muted">{scores.rerank === null ? 'not reranked' : 'cross-encoder score, combined with the fused relevance'}</td>
          </tr>
          <tr>
            <th scope="row">Recency factor</th>
            <td className="num">×{fmt(scores.recency)}</td>
            <td className="small muted">{recencyNote}</td>
          </tr>
          <tr>
            <th scope="row">Final score</th>
            <td className="num">
              <strong>{fmt(scores.final, 4)}</strong>
            </td>
            <td className="small muted">relevance × recency</td>
          </tr>
        </tbody>
      </table>
    </details>
  );
}
