/**
 * Dumps the NLI judgements the verdict stage could read for every SciFact training claim (train and
 * dev split), so that the aggregation (ranking/verdict/aggregate.ts: depth, sentences per result,
 * thresholds) can be fitted on train and chosen on dev offline (training/fit-verdict.ts).
 *
 * End to end: the product's pipeline (hybrid + the default reranker) top 10 results, each with up to 3
 * evidence sentences (best first), their NLI probabilities, the result's rank and relevance.
 * Oracle: the gold rationale sentences as `quin eval` builds them (eval/verdict.ts).
 *
 *   npx tsx training/verdict-features.ts [out=.cache/training/verdict-features.jsonl]
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadScifactClaims, readJsonl } from '../eval/datasets';
import { memoEncoder } from '../eval/harness';
import { oracleEvidence } from '../eval/verdict';
import { openWorkspace } from '../eval/workspace';
import { loadConfig } from '../lib/config';
import { analyzeQuery, search } from '../ranking';
import { embedQuery } from '../ranking/query-vectors';
import { createRerankStage } from '../ranking/rerank';
import { createVerdictStage } from '../ranking/verdict';
import { shared } from './data';

const DEPTH = 10;
const PER_RESULT = 3;

async function main() {
  const out = path.resolve(process.argv[2] ?? '.cache/training/verdict-features.jsonl');
  const base = loadConfig();
  const corpusFile = shared('scifact', 'corpus.jsonl');
  const queries = loadScifactClaims(shared('scifact', 'claims_train.jsonl'));
  const corpus = new Map(readJsonl(corpusFile).map(({ value }) => [String((value as { doc_id: number }).doc_id), (value as { sentences: string[] }).sentences]));
  const ws = await openWorkspace({ dataset: 'scifact', corpusFile, format: 'scifact', base });
  // Through the verdict stage, so that the NLI folder's stance head (QUIN_NLI_STANCE_HEAD) applies as in the product.
  const nli = await createVerdictStage(ws.config);
  if (!nli) throw new Error('no NLI model');
  console.log(`judging with ${nli.id}`);
  const reranker = await createRerankStage(ws.config);
  const ctx = { ...ws.ctx, indexes: { ...ws.indexes, encoder: memoEncoder(ws.indexes.encoder) }, reranker, verdict: null, options: { ...ws.ctx.options, evidenceSentences: PER_RESULT } };
  const fd = fs.openSync(out, 'w');
  let n = 0;
  for (const q of queries) {
    const query = analyzeQuery(q.text, { maxChars: 10_000 });
    const claim = query.claim;
    const vctx = { queryVector: await embedQuery(ctx.indexes.encoder, query.text), indexes: ctx.indexes };
    const res = await search({ q: q.text, k: DEPTH, perArticle: 1, halfLifeDays: null, mode: 'hybrid', rerank: reranker !== null, verdict: false, evidenceTop: DEPTH }, ctx);
    const items = res.results.flatMap((r, rank) => r.evidence.slice(0, PER_RESULT).map((e, s) => ({ rank, s, score: r.scores.final, text: e.text, doc: ws.docIdOf(r.articleId) ?? '' })));
    const probs = await nli.judgePremises(
      items.map((it) => it.text),
      claim,
      vctx,
    );
    const oracleSentences = oracleEvidence(q, corpus).flat();
    const oracle = await nli.judgePremises(oracleSentences, claim, vctx);
    const e2e = items.map(({ text: _t, ...it }, i) => ({ ...it, p: probs[i] }));
    fs.writeSync(fd, JSON.stringify({ id: q.id, split: q.split, label: q.label, relevant: [...q.relevant], nli: nli.id, e2e, oracle }) + '\n');
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
