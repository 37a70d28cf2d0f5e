/**
 * Bytes to text for feeds and pages, whatever charset they declare (or fail to). Order of evidence:
 * a byte-order mark; the HTTP Content-Type charset; the document's own declaration (XML declaration,
 * HTML <meta>); UTF-8 when the bytes read as UTF-8; else windows-1252 (which decodes any byte, and
 * is what "ISO-8859-1" means on the web).
 *
 * "Read as UTF-8" means that the bytes' valid non-ASCII UTF-8 characters outnumber their invalid
 * sequences. A declared (or undeclared) UTF-8 document with a few stray bytes is UTF-8: each invalid
 * sequence becomes U+FFFD where it stands, and the rest of the document keeps its accents (read
 * wholesale as windows-1252, one 0xFF turned every "é" of every item into "Ã©"). A declared UTF-8
 * whose bytes are mostly invalid is a wrong declaration (Latin-1 or windows-1251 text served as
 * UTF-8) and is skipped; so is a declared single-byte charset when the bytes read as UTF-8 (Latin-1
 * text practically never does). What was forgiven is reported (`charsetWarnings`). Pure, linear.
 */
import iconv from 'iconv-lite';

export type CharsetSource = 'bom' | 'header' | 'document' | 'utf8-bytes' | 'fallback';

export interface Decoded {
  text: string;
  charset: string;
  source: CharsetSource;
  /** Invalid UTF-8 sequences that became U+FFFD (0 for other charsets). */
  replaced: number;
  /** A declaration that the bytes contradicted, and that was not used. */
  overruled: { label: string; source: 'header' | 'document' } | null;
}

/** The bytes read as UTF-8 (invalid sequences as U+FFFD, as browsers do), and how well they fit. */
interface Utf8Reading {
  text: string;
  /** Invalid sequences replaced. */
  invalid: number;
  /** Valid characters outside ASCII. */
  valid: number;
}

const utf8Lenient = new TextDecoder('utf-8', { ignoreBOM: true });
const ENCODED_FFFD = Buffer.from([0xef, 0xbf, 0xbd]);

function readUtf8(bytes: Buffer): Utf8Reading {
  const text = utf8Lenient.decode(bytes);
  let fffd = 0;
  let nonAscii = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    nonAscii++;
    if (c === 0xfffd) fffd++;
  }
  // A U+FFFD the document itself encodes (EF BF BD) is a valid character, not a replacement.
  let encoded = 0;
  for (let at = bytes.indexOf(ENCODED_FFFD); at !== -1; at = bytes.indexOf(ENCODED_FFFD, at + 3)) encoded++;
  const invalid = fffd - encoded;
  return { text, invalid, valid: nonAscii - invalid };
}

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

/** More valid non-ASCII characters than invalid sequences (pure ASCII fits too). */
const fitsUtf8 = (r: Utf8Reading) => r.invalid === 0 || r.valid > r.invalid;
const isSingleByte = (charset: string) => !/^utf-|^(?:gb|big5|euc|shift|iso-2022)/.test(charset);

/** The bytes in `charset` (for UTF-8, the reading already made when there is one). */
function decodeAs(bytes: Buffer, charset: string, source: CharsetSource, overruled: Decoded['overruled'], utf8?: Utf8Reading): Decoded {
  if (charset !== 'utf-8') return { text: iconv.decode(bytes, charset), charset, source, replaced: 0, overruled };
  const r = utf8 ?? readUtf8(bytes);
  return { text: r.text, charset, source, replaced: r.invalid, overruled };
}

export function decodeBody(bytes: Buffer, headerCharset: string | null | undefined): Decoded {
  const bom = bomCharset(bytes);
  if (bom) return decodeAs(bytes.subarray(bom.length), bom.charset, 'bom', null);

  const utf8 = readUtf8(bytes);
  const candidates: [string | null | undefined, 'header' | 'document'][] = [
    [headerCharset, 'header'],
    [declaredCharset(bytes), 'document'],
  ];
  let overruled: Decoded['overruled'] = null;
  for (const [label, source] of candidates) {
    const charset = label ? normalizeName(label) : null;
    if (!charset) continue;
    const contradicted = charset === 'utf-8' ? !fitsUtf8(utf8) : isSingleByte(charset) && utf8.valid > utf8.invalid;
    if (!contradicted) return decodeAs(bytes, charset, source, overruled, utf8);
    overruled ??= { label: label!.trim(), source };
  }
  if (fitsUtf8(utf8)) return decodeAs(bytes, 'utf-8', 'utf8-bytes', overruled, utf8);
  return decodeAs(bytes, 'windows-1252', 'fallback', overruled);
}

/** What had to be forgiven to decode the bytes, in words for the feed's warning. */
export function charsetWarnings(d: Decoded): string[] {
  const out: string[] = [];
  if (d.overruled) {
    const where = d.overruled.source === 'header' ? 'the HTTP Content-Type' : 'the document';
    out.push(`${where} declares charset ${d.overruled.label}, which the bytes are not: read as ${d.charset}`);
  }
  if (d.replaced > 0)
    out.push(`${d.replaced} invalid UTF-8 byte sequence${d.replaced === 1 ? '' : 's'} replaced with U+FFFD (the rest read as UTF-8)`);
  return out;
}
