import { describe, expect, it } from 'vitest';
import type { EvalQuery } from './datasets';
import { EVAL_RUNS, EVAL_SECTIONS, findRuns } from './runs';
import type { Decision } from '../ranking/verdict';
import { claimLabelOf, classification, oracleEvidence, scoreClaims } from './verdict';

const q = (over: Partial<EvalQuery>): EvalQuery => ({
  id: '1',
  text: 'aspirin lowers stroke risk',
  split: 'dev',
  relevant: new Set(),
  evidence: new Map(),
  label: 'NEI',
  ...over,
});

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
    expect(['SUPPORTED', 'REFUTED', 'MIXED', 'NOT_ENOUGH_EVIDENCE'].map((v) => claimLabelOf(v as never))).toEqual([
      'SUPPORT',
      'CONTRADICT',
      'NEI',
      'NEI',
    ]);
  });

  it('takes gold rationale sentences for the oracle, and the closest cited sentences for NEI claims', () => {
    const corpus = new Map([
      ['10', ['Aspirin lowers the risk of stroke.', 'Methods were standard.', 'Stroke risk fell.']],
      ['11', ['Unrelated sentence.', 'Aspirin and stroke risk were studied.']],
    ]);
    expect(oracleEvidence(q({ evidence: new Map([['10', new Set([2, 0])]]) }), corpus)).toEqual([
      ['Aspirin lowers the risk of stroke.', 'Stroke risk fell.'],
    ]);
    expect(oracleEvidence(q({ relevant: new Set(['11']) }), corpus)).toEqual([
      ['Aspirin and stroke risk were studied.', 'Unrelated sentence.'],
    ]);
  });

  it('reports committed precision, true claims called false and the risk–coverage table', () => {
    const d = (label: Decision['label'], confidence: number): Decision => ({
      label,
      confidence,
      probabilities: { SUPPORTED: 0, REFUTED: 0, MIXED: 0, NOT_ENOUGH_EVIDENCE: 0 },
    });
    const items = [
      { query: q({ label: 'SUPPORT' }), decision: d('SUPPORTED', 0.9) },
      { query: q({ label: 'SUPPORT' }), decision: d('REFUTED', 0.7) },
      { query: q({ label: 'NEI' }), decision: d('MIXED', 0.96) },
      { query: q({ label: 'NEI', split: 'train' }), decision: d('NOT_ENOUGH_EVIDENCE', 0.8) },
    ];
    const r = scoreClaims(items);
    // Commits: SUPPORTED ✓, REFUTED ✗ (a true claim called false), MIXED scored as NEI ✓.
    expect(r.committed).toMatchObject({ n: 3, correct: 2, precision: 0.6667, coverage: 0.75 });
    expect(r.precision_committed.REFUTED).toMatchObject({ n: 1, correct: 0, precision: 0 });
    expect(r.risk_coverage.find((x) => x.coverage === 0.5)).toMatchObject({ committed: 2, threshold: 0.9, precision: 1 });
    expect(r.by_split.train.n).toBe(1);
    expect(r.accuracy).toBe(0.75);
  });

  it('is registered: hybrid+rerank runs and the verdict section', () => {
    expect(EVAL_RUNS.map((r) => r.name)).toContain('hybrid+rerank');
    expect(findRuns(undefined).map((r) => r.name)).toContain('hybrid+rerank');
    expect(EVAL_SECTIONS.map((s) => s.name)).toContain('verdict');
  });
});
