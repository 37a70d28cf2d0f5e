/** The encoder chosen by configuration (QUIN_ENCODER): USE-lite by default, or an ONNX folder. */
import type { Config } from '../../lib/config';
import type { Encoder } from '../types';
import { createOnnxEncoder } from './onnx';
import { createUseLiteEncoder } from './use-lite';

export type EncoderConfig = Parameters<typeof createOnnxEncoder>[0] & Pick<Config, 'encoder'>;

export async function createEncoder(config: EncoderConfig): Promise<Encoder> {
  return config.encoder === 'onnx' ? createOnnxEncoder(config) : createUseLiteEncoder();
}

export { createUseLiteEncoder, USE_LITE_ID } from './use-lite';
export { createOnnxEncoder } from './onnx';
