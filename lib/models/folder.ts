/**
 * A model folder in the Hugging Face layout: `model.onnx` (or `onnx/model.onnx`), `tokenizer.json`
 * (+ `tokenizer_config.json`; a folder without its own tokenizer.json names one with the config's
 * `tokenizer_file`, relative to the folder — the project's own folders share one BERT tokenizer
 * instead of carrying a copy each), `config.json` (with `id2label` for classifiers) and, for
 * sentence-transformers encoders, `1_Pooling/config.json`. Reading and validating the folder is pure
 * file I/O with no runtime involved, so a bad folder fails with MODEL_INVALID before any session opens.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createError } from '../errors';

export type Pooling = 'mean' | 'cls' | 'max';

export interface ModelFolder {
  dir: string;
  /** Folder name, e.g. "ms-marco-MiniLM-L-6-v2". */
  name: string;
  onnxPath: string;
  tokenizerJson: Record<string, unknown>;
  tokenizerConfig: Record<string, unknown>;
  config: Record<string, unknown>;
  /** Labels by output index (from config.json id2label); empty when the config has none. */
  labels: string[];
  /** sentence-transformers pooling (1_Pooling/config.json), undefined when the folder has none. */
  pooling: Pooling | undefined;
  /** Longest input in tokens (tokenizer_config model_max_length, capped by max_position_embeddings). */
  maxLength: number;
  /** Short hash of every byte of model.onnx and config.json: part of cache keys and model ids. */
  hash: string;
}

const ONNX_CANDIDATES = ['model.onnx', path.join('onnx', 'model.onnx')];
const DEFAULT_MAX_LENGTH = 512;

function readJson(file: string, required: boolean): Record<string, unknown> {
  if (!fs.existsSync(file)) {
    if (required) throw createError('MODEL_INVALID', `model folder: ${file} is missing`);
    return {};
  }
  try {
    const v: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('not a JSON object');
    return v as Record<string, unknown>;
  } catch (e) {
    throw createError('MODEL_INVALID', `model folder: ${file} is not valid JSON (${(e as Error).message})`);
  }
}

/** id2label as an array by index; any order of ids, any label strings. */
export function labelsFrom(config: Record<string, unknown>): string[] {
  const raw = config.id2label;
  if (raw === undefined || raw === null) return [];
  if (typeof raw !== 'object' || Array.isArray(raw)) throw createError('MODEL_INVALID', 'config.json: id2label must be an object {"0": "label", ...}');
  const entries = Object.entries(raw as Record<string, unknown>).map(([k, v]) => [Number(k), String(v)] as const);
  const out: string[] = [];
  for (const [i, label] of entries) {
    if (!Number.isInteger(i) || i < 0 || i >= entries.length) throw createError('MODEL_INVALID', `config.json: id2label key "${i}" is not an index 0..${entries.length - 1}`);
    out[i] = label;
  }
  return out;
}

export function poolingFrom(poolingConfig: Record<string, unknown>): Pooling | undefined {
  if (poolingConfig.pooling_mode_cls_token === true) return 'cls';
  if (poolingConfig.pooling_mode_mean_tokens === true) return 'mean';
  if (poolingConfig.pooling_mode_max_tokens === true) return 'max';
  return undefined;
}

function maxLengthOf(config: Record<string, unknown>, tokConfig: Record<string, unknown>, stConfig: Record<string, unknown>): number {
  const candidates = [stConfig.max_seq_length, tokConfig.model_max_length, config.max_position_embeddings]
    .map(Number)
    // Tokenizer configs use 1e30 for "no limit".
    .filter((n) => Number.isFinite(n) && n > 0 && n < 1e6);
  return candidates.length ? Math.min(...candidates) : DEFAULT_MAX_LENGTH;
}

/**
 * Whole-file hashes keyed by what changes when a file does (path, size, mtime, ctime, inode): a
 * model is read in full once per process and served from here afterwards. (The id used to hash only
 * the size and the first and last megabyte: a byte flipped in the middle of model.onnx loaded under
 * the same id.) ctime and inode cannot be set back by hand, so a file rewritten with its old size
 * and mtime is hashed again.
 */
const fileHashes = new Map<string, string>();

function hashFile(file: string): string {
  const st = fs.statSync(file);
  const key = `${path.resolve(file)}\0${st.size}\0${st.mtimeMs}\0${st.ctimeMs}\0${st.ino}`;
  let sum = fileHashes.get(key);
  if (!sum) {
    // sha256 of a 23 MB model takes about 25 ms here.
    sum = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    fileHashes.set(key, sum);
  }
  return sum;
}

/** Short content hash of the files (name and every byte of each): part of model ids and cache keys. */
export function hashFiles(files: string[]): string {
  const h = crypto.createHash('sha256');
  for (const f of files) h.update(`${path.basename(f)}:${hashFile(f)}\n`);
  return h.digest('hex').slice(0, 12);
}

/** The folder's tokenizer.json, else the file its tokenizer_config.json names (`tokenizer_file`). */
export function tokenizerFile(dir: string, tokenizerConfig: Record<string, unknown>): string {
  const own = path.join(dir, 'tokenizer.json');
  const named = tokenizerConfig.tokenizer_file;
  return fs.existsSync(own) || typeof named !== 'string' || !named.trim() ? own : path.resolve(dir, named);
}

export function readModelFolder(dir: string): ModelFolder {
  const abs = path.resolve(dir);
  if (!fs.existsSync(abs) || !fs.statSync(abs).isDirectory()) throw createError('MODEL_UNAVAILABLE', `model folder ${abs} does not exist (see \`quin models pull\`)`);
  const onnx = ONNX_CANDIDATES.map((c) => path.join(abs, c)).find((p) => fs.existsSync(p));
  if (!onnx) throw createError('MODEL_INVALID', `model folder ${abs} has no model.onnx or onnx/model.onnx`);
  if (fs.statSync(onnx).size === 0) throw createError('MODEL_INVALID', `${onnx} is empty (0 bytes): copy or download the model again`);
  const config = readJson(path.join(abs, 'config.json'), true);
  const tokenizerConfig = readJson(path.join(abs, 'tokenizer_config.json'), false);
  const tokenizerJson = readJson(tokenizerFile(abs, tokenizerConfig), true);
  const stConfig = readJson(path.join(abs, 'sentence_bert_config.json'), false);
  const pooling = poolingFrom(readJson(path.join(abs, '1_Pooling', 'config.json'), false));
  return {
    dir: abs,
    name: path.basename(abs),
    onnxPath: onnx,
    tokenizerJson,
    tokenizerConfig,
    config,
    labels: labelsFrom(config),
    pooling,
    maxLength: maxLengthOf(config, tokenizerConfig, stConfig),
    hash: hashFiles([onnx, path.join(abs, 'config.json')]),
  };
}
