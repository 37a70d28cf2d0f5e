/**
 * Retrieval metrics over one query's ranked document ids, pure, following trec_eval / BEIR
 * (pytrec_eval) conventions: binary relevance, gain 1 per relevant document, discount log2(rank + 1),
 * ideal DCG from min(k, |relevant|) relevant documents; recall = relevant found in the top k over all
 * relevant; reciprocal rank of the first relevant document within the top k, else 0. Queries without
 * relevant documents are left out by the caller (as BEIR leaves out queries without qrels).
 */

export function dcgAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  let dcg = 0;
  const seen = new Set<string>();
  ranked.slice(0, k).forEach((doc, i) => {
    // A document listed twice earns its gain once (trec_eval reads a run as a set per query).
    if (relevant.has(doc) && !seen.has(doc)) dcg += 1 / Math.log2(i + 2);
    seen.add(doc);
  });
  return dcg;
}

export function ndcgAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  if (!relevant.size) return 0;
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return dcgAt(ranked, relevant, k) / ideal;
}

export function recallAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  if (!relevant.size) return 0;
  const found = new Set(ranked.slice(0, k).filter((d) => relevant.has(d)));
  return found.size / relevant.size;
}

export function mrrAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  const i = ranked.slice(0, k).findIndex((d) => relevant.has(d));
  return i < 0 ? 0 : 1 / (i + 1);
}

/** A retrieved snippet: its document and the sentence range [start, end) it covers. */
export interface SnippetSpan {
  doc: string;
  sentenceStart: number;
  sentenceEnd: number;
}

/**
 * 1 when one of the top-k snippets contains a gold evidence sentence (sentence indexes per document;
 * 'all' when the whole document is the evidence, as in Climate-FEVER), else 0. Only meaningful for
 * queries that have evidence.
 */
export function evidenceHitAt(
  snippets: readonly SnippetSpan[],
  evidence: ReadonlyMap<string, ReadonlySet<number> | 'all'>,
  k: number,
): number {
  return snippets.slice(0, k).some((s) => {
    const gold = evidence.get(s.doc);
    if (!gold) return false;
    if (gold === 'all') return true;
    for (const i of gold) if (i >= s.sentenceStart && i < s.sentenceEnd) return true;
    return false;
  })
    ? 1
    : 0;
}

export function mean(values: readonly number[]): number | null {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
}

/** Four decimals, as regression files and tables show them. */
export function round4(x: number | null): number | null {
  return x === null ? null : Math.round(x * 10_000) / 10_000;
}
