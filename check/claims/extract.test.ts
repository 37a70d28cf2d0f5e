import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { articleSentences, extractClaims } from './extract';

// Our own fixture: a made-up port, written for these tests (check/testdata/).
const raw = fs.readFileSync(path.join(__dirname, '../testdata/harbour-article.txt'), 'utf8');
const [title, ...body] = raw.split('\n');
const article = { title, text: body.join('\n') };
const byText = (ex: ReturnType<typeof extractClaims>, start: string) => ex.claims.find((c) => c.text.startsWith(start))!;

describe('extractClaims', () => {
  const ex = extractClaims(article);

  it('accounts for every sentence, in reading order, as a claim or left out with its reason', () => {
    expect(ex.sentences.map((s) => s.index)).toEqual(ex.sentences.map((_, i) => i));
    expect(ex.sentences.length).toBe(12);
    for (const s of ex.sentences) expect(s.claim !== null || s.skipped !== null).toBe(true);
    expect(ex.claims.map((c) => c.sentence)).toEqual([...ex.claims.map((c) => c.sentence)].sort((a, b) => a - b));
  });

  it('leaves out questions, opinions, quotes of feelings, statements with no detail and boilerplate', () => {
    const reason = (start: string) => ex.sentences.find((s) => s.text.startsWith(start))!.skipped;
    expect(reason('Is the expansion')).toBe('question');
    expect(reason('Critics say')).toBe('opinion');
    expect(reason('"We are incredibly proud')).toBe('feeling');
    expect(reason('The mood at the docks')).toBe('no_detail');
    expect(reason('Sign up for')).toBe('boilerplate');
  });

  it('makes each claim stand alone: "It", "The company" and "She" resolved from the title and the sentences before', () => {
    expect(byText(ex, 'It employs').standalone).toMatch(/^Port of Kessling employs 3,400 people/);
    expect(byText(ex, 'The company said').standalone).toMatch(/^Port of Kessling said it would spend €600m/);
    expect(byText(ex, 'She said').standalone).toBe('Marta Olsen said the terminal would open in March 2026.');
    expect(byText(ex, 'She said').resolutions).toEqual([{ from: 'She', to: 'Marta Olsen' }]);
  });

  it('splits compound claims into atomic parts that each stand alone', () => {
    expect(byText(ex, 'It employs').parts).toEqual([
      'Port of Kessling employs 3,400 people.',
      'Port of Kessling is the largest port on the Baltic coast.',
    ]);
    expect(byText(ex, 'The company said').parts).toEqual([
      'Port of Kessling said it would spend €600m on a new terminal.',
      'Port of Kessling said it would hire 800 workers by 2026.',
    ]);
    expect(byText(ex, 'Chief executive').parts).toEqual([
      'Chief executive Marta Olsen announced the plan in Gdansk on Tuesday.',
      'Chief executive Marta Olsen joined the port in 2019.',
    ]);
    expect(byText(ex, 'The terminal, which').parts).toEqual([
      'The terminal is being built by the Danish firm Nordbyg.',
      'The terminal will cover 40 hectares.',
    ]);
    expect(byText(ex, 'Freight rates').parts).toEqual(['Freight rates fell 30% in the first quarter.', 'Fuel costs rose 8%.']);
    // A claim that is not compound is its one part.
    expect(byText(ex, 'The Port of Kessling handled').parts).toEqual([byText(ex, 'The Port of Kessling handled').text]);
  });

  it('keeps the checkable details of each claim', () => {
    expect(byText(ex, 'The Port of Kessling handled').details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'number', text: '4.2 million' }),
        expect.objectContaining({ kind: 'date', text: '2023' }),
      ]),
    );
  });

  it('checks at most maxClaims claims and lists the later ones as over the limit', () => {
    const few = extractClaims(article, { maxClaims: 2 });
    expect(few.claims.length).toBe(2);
    expect(few.sentences.filter((s) => s.skipped === 'over_limit').length).toBe(ex.claims.length - 2);
  });

  it('finds nothing to check in a text of opinions and questions', () => {
    const none = extractClaims({ text: 'What a wonderful day it was! I think we should all be grateful. Why does nobody listen?' });
    expect(none.claims).toEqual([]);
    expect(none.sentences.map((s) => s.skipped)).toEqual(['opinion', 'opinion', 'question']);
    expect(extractClaims({ text: '   ' }).sentences).toEqual([]);
  });
});

describe('articleSentences', () => {
  it('splits as the crawler does, paragraph by paragraph, and cuts after an acronym that ends a sentence', () => {
    expect(articleSentences('Dr. Smith arrived on Jan. 5.\nHe left. She stayed.')).toEqual([
      { paragraph: 0, text: 'Dr. Smith arrived on Jan. 5.' },
      { paragraph: 1, text: 'He left.' },
      { paragraph: 1, text: 'She stayed.' },
    ]);
    expect(articleSentences('The deal is under review by the SEC. The company said so.').map((s) => s.text)).toEqual([
      'The deal is under review by the SEC.',
      'The company said so.',
    ]);
  });
});
