import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { align, covered, units } from './align';
import { stanceFeatures } from './features';
import { Lexicon } from './lexicon';
import { quantities, sameAmount } from './quantities';
import { reasonFor } from './reasons';
import { tokenize } from './tokens';

// The lexicon the product ships (models/quin-align), read once for the whole file.
const lex = Lexicon.read(path.resolve('models/quin-align/lexicon.json.gz'));
const features = (claim: string, evidence: string) => stanceFeatures(align(claim, evidence, lex));

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

describe('stance features and reasons', () => {
  const ev = 'The UK economy grew by 0.4% in the three months to September, official figures showed.';
  it('a claim the sentence states: covered, no contradiction cue', () => {
    const f = features('UK economy grew in the three months to September', ev);
    expect(f.values.cov).toBeGreaterThan(0.8);
    expect(f.values.antonym + f.values.neg_mismatch + f.values.num_different).toBe(0);
    expect(reasonFor('supports', f.cues)).toMatch(/^says the same: UK, economy, grew/);
  });
  it('an opposite direction is pointed at', () => {
    const f = features('The UK economy shrank in the three months to September', ev);
    expect(f.values.antonym).toBeGreaterThan(0);
    expect(reasonFor('refutes', f.cues)).toBe("says 'grew' where the claim says 'shrank'");
  });
  it('a different number for the same quantity', () => {
    const f = features('The UK economy grew by 4% in the three months to September', ev);
    expect(f.values.num_different).toBeGreaterThan(0);
    expect(reasonFor('refutes', f.cues)).toBe('0.4% here, 4% in the claim');
  });
  it('a negation on one side only', () => {
    const f = features('The UK economy did not grow in the three months to September', ev);
    expect(f.values.neg_mismatch).toBe(1);
    expect(reasonFor('refutes', f.cues)).toBe("the claim says 'not'; this sentence does not");
    expect(features('UK economy grew', 'The UK economy did not grow, the figures showed.').values.neg_mismatch).toBe(1);
  });
  it('another name in the same role, and roles swapped', () => {
    const f = features('Myskina won the final in Moscow', 'Dementieva won the final in Moscow on Sunday.');
    expect(f.values.name_swap).toBe(1);
    expect(reasonFor('refutes', f.cues)).toBe('names Dementieva where the claim says Myskina');
    const r = features('Chelsea beat Arsenal in the cup', 'Arsenal beat Chelsea in the cup on Saturday.');
    expect(r.values.roles_swapped).toBe(1);
  });
  it('what a neutral sentence lacks, and hedges', () => {
    expect(reasonFor('neutral', features('Google made a profit', 'Google shares rose on Monday.').cues)).toBe("does not mention 'profit'");
    expect(reasonFor('neutral', features('The bank raised rates', 'The bank may raise rates next month.').cues)).toMatch(
      /does not state it as a fact \('may'\)/,
    );
  });
});

describe('cues that read like a careful reader', () => {
  it('bounds and fractions of a percent', () => {
    const f = features('Over two thirds of Russian voters backed Putin', 'More than 70 percent of voters backed Putin.');
    expect(f.values.num_same).toBeGreaterThan(0);
    expect(f.values.num_different).toBe(0);
    expect(quantities('grew by only a tenth of a percent')[0]).toMatchObject({ kind: 'percent', value: 0.1 });
  });
  it('a direction word is not matched through a rare WordNet sense', () => {
    const f = features(
      'AOL gained 464,000 subscribers in the fourth quarter',
      'AOL lost 464,000 subscribers in the fourth quarter and profits were lower.',
    );
    expect(f.values.antonym).toBeGreaterThan(0);
    expect(reasonFor('refutes', f.cues)).toBe("says 'lost' where the claim says 'gained'");
  });
  it('phrasal verbs and implicit negations', () => {
    expect(features('Seattle council voted down the tax', 'The Seattle council passed the tax on Monday.').values.antonym).toBeGreaterThan(
      0,
    );
    expect(
      features('The bank will not pay a dividend this year', 'The bank said it will defer paying a dividend this year.').values
        .neg_mismatch,
    ).toBe(0);
  });
  it('roles swapped across a headline, a longer sentence or a converse purchase; not for symmetric or converse verbs', () => {
    expect(
      features(
        'Democrat Conor Lamb conceded the Pennsylvania House race to Rick Saccone',
        'Republican Rick Saccone Concedes To Conor Lamb In Pennsylvania Congressional Race',
      ).values.roles_swapped,
    ).toBe(1);
    expect(
      features(
        'Czech qualifier Ivo Minar beat Lleyton Hewitt in the Sydney final',
        'Lleyton Hewitt warmed up for the Open with victory over Ivo Minar in the Sydney final.',
      ).values.roles_swapped,
    ).toBe(1);
    const bought = features(
      'Ladbroke bought a 20 pct stake in Central from Carlton',
      'Carlton said it had purchased a 20 pct stake in Central from Ladbroke.',
    );
    expect(bought.values.roles_swapped).toBe(1);
    expect(reasonFor('refutes', bought.cues)).toMatch(/roles the other way round/);
    expect(features('Chelsea drew with Arsenal', 'Arsenal drew with Chelsea on Saturday.').values.roles_swapped).toBe(0);
    expect(features('Britain and France signed the treaty', 'France and Britain signed the treaty.').values.roles_swapped).toBe(0);
    expect(features('Carlton sold the stake to Ladbroke', 'Ladbroke bought the stake from Carlton.').values.roles_swapped).toBe(0);
  });
  it('an opposite wins over a rare WordNet sense; "one second" is an amount; second-largest is not the largest', () => {
    const missed = features(
      'Ministers missed the target of 750,000 adults gaining qualifications',
      'Auditors praised ministers for reaching the benchmark of 750,000 adults gaining qualifications.',
    );
    expect(missed.values.antonym).toBeGreaterThan(0);
    expect(reasonFor('refutes', missed.cues)).toBe("says 'reaching' where the claim says 'missed'");
    const secs = features('The self-driving Uber had just one second to react', 'Self-Driving Uber Had 6 Seconds To React Before Crash');
    expect(secs.values.num_different).toBeGreaterThan(0);
    expect(quantities('one of the cars')).toEqual([]);
    const feta = features("Denmark is Europe's largest feta producer", "Denmark is Europe's second largest producer of feta after Greece.");
    expect(feta.values.antonym).toBeGreaterThan(0);
    expect(reasonFor('refutes', feta.cues)).toBe("says 'second largest' where the claim says 'largest'");
    expect(
      features("Denmark is Europe's second largest feta producer", "Denmark is Europe's second largest producer of feta.").values.antonym,
    ).toBe(0);
  });
  it('headlines in Title Case do not make every word a name', () => {
    const f = features(
      'Some Democrats helped confirm Gina Haspel to lead the CIA',
      'Gina Haspel Confirmed As CIA Director With Aid Of Democrats',
    );
    expect(f.values.roles_swapped).toBe(0);
    expect(f.values.name_swap).toBe(0);
  });
});
