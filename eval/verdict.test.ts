import { describe, expect, it } from 'vitest';
import type { EvalQuery } from './datasets';
import { EVAL_RUNS, EVAL_SECTIONS, findRuns } from './runs';
import { claimLabelOf, classification, commitsOfJudged, oracleEvidence, sweepThresholds } from './verdict';

const q = (over: Partial<EvalQuery>): EvalQuery => ({ id: '1', text: 'aspirin lowers stroke risk', split: 'dev', relevant: new Set(), evidence: new Map(), label: 'NEI', ...over });

describe('verdict evaluation', () => {
  it('computes accuracy, macro-F1 and the confusion matrix (checked by hand)', () => {
    const gold = ['SUPPORT', 'SUPPORT', 'CONTRADICT', 'NEI', 'NEI'];
    const pred = ['SUPPORT', 'NEI', 'CONTRADICT', 'NEI', 'SUPPORT'];
    const c = classification(gold, pred, ['SUPPORT', 'CONTRADICT', 'NEI']);
    // F1: SUPPORT 2·1/(2+1+1) = 0.5, CONTRADICT 1, NEI 2·1/(2+1+1) = 0.5 → 2/3.
    expect(c).toMatchObject({ n: 5, accuracy: 0.6, macro_f1: 0.6667 });
    expect(c.confusion.SUPPORT).toEqual({ SUPPORT: 1, CONTRADICT: 0, NEI: 1 });
    expect(classification([], [], ['A']).accuracy).toBeNull();
  });

  it('maps verdicts to SciFact labels (MIXED and abstentions are NEI)', () => {
    expect(['SUPPORTED', 'REFUTED', 'MIXED', 'NOT_ENOUGH_EVIDENCE'].map((v) => claimLabelOf(v as never))).toEqual(['SUPPORT', 'CONTRADICT', 'NEI', 'NEI']);
  });

  it('takes gold rationale sentences for the oracle, and the closest cited sentences for NEI claims', () => {
    const corpus = new Map([
      ['10', ['Aspirin lowers the risk of stroke.', 'Methods were standard.', 'Stroke risk fell.']],
      ['11', ['Unrelated sentence.', 'Aspirin and stroke risk were studied.']],
    ]);
    expect(oracleEvidence(q({ evidence: new Map([['10', new Set([2, 0])]]) }), corpus)).toEqual([['Aspirin lowers the risk of stroke.', 'Stroke risk fell.']]);
    expect(oracleEvidence(q({ relevant: new Set(['11']) }), corpus)).toEqual([['Aspirin and stroke risk were studied.', 'Unrelated sentence.']]);
  });

  it('chooses abstention thresholds on the dev split only', () => {
    const j = (label: string, e: number, c: number, split: 'dev' | 'train' = 'dev') => ({
      query: q({ label, split }),
      judged: [{ probs: { entailment: e, contradiction: c, neutral: 1 - e - c }, relevance: 1, recency: 1 }],
    });
    const items = [j('SUPPORT', 0.6, 0.1), j('NEI', 0.3, 0.02), j('CONTRADICT', 0.1, 0.7), j('NEI', 0.2, 0.02), j('SUPPORT', 0.25, 0.02, 'train')];
    // The train claim (SUPPORT at 0.25) conflicts with the dev NEI claim at 0.3: a perfect dev score
    // exists only because the train split is left out.
    expect(sweepThresholds(items).dev_macro_f1).toBe(1);
    expect(sweepThresholds(items.map((x) => ({ ...x, query: { ...x.query, split: 'dev' as const } }))).dev_macro_f1).toBeLessThan(1);
  });

  it('reports committed precision and the risk–coverage table of the aggregated verdicts', () => {
    const j = (label: string, e: number, c: number) => ({ query: q({ label }), judged: [{ probs: { entailment: e, contradiction: c, neutral: 1 - e - c }, relevance: 1, recency: 1 }] });
    // Thresholds: commit at 0.5; MIXED when the weaker side reaches 0.9 of the stronger.
    const t = { minEvidence: 0.5, mixedRatio: 0.9, refuteWeight: 1 };
    const items = [j('SUPPORT', 0.9, 0.05), j('CONTRADICT', 0.7, 0.2), j('NEI', 0.5, 0.46), j('NEI', 0.1, 0.1)];
    // Verdicts: SUPPORTED 0.9 ✓, SUPPORTED 0.7 ✗, MIXED 0.96 (scored NEI ✓), NOT_ENOUGH_EVIDENCE.
    const r = commitsOfJudged(items, t);
    expect(r.committed).toEqual({ n: 3, correct: 2, precision: 0.6667, coverage: 0.75 });
    expect(r.precision_committed.SUPPORTED).toEqual({ n: 2, correct: 1, precision: 0.5 });
    expect(r.risk_coverage.find((x) => x.coverage === 0.5)).toEqual({ coverage: 0.5, committed: 2, threshold: 0.9, precision: 1 });
    expect(r.risk_coverage.find((x) => x.coverage === 1)!.precision).toBeNull();
  });

  it('is registered: hybrid+rerank runs and the verdict section', () => {
    expect(EVAL_RUNS.map((r) => r.name)).toContain('hybrid+rerank');
    expect(findRuns(undefined).map((r) => r.name)).toContain('hybrid+rerank');
    expect(EVAL_SECTIONS.map((s) => s.name)).toContain('verdict');
  });
});
