/**
 * `quin eval tampered`: whole articles checked as a reader would check them (`checkArticle`, pasted
 * text with its title), after one detail was changed in about a third of their check-worthy sentences
 * (tamper.ts), against an index holding the original coverage (BBC + HuffPost whole, the news
 * workspace of eval/workspace.ts). The changed sentences should come back REFUTED, the unchanged ones
 * SUPPORTED: precision and recall of the REFUTED flags, the unchanged sentences' REFUTED and
 * SUPPORTED shares, per-claim and per-article latency (score.ts). Articles: held-out BBC articles
 * (eval/news/heldout.ts) with at least `minClaims` check-worthy sentences, in a seeded order.
 */
import fs from 'node:fs';
import path from 'node:path';
import { checkArticle, type CheckEvent, type ClaimResult } from '../../check';
import { readBbc } from '../../crawler/import/bbc';
import type { Config } from '../../lib/config';
import { createError } from '../../lib/errors';
import { createProgress } from '../../lib/progress';
import { mulberry32 } from '../../lib/random';
import { search, type SearchContext } from '../../ranking';
import { createRerankStage } from '../../ranking/rerank';
import { createVerdictStage } from '../../ranking/verdict';
import { newsCorpusSource } from '../news/claims';
import { heldOutArticle } from '../news/heldout';
import type { SwapKind } from '../swap/swap';
import { openWorkspace } from '../workspace';
import { formatTampered, scoreTampered, type ClaimOutcome, type TamperScore } from './score';
import { tamperArticle, type SourceArticle, type TamperedArticle } from './tamper';

export const DEFAULT_TAMPER_SEED = 20261130;

export interface TamperEvalOptions {
  base: Config;
  sharedData: string;
  articles: number;
  seed?: number;
  /** Articles with fewer check-worthy sentences are passed over. */
  minClaims?: number;
  outDir?: string;
  progress?: boolean;
}

/** Held-out BBC articles, in a seeded order. */
async function heldOutBbc(sharedData: string, rand: () => number): Promise<SourceArticle[]> {
  const src = newsCorpusSource('bbc', sharedData);
  if (!fs.existsSync(src.path)) throw createError('NOT_FOUND', `the BBC corpus is not at ${src.path} (see ../shared/data/README.md)`);
  const out: (SourceArticle & { r: number })[] = [];
  for await (const a of readBbc(src.path)) {
    const doc = a.externalId ?? a.canonicalUrl;
    if (doc && heldOutArticle('bbc', doc)) out.push({ doc, title: a.title, text: a.text ?? '', r: rand() });
  }
  return out.sort((x, y) => x.r - y.r).map(({ r: _r, ...a }) => a);
}

export async function tamperedArticles(
  opts: Pick<TamperEvalOptions, 'sharedData' | 'articles' | 'seed' | 'minClaims'>,
): Promise<TamperedArticle[]> {
  const rand = mulberry32(opts.seed ?? DEFAULT_TAMPER_SEED);
  const counts = new Map<SwapKind, number>();
  const out: TamperedArticle[] = [];
  for (const a of await heldOutBbc(opts.sharedData, rand)) {
    if (out.length >= opts.articles) break;
    const t = tamperArticle(a, rand, counts);
    if (t && t.changes.length + t.unchanged.length >= (opts.minClaims ?? 8)) out.push(t);
  }
  return out;
}

/** Each check-worthy sentence of the original's outcome: the claim the check made of it, or none. */
function outcomesOf(a: TamperedArticle, claims: readonly ClaimResult[]): ClaimOutcome[] {
  const byText = new Map(claims.map((c) => [c.text, c]));
  const row = (sentence: string, changed: boolean, kind: string | null): ClaimOutcome => {
    const c = byText.get(sentence);
    const refuting = c?.decidedBy?.stance === 'refutes' ? c.decidedBy.reason : undefined;
    return {
      doc: a.doc,
      sentence,
      changed,
      kind,
      predicted: c?.label ?? null,
      parts: c?.parts.length ?? 0,
      ms: c?.ms ?? 0,
      ...(refuting ? { reason: refuting } : {}),
    };
  };
  return [...a.changes.map((ch) => row(ch.changed, true, ch.kind)), ...a.unchanged.map((s) => row(s, false, null))];
}

async function checkOne(a: TamperedArticle, ctx: SearchContext, config: Config): Promise<{ claims: ClaimResult[]; seconds: number }> {
  const t0 = performance.now();
  const claims: ClaimResult[] = [];
  const events = checkArticle({ text: a.tampered, title: a.title }, { config, db: ctx.db, runSearch: (r) => search(r, ctx) });
  for await (const e of events as AsyncGenerator<CheckEvent>) if (e.type === 'claim') claims.push(e.claim);
  return { claims, seconds: (performance.now() - t0) / 1000 };
}

export async function evaluateTampered(opts: TamperEvalOptions): Promise<{ score: TamperScore; outcomes: ClaimOutcome[]; text: string }> {
  const articles = await tamperedArticles(opts);
  const corpora = (['bbc', 'huffpost'] as const).map((c) => newsCorpusSource(c, opts.sharedData));
  const ws = await openWorkspace({ dataset: 'news', corpora, base: opts.base, progress: opts.progress });
  try {
    const verdict = await createVerdictStage(ws.config);
    if (!verdict) throw createError('MODEL_UNAVAILABLE', 'no NLI model to judge the claims with (QUIN_NLI_MODEL is none)');
    const ctx: SearchContext = { ...ws.ctx, reranker: await createRerankStage(ws.config), verdict };
    const progress =
      opts.progress === false ? undefined : createProgress({ label: 'eval tampered', total: articles.length, unit: 'articles' });
    const outcomes: ClaimOutcome[] = [];
    const seconds: number[] = [];
    for (const a of articles) {
      const run = await checkOne(a, ctx, ws.config);
      outcomes.push(...outcomesOf(a, run.claims));
      seconds.push(run.seconds);
      progress?.tick();
    }
    progress?.done();
    const score = scoreTampered(outcomes, seconds);
    const header = `tampered articles: held-out BBC articles, one detail changed in about a third of their check-worthy sentences (seed ${opts.seed ?? DEFAULT_TAMPER_SEED}); NLI ${verdict.id}, reranker ${ctx.reranker?.id ?? 'none'}, ${ws.stats.snippets} snippets`;
    if (opts.outDir) {
      fs.mkdirSync(opts.outDir, { recursive: true });
      fs.writeFileSync(
        path.join(opts.outDir, 'results.json'),
        JSON.stringify({ dataset: 'tampered', model: verdict.id, ...score }, null, 1) + '\n',
      );
      fs.writeFileSync(path.join(opts.outDir, 'predictions.jsonl'), outcomes.map((o) => JSON.stringify(o)).join('\n') + '\n');
    }
    return { score, outcomes, text: formatTampered(score, header) };
  } finally {
    await ws.close();
  }
}
