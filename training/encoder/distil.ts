/**
 * `npm run train:encoder:distil`: distils Universal Sentence Encoder Lite into the static encoder
 * (models/quin-static/model.bin + metrics.json) — the starting table of the contrastive training
 * (`npm run train:encoder`, train.ts), which is what the product serves. Deterministic: the same corpora and teacher vectors
 * give the same file. Steps (model2vec, then tokenlearn):
 *   1. vocabulary: the corpora's most frequent words + USE-lite's word pieces (vocab.ts);
 *   2. teacher vectors for every token on its own and for the training sentences (teacher.ts;
 *      cached, so only a cold cache costs time);
 *   3. PCA of the teacher's sentence vectors to `--dim`, SIF-weighted token vectors E0 (fit.ts);
 *   4. least-squares fit of the token vectors to the teacher's sentence vectors, anchored on E0;
 *   5. int8 quantisation, written with the held-out cosines to the teacher.
 * Options: --dim 256 --words 30000 --min-count 3 --lambda 1 --iterations 20 --out models/quin-static [--cached-only]
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { StaticTokenizer } from '../../indexer/encoders/static/tokenizer';
import { encodeStaticModel, quantize } from '../../indexer/encoders/static/model-file';
import { USE_LITE_DIM, USE_LITE_ID } from './use-lite';
import { loadConfig } from '../../lib/config';
import { projectRoot } from '../../lib/paths';
import { readCorpora } from './corpus';
import { anchorScale, design, fitTokens, meanCosine, pca, project, sifWeights } from './fit';
import { teacherTexts } from './sample';
import { ensureTeacher, teacherCache, teacherMatrix } from './teacher';
import { buildVocabulary, countWords, tokenText } from './vocab';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const log = (line: string) => process.stderr.write(`train:encoder:distil: ${line}\n`);
const heldOut = (t: string) => crypto.createHash('sha256').update(`held:${t}`).digest()[0]! < 13; // ~5%

async function main() {
  const dim = Number(arg('dim', '256'));
  const maxWords = Number(arg('words', '30000'));
  const minCount = Number(arg('min-count', '3'));
  const lambdas = arg('lambda', '1').split(',').map(Number);
  const iterations = Number(arg('iterations', '20'));
  const out = path.resolve(projectRoot(), arg('out', 'models/quin-static'));

  const parts = await readCorpora();
  const vocab = buildVocabulary(countWords(parts.flatMap((p) => p.texts)), maxWords, minCount);
  const tokenizer = new StaticTokenizer(vocab);
  log(`vocabulary: ${vocab.length} tokens (${parts.map((p) => `${p.name} ${p.texts.length}`).join(', ')} texts)`);

  const cache = teacherCache(loadConfig().cacheDir);
  const tokenTexts = vocab.map(tokenText);
  await ensureTeacher(cache, tokenTexts, 'tokens');
  // --cached-only: train on the sentences whose teacher vectors are already cached (quick experiments).
  const cachedOnly = process.argv.includes('--cached-only');
  const chosen = teacherTexts(parts).map((c) => (cachedOnly ? { ...c, texts: c.texts.filter((t) => cache.has(t)) } : c));
  for (const c of chosen) await ensureTeacher(cache, c.texts, c.name);

  // Token frequencies as the tokenizer sees the whole corpora (for the SIF weights).
  const counts = new Float64Array(vocab.length);
  for (const p of parts) for (const t of p.texts) for (const id of tokenizer.encode(t)) counts[id]! += 1;

  const sentences = [...new Set(chosen.flatMap((c) => c.texts))].filter((t) => tokenizer.encode(t).length > 0);
  const train = sentences.filter((t) => !heldOut(t));
  const test = sentences.filter(heldOut);
  log(`training sentences: ${train.length} (+ ${test.length} held out)`);

  const yTrain = teacherMatrix(cache, train);
  const { proj, kept } = pca(yTrain, USE_LITE_DIM, dim);
  log(`PCA ${USE_LITE_DIM} → ${dim}: ${(kept * 100).toFixed(1)}% of the teacher's energy kept`);
  const y = project(yTrain, USE_LITE_DIM, proj, dim);
  const yTest = project(teacherMatrix(cache, test), USE_LITE_DIM, proj, dim);
  const tokens = project(teacherMatrix(cache, tokenTexts), USE_LITE_DIM, proj, dim);
  cache.close();

  const w = sifWeights(counts);
  const e0 = tokens.map((v, i) => v * w[Math.floor(i / dim)]!);
  const dTrain = design(train.map((t) => tokenizer.encode(t)));
  const dTest = design(test.map((t) => tokenizer.encode(t)));
  const c = anchorScale(dTrain, e0, y, dim);
  const anchor = e0.map((v) => v * c);
  const model2vec = { train: meanCosine(dTrain, anchor, y, dim), heldOut: meanCosine(dTest, anchor, yTest, dim) };
  log(`model2vec (SIF-weighted token vectors): cosine to the teacher ${model2vec.heldOut.toFixed(4)} held out`);
  // λ (pull towards the model2vec vectors) chosen by the cosine on held-out training sentences.
  let best: { lambda: number; e: Float64Array; fitted: { train: number; heldOut: number } } | null = null;
  const tried: Record<string, number> = {};
  for (const lambda of lambdas) {
    const e = fitTokens(dTrain, y, anchor, vocab.length, dim, { lambda, iterations, log });
    const fitted = { train: meanCosine(dTrain, e, y, dim), heldOut: meanCosine(dTest, e, yTest, dim) };
    tried[String(lambda)] = round(fitted.heldOut);
    log(`tokenlearn fit, λ = ${lambda}: cosine to the teacher ${fitted.train.toFixed(4)} train, ${fitted.heldOut.toFixed(4)} held out`);
    if (!best || fitted.heldOut > best.fitted.heldOut) best = { lambda, e, fitted };
  }
  const { lambda, e, fitted } = best!;

  const q = quantize(Float32Array.from(e), dim);
  const eq = new Float64Array(e.length);
  for (let i = 0; i < e.length; i++) eq[i] = q.scales[Math.floor(i / dim)]! * q.rows[i]!;
  const quantized = meanCosine(dTest, eq, yTest, dim);
  log(`int8: cosine to the teacher ${quantized.toFixed(4)} held out`);

  const training = {
    dim,
    words: maxWords,
    minCount,
    lambda,
    iterations,
    sentences: train.length,
    heldOut: test.length,
    pcaEnergyKept: round(kept),
  };
  const buf = encodeStaticModel({ header: { dim, teacher: USE_LITE_ID, training }, vocab, ...q });
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'model.bin'), buf);
  const metrics = {
    teacher: USE_LITE_ID,
    vocabulary: { tokens: vocab.length, words: vocab.length - vocab.filter((t) => t.startsWith('▁') || t.startsWith('##')).length },
    training,
    cosineToTeacher: {
      model2vec: roundAll(model2vec),
      tokenlearn: roundAll(fitted),
      heldOutByLambda: tried,
      int8HeldOut: round(quantized),
    },
    sha256: crypto.createHash('sha256').update(buf).digest('hex'),
    bytes: buf.length,
  };
  fs.writeFileSync(path.join(out, 'metrics.json'), JSON.stringify(metrics, null, 2) + '\n');
  log(`wrote ${path.join(out, 'model.bin')} (${(buf.length / 2 ** 20).toFixed(1)} MiB)`);
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;
const roundAll = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, round(v)]));

main().catch((e: unknown) => {
  process.stderr.write(`train:encoder:distil failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
