import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CrossEncoder } from '../../lib/models';
import type { RerankCandidate, StageContext } from '../stages';
import { asRelevance, combineScores, minMax, WEAKEST_MATCH } from './combine';
import { CrossEncoderRerankStage, passageText } from './stage';

const FIX = path.join(__dirname, '..', '..', 'lib', 'models', 'fixtures');

function cand(id: number, title: string, text: string, fused: number): RerankCandidate {
  return {
    snippetId: id,
    articleId: id,
    title,
    text,
    sentences: [text],
    publishedAt: null,
    source: 's',
    bm25: null,
    dense: null,
    bm25Rank: null,
    denseRank: null,
    fused,
  };
}
const ctx = (text: string) => ({ query: { text, claim: text, kind: 'claim', terms: text.split(' ') } }) as unknown as StageContext;

describe('combineScores', () => {
  it('min-max normalises both scores and mixes them by the weight', () => {
    expect(minMax([2, 4, 3])).toEqual([0, 1, 0.5]);
    expect(minMax([5, 5])).toEqual([1, 1]);
    expect(minMax([1, NaN, 3])).toEqual([0, 0, 1]);
    expect(combineScores([10, 0, 5], [0.1, 0.3, 0.2], 0.5)).toEqual([0.5, 0.5, 0.5]);
    expect(combineScores([10, 0, 5], [0.1, 0.3, 0.2], 1)).toEqual([1, 0, 0.5]);
    expect(combineScores([10, 0, 5], [0.1, 0.3, 0.2], 0).map((x) => +x.toFixed(6))).toEqual([0, 1, 0.5]);
    expect(() => combineScores([1], [1, 2], 0.5)).toThrow(/1 model scores for 2 candidates/);
    expect(() => combineScores([1], [1], 1.5)).toThrow(/outside/);
  });
});

describe('asRelevance', () => {
  it('keeps the weakest reranked match above zero, so that the time decay can still lift it', () => {
    expect(asRelevance(0)).toBe(WEAKEST_MATCH);
    expect(asRelevance(1)).toBe(1);
    expect(asRelevance(Number.NaN)).toBe(WEAKEST_MATCH);
    // The weaker of two matches, two days old, against a five-year-old one at a one-week half-life.
    const [older, newer] = [asRelevance(1) * 2 ** ((-5 * 365) / 7), asRelevance(0) * 2 ** (-2 / 7)];
    expect(newer).toBeGreaterThan(older);
    // ...but not at a one-year half-life: relevance still decides there (5 half-lives apart, under 6.6).
    expect(asRelevance(0) * 2 ** (-2 / 365)).toBeLessThan(asRelevance(1) * 2 ** -5);
  });
});

describe('CrossEncoderRerankStage', () => {
  it('mixes a model score with the fused score; weight 0 keeps the first-stage order', async () => {
    const model = { id: 'fake', score: async (_q: string, ps: string[]) => ps.map((p) => (p.includes('vaccine') ? 5 : 0)) };
    const cs = [cand(1, 'Weather', 'rain tomorrow', 0.9), cand(2, 'Health', 'vaccine trial results', 0.5), cand(3, '', 'other', 0.1)];
    const full = await new CrossEncoderRerankStage(model, { depth: 10, weight: 1 }).rerank(cs, ctx('vaccine'));
    expect(full.map((s) => s.rerank)).toEqual([0, 5, 0]);
    expect(full.map((s) => s.relevance)).toEqual([0, 1, 0].map(asRelevance));
    const none = await new CrossEncoderRerankStage(model, { depth: 10, weight: 0 }).rerank(cs, ctx('vaccine'));
    expect(none.map((s) => s.relevance)).toEqual([1, 0.5, 0].map(asRelevance));
    expect(passageText(cs[0]!)).toBe('Weather. rain tomorrow');
    expect(passageText(cs[2]!)).toBe('other');
    expect(() => new CrossEncoderRerankStage(model, { depth: 0, weight: 0.5 })).toThrow(/depth/);
  });

  it('runs a standard-layout ONNX cross-encoder end to end', async () => {
    const ce = await CrossEncoder.load(path.join(FIX, 'tiny-cross-encoder'));
    afterAll(() => ce.close());
    const stage = new CrossEncoderRerankStage(ce, { depth: 50, weight: 0.5 });
    expect(stage.id).toMatch(/^onnx:tiny-cross-encoder@/);
    const cs = Array.from({ length: 7 }, (_, i) =>
      cand(i, `title ${i}`, `the cat sat on mat number ${i} ${'word '.repeat(i * 40)}`, 1 - i / 10),
    );
    const scores = await stage.rerank(cs, ctx('the cat sat on the mat'));
    expect(scores).toHaveLength(7);
    for (const s of scores) {
      expect(Number.isFinite(s.rerank)).toBe(true);
      expect(s.relevance).toBeGreaterThanOrEqual(0);
      expect(s.relevance).toBeLessThanOrEqual(1);
    }
    // Same input, same scores (no state between calls).
    expect((await stage.rerank(cs, ctx('the cat sat on the mat'))).map((s) => s.rerank)).toEqual(scores.map((s) => s.rerank));
  });
});
