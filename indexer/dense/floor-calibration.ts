/**
 * The relevance floor's dense thresholds belong to the encoder and the corpus: how high a cosine an
 * unrelated query reaches depends on both (USE-lite's nonsense queries reach ~0.45 on news, a static
 * table's word pieces ~0.85). So they are measured at index time and stored with the index
 * (`<dataDir>/indexes/relevance-floor.json`, written atomically beside the FAISS file):
 *
 * - nonsense queries ("qzxv plorbnak wuffle": seeded pseudo-words that share no word with anything)
 *   are embedded by the index's encoder and searched in the index;
 * - `matchMin` (a dense hit counts as a match although it holds few of the query's words) sits above
 *   the best cosine any of them reaches in the corpus, by MARGIN: a cosine that meaningless text
 *   reaches says nothing;
 * - `onlyMin` (no candidate holds any query word: only a very close meaning counts) is
 *   ONLY_SHARE of the way from `matchMin` to 1.
 * For USE-lite on news (nonsense ≤ ~0.45) this gives about the hand-set 0.5 / 0.7 it had before.
 * Word-salad queries (real words drawn from random snippets, no meaning together) are measured
 * too and stored for reference: their best cosines come from the words they share with the
 * passage they were drawn from, which the lexical side of the floor judges.
 *
 * Pure apart from the encoder and the index search passed in.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { mulberry32 } from '../../lib/random';
import { writeFileAtomic } from '../files';

export const FLOOR_FILE = 'relevance-floor.json';
/** Calibration queries of each kind. */
export const CALIBRATION_QUERIES = 200;
/** Above the highest unrelated cosine. */
export const MARGIN = 0.05;
/** onlyMin = matchMin + ONLY_SHARE · (1 − matchMin). */
export const ONLY_SHARE = 0.4;
/** Recalibrate when the index grew or shrank by more than this share since. */
export const RECALIBRATE_GROWTH = 0.2;

const Stats = z.object({ p50: z.number(), p99: z.number(), max: z.number() });

export const DenseFloorSchema = z.object({
  version: z.literal(1),
  encoderId: z.string(),
  pooling: z.string(),
  /** Live vectors when measured. */
  ntotal: z.number().int(),
  matchMin: z.number(),
  onlyMin: z.number(),
  /** Best cosine per query in the index, by kind. */
  nonsense: Stats,
  wordSalad: Stats,
  queries: z.number().int(),
  measuredAt: z.string(),
});
export type DenseFloor = z.infer<typeof DenseFloorSchema>;

/** Thresholds from the best cosines nonsense queries reach (pure). */
export function floorFrom(nonsenseBest: readonly number[]): { matchMin: number; onlyMin: number } {
  const top = Math.max(-1, ...nonsenseBest);
  const matchMin = Math.min(1, round(top + MARGIN));
  return { matchMin, onlyMin: Math.min(1, round(matchMin + ONLY_SHARE * (1 - matchMin))) };
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;

function stats(xs: readonly number[]): z.infer<typeof Stats> {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => (s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))]! : 0);
  return { p50: round(q(0.5)), p99: round(q(0.99)), max: round(s.length ? s[s.length - 1]! : 0) };
}

const CONSONANTS = 'bcdfghjklmnpqrstvwxzbcdfgklmnprst';
const VOWELS = 'aeiouyaeio';

/** Pseudo-words like "plorbnak wuffle qzxv": 1–4 words of 3–9 letters, half pronounceable, half not. */
export function nonsenseQueries(n: number, seed = 18): string[] {
  const r = mulberry32(seed);
  const pick = (s: string) => s[Math.floor(r() * s.length)]!;
  const word = () => {
    const len = 3 + Math.floor(r() * 7);
    const pronounceable = r() < 0.5;
    let w = '';
    for (let i = 0; i < len; i++) w += pronounceable && i % 2 === 1 ? pick(VOWELS) : pick(r() < 0.8 ? CONSONANTS : VOWELS);
    return w;
  };
  return Array.from({ length: n }, () => Array.from({ length: 1 + Math.floor(r() * 4) }, word).join(' '));
}

/** Queries of 3–8 real words, each from another of the given texts (no meaning together). */
export function wordSaladQueries(texts: readonly string[], n: number, seed = 19): string[] {
  const r = mulberry32(seed);
  const words = texts.map((t) => t.match(/[\p{L}][\p{L}\p{N}'-]{2,}/gu) ?? []).filter((w) => w.length > 0);
  if (!words.length) return [];
  return Array.from({ length: n }, () =>
    Array.from({ length: 3 + Math.floor(r() * 6) }, () => {
      const ws = words[Math.floor(r() * words.length)]!;
      return ws[Math.floor(r() * ws.length)]!;
    }).join(' '),
  );
}

export interface CalibrationInput {
  encoderId: string;
  pooling: string;
  ntotal: number;
  embed(texts: string[]): Promise<Float32Array[]>;
  /** The best cosine of a query vector in the index. */
  best(vector: Float32Array): number;
  /** Texts of random snippets of the corpus (for the word salad). */
  sampleTexts: readonly string[];
}

export async function calibrateFloor(input: CalibrationInput): Promise<DenseFloor> {
  const measure = async (queries: string[]) => {
    const out: number[] = [];
    for (let i = 0; i < queries.length; i += 64) {
      const vs = await input.embed(queries.slice(i, i + 64));
      for (const v of vs) if (v.some((x) => x !== 0)) out.push(input.best(v)); // a text with no known token matches nothing
    }
    return out;
  };
  const nonsense = await measure(nonsenseQueries(CALIBRATION_QUERIES));
  const salad = await measure(wordSaladQueries(input.sampleTexts, CALIBRATION_QUERIES));
  return {
    version: 1,
    encoderId: input.encoderId,
    pooling: input.pooling,
    ntotal: input.ntotal,
    ...floorFrom(nonsense),
    nonsense: stats(nonsense),
    wordSalad: stats(salad),
    queries: nonsense.length + salad.length,
    measuredAt: new Date().toISOString(),
  };
}

export function floorFile(indexesDir: string): string {
  return path.join(indexesDir, FLOOR_FILE);
}

/** The stored calibration, or null when absent or unreadable. */
export function readFloor(indexesDir: string): DenseFloor | null {
  try {
    return DenseFloorSchema.parse(JSON.parse(fs.readFileSync(floorFile(indexesDir), 'utf8')));
  } catch {
    return null;
  }
}

export function writeFloor(indexesDir: string, floor: DenseFloor): void {
  writeFileAtomic(floorFile(indexesDir), Buffer.from(JSON.stringify(floor, null, 2) + '\n'));
}

/** Whether a stored calibration still describes this index (same encoder and pooling, about the same size). */
export function floorFits(floor: DenseFloor | null, encoderId: string, pooling: string, ntotal: number): floor is DenseFloor {
  if (!floor || floor.encoderId !== encoderId || floor.pooling !== pooling) return false;
  return Math.abs(ntotal - floor.ntotal) <= RECALIBRATE_GROWTH * Math.max(floor.ntotal, 1);
}
