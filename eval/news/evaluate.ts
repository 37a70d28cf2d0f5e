/**
 * `quin eval news`: every claim of a news claim file through the product's search pipeline, verdict
 * on, in a scratch workspace holding the corpora the file names (eval/workspace.ts): BBC and HuffPost
 * whole, Reuters as the stories the claims name plus fixed distractors (reuters-subset.ts). The
 * corpora are those of the whole file, so `--limit` reuses the same workspace.
 *
 * Time decay is off: the corpora are archives from 1987, 2004–05 (undated) and 2018, and a decay
 * anchored at any one date would rank them against each other by age alone (at any half-life a 1987
 * story is worth nothing next to a 2018 one). A reader checking a claim against an archive wants
 * relevance only. Everything else is the product's default request: the top 10, the default
 * reranker, the configured NLI model and abstention settings.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../../lib/config';
import { createError, isQuinError } from '../../lib/errors';
import { createProgress } from '../../lib/progress';
import { search, type SearchContext } from '../../ranking';
import { createRerankStage } from '../../ranking/rerank';
import { createVerdictStage } from '../../ranking/verdict';
import { buildResults, writeResults, type EvalResults } from '../report';
import { fileSha256, openWorkspace, type CorpusSource } from '../workspace';
import { externalIdOf, loadNewsClaims, NEWS_CORPORA, newsCorpusSource, type NewsClaim, type NewsCorpus } from './claims';
import { DEFAULT_REUTERS_DISTRACTORS, writeReutersSubset, type ReutersSubset } from './reuters-subset';
import { formatNews, locateSentence, scoreNews, type ClaimOutcome } from './score';

export interface NewsEvalOptions {
  claimsFile: string;
  /** Only the first n claims of the file. */
  limit?: number;
  outDir?: string;
  base: Config;
  /** The shared data folder (default ../shared/data). */
  sharedData: string;
  reutersDistractors?: number;
  workspaceRoot?: string;
  progress?: boolean;
  command?: string;
}

export interface NewsEvalOutcome {
  results: EvalResults;
  info: Record<string, unknown>;
  text: string;
  outcomes: ClaimOutcome[];
  resultsFile?: string;
}

interface Prepared {
  sources: CorpusSource[];
  reuters: ReutersSubset | null;
}

function prepareCorpora(
  claims: readonly NewsClaim[],
  opts: Pick<NewsEvalOptions, 'claimsFile' | 'sharedData' | 'reutersDistractors'>,
  scratch: string,
): Prepared {
  const used = NEWS_CORPORA.filter((c) => claims.some((x) => x.corpus === c));
  const sources: CorpusSource[] = [];
  let reuters: ReutersSubset | null = null;
  for (const corpus of used) {
    const src = newsCorpusSource(corpus, opts.sharedData);
    if (!fs.existsSync(src.path))
      throw createError('NOT_FOUND', `the claims need the ${corpus} corpus, which is not at ${src.path} (see ../shared/data/README.md)`);
    if (corpus !== 'reuters') {
      sources.push(src);
      continue;
    }
    const named = new Set(claims.filter((c) => c.corpus === 'reuters' && c.doc).map((c) => c.doc!));
    reuters = writeReutersSubset(src.path, named, opts.reutersDistractors ?? DEFAULT_REUTERS_DISTRACTORS, path.join(scratch, 'corpora'));
    if (reuters.missing.length)
      throw createError('INVALID_INPUT', `${opts.claimsFile}: Reuters-21578 has no NEWID ${reuters.missing.join(', ')}`);
    sources.push({ format: 'reuters', path: reuters.file });
  }
  return { sources, reuters };
}

async function judge(claim: NewsClaim, ctx: SearchContext, docIdOf: (id: number) => string | undefined): Promise<ClaimOutcome> {
  const doc = claim.doc ? externalIdOf(claim.corpus as NewsCorpus, claim.doc) : null;
  const base = { id: claim.id, claim: claim.claim, gold: claim.label, kind: claim.kind, corpus: claim.corpus, doc };
  try {
    const res = await search({ q: claim.claim, k: 10, halfLifeDays: null, verdict: true, rerank: Boolean(ctx.reranker) }, ctx);
    const v = res.verdict;
    return {
      ...base,
      queryKind: res.kind,
      verdictStatus: res.verdictStatus,
      predicted: v?.label ?? 'NOT_ENOUGH_EVIDENCE',
      confidence: v?.confidence ?? 0,
      top10: res.results.slice(0, 10).map((r) => docIdOf(r.articleId) ?? `article:${r.articleId}`),
      deciding: claim.label === null || !claim.sentence ? null : locateSentence(claim.sentence, v?.evidence),
      shown: { supports: v?.evidence.supports.length ?? 0, refutes: v?.evidence.refutes.length ?? 0 },
    };
  } catch (err) {
    // A query the pipeline refuses (QUERY_*) is an outcome: no results, no verdict.
    if (!isQuinError(err) || !err.code.startsWith('QUERY_')) throw err;
    return {
      ...base,
      queryKind: null,
      verdictStatus: 'error',
      predicted: 'NOT_ENOUGH_EVIDENCE',
      confidence: 0,
      top10: [],
      deciding: claim.label === null ? null : 'not shown',
      error: `${err.code}: ${err.message}`,
    };
  }
}

function limited(claims: NewsClaim[], limit?: number): NewsClaim[] {
  if (limit === undefined) return claims;
  if (!Number.isInteger(limit) || limit < 1) throw createError('INVALID_INPUT', `limit must be a whole number ≥ 1 (got ${limit})`);
  return claims.slice(0, limit);
}

/** The scratch workspace holding the corpora a claims file names (also what training reads, training/stance/claims-dump.ts). */
export async function openNewsWorkspace(
  opts: Pick<NewsEvalOptions, 'claimsFile' | 'base' | 'sharedData' | 'reutersDistractors' | 'workspaceRoot' | 'progress'>,
) {
  const all = loadNewsClaims(opts.claimsFile);
  if (!all.length) throw createError('INVALID_INPUT', `${opts.claimsFile} holds no claims`);
  const scratch = opts.workspaceRoot ?? path.join(opts.base.cacheDir, 'eval');
  const prepared = prepareCorpora(all, opts, scratch);
  const ws = await openWorkspace({ dataset: 'news', corpora: prepared.sources, base: opts.base, root: scratch, progress: opts.progress });
  return { all, prepared, ws };
}

export async function evaluateNews(opts: NewsEvalOptions): Promise<NewsEvalOutcome> {
  const { all, prepared, ws } = await openNewsWorkspace(opts);
  const claims = limited(all, opts.limit);
  try {
    const verdict = await createVerdictStage(ws.config);
    if (!verdict)
      throw createError(
        'MODEL_UNAVAILABLE',
        'no NLI model to judge the claims with (QUIN_NLI_MODEL is none, or no default model is installed)',
      );
    const reranker = await createRerankStage(ws.config);
    const ctx: SearchContext = { ...ws.ctx, reranker, verdict };
    const progress = opts.progress === false ? undefined : createProgress({ label: 'eval news', total: claims.length, unit: 'claims' });
    const started = Date.now();
    const outcomes: ClaimOutcome[] = [];
    for (const c of claims) {
      outcomes.push(await judge(c, ctx, ws.docIdOf));
      progress?.tick();
    }
    progress?.done();
    const seconds = (Date.now() - started) / 1000;
    const score = scoreNews(outcomes);
    const counts = Object.fromEntries(NEWS_CORPORA.map((c) => [c, claims.filter((x) => x.corpus === c && x.label !== null).length]));
    const r = prepared.reuters;
    const header = [
      `news: ${score.claims} claims (${Object.entries(counts)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}) from ${path.relative(process.cwd(), opts.claimsFile) || opts.claimsFile}`,
      `corpora: ${prepared.sources.map((s) => s.format).join(' + ')} (${ws.stats.documents} articles, ${ws.stats.snippets} snippets)${r ? `; Reuters-21578 as the ${r.named} stories the claims name + ${r.distractors} fixed distractors, not all 21,578` : ''}`,
      `models: NLI ${verdict.id}, reranker ${reranker?.id ?? 'none'}, encoder ${ws.indexes.encoder.id}; time decay off (archival corpora); ${seconds.toFixed(0)} s`,
    ].join('\n');
    const { verdict: vm, ...rest } = score;
    const results = buildResults('news', score.claims, [], {
      verdict: {
        model: verdict.id,
        reranker: reranker?.id ?? null,
        labels: 'MIXED is shown in the confusion matrix and scored as NOT_ENOUGH_EVIDENCE; committed = SUPPORTED, REFUTED, MIXED',
        ...vm,
      },
      ...rest,
    });
    const info = {
      command: opts.command ?? null,
      dataset: 'news',
      claims: { file: opts.claimsFile, sha256: fileSha256(opts.claimsFile), limit: opts.limit ?? null, evaluated: claims.length },
      queryIds: crypto
        .createHash('sha256')
        .update(claims.map((c) => c.id).join(','))
        .digest('hex')
        .slice(0, 16),
      corpora: prepared.sources,
      reuters: r
        ? {
            subset: r.file,
            documents: r.documents,
            named: r.named,
            distractors: r.distractors,
            rule: 'stories named by the claims + the bodied stories with the smallest sha256(NEWID)',
          }
        : null,
      workspace: ws.dir,
      documents: ws.stats.documents,
      snippets: ws.stats.snippets,
      encoder: ws.indexes.encoder.id,
      bm25: ws.indexes.bm25.backend,
      ranking: {
        k: 10,
        halfLifeDays: null,
        why: 'archival corpora from 1987, 2004-05 and 2018: relevance only',
        perArticle: ws.ctx.options.perArticle,
      },
      verdict: { model: verdict.id, settings: verdict.settings },
      reranker: reranker?.id ?? null,
      seconds,
      machine: {
        cpus: os.cpus().length,
        cpu: os.cpus()[0]?.model ?? null,
        memoryGiB: Math.round(os.totalmem() / 2 ** 30),
        node: process.version,
      },
      date: new Date().toISOString(),
    };
    let resultsFile: string | undefined;
    if (opts.outDir) {
      resultsFile = writeResults(opts.outDir, results, info);
      fs.writeFileSync(path.join(opts.outDir, 'predictions.jsonl'), outcomes.map((o) => JSON.stringify(o)).join('\n') + '\n');
    }
    return { results, info, text: formatNews(score, header), outcomes, resultsFile };
  } finally {
    await ws.close();
  }
}
