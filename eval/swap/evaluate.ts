/**
 * `quin eval details`: does the verdict catch one changed detail? From sentences of the BBC and
 * HuffPost articles held out from every training set (eval/news/heldout.ts), a claim a reader would
 * write (eval/swap claimFrom) — SUPPORTED — and the same claim with exactly one detail changed, one
 * kind per sentence in turn (a name, a place, an amount, an ordinal, a score, a date, the direction,
 * the polarity, the roles) — REFUTED; each checked by the product's own search and verdict against an
 * index holding the original coverage (BBC + HuffPost whole). Reported per kind: REFUTED recall and
 * how often the changed claim is called SUPPORTED; for the unchanged claims SUPPORTED recall and how
 * often they are called REFUTED; the per-claim latency. Deterministic for a seed and a sample size.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readBbc } from '../../crawler/import/bbc';
import { readHuffpost } from '../../crawler/import/huffpost';
import { splitSentences } from '../../crawler/text/sentences';
import type { Config } from '../../lib/config';
import { createError } from '../../lib/errors';
import { createProgress } from '../../lib/progress';
import { mulberry32 } from '../../lib/random';
import { search, type SearchContext } from '../../ranking';
import { createRerankStage } from '../../ranking/rerank';
import { createVerdictStage, sharedLexicon } from '../../ranking/verdict';
import type { VerdictLabel } from '../../ranking/types';
import { heldOutArticle } from '../news/heldout';
import { newsCorpusSource } from '../news/claims';
import { openWorkspace } from '../workspace';
import { claimFrom, namePool, SWAP_KINDS, swapsOf, type SwapKind } from './swap';

export const DEFAULT_SEED = 20261129;

export interface SwapClaim {
  id: string;
  claim: string;
  label: 'SUPPORTED' | 'REFUTED';
  /** The kind of detail changed; 'unchanged' for the claim the sentence supports. */
  kind: SwapKind | 'unchanged';
  corpus: 'bbc' | 'huffpost';
  doc: string;
  sentence: string;
  from?: string;
  to?: string;
}

export interface SwapOutcome extends SwapClaim {
  predicted: VerdictLabel;
  confidence: number;
  ms: number;
  /** The reason of the first shown item on the committed side (what decided it). */
  reason?: string;
}

type Article = { corpus: 'bbc' | 'huffpost'; doc: string; sentences: string[] };

async function heldOutArticles(sharedData: string): Promise<Article[]> {
  const out: Article[] = [];
  const read = { bbc: readBbc, huffpost: readHuffpost } as const;
  for (const corpus of ['bbc', 'huffpost'] as const) {
    const src = newsCorpusSource(corpus, sharedData);
    if (!fs.existsSync(src.path))
      throw createError('NOT_FOUND', `the ${corpus} corpus is not at ${src.path} (see ../shared/data/README.md)`);
    for await (const a of read[corpus](src.path)) {
      const doc = a.externalId ?? a.canonicalUrl;
      if (doc && heldOutArticle(corpus, doc)) out.push({ corpus, doc, sentences: splitSentences([a.title, a.text ?? ''].join('\n')) });
    }
  }
  return out;
}

const usable = (s: string) => {
  const n = s.split(/\s+/).length;
  return n >= 7 && n <= 40 && /[a-z]/.test(s) && !s.includes('http') && (s.match(/;/g) ?? []).length < 3;
};

/**
 * `n` sentences' claims: each sentence gives its supported claim and one changed claim, the kind the
 * sample has least of among those the sentence admits (so every kind is represented).
 */
export async function detailSwapClaims(sharedData: string, n: number, seed = DEFAULT_SEED): Promise<SwapClaim[]> {
  const lex = sharedLexicon();
  const rand = mulberry32(seed);
  const arts = await heldOutArticles(sharedData);
  const pool = arts.flatMap((a) => a.sentences.filter(usable).map((sentence) => ({ a, sentence })));
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  const counts = new Map<SwapKind, number>(SWAP_KINDS.map((k) => [k, 0]));
  const names = new Map<string, ReturnType<typeof namePool>>();
  const out: SwapClaim[] = [];
  let used = 0;
  for (const { a, sentence } of pool) {
    if (used >= n) break;
    const claim = claimFrom(sentence, rand);
    if (!claim) continue;
    const key = `${a.corpus}:${a.doc}`;
    if (!names.has(key)) names.set(key, namePool(a.sentences, lex));
    const swaps = swapsOf(claim.text, names.get(key)!, lex, rand);
    if (!swaps.length) continue;
    const swap = swaps.reduce((best, s) => (counts.get(s.kind)! < counts.get(best.kind)! ? s : best));
    counts.set(swap.kind, counts.get(swap.kind)! + 1);
    const base = { corpus: a.corpus, doc: a.doc, sentence };
    out.push({ ...base, id: `swap-${used}-same`, claim: claim.text, label: 'SUPPORTED', kind: 'unchanged' });
    out.push({
      ...base,
      id: `swap-${used}-${swap.kind}`,
      claim: swap.text,
      label: 'REFUTED',
      kind: swap.kind,
      from: swap.from,
      to: swap.to,
    });
    used++;
  }
  return out;
}

export interface KindScore {
  n: number;
  /** REFUTED claims: share called REFUTED; unchanged: share called SUPPORTED. */
  recall: number | null;
  /** REFUTED claims: share called SUPPORTED; unchanged: share called REFUTED. */
  wrong: number | null;
  /** Share given no verdict (not enough evidence or mixed). */
  abstained: number | null;
}

export interface SwapScore {
  claims: number;
  sentences: number;
  by_kind: Record<string, KindScore>;
  changed: KindScore;
  unchanged: KindScore;
  latency_ms: { p50: number; p95: number; mean: number };
}

const share = (xs: readonly SwapOutcome[], f: (o: SwapOutcome) => boolean) =>
  xs.length ? Math.round((xs.filter(f).length / xs.length) * 1e4) / 1e4 : null;

function kindScore(xs: readonly SwapOutcome[]): KindScore {
  const changed = xs.every((o) => o.label === 'REFUTED');
  const right: VerdictLabel = changed ? 'REFUTED' : 'SUPPORTED';
  const wrong: VerdictLabel = changed ? 'SUPPORTED' : 'REFUTED';
  return {
    n: xs.length,
    recall: share(xs, (o) => o.predicted === right),
    wrong: share(xs, (o) => o.predicted === wrong),
    abstained: share(xs, (o) => o.predicted === 'NOT_ENOUGH_EVIDENCE' || o.predicted === 'MIXED'),
  };
}

function quantile(xs: readonly number[], q: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))]!);
}

/** The scores of a run (pure). */
export function scoreSwaps(outcomes: readonly SwapOutcome[]): SwapScore {
  const by_kind: Record<string, KindScore> = {};
  for (const k of ['unchanged', ...SWAP_KINDS]) {
    const xs = outcomes.filter((o) => o.kind === k);
    if (xs.length) by_kind[k] = kindScore(xs);
  }
  const ms = outcomes.map((o) => o.ms);
  return {
    claims: outcomes.length,
    sentences: outcomes.filter((o) => o.kind === 'unchanged').length,
    by_kind,
    changed: kindScore(outcomes.filter((o) => o.label === 'REFUTED')),
    unchanged: kindScore(outcomes.filter((o) => o.label === 'SUPPORTED')),
    latency_ms: {
      p50: quantile(ms, 0.5),
      p95: quantile(ms, 0.95),
      mean: ms.length ? Math.round(ms.reduce((a, b) => a + b, 0) / ms.length) : 0,
    },
  };
}

const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);

export function formatSwaps(s: SwapScore, header: string): string {
  const rows = Object.entries(s.by_kind).map(
    ([k, v]) =>
      `  ${k.padEnd(10)} ${String(v.n).padStart(5)}  ${(k === 'unchanged' ? 'SUPPORTED ' : 'REFUTED   ') + pct(v.recall).padStart(7)}  ${(k === 'unchanged' ? '→ REFUTED ' : '→ SUPPORTED ') + pct(v.wrong).padStart(7)}  no verdict ${pct(v.abstained).padStart(7)}`,
  );
  return [
    header,
    `${s.sentences} sentences, ${s.claims} claims`,
    ...rows,
    `changed claims: REFUTED ${pct(s.changed.recall)}, called SUPPORTED ${pct(s.changed.wrong)}; unchanged: SUPPORTED ${pct(s.unchanged.recall)}, called REFUTED ${pct(s.unchanged.wrong)}`,
    `latency per claim: p50 ${s.latency_ms.p50} ms, p95 ${s.latency_ms.p95} ms`,
  ].join('\n');
}

export interface DetailEvalOptions {
  base: Config;
  sharedData: string;
  /** Sentences sampled (each gives two claims). */
  sentences: number;
  seed?: number;
  outDir?: string;
  progress?: boolean;
  /** Parent folder of the scratch workspace (default <cacheDir>/eval). */
  workspaceRoot?: string;
}

export async function evaluateDetails(opts: DetailEvalOptions): Promise<{ score: SwapScore; outcomes: SwapOutcome[]; text: string }> {
  const claims = await detailSwapClaims(opts.sharedData, opts.sentences, opts.seed);
  const corpora = (['bbc', 'huffpost'] as const).map((c) => newsCorpusSource(c, opts.sharedData));
  const ws = await openWorkspace({ dataset: 'news', corpora, base: opts.base, root: opts.workspaceRoot, progress: opts.progress });
  try {
    const verdict = await createVerdictStage(ws.config);
    if (!verdict) throw createError('MODEL_UNAVAILABLE', 'no NLI model to judge the claims with (QUIN_NLI_MODEL is none)');
    const reranker = await createRerankStage(ws.config);
    const ctx: SearchContext = { ...ws.ctx, reranker, verdict };
    const progress = opts.progress === false ? undefined : createProgress({ label: 'eval details', total: claims.length, unit: 'claims' });
    const outcomes: SwapOutcome[] = [];
    for (const c of claims) {
      const t0 = performance.now();
      const res = await search({ q: c.claim, k: 10, halfLifeDays: null, verdict: true, rerank: Boolean(reranker) }, ctx);
      const v = res.verdict;
      const side = v?.label === 'REFUTED' ? v.evidence.refutes : v?.label === 'SUPPORTED' ? v.evidence.supports : [];
      outcomes.push({
        ...c,
        predicted: v?.label ?? 'NOT_ENOUGH_EVIDENCE',
        confidence: v?.confidence ?? 0,
        ms: Math.round(performance.now() - t0),
        ...(side[0]?.reason ? { reason: side[0].reason } : {}),
      });
      progress?.tick();
    }
    progress?.done();
    const score = scoreSwaps(outcomes);
    const header = `details: one changed detail per claim, from held-out BBC and HuffPost sentences (seed ${opts.seed ?? DEFAULT_SEED}); NLI ${verdict.id}, reranker ${reranker?.id ?? 'none'}, ${ws.stats.snippets} snippets`;
    if (opts.outDir) {
      fs.mkdirSync(opts.outDir, { recursive: true });
      fs.writeFileSync(
        path.join(opts.outDir, 'results.json'),
        JSON.stringify({ dataset: 'details', model: verdict.id, ...score }, null, 1) + '\n',
      );
      fs.writeFileSync(path.join(opts.outDir, 'predictions.jsonl'), outcomes.map((o) => JSON.stringify(o)).join('\n') + '\n');
    }
    return { score, outcomes, text: formatSwaps(score, header) };
  } finally {
    await ws.close();
  }
}
