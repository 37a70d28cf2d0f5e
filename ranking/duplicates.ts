/**
 * One story, once (pure): near-duplicate passages — the same text under two URLs, a story
 * re-published with a new headline ("Slim PlayStation triples sales" / "Slimmer PlayStation triple
 * sales") — are found among a query's matches and collapsed into the best-ranked one, which lists the
 * others as its other sources.
 *
 * Two passages are the same story when the Jaccard similarity of their word 3-shingles reaches
 * SAME_STORY_JACCARD (identical windows score 1; a window shifted by one sentence of five about 0.6).
 * Candidate pairs come from MinHash locality-sensitive hashing (16 one-permutation bins in 8 bands of 2: a pair at
 * 0.5 is found with probability 0.9, at 0.7 with 0.995), then the exact Jaccard decides, so the
 * work grows with the number of matches, not its square.
 */
export const SAME_STORY_JACCARD = 0.5;
const SHINGLE = 3;
const HASHES = 16;
const ROWS = 2;
const BIN_SHIFT = 32 - Math.log2(HASHES);

/**
 * A passage's words for comparing stories, as 32-bit hashes: lower-cased, split at white space, hashed
 * on the fly (no substring per word: this runs over every match of a search).
 */
export function wordHashes(text: string): number[] {
  const out: number[] = [];
  let h = 0x811c9dc5;
  let inWord = false;
  for (let i = 0; i <= text.length; i++) {
    const f = i < text.length ? foldedAt(text, i) : SPACE;
    if (f === SPACE) {
      if (inWord) out.push(h >>> 0);
      h = 0x811c9dc5;
      inWord = false;
      continue;
    }
    h = Math.imul(h ^ f, 0x01000193);
    inWord = true;
  }
  return out;
}

/** What foldedAt gives for the white space between words (space, tab, line breaks, no-break space). */
const SPACE = -1;

/** ASCII codes as the shingles read them: A–Z lower-cased, SPACE for white space (a table: one load a character, not six comparisons). */
const ASCII_FOLD = (() => {
  const table = new Int32Array(128);
  for (let c = 0; c < 128; c++) table[c] = c >= 65 && c <= 90 ? c + 32 : c;
  for (const c of [32, 10, 9, 13]) table[c] = SPACE;
  return table;
})();

/** The character at text[i] as the shingles read it: lower-cased, or SPACE; other letters than ASCII through toLowerCase (rare in the hot path). */
function foldedAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return c < 128 ? ASCII_FOLD[c]! : c === 160 ? SPACE : text[i]!.toLowerCase().charCodeAt(0);
}

/** A shingle's hash: SHINGLE_SEED mixed with each of its words' hashes in turn (`shingles` and `shingledText` alike). */
const SHINGLE_SEED = 0x9e3779b9;
const mixShingle = (x: number, word: number) => Math.imul(x ^ word, 0x85ebca6b) >>> 0;

/**
 * Hashed word n-shingles of a text's word hashes (a text shorter than n words is one shingle), sorted
 * and unique: a typed array rather than a Set, as ~1,000 of them are made per search.
 */
export function shingles(words: readonly number[], n = SHINGLE): Uint32Array {
  const width = Math.min(n, words.length);
  if (width === 0) return new Uint32Array(0);
  const out = new Uint32Array(words.length - width + 1);
  for (let i = 0; i < out.length; i++) {
    let x = SHINGLE_SEED;
    for (let j = 0; j < width; j++) x = mixShingle(x, words[i + j]!);
    out[i] = x;
  }
  return sortedUnique(out);
}

function sortedUnique(out: Uint32Array): Uint32Array {
  out.sort();
  let kept = 0;
  for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[i - 1]) out[kept++] = out[i]!;
  return out.subarray(0, kept);
}

/** Jaccard similarity of two sorted, unique shingle arrays (a merge, no hashing). */
export function jaccard(a: Uint32Array, b: Uint32Array): number {
  if (!a.length && !b.length) return 0;
  let inter = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) {
      inter++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return inter / (a.length + b.length - inter);
}

/**
 * One-permutation MinHash: each shingle hash falls in one of HASHES bins by its top bits, and a bin's
 * signature is its smallest hash — one pass over the shingles instead of one per hash function (the
 * 16 multiply-and-min passes were half of the stage's time). Two passages' bins agree with probability
 * their Jaccard similarity, as independent hashes do; an empty bin is 0xffffffff on both sides.
 */
function signature(hashes: Uint32Array): Uint32Array {
  const sig = new Uint32Array(HASHES).fill(0xffffffff);
  for (let k = 0; k < hashes.length; k++) {
    const x = hashes[k]!;
    const bin = x >>> BIN_SHIFT;
    if (x < sig[bin]!) sig[bin] = x;
  }
  return sig;
}

/** A passage prepared for sameStoryOf: its shingles and its LSH band keys (empty for an empty text). */
export interface Shingled {
  /** The shingle hashes, sorted and unique. */
  readonly set: Uint32Array;
  /** One number per band: the band's index and its rows mixed into a safe integer (a collision only adds a pair the exact Jaccard then rejects). */
  readonly keys: readonly number[];
}

/**
 * The sorted set is made on first use: only a passage in a candidate pair is compared exactly, and
 * sorting every match's shingles was about a fifth of the rank stage. The keys need no sort (a bin's
 * smallest hash is the same in the raw hashes, repeats and all).
 */
class LazyShingles implements Shingled {
  private sorted: Uint32Array | null = null;
  constructor(
    private readonly raw: Uint32Array,
    readonly keys: readonly number[],
  ) {}

  get set(): Uint32Array {
    return (this.sorted ??= sortedUnique(this.raw));
  }
}

const BAND_SPACE = 2 ** 32;

export function shingled(words: readonly number[]): Shingled {
  return withKeys(shingles(words));
}

/** Room for a passage's shingle hashes before they are sorted (grown, never shrunk; a search is synchronous). */
let scratch = new Uint32Array(1024);

/**
 * `shingled(wordHashes(text))` in one pass over the text: each word's hash goes straight into the
 * shingle that ends with it, with no array of word hashes between (the rank stage shingles every
 * match of a search, ~500, and the two passes were most of its time).
 */
export function shingledText(text: string): Shingled {
  if (scratch.length < text.length) scratch = new Uint32Array(2 * text.length);
  let n = 0;
  let words = 0;
  let w0 = 0;
  let w1 = 0;
  let h = 0x811c9dc5;
  let inWord = false;
  for (let i = 0; i <= text.length; i++) {
    const f = i < text.length ? foldedAt(text, i) : SPACE;
    if (f === SPACE) {
      if (inWord) {
        const w = h >>> 0;
        // The hash `shingles` gives the three words ending here (SHINGLE is 3).
        if (++words >= SHINGLE) {
          scratch[n++] = mixShingle(mixShingle(mixShingle(SHINGLE_SEED, w0), w1), w);
        }
        w0 = w1;
        w1 = w;
      }
      h = 0x811c9dc5;
      inWord = false;
      continue;
    }
    h = Math.imul(h ^ f, 0x01000193);
    inWord = true;
  }
  // Fewer words than a shingle: the text is one shorter shingle.
  if (words < SHINGLE) return shingled(wordHashes(text));
  return withKeys(scratch.slice(0, n));
}

/** `hashes`: the passage's shingle hashes in any order, repeats allowed; the Shingled owns the array. */
function withKeys(hashes: Uint32Array): Shingled {
  if (!hashes.length) return new LazyShingles(hashes, []);
  const sig = signature(hashes);
  // Numbers, not strings: joining typed arrays into 8 string keys a passage was half the stage.
  const keys: number[] = [];
  for (let b = 0; b < HASHES / ROWS; b++) {
    let h = 0x811c9dc5;
    for (let r = 0; r < ROWS; r++) h = Math.imul(h ^ sig[b * ROWS + r]!, 0x01000193);
    keys.push(b * BAND_SPACE + (h >>> 0));
  }
  return new LazyShingles(hashes, keys);
}

/**
 * For items (word hashes, wordHashes) in rank order, the index of the earlier item each one duplicates (−1: it leads its own
 * story). An item joins the first earlier leader it reaches the threshold with.
 */
export function sameStory(items: readonly (readonly number[])[], threshold = SAME_STORY_JACCARD): number[] {
  return sameStoryOf(items.map(shingled), threshold);
}

/** sameStory over passages already prepared (a search prepares each match once for its two runs). */
export function sameStoryOf(items: readonly Shingled[], threshold = SAME_STORY_JACCARD): number[] {
  const buckets = new Map<number, number[]>();
  const near: number[] = [];
  return items.map((item, i) => {
    const { keys } = item;
    if (!keys.length) return -1;
    near.length = 0;
    for (const key of keys) for (const j of buckets.get(key) ?? []) if (!near.includes(j)) near.push(j);
    // The earliest leader first, as a rank-ordered scan would meet them.
    near.sort((a, b) => a - b);
    for (const j of near) if (jaccard(item.set, items[j]!.set) >= threshold) return j;
    for (const key of keys) {
      const bucket = buckets.get(key);
      if (bucket) bucket.push(i);
      else buckets.set(key, [i]);
    }
    return -1;
  });
}
