/**
 * The verdict stage (claims only): the best evidence sentences of the top results are judged one by
 * one (judge.ts: stance + reason), then decided on together (decide.ts: calibrated probability,
 * abstention). The evidence comes back grouped by each sentence's stance, with its reason, so that
 * what the panel counts is what it lists and the sentence that decided a verdict is in its group.
 */
import type { StageContext, VerdictStage } from '../stages';
import type { SearchResult, StanceEvidence, Verdict } from '../types';
import type { Aggregator, DecideSettings, Decision, JudgedItem } from './decide';
import { decide } from './decide';
import type { Judgement, StanceJudge } from './judge';

export interface VerdictSettings extends DecideSettings {
  /** Top results read. */
  depth: number;
  /** Evidence sentences read per result (its best ones first). */
  sentences: number;
}

export interface EvidenceItem {
  result: SearchResult;
  sentence: string;
  rank: number;
  /** Its result's relevance before the time decay, relative to the best result. */
  relevance: number;
}

/** The sentences the stage reads: each result's best evidence sentences (else its text), each once. */
export function evidenceItems(results: readonly SearchResult[], depth: number, perResult: number): EvidenceItem[] {
  const top = results.slice(0, depth);
  const pre = top.map((r) => (r.scores.recency > 0 ? r.scores.final / r.scores.recency : r.scores.final));
  const best = Math.max(0, ...pre);
  const seen = new Set<string>();
  const items: EvidenceItem[] = [];
  top.forEach((r, rank) => {
    const sentences = r.evidence.length ? r.evidence.slice(0, perResult).map((e) => e.text) : [r.text];
    for (const s of sentences) {
      const key = s.trim().toLowerCase();
      if (!key || seen.has(key)) continue;
      seen.add(key);
      items.push({ result: r, sentence: s, rank, relevance: best > 0 ? pre[rank]! / best : 1 });
    }
  });
  return items;
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

export interface Judged {
  items: EvidenceItem[];
  judgements: Judgement[];
  decision: Decision;
}

export class NliVerdictStage implements VerdictStage {
  constructor(
    private readonly judge: Pick<StanceJudge, 'id' | 'judge'>,
    readonly settings: VerdictSettings,
    private readonly aggregator: Aggregator | null,
  ) {}

  get id(): string {
    return this.judge.id;
  }

  get depth(): number {
    return this.settings.depth;
  }

  get sentences(): number {
    return this.settings.sentences;
  }

  /** Per-sentence judgements of `sentences` against the claim (Climate-FEVER is judged per pair). */
  judgeSentences(claim: string, sentences: readonly string[]): Promise<Judgement[]> {
    return this.judge.judge(claim, sentences);
  }

  /** Judges the evidence of `results` against the claim and decides (verdict() without the shaping). */
  async judgeResults(results: readonly SearchResult[], claim: string): Promise<Judged> {
    const items = evidenceItems(results, this.settings.depth, this.settings.sentences);
    const judgements = await this.judge.judge(
      claim,
      items.map((it) => it.sentence),
    );
    const judged: JudgedItem[] = items.map((it, i) => ({
      probs: judgements[i]!.probs,
      relevance: it.relevance,
      recency: it.result.scores.recency,
      rank: it.rank,
      coverage: judgements[i]!.coverage,
    }));
    return { items, judgements, decision: decide(judged, this.aggregator, this.settings) };
  }

  async verdict(results: SearchResult[], ctx: StageContext): Promise<Verdict> {
    const { items, judgements, decision } = await this.judgeResults(results, ctx.query.claim);
    const evidence: StanceEvidence[] = items.map((it, i) => {
      const j = judgements[i]!;
      const confidence = j.probs[j.stance];
      return {
        snippetId: it.result.snippetId,
        sentence: it.sentence,
        title: it.result.title,
        url: it.result.url,
        source: it.result.source,
        publishedAt: it.result.publishedAt,
        stance: j.stance,
        confidence: round(confidence),
        weight: round(it.relevance * it.result.scores.recency * confidence),
        reason: j.reason,
      };
    });
    const by = (s: StanceEvidence['stance']) => evidence.filter((e) => e.stance === s).sort((a, b) => b.weight - a.weight);
    return {
      label: decision.label,
      confidence: decision.confidence,
      probabilities: decision.probabilities,
      evidence: { supports: by('supports'), refutes: by('refutes'), neutral: by('neutral') },
      model: this.id,
      ...(decision.reason ? { reason: decision.reason } : {}),
    };
  }
}
