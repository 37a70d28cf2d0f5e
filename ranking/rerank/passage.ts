/**
 * What the cross-encoder reads of a candidate (pure, apart from the sentence-vector look-up):
 *
 * - `window`: the title and the whole snippet ("Title. text"), cut by the tokenizer at the model's
 *   limit (longest first, so a long window loses its last sentences);
 * - `best`: the title and the snippet's sentences that answer the query best — the evidence score of
 *   ranking/evidence.ts (cosine of the cached sentence vectors + share of query words) — taken best
 *   first while they fit in `chars` characters (the best one always), then put back in their order.
 *
 * training/reranker/lists.py builds the training passages by the same rules (its tests pin them).
 */
import { overlapShare, sentenceScore } from '../evidence';
import type { RerankCandidate, StageContext } from '../stages';

export type PassageInput = 'window' | 'best';
export const PASSAGE_INPUTS: readonly PassageInput[] = ['window', 'best'];

/** "Title. text" (the title alone is dropped when empty). */
export function withTitle(title: string, text: string): string {
  const t = title.trim();
  return t ? `${t}. ${text}` : text;
}

/** The window as the model reads it: the title and the snippet. */
export function passageText(c: Pick<RerankCandidate, 'title' | 'text'>): string {
  return withTitle(c.title, c.text);
}

/** The indexes of the sentences kept by `best`, in document order. */
export function bestSentenceIndexes(sentences: readonly string[], scores: readonly number[], chars: number): number[] {
  if (!sentences.length) return [];
  const order = sentences.map((_, i) => i).sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b);
  const kept: number[] = [];
  let used = 0;
  for (const i of order) {
    const len = sentences[i]!.length + (kept.length ? 1 : 0);
    if (kept.length && used + len > chars) continue;
    kept.push(i);
    used += len;
  }
  return kept.sort((a, b) => a - b);
}

/** The title and the best sentences (see above). */
export function bestSentencesText(title: string, sentences: readonly string[], scores: readonly number[], chars: number): string {
  return withTitle(
    title,
    bestSentenceIndexes(sentences, scores, chars)
      .map((i) => sentences[i]!)
      .join(' '),
  );
}

/** The evidence score of every sentence of every candidate against the query, as the evidence stage scores them. */
export async function sentenceEvidenceScores(cands: readonly RerankCandidate[], ctx: StageContext): Promise<number[][]> {
  const flat = cands.flatMap((c) => c.sentences);
  const vectors = flat.length ? await ctx.indexes.sentenceVectors.get(flat) : [];
  let at = 0;
  return cands.map((c) => c.sentences.map((s) => sentenceScore(ctx.queryVector, vectors[at++] ?? null, overlapShare(ctx.query.terms, s))));
}

/** The passages of the candidates for the given input. */
export async function passages(
  cands: readonly RerankCandidate[],
  ctx: StageContext,
  input: PassageInput,
  chars: number,
): Promise<string[]> {
  if (input === 'window') return cands.map(passageText);
  const scores = await sentenceEvidenceScores(cands, ctx);
  return cands.map((c, i) => bestSentencesText(c.title, c.sentences, scores[i]!, chars));
}
