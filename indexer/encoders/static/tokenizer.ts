/**
 * The static encoder's tokenizer (pure, shared by training and inference): lower-cased letter/digit
 * words; a word in the vocabulary is one token, any other word is cut into word pieces by greedy
 * longest match (a first piece `▁abc`, then continuation pieces `##abc`), the pieces coming from
 * Universal Sentence Encoder Lite's sentencepiece vocabulary. A character no piece covers is skipped.
 */

const WORD = /[\p{L}\p{N}]+/gu;
/** Longest piece tried when a word is cut (USE-lite's pieces are shorter). */
const MAX_PIECE = 16;
/** Longest word looked up whole; longer ones are cut into pieces. */
const MAX_WORD = 40;
/** Bound on the cache of cut words (cleared when full). */
const CUT_CACHE = 50_000;

export const START = '▁';
export const CONT = '##';

/** Lower-cased letter/digit words of a text, in order. */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

export class StaticTokenizer {
  private readonly ids: Map<string, number>;
  private readonly cut = new Map<string, Int32Array>();

  constructor(readonly vocab: readonly string[]) {
    this.ids = new Map(vocab.map((t, i) => [t, i]));
  }

  get size(): number {
    return this.vocab.length;
  }

  id(token: string): number | undefined {
    return this.ids.get(token);
  }

  /** Token ids of a word that is not in the vocabulary: greedy longest-match pieces. */
  pieces(word: string): Int32Array {
    let hit = this.cut.get(word);
    if (hit) return hit;
    const out: number[] = [];
    for (let at = 0; at < word.length;) {
      const prefix = at === 0 ? START : CONT;
      let found = -1;
      let len = Math.min(MAX_PIECE, word.length - at);
      for (; len > 0; len--) {
        const id = this.ids.get(prefix + word.slice(at, at + len));
        if (id !== undefined) {
          found = id;
          break;
        }
      }
      if (found < 0) {
        at += 1; // no piece covers this character
        continue;
      }
      out.push(found);
      at += len;
    }
    hit = Int32Array.from(out);
    if (this.cut.size >= CUT_CACHE) this.cut.clear();
    this.cut.set(word, hit);
    return hit;
  }

  /** Appends the token ids of `text` to `out` (reused across calls); returns how many. */
  encodeInto(text: string, out: number[]): number {
    const before = out.length;
    for (const w of words(text)) {
      const id = w.length <= MAX_WORD ? this.ids.get(w) : undefined;
      if (id !== undefined) out.push(id);
      else for (const p of this.pieces(w)) out.push(p);
    }
    return out.length - before;
  }

  encode(text: string): number[] {
    const out: number[] = [];
    this.encodeInto(text, out);
    return out;
  }
}
