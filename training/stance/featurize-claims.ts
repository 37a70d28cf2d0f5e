/**
 * What the verdict stage would read and judge for every labelled claim, through the product's own
 * code (ranking/verdict: evidenceItems, the judge, neverFor): the search dumps (claims-dump.ts:
 * SciFact, our news claims) and the sets whose evidence comes with them (claim-sets.ts: Climate-FEVER,
 * COVID-Fact, HealthVer) and our dev news claims (eval/news/dev-claims.jsonl). Per candidate
 * sentence, and per passage (a result's first 2, 3 or 5 sentences read together): its result's rank
 * and relevance, the NLI model's probabilities, and the details stage's comparison (topic, details
 * confirmed and contradicted: details/compare.ts DETAIL_FEATURES), from which train_verdict.py
 * computes the reading (judge.ts read) under each setting it tries.
 * Written to .cache/training/stance/claim-sentences.jsonl for train_verdict.py.
 *
 *   npx tsx training/stance/featurize-claims.ts [--model DIR] [--all] [--limit N] [--resume]
 *
 * --resume keeps the claims an interrupted run wrote with the same model (its last claim, perhaps cut
 * short, is read again) and goes on with the rest.
 *
 * Without --all only held-out claims are written (the pair model was fitted on the others' pairs, so
 * its probabilities there are in-sample and would teach the decision to trust them too much).
 */
import fs from 'node:fs';
import path from 'node:path';
import { NliClassifier } from '../../lib/models';
import { Lexicon } from '../../ranking/verdict/details/lexicon';
import { DETAIL_FEATURES } from '../../ranking/verdict/details/compare';
import { contradicts, StanceJudge } from '../../ranking/verdict/judge';
import { evidenceItems, type EvidenceItem } from '../../ranking/verdict/stage';
import type { SearchResult } from '../../ranking/types';
import type { DumpedClaim } from './claims-dump';
import { climateClaimSet, covidClaimSet, dumpedClaims, healthverClaimSet } from './claim-sets';

const DIR = path.resolve('.cache/training/stance');
/** What the stage reads, at most (train_verdict.py chooses within it). */
const DEPTH = 8;
const PER_RESULT = 5;
/** Passage lengths (a result's first k sentences read together) written for the decision to choose among. */
const PASSAGES = [2, 3, 5];
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** A dumped result as the stage sees a search result (relevance as its score, no decay). */
function asResult(r: DumpedClaim['results'][number], id: number): SearchResult {
  return {
    snippetId: id,
    articleId: id,
    title: r.title,
    text: r.sentences.join(' '),
    evidence: r.sentences.map((text, j) => ({ text, start: r.starts?.[j] ?? j, end: (r.starts?.[j] ?? j) + text.length, score: 1 })),
    scores: { final: r.relevance, recency: 1 },
  } as unknown as SearchResult;
}

async function main() {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const modelDir = path.resolve(arg('--model') ?? 'models/quin-nli');
  const all = process.argv.includes('--all');
  // A quick check of the pipeline: at most this many claims of each dataset.
  const limit = Number(arg('--limit') ?? Infinity);
  const nli = await NliClassifier.load(modelDir);
  const judge = new StanceJudge(nli, Lexicon.read(path.resolve('models/quin-align/lexicon.json.gz')));
  const perSet = new Map<string, number>();
  const claims = [
    ...dumpedClaims('scifact', 'skipped'),
    ...dumpedClaims('news', 'skipped'),
    ...dumpedClaims('news-dev', 'skipped'),
    ...climateClaimSet(),
    ...covidClaimSet(),
    ...healthverClaimSet(),
  ].filter((c) => {
    if (!all && (c.split ?? 'train') === 'train') return false;
    perSet.set(c.dataset, (perSet.get(c.dataset) ?? 0) + 1);
    return perSet.get(c.dataset)! <= limit;
  });
  const out = path.join(DIR, 'claim-sentences.jsonl');
  const header = JSON.stringify({ model: nli.id, features: DETAIL_FEATURES, depth: DEPTH, per_result: PER_RESULT });
  const kept = process.argv.includes('--resume') ? keptClaims(out, header) : new Set<string>();
  if (!kept.size) fs.writeFileSync(out, header + '\n');
  const fd = fs.openSync(out, 'a');
  let n = 0;
  for (const c of claims) {
    if (kept.has(`${c.dataset}\t${c.id}`)) continue;
    const results = c.results.map((r, i) => asResult(r, i + 1));
    // Every sentence, and each result's first k sentences read as one passage for each k train_verdict.py may choose.
    const items: (EvidenceItem & { k?: number })[] = evidenceItems(results, DEPTH, PER_RESULT);
    for (const k of PASSAGES)
      items.push(
        ...evidenceItems(results, DEPTH, k, true)
          .filter((it) => it.kind === 'passage')
          .map((it) => ({ ...it, k })),
      );
    const model = await judge.modelProbs(c.claim, items);
    const judged = await judge.judge(c.claim, items, model);
    const base = { dataset: c.dataset, id: c.id, split: c.split ?? 'train', label: c.label };
    if (!items.length) fs.writeSync(fd, JSON.stringify({ ...base, rank: -1 }) + '\n');
    items.forEach((it, i) => {
      const j = judged[i]!;
      fs.writeSync(
        fd,
        JSON.stringify({
          ...base,
          rank: it.rank,
          kind: it.k ? `passage:${it.k}` : 'sentence',
          relevance: r4(it.relevance),
          i,
          context: it.context ? 1 : 0,
          model: [model[i]!.supports, model[i]!.refutes, model[i]!.neutral].map(r4),
          coverage: r4(j.coverage),
          contra: contradicts(j.comparison) ? 1 : 0,
          x: DETAIL_FEATURES.map((k) => r4(j.comparison.values[k])),
        }) + '\n',
      );
    });
    if (++n % 500 === 0) console.log(`${n}/${claims.length} claims`);
  }
  fs.closeSync(fd);
  await nli.close();
  console.log(`wrote ${out}: ${claims.length} claims (${all ? 'all' : 'held-out only'}), model ${nli.id}`);
}

/** The claims an earlier run with this header wrote whole (the file cut back to them); none otherwise. */
function keptClaims(file: string, header: string): Set<string> {
  if (!fs.existsSync(file)) return new Set();
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  if (lines[0] !== header) return new Set();
  const rows = lines.slice(1).filter((l) => l.endsWith('}'));
  const key = (l: string) => {
    const r = JSON.parse(l) as { dataset: string; id: string };
    return `${r.dataset}\t${r.id}`;
  };
  // The last claim may have been cut short: it is dropped and read again.
  const last = rows.length ? key(rows[rows.length - 1]!) : '';
  const whole = rows.filter((l) => key(l) !== last);
  fs.writeFileSync(file, [header, ...whole].join('\n') + '\n');
  const kept = new Set(whole.map(key));
  console.log(`resuming after ${kept.size} claims`);
  return kept;
}

main().catch((e) => (console.error(e), process.exit(1)));
