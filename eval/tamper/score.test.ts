import { describe, expect, it } from 'vitest';
import { scoreTampered, type ClaimOutcome } from './score';

const o = (
  changed: boolean,
  predicted: ClaimOutcome['predicted'],
  kind: string | null = changed ? 'number' : null,
  parts = 1,
): ClaimOutcome => ({
  doc: 'd',
  sentence: 's',
  changed,
  kind,
  predicted,
  parts,
  ms: 100,
});

describe('scoreTampered', () => {
  it('counts REFUTED as a flag: precision over flags, recall over changed sentences (a sentence not taken as a claim is missed)', () => {
    const s = scoreTampered(
      [
        o(true, 'REFUTED'),
        o(true, 'NOT_ENOUGH_EVIDENCE', 'date'),
        o(true, null, 'name'),
        o(false, 'SUPPORTED', null, 2),
        o(false, 'REFUTED'),
        o(false, 'SUPPORTED'),
        o(false, 'MIXED'),
      ],
      [3, 5],
    );
    expect(s).toMatchObject({ articles: 2, changed: 3, unchanged: 4, flags: 2, precision: 0.5, recall: 0.3333 });
    expect(s.unchangedRefuted).toBe(0.25);
    expect(s.unchangedSupported).toBe(0.5);
    expect(s.compound).toEqual({ claims: 6, split: 1 });
    expect(s.recallByKind).toEqual({ date: { n: 1, recall: 0 }, name: { n: 1, recall: 0 }, number: { n: 1, recall: 1 } });
    expect(s.latency.articleMeanSeconds).toBe(4);
  });
});
