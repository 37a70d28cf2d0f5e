/**
 * The verdict section of `quin eval` (results.json key "verdict"):
 * - SciFact: the claim-level label (SUPPORT / CONTRADICT / NEI) against our verdict, mapped
 *   SUPPORTED → SUPPORT, REFUTED → CONTRADICT, NOT_ENOUGH_EVIDENCE and MIXED → NEI. End to end: the
 *   search pipeline's top results and evidence sentences (hybrid, plus the default reranker if any).
 *   Oracle: the gold rationale sentences (for NEI claims, which have none, the two sentences of each
 *   cited abstract that share most words with the claim). Oracle reader: the same gold evidence read
 *   as one pair by the NLI model alone, its most probable label — the bar the claim decision must
 *   reach on the same evidence. Accuracy and macro-F1 (per split too), the precision of each
 *   committed label and the risk–coverage table (eval/verdict-metrics.ts).
 * - Climate-FEVER: every claim–evidence sentence judged (3-way macro-F1 per evidence sentence), with
 *   the same risk–coverage table over the pairs called supporting or refuting.
 */
import fs from 'node:fs';
import type { Config } from '../lib/config';
import { describeError } from '../lib/errors';
import { DEFAULT_MODELS } from '../lib/models';
import { analyzeQuery, search, type SearchContext } from '../ranking';
import { createRerankStage } from '../ranking/rerank';
import { createVerdictStage, type Decision, type NliVerdictStage, type StanceProbs } from '../ranking/verdict';
import type { SearchResult, VerdictLabel } from '../ranking/types';
import type { EvalQuery } from './datasets';
import { readJsonl } from './datasets';
import type { EvalSection, EvalSectionInput } from './runs';
import { classification, verdictMetrics } from './verdict-metrics';

export const CLAIM_LABELS = ['SUPPORT', 'CONTRADICT', 'NEI'] as const;
type ClaimLabel = (typeof CLAIM_LABELS)[number];

export function claimLabelOf(v: VerdictLabel): ClaimLabel {
  return v === 'SUPPORTED' ? 'SUPPORT' : v === 'REFUTED' ? 'CONTRADICT' : 'NEI';
}

export { classification, type Classification } from './verdict-metrics';

export interface JudgedClaim {
  query: EvalQuery;
  decision: Decision;
}

const COMMITTED = ['SUPPORTED', 'REFUTED', 'MIXED'];

/** Accuracy and macro-F1 of the claim labels (per split too), committed precision and the risk–coverage table. */
export function scoreClaims(items: readonly JudgedClaim[]) {
  const gold = items.map((j) => j.query.label ?? 'NEI');
  const pred = items.map((j) => claimLabelOf(j.decision.label));
  const bySplit = (s: string) => {
    const idx = items.map((j, i) => (j.query.split === s ? i : -1)).filter((i) => i >= 0);
    return classification(
      idx.map((i) => gold[i]!),
      idx.map((i) => pred[i]!),
      CLAIM_LABELS,
    );
  };
  const toVerdict: Record<string, string> = { SUPPORT: 'SUPPORTED', CONTRADICT: 'REFUTED', NEI: 'NOT_ENOUGH_EVIDENCE' };
  const m = verdictMetrics(
    items.map((j, i) => ({ gold: toVerdict[gold[i]!]!, predicted: j.decision.label, confidence: j.decision.confidence })),
    {
      labels: ['SUPPORTED', 'REFUTED', 'NOT_ENOUGH_EVIDENCE'],
      committed: COMMITTED,
      scoreAs: { MIXED: 'NOT_ENOUGH_EVIDENCE' },
      shown: ['MIXED'],
      flip: { from: 'SUPPORTED', to: 'REFUTED' },
    },
  );
  return {
    ...classification(gold, pred, CLAIM_LABELS),
    by_split: { train: bySplit('train'), dev: bySplit('dev') },
    committed: m.committed,
    precision_committed: m.precision_committed,
    true_marked_refuted: m.flipped,
    risk_coverage: m.risk_coverage,
  };
}

/** The reader's own label for evidence read as one pair: its most probable class, nothing withheld (the bar the claim decision must reach). */
export function readerDecision(p: StanceProbs): Decision {
  const label: VerdictLabel =
    p.supports >= p.refutes && p.supports >= p.neutral ? 'SUPPORTED' : p.refutes >= p.neutral ? 'REFUTED' : 'NOT_ENOUGH_EVIDENCE';
  const probabilities = { SUPPORTED: p.supports, REFUTED: p.refutes, MIXED: 0, NOT_ENOUGH_EVIDENCE: p.neutral };
  return { label, confidence: probabilities[label], probabilities };
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
    groups.push(
      idx === 'all'
        ? sentences
        : [...idx]
            .sort((a, b) => a - b)
            .map((i) => sentences[i])
            .filter((s): s is string => Boolean(s)),
    );
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
  const ctx: SearchContext = {
    ...input.ctx,
    reranker,
    verdict: null,
    options: { ...input.ctx.options, evidenceSentences: Math.max(input.ctx.options.evidenceSentences, stage.sentences) },
  };
  const endToEnd: JudgedClaim[] = [];
  // The gold rationales are about the claim by construction: read without the relevance gate.
  const given = stage.givenEvidence();
  const oracle: JudgedClaim[] = [];
  const reader: JudgedClaim[] = [];
  for (const q of input.queries) {
    const claim = analyzeQuery(q.text, { maxChars: 10_000 }).claim;
    const res = await search(
      {
        q: q.text,
        k: stage.depth,
        perArticle: 1,
        halfLifeDays: null,
        mode: 'hybrid',
        rerank: reranker !== null,
        verdict: false,
        evidenceTop: stage.depth,
      },
      ctx,
    );
    endToEnd.push({ query: q, decision: (await stage.judgeResults(res.results, claim)).decision });
    const gold = oracleEvidence(q, corpus);
    oracle.push({ query: q, decision: (await given.judgeResults(oracleResults(gold), claim)).decision });
    reader.push({ query: q, decision: readerDecision(await stage.readTogether(claim, gold.flat())) });
  }
  const t = stage.settings;
  return {
    model: stage.id,
    reranker: reranker?.id ?? null,
    settings: { depth: t.depth, sentences: t.sentences, commit: t.commit, commit_refuted: t.commitRefuted ?? t.commit, mixed: t.mixed },
    labels: 'SUPPORTED → SUPPORT, REFUTED → CONTRADICT, NOT_ENOUGH_EVIDENCE and MIXED → NEI',
    end_to_end: scoreClaims(endToEnd),
    oracle: scoreClaims(oracle),
    oracle_reader: scoreClaims(reader),
  };
}

const CF_LABEL: Record<string, string> = { SUPPORTS: 'supports', REFUTES: 'refutes', NOT_ENOUGH_INFO: 'neutral' };

async function climateVerdicts(input: EvalSectionInput, stage: NliVerdictStage) {
  const file = input.claimsFile;
  if (!file || !fs.existsSync(file)) return { skipped: 'the Climate-FEVER claims file is needed for the evidence labels' };
  const want = new Set(input.queries.map((q) => q.id));
  const split = new Map(input.queries.map((q) => [q.id, q.split]));
  const rows: { claim: string; evidence: string; label: string; split: string }[] = [];
  for (const { value } of readJsonl(file)) {
    const c = value as { claim_id: string; claim: string; evidences: { evidence: string; evidence_label: string }[] };
    if (!want.has(String(c.claim_id))) continue;
    for (const e of c.evidences)
      if (CF_LABEL[e.evidence_label])
        rows.push({
          claim: c.claim,
          evidence: e.evidence,
          label: CF_LABEL[e.evidence_label]!,
          split: split.get(String(c.claim_id)) ?? 'train',
        });
  }
  const pred: string[] = new Array(rows.length);
  const confidence: number[] = new Array(rows.length);
  const byClaim = new Map<string, number[]>();
  rows.forEach((r, i) => byClaim.set(r.claim, [...(byClaim.get(r.claim) ?? []), i]));
  // Gold evidence pairs are about their claim by construction: read without the relevance gate.
  const given = stage.givenEvidence();
  for (const [claim, idx] of byClaim) {
    const judged = await given.judgeSentences(
      analyzeQuery(claim, { maxChars: 10_000 }).claim,
      idx.map((i) => rows[i]!.evidence),
    );
    idx.forEach((i, j) => {
      pred[i] = judged[j]!.stance;
      confidence[i] = judged[j]!.probs[judged[j]!.stance];
    });
  }
  const labels = ['supports', 'refutes', 'neutral'];
  const sub = (s: string) => {
    const idx = rows.map((r, i) => (r.split === s ? i : -1)).filter((i) => i >= 0);
    return classification(
      idx.map((i) => rows[i]!.label),
      idx.map((i) => pred[i]!),
      labels,
    );
  };
  // Committing = calling a pair supporting or refuting; the table ranks those by their probability.
  const commits = verdictMetrics(
    rows.map((r, i) => ({ gold: r.label, predicted: pred[i]!, confidence: confidence[i]! })),
    { labels, committed: ['supports', 'refutes'] },
  );
  return {
    model: stage.id,
    per_evidence: {
      ...classification(
        rows.map((r) => r.label),
        pred,
        labels,
      ),
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
