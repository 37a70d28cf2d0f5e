/**
 * The vectors an int8 HNSW graph's candidates are scored again with (`usearch:HNSW<M>,i8+f16`): one
 * row of f16 values per position, in a file beside the graph's (`<graph file>.f16`) and, for
 * positions added since that file was written, in memory.
 *
 * Why a file read row by row, not mapped: a search scores ~500 candidates again, so it reads 500
 * rows of 512 bytes (256 dimensions); the operating system keeps the file in its page cache, which
 * is not the serving process's memory, where a mapped file's touched pages are (the f16 graph's
 * 630 MB at 1M snippets were most of the serving RSS).
 */
import fs from 'node:fs';
import { createError } from '../../lib/errors';
import { writeAll, writeAtomicWith } from '../files';

export const F16_SUFFIX = '.f16';

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** IEEE half-precision bits of a finite number, rounded to nearest (ties to even). */
export function toF16(value: number): number {
  f32[0] = value;
  const x = u32[0]!;
  const sign = (x >>> 16) & 0x8000;
  const abs = Math.abs(f32[0]!);
  if (abs >= 65520) return sign | 0x7c00;
  // Below the smallest normal half (2^-14): a multiple of 2^-24.
  if (abs < 6.103515625e-5) return sign | Math.round(abs * 16777216);
  const exp = ((x >>> 23) & 0xff) - 112;
  const mant = x & 0x7fffff;
  const half = sign | (exp << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  // A carry out of the mantissa moves into the exponent, which is the right rounding too.
  return rest > 0x1000 || (rest === 0x1000 && half & 1) ? half + 1 : half;
}

/**
 * Every half-precision value as a float, indexed by its bits. Self-contained (no outside names): the
 * search thread builds its own table from this function's source (usearch-thread.ts).
 */
export function f16Table(): Float32Array {
  const out = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const exp = (h >>> 10) & 0x1f;
    const mant = h & 0x3ff;
    const mag = exp === 0 ? mant * 2 ** -24 : exp === 31 ? (mant ? Number.NaN : Infinity) : (1 + mant / 1024) * 2 ** (exp - 15);
    out[h] = h & 0x8000 ? -mag : mag;
  }
  return out;
}

export const F16_VALUES: Float32Array = f16Table();

/**
 * The cosine of `query` with each position's f16 row (`read` gives a row's bits; `values` is
 * f16Table()). Self-contained, as f16Table: the search thread scores with this same source.
 */
export function f16Cosines(
  read: (pos: number) => Uint16Array,
  values: Float32Array,
  query: Float32Array,
  positions: readonly number[],
): number[] {
  const dim = query.length;
  let qq = 0;
  for (let j = 0; j < dim; j++) qq += query[j]! * query[j]!;
  const out = new Array<number>(positions.length);
  for (let i = 0; i < positions.length; i++) {
    const h = read(positions[i]!);
    let dot = 0;
    let xx = 0;
    for (let j = 0; j < dim; j++) {
      const x = values[h[j]!]!;
      dot += query[j]! * x;
      xx += x * x;
    }
    out[i] = qq > 0 && xx > 0 ? dot / Math.sqrt(qq * xx) : 0;
  }
  return out;
}

/** The best k of positions by score (ties: the lower position), as two lists. Self-contained, as f16Table. */
export function bestOf(positions: readonly number[], scores: readonly number[], k: number): { labels: number[]; scores: number[] } {
  const order = positions.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || positions[a]! - positions[b]!);
  const top = order.slice(0, k);
  return { labels: top.map((i) => positions[i]!), scores: top.map((i) => scores[i]!) };
}

/**
 * The newest positions an `i8+f16` index scores exactly beside its graph walk. A new story is often far
 * from everything in the index, and the walk may not reach it from its readers' queries: at 1M a
 * story's snippet, first by exact search for its title and lead (cosine 0.67, the 10th 0.31), was not
 * among the walk's candidates at efSearch 2048 or 4096, though its own vector finds it. Scoring the
 * newest rows exactly makes what the crawler just added findable whatever the graph did with it;
 * 2,048 rows of 256 dimensions cost ~1 ms on the search thread.
 */
export const FRESH_ROWS = 2048;

/** Rows of f16 bits (`dim` values each) as unit float vectors. Self-contained, as f16Table. */
export function unitRows(bits: Uint16Array, values: Float32Array, dim: number): Float32Array {
  const out = new Float32Array(bits.length);
  for (let at = 0; at < bits.length; at += dim) {
    let xx = 0;
    for (let j = 0; j < dim; j++) xx += values[bits[at + j]!]! ** 2;
    const inv = xx > 0 ? 1 / Math.sqrt(xx) : 0;
    for (let j = 0; j < dim; j++) out[at + j] = values[bits[at + j]!]! * inv;
  }
  return out;
}

/**
 * The newest rows (`unit`, position `from` onwards) whose cosine with `query` reaches the k-th best of
 * the walk's `walkScores` (all of them when the walk has fewer than k): only those can enter the top k.
 * Self-contained, as f16Table.
 */
export function freshBest(
  query: Float32Array,
  unit: Float32Array,
  from: number,
  walkScores: readonly number[],
  k: number,
): { labels: number[]; scores: number[] } {
  const dim = query.length;
  let qq = 0;
  for (let j = 0; j < dim; j++) qq += query[j]! * query[j]!;
  const inv = qq > 0 ? 1 / Math.sqrt(qq) : 0;
  const floor = walkScores.length >= k ? [...walkScores].sort((a, b) => b - a)[k - 1]! : -Infinity;
  const labels: number[] = [];
  const scores: number[] = [];
  // Four sums at a time, the rest after: ~1.4× the plain loop (0.9 against 1.2–1.8 ms for 2,048 × 256).
  const end4 = dim - (dim % 4);
  for (let at = 0, pos = from; at < unit.length; at += dim, pos++) {
    let d0 = 0;
    let d1 = 0;
    let d2 = 0;
    let d3 = 0;
    let j = 0;
    for (; j < end4; j += 4) {
      d0 += query[j]! * unit[at + j]!;
      d1 += query[j + 1]! * unit[at + j + 1]!;
      d2 += query[j + 2]! * unit[at + j + 2]!;
      d3 += query[j + 3]! * unit[at + j + 3]!;
    }
    for (; j < dim; j++) d0 += query[j]! * unit[at + j]!;
    const cos = (d0 + d1 + (d2 + d3)) * inv;
    if (cos >= floor) {
      labels.push(pos);
      scores.push(cos);
    }
  }
  return { labels, scores };
}

/** Rows kept in memory are grouped in blocks of this many (no reallocation of one growing array). */
const BLOCK_ROWS = 16_384;

/**
 * f16 rows by position: positions below `fileRows` are read from the file, later ones from memory.
 * `write` puts all of them in a new file (atomically) and from then on reads the first ones from it.
 */
export class F16Rows {
  private fd: number | null = null;
  private fileRows = 0;
  private freshCache: { size: number; from: number; unit: Float32Array } | null = null;
  private readonly blocks: Uint16Array[] = [];
  private memRows = 0;
  /** The buffer a row read from the file lands in, and the same bytes as f16 values. */
  private readonly row: Buffer;
  private readonly rowBits: Uint16Array;

  constructor(
    readonly dim: number,
    private file: string | null = null,
  ) {
    this.row = Buffer.alloc(dim * 2);
    this.rowBits = new Uint16Array(this.row.buffer, this.row.byteOffset, dim);
    if (file) this.openFile(file);
  }

  /** Opens `file` for `rows` rows (checked against its size when given). */
  static open(file: string, dim: number, rows?: number): F16Rows {
    const r = new F16Rows(dim, file);
    if (rows !== undefined && r.fileRows !== rows)
      throw createError('INDEX_CORRUPT', `${file} holds ${r.fileRows} vectors, its graph ${rows}; run \`quin index\` to rebuild it`);
    return r;
  }

  private openFile(file: string): void {
    let fd: number;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      throw createError('INDEX_CORRUPT', `${file} (the vectors the dense index scores its candidates with) is missing; run \`quin index\``);
    }
    const size = fs.fstatSync(fd).size;
    if (size % (this.dim * 2) !== 0) {
      fs.closeSync(fd);
      throw createError('INDEX_CORRUPT', `${file} is ${size} bytes, not whole rows of ${this.dim} f16 values; run \`quin index\``);
    }
    this.fd = fd;
    this.file = file;
    this.fileRows = size / (this.dim * 2);
  }

  get size(): number {
    return this.fileRows + this.memRows;
  }

  /** The newest FRESH_ROWS positions as unit float vectors (for `freshBest`), kept until rows are added. */
  fresh(): { from: number; unit: Float32Array } {
    if (this.freshCache?.size !== this.size) {
      const from = Math.max(0, this.size - FRESH_ROWS);
      const bits = new Uint16Array((this.size - from) * this.dim);
      for (let p = from; p < this.size; p++) bits.set(this.bits(p), (p - from) * this.dim);
      this.freshCache = { size: this.size, from, unit: unitRows(bits, F16_VALUES, this.dim) };
    }
    return this.freshCache;
  }

  /** Appends rows (already checked finite and of the right dimension). */
  add(vectors: readonly Float32Array[]): void {
    for (const v of vectors) {
      const at = this.memRows % BLOCK_ROWS;
      if (at === 0) this.blocks.push(new Uint16Array(BLOCK_ROWS * this.dim));
      const block = this.blocks[this.blocks.length - 1]!;
      for (let j = 0; j < this.dim; j++) block[at * this.dim + j] = toF16(v[j]!);
      this.memRows++;
    }
  }

  /** Row `pos` as f16 bits (a view valid until the next call). */
  private bits(pos: number): Uint16Array {
    if (pos < this.fileRows) {
      const len = this.dim * 2;
      if (fs.readSync(this.fd!, this.row, 0, len, pos * len) !== len) throw createError('INDEX_CORRUPT', `${this.file} was cut short`);
      return this.rowBits;
    }
    const m = pos - this.fileRows;
    const block = this.blocks[Math.floor(m / BLOCK_ROWS)]!;
    const at = (m % BLOCK_ROWS) * this.dim;
    return block.subarray(at, at + this.dim);
  }

  /** The cosine of `query` with each position's row. */
  cosines(query: Float32Array, positions: readonly number[]): number[] {
    return f16Cosines((pos) => this.bits(pos), F16_VALUES, query, positions);
  }

  /** Writes every row to `file` atomically; the rows are read from it from then on. */
  write(file: string): void {
    const rowBytes = this.dim * 2;
    writeAtomicWith(file, (tmp) => {
      if (this.file && this.fileRows) fs.copyFileSync(this.file, tmp);
      else fs.writeFileSync(tmp, '');
      const fd = fs.openSync(tmp, 'a');
      try {
        this.blocks.forEach((block, i) => {
          const rows = Math.min(BLOCK_ROWS, this.memRows - i * BLOCK_ROWS);
          writeAll(fd, new Uint8Array(block.buffer, block.byteOffset, rows * rowBytes));
        });
      } finally {
        fs.closeSync(fd);
      }
    });
    this.close();
    this.blocks.length = 0;
    this.memRows = 0;
    this.openFile(file);
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }
}

/**
 * A vector as int8 codes scaled to its own largest component (±127), rounded. The cosine metric does
 * not see the scale, and a per-vector range keeps ~25 levels for a typical component of our 256-d unit
 * vectors, where USearch's own cast (the unit vector times 127, truncated) keeps ~8.
 */
export function int8Codes(vectors: readonly Float32Array[], dim: number): Int8Array {
  const out = new Int8Array(vectors.length * dim);
  vectors.forEach((v, i) => {
    let max = 0;
    for (let j = 0; j < dim; j++) max = Math.max(max, Math.abs(v[j]!));
    const scale = max > 0 ? 127 / max : 0;
    for (let j = 0; j < dim; j++) out[i * dim + j] = Math.round(v[j]! * scale);
  });
  return out;
}
