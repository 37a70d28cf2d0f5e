/**
 * The verdict section of `quin eval` (results.json key "verdict"):
 * - SciFact: the claim-level label (SUPPORT / CONTRADICT / NEI) against our verdict, mapped
 *   SUPPORTED → SUPPORT, REFUTED → CONTRADICT, NOT_ENOUGH_EVIDENCE and MIXED → NEI. End to end: the
 *   search pipeline's top results and evidence sentences (hybrid, plus the default reranker if any).
 *   Oracle: the gold rationale sentences (for NEI claims, which have none, the two sentences of each
 *   cited abstract that share most words with the claim). Accuracy and macro-F1, per split too, and
 *   the abstention thresholds that the dev split prefers (to choose the defaults); the precision of
 *   committed verdicts and the risk–coverage table (eval/verdict-metrics.ts).
 * - Climate-FEVER: every claim–evidence sentence classified (3-way macro-F1 per evidence sentence),
 *   with the same risk–coverage table over the pairs called entailment or contradiction.
 */
import fs from 'node:fs';
import type { Config } from '../lib/config';
import { describeError } from '../lib/errors';
import { DEFAULT_MODELS, type NliLabel, type NliProbs } from '../lib/models';
import { analyzeQuery, search, type SearchContext } from '../ranking';
import { embedQuery } from '../ranking/query-vectors';
import { createRerankStage } from '../ranking/rerank';
import { aggregate, createVerdictStage, type JudgedSentence, type NliVerdictStage, type VerdictThresholds } from '../ranking/verdict';
import type { SearchResult, VerdictLabel } from '../ranking/types';
import type { EvalQuery } from './datasets';
import { readJsonl } from './datasets';
import type { EvalSection, EvalSectionInput } from './runs';
import { classification, verdictMetrics, type Prediction } from './verdict-metrics';

export const CLAIM_LABELS = ['SUPPORT', 'CONTRADICT', 'NEI'] as const;
type ClaimLabel = (typeof CLAIM_LABELS)[number];

export function claimLabelOf(v: VerdictLabel): ClaimLabel {
  return v === 'SUPPORTED' ? 'SUPPORT' : v === 'REFUTED' ? 'CONTRADICT' : 'NEI';
}

export { classification, type Classification } from './verdict-metrics';

export interface Judged {
  query: EvalQuery;
  judged: JudgedSentence[];
}

export function scoreJudged(items: readonly Judged[], t: VerdictThresholds) {
  const gold = items.map((j) => j.query.label ?? 'NEI');
  const pred = items.map((j) => claimLabelOf(aggregate(j.judged, t).label));
  const bySplit = (s: string) => {
    const idx = items.map((j, i) => (j.query.split === s ? i : -1)).filter((i) => i >= 0);
    return classification(
      idx.map((i) => gold[i]!),
      idx.map((i) => pred[i]!),
      CLAIM_LABELS,
    );
  };
  return { ...classification(gold, pred, CLAIM_LABELS), by_split: { train: bySplit('train'), dev: bySplit('dev') } };
}

/** Verdict → SciFact label, for scoring commits (MIXED and abstentions count as NEI). */
const SCIFACT_SCORE_AS: Record<VerdictLabel, ClaimLabel> = { SUPPORTED: 'SUPPORT', REFUTED: 'CONTRADICT', MIXED: 'NEI', NOT_ENOUGH_EVIDENCE: 'NEI' };

/**
 * What abstention would buy (eval/verdict-metrics.ts): the precision of committed verdicts
 * (SUPPORTED, REFUTED, MIXED) overall and per label, the share of claims that get one, and the
 * risk–coverage table over the verdicts' confidence.
 */
export function commitsOfJudged(items: readonly Judged[], t: VerdictThresholds) {
  const preds: Prediction[] = items.map((j) => {
    const a = aggregate(j.judged, t);
    return { gold: j.query.label ?? 'NEI', predicted: a.label, confidence: a.confidence };
  });
  const m = verdictMetrics(preds, { labels: CLAIM_LABELS, committed: ['SUPPORTED', 'REFUTED', 'MIXED'], scoreAs: SCIFACT_SCORE_AS });
  return { committed: m.committed, precision_committed: m.precision_committed, risk_coverage: m.risk_coverage };
}

/** The thresholds with the best dev macro-F1 over a grid (how the defaults are chosen). */
export function sweepThresholds(items: readonly Judged[]): VerdictThresholds & { dev_macro_f1: number | null } {
  const dev = items.filter((j) => j.query.split === 'dev');
  let best: VerdictThresholds & { dev_macro_f1: number | null } = { minEvidence: 0, mixedRatio: 1, refuteWeight: 1, dev_macro_f1: null };
  for (let m = 0; m <= 80; m += 2) {
    for (const mixedRatio of [0.5, 0.6, 0.7, 0.8, 0.9, 1.01]) {
      for (const refuteWeight of [1, 1.5, 2, 3, 4]) {
        const t = { minEvidence: m / 100, mixedRatio, refuteWeight };
        const f = scoreJudged(dev, t).macro_f1;
        if (f !== null && (best.dev_macro_f1 === null || f > best.dev_macro_f1)) best = { ...t, dev_macro_f1: f };
      }
    }
  }
  return best;
}

/** Stand-in search results made of given sentences (relevance 1, no decay): the oracle's evidence. */
function oracleResults(groups: readonly string[][]): SearchResult[] {
  return groups.map((sentences, i) => ({
    snippetId: -(i + 1),
    articleId: -(i + 1),
    position: 0,
    sentenceStart: 0,
    sentenceEnd: sentences.length,
    title: '',
    url: '',
    source: 'oracle',
    publishedAt: null,
    text: sentences.join(' '),
    evidence: sentences.map((s) => ({ text: s, start: 0, end: s.length, score: 1 })),
    score: 1,
    scores: { bm25: null, bm25Rank: null, dense: null, denseRank: null, fused: 1, rerank: null, recency: 1, final: 1 },
  }));
}

const words = (s: string) => new Set(s.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);

/** Gold rationale sentences per evidence document; for claims without any, the cited abstracts' sentences closest to the claim. */
export function oracleEvidence(q: EvalQuery, corpus: ReadonlyMap<string, string[]>): string[][] {
  const groups: string[][] = [];
  for (const [doc, idx] of q.evidence) {
    const sentences = corpus.get(doc) ?? [];
    groups.push(idx === 'all' ? sentences : [...idx].sort((a, b) => a - b).map((i) => sentences[i]).filter((s): s is string => Boolean(s)));
  }
  if (groups.some((g) => g.length)) return groups.filter((g) => g.length);
  const cw = words(q.text);
  for (const doc of q.relevant) {
    const ranked = (corpus.get(doc) ?? []).map((s) => ({ s, o: [...words(s)].filter((w) => cw.has(w)).length })).sort((a, b) => b.o - a.o);
    if (ranked.length) groups.push(ranked.slice(0, 2).map((r) => r.s));
  }
  return groups;
}

function scifactCorpus(file: string): Map<string, string[]> {
  return new Map(
    readJsonl(file).map(({ value }) => {
      const d = value as { doc_id: number | string; sentences: string[] };
      return [String(d.doc_id), d.sentences] as const;
    }),
  );
}

/** The NLI model a section evaluates: the configured one, else the default, else our own. */
export function evaluatedNli(config: Pick<Config, 'nliModel'>): string {
  return config.nliModel ?? DEFAULT_MODELS.nli ?? 'quin-nli';
}

async function scifactVerdicts(input: EvalSectionInput, stage: NliVerdictStage) {
  const corpus = scifactCorpus(input.corpusFile);
  const reranker = await createRerankStage(input.config).catch(() => null);
  const ctx: SearchContext = { ...input.ctx, reranker, verdict: null };
  const endToEnd: Judged[] = [];
  const oracle: Judged[] = [];
  for (const q of input.queries) {
    const query = analyzeQuery(q.text, { maxChars: 10_000 });
    const res = await search({ q: q.text, k: stage.depth, perArticle: 1, halfLifeDays: null, mode: 'hybrid', rerank: reranker !== null, verdict: false, evidenceTop: stage.depth }, ctx);
    // As the pipeline does: the claim's vector from the dense index's encoder (the stance head reads it).
    const jctx = { query, queryVector: await embedQuery(ctx.indexes.encoder, query.text), indexes: ctx.indexes };
    endToEnd.push({ query: q, judged: (await stage.judge(res.results, jctx)).judged });
    oracle.push({ query: q, judged: (await stage.judge(oracleResults(oracleEvidence(q, corpus)), jctx)).judged });
  }
  const t = stage.settings;
  return {
    model: stage.id,
    reranker: reranker?.id ?? null,
    settings: { aggregator: t.learned ? 'learned (verdict.json)' : 'thresholds', depth: t.depth, sentences: t.sentences, minEvidence: t.minEvidence, mixedRatio: t.mixedRatio, refuteWeight: t.refuteWeight ?? 1, pooling: t.pooling ?? 'mean' },
    labels: 'SUPPORTED → SUPPORT, REFUTED → CONTRADICT, NOT_ENOUGH_EVIDENCE and MIXED → NEI',
    end_to_end: { ...scoreJudged(endToEnd, t), ...commitsOfJudged(endToEnd, t) },
    oracle: { ...scoreJudged(oracle, t), ...commitsOfJudged(oracle, t) },
    dev_sweep: { end_to_end: sweepThresholds(endToEnd), oracle: sweepThresholds(oracle) },
  };
}

const CF_LABEL: Record<string, NliLabel> = { SUPPORTS: 'entailment', REFUTES: 'contradiction', NOT_ENOUGH_INFO: 'neutral' };

async function climateVerdicts(input: EvalSectionInput, stage: NliVerdictStage) {
  const file = input.claimsFile;
  if (!file || !fs.existsSync(file)) return { skipped: 'the Climate-FEVER claims file is needed for the evidence labels' };
  const want = new Set(input.queries.map((q) => q.id));
  const rows: { claim: string; evidence: string; label: NliLabel; split: string }[] = [];
  const split = new Map(input.queries.map((q) => [q.id, q.split]));
  for (const { value } of readJsonl(file)) {
    const c = value as { claim_id: string; claim: string; evidences: { evidence: string; evidence_label: string }[] };
    if (!want.has(String(c.claim_id))) continue;
    for (const e of c.evidences) if (CF_LABEL[e.evidence_label]) rows.push({ claim: c.claim, evidence: e.evidence, label: CF_LABEL[e.evidence_label]!, split: split.get(String(c.claim_id)) ?? 'train' });
  }
  // Per claim, so that the stance head (when the NLI folder has one) reads the claim's vector.
  const probs: NliProbs[] = new Array(rows.length);
  const byClaim = new Map<string, number[]>();
  rows.forEach((r, i) => {
    const idx = byClaim.get(r.claim);
    if (idx) idx.push(i);
    else byClaim.set(r.claim, [i]);
  });
  const { indexes } = input.ctx;
  for (const [claim, idx] of byClaim) {
    const query = analyzeQuery(claim, { maxChars: 10_000 });
    const judged = await stage.judgePremises(
      idx.map((i) => rows[i]!.evidence),
      query.claim,
      { queryVector: await embedQuery(indexes.encoder, query.text), indexes },
    );
    idx.forEach((i, j) => (probs[i] = judged[j]!));
  }
  const pred = probs.map((p) => (p.entailment >= p.contradiction && p.entailment >= p.neutral ? 'entailment' : p.contradiction >= p.neutral ? 'contradiction' : 'neutral'));
  const confidence = probs.map((p, i) => p[pred[i] as NliLabel]);
  const labels = ['entailment', 'contradiction', 'neutral'];
  const sub = (s: string) => {
    const idx = rows.map((r, i) => (r.split === s ? i : -1)).filter((i) => i >= 0);
    return classification(
      idx.map((i) => rows[i]!.label),
      idx.map((i) => pred[i]!),
      labels,
    );
  };
  // Committing = calling a pair entailment or contradiction; the table ranks those by their probability.
  const commits = verdictMetrics(
    rows.map((r, i) => ({ gold: r.label, predicted: pred[i]!, confidence: confidence[i]! })),
    { labels, committed: ['entailment', 'contradiction'] },
  );
  return {
    model: stage.id,
    per_evidence: {
      ...classification(rows.map((r) => r.label), pred, labels),
      by_split: { train: sub('train'), dev: sub('dev') },
      committed: commits.committed,
      precision_committed: commits.precision_committed,
      risk_coverage: commits.risk_coverage,
    },
  };
}

export const VERDICT_SECTION: EvalSection = {
  name: 'verdict',
  datasets: ['scifact', 'climate-fever'],
  async run(input) {
    const model = evaluatedNli(input.config);
    if (model.toLowerCase() === 'none') return { skipped: 'QUIN_NLI_MODEL=none' };
    let stage: NliVerdictStage | null;
    try {
      stage = await createVerdictStage(input.config, { model });
    } catch (e) {
      return { skipped: describeError(e) };
    }
    if (!stage) return { skipped: `no NLI model (${model})` };
    return input.dataset === 'scifact' ? scifactVerdicts(input, stage) : climateVerdicts(input, stage);
  },
};
