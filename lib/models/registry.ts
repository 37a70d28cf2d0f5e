/**
 * The model registry: which folder serves as encoder, reranker and NLI model. Each role is a setting
 * (QUIN_ENCODER_MODEL, QUIN_RERANKER_MODEL, QUIN_NLI_MODEL) holding a folder path, a folder name under
 * QUIN_MODELS_DIR (what `quin models pull` writes, e.g. `ms-marco-MiniLM-L-6-v2`, or the hub id
 * `cross-encoder/ms-marco-MiniLM-L-6-v2`), or `none`. Unset means the built-in default below: the
 * models trained in this repository (models/quin-*), used by default only where they improved our
 * development split (docs/models.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import { createError } from '../errors';
import { projectRoot } from '../paths';
import { CrossEncoder } from './cross-encoder';
import { SentenceEncoder } from './encoder';
import { NliClassifier } from './nli';
import type { TextModelOptions } from './text-model';

export type ModelRole = 'encoder' | 'reranker' | 'nli';

/**
 * Default folder name per role when its setting is unset (null = role off by default). Our own
 * models are on because they improved our dev split (docs/models.md): quin-reranker moves hybrid
 * nDCG@10 from 0.733 to about 0.756 on SciFact and from 0.453 to about 0.486 on Climate-FEVER (its
 * rerank.json settings); quin-nli gives verdicts well above the trivial baselines. A model that stops improving dev must be set back to null here.
 */
export const DEFAULT_MODELS: Record<ModelRole, string | null> = {
  encoder: null,
  reranker: 'quin-reranker',
  nli: 'quin-nli',
};

type RegistryConfig = Pick<Config, 'encoderModel' | 'rerankerModel' | 'nliModel' | 'modelsDir' | 'ortThreads' | 'ortProvider'>;

function settingOf(role: ModelRole, config: RegistryConfig): string | undefined {
  return role === 'encoder' ? config.encoderModel : role === 'reranker' ? config.rerankerModel : config.nliModel;
}

/** Local folder name of a hub repo id: the part after the owner ("cross-encoder/x" → "x"). */
export function folderNameOf(repoId: string): string {
  return repoId.split('/').filter(Boolean).pop() ?? repoId;
}

/** The folder that serves `role`, or null when the role is off. Throws MODEL_UNAVAILABLE for a name that matches nothing. */
export function resolveModelDir(role: ModelRole, config: RegistryConfig, cwd = process.cwd()): string | null {
  const raw = settingOf(role, config) ?? DEFAULT_MODELS[role];
  if (raw === null || raw === undefined || raw.toLowerCase() === 'none') return null;
  const candidates = [path.resolve(cwd, raw), path.join(config.modelsDir, folderNameOf(raw)), path.join(projectRoot(), 'models', folderNameOf(raw))];
  const found = candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isDirectory());
  if (!found) {
    const setting = role === 'encoder' ? 'QUIN_ENCODER_MODEL' : role === 'reranker' ? 'QUIN_RERANKER_MODEL' : 'QUIN_NLI_MODEL';
    throw createError('MODEL_UNAVAILABLE', `${setting}=${raw}: no such model folder (looked in ${candidates.join(', ')}); download it with \`quin models pull ${raw.includes('/') ? raw : '<owner>/' + raw}\` or set ${setting}=none`);
  }
  return found;
}

/**
 * Inputs per onnxruntime call (encoder, reranker; the NLI model reads one pair a call, nli.ts):
 * batches are sorted by length and padded per batch. Eight rows a call: the reranker's 30 candidates
 * read in 204 ms in batches of 8 against 247 in one batch of 32 (training/reranker/latency.ts,
 * best@320, 2 threads) — less padding to the longest row, and a batch's activations (8 × 128 × 1536
 * floats in the feed-forward layer) stay in the core's cache; 4 rows gain nothing more.
 */
export const MODEL_BATCH_SIZE = 8;

export function runtimeOptions(config: RegistryConfig): TextModelOptions {
  return { threads: config.ortThreads, provider: config.ortProvider, batchSize: MODEL_BATCH_SIZE };
}

// One loaded model per folder and role per process: sessions are expensive to open.
const loaded = new Map<string, Promise<unknown>>();

function cachedLoad<T>(key: string, load: () => Promise<T>): Promise<T> {
  let p = loaded.get(key) as Promise<T> | undefined;
  if (!p) {
    p = load();
    loaded.set(key, p);
    p.catch(() => loaded.delete(key));
  }
  return p;
}

export async function loadRoleModel(role: 'encoder', config: RegistryConfig): Promise<SentenceEncoder | null>;
export async function loadRoleModel(role: 'reranker', config: RegistryConfig): Promise<CrossEncoder | null>;
export async function loadRoleModel(role: 'nli', config: RegistryConfig): Promise<NliClassifier | null>;
export async function loadRoleModel(role: ModelRole, config: RegistryConfig): Promise<SentenceEncoder | CrossEncoder | NliClassifier | null> {
  const dir = resolveModelDir(role, config);
  if (!dir) return null;
  const opts = runtimeOptions(config);
  const key = `${role}:${dir}:${opts.provider}:${opts.threads}:${opts.batchSize}`;
  if (role === 'encoder') return cachedLoad(key, () => SentenceEncoder.load(dir, opts));
  if (role === 'reranker') return cachedLoad(key, () => CrossEncoder.load(dir, opts));
  return cachedLoad(key, () => NliClassifier.load(dir, opts));
}

/** Releases every cached session (tests, CLI exit). */
export async function closeLoadedModels(): Promise<void> {
  const all = [...loaded.values()];
  loaded.clear();
  for (const p of all) {
    const m = (await p.catch(() => null)) as { close(): Promise<void> } | null;
    await m?.close();
  }
}
