/**
 * Dumps the reranking stage's inputs for every SciFact training claim (train and dev split), so the
 * feature-combination layer of ranking/rerank can be fitted on train and chosen on dev without
 * re-running retrieval for every setting (training/fit-rerank-combo.ts reads this file).
 *
 * For each claim: the top DEPTH hybrid (score-fusion) candidates of the product's own pipeline over
 * the eval workspace (`quin eval scifact`'s scratch index), each with the features the combination
 * layer reads (ranking/rerank/features.ts) and its document id.
 *
 *   npx tsx training/rerank-features.ts [depth=100] [out=.cache/training/rerank-features.jsonl]
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadScifactClaims } from '../eval/datasets';
import { memoEncoder } from '../eval/harness';
import { openWorkspace } from '../eval/workspace';
import { loadConfig } from '../lib/config';
import { loadRoleModel } from '../lib/models';
import { search, type RerankCandidate, type RerankStage, type StageContext } from '../ranking';
import { candidateFeatures } from '../ranking/rerank/features';
import { passageText } from '../ranking/rerank';
import { shared } from './data';

interface Row {
  doc: string;
  model: number;
  features: Record<string, number>;
}

async function main() {
  const depth = Number(process.argv[2] ?? 100);
  const out = path.resolve(process.argv[3] ?? '.cache/training/rerank-features.jsonl');
  const base = loadConfig();
  const claimsFile = shared('scifact', 'claims_train.jsonl');
  const queries = loadScifactClaims(claimsFile);
  const ws = await openWorkspace({ dataset: 'scifact', corpusFile: shared('scifact', 'corpus.jsonl'), format: 'scifact', base });
  const model = await loadRoleModel('reranker', { ...ws.config, rerankerModel: 'quin-reranker' });
  if (!model) throw new Error('quin-reranker not found');
  let rows: Row[] = [];
  const capture: RerankStage = {
    id: 'capture',
    depth,
    async rerank(cands: RerankCandidate[], ctx: StageContext) {
      const scores = await model.score(ctx.query.text, cands.map(passageText));
      const feats = await candidateFeatures(cands, ctx);
      rows = cands.map((c, i) => ({ doc: ws.docIdOf(c.articleId) ?? '', model: scores[i]!, features: feats[i]! }));
      return cands.map((c, i) => ({ rerank: scores[i]!, relevance: c.fused }));
    },
  };
  const ctx = {
    ...ws.ctx,
    indexes: { ...ws.indexes, encoder: memoEncoder(ws.indexes.encoder) },
    reranker: capture,
    verdict: null,
    options: { ...ws.ctx.options, fusion: 'score' as const },
  };
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const fd = fs.openSync(out, 'w');
  let n = 0;
  for (const q of queries) {
    rows = [];
    await search(
      { q: q.text, k: 10, perArticle: 1, halfLifeDays: null, mode: 'hybrid', rerank: true, verdict: false, evidenceTop: 0 },
      ctx,
    );
    fs.writeSync(fd, JSON.stringify({ id: q.id, split: q.split, relevant: [...q.relevant], cands: rows }) + '\n');
    if (++n % 50 === 0) console.log(`${n}/${queries.length}`);
  }
  fs.closeSync(fd);
  await ws.close();
  console.log(`wrote ${out}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
