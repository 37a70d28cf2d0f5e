/**
 * `npm run train:encoder`: trains the static encoder for retrieval, contrastively, starting from the
 * table distilled from USE-lite (models/quin-static, `npm run train:encoder:distil`), and writes
 * models/quin-static-retrieval/ (model.bin, metrics.json). Deterministic: same data, same file.
 *   1. prepare.ts: the pairs of pairs.ts tokenised by the product's own tokenizer, BM25 hard
 *      negatives, the starting table and the dev sets (→ .cache/training/encoder/);
 *   2. train_contrastive.py (Debian's PyTorch, one thread): in-batch + hard-negative InfoNCE;
 *   3. int8 quantisation (the serving format), the dev numbers of the float and the int8 table.
 * Options: --base models/quin-static --out models/quin-static-retrieval --epochs N (see HYPER).
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { decodeStaticModel, encodeStaticModel, quantize } from '../../indexer/encoders/static/model-file';
import { projectRoot } from '../../lib/paths';
import { prepare } from './prepare';

/** The trainer's settings (chosen on the dev splits; models/quin-static-retrieval/README.md has the comparison). */
export const HYPER = {
  epochs: 6,
  batch: 256,
  lr: 0.02,
  scale: 20,
  seed: 20240611,
  weights: 'scifact-claims=4',
  cap: '',
};

const PYTHON = '/usr/bin/python3';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const log = (line: string) => process.stderr.write(`train:encoder: ${line}\n`);

/** Runs the PyTorch side; its output is shown as it goes (`capture`: returned instead). */
function python(args: string[], capture = false): string {
  const r = spawnSync(PYTHON, args, {
    cwd: projectRoot(),
    encoding: 'utf8',
    stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'],
    maxBuffer: 64 << 20,
  });
  if (r.status !== 0) throw new Error(`${PYTHON} ${args.join(' ')} failed (exit ${r.status})`);
  return r.stdout ?? '';
}

async function main() {
  const started = Date.now();
  const root = projectRoot();
  const base = path.resolve(root, arg('base', 'models/quin-static'), 'model.bin');
  const out = path.resolve(root, arg('out', 'models/quin-static-retrieval'));
  const work = path.join(root, '.cache', 'training', 'encoder');
  const epochs = Number(arg('epochs', String(HYPER.epochs)));
  if (spawnSync(PYTHON, ['-c', 'import torch, numpy'], { stdio: 'ignore' }).status !== 0)
    throw new Error(`${PYTHON} has no torch/numpy: run \`bash training/setup.sh\` (Debian's python3-torch)`);

  log(`preparing pairs from ${path.relative(root, base)} into ${path.relative(root, work)}`);
  const manifest = (await prepare({ base, out: work, log })) as { sources: Record<string, unknown>[]; examples: number; passages: number };
  const prepared = (Date.now() - started) / 1000;

  const run = path.join(work, 'run');
  const args = [
    path.join(root, 'training', 'encoder', 'train_contrastive.py'),
    '--data',
    work,
    '--out',
    run,
    '--epochs',
    String(epochs),
    '--batch',
    String(HYPER.batch),
    '--lr',
    String(HYPER.lr),
    '--scale',
    String(HYPER.scale),
    '--seed',
    String(HYPER.seed),
    ...(HYPER.weights ? ['--weights', HYPER.weights] : []),
    ...(HYPER.cap ? ['--cap', HYPER.cap] : []),
  ];
  log(`training: ${PYTHON} ${args.map((a) => path.relative(root, a) || a).join(' ')}`);
  python(args);
  const trainLog = JSON.parse(fs.readFileSync(path.join(run, 'train-log.json'), 'utf8')) as {
    start: unknown;
    epochs: { epoch: number; loss: number; seconds: number; dev: unknown }[];
    seconds: number;
  };

  const model = decodeStaticModel(fs.readFileSync(base), base);
  const dim = model.header.dim;
  const table = new Float32Array(fs.readFileSync(path.join(run, 'table.f32')).buffer.slice(0));
  if (table.length !== model.vocab.length * dim)
    throw new Error(`trained table has ${table.length} values, expected ${model.vocab.length * dim}`);
  const q = quantize(table, dim);
  // What ships is int8: its dev numbers, measured by the same evaluation.
  const dequant = new Float32Array(table.length);
  for (let i = 0; i < table.length; i++) dequant[i] = q.scales[Math.floor(i / dim)]! * q.rows[i]!;
  const dequantFile = path.join(run, 'table-int8.f32');
  fs.writeFileSync(dequantFile, Buffer.from(dequant.buffer));
  const int8Dev = JSON.parse(
    python(
      [path.join(root, 'training', 'encoder', 'train_contrastive.py'), '--data', work, '--out', run, '--eval-table', dequantFile],
      true,
    ).trim(),
  ) as unknown;

  const baseHash = crypto.createHash('sha256').update(fs.readFileSync(base)).digest('hex').slice(0, 12);
  const training = {
    method: 'contrastive (InfoNCE, in-batch + 1 BM25 hard negative per query, mean-title pooled passages)',
    from: `${path.basename(path.dirname(base))}@${baseHash}`,
    ...HYPER,
    epochs,
    examples: manifest.examples,
  };
  const buf = encodeStaticModel({
    header: { dim, teacher: `${model.header.teacher} (distilled), then contrastive`, training },
    vocab: model.vocab,
    ...q,
  });
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'model.bin'), buf);
  const metrics = {
    training,
    sources: manifest.sources.map(({ passageRange: _, ...s }) => s),
    dev: { start: trainLog.start, epochs: trainLog.epochs, int8: int8Dev },
    seconds: { prepare: Math.round(prepared), train: Math.round(trainLog.seconds), total: Math.round((Date.now() - started) / 1000) },
    sha256: crypto.createHash('sha256').update(buf).digest('hex'),
    bytes: buf.length,
  };
  fs.writeFileSync(path.join(out, 'metrics.json'), JSON.stringify(metrics, null, 2) + '\n');
  log(
    `wrote ${path.relative(root, path.join(out, 'model.bin'))} (${(buf.length / 2 ** 20).toFixed(1)} MiB) in ${metrics.seconds.total} s; int8 dev ${JSON.stringify(int8Dev)}`,
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`train:encoder failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
