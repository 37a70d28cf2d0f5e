/**
 * The verdict stage (claims only): the NLI model reads (evidence sentence, claim) for the best
 * sentences of the top results; aggregate.ts turns the judgements into a verdict with its evidence
 * grouped by stance.
 */
import type { NliClassifier, NliProbs } from '../../lib/models';
import type { StageContext, VerdictStage } from '../stages';
import type { StanceHead } from './stance-head';
import type { SearchResult, StanceEvidence, Verdict } from '../types';
import { aggregate, groupByStance, stanceUnder, type Aggregate, type JudgedSentence, type VerdictThresholds } from './aggregate';

export interface VerdictSettings extends VerdictThresholds {
  /** Top results read. */
  depth: number;
  /** Evidence sentences read per result (its best ones first). */
  sentences: number;
}

/**
 * What judging reads: the claim, and (for the stance head) the claim's vector and the indexes whose
 * sentence vectors and encoder it uses. Without the latter two the NLI model judges alone.
 */
export type JudgeContext = Pick<StageContext, 'query'> & Partial<Pick<StageContext, 'queryVector' | 'indexes'>>;

interface Item {
  result: SearchResult;
  sentence: string;
  relevance: number;
}

/** The sentences the NLI model reads: each result's best evidence sentences, else its text. */
export function evidenceItems(results: readonly SearchResult[], depth: number, perResult: number): Item[] {
  const top = results.slice(0, depth);
  // Relevance before the time decay (recency weighs separately), relative to the best result.
  const pre = top.map((r) => (r.scores.recency > 0 ? r.scores.final / r.scores.recency : r.scores.final));
  const best = Math.max(0, ...pre);
  const seen = new Set<string>();
  const items: Item[] = [];
  top.forEach((r, i) => {
    const sentences = r.evidence.length ? r.evidence.slice(0, perResult).map((e) => e.text) : [r.text];
    for (const s of sentences) {
      const key = s.trim().toLowerCase();
      if (!key || seen.has(key)) continue;
      seen.add(key);
      items.push({ result: r, sentence: s, relevance: best > 0 ? pre[i]! / best : 1 });
    }
  });
  return items;
}

export class NliVerdictStage implements VerdictStage {
  constructor(
    private readonly model: Pick<NliClassifier, 'id' | 'classify'>,
    readonly settings: VerdictSettings,
    private readonly head: Pick<StanceHead, 'accepts' | 'refine'> | null = null,
  ) {}

  get id(): string {
    return this.head ? `${this.model.id}+stance-head` : this.model.id;
  }

  get depth(): number {
    return this.settings.depth;
  }

  /**
   * Probabilities for premises against one claim: the NLI model's, refined by the stance head where
   * the context carries vectors of the encoder the head was trained on.
   */
  async judgePremises(premises: string[], claim: string, ctx: Omit<JudgeContext, 'query'> = {}): Promise<NliProbs[]> {
    const probs = await this.model.classify(premises.map((p) => [p, claim]));
    const { head } = this;
    const { queryVector, indexes } = ctx;
    if (!head || !queryVector || !indexes || !head.accepts(indexes.encoder.id, queryVector.length) || !premises.length) return probs;
    const vectors = await indexes.sentenceVectors.get(premises.map((p) => p.trim()));
    return head.refine(probs, queryVector, vectors);
  }

  /** The NLI judgements of the evidence sentences and their aggregate (verdict() without the shaping). */
  async judge(results: readonly SearchResult[], ctx: JudgeContext, thresholds: VerdictThresholds = this.settings): Promise<{ evidence: StanceEvidence[]; judged: JudgedSentence[]; aggregate: Aggregate }> {
    const items = evidenceItems(results, this.settings.depth, this.settings.sentences);
    const probs = await this.judgePremises(
      items.map((it) => it.sentence),
      ctx.query.claim,
      ctx,
    );
    const judged: JudgedSentence[] = items.map((it, i) => ({ probs: probs[i]!, relevance: it.relevance, recency: it.result.scores.recency }));
    const evidence: StanceEvidence[] = items.map((it, i) => {
      const { stance, confidence } = stanceUnder(probs[i]!, thresholds);
      return {
        snippetId: it.result.snippetId,
        sentence: it.sentence,
        title: it.result.title,
        url: it.result.url,
        source: it.result.source,
        publishedAt: it.result.publishedAt,
        stance,
        confidence: round(confidence),
        weight: round(it.relevance * it.result.scores.recency * confidence),
      };
    });
    return { evidence, judged, aggregate: aggregate(judged, thresholds) };
  }

  async verdict(results: SearchResult[], ctx: StageContext): Promise<Verdict> {
    const { evidence, aggregate: agg } = await this.judge(results, ctx);
    return {
      label: agg.label,
      confidence: agg.confidence,
      evidence: groupByStance(evidence),
      model: this.id,
      ...(agg.reason ? { reason: agg.reason } : {}),
    };
  }
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;
