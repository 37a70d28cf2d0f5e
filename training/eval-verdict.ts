/**
 * Quick claim-level verdict check on SciFact while iterating on the NLI model, without building the
 * product's indexes: oracle (gold rationales, as `quin eval`) and a BM25-only stand-in for the
 * end-to-end setting (FTS5 over 5-sentence windows, one window per abstract, its two sentences with
 * most claim words as evidence). The product's own numbers come from `quin eval scifact`.
 *
 *   npx tsx training/eval-verdict.ts [model-dir] [split]
 */
import path from 'node:path';
import { makeSnippets } from '../crawler/snippets';
import { loadScifactClaims } from '../eval/datasets';
import { oracleEvidence, scoreJudged, sweepThresholds, type Judged } from '../eval/verdict';
import { NliClassifier } from '../lib/models';
import { analyzeQuery } from '../ranking';
import type { SearchResult } from '../ranking/types';
import { NliVerdictStage } from '../ranking/verdict';
import { Fts } from './bm25';
import { sciCorpus, shared } from './data';

const words = (s: string) => new Set(s.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);

function asResult(id: number, title: string, sentences: string[], score: number): SearchResult {
  return {
    snippetId: id, articleId: id, position: 0, sentenceStart: 0, sentenceEnd: sentences.length, title, url: '', source: 'scifact', publishedAt: null,
    text: sentences.join(' '), evidence: sentences.map((s) => ({ text: s, start: 0, end: s.length, score: 1 })), score,
    scores: { bm25: score, bm25Rank: null, dense: null, denseRank: null, fused: score, rerank: null, recency: 1, final: score },
  };
}

async function main() {
  const dir = path.resolve(process.argv[2] ?? 'models/quin-nli');
  const split = process.argv[3] ?? 'dev';
  const docs = sciCorpus();
  const corpus = new Map(docs.map((d) => [String(d.id), d.sentences]));
  const snippets: { id: number; doc: number; title: string; sentences: string[] }[] = [];
  for (const d of docs) for (const s of makeSnippets(d.sentences)) snippets.push({ id: snippets.length + 1, doc: d.id, title: d.title, sentences: d.sentences.slice(s.sentenceStart, s.sentenceEnd) });
  const fts = new Fts();
  fts.add(snippets.map((s) => ({ id: s.id, title: s.title, body: s.sentences.join(' ') })));
  const queries = loadScifactClaims(shared('scifact', 'claims_train.jsonl')).filter((q) => split === 'all' || q.split === split);
  const model = await NliClassifier.load(dir);
  const depths = (process.env.DEPTHS ?? '5').split(',').map(Number);
  const perResult = (process.env.SENTENCES ?? '2').split(',').map(Number);
  // Retrieval is done once; the stage settings (depth, sentences per result) vary.
  const retrieved = queries.map((q) => {
    const seen = new Set<number>();
    const results: SearchResult[] = [];
    const cw = words(q.text);
    for (const h of fts.search(q.text, 50)) {
      const s = snippets[h.id - 1]!;
      if (seen.has(s.doc)) continue;
      seen.add(s.doc);
      const best = [...s.sentences].sort((a, b) => [...words(b)].filter((w) => cw.has(w)).length - [...words(a)].filter((w) => cw.has(w)).length);
      results.push(asResult(s.id, s.title, best, h.score));
      if (results.length >= 10) break;
    }
    return results;
  });
  for (const depth of depths) {
    for (const sentences of perResult) {
      const stage = new NliVerdictStage(model, { depth, sentences, minEvidence: Number(process.env.MIN_EVIDENCE ?? 0.3), mixedRatio: Number(process.env.MIXED_RATIO ?? 0.6), refuteWeight: Number(process.env.REFUTE_WEIGHT ?? 1) });
      const oracle: Judged[] = [];
      const e2e: Judged[] = [];
      for (const [i, q] of queries.entries()) {
        const query = analyzeQuery(q.text, { maxChars: 10_000 });
        oracle.push({ query: q, judged: (await stage.judge(oracleEvidence(q, corpus).map((g, k) => asResult(k + 1, '', g, 1)), { query })).judged });
        e2e.push({ query: q, judged: (await stage.judge(retrieved[i]!, { query })).judged });
      }
      const show = (name: string, j: Judged[]) => {
        const r = scoreJudged(j, stage.settings);
        const sw = sweepThresholds(j.map((x) => ({ ...x, query: { ...x.query, split: 'dev' } })));
        console.log(`depth ${depth} sentences ${sentences} ${name}: accuracy ${r.accuracy} macro-F1 ${r.macro_f1} | best thresholds ${sw.minEvidence}/${sw.mixedRatio}/${sw.refuteWeight} → macro-F1 ${sw.dev_macro_f1}`);
        console.log('   confusion', JSON.stringify(r.confusion));
      };
      show('oracle', oracle);
      show('bm25-stand-in end-to-end', e2e);
    }
  }
}

await main();
