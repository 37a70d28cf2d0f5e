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
import { splitOf } from '../eval/splits';
import { createUseLiteEncoder } from '../indexer/encoders';
import { VectorCache } from '../indexer/vectors/cache';
import { embedWithCache } from '../indexer/vectors/embed';
import { loadConfig } from '../lib/config';
import { loadRoleModel } from '../lib/models';
import { climateClaims, rng, sciClaims, sciCorpus, shuffle } from './data';

interface Pair {
  src: string;
  split: string;
  qid: string;
  label: number;
  premise: string;
  claim: string;
}

function pairs(): Pair[] {
  const out: Pair[] = [];
  const rand = rng(13);
  const docs = new Map(sciCorpus().map((d) => [d.id, d]));
  for (const c of sciClaims()) {
    const split = splitOf('scifact', c.id);
    const used = new Set<string>();
    for (const [docId, sets] of Object.entries(c.evidence)) {
      const doc = docs.get(Number(docId));
      if (!doc) continue;
      for (const s of sets) {
        for (const i of s.sentences) {
          const sent = doc.sentences[i];
          if (sent)
            out.push({ src: 'scifact', split, qid: String(c.id), label: s.label === 'SUPPORT' ? 0 : 1, premise: sent, claim: c.claim });
          used.add(`${docId}:${i}`);
        }
      }
    }
    for (const docId of c.cited) {
      const doc = docs.get(docId);
      if (!doc) continue;
      const others = doc.sentences.map((s, i) => ({ s, i })).filter((x) => !used.has(`${docId}:${x.i}`));
      for (const x of shuffle(others, rand).slice(0, 2))
        out.push({ src: 'scifact', split, qid: String(c.id), label: 2, premise: x.s, claim: c.claim });
    }
  }
  const map = { SUPPORTS: 0, REFUTES: 1, NOT_ENOUGH_INFO: 2 } as const;
  for (const c of climateClaims())
    for (const e of c.evidences)
      out.push({
        src: 'climate-fever',
        split: splitOf('climate-fever', c.id),
        qid: c.id,
        label: map[e.label],
        premise: e.text,
        claim: c.claim,
      });
  return out;
}

async function main() {
  const outDir = path.resolve(process.argv[2] ?? '.cache/training/stance');
  fs.mkdirSync(outDir, { recursive: true });
  const config = loadConfig();
  const all = pairs();
  console.log(`${all.length} pairs`);
  const encoder = createUseLiteEncoder();
  const cache = new VectorCache(config.cacheDir, encoder.id, encoder.dim);
  const texts = [...new Set(all.flatMap((p) => [p.premise, p.claim]))];
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
  const probs = await nli.classify(all.map((p) => [p.premise, p.claim]));
  const rows = all.map((p, i) => ({
    src: p.src,
    split: p.split,
    qid: p.qid,
    label: p.label,
    u: index.get(p.claim),
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
