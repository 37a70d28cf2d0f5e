/**
 * A loaded text model: folder + tokenizer + onnxruntime session, with batched inference over single
 * texts or text pairs. The role classes (encoder, cross-encoder, NLI) are thin readers of its outputs.
 */
import { readModelFolder, type ModelFolder } from './folder';
import { feedsFor, openSession, type PlainOutputs, type RuntimeOptions, type ThreadSession } from './ort-session';
import { TextTokenizer, type EncodedBatch } from './tokenizer';

export interface TextModelOptions extends Partial<RuntimeOptions> {
  /** Rows per onnxruntime call. */
  batchSize?: number;
  /** Cap on tokens per input (the folder's own limit applies too). */
  maxLength?: number;
}

export type TextInput = string | [string, string];

export class TextModel {
  readonly id: string;

  private constructor(
    readonly folder: ModelFolder,
    readonly tokenizer: TextTokenizer,
    readonly session: ThreadSession,
    readonly batchSize: number,
    readonly maxLength: number,
  ) {
    this.id = `onnx:${folder.name}@${folder.hash}`;
  }

  static async load(dir: string, opts: TextModelOptions = {}): Promise<TextModel> {
    const folder = readModelFolder(dir);
    const tokenizer = new TextTokenizer(folder.tokenizerJson, folder.tokenizerConfig);
    const session = await openSession(folder.onnxPath, { threads: opts.threads ?? 0, provider: opts.provider ?? 'cpu' });
    const maxLength = Math.min(folder.maxLength, opts.maxLength ?? Number.POSITIVE_INFINITY);
    return new TextModel(folder, tokenizer, session, Math.max(1, opts.batchSize ?? 32), maxLength);
  }

  get outputNames(): readonly string[] {
    return this.session.outputNames;
  }

  /**
   * Runs every input through the model, in batches of similar length in tokens (the least padding),
   * and hands each batch's outputs to `read`, which returns one value per row. Results come back in
   * input order.
   */
  async map<T>(inputs: TextInput[], read: (out: PlainOutputs, enc: EncodedBatch) => T[]): Promise<T[]> {
    const encoded = inputs.map((x) => this.tokenizer.encode(x, this.maxLength));
    const order = inputs.map((_, i) => i).sort((a, b) => encoded[a]!.ids.length - encoded[b]!.ids.length);
    const results = new Array<T>(inputs.length);
    for (let start = 0; start < order.length; start += this.batchSize) {
      const idx = order.slice(start, start + this.batchSize);
      const enc = this.tokenizer.pad(idx.map((i) => encoded[i]!));
      const out = await this.session.run(feedsFor(this.session, enc));
      const values = read(out, enc);
      idx.forEach((i, j) => (results[i] = values[j]!));
    }
    return results;
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}
