import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Lexicon } from './lexicon';
import { amountsIn, agreesAmount } from './amounts';
import { compare, prepareClaim } from './compare';
import { reasonFor } from './reasons';

// The lexicon the product ships (models/quin-align), read once for the whole file.
const lex = Lexicon.read(path.resolve('models/quin-align/lexicon.json.gz'));
const against = (claim: string, evidence: string) => compare(prepareClaim(claim, lex), evidence, lex);
const status = (claim: string, evidence: string) =>
  Object.fromEntries(
    against(claim, evidence).checks.map((c) => [`${c.kind}:${c.claim}`, c.evidence ? `${c.status} (${c.evidence})` : c.status]),
  );

describe("a claim's details", () => {
  it('names by slot, places, amounts, dates, directions and a negation', () => {
    const d = prepareClaim('Margaret Hassan was not kidnapped in Basra in March 2004', lex).details;
    expect(d.map((x) => `${x.kind}:${x.text}`)).toEqual(['name:Margaret Hassan', 'negation:not', 'place:Basra', 'date:March', 'date:2004']);
    expect(d[0]!.name).toMatchObject({ slot: 'subject', type: 'person' });
  });

  it('reads the digits of a name as part of the name, not as an amount ("U2")', () => {
    expect(prepareClaim("U2's Vertigo tour begins in Lisbon", lex).details.map((x) => `${x.kind}:${x.text}`)).toEqual([
      'name:U2',
      'name:Vertigo',
      'direction:begins',
      'place:Lisbon',
    ]);
    expect(amountsIn('U2 and the G8 met')).toEqual([]);
  });

  it('scores, ordinals, multiples and ranges are amounts of their own', () => {
    const kinds = (s: string) => amountsIn(s).map((a) => `${a.kind}:${a.text}`);
    expect(kinds('Middlesbrough beat Lazio 3-0 in the 2004-05 season')).toEqual(['score:3-0', 'year:2004-05']);
    expect(kinds('the third quarter, the 21st century')).toEqual(['ordinal:third', 'ordinal:21st']);
    expect(kinds('roughly four times as many')).toEqual(['multiple:four times']);
    const [range] = amountsIn('between 100 and 120 people');
    expect(range).toMatchObject({ bound: 'range', value: 100, value2: 120 });
    expect(agreesAmount(range!, amountsIn('110 people')[0]!)).toBe(true);
    expect(agreesAmount(range!, amountsIn('130 people')[0]!)).toBe(false);
    expect(agreesAmount(amountsIn('3-0')[0]!, amountsIn('0-3')[0]!)).toBe(true);
    expect(kinds('Goldfish have a three-second memory')).toEqual(['measure:three-second']);
  });
});

describe('checking the details against a sentence', () => {
  const hassan = 'Care International aid worker Margaret Hassan was abducted in Baghdad last month.';

  it('another place for the same event contradicts; the same place confirms', () => {
    expect(status('Margaret Hassan was kidnapped in Basra', hassan)).toEqual({
      'name:Margaret Hassan': 'confirmed (Margaret Hassan)',
      'place:Basra': 'contradicted (Baghdad)',
    });
    expect(status('Margaret Hassan was kidnapped in Baghdad', hassan)['place:Baghdad']).toBe('confirmed (Baghdad)');
    expect(reasonFor('refutes', against('Margaret Hassan was kidnapped in Basra', hassan))).toBe('Baghdad here, Basra in the claim');
    // The model may read it as support (the detail rule is verdict.json's choice): the reason still names the detail.
    expect(reasonFor('supports', against('Margaret Hassan was kidnapped in Basra', hassan))).toBe(
      'reads as supporting, but Baghdad here, Basra in the claim',
    );
    // Of the places a sentence names, the one of the claim's event ("abducted in Baghdad", not "operations in Iraq").
    const two = 'Mrs Hassan, 59, who led Care International operations in Iraq, was abducted in Baghdad on 19 October.';
    expect(status('Margaret Hassan was kidnapped in Basra', two)['place:Basra']).toBe('contradicted (Baghdad)');
  });

  it('a different score, the opposite direction and the opposite outcome are named', () => {
    const boro = "Boro's 2-0 Uefa Cup win against Lazio was their best result of the season.";
    expect(status('Middlesbrough beat Lazio 3-0 in the Uefa Cup', boro)['number:3-0']).toBe('contradicted (2-0)');
    const rba = 'The Reserve Bank of Australia lifted interest rates 0.25% to 5.5%.';
    const cut = against('The Reserve Bank of Australia cut interest rates to 5.5%', rba);
    expect(reasonFor('refutes', cut)).toBe("'lifted' here, 'cut' in the claim");
    const won = against('Hillary Clinton was defeated in the 2016 election', 'Hillary Clinton won the popular vote in the 2016 election.');
    expect(reasonFor('refutes', won)).toBe("'won' here, 'defeated' in the claim");
    expect(
      status('Bill Cosby was acquitted at his retrial', 'Bill Cosby was found guilty of sexual assault at his retrial.'),
    ).toMatchObject({
      'direction:acquitted': 'contradicted (guilty)',
    });
  });

  it('the other side with the other outcome agrees; the same outcome for the other side is the roles reversed', () => {
    const ev = 'Bush defeated Kerry in Ohio.';
    expect(status('Kerry was defeated by Bush', ev)['direction:defeated']).toBe('confirmed (defeated)');
    expect(status('Kerry beat Bush in Ohio', ev)['direction:beat']).toBe('contradicted (defeated)');
  });

  it('a negation on one side only contradicts what both state', () => {
    const c = against('The Fed did not raise rates', 'The Fed has been raising interest rates since June 2004.');
    expect(c.checks.find((x) => x.kind === 'negation')?.status).toBe('contradicted');
  });

  it('a sentence carrying every detail confirms them all, and says so', () => {
    const c = against(
      'Google made a profit in its first earnings report since floating',
      'In its first earnings report since floating on the stock market, Google said it made a net profit of $52m.',
    );
    expect(c.checks.every((x) => x.status === 'confirmed')).toBe(true);
    expect(reasonFor('supports', c)).toBe('states every detail: Google, profit, first');
  });

  it('an amount of the same kind for something else is not a contradiction', () => {
    const c = against('Intelsat had annual sales of $300m', 'The satellite firm said it would spend $50m on a new launch site.');
    expect(c.checks.find((x) => x.kind === 'number')).toMatchObject({ status: 'unmentioned', other: '$50m' });
  });
});

describe('relevance before stance: is the text about the claim at all?', () => {
  it('a name inside another name is not the claim\'s ("Moon" of "Moon Jae-in")', () => {
    const c = against('The Moon landing was faked', "What's For Dinner When Kim Jong Un Meets South Korea's Moon Jae-in");
    expect(c.topic).toBeLessThan(0.35);
    expect(reasonFor('neutral', c)).toBe('not about Moon landing');
  });

  it('one shared word is not the topic', () => {
    expect(against('The Moon landing was faked', 'Weirdest Promposals Of The Week: Teen Who Faked His Own Birth').topic).toBeLessThan(0.5);
  });

  it('another name in the same slot still addresses the claim', () => {
    expect(against('Margaret Hassan was kidnapped in Basra', 'Margaret Hassan was abducted in Baghdad.').topic).toBe(1);
  });
});

describe('what a careful reader checks (cases the alignment cues caught before)', () => {
  const ev = 'The UK economy grew by 0.4% in the three months to September, official figures showed.';
  const reason = (stance: 'supports' | 'refutes' | 'neutral', claim: string, evidence: string) =>
    reasonFor(stance, against(claim, evidence));
  const contradicted = (claim: string, evidence: string) =>
    against(claim, evidence)
      .checks.filter((c) => c.status === 'contradicted')
      .map((c) => c.kind);

  it('the same claim: every detail confirmed', () => {
    const c = against('UK economy grew in the three months to September', ev);
    expect(c.checks.every((x) => x.status === 'confirmed')).toBe(true);
    expect(reasonFor('supports', c)).toBe('states every detail: UK, grew, three months, September');
  });

  it('an opposite direction, another amount, a negation on one side', () => {
    expect(reason('refutes', 'The UK economy shrank in the three months to September', ev)).toBe("'grew' here, 'shrank' in the claim");
    expect(reason('refutes', 'The UK economy grew by 4% in the three months to September', ev)).toBe('0.4% here, 4% in the claim');
    expect(contradicted('The UK economy did not grow in the three months to September', ev)).toEqual(['negation']);
    expect(contradicted('UK economy grew', 'The UK economy did not grow, the figures showed.')).toEqual(['negation']);
  });

  it('another name in the same role, and the roles swapped', () => {
    expect(reason('refutes', 'Myskina won the final in Moscow', 'Dementieva won the final in Moscow on Sunday.')).toBe(
      'Dementieva here, Myskina in the claim',
    );
    expect(contradicted('Chelsea beat Arsenal in the cup', 'Arsenal beat Chelsea in the cup on Saturday.')).toContain('roles');
    const bought = against(
      'Ladbroke bought a 20 pct stake in Central from Carlton',
      'Carlton said it had purchased a 20 pct stake in Central from Ladbroke.',
    );
    expect(reasonFor('refutes', bought)).toMatch(/roles the other way round/);
    // A first word the claim alone cannot tell from a word ("sprint"), written as a name by the sentence.
    expect(contradicted('Sprint has agreed to buy T-Mobile', 'T-Mobile has agreed to buy Sprint for $26 billion.')).toContain('roles');
    expect(contradicted('Sprint has agreed to buy T-Mobile', 'Sprint has agreed to buy T-Mobile for $26 billion.')).toEqual([]);
    expect(contradicted('Chelsea drew with Arsenal', 'Arsenal drew with Chelsea on Saturday.')).toEqual([]);
    expect(contradicted('Britain and France signed the treaty', 'France and Britain signed the treaty.')).toEqual([]);
    expect(contradicted('Carlton sold the stake to Ladbroke', 'Ladbroke bought the stake from Carlton.')).toEqual([]);
  });

  it('what a neutral sentence lacks, and hedges', () => {
    expect(reason('neutral', 'Google made a profit', 'Google shares rose on Monday.')).toBe("does not mention 'profit'");
    expect(reason('neutral', 'The bank raised rates', 'The bank may raise rates next month.')).toBe('does not state it as a fact');
  });

  it('bounds, fractions of a percent, a direction not matched through a rare sense, phrasal verbs, implicit negations', () => {
    const putin = against('Over two thirds of Russian voters backed Putin', 'More than 70 percent of voters backed Putin.');
    expect(putin.checks.find((x) => x.kind === 'number')?.status).toBe('confirmed');
    expect(
      reason(
        'refutes',
        'AOL gained 464,000 subscribers in the fourth quarter',
        'AOL lost 464,000 subscribers in the fourth quarter and profits were lower.',
      ),
    ).toBe("'lost' here, 'gained' in the claim");
    expect(contradicted('Seattle council voted down the tax', 'The Seattle council passed the tax on Monday.')).toEqual(['direction']);
    expect(contradicted('The bank will not pay a dividend this year', 'The bank said it will defer paying a dividend this year.')).toEqual(
      [],
    );
  });

  it('a level is not a movement ("retreated from four-month highs" fell; "the higher prices" says nothing of which way); the word about the same thing decides', () => {
    const opec =
      "Oil prices retreated from four-month highs in early trading on Tuesday after producers' cartel Opec said it was unlikely to cut production.";
    expect(prepareClaim('Oil prices fell after the OPEC meeting', lex).details.map((x) => `${x.kind}:${x.text}`)).toEqual([
      'direction:fell',
      'name:OPEC',
    ]);
    expect(status('Oil prices fell after the OPEC meeting', opec)['direction:fell']).toBe('confirmed (retreated)');
    expect(status('Oil prices rose after the OPEC meeting', opec)['direction:rose']).toBe('contradicted (retreated)');
    const forecast = 'Analysts expect the higher prices to continue until soon after the OPEC meeting.';
    expect(status('Oil prices fell after the OPEC meeting', forecast)['direction:fell']).toBe('unmentioned');
    expect(status('Oil shares rose on Monday', 'Oil shares closed lower on Monday.')['direction:rose']).toBe('contradicted (lower)');
    expect(status('Oil shares rose on Monday', 'Oil shares hit record highs on Monday.')['direction:rose']).toBe('confirmed (highs)');
    // The word of either direction about the same thing: fuel costs, not profits.
    expect(
      status("Soaring fuel costs cut British Airways' profits", 'British Airways has blamed high fuel prices for a 40% drop in profits.')[
        'direction:Soaring'
      ],
    ).toBe('confirmed (high)');
    expect(status('Oil prices fell on Monday', 'Oil prices rose on Monday as the dollar fell.')['direction:fell']).toBe(
      'contradicted (rose)',
    );
    // Words of one direction that WordNet calls synonyms agree.
    expect(status('Sales rose in May', 'Sales increased in May.')['direction:rose']).toBe('confirmed (increased)');
    expect(prepareClaim('The firm is meeting its targets', lex).details.map((x) => `${x.kind}:${x.text}`)).toEqual(['direction:meeting']);
  });

  it('an opposite wins over a rare WordNet sense; "one second" is an amount; the second largest is not the largest', () => {
    expect(
      reason(
        'refutes',
        'Ministers missed the target of 750,000 adults gaining qualifications',
        'Auditors praised ministers for reaching the benchmark of 750,000 adults gaining qualifications.',
      ),
    ).toBe("'reaching' here, 'missed' in the claim");
    expect(
      contradicted('The self-driving Uber had just one second to react', 'Self-Driving Uber Had 6 Seconds To React Before Crash'),
    ).toEqual(['number']);
    expect(
      reason('refutes', "Denmark is Europe's largest feta producer", "Denmark is Europe's second largest producer of feta after Greece."),
    ).toBe('second largest here, largest in the claim');
    expect(
      contradicted("Denmark is Europe's second largest feta producer", "Denmark is Europe's second largest producer of feta."),
    ).toEqual([]);
  });

  it('headlines in Title Case do not make every word a name', () => {
    expect(
      contradicted(
        'Some Democrats helped confirm Gina Haspel to lead the CIA',
        'Gina Haspel Confirmed As CIA Director With Aid Of Democrats',
      ),
    ).toEqual([]);
  });
});
