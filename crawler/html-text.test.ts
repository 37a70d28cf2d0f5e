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

  it('turns blocks into lines and drops scripts, styles and tags', () => {
    expect(htmlToText('<p>One&nbsp;two</p><script>alert(1)</script><ul><li>three</li></ul>')).toBe('One two\nthree');
    expect(inlineText('<b>Bold</b>\n title')).toBe('Bold title');
  });
});
