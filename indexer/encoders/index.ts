/**
 * The encoder chosen by configuration (QUIN_ENCODER): the static encoder (default; its table
 * models/quin-static-retrieval, trained for retrieval from the one distilled from USE-lite, or the
 * folder QUIN_ENCODER_MODEL names) or an ONNX sentence-transformers folder. USE-lite itself is a
 * training teacher only (training/encoder/use-lite.ts): an index it built is no longer served.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../lib/config';
import { resolveModelDir } from '../../lib/models';
import { projectRoot } from '../../lib/paths';
import type { Encoder } from '../types';
import { createOnnxEncoder } from './onnx';
import { loadStaticEncoder, type StaticEncoder } from './static/encoder';

export type EncoderConfig = Parameters<typeof createOnnxEncoder>[0] & Pick<Config, 'encoder'>;

export const DEFAULT_STATIC_MODEL = 'quin-static-retrieval';

/** The static encoder's folder: QUIN_ENCODER_MODEL when set, else the model shipped in models/. */
export function staticModelDir(config: EncoderConfig): string {
  if (!config.encoderModel) return path.join(projectRoot(), 'models', DEFAULT_STATIC_MODEL);
  return resolveModelDir('encoder', config) ?? path.join(projectRoot(), 'models', DEFAULT_STATIC_MODEL);
}

// One table per folder per process (it is read-only and shared by every caller).
const statics = new Map<string, StaticEncoder>();

function staticEncoder(dir: string): StaticEncoder {
  let e = statics.get(dir);
  if (!e) statics.set(dir, (e = loadStaticEncoder(dir)));
  return e;
}

/**
 * The id of the configured encoder: the static table's content hash (reading a table is cheap), an
 * ONNX folder's id (its model is loaded). For status lines and for comparing with the encoder an
 * index was built with.
 */
export async function configuredEncoderId(config: EncoderConfig): Promise<string> {
  return (await createEncoder(config)).id;
}

/**
 * The encoder an id names, when it can be loaded here exactly (same content hash), else null:
 * `static:<folder>@<hash>` (the folder under
 * models/, QUIN_MODELS_DIR or QUIN_ENCODER_MODEL), `onnx:<folder>@<hash>` (a folder under QUIN_MODELS_DIR).
 * A dense index is searched with the encoder that built it (indexer/open.ts), whatever is configured.
 */
export async function encoderFromId(id: string, config: EncoderConfig): Promise<Encoder | null> {
  try {
    const m = /^(static|onnx):(.+)@([0-9a-f]+)$/.exec(id);
    if (!m) return null;
    const [, kind, name] = m;
    if (kind === 'static') {
      const dirs = [path.join(projectRoot(), 'models', name!), path.join(path.resolve(config.modelsDir), name!)];
      if (config.encoderModel) dirs.unshift(staticModelDir(config));
      for (const dir of dirs) {
        if (path.basename(path.resolve(dir)) !== name || !fs.existsSync(path.join(dir, 'model.bin'))) continue;
        const e = staticEncoder(dir);
        if (e.id === id) return e;
      }
      return null;
    }
    const e = await createOnnxEncoder({ ...config, encoderModel: name });
    return e.id === id ? e : null;
  } catch {
    return null;
  }
}

/**
 * Rough snippets a second of a cold dense build on two cores (what a rebuild would cost): the static
 * encoder (docs/benchmarks.md), an ONNX MiniLM-sized model.
 */
export const COLD_SNIPPETS_PER_SECOND: Record<Config['encoder'], number> = { static: 1000, onnx: 30 };

/** "about 3 minutes" for a cold dense build of n snippets with this encoder. */
export function rebuildEstimate(encoder: Config['encoder'], snippets: number): string {
  const s = snippets / COLD_SNIPPETS_PER_SECOND[encoder];
  const t =
    s < 90 ? `${Math.max(1, Math.round(s))} seconds` : s < 5400 ? `${Math.round(s / 60)} minutes` : `${(s / 3600).toFixed(1)} hours`;
  return `about ${t} at ~${COLD_SNIPPETS_PER_SECOND[encoder].toLocaleString('en')} snippets/s`;
}

export async function createEncoder(config: EncoderConfig): Promise<Encoder> {
  if (config.encoder === 'onnx') return createOnnxEncoder(config);
  return staticEncoder(staticModelDir(config));
}

export { createOnnxEncoder } from './onnx';
export { loadStaticEncoder, staticEncoderFrom, type StaticEncoder } from './static/encoder';
