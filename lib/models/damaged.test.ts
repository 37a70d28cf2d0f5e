/**
 * Fault suite (docs/development.md): a damaged model file. A byte flipped in the middle of model.onnx
 * (same size) must change the model's id — it loaded under the old one, and every answer named a model
 * that was not the one serving —; a truncated or empty file must be refused with a message that says
 * so (and, once scrubbed for the public, names no server path).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/db';
import { isQuinError } from '../errors';
import { withoutServerPaths } from '../public-text';
import { hashFiles, readModelFolder } from './folder';
import { NliClassifier } from './nli';

const FIX = path.join(__dirname, 'fixtures');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A copy of the tiny NLI fixture folder whose model.onnx `damage` changes. */
function damagedCopy(damage: (bytes: Buffer) => Buffer): string {
  const dir = path.join(tempDir('quin-damaged-'), 'tiny-nli');
  dirs.push(path.dirname(dir));
  fs.cpSync(path.join(FIX, 'tiny-nli'), dir, { recursive: true });
  // The fixtures share the project's one BERT tokenizer, named relative to their folder.
  const tokConfig = path.join(dir, 'tokenizer_config.json');
  const tok = JSON.parse(fs.readFileSync(tokConfig, 'utf8')) as { tokenizer_file: string };
  tok.tokenizer_file = path.resolve(FIX, 'tiny-nli', tok.tokenizer_file);
  fs.writeFileSync(tokConfig, JSON.stringify(tok));
  const onnx = path.join(dir, 'onnx', 'model.onnx');
  fs.writeFileSync(onnx, damage(fs.readFileSync(onnx)));
  return dir;
}

describe('a damaged model file', () => {
  it('the id hashes every byte: one flipped in the middle of a 5 MB file changes it (only the first and last MB were read)', () => {
    const dir = tempDir('quin-hash-');
    dirs.push(dir);
    const file = path.join(dir, 'model.onnx');
    const bytes = Buffer.alloc(5 << 20, 7);
    fs.writeFileSync(file, bytes);
    const before = hashFiles([file]);
    bytes[bytes.length >> 1] = 8;
    fs.writeFileSync(file, bytes);
    expect(hashFiles([file])).not.toBe(before);
  });

  it('a byte flipped in the middle changes the id, though size and both ends are the same', async () => {
    const original = await NliClassifier.load(path.join(FIX, 'tiny-nli'));
    const flippedDir = damagedCopy((b) => {
      const mid = Math.floor(b.length / 2);
      b[mid] = b[mid]! ^ 0xff;
      return b;
    });
    const onnx = path.join(flippedDir, 'onnx', 'model.onnx');
    expect(fs.statSync(onnx).size).toBe(fs.statSync(path.join(FIX, 'tiny-nli', 'onnx', 'model.onnx')).size);
    const before = readModelFolder(path.join(FIX, 'tiny-nli')).hash;
    const after = readModelFolder(flippedDir).hash;
    expect(after).not.toBe(before);
    // The same file read again (cached by path, size, mtime, ctime and inode) keeps its id.
    expect(readModelFolder(flippedDir).hash).toBe(after);
    expect(original.id).toContain(before);
    await original.close();
  });

  it('a file changed in place with its old size and mtime put back is hashed again', () => {
    const dir = damagedCopy((b) => b);
    const onnx = path.join(dir, 'onnx', 'model.onnx');
    const first = readModelFolder(dir).hash;
    const { atime, mtime } = fs.statSync(onnx);
    const bytes = fs.readFileSync(onnx);
    bytes[Math.floor(bytes.length / 3)]! ^= 0x01;
    fs.writeFileSync(onnx, bytes);
    fs.utimesSync(onnx, atime, mtime);
    expect(readModelFolder(dir).hash).not.toBe(first);
  });

  it('an empty model.onnx is refused before onnxruntime sees it, saying it is empty', async () => {
    const dir = damagedCopy(() => Buffer.alloc(0));
    const e = await NliClassifier.load(dir).catch((err: unknown) => err);
    expect(isQuinError(e, 'MODEL_INVALID')).toBe(true);
    expect((e as Error).message).toMatch(/model\.onnx is empty \(0 bytes\)/);
  });

  it('a truncated model.onnx is refused as cut short or damaged, and the public text names no server path', async () => {
    const dir = damagedCopy((b) => b.subarray(0, Math.floor(b.length / 2)));
    const e = await NliClassifier.load(dir).catch((err: unknown) => err);
    expect(isQuinError(e, 'MODEL_UNAVAILABLE')).toBe(true);
    const message = (e as Error).message;
    expect(message).toMatch(/not a whole ONNX model .*cut short or damaged/);
    expect(message).not.toMatch(/onnxruntime_src/);
    const shown = withoutServerPaths(message);
    expect(shown).toContain('onnx/model.onnx');
    expect(shown).not.toContain(path.dirname(dir));
    expect(shown).not.toMatch(/(^|[\s(])\/[\w.-]+\//);
  });
});
