import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NliClassifier, type NliProbs } from '../../lib/models';
import type { StageContext } from '../stages';
import type { SearchResult } from '../types';
import { checkAggregator, claimFeatures, decide, type Aggregator, type JudgedItem } from './decide';
import { compare, prepareClaim } from './details/compare';
import { sharedLexicon } from './index';
import { DEFAULT_READING, read, READING_FEATURES, StanceJudge, type Reading } from './judge';
import { sameClaim } from './same-claim';
import { evidenceItems, NliVerdictStage, pickEvidence, refersBack } from './stage';

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
    // No details given: the detail features are 0.
    expect(f.map((x) => +x.toFixed(4))).toEqual([0.8, 0.3, 0.6, 0.2667, 0.8, 0.1, 0.9, 0.5, 0.5, 0.24, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const withCues = claimFeatures([
      item(0.2, 0.6, { cues: { contra: 0.7, sure: 0.35, confirmed: 0, kinds: { place: 0.35 } } }),
      item(0.5, 0.1, { cues: { contra: 0, sure: 0, confirmed: 0.9 } }),
    ]);
    expect(withCues.slice(10)).toEqual([0.7, 0.35, 0.9, 0, 0.35, 0, 0, 0, 0]);
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
      version: 5,
      depth: 3,
      sentences: 2,
      passages: false,
      judged: 4,
      reading: DEFAULT_READING,
      features: ['max_sup', 'max_ref'],
      coef: [
        [6, 0],
        [0, 6],
        [0, 0],
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

  it('never contradicts what it shows: a side commits only when a shown item reads that way, MIXED only with both', () => {
    // Rows SUPPORTED, REFUTED, NEI over mean_sup and mean_ref: many half-supporting sentences pool to a confident SUPPORTED…
    const agg: Aggregator = {
      version: 5,
      depth: 3,
      sentences: 2,
      passages: false,
      judged: 4,
      reading: DEFAULT_READING,
      features: ['mean_sup', 'mean_ref'],
      coef: [
        [12, 0],
        [0, 12],
        [0, 0],
      ],
      intercept: [0, 0, 2],
      commit: 0.6,
      mixed: 0.3,
    };
    const leaning = [item(0.45, 0.05), item(0.45, 0.05, { rank: 1 }), item(0.45, 0.05, { rank: 2 })];
    expect(claimFeatures(leaning)[2]).toBeCloseTo(0.45);
    // …but none of them reads as supporting on its own (each is more likely neither): not enough evidence, and it says why.
    expect(decide(leaning, agg, SETTINGS)).toMatchObject({
      label: 'NOT_ENOUGH_EVIDENCE',
      reason: expect.stringMatching(/no sentence shown supports it on its own/),
    });
    expect(decide([...leaning, item(0.7, 0.1, { rank: 3 })], agg, SETTINGS).label).toBe('SUPPORTED');
    // Strong on both sides pooled, but only one side shown: never MIXED.
    const oneSided = [item(0.45, 0.4), item(0.45, 0.4, { rank: 1 })];
    expect(decide(oneSided, agg, { ...SETTINGS, commit: 0.97, mixed: 0.3 }).label).toBe('NOT_ENOUGH_EVIDENCE');
  });
});

describe('verdict files are read by name', () => {
  it('an aggregator whose features the code does not compute, or whose rows do not fit them, is MODEL_INVALID', () => {
    const agg: Aggregator = {
      version: 5,
      depth: 3,
      sentences: 2,
      passages: false,
      judged: 4,
      reading: DEFAULT_READING,
      features: ['max_sup'],
      coef: [[1], [1], [1]],
      intercept: [0, 0, 0],
      commit: 0.5,
      mixed: 0.8,
    };
    expect(checkAggregator(agg)).toBe(agg);
    expect(() => checkAggregator({ ...agg, features: ['max_sup_v0'] })).toThrow(/features the code does not compute: max_sup_v0/);
    expect(() => checkAggregator({ ...agg, coef: [[1, 2], [1], [1]] })).toThrow(/one weight per feature/);
  });

  it('the aggregator reads its features by name, whatever their order in the file', () => {
    const base = {
      version: 5 as const,
      depth: 3,
      sentences: 2,
      passages: false,
      judged: 4,
      reading: DEFAULT_READING,
      intercept: [0, 0, 0],
      commit: 0.5,
      mixed: 0.8,
    };
    const a = decide(
      [item(0.9, 0.05)],
      {
        ...base,
        features: ['max_sup', 'max_ref'],
        coef: [
          [6, 0],
          [0, 6],
          [0, 0],
        ],
      },
      SETTINGS,
    );
    const b = decide(
      [item(0.9, 0.05)],
      {
        ...base,
        features: ['max_ref', 'max_sup'],
        coef: [
          [0, 6],
          [6, 0],
          [0, 0],
        ],
      },
      SETTINGS,
    );
    expect(b.probabilities).toEqual(a.probabilities);
  });
});

describe('the model and the details read each sentence together', () => {
  const lex = sharedLexicon();
  const cmp = (claim: string, evidence: string) => compare(prepareClaim(claim, lex), evidence, lex);
  const p = { supports: 0.7, refutes: 0.1, neutral: 0.2 };

  it('relevance before stance: a text about too little of the claim takes none', () => {
    const off = cmp('The Moon landing was faked', "What's For Dinner When Kim Jong Un Meets South Korea's Moon Jae-in");
    expect(read(p, off, DEFAULT_READING)).toEqual({ supports: 0, refutes: 0, neutral: 1 });
    expect(read(p, off, { ...DEFAULT_READING, topic: 0 })).toEqual(p);
  });

  it('a changed detail is never support; the rest reads as it was read', () => {
    const basra = cmp('Margaret Hassan was kidnapped in Basra', 'Margaret Hassan was abducted in Baghdad last month.');
    const q = read(p, basra, DEFAULT_READING);
    expect([q.supports, q.refutes, q.neutral].map((x) => +x.toFixed(4))).toEqual([0, 0.3333, 0.6667]);
    expect(read(p, basra, { ...DEFAULT_READING, details: false })).toEqual(p);
    const baghdad = cmp('Margaret Hassan was kidnapped in Baghdad', 'Margaret Hassan was abducted in Baghdad last month.');
    expect(read(p, baghdad, DEFAULT_READING)).toEqual(p);
  });

  it('a fitted combiner weighs the model and the details by name', () => {
    const c = cmp('Margaret Hassan was kidnapped in Baghdad', 'Margaret Hassan was abducted in Baghdad last month.');
    // Rows supports, refutes, neither: all_confirmed alone decides here.
    const reading: Reading = {
      topic: 0.5,
      details: true,
      combiner: { features: ['all_confirmed'], coef: [[4], [0], [0]], intercept: [0, 0, 1] },
    };
    const q = read({ supports: 0.1, refutes: 0.1, neutral: 0.8 }, c, reading);
    expect(q.supports).toBeCloseTo(Math.exp(4) / (Math.exp(4) + 1 + Math.exp(1)), 6);
    expect(READING_FEATURES).toContain('all_confirmed');
  });

  it('judges with the model; "Kinsey" against a sentence about "Sideways" is never support, and says why', async () => {
    const nli = { id: 'fake-nli', classify: async (pairs: [string, string][]) => pairs.map(() => P(0.8, 0.05)) };
    const judge = new StanceJudge(nli, sharedLexicon());
    const [j] = await judge.judge('The film Kinsey is up for six Independent Spirit Awards', [
      'The film Sideways is up for six Independent Spirit Awards, including best film.',
    ]);
    expect(j!.model.supports).toBeCloseTo(0.8);
    expect(j!.stance).not.toBe('supports');
    expect(j!.reason).toMatch(/Sideways/);
    expect(j!.reason).not.toMatch(/says the same/);
  });

  it('evidence whose relevance is given (a labelled pair, a gold rationale) is read without the topic gate', async () => {
    const nli = { id: 'fake-nli', classify: async (pairs: [string, string][]) => pairs.map(() => P(0.8, 0.05)) };
    const judge = new StanceJudge(nli, sharedLexicon(), { topic: 0.5, details: false });
    const claim = 'Global warming is driving polar bears toward extinction';
    const evidence = 'Their numbers fell by a third over three decades as the sea ice they hunt on shrank.';
    const [gated] = await judge.judge(claim, [evidence]);
    const [given] = await judge.givenEvidence().judge(claim, [evidence]);
    expect(gated!.coverage).toBeLessThan(0.5);
    expect(gated!.stance).toBe('neutral');
    expect(given!.stance).toBe('supports');
    expect(judge.givenEvidence().reading).toEqual({ topic: 0, details: false });
  });
});

describe('evidence worth judging', () => {
  it('a sentence that refers back is read with its title and the sentence before', () => {
    expect(refersBack('The firm said profits doubled.')).toBe(true);
    expect(refersBack('They voted against the law on Tuesday.')).toBe(true);
    expect(refersBack('On Monday, it said profits doubled.')).toBe(true);
    expect(refersBack('Tesco said profits doubled.')).toBe(false);
    const r = result(1, 1, 1, ['Tesco reported its results on Monday.', 'The company said profits doubled.']);
    r.title = 'Tesco profits soar';
    r.evidence = [
      { text: 'The company said profits doubled.', start: 38, end: 71, score: 0.9 },
      { text: 'Tesco reported its results on Monday.', start: 0, end: 37, score: 0.5 },
    ];
    const items = evidenceItems([r], 1, 2);
    expect(items[0]).toMatchObject({
      sentence: 'The company said profits doubled.',
      context: 'Tesco profits soar. Tesco reported its results on Monday.',
    });
    expect(items[1]!.context).toBeUndefined();
  });

  it('judges the sentences that answer the claim best, across results, at most two from one result', () => {
    const items = [0, 0, 0, 1, 2].map((rank) => ({ rank, relevance: rank === 2 ? 0.2 : 1 }));
    const probs = [S(0.9, 0), S(0.8, 0), S(0.7, 0), S(0.1, 0.1), S(0.95, 0)];
    // Result 0's third sentence waits behind its two best; result 2's strong sentence is weighed by its low relevance.
    expect(pickEvidence(items, probs, 3)).toEqual([0, 1, 4]);
    expect(pickEvidence(items, probs, 5)).toEqual([0, 1, 4, 3]);
  });

  it('a day of the month is not an amount: "Dec. 9" does not contradict "57"', () => {
    const c = compare(prepareClaim('Hugh Grant married at 57', sharedLexicon()), 'The vote is on Dec. 9 in Paris.', sharedLexicon());
    expect(c.checks.find((x) => x.kind === 'number')?.status).toBe('unmentioned');
  });
});

describe('a published fact-check is shown only for the same claim', () => {
  const judge = new StanceJudge(
    { id: 'fake-nli', classify: async (pairs: [string, string][]) => pairs.map(() => P(0.85, 0.05)) },
    sharedLexicon(),
  );
  it('same entities, numbers and words both ways', async () => {
    expect(await sameClaim(judge, 'Hugh Grant married at 57', 'Hugh Grant married at 57')).toEqual({ same: true, reason: '' });
    const older = await sameClaim(judge, 'Hugh Grant married at 67', 'Hugh Grant married at 57');
    expect(older).toMatchObject({ same: false, reason: expect.stringMatching(/57.*67|67.*57/) });
    expect((await sameClaim(judge, 'Hugh Grant married at 57', 'Hugh Grant divorced at 57')).same).toBe(false);
    expect((await sameClaim(judge, 'Hugh Grant married at 57', 'Colin Firth married at 57')).same).toBe(false);
  });
});

describe('NliVerdictStage', () => {
  it('reads the best sentences of the top results, relative relevance before decay, no duplicates', () => {
    const rs = [result(1, 0.8, 0.5, ['a.', 'b.', 'c.']), result(2, 0.4, 1, ['b.', 'd.']), result(3, 0.1, 1, ['e.'])];
    const items = evidenceItems(rs, 2, 2);
    expect(items.map((i) => i.sentence)).toEqual(['a.', 'b.', 'd.']);
    expect(items.map((i) => +i.relevance.toFixed(3))).toEqual([1, 1, 0.25]);
  });

  it('with passages, also reads each result’s sentences together, in text order, titled where the first refers back', () => {
    const r = result(1, 1, 1, []);
    r.title = 'Tesco profits soar';
    r.evidence = [
      { text: 'Profits doubled to two billion.', start: 40, end: 65, score: 0.9 },
      { text: 'It reported its results on Monday.', start: 0, end: 34, score: 0.5 },
      { text: 'Shares rose.', start: 70, end: 82, score: 0.1 },
    ];
    const items = evidenceItems([r, result(2, 0.5, 1, ['One sentence only.'])], 2, 2, true);
    expect(items.map((i) => [i.kind, i.sentence, i.context ?? null])).toEqual([
      ['sentence', 'Profits doubled to two billion.', null],
      ['sentence', 'It reported its results on Monday.', 'Tesco profits soar.'],
      ['passage', 'It reported its results on Monday. Profits doubled to two billion.', 'Tesco profits soar.'],
      ['sentence', 'One sentence only.', null],
    ]);
    expect(evidenceItems([r], 1, 2).every((i) => i.kind === 'sentence')).toBe(true);
  });

  it('groups the judged evidence by stance with a reason each; the counts are what is listed; the claim is the hypothesis', async () => {
    const seen: string[] = [];
    const nli = {
      id: 'fake-nli',
      classify: async (pairs: [string, string][]) =>
        pairs.map(([p, h]) => {
          seen.push(h);
          return p.includes('fell') ? P(0.05, 0.9) : p.includes('rose') ? P(0.9, 0.05) : P(0.1, 0.1);
        }),
    };
    const stage = new NliVerdictStage(
      new StanceJudge(nli, sharedLexicon()),
      { depth: 3, sentences: 2, passages: false, judged: 3, ...SETTINGS },
      null,
    );
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
      ['Profits at Tesco rose 5% last year.', 'states every detail: Tesco, profits, rose'],
    ]);
    expect(v.evidence.refutes.map((e) => e.reason)).toEqual(["'fell' here, 'rose' in the claim"]);
    // "The weather was mild." is about nothing the claim says: not shown at all.
    expect(v.evidence.neutral).toEqual([]);
    expect(v.details).toEqual([
      { kind: 'name', text: 'Tesco' },
      { kind: 'direction', text: 'profits' },
      { kind: 'direction', text: 'rose' },
    ]);
    expect(v.evidence.supports[0]!.details).toEqual([
      { kind: 'name', status: 'confirmed', claim: 'Tesco', evidence: 'Tesco' },
      { kind: 'direction', status: 'confirmed', claim: 'profits', evidence: 'Profits' },
      { kind: 'direction', status: 'confirmed', claim: 'rose', evidence: 'rose' },
    ]);
    // Its support (5%) goes: it reads 0.9 : 0.05 refutes to neither.
    expect(v.evidence.refutes[0]!.weight).toBeCloseTo((0.2 * 0.9) / 0.95, 4);
    expect(v.probabilities?.SUPPORTED).toBe(0.9);
  });

  it('judges in full only the sentences it picked, and lists exactly those', async () => {
    const nli = {
      id: 'fake-nli',
      classify: async (pairs: [string, string][]) => pairs.map(([p]) => (p.includes('rose') ? P(0.9, 0.05) : P(0.05, 0.05))),
    };
    const stage = new NliVerdictStage(
      new StanceJudge(nli, sharedLexicon()),
      { depth: 3, sentences: 3, passages: false, judged: 1, ...SETTINGS },
      null,
    );
    const v = await stage.verdict(
      [result(1, 1, 1, ['The weather was mild.', 'Profits at Tesco rose 5%.', 'Shares were flat.'])],
      ctx('Tesco profits rose'),
    );
    const all = [...v.evidence.supports, ...v.evidence.refutes, ...v.evidence.neutral];
    expect(all.map((e) => e.sentence)).toEqual(['Profits at Tesco rose 5%.']);
  });

  it('runs a standard-layout ONNX NLI model (labels in any order) end to end', async () => {
    const nli = await NliClassifier.load(path.join(__dirname, '..', '..', 'lib', 'models', 'fixtures', 'tiny-nli'));
    afterAll(() => nli.close());
    const stage = new NliVerdictStage(
      new StanceJudge(nli, sharedLexicon()),
      { depth: 5, sentences: 2, passages: false, judged: 4, ...SETTINGS },
      null,
    );
    const v = await stage.verdict(
      [result(1, 1, 1, ['the cat sat on the mat.']), result(2, 0.5, 0.5, ['a dog is running.'])],
      ctx('a cat is sitting'),
    );
    expect(['SUPPORTED', 'REFUTED', 'MIXED', 'NOT_ENOUGH_EVIDENCE']).toContain(v.label);
    // "a dog is running." is not about the cat: not shown.
    const all = [...v.evidence.supports, ...v.evidence.refutes, ...v.evidence.neutral];
    expect(all.map((e) => e.sentence)).toEqual(['the cat sat on the mat.']);
    for (const e of all) expect(e.reason).toBeTruthy();
  });
});
