/**
 * The encoder chosen by configuration (QUIN_ENCODER): the static encoder distilled from USE-lite
 * (default; models/quin-static, or the folder QUIN_ENCODER_MODEL names), USE-lite itself, or an ONNX
 * sentence-transformers folder.
 */
import path from 'node:path';
import type { Config } from '../../lib/config';
import { resolveModelDir } from '../../lib/models';
import { projectRoot } from '../../lib/paths';
import type { Encoder } from '../types';
import { createOnnxEncoder } from './onnx';
import { loadStaticEncoder, type StaticEncoder } from './static/encoder';
import { createUseLiteEncoder } from './use-lite';

export type EncoderConfig = Parameters<typeof createOnnxEncoder>[0] & Pick<Config, 'encoder'>;

export const DEFAULT_STATIC_MODEL = 'quin-static';

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

export async function createEncoder(config: EncoderConfig): Promise<Encoder> {
  if (config.encoder === 'onnx') return createOnnxEncoder(config);
  if (config.encoder === 'use-lite') return createUseLiteEncoder();
  return staticEncoder(staticModelDir(config));
}

export { createUseLiteEncoder, USE_LITE_ID } from './use-lite';
export { createOnnxEncoder } from './onnx';
export { loadStaticEncoder, staticEncoderFrom, type StaticEncoder } from './static/encoder';
