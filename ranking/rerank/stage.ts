/**
 * The reranking stage: a cross-encoder (any Hugging Face ONNX cross-encoder, or our own
 * quin-reranker) reads the query with each of the top `depth` fused candidates; its score is mixed
 * with the fused score (combine.ts). The pipeline applies the time decay afterwards.
 */
import type { CrossEncoder } from '../../lib/models';
import type { RerankCandidate, RerankScore, RerankStage, StageContext } from '../stages';
import { asRelevance, combineScores } from './combine';
import { comboScores, type ComboWeights } from './combo';
import { candidateFeatures } from './features';

/** What the model reads of a candidate: the title and the snippet (as in training/prepare.ts). */
export function passageText(c: Pick<RerankCandidate, 'title' | 'text'>): string {
  const title = c.title.trim();
  return title ? `${title}. ${c.text}` : c.text;
}

export interface RerankSettings {
  depth: number;
  /** Weight of the model's score against the fused score, in [0, 1] (the plain mix, without combo). */
  weight: number;
  /**
   * The feature-combination layer fitted for this model (its folder's combo.json, combo.ts); when
   * set it replaces the plain mix. Null or absent: the plain mix.
   */
  combo?: ComboWeights | null;
}

export class CrossEncoderRerankStage implements RerankStage {
  readonly depth: number;
  readonly weight: number;
  readonly combo: ComboWeights | null;

  constructor(
    private readonly model: Pick<CrossEncoder, 'id' | 'score'>,
    settings: RerankSettings,
  ) {
    if (!Number.isInteger(settings.depth) || settings.depth < 1)
      throw new RangeError(`rerank depth ${settings.depth} must be a positive integer`);
    if (!(settings.weight >= 0 && settings.weight <= 1)) throw new RangeError(`rerank weight ${settings.weight} outside [0, 1]`);
    this.depth = settings.depth;
    this.weight = settings.weight;
    this.combo = settings.combo ?? null;
  }

  get id(): string {
    return this.model.id;
  }

  /** The same model with other settings (evaluation and benchmarks vary depth and weight). */
  with(settings: Partial<RerankSettings>): CrossEncoderRerankStage {
    return new CrossEncoderRerankStage(this.model, { depth: this.depth, weight: this.weight, combo: this.combo, ...settings });
  }

  async rerank(candidates: RerankCandidate[], ctx: StageContext): Promise<RerankScore[]> {
    if (!candidates.length) return [];
    const scores = await this.model.score(ctx.query.text, candidates.map(passageText));
    const relevance = this.combo
      ? comboScores(
          scores,
          await candidateFeatures(candidates, ctx),
          candidates.map((c) => c.articleId),
          this.combo,
        )
      : combineScores(
          scores,
          candidates.map((c) => c.fused),
          this.weight,
        );
    return scores.map((s, i) => ({ rerank: s, relevance: asRelevance(relevance[i]!) }));
  }
}
