import { describe, expect, it } from 'vitest';
import { decodeEntities, htmlToText, inlineText } from './html-text';

describe('html-text', () => {
  it('decodes every HTML5 reference (the entities package), with its semicolon only', () => {
    expect(decodeEntities('Caf&eacute; &amp; &mdash; &#8217; &#x1F600; &hearts; &NotEqualTilde;')).toBe('Café & — ’ 😀 ♥ ≂̸');
    expect(decodeEntities('https://x.test/?a=1&copy=2&lang=en')).toBe('https://x.test/?a=1&copy=2&lang=en');
    expect(decodeEntities('&bogus; stays')).toBe('&bogus; stays');
  });

  it('drops invisible formatting characters and invalid references', () => {
    expect(decodeEntities('co&shy;operate&zwnj;d &#0;&#xD800;x')).toBe('cooperated x');
  });

  it('keeps a U+FFFD the text already holds (an invalid byte sequence was there)', () => {
    expect(decodeEntities('Caf\ufffd &amp; b&#0;\ufffd')).toBe('Caf\ufffd & b\ufffd');
    expect(htmlToText('<p>Zürich \ufffdtext</p>')).toBe('Zürich \ufffdtext');
  });

  it('turns blocks into lines and drops scripts, styles and tags', () => {
    expect(htmlToText('<p>One&nbsp;two</p><script>alert(1)</script><ul><li>three</li></ul>')).toBe('One two\nthree');
    expect(inlineText('<b>Bold</b>\n title')).toBe('Bold title');
  });

  // A feed titled "Harbour News <update>" lost its "<update>".
  it('keeps angle-bracket text in titles that is not markup, drops markup and stray closing tags', () => {
    expect(inlineText('Harbour News <update>')).toBe('Harbour News <update>');
    expect(inlineText('I <3 NY &amp; <em>you</em>')).toBe('I <3 NY & you');
    expect(inlineText('A &lt;b&gt;bold&lt;/b&gt; claim')).toBe('A <b>bold</b> claim'); // escaped twice: text after decoding
    expect(inlineText('<a href="https://x.test/">Link</a> <span class="x">text</span><br/>more</titl>')).toBe('Link text more');
    // Linear on hostile input: a long run of "<" and of an unclosed tag.
    const t0 = Date.now();
    expect(inlineText('<'.repeat(200_000)).length).toBe(200_000);
    expect(inlineText(`<b ${'a'.repeat(200_000)}`).length).toBeGreaterThan(200_000);
    expect(Date.now() - t0).toBeLessThan(2000);
  });
});
