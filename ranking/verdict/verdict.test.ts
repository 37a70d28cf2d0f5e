import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NliClassifier, type NliProbs } from '../../lib/models';
import type { StageContext } from '../stages';
import type { SearchResult } from '../types';
import { aggregate, stanceOf, stanceUnder } from './aggregate';
import { learnedProbs, parseLearnedAggregator, verdictFeatures } from './learned';
import { evidenceItems, NliVerdictStage } from './stage';

const T = { minEvidence: 0.3, mixedRatio: 0.6 };
const P = (e: number, c: number): NliProbs => ({ entailment: e, contradiction: c, neutral: 1 - e - c });

function result(id: number, final: number, recency: number, sentences: string[]): SearchResult {
  return {
    snippetId: id,
    articleId: id,
    position: 0,
    sentenceStart: 0,
    sentenceEnd: sentences.length,
    title: `t${id}`,
    url: `https://example.org/${id}`,
    source: 'example',
    publishedAt: null,
    text: sentences.join(' '),
    evidence: sentences.map((s) => ({ text: s, start: 0, end: s.length, score: 1 })),
    score: final,
    scores: { bm25: null, bm25Rank: null, dense: null, denseRank: null, fused: final, rerank: null, recency, final },
  };
}
const ctx = (claim: string) =>
  ({ query: { text: `Is it true that ${claim}?`, claim, kind: 'claim', terms: [] } }) as unknown as StageContext;

describe('learned aggregator', () => {
  // Rows: SUPPORTED, REFUTED, NOT_ENOUGH_EVIDENCE; columns: bias, mean e/c, max e/c, top e/c.
  const model = parseLearnedAggregator({
    weights: [
      [0, 4, 0, 0, 0, 0, 0],
      [0, 0, 4, 0, 0, 0, 0],
      [1, 0, 0, 0, 0, 0, 0],
    ],
    depth: 2,
    sentences: 2,
  });

  it('features: weighted mean and max of entailment and contradiction, and the top sentence', () => {
    const f = verdictFeatures([
      { probs: P(0.8, 0.1), relevance: 1, recency: 1 },
      { probs: P(0.2, 0.6), relevance: 0.5, recency: 1 },
    ])!;
    expect(f.map((x) => +x.toFixed(4))).toEqual([1, 0.6, 0.2667, 0.8, 0.3, 0.8, 0.1]);
    expect(verdictFeatures([])).toBeNull();
    expect(learnedProbs(f, model).reduce((a, b) => a + b, 0)).toBeCloseTo(1);
  });

  it('decides by the most probable label, abstaining with a reason', () => {
    const t = { minEvidence: 0.99, mixedRatio: 1.01, learned: model };
    expect(aggregate([{ probs: P(0.9, 0.05), relevance: 1, recency: 1 }], t)).toMatchObject({ label: 'SUPPORTED', support: 0.9 });
    expect(aggregate([{ probs: P(0.05, 0.9), relevance: 1, recency: 1 }], t).label).toBe('REFUTED');
    expect(aggregate([{ probs: P(0.1, 0.1), relevance: 1, recency: 1 }], t)).toMatchObject({
      label: 'NOT_ENOUGH_EVIDENCE',
      reason: expect.stringMatching(/not conclusive/),
    });
    expect(aggregate([], t).label).toBe('NOT_ENOUGH_EVIDENCE');
  });

  it('rejects malformed weights', () => {
    expect(() => parseLearnedAggregator({ weights: [[1, 2]] })).toThrow(/3 rows/);
    expect(() =>
      parseLearnedAggregator({
        weights: [
          [0, 0, 0, 0, 0, 0, 0],
          [0, 0, 0, 0, 0, 0, 0],
          [0, 0, 0, 0, 0, 0, NaN],
        ],
      }),
    ).toThrow(/finite/);
    expect(() =>
      parseLearnedAggregator({
        weights: [
          [0, 0, 0, 0, 0, 0, 0],
          [0, 0, 0, 0, 0, 0, 0],
          [0, 0, 0, 0, 0, 0, 0],
        ],
        depth: 0,
      }),
    ).toThrow(/depth/);
  });
});

describe('aggregate', () => {
  it("pooling 'max' lets one strong, relevant sentence decide where the mean would abstain", () => {
    const judged = [
      { probs: P(0.9, 0.05), relevance: 1, recency: 1 },
      { probs: P(0.05, 0.05), relevance: 1, recency: 1 },
      { probs: P(0.05, 0.05), relevance: 0.5, recency: 1 },
      { probs: P(0.05, 0.05), relevance: 0.5, recency: 1 },
    ];
    const t = { minEvidence: 0.5, mixedRatio: 1.01 };
    expect(aggregate(judged, t).label).toBe('NOT_ENOUGH_EVIDENCE');
    expect(aggregate(judged, { ...t, pooling: 'max' })).toMatchObject({ label: 'SUPPORTED', support: 0.9 });
    // A strong sentence of a weakly relevant result counts for its weight only.
    expect(
      aggregate(
        [
          { probs: P(0.9, 0), relevance: 0.4, recency: 1 },
          { probs: P(0.1, 0), relevance: 1, recency: 1 },
        ],
        { ...t, pooling: 'max' },
      ),
    ).toMatchObject({ label: 'NOT_ENOUGH_EVIDENCE', support: 0.36 });
  });

  it('decides by weighted support and refutation, abstaining on weak evidence', () => {
    expect(aggregate([{ probs: P(0.9, 0.05), relevance: 1, recency: 1 }], T)).toMatchObject({ label: 'SUPPORTED', confidence: 0.9 });
    expect(aggregate([{ probs: P(0.05, 0.8), relevance: 1, recency: 1 }], T).label).toBe('REFUTED');
    expect(aggregate([{ probs: P(0.1, 0.1), relevance: 1, recency: 1 }], T)).toMatchObject({
      label: 'NOT_ENOUGH_EVIDENCE',
      reason: expect.stringMatching(/below 0.3/),
    });
    expect(aggregate([], T)).toMatchObject({ label: 'NOT_ENOUGH_EVIDENCE', reason: 'no evidence sentences to judge' });
    const mixed = [
      { probs: P(0.9, 0.05), relevance: 1, recency: 1 },
      { probs: P(0.05, 0.9), relevance: 1, recency: 1 },
    ];
    expect(aggregate(mixed, T).label).toBe('MIXED');
  });

  it('weighs by relevance and recency: old or weakly relevant evidence counts less', () => {
    const judged = [
      { probs: P(0.9, 0.05), relevance: 1, recency: 1 },
      { probs: P(0.05, 0.9), relevance: 1, recency: 0.1 },
    ];
    expect(aggregate(judged, T).label).toBe('SUPPORTED');
    judged[0]!.relevance = 0.05;
    judged[1]!.recency = 1;
    expect(aggregate(judged, T).label).toBe('REFUTED');
  });

  it('corrects an NLI model that under-calls contradictions with the refute weight', () => {
    const judged = [{ probs: P(0.35, 0.2), relevance: 1, recency: 1 }];
    expect(aggregate(judged, T).label).toBe('SUPPORTED');
    expect(aggregate(judged, { ...T, mixedRatio: 2, refuteWeight: 2 })).toMatchObject({ label: 'REFUTED', refute: 0.4 });
    expect(aggregate([{ probs: P(0.1, 0.6), relevance: 1, recency: 1 }], { ...T, refuteWeight: 3 }).refute).toBe(1);
  });

  it('names the stance of one judgement', () => {
    expect(stanceOf(P(0.7, 0.2))).toEqual({ stance: 'supports', confidence: 0.7 });
    expect(stanceOf(P(0.2, 0.7))).toEqual({ stance: 'refutes', confidence: 0.7 });
    expect(stanceOf(P(0.1, 0.2)).stance).toBe('neutral');
  });
});

describe('NliVerdictStage', () => {
  it('reads the best sentences of the top results, relative relevance before decay, no duplicates', () => {
    const rs = [result(1, 0.8, 0.5, ['a.', 'b.', 'c.']), result(2, 0.4, 1, ['b.', 'd.']), result(3, 0.1, 1, ['e.'])];
    const items = evidenceItems(rs, 2, 2);
    expect(items.map((i) => i.sentence)).toEqual(['a.', 'b.', 'd.']);
    expect(items.map((i) => +i.relevance.toFixed(3))).toEqual([1, 1, 0.25]);
  });

  it('returns evidence grouped by stance and the claim (not the question) as hypothesis', async () => {
    const seen: string[] = [];
    const model = {
      id: 'fake-nli',
      classify: async (pairs: [string, string][]) =>
        pairs.map(([p, h]) => {
          seen.push(h);
          return p.includes('not') ? P(0.05, 0.9) : p.includes('yes') ? P(0.9, 0.05) : P(0.1, 0.1);
        }),
    };
    const stage = new NliVerdictStage(model, { depth: 3, sentences: 2, ...T });
    const v = await stage.verdict(
      [result(1, 1, 1, ['yes it does.', 'unrelated text.']), result(2, 0.2, 1, ['it does not.'])],
      ctx('coffee helps'),
    );
    expect(seen.every((h) => h === 'coffee helps')).toBe(true);
    expect(v.label).toBe('SUPPORTED');
    expect(v.model).toBe('fake-nli');
    expect(v.evidence.supports.map((e) => e.sentence)).toEqual(['yes it does.']);
    expect(v.evidence.refutes.map((e) => e.sentence)).toEqual(['it does not.']);
    expect(v.evidence.neutral.map((e) => e.sentence)).toEqual(['unrelated text.']);
    expect(v.evidence.refutes[0]!.weight).toBeCloseTo(0.2 * 0.9, 4);
    const weak = await stage.verdict([result(1, 1, 1, ['unrelated text.'])], ctx('coffee helps'));
    expect(weak).toMatchObject({ label: 'NOT_ENOUGH_EVIDENCE', reason: expect.any(String) });
  });

  it('groups evidence as the rule counts it: the sentence that decides a verdict is shown with that stance', async () => {
    // Most probable label neutral, but 0.4 × refute weight 1.25 = 0.5 passes the threshold 0.48.
    const model = {
      id: 'fake-nli',
      classify: async (pairs: [string, string][]) =>
        pairs.map(([p]) => (p.startsWith('weak') ? P(0.46, 0.1) : { entailment: 0.05, contradiction: 0.4, neutral: 0.55 })),
    };
    const t = { minEvidence: 0.48, mixedRatio: 1.01, refuteWeight: 1.25, pooling: 'max' as const };
    const v = await new NliVerdictStage(model, { depth: 2, sentences: 2, ...t }).verdict(
      [result(1, 1, 1, ['hedged contradiction.', 'weak support.'])],
      ctx('coffee helps'),
    );
    expect(v.label).toBe('REFUTED');
    expect(v.evidence.refutes.map((e) => e.sentence)).toEqual(['hedged contradiction.']);
    expect(v.evidence.supports).toEqual([]); // 0.46 is its most probable label but below the threshold: no stance
    expect(v.evidence.neutral.map((e) => e.sentence)).toEqual(['weak support.']);
    expect(
      stanceUnder(P(0.46, 0.1), {
        ...t,
        learned: parseLearnedAggregator({
          weights: [
            [0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0, 0],
          ],
        }),
      }).stance,
    ).toBe('supports');
  });

  it('runs a standard-layout ONNX NLI model (labels in any order) end to end', async () => {
    const nli = await NliClassifier.load(path.join(FIX(), 'tiny-nli'));
    afterAll(() => nli.close());
    const stage = new NliVerdictStage(nli, { depth: 5, sentences: 2, ...T });
    const v = await stage.verdict(
      [result(1, 1, 1, ['the cat sat on the mat.']), result(2, 0.5, 0.5, ['a dog is running.'])],
      ctx('a cat is sitting'),
    );
    expect(['SUPPORTED', 'REFUTED', 'MIXED', 'NOT_ENOUGH_EVIDENCE']).toContain(v.label);
    const all = [...v.evidence.supports, ...v.evidence.refutes, ...v.evidence.neutral];
    expect(all).toHaveLength(2);
    for (const e of all) expect(e.confidence).toBeGreaterThanOrEqual(1 / 3);
  });
});

function FIX(): string {
  return path.join(__dirname, '..', '..', 'lib', 'models', 'fixtures');
}
