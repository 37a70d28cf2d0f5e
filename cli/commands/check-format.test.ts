import { describe, expect, it } from 'vitest';
import type { ClaimResult } from '../../check';
import { titled } from './check';
import { formatClaim, formatSummary } from './check-format';

const evidence = {
  snippetId: 1,
  sentence: 'The port handled 4.1 million containers in 2023.',
  title: 'Port year',
  url: 'https://coverage.example/port',
  source: 'Coverage Wire',
  publishedAt: '2024-03-01T09:00:00.000Z',
  stance: 'refutes' as const,
  confidence: 0.9,
  weight: 1,
  reason: '4.1 million here, 4.2 million in the claim',
  details: [{ kind: 'number' as const, status: 'contradicted' as const, claim: '4.2 million', evidence: '4.1 million' }],
};
const part = {
  label: 'REFUTED' as const,
  status: 'ok' as const,
  confidence: 0.9,
  reason: null,
  decidedBy: evidence,
  evidence: { supports: [], refutes: [evidence] },
  sources: [],
  ms: 1,
};
const claim: ClaimResult = {
  id: 0,
  sentence: 0,
  text: 'It handled 4.2 million containers in 2023, while costs fell 2%.',
  standalone: 'The port handled 4.2 million containers in 2023, while costs fell 2%.',
  resolutions: [{ from: 'It', to: 'The port' }],
  parts: ['The port handled 4.2 million containers in 2023.', 'Costs fell 2%.'],
  details: [],
  label: 'REFUTED',
  outcome: 'refuted',
  results: [
    { ...part, text: 'The port handled 4.2 million containers in 2023.' },
    { ...part, text: 'Costs fell 2%.', label: 'NOT_ENOUGH_EVIDENCE', decidedBy: null, reason: 'nothing in the coverage matches it' },
  ],
  decidedBy: evidence,
  ms: 2,
};

describe('quin check output', () => {
  it('shows a claim, how it was read, each part with the sentence that decides it and what differs', () => {
    expect(formatClaim(claim, false)).toBe(
      [
        '1. [Refuted] It handled 4.2 million containers in 2023, while costs fell 2%.',
        '   read as: The port handled 4.2 million containers in 2023, while costs fell 2%.',
        '    [Refuted] The port handled 4.2 million containers in 2023.',
        '      “The port handled 4.1 million containers in 2023.” — 4.1 million here, 4.2 million in the claim',
        '      differs: number: 4.2 million in the claim, 4.1 million here',
        '      Coverage Wire, 2024-03-01 · https://coverage.example/port',
        '    [Not enough evidence] Costs fell 2%.',
        '      nothing in the coverage matches it',
        '',
      ].join('\n'),
    );
    expect(
      formatSummary(
        { claims: 1, parts: 2, supported: 0, refuted: 1, notSettled: 0, sentences: 1, skipped: {}, seconds: 1.5, firstVerdictSeconds: 0.7 },
        false,
      ),
    ).toBe('\n1 claim: 0 supported, 1 refuted, 0 not settled (2 parts checked in 1.5 s, first verdict after 0.7 s)\n');
  });

  it('takes a file’s short first line before a blank line as its title, and only that', () => {
    expect(titled('Port sets record\n\nThe port handled 4.2 million containers.')).toEqual({
      title: 'Port sets record',
      text: 'The port handled 4.2 million containers.',
    });
    expect(titled('The port handled 4.2 million containers.\n\nCosts fell.')).toEqual({
      text: 'The port handled 4.2 million containers.\n\nCosts fell.',
    });
    expect(titled('One paragraph only')).toEqual({ text: 'One paragraph only' });
  });
});
