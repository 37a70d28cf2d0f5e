/**
 * Sentence encoder over a sentence-transformers ONNX export: token embeddings pooled as the folder's
 * 1_Pooling/config.json says (mean when it says nothing), then L2-normalised. Exports that already
 * output `sentence_embedding` are used as they are (normalised again, which is harmless).
 */
import { createError } from '../errors';
import { floatOutput } from './ort-session';
import { normalize, poolAndNormalize } from './pooling';
import { TextModel, type TextModelOptions } from './text-model';

const TOKEN_OUTPUTS = ['last_hidden_state', 'token_embeddings'];

export class SentenceEncoder {
  private constructor(
    readonly model: TextModel,
    readonly dim: number,
  ) {}

  get id(): string {
    return this.model.id;
  }

  static async load(dir: string, opts: TextModelOptions = {}): Promise<SentenceEncoder> {
    const model = await TextModel.load(dir, opts);
    const names = model.outputNames;
    if (!names.includes('sentence_embedding') && !TOKEN_OUTPUTS.some((n) => names.includes(n))) {
      await model.close();
      throw createError('MODEL_INVALID', `${dir}: an encoder needs an output named sentence_embedding, last_hidden_state or token_embeddings (has ${names.join(', ')})`);
    }
    const probe = await SentenceEncoder.embedWith(model, ['dimension probe']);
    return new SentenceEncoder(model, probe[0]!.length);
  }

  private static embedWith(model: TextModel, texts: string[]): Promise<Float32Array[]> {
    const pooling = model.folder.pooling ?? 'mean';
    return model.map(texts, (out, enc) => {
      if (out.sentence_embedding) {
        const { data, dims } = floatOutput(out, 'sentence_embedding');
        const dim = dims[1]!;
        return Array.from({ length: enc.batch }, (_, b) => normalize(data.slice(b * dim, (b + 1) * dim)));
      }
      const name = TOKEN_OUTPUTS.find((n) => out[n])!;
      const { data, dims } = floatOutput(out, name);
      return poolAndNormalize(data, enc.attentionMask, enc.batch, enc.seqLen, dims[2]!, pooling);
    });
  }

  /** L2-normalised embeddings, one per text, in input order. */
  embed(texts: string[]): Promise<Float32Array[]> {
    return texts.length ? SentenceEncoder.embedWith(this.model, texts) : Promise.resolve([]);
  }

  close(): Promise<void> {
    return this.model.close();
  }
}
