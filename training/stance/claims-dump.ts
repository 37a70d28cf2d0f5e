/**
 * What the verdict stage reads for every labelled claim, through the product's own search (hybrid +
 * the default reranker, decay off, archival corpora): the top results, each with its best evidence
 * sentences, its pre-decay relevance relative to the best result, and the document it came from.
 * Written to .cache/training/stance/claims-<dataset>.jsonl for the claim-level aggregator
 * (train_verdict.py), so that it is fitted on exactly the evidence the product shows.
 *
 *   npx tsx training/stance/claims-dump.ts scifact
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadScifactClaims } from '../../eval/datasets';
import { memoEncoder } from '../../eval/harness';
import { externalIdOf, type NewsCorpus } from '../../eval/news/claims';
import { openNewsWorkspace } from '../../eval/news/evaluate';
import { openWorkspace, type Workspace } from '../../eval/workspace';
import { sharedDataDir } from '../../lib/paths';
import { NEWS_CLAIMS, NEWS_DEV_CLAIMS, newsClaims, newsSplit } from './pairs';
import { loadConfig } from '../../lib/config';
import { analyzeQuery, search } from '../../ranking';
import { createRerankStage } from '../../ranking/rerank';
import { shared } from '../data';
import { splitOf } from '../../eval/splits';

const DEPTH = 8;
/** Every sentence of a result's snippet (snippets are 5-sentence windows), best first: CV picks how many the stage reads. */
const PER_RESULT = 5;

export interface DumpedClaim {
  dataset: string;
  id: string;
  label: 'SUPPORTED' | 'REFUTED' | 'NOT_ENOUGH_EVIDENCE';
  claim: string;
  kind: string;
  /** The results: `sentences` best first, `starts` their offsets in the passage (so text order and the sentence before are known). */
  results: { rank: number; relevance: number; doc: string; title: string; sentences: string[]; starts?: number[]; scores?: number[] }[];
  /** Our split of the claim (models are fitted on train claims; the verdict's decision on held-out ones). */
  split?: string;
  /** News claims: the document holding the deciding sentence. */
  doc?: string;
}

const SCIFACT_LABEL = { SUPPORT: 'SUPPORTED', CONTRADICT: 'REFUTED', NEI: 'NOT_ENOUGH_EVIDENCE' } as const;

async function scifact(
  base: ReturnType<typeof loadConfig>,
): Promise<{ ws: Workspace; claims: { id: string; text: string; label: DumpedClaim['label']; split: string }[] }> {
  const corpusFile = shared('scifact', 'corpus.jsonl');
  const ws = await openWorkspace({ dataset: 'scifact', corpusFile, format: 'scifact', base });
  const claims = loadScifactClaims(shared('scifact', 'claims_train.jsonl')).map((q) => ({
    id: `scifact:${q.id}`,
    text: q.text,
    label: SCIFACT_LABEL[(q.label ?? 'NEI') as keyof typeof SCIFACT_LABEL],
    split: splitOf('scifact', q.id),
  }));
  return { ws, claims };
}

async function news(
  base: ReturnType<typeof loadConfig>,
): Promise<{ ws: Workspace; claims: { id: string; text: string; label: DumpedClaim['label']; doc?: string; split: string }[] }> {
  const { ws } = await openNewsWorkspace({ claimsFile: NEWS_CLAIMS, base, sharedData: sharedDataDir() });
  const raw = newsClaims() as (ReturnType<typeof newsClaims>[number] & { corpus: NewsCorpus; doc?: string })[];
  return {
    ws,
    claims: raw.map((c) => ({
      id: `news:${c.id}`,
      text: c.claim,
      label: c.label,
      doc: c.doc ? externalIdOf(c.corpus, c.doc) : undefined,
      split: newsSplit(c),
    })),
  };
}

/** The dev claims written from held-out articles (eval/news/dev-claims.jsonl): never trained on, all dev, off-topic ones included. */
async function newsDev(
  base: ReturnType<typeof loadConfig>,
): Promise<{ ws: Workspace; claims: { id: string; text: string; label: DumpedClaim['label']; doc?: string; split: string }[] }> {
  const { ws, all } = await openNewsWorkspace({ claimsFile: NEWS_DEV_CLAIMS, base, sharedData: sharedDataDir() });
  return {
    ws,
    claims: all
      .filter((c) => c.label !== null)
      .map((c) => ({
        id: `news-dev:${c.id}`,
        text: c.claim,
        label: c.label!,
        doc: c.doc ? externalIdOf(c.corpus, c.doc) : undefined,
        split: 'dev',
      })),
  };
}

const DATASETS = { scifact, news, 'news-dev': newsDev } as const;

async function main() {
  const dataset = process.argv[2] ?? 'scifact';
  const out = path.resolve(process.argv[3] ?? `.cache/training/stance/claims-${dataset}.jsonl`);
  const base = loadConfig();
  if (!(dataset in DATASETS)) throw new Error(`unknown dataset ${dataset} (${Object.keys(DATASETS).join(', ')})`);
  const { ws, claims } = await DATASETS[dataset as keyof typeof DATASETS](base);
  const reranker = await createRerankStage(ws.config);
  const ctx = {
    ...ws.ctx,
    indexes: { ...ws.indexes, encoder: memoEncoder(ws.indexes.encoder) },
    reranker,
    verdict: null,
    options: { ...ws.ctx.options, evidenceSentences: PER_RESULT },
  };
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const fd = fs.openSync(out, 'w');
  let n = 0;
  for (const c of claims) {
    const query = analyzeQuery(c.text, { maxChars: 10_000 });
    const res = await search(
      {
        q: c.text,
        k: DEPTH,
        perArticle: 1,
        halfLifeDays: null,
        mode: 'hybrid',
        rerank: reranker !== null,
        verdict: false,
        evidenceTop: DEPTH,
      },
      ctx,
    );
    const best = Math.max(1e-9, ...res.results.map((r) => r.scores.final));
    const results = res.results.map((r, rank) => ({
      rank,
      relevance: r.scores.final / best,
      doc: ws.docIdOf(r.articleId) ?? '',
      title: r.title,
      sentences: r.evidence.slice(0, PER_RESULT).map((e) => e.text),
      starts: r.evidence.slice(0, PER_RESULT).map((e) => e.start),
      scores: r.evidence.slice(0, PER_RESULT).map((e) => Math.round(e.score * 1e4) / 1e4),
    }));
    const row: DumpedClaim = {
      dataset,
      id: c.id,
      label: c.label,
      claim: query.claim,
      kind: query.kind,
      split: c.split,
      results,
      ...('doc' in c && typeof c.doc === 'string' && c.doc ? { doc: c.doc } : {}),
    };
    fs.writeSync(fd, JSON.stringify(row) + '\n');
    if (++n % 100 === 0) console.log(`${n}/${claims.length}`);
  }
  fs.closeSync(fd);
  await ws.close();
  console.log(`wrote ${out}`);
}

main().catch((e) => (console.error(e), process.exit(1)));
