/**
 * The reranking stage: a cross-encoder (our quin-reranker, or any Hugging Face ONNX cross-encoder)
 * reads the query with each of the top `depth` fused candidates — the window, or its best sentences
 * (passage.ts) — and its score is mixed with the fused score (combine.ts). The candidates below the
 * depth keep their fused order below the reranked ones (the pipeline's tiers); the pipeline applies
 * the time decay afterwards.
 */
import type { CrossEncoder } from '../../lib/models';
import type { RerankCandidate, RerankScore, RerankStage, StageContext } from '../stages';
import { asRelevance, combineScores } from './combine';
import { passages, type PassageInput } from './passage';

export interface RerankSettings {
  /** Top fused candidates the model reads. */
  depth: number;
  /** Weight of the model's score against the fused score, in [0, 1]. */
  weight: number;
  /** What the model reads of a candidate (passage.ts); default: the window. */
  input?: PassageInput;
  /** Character budget of the `best` input's sentences. */
  chars?: number;
}

/** The `best` input's budget when none is given (about 80 word pieces of sentences). */
export const DEFAULT_BEST_CHARS = 320;

export class CrossEncoderRerankStage implements RerankStage {
  readonly depth: number;
  readonly weight: number;
  readonly input: PassageInput;
  readonly chars: number;

  constructor(
    private readonly model: Pick<CrossEncoder, 'id' | 'score'>,
    settings: RerankSettings,
  ) {
    if (!Number.isInteger(settings.depth) || settings.depth < 1)
      throw new RangeError(`rerank depth ${settings.depth} must be a positive integer`);
    if (!(settings.weight >= 0 && settings.weight <= 1)) throw new RangeError(`rerank weight ${settings.weight} outside [0, 1]`);
    const chars = settings.chars ?? DEFAULT_BEST_CHARS;
    if (!Number.isInteger(chars) || chars < 1) throw new RangeError(`rerank chars ${chars} must be a positive integer`);
    this.depth = settings.depth;
    this.weight = settings.weight;
    this.input = settings.input ?? 'window';
    this.chars = chars;
  }

  get id(): string {
    return this.model.id;
  }

  get settings(): Required<RerankSettings> {
    return { depth: this.depth, weight: this.weight, input: this.input, chars: this.chars };
  }

  /** The same model with other settings (evaluation and benchmarks vary depth and weight). */
  with(settings: Partial<RerankSettings>): CrossEncoderRerankStage {
    return new CrossEncoderRerankStage(this.model, { ...this.settings, ...settings });
  }

  async rerank(candidates: RerankCandidate[], ctx: StageContext): Promise<RerankScore[]> {
    if (!candidates.length) return [];
    const texts = await passages(candidates, ctx, this.input, this.chars);
    const scores = await this.model.score(ctx.query.text, texts);
    const relevance = combineScores(
      scores,
      candidates.map((c) => c.fused),
      this.weight,
    );
    return scores.map((s, i) => ({ rerank: s, relevance: asRelevance(relevance[i]!) }));
  }
}
