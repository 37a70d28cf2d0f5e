/**
 * Per-sentence features of what the verdict stage reads for each labelled claim (claims-dump.ts):
 * every evidence sentence of the top results, with its alignment features, the NLI model's
 * probabilities, its result's rank and relevance, and (where the data says) its own gold stance:
 * SciFact rationale sentences are SUPPORTED / REFUTED, other sentences NEUTRAL; a news claim's
 * deciding sentence has the claim's label. Written to .cache/training/stance/claim-sentences-<dataset>.jsonl.
 *
 * --no-nli leaves the NLI model out (the stance model chosen by CV reads alignment only).
 *
 *   npx tsx training/stance/featurize-claims.ts scifact|news [--no-nli]
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../lib/config';
import { loadRoleModel } from '../../lib/models';
import { align } from '../../ranking/verdict/align/align';
import { featureVector, stanceFeatures } from '../../ranking/verdict/align/features';
import { Lexicon } from '../../ranking/verdict/align/lexicon';
import { sciClaims, sciCorpus } from '../data';
import type { DumpedClaim } from './claims-dump';
import { nliProbs } from './nli-cache';
import { newsClaims } from './pairs';

// Headlines come back from the search with a full stop added: compare without end punctuation.
const norm = (s: string) =>
  s
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
    .replace(/[.!?]+$/, '');

function goldOf(dataset: string): (claimId: string, sentence: string) => string | null {
  if (dataset === 'scifact') {
    const docs = new Map(sciCorpus().map((d) => [d.id, d.sentences]));
    const gold = new Map<string, Map<string, string>>();
    for (const c of sciClaims()) {
      const m = new Map<string, string>();
      for (const [doc, sets] of Object.entries(c.evidence))
        for (const s of sets)
          for (const i of s.sentences) m.set(norm(docs.get(Number(doc))?.[i] ?? ''), s.label === 'SUPPORT' ? 'SUPPORTED' : 'REFUTED');
      gold.set(`scifact:${c.id}`, m);
    }
    return (id, sentence) => gold.get(id)?.get(norm(sentence)) ?? 'NEUTRAL';
  }
  const deciding = new Map(
    newsClaims().map((c) => [`news:${c.id}`, { s: norm(c.sentence), label: c.label === 'NOT_ENOUGH_EVIDENCE' ? 'NEUTRAL' : c.label }]),
  );
  return (id, sentence) => {
    const d = deciding.get(id);
    return d && d.s === norm(sentence) ? d.label : null;
  };
}

async function main() {
  const dataset = process.argv[2] ?? 'scifact';
  const input = path.resolve(`.cache/training/stance/claims-${dataset}.jsonl`);
  const out = path.resolve(`.cache/training/stance/claim-sentences-${dataset}.jsonl`);
  const lex = Lexicon.read(path.resolve('models/quin-align/lexicon.json.gz'));
  const nli = process.argv.includes('--no-nli') ? null : await loadRoleModel('nli', loadConfig());
  const claims = fs
    .readFileSync(input, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as DumpedClaim);
  const rows = claims.flatMap((c) => c.results.flatMap((r) => r.sentences.map((s, j) => ({ c, r, j, s }))));
  const probs = await nliProbs(
    nli,
    rows.map((x) => ({ claim: x.c.claim, evidence: x.s })),
  );
  const gold = goldOf(dataset);
  const fd = fs.openSync(out, 'w');
  rows.forEach(({ c, r, j, s }, i) => {
    const f = stanceFeatures(align(c.claim, s, lex));
    fs.writeSync(
      fd,
      JSON.stringify({
        dataset,
        id: c.id,
        label: c.label,
        kind: c.kind,
        rank: r.rank,
        j,
        relevance: r.relevance,
        score: r.scores?.[j] ?? null,
        doc: r.doc,
        gold: gold(c.id, s),
        coverage: f.values.cov,
        claim: c.claim,
        sentence: s,
        x: featureVector(f).map((v) => Math.round(v * 1e4) / 1e4),
        nli: probs[i]?.map((v) => Math.round(v * 1e4) / 1e4) ?? null,
      }) + '\n',
    );
  });
  // Claims whose search returned nothing still count (an empty row keeps them in the data).
  for (const c of claims)
    if (!c.results.length) fs.writeSync(fd, JSON.stringify({ dataset, id: c.id, label: c.label, kind: c.kind, rank: -1 }) + '\n');
  fs.closeSync(fd);
  console.log(`wrote ${out}: ${rows.length} sentences of ${claims.length} claims`);
}

main().catch((e) => (console.error(e), process.exit(1)));
