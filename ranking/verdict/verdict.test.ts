import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NliClassifier, type NliProbs } from '../../lib/models';
import type { StageContext } from '../stages';
import type { SearchResult } from '../types';
import type { StanceModel } from './align/classifier';
import { STANCE_FEATURES } from './align/features';
import { claimFeatures, decide, type Aggregator, type JudgedItem } from './decide';
import { sharedLexicon } from './index';
import { StanceJudge } from './judge';
import { evidenceItems, NliVerdictStage } from './stage';

const P = (e: number, c: number): NliProbs => ({ entailment: e, contradiction: c, neutral: 1 - e - c });
const S = (s: number, r: number) => ({ supports: s, refutes: r, neutral: 1 - s - r });
const item = (s: number, r: number, over: Partial<JudgedItem> = {}): JudgedItem => ({
  probs: S(s, r),
  relevance: 1,
  recency: 1,
  rank: 0,
  coverage: 0.8,
  ...over,
});
const SETTINGS = { commit: 0.6, mixed: 0.8 };

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
    scores: {
      bm25: null,
      bm25Rank: null,
      dense: null,
      denseRank: null,
      fused: final,
      rerank: null,
      relevance: final / recency,
      recency,
      recencyBasis: 'published',
      assumedAgeDays: null,
      final,
    },
  } as SearchResult;
}
const ctx = (claim: string) =>
  ({ query: { text: `Is it true that ${claim}?`, claim, kind: 'claim', terms: [] } }) as unknown as StageContext;

describe('claim-level decision', () => {
  it('pools the sentences: strongest weighted support and refutation, means, the top result, coverage', () => {
    const f = claimFeatures([item(0.8, 0.1, { rank: 0, coverage: 0.9 }), item(0.2, 0.6, { rank: 1, relevance: 0.5, coverage: 0.4 })]);
    // max w·s / max w = 0.8; max w·r = max(0.1, 0.3) = 0.3; means (0.8 + 0.1)/1.5, (0.1 + 0.3)/1.5; top 0.8 / 0.1; coverage 0.9; shares 1/2, 1/2; 0.8 × 0.3.
    expect(f.map((x) => +x.toFixed(4))).toEqual([0.8, 0.3, 0.6, 0.2667, 0.8, 0.1, 0.9, 0.5, 0.5, 0.24]);
    expect(claimFeatures([]).every((x) => x === 0)).toBe(true);
  });

  it('without a fitted aggregator: the strongest side commits when it reaches the threshold, else abstains with a reason', () => {
    expect(decide([item(0.9, 0.05)], null, SETTINGS)).toMatchObject({ label: 'SUPPORTED', confidence: 0.9 });
    expect(decide([item(0.05, 0.9)], null, SETTINGS).label).toBe('REFUTED');
    const weak = decide([item(0.5, 0.1)], null, SETTINGS);
    expect(weak).toMatchObject({ label: 'NOT_ENOUGH_EVIDENCE', reason: expect.stringMatching(/below the 60% a verdict needs/) });
    expect(decide([], null, SETTINGS)).toMatchObject({ label: 'NOT_ENOUGH_EVIDENCE', reason: 'no evidence sentences to judge' });
  });

  it('REFUTED may need a higher bar than SUPPORTED: the same lean commits one way and abstains the other', () => {
    const asym = { ...SETTINGS, commit: 0.4, commitRefuted: 0.6 };
    expect(decide([item(0.5, 0.1)], null, asym).label).toBe('SUPPORTED');
    expect(decide([item(0.1, 0.5)], null, asym)).toMatchObject({
      label: 'NOT_ENOUGH_EVIDENCE',
      reason: expect.stringMatching(/against the claim \(50%\), below the 60%/),
    });
    expect(decide([item(0.1, 0.65)], null, asym).label).toBe('REFUTED');
  });

  it('a fitted aggregator gives calibrated probabilities; MIXED needs strong sentences on both sides', () => {
    // Rows SUPPORTED, REFUTED, NEI over max_sup and max_ref only.
    const agg: Aggregator = {
      version: 2,
      depth: 3,
      sentences: 2,
      features: ['max_sup', 'max_ref'],
      coef: [
        [6, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 6, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      ],
      intercept: [0, 0, 2],
      commit: 0.6,
      mixed: 0.8,
    };
    const sup = decide([item(0.95, 0.02)], agg, SETTINGS);
    expect(sup.label).toBe('SUPPORTED');
    expect(sup.probabilities.SUPPORTED + sup.probabilities.REFUTED + sup.probabilities.NOT_ENOUGH_EVIDENCE).toBeCloseTo(1, 3);
    const both = decide([item(0.9, 0.05), item(0.05, 0.9, { rank: 1 })], agg, SETTINGS);
    expect(both.label).toBe('MIXED');
    expect(decide([item(0.3, 0.2)], agg, SETTINGS).label).toBe('NOT_ENOUGH_EVIDENCE');
  });
});

describe('NliVerdictStage', () => {
  it('reads the best sentences of the top results, relative relevance before decay, no duplicates', () => {
    const rs = [result(1, 0.8, 0.5, ['a.', 'b.', 'c.']), result(2, 0.4, 1, ['b.', 'd.']), result(3, 0.1, 1, ['e.'])];
    const items = evidenceItems(rs, 2, 2);
    expect(items.map((i) => i.sentence)).toEqual(['a.', 'b.', 'd.']);
    expect(items.map((i) => +i.relevance.toFixed(3))).toEqual([1, 1, 0.25]);
  });

  it('groups evidence by stance with a reason each; the counts are what is listed; the claim is the hypothesis', async () => {
    const seen: string[] = [];
    const nli = {
      id: 'fake-nli',
      classify: async (pairs: [string, string][]) =>
        pairs.map(([p, h]) => {
          seen.push(h);
          return p.includes('fell') ? P(0.05, 0.9) : p.includes('rose') ? P(0.9, 0.05) : P(0.1, 0.1);
        }),
    };
    const stage = new NliVerdictStage(new StanceJudge(nli, sharedLexicon(), null), { depth: 3, sentences: 2, ...SETTINGS }, null);
    const v = await stage.verdict(
      [
        result(1, 1, 1, ['Profits at Tesco rose 5% last year.', 'The weather was mild.']),
        result(2, 0.2, 1, ['Profits at Tesco fell sharply.']),
      ],
      ctx('Tesco profits rose'),
    );
    expect(seen.every((h) => h === 'Tesco profits rose')).toBe(true);
    expect(v.label).toBe('SUPPORTED');
    expect(v.model).toBe('fake-nli');
    expect(v.evidence.supports.map((e) => [e.sentence, e.reason])).toEqual([
      ['Profits at Tesco rose 5% last year.', 'says the same: Tesco, profits, rose'],
    ]);
    expect(v.evidence.refutes.map((e) => e.reason)).toEqual(["says 'fell' where the claim says 'rose'"]);
    expect(v.evidence.neutral.map((e) => e.reason)).toEqual(["does not mention 'Tesco'"]);
    expect(v.evidence.refutes[0]!.weight).toBeCloseTo(0.2 * 0.9, 4);
    expect(v.probabilities?.SUPPORTED).toBe(0.9);
  });

  it('with a stance classifier, the alignment decides and the NLI model is not run when it does not read it', async () => {
    let calls = 0;
    const nli = { id: 'fake-nli', classify: async (pairs: [string, string][]) => (calls++, pairs.map(() => P(0.9, 0.05))) };
    // A classifier that refutes exactly on an opposite direction (feature 'antonym').
    const w = (name: string, v: number) => STANCE_FEATURES.map((f) => (f === name ? v : 0));
    const model: StanceModel = {
      features: [...STANCE_FEATURES],
      nli: null,
      model: { kind: 'logistic', coef: [w('cov', 4), w('antonym', 12), w('cov', 0)], intercept: [-1, -3, 0] },
    };
    const judge = new StanceJudge(nli, sharedLexicon(), model);
    const [same, opposite] = await judge.judge('Tesco profits rose', ['Tesco profits rose by 5%.', 'Tesco profits fell by 5%.']);
    expect(calls).toBe(0);
    expect(same!.stance).toBe('supports');
    expect(opposite!.stance).toBe('refutes');
    expect(judge.id).toMatch(/^quin-align@[0-9a-f]{8}$/);
    expect(() => new StanceJudge(nli, sharedLexicon(), { ...model, nli: 'onnx:another@1' })).toThrow(/fitted for onnx:another@1/);
  });

  it('runs a standard-layout ONNX NLI model (labels in any order) end to end', async () => {
    const nli = await NliClassifier.load(path.join(__dirname, '..', '..', 'lib', 'models', 'fixtures', 'tiny-nli'));
    afterAll(() => nli.close());
    const stage = new NliVerdictStage(new StanceJudge(nli, sharedLexicon(), null), { depth: 5, sentences: 2, ...SETTINGS }, null);
    const v = await stage.verdict(
      [result(1, 1, 1, ['the cat sat on the mat.']), result(2, 0.5, 0.5, ['a dog is running.'])],
      ctx('a cat is sitting'),
    );
    expect(['SUPPORTED', 'REFUTED', 'MIXED', 'NOT_ENOUGH_EVIDENCE']).toContain(v.label);
    const all = [...v.evidence.supports, ...v.evidence.refutes, ...v.evidence.neutral];
    expect(all).toHaveLength(2);
    for (const e of all) expect(e.reason).toBeTruthy();
  });
});
