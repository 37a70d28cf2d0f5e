/**
 * Training data for quin-nli's stance head (training/train_stance_head.py): the same SciFact and
 * Climate-FEVER claim/evidence pairs as quin-nli's (training/prepare.ts; split by eval/splits.ts), with
 * Universal Sentence Encoder Lite vectors of both sides (through the product's embedding cache, so
 * that they are exactly the vectors the verdict stage reads, and never embedded twice) and quin-nli's
 * probabilities. Deterministic (fixed seed for the neutral sentences).
 *
 *   npx tsx training/prepare-stance.ts [outDir=.cache/training/stance]
 *
 * Writes pairs.jsonl ({src, split, qid, label 0 entailment / 1 contradiction / 2 neutral, u, v: rows
 * of vectors.f32, p: quin-nli's [entailment, contradiction, neutral]}) and vectors.f32 (float32 rows).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createUseLiteEncoder } from '../indexer/encoders';
import { VectorCache } from '../indexer/vectors/cache';
import { embedWithCache } from '../indexer/vectors/embed';
import { loadConfig } from '../lib/config';
import { loadRoleModel } from '../lib/models';
import { rng } from './data';
import { climateNliPairs, scifactNliPairs, type NliPair } from './prepare';

/** quin-nli's single-sentence pairs (the verdict stage never reads a whole multi-sentence rationale). */
function pairs(): NliPair[] {
  return [...scifactNliPairs(rng(13)), ...climateNliPairs()].filter((p) => !p.whole);
}

async function main() {
  const outDir = path.resolve(process.argv[2] ?? '.cache/training/stance');
  fs.mkdirSync(outDir, { recursive: true });
  const config = loadConfig();
  const all = pairs();
  console.log(`${all.length} pairs`);
  const encoder = createUseLiteEncoder();
  const cache = new VectorCache(config.cacheDir, encoder.id, encoder.dim);
  const texts = [...new Set(all.flatMap((p) => [p.premise, p.hypothesis]))];
  let done = 0;
  const vecs = await embedWithCache(encoder, cache, texts, {
    onBatch: (n) => {
      done += n;
      if (done % 640 < n) console.log(`embedded ${done} new texts`);
    },
  });
  const index = new Map(texts.map((t, i) => [t, i]));
  const buf = Buffer.alloc(texts.length * encoder.dim * 4);
  vecs.forEach((v, i) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).copy(buf, i * encoder.dim * 4));
  fs.writeFileSync(path.join(outDir, 'vectors.f32'), buf);
  const nli = await loadRoleModel('nli', config);
  if (!nli) throw new Error('no NLI model');
  const probs = await nli.classify(all.map((p) => [p.premise, p.hypothesis]));
  const rows = all.map((p, i) => ({
    src: p.src,
    split: p.split,
    qid: String(p.qid),
    label: p.label,
    u: index.get(p.hypothesis),
    v: index.get(p.premise),
    p: [probs[i]!.entailment, probs[i]!.contradiction, probs[i]!.neutral],
  }));
  fs.writeFileSync(path.join(outDir, 'pairs.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  console.log(`wrote ${outDir}: ${texts.length} texts, ${rows.length} pairs`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
