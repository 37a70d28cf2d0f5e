/**
 * One story, once (pure): near-duplicate passages — the same text under two URLs, a story
 * re-published with a new headline ("Slim PlayStation triples sales" / "Slimmer PlayStation triple
 * sales") — are found among a query's matches and collapsed into the best-ranked one, which lists the
 * others as its other sources.
 *
 * Two passages are the same story when the Jaccard similarity of their word 3-shingles reaches
 * SAME_STORY_JACCARD (identical windows score 1; a window shifted by one sentence of five about 0.6).
 * Candidate pairs come from MinHash locality-sensitive hashing (16 hashes in 8 bands of 2: a pair at
 * 0.5 is found with probability 0.9, at 0.7 with 0.995), then the exact Jaccard decides, so the
 * work grows with the number of matches, not its square.
 */
export const SAME_STORY_JACCARD = 0.5;
const SHINGLE = 3;
const HASHES = 16;
const ROWS = 2;

/**
 * A passage's words for comparing stories, as 32-bit hashes: lower-cased, split at white space, hashed
 * on the fly (no substring per word: this runs over every match of a search).
 */
export function wordHashes(text: string): number[] {
  const out: number[] = [];
  let h = 0x811c9dc5;
  let inWord = false;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    if (c === 32 || c === 10 || c === 9 || c === 13 || c === 160) {
      if (inWord) out.push(h >>> 0);
      h = 0x811c9dc5;
      inWord = false;
      continue;
    }
    // ASCII upper case folded inline; other letters through toLowerCase (rare in the hot path).
    const lower = c >= 65 && c <= 90 ? c + 32 : c < 128 ? c : text[i]!.toLowerCase().charCodeAt(0);
    h = Math.imul(h ^ lower, 0x01000193);
    inWord = true;
  }
  return out;
}

/** Hashed word n-shingles of a text's word hashes (a text shorter than n words is one shingle). */
export function shingles(words: readonly number[], n = SHINGLE): Set<number> {
  const out = new Set<number>();
  const width = Math.min(n, words.length);
  for (let i = 0; i + width <= words.length && width > 0; i++) {
    let x = 0x9e3779b9;
    for (let j = 0; j < width; j++) x = Math.imul(x ^ words[i + j]!, 0x85ebca6b) >>> 0;
    out.add(x);
  }
  return out;
}

export function jaccard(a: ReadonlySet<number>, b: ReadonlySet<number>): number {
  if (!a.size && !b.size) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let inter = 0;
  for (const x of small) if (large.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}

/** FNV-1a, 32 bits. */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

// Fixed odd multipliers and offsets: the same signature in every process (deterministic results).
const A = Array.from({ length: HASHES }, (_, i) => (hash32(`a${i}`) | 1) >>> 0);
const B = Array.from({ length: HASHES }, (_, i) => hash32(`b${i}`));

function signature(set: ReadonlySet<number>): number[] {
  const sig = new Array<number>(HASHES).fill(0xffffffff);
  for (const x of set) {
    for (let i = 0; i < HASHES; i++) {
      const h = (Math.imul(A[i]!, x) + B[i]!) >>> 0;
      if (h < sig[i]!) sig[i] = h;
    }
  }
  return sig;
}

/**
 * For items (word hashes, wordHashes) in rank order, the index of the earlier item each one duplicates (−1: it leads its own
 * story). An item joins the first earlier leader it reaches the threshold with.
 */
export function sameStory(items: readonly (readonly number[])[], threshold = SAME_STORY_JACCARD): number[] {
  const sets = items.map((w) => shingles(w));
  const buckets = new Map<string, number[]>();
  return sets.map((set, i) => {
    if (!set.size) return -1;
    const sig = signature(set);
    const keys: string[] = [];
    for (let b = 0; b < HASHES / ROWS; b++) keys.push(`${b}:${sig.slice(b * ROWS, b * ROWS + ROWS).join(',')}`);
    const near = [...new Set(keys.flatMap((key) => buckets.get(key) ?? []))].sort((a, b) => a - b);
    for (const j of near) if (jaccard(set, sets[j]!) >= threshold) return j;
    for (const key of keys) (buckets.get(key) ?? buckets.set(key, []).get(key)!).push(i);
    return -1;
  });
}
