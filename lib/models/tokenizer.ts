/**
 * Tokenization through Hugging Face's maintained tokenizers.js (the same normalizers, pre-tokenizers,
 * WordPiece/BPE/Unigram models and post-processors as the Rust library, read from tokenizer.json).
 * What the library does not do for us is batching: truncation to the model's limit (longest-first
 * for pairs, as the Python tokenizers do), padding to the longest row, and int64 tensors.
 */
import { Tokenizer } from '@huggingface/tokenizers';
import { createError } from '../errors';

export interface EncodedBatch {
  batch: number;
  seqLen: number;
  inputIds: BigInt64Array;
  attentionMask: BigInt64Array;
  tokenTypeIds: BigInt64Array;
  /** Per row, its real (unpadded) length. */
  lengths: number[];
}

export interface EncodedRow {
  ids: number[];
  types: number[];
}

interface Processed {
  tokens: string[];
  token_type_ids?: number[];
}
type PostProcess = (a: string[], b: string[] | null, addSpecial: boolean) => Processed;

export class TextTokenizer {
  private readonly tok: Tokenizer;
  private readonly vocab: Map<string, number>;
  private readonly unkId: number;
  private readonly padId: number;
  private readonly post: PostProcess | null;
  private readonly specialsSingle: number;
  private readonly specialsPair: number;

  constructor(tokenizerJson: Record<string, unknown>, tokenizerConfig: Record<string, unknown>) {
    try {
      this.tok = new Tokenizer(tokenizerJson, tokenizerConfig);
    } catch (e) {
      throw createError('MODEL_INVALID', `tokenizer.json could not be loaded: ${(e as Error).message}`);
    }
    this.vocab = this.tok.get_vocab(true);
    const model = (tokenizerJson.model ?? {}) as Record<string, unknown>;
    const unk = typeof model.unk_token === 'string' ? model.unk_token : typeof tokenizerConfig.unk_token === 'string' ? tokenizerConfig.unk_token : '[UNK]';
    this.unkId = this.vocab.get(unk) ?? 0;
    const padding = (tokenizerJson.padding ?? {}) as Record<string, unknown>;
    const padToken = typeof tokenizerConfig.pad_token === 'string' ? tokenizerConfig.pad_token : undefined;
    this.padId = typeof padding.pad_id === 'number' ? padding.pad_id : ((padToken === undefined ? undefined : this.vocab.get(padToken)) ?? 0);
    const pp = this.tok.post_processor;
    this.post = pp ? (a, b, s) => (pp as unknown as { post_process: PostProcess }).post_process(a, b, s) : null;
    this.specialsSingle = this.processed(['x'], null).tokens.length - 1;
    this.specialsPair = this.processed(['x'], ['y']).tokens.length - 2;
  }

  /** Word pieces without special tokens. */
  tokenize(text: string): string[] {
    return this.tok.tokenize(text, { add_special_tokens: false });
  }

  idOf(token: string): number {
    return this.vocab.get(token) ?? this.unkId;
  }

  private processed(a: string[], b: string[] | null): Processed {
    if (this.post) return this.post(a, b, true);
    return { tokens: b ? [...a, ...b] : a, token_type_ids: b ? [...a.map(() => 0), ...b.map(() => 1)] : a.map(() => 0) };
  }

  // The last first text's word pieces: a reranker or NLI call pairs one claim with every passage.
  private lastA: { text: string; pieces: string[] } | null = null;

  private firstPieces(a: string): string[] {
    if (this.lastA?.text !== a) this.lastA = { text: a, pieces: this.tokenize(a) };
    return this.lastA.pieces;
  }

  /** Token ids and type ids of one input, truncated to maxLength with its special tokens. */
  encodeOne(a: string, b: string | undefined, maxLength: number): EncodedRow {
    let ta = this.firstPieces(a);
    let tb = b === undefined ? null : this.tokenize(b);
    const budget = maxLength - (tb ? this.specialsPair : this.specialsSingle);
    if (budget < 1) throw createError('MODEL_INVALID', `maxLength ${maxLength} leaves no room for text`);
    if (!tb) ta = ta.slice(0, budget);
    else [ta, tb] = truncateLongestFirst(ta, tb, budget);
    const out = this.processed(ta, tb);
    return { ids: out.tokens.map((t) => this.idOf(t)), types: out.token_type_ids ?? out.tokens.map(() => 0) };
  }

  /** A padded batch of single texts or (a, b) pairs. */
  encodeBatch(inputs: (string | [string, string])[], maxLength: number): EncodedBatch {
    return this.pad(inputs.map((x) => this.encode(x, maxLength)));
  }

  /** One single text or (a, b) pair, as encodeOne reads it. */
  encode(input: string | [string, string], maxLength: number): EncodedRow {
    return typeof input === 'string' ? this.encodeOne(input, undefined, maxLength) : this.encodeOne(input[0], input[1], maxLength);
  }

  /** Encoded rows as one batch, padded to the longest. */
  pad(rows: EncodedRow[]): EncodedBatch {
    const seqLen = Math.max(1, ...rows.map((r) => r.ids.length));
    const n = rows.length;
    const inputIds = new BigInt64Array(n * seqLen).fill(BigInt(this.padId));
    const attentionMask = new BigInt64Array(n * seqLen);
    const tokenTypeIds = new BigInt64Array(n * seqLen);
    rows.forEach((r, i) => {
      for (let j = 0; j < r.ids.length; j++) {
        inputIds[i * seqLen + j] = BigInt(r.ids[j]!);
        attentionMask[i * seqLen + j] = 1n;
        tokenTypeIds[i * seqLen + j] = BigInt(r.types[j]!);
      }
    });
    return { batch: n, seqLen, inputIds, attentionMask, tokenTypeIds, lengths: rows.map((r) => r.ids.length) };
  }
}

/** Drop tokens from the end of the longer sequence until both fit (Hugging Face's "longest_first"). */
export function truncateLongestFirst<T>(a: T[], b: T[], budget: number): [T[], T[]] {
  let la = a.length;
  let lb = b.length;
  while (la + lb > budget) {
    if (la > lb) la--;
    else lb--;
  }
  return [a.slice(0, la), b.slice(0, lb)];
}
