import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadStaticEncoder, staticEncoderFrom } from './encoder';
import { decodeStaticModel, encodeStaticModel, quantize } from './model-file';
import { StaticTokenizer, words } from './tokenizer';

const VOCAB = ['the', 'vaccine', 'works', '▁vac', '▁un', '##cine', '##known', '##s', '▁x'];

function tinyModel(dim = 4) {
  const table = new Float32Array(VOCAB.length * dim);
  VOCAB.forEach((_, i) => (table[i * dim + (i % dim)] = 1 + i / 10));
  return { header: { dim, teacher: 'test' }, vocab: VOCAB, ...quantize(table, dim) };
}

describe('static tokenizer', () => {
  const tok = new StaticTokenizer(VOCAB);

  it('lower-cases letter/digit words and looks whole words up', () => {
    expect(words('The VACCINE works!')).toEqual(['the', 'vaccine', 'works']);
    expect(tok.encode('The VACCINE works!')).toEqual([0, 1, 2]);
  });

  it('cuts unknown words into the longest pieces, skipping characters no piece covers', () => {
    expect(tok.encode('vaccines')).toEqual([3, 5, 7]); // ▁vac ##cine ##s
    expect(tok.encode('unknown')).toEqual([4, 6]);
    expect(tok.encode('xq')).toEqual([8]); // q has no piece
    expect(tok.encode('¿¡ …')).toEqual([]);
  });
});

describe('static model file', () => {
  it('round-trips and rejects damage with MODEL_INVALID', () => {
    const buf = encodeStaticModel(tinyModel());
    const m = decodeStaticModel(buf, 'x.bin');
    expect(m.vocab).toEqual(VOCAB);
    expect(m.header.dim).toBe(4);
    expect(() => decodeStaticModel(buf.subarray(0, buf.length - 1), 'x.bin')).toThrow(/bytes, the header describes/);
    const bad = Buffer.from(buf);
    bad[0] = 0;
    expect(() => decodeStaticModel(bad, 'x.bin')).toThrow(/bad magic/);
  });

  it('int8 rows stay within 1% of the float rows', () => {
    const table = Float32Array.from({ length: 64 }, (_, i) => Math.sin(i));
    const q = quantize(table, 16);
    for (let i = 0; i < 64; i++) expect(Math.abs(q.scales[Math.floor(i / 16)]! * q.rows[i]! - table[i]!)).toBeLessThan(0.01);
  });
});

describe('static encoder', () => {
  it('embeds as the normalised mean of token rows; no known token gives the zero vector', async () => {
    const enc = staticEncoderFrom(decodeStaticModel(encodeStaticModel(tinyModel()), 'x'), 'tiny', 'abc');
    expect(enc.id).toBe('static:tiny@abc');
    const [a, none] = await enc.embed(['the vaccine', '…']);
    const norm = Math.hypot(...a!);
    expect(norm).toBeCloseTo(1, 5);
    // 'the' (row 0: dim 0) and 'vaccine' (row 1: dim 1), weights 1.0 and 1.1
    expect(a![0]! / a![1]!).toBeCloseTo(1 / 1.1, 2);
    expect([...none!]).toEqual([0, 0, 0, 0]);
    expect(enc.embedSync(['the vaccine'])[0]).toEqual(a);
  });

  it('loads from a folder, names it in its id, and says what is missing', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-static-'));
    expect(() => loadStaticEncoder(dir)).toThrow(/model.bin is missing/);
    fs.writeFileSync(path.join(dir, 'model.bin'), encodeStaticModel(tinyModel()));
    const enc = loadStaticEncoder(dir);
    expect(enc.id).toMatch(new RegExp(`^static:${path.basename(dir)}@[0-9a-f]{12}$`));
    expect(enc.dim).toBe(4);
  });
});
