/**
 * `quin search` output for people: ranked results with their evidence sentences highlighted (bold
 * yellow on a terminal, «…» otherwise), the verdict when there is one, and the score breakdown with
 * --explain. Pure: a SearchResponse in, text out.
 */
import type { SearchResponse, SearchResult } from '../../ranking';

export interface FormatOptions {
  color: boolean;
  explain: boolean;
}

const ANSI = { bold: '\x1b[1m', dim: '\x1b[2m', hl: '\x1b[1;33m', green: '\x1b[32m', red: '\x1b[31m', reset: '\x1b[0m' };

function paint(on: boolean, code: string, s: string): string {
  return on ? `${code}${s}${ANSI.reset}` : s;
}

/** The result text with its evidence spans marked (spans sorted, overlaps merged, offsets trusted only if in range). */
export function highlight(r: Pick<SearchResult, 'text' | 'evidence'>, color: boolean): string {
  const spans = r.evidence
    .filter((e) => e.start >= 0 && e.end <= r.text.length && e.start < e.end)
    .map((e) => [e.start, e.end] as [number, number])
    .sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [s, e] of spans) {
    if (e <= at) continue;
    const from = Math.max(s, at);
    out += r.text.slice(at, from);
    const mark = r.text.slice(from, e);
    out += color ? `${ANSI.hl}${mark}${ANSI.reset}` : `«${mark}»`;
    at = e;
  }
  return out + r.text.slice(at);
}

function explainLine(r: SearchResult): string {
  const s = r.scores;
  const part = (name: string, v: number | null, rank: number | null) =>
    v === null ? `${name} –` : `${name} ${v.toFixed(3)}${rank ? ` (#${rank})` : ''}`;
  const relevance = s.relevance ?? s.fused;
  const recency =
    s.recencyBasis === 'undated'
      ? `recency ×${s.recency.toFixed(4)} (date unknown: as if ${s.assumedAgeDays ?? '?'} days old)`
      : `recency ×${s.recency.toFixed(4)}`;
  return [
    part('bm25', s.bm25, s.bm25Rank),
    part('dense', s.dense, s.denseRank),
    `fused ${s.fused.toFixed(4)}`,
    s.rerank === null ? null : `rerank ${s.rerank.toFixed(3)}`,
    `final ${s.final.toFixed(4)} = relevance ${relevance.toFixed(4)} × ${recency}`,
  ]
    .filter(Boolean)
    .join(' · ');
}

export function formatSearch(res: SearchResponse, opts: FormatOptions): string {
  const c = opts.color;
  const lines: string[] = [];
  const decay = res.halfLifeDays === null ? 'no time decay' : `half-life ${res.halfLifeDays} d as of ${res.asOf.slice(0, 10)}`;
  lines.push(
    paint(c, ANSI.dim, `${res.kind} · ${res.total} matching passages · page ${res.page} · ${decay} · ${res.timingsMs.total ?? '?'} ms`),
  );
  for (const w of res.warnings ?? []) lines.push(paint(c, ANSI.red, `warning: ${w}`));
  if (res.verdict) {
    const v = res.verdict;
    const tone = v.label === 'SUPPORTED' ? ANSI.green : v.label === 'REFUTED' ? ANSI.red : ANSI.bold;
    lines.push(
      `${paint(c, tone, `verdict: ${v.label}`)} (confidence ${v.confidence.toFixed(2)}, ${v.model})${v.reason ? ` — ${v.reason}` : ''}`,
    );
  } else if (res.verdictStatus === 'unavailable') {
    lines.push(paint(c, ANSI.dim, 'no verdict: the NLI model is unavailable (see the warning above)'));
  } else if (res.verdictStatus === 'no_model' && res.kind === 'claim') {
    lines.push(paint(c, ANSI.dim, 'no verdict: no NLI model configured'));
  } else if (res.verdictStatus === 'keywords') {
    lines.push(paint(c, ANSI.dim, 'no verdict: these are keywords, not a claim (write a statement to get one)'));
  } else if (res.verdictStatus === 'no_match') {
    lines.push(paint(c, ANSI.dim, 'no verdict: nothing in the archive matches this claim'));
  }
  if (!res.results.length) lines.push('no results');
  res.results.forEach((r, i) => {
    const n = (res.page - 1) * res.k + i + 1;
    const date = r.publishedAt ? r.publishedAt.slice(0, 10) : 'undated';
    lines.push('');
    lines.push(`${paint(c, ANSI.bold, `${n}. ${r.title}`)}  ${paint(c, ANSI.dim, `${r.source} · ${date} · score ${r.score.toFixed(4)}`)}`);
    lines.push(paint(c, ANSI.dim, r.url));
    lines.push(highlight(r, c));
    for (const d of r.duplicates ?? []) lines.push(paint(c, ANSI.dim, `same story also in: ${d.source} · ${d.title} · ${d.url}`));
    if (opts.explain) lines.push(paint(c, ANSI.dim, explainLine(r)));
  });
  return lines.join('\n') + '\n';
}
