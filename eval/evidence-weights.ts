/**
 * `quin eval evidence-weights`: how well the evidence-sentence score picks a gold rationale sentence.
 * For every SciFact claim with evidence and every top-10 result snippet (hybrid, no decay) that holds
 * a gold sentence of its abstract, is the best-scored sentence a gold one? Reported for several
 * weights of the embedding cosine against word overlap (ranking/evidence.ts), on train and dev.
 */
import type { Config } from '../lib/config';
import { bm25Terms, loadRows, pickEvidence, search, sentencesAtSpans } from '../ranking';
import { loadScifactClaims, selectQueries } from './datasets';
import { memoEncoder } from './harness';
import { openWorkspace } from './workspace';

export const EVIDENCE_WEIGHTS = [0, 0.25, 0.5, 0.75, 1];

export interface EvidenceWeightsReport {
  split: 'train' | 'dev';
  snippets: number;
  /** Share of snippets whose top sentence is gold, per cosine weight. */
  precisionAt1: { weight: number; precision: number }[];
}

export async function evidenceWeights(opts: { claimsFile: string; corpusFile: string; base: Config }): Promise<EvidenceWeightsReport[]> {
  const ws = await openWorkspace({ dataset: 'scifact', corpusFile: opts.corpusFile, format: 'scifact', base: opts.base });
  try {
    const indexes = { ...ws.indexes, encoder: memoEncoder(ws.indexes.encoder) };
    const ctx = { ...ws.ctx, indexes };
    const claims = loadScifactClaims(opts.claimsFile);
    const out: EvidenceWeightsReport[] = [];
    for (const split of ['train', 'dev'] as const) {
      const hits = EVIDENCE_WEIGHTS.map(() => 0);
      let snippets = 0;
      for (const q of selectQueries(claims, split).filter((c) => c.evidence.size)) {
        const res = await search({ q: q.text, k: 10, halfLifeDays: null, evidenceTop: 0, rerank: false, verdict: false }, ctx);
        const [qv] = await indexes.encoder.embed([res.query]);
        const rows = await loadRows(
          ws.db,
          res.results.map((r) => r.snippetId),
          'sqlite',
        );
        const terms = bm25Terms(res.query);
        for (const r of res.results) {
          const gold = q.evidence.get(ws.docIdOf(r.articleId) ?? '');
          if (!gold || gold === 'all') continue;
          const inside = [...gold].filter((i) => i >= r.sentenceStart && i < r.sentenceEnd).map((i) => i - r.sentenceStart);
          const row = rows.get(r.snippetId);
          if (!inside.length || !row) continue;
          const sentences = sentencesAtSpans(row.text, row.sentenceSpans);
          const vectors = await indexes.sentenceVectors.get(sentences.map((s) => s.text.trim()));
          snippets++;
          EVIDENCE_WEIGHTS.forEach((w, i) => {
            const [best] = pickEvidence(sentences, vectors, qv ?? null, terms, 1, w);
            if (best && inside.includes(sentences.findIndex((s) => s.start === best.start))) hits[i]!++;
          });
        }
      }
      out.push({
        split,
        snippets,
        precisionAt1: EVIDENCE_WEIGHTS.map((weight, i) => ({
          weight,
          precision: snippets ? Math.round((hits[i]! / snippets) * 10_000) / 10_000 : 0,
        })),
      });
    }
    return out;
  } finally {
    await ws.close();
  }
}
