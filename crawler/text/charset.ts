/**
 * Bytes to text for feeds and pages, whatever charset they declare (or fail to). Order of evidence:
 * a byte-order mark; the HTTP Content-Type charset; the document's own declaration (XML declaration,
 * HTML <meta>); UTF-8 when the bytes are valid UTF-8; else windows-1252 (which decodes any byte,
 * and is what "ISO-8859-1" means on the web). A declared UTF-8 that is not valid UTF-8 is a wrong
 * declaration and is skipped; so is a declared single-byte charset when the bytes are valid,
 * non-ASCII UTF-8 (Latin-1 text is practically never valid UTF-8). Pure.
 */
import iconv from 'iconv-lite';

export type CharsetSource = 'bom' | 'header' | 'document' | 'utf8-valid' | 'fallback';

export interface Decoded {
  text: string;
  charset: string;
  source: CharsetSource;
}

const utf8Strict = new TextDecoder('utf-8', { fatal: true });

function isValidUtf8(bytes: Buffer): boolean {
  try {
    utf8Strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

const hasNonAscii = (bytes: Buffer) => bytes.some((b) => b >= 0x80);

function normalizeName(name: string): string | null {
  const n = name
    .trim()
    .toLowerCase()
    .replace(/^["']|["']$/g, '');
  if (!n) return null;
  // WHATWG Encoding: these labels all mean windows-1252.
  if (['iso-8859-1', 'iso8859-1', 'latin1', 'latin-1', 'us-ascii', 'ascii', 'l1', 'cp819', 'ibm819', 'iso_8859-1'].includes(n))
    return 'windows-1252';
  if (n === 'utf8') return 'utf-8';
  return iconv.encodingExists(n) ? n : null;
}

function bomCharset(bytes: Buffer): { charset: string; length: number } | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { charset: 'utf-8', length: 3 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { charset: 'utf-16be', length: 2 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { charset: 'utf-16le', length: 2 };
  return null;
}

/** The charset a document declares about itself in its first bytes (XML declaration or HTML meta). */
export function declaredCharset(bytes: Buffer): string | null {
  const head = bytes.subarray(0, 4096).toString('latin1');
  const xml = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/i.exec(head);
  if (xml) return xml[1]!;
  const meta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head);
  return meta ? meta[1]! : null;
}

function decodeWith(bytes: Buffer, charset: string): string {
  return charset === 'utf-8' ? bytes.toString('utf8') : iconv.decode(bytes, charset);
}

export function decodeBody(bytes: Buffer, headerCharset: string | null | undefined): Decoded {
  const bom = bomCharset(bytes);
  if (bom) return { text: decodeWith(bytes.subarray(bom.length), bom.charset), charset: bom.charset, source: 'bom' };

  const validUtf8 = isValidUtf8(bytes);
  const candidates: [string | null, CharsetSource][] = [
    [headerCharset ? normalizeName(headerCharset) : null, 'header'],
    [normalizeName(declaredCharset(bytes) ?? ''), 'document'],
  ];
  for (const [charset, source] of candidates) {
    if (!charset) continue;
    if (charset === 'utf-8' && !validUtf8) continue;
    const singleByte = !/^utf-|^(?:gb|big5|euc|shift|iso-2022)/.test(charset);
    if (singleByte && validUtf8 && hasNonAscii(bytes)) continue;
    return { text: decodeWith(bytes, charset), charset, source };
  }
  if (validUtf8) return { text: bytes.toString('utf8'), charset: 'utf-8', source: 'utf8-valid' };
  return { text: iconv.decode(bytes, 'windows-1252'), charset: 'windows-1252', source: 'fallback' };
}
