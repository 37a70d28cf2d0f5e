/**
 * Cross-encoder relevance scorer (query and passage read together), e.g. cross-encoder/ms-marco-*
 * or our own quin-reranker. One score per passage, higher = more relevant: the single logit for
 * one-label models, logit(relevant) − logit(other) for two-label ones (monotone in the probability).
 */
import { createError } from '../errors';
import { floatOutput } from './ort-session';
import { TextModel, type TextModelOptions } from './text-model';

export class CrossEncoder {
  private constructor(readonly model: TextModel) {}

  get id(): string {
    return this.model.id;
  }

  static async load(dir: string, opts: TextModelOptions = {}): Promise<CrossEncoder> {
    const model = await TextModel.load(dir, opts);
    if (!model.outputNames.includes('logits')) {
      await model.close();
      throw createError('MODEL_INVALID', `${dir}: a cross-encoder needs an output named logits (has ${model.outputNames.join(', ')})`);
    }
    return new CrossEncoder(model);
  }

  async score(query: string, passages: string[]): Promise<number[]> {
    if (passages.length === 0) return [];
    return this.model.map(
      passages.map((p) => [query, p] as [string, string]),
      (out, enc) => {
        const { data, dims } = floatOutput(out, 'logits');
        const width = dims.length > 1 ? dims[1]! : 1;
        return Array.from({ length: enc.batch }, (_, b) => (width === 1 ? data[b]! : data[b * width + width - 1]! - data[b * width]!));
      },
    );
  }

  close(): Promise<void> {
    return this.model.close();
  }
}
