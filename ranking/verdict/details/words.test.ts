import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Lexicon } from './lexicon';
import { quantities, sameAmount } from './quantities';
import { tokenize } from './tokens';
import { align, covered, units } from './words';

// The lexicon the product ships (models/quin-align), read once for the whole file.
const lex = Lexicon.read(path.resolve('models/quin-align/lexicon.json.gz'));

describe('tokens', () => {
  it('keeps offsets, lemmas and marks names and function words', () => {
    const t = tokenize('The UK economy grew by 0.4% in Britain.');
    expect(t.map((x) => x.text)).toEqual(['The', 'UK', 'economy', 'grew', 'by', '0.4', 'in', 'Britain']);
    expect(t[3]!.lemmas).toContain('grow');
    expect(t[0]!.cap).toBe(false); // first word
    expect(t[7]!.cap).toBe(true);
    expect(t[4]!.stop).toBe(true);
    expect('The UK economy grew by 0.4% in Britain.'.slice(t[5]!.start, t[5]!.end)).toBe('0.4');
  });
});

describe('quantities', () => {
  const one = (s: string) => quantities(s)[0]!;
  it('normalises amounts written in different ways', () => {
    expect(sameAmount(one('half a billion dollars'), one('$500m'))).toBe(true);
    expect(sameAmount(one('a fifth of voters'), one('20 per cent of voters'))).toBe(true);
    expect(sameAmount(one('20 pct'), one('20%'))).toBe(true);
    expect(sameAmount(one('$52.3m'), one('52 million dollars'))).toBe(true);
    expect(sameAmount(one('0.4%'), one('4%'))).toBe(false);
  });
  it('tells years, distances and money apart', () => {
    expect(one('in 2004').kind).toBe('year');
    expect(one('the 100m final')).toMatchObject({ kind: 'measure', unit: 'm', value: 100 });
    expect(one('costing £1.2bn')).toMatchObject({ kind: 'money', unit: '£', value: 1.2e9 });
    expect(quantities('one of the best')).toEqual([]);
  });
});

describe('lexicon relations', () => {
  it('finds lemmas, synonyms, more general words and opposites', () => {
    expect(lex.relate(['grew', 'grow'], ['grew', 'grow'])).toBe('exact');
    expect(lex.relate(['rose', 'rise'], ['fell', 'fall'])).toBe('antonym');
    expect(lex.relate(['narrowed', 'narrow'], ['widened', 'widen'])).toBe('antonym');
    expect(lex.relate(['unaffected'], ['affected'])).toBe('antonym');
    expect(lex.relate(['increased', 'increase'], ['rose', 'rise'])).not.toBe('antonym');
    expect(lex.relate(['film'], ['movie'])).toBe('synonym');
    expect(lex.relate(['vehicle'], ['car'])).toBe('hypernym');
    expect(lex.relate(['car'], ['vehicle'])).toBe('hyponym');
    expect(lex.relate(['growth'], ['grow'])).toBe('derived');
  });
  it('reads collocations as one word ("central bank" is what the Fed is)', () => {
    expect(units('The central bank raised rates', lex).map((u) => u.lower)).toContain('central bank');
    const a = align('The central bank raised interest rates', 'The Fed has been raising interest rates since June.', lex);
    expect(covered(a).map((l) => l.claim.lower)).toEqual(['central bank', 'raised', 'interest rates']);
  });
  it('rejects a file that is not a lexicon with a clear error', () => {
    expect(() => Lexicon.read(path.resolve('package.json'))).toThrow(/not a lexicon file/);
  });
});
