/**
 * The static encoder's file (`model.bin` in its model folder): one int8 row per vocabulary token
 * with a float32 scale per row (symmetric quantisation, row ≈ scale · int8), and the vocabulary.
 *
 * Layout (little endian): magic `QUINSTATIC1\n`, header length (u32), header JSON, zero padding to
 * 4 bytes, scales (float32 × vocab), rows (int8 × vocab × dim), vocabulary (UTF-8, one token a line).
 */
import { z } from 'zod';
import { createError } from '../../../lib/errors';

const MAGIC = Buffer.from('QUINSTATIC1\n', 'latin1');

const Header = z.object({
  format: z.literal(1),
  dim: z.number().int().min(1).max(4096),
  vocabSize: z.number().int().min(1),
  vocabBytes: z.number().int().min(1),
  /** What the table was distilled from and how (free-form, for the model card). */
  teacher: z.string(),
  training: z.record(z.string(), z.unknown()).optional(),
});

export type StaticHeader = z.infer<typeof Header>;

export interface StaticModel {
  header: StaticHeader;
  vocab: string[];
  scales: Float32Array;
  rows: Int8Array;
}

/** Quantises float rows (vocab × dim, row-major) to int8 with one scale per row. */
export function quantize(table: Float32Array, dim: number): { scales: Float32Array; rows: Int8Array } {
  const n = table.length / dim;
  const scales = new Float32Array(n);
  const rows = new Int8Array(table.length);
  for (let r = 0; r < n; r++) {
    let max = 0;
    for (let j = 0; j < dim; j++) max = Math.max(max, Math.abs(table[r * dim + j]!));
    const s = max / 127;
    scales[r] = s;
    if (s > 0) for (let j = 0; j < dim; j++) rows[r * dim + j] = Math.round(table[r * dim + j]! / s);
  }
  return { scales, rows };
}

const pad4 = (n: number) => (4 - (n % 4)) % 4;

export function encodeStaticModel(
  m: Omit<StaticModel, 'header'> & { header: Omit<StaticHeader, 'vocabBytes' | 'vocabSize' | 'format'> },
): Buffer {
  const vocab = Buffer.from(m.vocab.join('\n'), 'utf8');
  const header: StaticHeader = { format: 1, ...m.header, vocabSize: m.vocab.length, vocabBytes: vocab.length };
  if (m.scales.length !== m.vocab.length || m.rows.length !== m.vocab.length * header.dim)
    throw createError('INVALID_INPUT', 'static model: table and vocabulary sizes differ');
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32LE(json.length);
  const head = MAGIC.length + 4 + json.length;
  return Buffer.concat([
    MAGIC,
    len,
    json,
    Buffer.alloc(pad4(head)),
    Buffer.from(m.scales.buffer, m.scales.byteOffset, m.scales.byteLength),
    Buffer.from(m.rows.buffer, m.rows.byteOffset, m.rows.byteLength),
    vocab,
  ]);
}

export function decodeStaticModel(buf: Buffer, file: string): StaticModel {
  const bad = (why: string) => createError('MODEL_INVALID', `${file}: ${why}`);
  if (buf.length < MAGIC.length + 4 || !buf.subarray(0, MAGIC.length).equals(MAGIC)) throw bad('not a static encoder file (bad magic)');
  const hlen = buf.readUInt32LE(MAGIC.length);
  let header: StaticHeader;
  try {
    header = Header.parse(JSON.parse(buf.subarray(MAGIC.length + 4, MAGIC.length + 4 + hlen).toString('utf8')));
  } catch (e) {
    throw bad(`header unreadable (${(e as Error).message.split('\n')[0]})`);
  }
  let at = MAGIC.length + 4 + hlen;
  at += pad4(at);
  const { dim, vocabSize, vocabBytes } = header;
  const need = at + vocabSize * 4 + vocabSize * dim + vocabBytes;
  if (buf.length !== need) throw bad(`${buf.length} bytes, the header describes ${need}`);
  // Private aligned copies: the source buffer may be pooled or unaligned.
  const scales = new Float32Array(vocabSize);
  Buffer.from(scales.buffer).set(buf.subarray(at, at + vocabSize * 4));
  at += vocabSize * 4;
  const rows = new Int8Array(vocabSize * dim);
  Buffer.from(rows.buffer).set(buf.subarray(at, at + vocabSize * dim));
  at += vocabSize * dim;
  const vocab = buf.subarray(at).toString('utf8').split('\n');
  if (vocab.length !== vocabSize) throw bad(`vocabulary has ${vocab.length} tokens, the header says ${vocabSize}`);
  if (!scales.every(Number.isFinite)) throw bad('non-finite scale');
  return { header, vocab, scales, rows };
}
