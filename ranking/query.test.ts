import { describe, expect, it } from 'vitest';
import { isQuinError } from '../lib/errors';
import { analyzeQuery, bm25Terms, cleanText, detectKind, MAX_TERMS, unwrapClaim } from './query';

const opts = { maxChars: 200 };

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return isQuinError(e) ? e.code : `not a QuinError: ${String(e)}`;
  }
  return undefined;
}

describe('detectKind', () => {
  it.each([
    ['Is the Earth flat?', 'question'],
    ['is the earth flat', 'question'],
    ['IS THE EARTH FLAT', 'question'],
    ['Does coffee cause cancer', 'question'],
    ["Doesn't coffee cause cancer", 'question'],
    ['Can vaccines cause autism', 'question'],
    ['What did the central bank decide', 'question'],
    ['how do vaccines work', 'question'],
    ["What's the inflation rate in Germany", 'question'],
    ['Who won the 2022 World Cup', 'question'],
    ['Vaccines cause autism?', 'question'],
    ['Vaccines cause autism？', 'question'],
    ['"Is this real?"', 'question'],
    ['Tell me about the floods in Pakistan', 'question'],
    ['explain the new tax rules', 'question'],
  ])('%s → %s', (text, kind) => {
    expect(detectKind(text)).toBe(kind);
  });

  it.each([
    // Quin's regex had no word boundary: these start with "is", "does", "do", "can", "was", "who".
    ['Israel signed a ceasefire agreement', 'claim'],
    ['israel signed a ceasefire agreement', 'claim'],
    ['Doesburg hosts a festival every year', 'claim'],
    ['Dover port was closed by the strike', 'claim'],
    ['Canada legalised cannabis in 2018', 'claim'],
    ['Washington approved the budget', 'claim'],
    ['Whooping cough cases rose in 2023', 'claim'],
    ['Howard University received a grant', 'claim'],
    ['Island nations face rising seas', 'claim'],
    ['Vaccines cause autism.', 'claim'],
    ['VACCINES CAUSE AUTISM', 'claim'],
    ['Do not trust the official numbers', 'claim'],
    ["Don't drink the tap water in Flint", 'claim'],
    ['When ice melts, sea levels rise', 'claim'],
    ['Will Smith won an Oscar', 'claim'],
    ['May Day protests turned violent in Paris', 'claim'],
    ['🔥 Wildfires destroyed 500 homes in Maui', 'claim'],
    ['Is', 'keywords'],
    ['', 'keywords'],
  ])('%s → %s', (text, kind) => {
    expect(detectKind(text)).toBe(kind);
  });

  // Verdicts only for claims. Keywords name a topic; they get evidence, no verdict.
  it.each([
    ['Xbox price', 'keywords'],
    ['Brexit vote', 'keywords'],
    ['Obama healthcare', 'keywords'],
    ['Measles vaccine study', 'keywords'],
    ['Tony Blair third term', 'keywords'],
    ['iPod sales', 'keywords'],
    ['xqzvbnm plorf wuggle', 'keywords'],
    ['The central bank raised interest rates', 'claim'],
    ['UK economy grew in the third quarter', 'claim'],
    ['Google made a profit in its first earnings report since floating', 'claim'],
    ['Justin Gatlin won the Olympic 100m final', 'claim'],
    ['Microsoft buys Skype', 'claim'],
    ['US unemployment falls to 4%', 'claim'],
    ['Vitamin D supplements prevent respiratory infections', 'claim'],
    ['0-dimensional biomaterials show inductive properties.', 'claim'],
    ['Doesburg hosts a festival every year', 'claim'],
    ['What is the price of an Xbox?', 'question'],
    ['Did the Xbox price fall', 'question'],
  ])('keywords, claims and questions: %s → %s', (text, kind) => {
    expect(detectKind(text)).toBe(kind);
  });

  it('treats "is it true that X" and "fact check: X" as claims about X', () => {
    expect(detectKind('Is it true that 5G spreads the coronavirus?')).toBe('claim');
    expect(unwrapClaim('Is it true that 5G spreads the coronavirus?')).toBe('5G spreads the coronavirus');
    expect(unwrapClaim('fact check: the moon landing was staged')).toBe('the moon landing was staged');
    expect(unwrapClaim('Verify that inflation fell in May')).toBe('inflation fell in May');
    expect(unwrapClaim('Is it true that ???')).toBeNull();
    expect(unwrapClaim('Israel is true to its word')).toBeNull();
  });
});

describe('bm25Terms', () => {
  it('keeps only lower-cased word tokens, so FTS5 operators and syntax are plain words or nothing', () => {
    expect(bm25Terms('"cats" AND (dogs OR NOT birds) NEAR/3 fish* ^col:x -y +z')).toEqual([
      'cats',
      'dogs',
      'birds',
      'near',
      '3',
      'fish',
      'col',
      'x',
      'y',
      'z',
    ]);
    expect(bm25Terms('Covid-19 vaccines: 95% effective?')).toEqual(['covid', '19', 'vaccines', '95', 'effective']);
  });
  it('folds full-width letters and keeps accents, CJK runs and apostrophes inside words', () => {
    expect(bm25Terms('ＣＯＶＩＤ Ärzte café')).toEqual(['covid', 'ärzte', 'café']);
    expect(bm25Terms('東京 オリンピック')).toEqual(['東京', 'オリンピック']);
    expect(bm25Terms("doesn't")).toEqual(['doesnt']);
  });
  it('drops emoji, variation selectors and symbols', () => {
    expect(bm25Terms('🔥️ fire 👨‍👩‍👧 family ✓')).toEqual(['fire', 'family']);
  });
  it('removes stop words unless nothing else is left', () => {
    expect(bm25Terms('the effect of the drug')).toEqual(['effect', 'drug']);
    expect(bm25Terms('Does smoking have more effect than diet?')).toEqual(['smoking', 'effect', 'diet']);
    expect(bm25Terms('to be or not to be')).toEqual(['to', 'be', 'or', 'not']);
  });
  it('caps the number and the length of terms', () => {
    const many = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');
    expect(bm25Terms(many)).toHaveLength(MAX_TERMS);
    expect(bm25Terms(`${'x'.repeat(41)} short`)).toEqual(['short']);
  });
});

describe('cleanText', () => {
  it('removes control and invisible characters and collapses whitespace', () => {
    expect(cleanText('  a\u0000b\tc\n\nd\u200b e\u2028f  ')).toBe('a b c d e f');
  });
  it('replaces lone surrogates instead of passing broken UTF-16 on', () => {
    expect(cleanText('a\uD800b\uDC00c')).toBe('a b c');
    expect(cleanText('ok 😀')).toBe('ok 😀');
  });
});

describe('analyzeQuery', () => {
  it('returns text, kind, claim and terms', () => {
    expect(analyzeQuery('  Is it true that  vaccines cause autism? ', opts)).toEqual({
      text: 'Is it true that vaccines cause autism?',
      kind: 'claim',
      claim: 'vaccines cause autism',
      terms: ['true', 'vaccines', 'cause', 'autism'],
    });
    expect(analyzeQuery('Does aspirin reduce heart attacks?', opts).kind).toBe('question');
  });
  it('rejects empty, too long and unusable queries with QUERY_* codes', () => {
    expect(codeOf(() => analyzeQuery('', opts))).toBe('QUERY_EMPTY');
    expect(codeOf(() => analyzeQuery(' \n\t\u200b ', opts))).toBe('QUERY_EMPTY');
    expect(codeOf(() => analyzeQuery(undefined, opts))).toBe('QUERY_EMPTY');
    expect(codeOf(() => analyzeQuery('a'.repeat(201), opts))).toBe('QUERY_TOO_LONG');
    expect(codeOf(() => analyzeQuery('a'.repeat(10_000_000), opts))).toBe('QUERY_TOO_LONG');
    expect(codeOf(() => analyzeQuery('?!* () "" :: 🔥🔥', opts))).toBe('QUERY_UNUSABLE');
  });
  it('counts characters, not UTF-16 units, against the limit', () => {
    expect(analyzeQuery('😀'.repeat(150) + ' ok', opts).terms).toEqual(['ok']);
  });
  it('never throws anything but a QUERY_* error on random strings', () => {
    let seed = 42;
    const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const alphabet = [
      'a',
      'Z',
      ' ',
      '"',
      '*',
      '(',
      ')',
      ':',
      '^',
      '-',
      'AND',
      'OR',
      'NEAR',
      '\u0000',
      '\uD800',
      '😀',
      'é',
      '\u0301',
      '東',
      '?',
      '\n',
      '\u200d',
    ];
    for (let i = 0; i < 2000; i++) {
      const s = Array.from({ length: Math.floor(rand() * 40) }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
      const code = codeOf(() => {
        const q = analyzeQuery(s, opts);
        for (const t of q.terms) expect(t).toMatch(/^[\p{L}\p{N}][\p{L}\p{N}\p{M}]*$/u);
      });
      expect(code === undefined || code.startsWith('QUERY_'), `${JSON.stringify(s)} → ${code}`).toBe(true);
    }
  });
});
