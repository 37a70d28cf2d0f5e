/** Bytes to text: the declared charset wins unless the bytes contradict it, and what was forgiven is said. */
import { describe, expect, it } from 'vitest';
import { charsetWarnings, decodeBody } from './charset';

const ACCENTS = 'Café naïve résumé Zürich';
/** A UTF-8 feed of `n` items with accents, one 0xFF byte in the item `bad`. */
function feedWithStrayByte(n: number, bad: number): Buffer {
  const parts: Buffer[] = [Buffer.from('<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>T</title>')];
  for (let i = 0; i < n; i++) {
    parts.push(Buffer.from(`<item><title>${ACCENTS} ${i}</title><description>`, 'utf8'));
    if (i === bad) parts.push(Buffer.from([0xff]));
    parts.push(Buffer.from(`text ${i}</description></item>`, 'utf8'));
  }
  parts.push(Buffer.from('</channel></rss>'));
  return Buffer.concat(parts);
}

describe('decodeBody', () => {
  it('keeps a declared UTF-8 with one stray byte: U+FFFD where the byte was, every accent intact, the count said', () => {
    for (const header of ['utf-8', null]) {
      const d = decodeBody(feedWithStrayByte(20, 7), header);
      expect(d).toMatchObject({ charset: 'utf-8', source: header ? 'header' : 'document', replaced: 1, overruled: null });
      expect(d.text.split(ACCENTS)).toHaveLength(21);
      expect(d.text).not.toContain('Ã');
      expect(d.text).toContain('<description>\ufffdtext 7</description>');
      expect(d.text.match(/\ufffd/g)).toHaveLength(1);
      expect(charsetWarnings(d)).toEqual(['1 invalid UTF-8 byte sequence replaced with U+FFFD (the rest read as UTF-8)']);
    }
  });

  it('reads undeclared, mostly valid UTF-8 as UTF-8 too, and counts every invalid sequence', () => {
    const body = Buffer.concat([
      Buffer.from(`<rss><channel><title>${ACCENTS}</title>`),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('</channel></rss>'),
    ]);
    const d = decodeBody(body, null);
    expect(d).toMatchObject({ charset: 'utf-8', source: 'utf8-bytes', replaced: 2 });
    expect(charsetWarnings(d)).toEqual(['2 invalid UTF-8 byte sequences replaced with U+FFFD (the rest read as UTF-8)']);
  });

  it('does not count a U+FFFD the document encodes itself', () => {
    const d = decodeBody(Buffer.from('<rss><channel><title>a \ufffd b é</title></channel></rss>', 'utf8'), 'utf-8');
    expect(d).toMatchObject({ replaced: 0, text: expect.stringContaining('a \ufffd b é') });
    expect(charsetWarnings(d)).toEqual([]);
  });

  it('skips a UTF-8 declaration that the bytes contradict (Latin-1 served as UTF-8), and says so', () => {
    const latin1 = Buffer.from(`<?xml version="1.0" encoding="utf-8"?><rss><channel><title>${ACCENTS}</title></channel></rss>`, 'latin1');
    const d = decodeBody(latin1, 'utf-8');
    expect(d).toMatchObject({ charset: 'windows-1252', source: 'fallback', replaced: 0, overruled: { label: 'utf-8', source: 'header' } });
    expect(d.text).toContain(ACCENTS);
    expect(charsetWarnings(d)).toEqual(['the HTTP Content-Type declares charset utf-8, which the bytes are not: read as windows-1252']);
  });

  it('prefers the document over a wrong HTTP charset, and UTF-8 over a wrong single-byte one', () => {
    const cp1251 = Buffer.concat([
      Buffer.from('<?xml version="1.0" encoding="windows-1251"?><rss><channel><title>'),
      Buffer.from([0xcd, 0xee, 0xe2, 0xee, 0xf1, 0xf2, 0xe8]),
      Buffer.from('</title></channel></rss>'),
    ]);
    expect(decodeBody(cp1251, 'utf-8')).toMatchObject({
      charset: 'windows-1251',
      source: 'document',
      text: expect.stringContaining('Новости'),
    });
    const utf8 = decodeBody(Buffer.from(`<rss><channel><title>${ACCENTS}</title></channel></rss>`, 'utf8'), 'iso-8859-1');
    expect(utf8).toMatchObject({ charset: 'utf-8', source: 'utf8-bytes', overruled: { label: 'iso-8859-1', source: 'header' } });
    expect(utf8.text).toContain(ACCENTS);
  });

  it('reads plain ASCII and byte-order marks without a warning', () => {
    expect(charsetWarnings(decodeBody(Buffer.from('<rss/>'), 'utf-8'))).toEqual([]);
    const bom = decodeBody(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(ACCENTS, 'utf8')]), 'iso-8859-1');
    expect(bom).toMatchObject({ charset: 'utf-8', source: 'bom', text: ACCENTS, replaced: 0, overruled: null });
  });
});
