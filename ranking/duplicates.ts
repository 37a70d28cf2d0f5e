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

/** FNV-1a, 32 bits. */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Hashed word n-shingles (a text shorter than n words is one shingle). */
export function shingles(words: readonly string[], n = SHINGLE): Set<number> {
  const out = new Set<number>();
  if (words.length <= n) {
    if (words.length) out.add(hash32(words.join(' ')));
    return out;
  }
  for (let i = 0; i + n <= words.length; i++) out.add(hash32(words.slice(i, i + n).join(' ')));
  return out;
}

export function jaccard(a: ReadonlySet<number>, b: ReadonlySet<number>): number {
  if (!a.size && !b.size) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let inter = 0;
  for (const x of small) if (large.has(x)) inter++;
  return inter / (a.size + b.size - inter);
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
 * For items in rank order, the index of the earlier item each one duplicates (−1: it leads its own
 * story). An item joins the first earlier leader it reaches the threshold with.
 */
export function sameStory(items: readonly (readonly string[])[], threshold = SAME_STORY_JACCARD): number[] {
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
