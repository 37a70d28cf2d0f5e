/**
 * The verdict stage (claims only). The top results' sentences (all of each 5-sentence passage the
 * search found above its relevance floor) are first read by the NLI model alone; the sentences that
 * answer the claim best — the most probability on "supports" or "refutes", weighed by their result's
 * relevance, at most PER_RESULT from one result — are then judged in full (judge.ts: stance with the
 * alignment's rule and reason) and decided on together (decide.ts: calibrated probability,
 * abstention). A sentence that refers back ("the firm", "they") is read with its article's title and
 * the sentence before it. The evidence comes back grouped by each judged sentence's stance, with its
 * reason, so that what the panel counts is what it lists.
 */
import type { StageContext, VerdictStage } from '../stages';
import type { SearchResult, StanceEvidence, Verdict } from '../types';
import type { Comparison } from './details/compare';
import type { Detail } from './details/extract';
import type { Aggregator, DecideSettings, Decision, JudgedItem, StanceProbs } from './decide';
import { decide } from './decide';
import { contradicts, type JudgeInput, type Judgement, type StanceJudge } from './judge';
import { sameClaim, type SameClaim } from './same-claim';

export interface VerdictSettings extends DecideSettings {
  /** Top results read. */
  depth: number;
  /** Sentences read per result (its best evidence sentences first). */
  sentences: number;
  /** Whether each result's read sentences are also read together, as one passage. */
  passages: boolean;
  /** Items (sentences, passages) decided on and shown, across the results. */
  judged: number;
}

export interface EvidenceItem extends JudgeInput {
  result: SearchResult;
  rank: number;
  /** Its result's relevance before the time decay, relative to the best result. */
  relevance: number;
  /** One sentence, or a passage: the result's read sentences together, in text order (evidence that spans sentences). */
  kind: 'sentence' | 'passage';
}

/** At most this many of the judged sentences come from one result (a verdict needs more than one article's word). */
export const PER_RESULT = 2;

/**
 * A sentence that cannot be read alone: its subject is a pronoun or a definite description that
 * points back ("It", "They", "The company", "The law", "The move"), at its start or after a short
 * opening phrase ("On Monday, it said…").
 */
const REFERS_BACK =
  /^(?:[\w\s'’-]{1,30},\s*)?(?:it|its|they|their|them|he|his|she|her|this|these|those|such|both|the (?:company|firm|group|law|bill|measure|move|plan|deal|government|ministry|agency|court|report|study|survey|decision|country|team|club|side|party|minister|president|official|officials|bank|union|board|council|city|state|programme|program|scheme|policy|project|case|drug|vaccine|virus|disease|treatment|trial|researchers|authors|findings|results|latter|former|two|singer|actor|star|band|film|show|player|coach|chancellor|prime minister))\b/i;

export function refersBack(sentence: string): boolean {
  return REFERS_BACK.test(sentence.trim());
}

/** The result's evidence sentences in text order (the pipeline returns them best first). */
function inTextOrder(r: SearchResult): { text: string; start: number }[] {
  return [...r.evidence].sort((a, b) => a.start - b.start);
}

const titleOf = (r: SearchResult) => (r.title ? `${r.title.replace(/[.!?]*$/, '')}.` : '');

/**
 * The candidates: each top result's sentences (up to `perResult`, its best first), each once, with
 * context where it refers back; with `passages`, also each result's read sentences as one passage in
 * text order (a claim that two sentences establish together, or a sentence whose subject is in the
 * one before, is read whole), with the title where its first sentence refers back.
 */
export function evidenceItems(results: readonly SearchResult[], depth: number, perResult: number, passages = false): EvidenceItem[] {
  const top = results.slice(0, depth);
  const pre = top.map((r) => (r.scores.recency > 0 ? r.scores.final / r.scores.recency : r.scores.final));
  const best = Math.max(0, ...pre);
  const seen = new Set<string>();
  const items: EvidenceItem[] = [];
  top.forEach((r, rank) => {
    const ordered = inTextOrder(r);
    const sentences = r.evidence.length ? r.evidence.slice(0, perResult) : [{ text: r.text, start: 0 }];
    const relevance = best > 0 ? pre[rank]! / best : 1;
    for (const s of sentences) {
      const key = s.text.trim().toLowerCase();
      if (!key || seen.has(key)) continue;
      seen.add(key);
      const at = ordered.findIndex((o) => o.start === s.start);
      const prev = at > 0 ? ordered[at - 1]!.text : '';
      const context = refersBack(s.text) ? [titleOf(r), prev].filter(Boolean).join(' ') : '';
      items.push({ result: r, sentence: s.text, ...(context ? { context } : {}), rank, relevance, kind: 'sentence' });
    }
    if (!passages || sentences.length < 2) return;
    const read = [...sentences].sort((a, b) => a.start - b.start);
    const text = read.map((s) => s.text.trim()).join(' ');
    const context = refersBack(read[0]!.text) ? titleOf(r) : '';
    if (!seen.has(text.toLowerCase())) {
      seen.add(text.toLowerCase());
      items.push({ result: r, sentence: text, ...(context ? { context } : {}), rank, relevance, kind: 'passage' });
    }
  });
  return items;
}

/** How well a sentence answers the claim: the model's mass on a side, weighed by its result's relevance. */
export function answerScore(p: StanceProbs, relevance: number): number {
  return (1 - p.neutral) * (0.5 + 0.5 * Math.max(0, Math.min(1, relevance)));
}

/** Indexes of the `n` sentences judged in full: best answers first, at most PER_RESULT per result, ties by position. */
export function pickEvidence(
  items: readonly Pick<EvidenceItem, 'rank' | 'relevance'>[],
  probs: readonly StanceProbs[],
  n: number,
): number[] {
  const order = items.map((it, i) => ({ i, s: answerScore(probs[i]!, it.relevance) })).sort((a, b) => b.s - a.s || a.i - b.i);
  const perResult = new Map<number, number>();
  const out: number[] = [];
  for (const { i } of order) {
    if (out.length >= n) break;
    const r = items[i]!.rank;
    if ((perResult.get(r) ?? 0) >= PER_RESULT) continue;
    perResult.set(r, (perResult.get(r) ?? 0) + 1);
    out.push(i);
  }
  return out;
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

/**
 * The details the claim-level decision reads (decide.ts JudgedItem.cues), each as much as the text is
 * about the claim: a contradicted detail; one contradicted where the text states the claim's other
 * details (the deciding sentence of a false claim differs in one detail, a sentence about another
 * event in many); every detail stated.
 */
export function claimCues(c: Pick<Comparison, 'checks' | 'topic' | 'values'>): NonNullable<JudgedItem['cues']> {
  const v = c.values;
  const contra = contradicts(c) ? c.topic : 0;
  const sure = contra * othersStated(v);
  // The same, by the kind of detail contradicted: how much each kind counts is fitted (readers trust a changed place more than a changed name).
  const by = (...fs: (keyof Comparison['values'])[]) => (fs.some((f) => v[f] > 0) ? sure : 0);
  return {
    contra,
    sure,
    confirmed: v.all_confirmed * c.topic,
    kinds: {
      name: by('contra_name', 'contra_roles'),
      place: by('contra_place'),
      number: by('contra_number'),
      date: by('contra_date'),
      direction: by('contra_direction'),
      negation: by('contra_negation'),
    },
  };
}

/** Of the claim's details the text does not contradict, the share it states (one half when the claim has no other). */
export function othersStated(v: Pick<Comparison['values'], 'confirmed' | 'unmentioned'>): number {
  const rest = v.confirmed + v.unmentioned;
  return rest > 0 ? v.confirmed / rest : 0.5;
}

export interface Judged {
  items: EvidenceItem[];
  judgements: Judgement[];
  decision: Decision;
  /** The claim's checkable details. */
  details: Detail[];
}

export class NliVerdictStage implements VerdictStage {
  constructor(
    private readonly judge: Pick<StanceJudge, 'id' | 'judge' | 'modelProbs' | 'details' | 'reading' | 'givenEvidence'>,
    readonly settings: VerdictSettings,
    private readonly aggregator: Aggregator | null,
  ) {}

  get id(): string {
    return this.judge.id;
  }

  /**
   * This stage for evidence whose relevance is given rather than retrieved (labelled pairs, gold
   * rationales: `quin eval stance`, the SciFact oracle, Climate-FEVER per evidence): no topic gate.
   */
  givenEvidence(): NliVerdictStage {
    return new NliVerdictStage(this.judge.givenEvidence(), this.settings, this.aggregator);
  }

  /** The share of the claim a text must be about to take a stance (and to be shown). */
  get topic(): number {
    return this.judge.reading.topic;
  }

  get depth(): number {
    return this.settings.depth;
  }

  get sentences(): number {
    return this.settings.sentences;
  }

  /** Per-sentence judgements of `sentences` against the claim (pairs are judged one by one, e.g. `quin eval stance`). */
  judgeSentences(claim: string, sentences: readonly (string | JudgeInput)[]): Promise<Judgement[]> {
    return this.judge.judge(claim, sentences);
  }

  /** The model's own reading of `sentences` as one premise, in the order given (no decision, no rule): what the reader alone says of that evidence. */
  async readTogether(claim: string, sentences: readonly string[]): Promise<StanceProbs> {
    const [p] = await this.judge.modelProbs(claim, [{ sentence: sentences.map((s) => s.trim()).join(' ') }]);
    return p!;
  }

  /** Whether `b` is the same claim as `a` (a published fact-check's rating applies to it). */
  sameClaim(a: string, b: string): Promise<SameClaim> {
    return sameClaim(this.judge, a, b);
  }

  /** Chooses the sentences that answer the claim, judges them and decides (verdict() without the shaping). */
  async judgeResults(results: readonly SearchResult[], claim: string): Promise<Judged> {
    const candidates = evidenceItems(results, this.settings.depth, this.settings.sentences, this.settings.passages);
    // Every candidate is read in full (the details cost no model call): the sentences that answer best, on topic, are chosen.
    const all = await this.judge.judge(claim, candidates);
    const chosen = pickEvidence(
      candidates,
      all.map((j) => j.probs),
      this.settings.judged,
    );
    const items = chosen.map((i) => candidates[i]!);
    const judgements = chosen.map((i) => all[i]!);
    const judged: JudgedItem[] = items.map((it, i) => ({
      probs: judgements[i]!.probs,
      relevance: it.relevance,
      recency: it.result.scores.recency,
      rank: it.rank,
      coverage: judgements[i]!.coverage,
      cues: claimCues(judgements[i]!.comparison),
    }));
    return { items, judgements, decision: decide(judged, this.aggregator, this.settings), details: this.judge.details(claim) };
  }

  async verdict(results: SearchResult[], ctx: StageContext): Promise<Verdict> {
    const { items, judgements, decision, details } = await this.judgeResults(results, ctx.query.claim);
    // Text about something else is not shown, unless nothing on topic is: then the closest one, as neither.
    const onTopic = judgements.map((j) => j.coverage >= this.topic);
    const closest = onTopic.some(Boolean) ? -1 : judgements.reduce((b, j, i) => (j.coverage > (judgements[b]?.coverage ?? -1) ? i : b), -1);
    const evidence: StanceEvidence[] = items.flatMap((it, i) => {
      const j = judgements[i]!;
      if (!onTopic[i] && i !== closest) return [];
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
        onTopic: onTopic[i]!,
        details: j.comparison.checks.map((c) => ({
          kind: c.kind,
          status: c.status,
          claim: c.claim,
          ...(c.evidence ? { evidence: c.evidence } : {}),
        })),
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
      details: details.map((d) => ({ kind: d.kind, text: d.text })),
    };
  }
}
