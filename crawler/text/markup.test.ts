/**
 * The linear scanners give what the patterns they replace gave: compared on thousands of random
 * short strings made of the characters that matter (the patterns are fine on short input).
 */
import { describe, expect, it } from 'vitest';
import { elementContents, findTags, replaceComments, replaceElements, replaceSections, replaceTags } from './markup';

const ALPHABET = [
  '<',
  '>',
  '!',
  '-',
  '-',
  '/',
  ' ',
  '\n',
  'p',
  'a',
  'b',
  'script',
  'SCRIPT',
  'style',
  '<!--',
  '-->',
  '</script>',
  '<p>',
  ']]>',
  '<![CDATA[',
  'type="application/ld+json"',
  'link',
];

function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

function samples(n: number): string[] {
  const rnd = random(7);
  return Array.from({ length: n }, () =>
    Array.from({ length: Math.floor(rnd() * 14) }, () => ALPHABET[Math.floor(rnd() * ALPHABET.length)]).join(''),
  );
}

const CASES = samples(5000);

describe('linear markup scanning', () => {
  it('replaceComments is <!--[\\s\\S]*?-->', () => {
    for (const s of CASES) expect(replaceComments(s), s).toBe(s.replace(/<!--[\s\S]*?-->/g, ' '));
  });
  it('replaceSections is the non-greedy section pattern', () => {
    for (const s of CASES) expect(replaceSections(s, '<![CDATA[', ']]>', ''), s).toBe(s.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, ''));
  });
  it('replaceElements is <(names)\\b[\\s\\S]*?<\\/\\1\\s*>', () => {
    for (const s of CASES) expect(replaceElements(s, ['script', 'style']), s).toBe(s.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' '));
  });
  it('replaceTags is <head[^>]*>', () => {
    for (const s of CASES) {
      expect(
        replaceTags(s, '', () => ' '),
        s,
      ).toBe(s.replace(/<[^>]*>/g, ' '));
      expect(
        replaceTags(s, '\\/?(?:p|a)\\b', () => '\n'),
        s,
      ).toBe(s.replace(/<\/?(?:p|a)\b[^>]*>/gi, '\n'));
      expect(findTags(s, 'link\\b'), s).toEqual([...s.matchAll(/<link\b[^>]*>/gi)].map((m) => m[0]));
    }
  });
  it('elementContents is the contents of the elements whose start tag has the attribute', () => {
    for (const s of CASES)
      expect(elementContents(s, 'script', /type\s*=\s*["']?application\/ld\+json/), s).toEqual(
        [...s.matchAll(/<script\b[^>]*type\s*=\s*["']?application\/ld\+json["']?[^>]*>([\s\S]*?)<\/script\s*>/gi)].map((m) => m[1]),
      );
  });
});
