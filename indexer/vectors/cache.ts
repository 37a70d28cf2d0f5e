/**
 * The sentence-embedding cache: binary float32 vectors keyed by (encoder id, sha256 of the text),
 * under QUIN_CACHE_DIR, shared by every data directory and run (embedding SciFact with USE-lite takes
 * half an hour; nothing should be embedded twice).
 *
 * Layout: <cacheDir>/embeddings/<encoder>/seg-*.bin. Each writer appends to a segment file of its
 * own (pid + random name), so two processes writing at once never interleave. A segment is a header
 * (magic, dim) followed by fixed-size records [key 16 B | vector dim×4 B | check 4 B], the check
 * being the first 4 bytes of sha256(key ‖ vector). A torn write after a crash leaves a short last
 * record or a record whose check fails: both are detected and skipped, never read as data.
 * Readers index every segment at open and pick up records appended later on a miss.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createError } from '../../lib/errors';

const MAGIC = Buffer.from('QUINEMB1', 'ascii');
const HEADER_BYTES = 16; // magic (8) + dim (u32) + reserved (u32)
const KEY_BYTES = 16;
const CHECK_BYTES = 4;

export interface CacheStats {
  vectors: number;
  segments: number;
  bytes: number;
  /** Records skipped as torn or corrupt (a crash mid-write), since open. */
  corrupt: number;
}

interface Location {
  segment: number;
  offset: number;
}

interface Segment {
  file: string;
  fd: number;
  /** Bytes already scanned. */
  scanned: number;
}

export function textKey(text: string): Buffer {
  return crypto.createHash('sha256').update(text, 'utf8').digest().subarray(0, KEY_BYTES);
}

function check(key: Buffer, vec: Buffer): Buffer {
  return crypto.createHash('sha256').update(key).update(vec).digest().subarray(0, CHECK_BYTES);
}

/** A file-system-safe folder name for an encoder id ("onnx:all-MiniLM-L6-v2@ab12" → "onnx_all-MiniLM-L6-v2_ab12"). */
export function encoderFolder(encoderId: string): string {
  const safe = encoderId.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
  const h = crypto.createHash('sha256').update(encoderId).digest('hex').slice(0, 8);
  return `${safe}-${h}`;
}

export class VectorCache {
  readonly dim: number;
  readonly dir: string;
  private readonly recordBytes: number;
  private readonly index = new Map<string, Location>();
  private readonly segments: Segment[] = [];
  private writer: { fd: number; file: string } | undefined;
  private corrupt = 0;

  /** `dir`/`only` are for compaction: read exactly these segment files of that folder. */
  constructor(cacheDir: string, encoderId: string, dim: number, dir?: string, only?: string[]) {
    if (!Number.isInteger(dim) || dim <= 0) throw createError('INVALID_INPUT', `vector cache: bad dimension ${dim}`);
    this.dim = dim;
    this.dir = dir ?? path.join(cacheDir, 'embeddings', encoderFolder(encoderId));
    this.recordBytes = KEY_BYTES + dim * 4 + CHECK_BYTES;
    fs.mkdirSync(this.dir, { recursive: true });
    this.only = only ? new Set(only) : undefined;
    this.refresh();
  }

  private readonly only: Set<string> | undefined;

  get size(): number {
    return this.index.size;
  }

  /** Scans segments (new files and records appended since the last scan). */
  refresh(): void {
    const known = new Set(this.segments.map((s) => s.file));
    for (const name of fs.readdirSync(this.dir).sort()) {
      if (!/^seg-.*\.bin$/.test(name)) continue;
      const file = path.join(this.dir, name);
      if (known.has(file) || (this.only && !this.only.has(file))) continue;
      let fd: number;
      try {
        fd = fs.openSync(file, 'r');
      } catch {
        continue; // removed meanwhile
      }
      this.segments.push({ file, fd, scanned: 0 });
    }
    this.segments.forEach((_, i) => this.scan(i));
  }

  private scan(segIndex: number): void {
    const seg = this.segments[segIndex]!;
    const size = fs.fstatSync(seg.fd).size;
    if (seg.scanned === 0) {
      if (size < HEADER_BYTES) return; // header not written yet (or torn): try again later
      const header = Buffer.alloc(HEADER_BYTES);
      fs.readSync(seg.fd, header, 0, HEADER_BYTES, 0);
      if (!header.subarray(0, 8).equals(MAGIC) || header.readUInt32LE(8) !== this.dim) {
        this.corrupt += 1;
        seg.scanned = Number.MAX_SAFE_INTEGER; // not ours / damaged: ignore the whole file
        return;
      }
      seg.scanned = HEADER_BYTES;
    }
    const whole = Math.floor((size - seg.scanned) / this.recordBytes);
    if (whole <= 0) return;
    const chunkRecords = Math.max(1, Math.floor((8 << 20) / this.recordBytes));
    for (let done = 0; done < whole; done += chunkRecords) {
      const n = Math.min(chunkRecords, whole - done);
      const buf = Buffer.alloc(n * this.recordBytes);
      const start = seg.scanned;
      fs.readSync(seg.fd, buf, 0, buf.length, start);
      for (let r = 0; r < n; r++) {
        const rec = buf.subarray(r * this.recordBytes, (r + 1) * this.recordBytes);
        const key = rec.subarray(0, KEY_BYTES);
        const vec = rec.subarray(KEY_BYTES, KEY_BYTES + this.dim * 4);
        if (!check(key, vec).equals(rec.subarray(KEY_BYTES + this.dim * 4))) {
          this.corrupt += 1;
          continue;
        }
        const k = key.toString('base64');
        if (!this.index.has(k)) this.index.set(k, { segment: segIndex, offset: start + r * this.recordBytes + KEY_BYTES });
      }
      seg.scanned = start + n * this.recordBytes;
    }
  }

  /** Vectors for the texts, null where absent. */
  get(texts: readonly string[]): (Float32Array | null)[] {
    const out = this.lookup(texts);
    if (out.some((v) => v === null)) {
      this.refresh(); // another process may have added them since
      return this.lookup(texts);
    }
    return out;
  }

  private lookup(texts: readonly string[]): (Float32Array | null)[] {
    return texts.map((t) => {
      const loc = this.index.get(textKey(t).toString('base64'));
      if (!loc) return null;
      const vec = new Float32Array(this.dim);
      fs.readSync(this.segments[loc.segment]!.fd, new Uint8Array(vec.buffer), 0, this.dim * 4, loc.offset);
      return vec;
    });
  }

  has(text: string): boolean {
    return this.index.has(textKey(text).toString('base64'));
  }

  /** Appends vectors (one write per call: a crash tears at most the last record). */
  put(texts: readonly string[], vectors: readonly Float32Array[]): void {
    if (texts.length !== vectors.length) throw createError('INTERNAL', 'vector cache: texts and vectors differ in length');
    const w = this.openWriter();
    const buf = Buffer.alloc(texts.length * this.recordBytes);
    const fresh: [string, number][] = [];
    texts.forEach((t, i) => {
      const v = vectors[i]!;
      if (v.length !== this.dim) throw createError('INTERNAL', `vector cache: vector of dim ${v.length}, expected ${this.dim}`);
      const key = textKey(t);
      const rec = buf.subarray(i * this.recordBytes, (i + 1) * this.recordBytes);
      key.copy(rec, 0);
      const vb = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
      vb.copy(rec, KEY_BYTES);
      check(key, vb).copy(rec, KEY_BYTES + this.dim * 4);
      fresh.push([key.toString('base64'), i]);
    });
    const segIndex = this.segments.findIndex((s) => s.file === w.file);
    const base = fs.fstatSync(w.fd).size;
    fs.writeSync(w.fd, buf, 0, buf.length, base);
    const seg = this.segments[segIndex]!;
    for (const [k, i] of fresh)
      if (!this.index.has(k)) this.index.set(k, { segment: segIndex, offset: base + i * this.recordBytes + KEY_BYTES });
    seg.scanned = base + buf.length;
  }

  private openWriter(): { fd: number; file: string } {
    if (this.writer) return this.writer;
    const file = path.join(this.dir, `seg-${Date.now().toString(36)}-${process.pid}-${crypto.randomBytes(4).toString('hex')}.bin`);
    const fd = fs.openSync(file, 'wx+');
    const header = Buffer.alloc(HEADER_BYTES);
    MAGIC.copy(header, 0);
    header.writeUInt32LE(this.dim, 8);
    fs.writeSync(fd, header, 0, HEADER_BYTES, 0);
    this.segments.push({ file, fd, scanned: HEADER_BYTES });
    this.writer = { fd, file };
    return this.writer;
  }

  /**
   * Merges the segments no writer has touched for `idleMs` into one, when there are more than
   * `maxSegments` (every indexing run that embeds something starts a segment of its own). The merged
   * file is written under a temporary name and renamed into place before the old ones are removed, so
   * a crash at any point leaves every vector readable (at worst twice, which is harmless). One
   * compactor at a time (lock file); readers that still hold an old file open keep reading it.
   */
  compact(maxSegments = 32, idleMs = 10 * 60_000): number {
    const files = fs
      .readdirSync(this.dir)
      .filter((n) => /^seg-.*\.bin$/.test(n))
      .map((n) => path.join(this.dir, n));
    const idle = files.filter((f) => f !== this.writer?.file && Date.now() - fs.statSync(f).mtimeMs > idleMs);
    if (files.length <= maxSegments || idle.length < 2) return 0;
    const lock = path.join(this.dir, 'compact.lock');
    let fd: number;
    try {
      fd = fs.openSync(lock, 'wx');
    } catch {
      return 0; // another process is compacting
    }
    try {
      const merged = new VectorCache(path.dirname(path.dirname(this.dir)), '', this.dim, this.dir, idle);
      const out = path.join(this.dir, `.merge-${process.pid}-${crypto.randomBytes(4).toString('hex')}.tmp`);
      const ofd = fs.openSync(out, 'wx');
      const header = Buffer.alloc(HEADER_BYTES);
      MAGIC.copy(header, 0);
      header.writeUInt32LE(this.dim, 8);
      fs.writeSync(ofd, header);
      for (const [k, loc] of merged.index) {
        const rec = Buffer.alloc(this.recordBytes);
        Buffer.from(k, 'base64').copy(rec, 0);
        fs.readSync(merged.segments[loc.segment]!.fd, rec, KEY_BYTES, this.dim * 4, loc.offset);
        check(rec.subarray(0, KEY_BYTES), rec.subarray(KEY_BYTES, KEY_BYTES + this.dim * 4)).copy(rec, KEY_BYTES + this.dim * 4);
        fs.writeSync(ofd, rec);
      }
      fs.fsyncSync(ofd);
      fs.closeSync(ofd);
      merged.close();
      fs.renameSync(out, path.join(this.dir, `seg-${Date.now().toString(36)}-merged-${crypto.randomBytes(4).toString('hex')}.bin`));
      for (const f of idle) fs.rmSync(f, { force: true });
      return idle.length;
    } finally {
      fs.closeSync(fd);
      fs.rmSync(lock, { force: true });
    }
  }

  stats(): CacheStats {
    let bytes = 0;
    for (const s of this.segments) {
      try {
        bytes += fs.fstatSync(s.fd).size;
      } catch {
        // closed
      }
    }
    return { vectors: this.index.size, segments: this.segments.length, bytes, corrupt: this.corrupt };
  }

  close(): void {
    if (this.writer) fs.fsyncSync(this.writer.fd);
    for (const s of this.segments) {
      try {
        fs.closeSync(s.fd);
      } catch {
        // already closed
      }
    }
    this.segments.length = 0;
    this.index.clear();
    this.writer = undefined;
  }
}
