import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../lib/random';
import { sharedLexicon } from '../../ranking/verdict';
import { compare, prepareClaim } from '../../ranking/verdict/details/compare';
import { scoreSwaps, type SwapOutcome } from './evaluate';
import { claimFrom, namePool, swapsOf, type SwapKind } from './swap';

const lex = sharedLexicon();
const article = [
  'Care International aid worker Margaret Hassan was abducted in Baghdad last month.',
  'Her husband Tahseen Ali Hassan appealed for her release from Amman.',
  'Prime Minister Tony Blair said the kidnapping was an act of terror.',
];
const pool = { ...namePool(article, lex, ['Basra', 'Mosul']) };
const byKind = (s: string, seed = 1) =>
  Object.fromEntries(swapsOf(s, pool, lex, mulberry32(seed)).map((x) => [x.kind, x])) as Record<
    SwapKind,
    ReturnType<typeof swapsOf>[number]
  >;

describe('one detail changed, by kind', () => {
  it('a place for another place, and the details stage sees exactly that place contradicted', () => {
    const s = 'Margaret Hassan was abducted in Baghdad last month.';
    const place = byKind(s).place!;
    expect(place.from).toBe('Baghdad');
    expect(['Basra', 'Mosul', 'Amman']).toContain(place.to);
    const checks = compare(prepareClaim(place.text, lex), s, lex).checks.filter((c) => c.status === 'contradicted');
    expect(checks.map((c) => [c.kind, c.claim, c.evidence])).toEqual([['place', place.to, 'Baghdad']]);
  });

  it('amounts, ordinals, scores, dates and directions change in the style they were written', () => {
    const k = byKind('Middlesbrough beat Lazio 2-0 in the third round on Tuesday as profits rose 5% in 2004.');
    expect(k.score?.to).toMatch(/^\d-\d$/);
    expect(k.score?.to).not.toBe('2-0');
    expect(k.ordinal?.to).toMatch(/^(first|second|fourth|fifth)$/);
    expect(k.date?.from).toMatch(/^(Tuesday|2004)$/);
    expect(k.direction).toBeDefined();
    expect(k.number?.from).toBe('5%');
    for (const x of Object.values(k))
      expect(x.text).not.toBe('Middlesbrough beat Lazio 2-0 in the third round on Tuesday as profits rose 5% in 2004.');
  });

  it('an outcome turns round ("beat" → "lost to"), a negation is added or removed, the roles are swapped', () => {
    const k = byKind('Chelsea beat Arsenal in the final.');
    expect(k.direction?.text).toBe('Chelsea lost to Arsenal in the final.');
    expect(k.roles?.text).toBe('Arsenal beat Chelsea in the final.');
    expect(byKind('The bank did not raise rates.').negation?.text).toBe('The bank raised rates.');
  });

  it('a claim a reader would write from a sentence: its core, no attribution', () => {
    const c = claimFrom('Margaret Hassan was abducted in Baghdad last month, officials said.', mulberry32(3));
    expect(c?.text).toMatch(/^Margaret Hassan was abducted in Baghdad/);
    expect(c?.text).not.toMatch(/officials said/);
  });
});

describe('the detail-swap scores', () => {
  const out = (kind: SwapOutcome['kind'], predicted: SwapOutcome['predicted'], ms = 100): SwapOutcome => ({
    id: `${kind}-${predicted}`,
    claim: '',
    label: kind === 'unchanged' ? 'SUPPORTED' : 'REFUTED',
    kind,
    corpus: 'bbc',
    doc: 'x',
    sentence: '',
    predicted,
    confidence: 0.5,
    ms,
  });
  it('REFUTED recall and false → SUPPORTED per kind; the unchanged claims the other way round; latency quantiles', () => {
    const s = scoreSwaps([
      out('unchanged', 'SUPPORTED', 100),
      out('unchanged', 'REFUTED', 300),
      out('place', 'REFUTED', 200),
      out('place', 'SUPPORTED', 400),
      out('number', 'NOT_ENOUGH_EVIDENCE', 500),
    ]);
    expect(s.by_kind.place).toEqual({ n: 2, recall: 0.5, wrong: 0.5, abstained: 0 });
    expect(s.by_kind.unchanged).toEqual({ n: 2, recall: 0.5, wrong: 0.5, abstained: 0 });
    expect(s.changed).toEqual({ n: 3, recall: 0.3333, wrong: 0.3333, abstained: 0.3333 });
    expect(s.latency_ms).toEqual({ p50: 300, p95: 500, mean: 300 });
  });
});
