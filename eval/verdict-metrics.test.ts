import { describe, expect, it } from 'vitest';
import { classification, formatRiskCoverage, riskCoverage, verdictMetrics, type Prediction } from './verdict-metrics';

const LABELS = ['SUPPORTED', 'REFUTED', 'NOT_ENOUGH_EVIDENCE'] as const;
const COMMITTED = ['SUPPORTED', 'REFUTED', 'MIXED'] as const;
const MIXED_AS_NEI = { MIXED: 'NOT_ENOUGH_EVIDENCE' };
const p = (gold: string, predicted: string, confidence: number): Prediction => ({ gold, predicted, confidence });

// Ten claims, checked by hand below.
const items: Prediction[] = [
  p('SUPPORTED', 'SUPPORTED', 0.9), // correct commit
  p('SUPPORTED', 'REFUTED', 0.8), // a true claim called false
  p('SUPPORTED', 'NOT_ENOUGH_EVIDENCE', 0.7), // abstains
  p('SUPPORTED', 'REFUTED', 0.4), // another
  p('REFUTED', 'REFUTED', 0.95), // correct commit
  p('REFUTED', 'SUPPORTED', 0.6), // wrong commit
  p('REFUTED', 'MIXED', 0.5), // wrong commit (scored as NEI)
  p('NOT_ENOUGH_EVIDENCE', 'MIXED', 0.3), // correct commit (MIXED scored as NEI)
  p('NOT_ENOUGH_EVIDENCE', 'NOT_ENOUGH_EVIDENCE', 0.99), // abstains, correct
  p('NOT_ENOUGH_EVIDENCE', 'SUPPORTED', 0.85), // wrong commit
];

describe('verdictMetrics', () => {
  const m = verdictMetrics(items, {
    labels: LABELS,
    committed: COMMITTED,
    scoreAs: MIXED_AS_NEI,
    shown: ['MIXED'],
    flip: { from: 'SUPPORTED', to: 'REFUTED' },
  });

  it('shows MIXED in the confusion matrix but scores it as NOT_ENOUGH_EVIDENCE', () => {
    expect(m.confusion.REFUTED).toEqual({ SUPPORTED: 1, REFUTED: 1, NOT_ENOUGH_EVIDENCE: 0, MIXED: 1 });
    expect(m.confusion.NOT_ENOUGH_EVIDENCE).toEqual({ SUPPORTED: 1, REFUTED: 0, NOT_ENOUGH_EVIDENCE: 1, MIXED: 1 });
    // Correct after mapping: items 0, 4, 7, 8 → 4 of 10.
    expect(m.accuracy).toBe(0.4);
    // SUPPORTED: tp 1, fp 2, fn 3 → 2/(2+2+3) = 2/7; REFUTED: tp 1, fp 2, fn 2 → 2/6 = 1/3;
    // NEI: tp 2 (items 7, 8), fp 2 (items 2, 6), fn 1 (item 9) → 4/7. Mean = (2/7 + 1/3 + 4/7)/3 = 25/63.
    expect(m.macro_f1).toBe(0.3968);
    expect(m.per_label.NOT_ENOUGH_EVIDENCE).toEqual({ precision: 0.5, recall: 0.6667, f1: 0.5714, support: 3 });
  });

  it('gives the precision of each committed label and of all commits', () => {
    expect(m.precision_committed).toEqual({
      SUPPORTED: { n: 3, correct: 1, precision: 0.3333 },
      REFUTED: { n: 3, correct: 1, precision: 0.3333 },
      MIXED: { n: 2, correct: 1, precision: 0.5 },
    });
    expect(m.committed).toEqual({ n: 8, correct: 3, precision: 0.375, coverage: 0.8 });
  });

  it('counts true claims called false', () => {
    expect(m.flipped).toEqual({ from: 'SUPPORTED', to: 'REFUTED', n: 2, of: 4, rate: 0.5 });
  });

  it('ranks commits by confidence for the risk–coverage table; unreachable levels have no precision', () => {
    // Commits by confidence: R✓0.95, S✓0.9, S✗0.85, R✗0.8, S✗0.6, M✗0.5, R✗0.4, M✓0.3.
    const rows = Object.fromEntries(m.risk_coverage.map((r) => [r.coverage, r]));
    expect(rows[0.1]).toEqual({ coverage: 0.1, committed: 1, threshold: 0.95, precision: 1 });
    expect(rows[0.2]).toEqual({ coverage: 0.2, committed: 2, threshold: 0.9, precision: 1 });
    expect(rows[0.4]).toEqual({ coverage: 0.4, committed: 4, threshold: 0.8, precision: 0.5 });
    expect(rows[0.8]).toEqual({ coverage: 0.8, committed: 8, threshold: 0.3, precision: 0.375 });
    expect(rows[0.9]).toEqual({ coverage: 0.9, committed: 8, threshold: null, precision: null });
    expect(rows[1]!.precision).toBeNull();
  });

  it('breaks confidence ties by input order and handles an empty set', () => {
    const tied = [p('A', 'A', 0.5), p('A', 'B', 0.5)];
    expect(riskCoverage(tied, ['A', 'B'], {}, [0.5, 1])).toEqual([
      { coverage: 0.5, committed: 1, threshold: 0.5, precision: 1 },
      { coverage: 1, committed: 2, threshold: 0.5, precision: 0.5 },
    ]);
    const empty = verdictMetrics([], { labels: LABELS, committed: COMMITTED, flip: { from: 'SUPPORTED', to: 'REFUTED' } });
    expect(empty).toMatchObject({
      n: 0,
      accuracy: null,
      macro_f1: null,
      committed: { n: 0, precision: null, coverage: null },
      flipped: { n: 0, of: 0, rate: null },
    });
    expect(empty.risk_coverage.every((r) => r.precision === null)).toBe(true);
  });

  it('prints the table', () => {
    const lines = formatRiskCoverage(m.risk_coverage);
    expect(lines[0]).toMatch(/coverage\s+committed\s+threshold\s+precision/);
    expect(lines[1]).toMatch(/^\s+10%\s+1\s+0\.9500\s+1\.0000$/);
    expect(lines[10]).toMatch(/100%\s+8\s+–\s+–$/);
  });
});

describe('classification', () => {
  it('adds shown columns without changing the scores', () => {
    const c = classification(['A', 'B'], ['A', 'X'], ['A', 'B'], ['X']);
    expect(c.confusion).toEqual({ A: { A: 1, B: 0, X: 0 }, B: { A: 0, B: 0, X: 1 } });
    expect(c).toMatchObject({ n: 2, accuracy: 0.5, macro_f1: 0.5 });
  });
});
