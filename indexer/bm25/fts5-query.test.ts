import { describe, expect, it } from 'vitest';
import { isQuinError } from '../../lib/errors';
import { buildMatchExpression, MAX_MATCH_TERMS, quoteTerm, rankExpression, usableTerms } from './fts5-query';

describe('FTS5 MATCH expression from word tokens', () => {
  it('quotes every token and ORs them', () => {
    expect(buildMatchExpression(['vitamin', 'cancer'])).toBe('"vitamin" OR "cancer"');
  });

  it('turns operators and syntax into literal strings', () => {
    expect(buildMatchExpression(['AND', 'NEAR', 'NOT', 'title:x', 'a*'])).toBe('"AND" OR "NEAR" OR "NOT" OR "title:x" OR "a*"');
    expect(quoteTerm('say "hi"')).toBe('"say ""hi"""');
  });

  it('drops tokens without a letter or digit, control characters and duplicates', () => {
    expect(usableTerms(['*', '"', '(', ')', '-', 'ok', 'OK', 'a\u0000b', '', '   ', 42 as unknown as string])).toEqual(['ok', 'a b']);
  });

  it('keeps unicode words', () => {
    expect(usableTerms(['café', 'Ελλάδα', '東京', '٣'])).toEqual(['café', 'Ελλάδα', '東京', '٣']);
  });

  it('rejects a list with nothing searchable with QUERY_UNUSABLE', () => {
    for (const terms of [[], ['*'], ['"', '()', '-'], [' ']]) {
      try {
        buildMatchExpression(terms);
        expect.unreachable();
      } catch (e) {
        expect(isQuinError(e, 'QUERY_UNUSABLE')).toBe(true);
      }
    }
  });

  it('caps huge lists', () => {
    const terms = Array.from({ length: 10_000 }, (_, i) => `w${i}`);
    expect(usableTerms(terms)).toHaveLength(MAX_MATCH_TERMS);
  });

  it('builds the weighted rank function', () => {
    expect(rankExpression(1.5)).toBe('bm25(1.5000, 1.0000)');
    expect(rankExpression(2, 2)).toBe('bm25(2.0000, 1.0000, 0.0000, 0.0000)');
    expect(() => rankExpression(-1)).toThrow();
  });
});
