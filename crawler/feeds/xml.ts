/**
 * A feed's XML to rss-parser's object, strictly when the document is well-formed and leniently when
 * it is not, as mature feed readers do: single-quoted, unquoted or valueless attributes, unescaped
 * ampersands, HTML entities nobody declared, mismatched or unclosed tags and a truncated tail are read
 * by sax in its forgiving mode and written out again as well-formed XML, which the strict parse then
 * reads; the caller records a warning. Hostile documents stay refused: entity declarations (the
 * "billion laughs" and quadratic blow-ups) are refused before any parsing, no entity is ever expanded
 * from a DTD, and the input is already capped in size by the transport.
 *
 * Nothing here is shared between two parses: each parse makes its own parser (an rss-parser instance
 * keeps its xml2js parser, and a failed parse left it in a state that changed the next one's result).
 */
import Parser from 'rss-parser';
import sax from 'sax';
import { createError, type QuinError } from '../../lib/errors';
import { finder, replaceComments, replaceSections, type Finder } from '../text/markup';
import { rootElement } from './root';

export type Raw = Record<string, unknown>;
export type XmlFeedFormat = 'rss' | 'rdf' | 'atom';

// Atom dates are renamed before rss-parser sees them: it calls new Date(x).toISOString() on them,
// which throws on anything the engine cannot read and fails the whole feed.
const RENAMED: Record<string, string> = { published: 'quin-published', updated: 'quin-updated' };

function newParser(): Parser<Raw, Raw> {
  return new Parser<Raw, Raw>({
    customFields: {
      feed: ['sy:updatePeriod', 'sy:updateFrequency', 'quin-updated'] as never,
      item: [
        'quin-published',
        'quin-updated',
        'dc:date',
        'description',
        'summary',
        'id',
        'author',
        'dc:creator',
        'itunes:summary',
        // Kept whole: the guid's isPermaLink attribute, and Media RSS descriptions (YouTube nests them in media:group).
        ['guid', 'quin-guid', { keepArray: true }],
        ['media:group', 'quin-media-group', { keepArray: true }],
        ['media:description', 'quin-media-description', { keepArray: true }],
      ] as never,
    },
    xml2js: { tagNameProcessors: [(name: string) => RENAMED[name] ?? name] },
  });
}

function xmlError(e: unknown): QuinError {
  const msg = (e as Error).message ?? String(e);
  const [first, ...rest] = msg.split('\n');
  const pos = rest.join(' ').match(/Line:\s*(\d+)\s*Column:\s*(\d+)/);
  return createError(
    'FEED_PARSE_ERROR',
    `malformed XML: ${first}${pos ? ` (line ${Number(pos[1]) + 1}, column ${pos[2]})` : ''}`,
    undefined,
    e,
  );
}

/**
 * Entity declarations are how entity-expansion attacks (and XXE) are written; feeds do not need
 * them. Looked for anywhere outside CDATA sections and comments, so that a misplaced doctype cannot
 * slip through the forgiving parse (which would keep every reference as literal text).
 */
export function assertNoEntityDeclarations(text: string): void {
  const markup = replaceComments(replaceSections(text, '<![CDATA[', ']]>', ''), '');
  if (/<!ENTITY\b/i.test(markup)) {
    throw createError(
      'FEED_PARSE_ERROR',
      'not a usable feed: the document declares XML entities (<!ENTITY>), which are never expanded (entity-expansion attacks); refused',
    );
  }
}

const CONSTRUCT_OPEN = /<((?:atom:)?(?:title|subtitle|summary|content|rights))\b/g;
const XHTML_TYPE = /\btype\s*=\s*(["'])xhtml\1/g;

function xhtmlToHtml(tag: string, before: string, after: string, inner: string): string {
  const unwrapped = inner.trim().replace(/^<(?:[\w-]+:)?div\b[^>]*>([\s\S]*)<\/(?:[\w-]+:)?div\s*>$/, '$1');
  const html = unwrapped.replace(/<(\/?)[\w-]+:/g, '<$1');
  const escaped = html.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<${tag}${before}type="html"${after}>${escaped}</${tag}>`;
}

/**
 * Atom text constructs of type="xhtml" (markup inside a <div>) become type="html" with the markup
 * escaped, which is how rss-parser and the text extraction read them (xml2js would lose the order
 * of text and inline elements). What the pattern
 * `<(title|…)\b([^>]*?)\btype\s*=\s*(["'])xhtml\3([^>]*)>([\s\S]*?)<\/\1\s*>` replaces, found in linear
 * time (text/markup.ts). Pure.
 */
export function xhtmlConstructsToHtml(text: string): string {
  const open = new RegExp(CONSTRUCT_OPEN.source, 'g');
  const type = finder(text, XHTML_TYPE);
  const closes = new Map<string, Finder>();
  const closeOf = (tag: string) => {
    let f = closes.get(tag);
    if (!f) closes.set(tag, (f = finder(text, new RegExp(`<\\/${tag}\\s*>`, 'g'))));
    return f;
  };
  let out = '';
  let pos = 0;
  for (let m = open.exec(text); m; m = open.exec(text)) {
    const tag = m[1]!;
    const attrsAt = m.index + m[0].length;
    const gt = text.indexOf('>', attrsAt);
    if (gt < 0) break;
    const t = type(attrsAt);
    const close = t && t.index < gt ? closeOf(tag)(gt + 1) : null;
    if (!t || !close) {
      open.lastIndex = m.index + 1;
      continue;
    }
    const before = text.slice(attrsAt, t.index);
    const after = text.slice(t.index + t[0].length, gt);
    out += text.slice(pos, m.index) + xhtmlToHtml(tag, before, after, text.slice(gt + 1, close.index));
    pos = open.lastIndex = close.index + close[0].length;
  }
  return pos === 0 ? text : out + text.slice(pos);
}

// sax's forgiving mode folds element and attribute names to one case: these get theirs back.
const CANONICAL = new Map(
  [
    'pubDate',
    'lastBuildDate',
    'managingEditor',
    'webMaster',
    'skipHours',
    'skipDays',
    'textInput',
    'isPermaLink',
    'sy:updatePeriod',
    'sy:updateFrequency',
    'sy:updateBase',
    'rdf:RDF',
    'rdf:about',
    'rdf:resource',
    'rdf:parseType',
    'feedburner:origLink',
    'feedburner:origEnclosureLink',
    'itunes:newFeedUrl',
    'itunes:isClosed',
    'itunes:episodeType',
    'xml:lang',
    'xml:base',
  ].map((n) => [n.toLowerCase(), n]),
);
const canonical = (name: string) => CANONICAL.get(name.toLowerCase()) ?? name.toLowerCase();
const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;');
const XML_NAME = /^[A-Za-z_][\w.:-]*$/;

// Elements whose content is text or HTML: markup found inside them (unescaped HTML such as "<br>") is
// kept as escaped text, as if the feed had escaped it, instead of being read as feed structure.
const TEXT_ELEMENTS = new Set([
  'title',
  'subtitle',
  'description',
  'summary',
  'content',
  'rights',
  'content:encoded',
  'itunes:summary',
  'itunes:subtitle',
  'media:description',
  'media:title',
  'dc:description',
]);
const ITEM_ELEMENTS = new Set(['item', 'entry']);

/**
 * The document read by sax's forgiving parser and written out again as well-formed XML: one root,
 * every element closed, text and attributes escaped, names in their usual case, markup inside text
 * elements kept as escaped HTML, and an item or entry cut off by a truncated tail dropped; comments,
 * processing instructions and the doctype are left out. Returns the XML and what sax had to forgive.
 * Pure.
 */
export function rewriteWellFormed(text: string): { xml: string; problems: string[] } {
  const parser = sax.parser(false, { lowercase: true, trim: false, normalize: false, position: true });
  const out: string[] = [];
  const open: { name: string; start: number }[] = [];
  const problems: string[] = [];
  let rootClosed = false;
  // Depth of the text element being written, while inside one (its markup becomes text).
  let textDepth = 0;
  const attrs = (a: Record<string, string>) =>
    Object.entries(a)
      .filter(([k]) => XML_NAME.test(k))
      .map(([k, v]) => ` ${canonical(k)}="${escapeAttr(v)}"`)
      .join('');
  parser.onopentag = (node) => {
    const name = canonical(node.name);
    if (rootClosed || !XML_NAME.test(name)) return;
    const tag = `<${name}${attrs(node.attributes as Record<string, string>)}>`;
    open.push({ name, start: out.length });
    if (textDepth) return void out.push(escapeText(tag));
    out.push(tag);
    if (TEXT_ELEMENTS.has(name)) textDepth = open.length;
  };
  parser.onclosetag = (raw) => {
    const name = canonical(raw);
    if (rootClosed || open[open.length - 1]?.name !== name) return;
    open.pop();
    if (textDepth && open.length >= textDepth) return void out.push(escapeText(`</${name}>`));
    if (textDepth === open.length + 1) textDepth = 0;
    out.push(`</${name}>`);
    if (open.length === 0) rootClosed = true;
  };
  parser.ontext = parser.oncdata = (t: string) => {
    if (open.length) out.push(escapeText(t));
  };
  parser.onerror = (e) => {
    if (problems.length < 5) problems.push(e.message.split('\n')[0]!);
    parser.error = null as unknown as Error;
    parser.resume();
  };
  parser.write(text).close();
  // A truncated tail: the item or entry it cut is incomplete; what came before it is whole.
  let cut = open.length - 1;
  while (cut >= 0 && !ITEM_ELEMENTS.has(open[cut]!.name)) cut--;
  if (cut >= 0) {
    out.length = open[cut]!.start;
    open.length = cut;
  }
  while (open.length) out.push(`</${open.pop()!.name}>`);
  return { xml: out.join(''), problems };
}

export interface XmlParse {
  feed: Raw;
  /** Set when the document was not well-formed and was read leniently. */
  warning: string | null;
  /** The strict parse's error, when the document was read leniently (the caller throws it when nothing usable came out). */
  strictError: QuinError | null;
}

/** RSS without a version attribute on its root (seen in real feeds) has the RSS 2.0 structure: given one. */
export function withRssVersion(text: string): string {
  const root = rootElement(text);
  if (root?.name !== 'rss') return text;
  const at = root.index + 1 + root.name.length;
  const gt = text.indexOf('>', at);
  if (/\bversion\s*=/.test(gt < 0 ? text.slice(at) : text.slice(at, gt))) return text;
  return `${text.slice(0, at)} version="2.0"${text.slice(at)}`;
}

function prepare(text: string, format: XmlFeedFormat): string {
  return xhtmlConstructsToHtml(format === 'rss' ? withRssVersion(text) : text);
}

let snippetsOff: Promise<void> | undefined;

/**
 * rss-parser makes a "contentSnippet" of every item's content with patterns that are quadratic on
 * hostile text (`<(?:.|\n)*?>` took seconds on 128 KB of "<"); the crawler never reads it (it makes
 * its own text, text/html-text.ts). Its helper is replaced, once per process, by one that returns ''.
 */
function withoutSnippets(): Promise<void> {
  snippetsOff ??= import(/* webpackIgnore: true */ 'node:module').then(({ createRequire }) => {
    const utils = createRequire(import.meta.url)('rss-parser/lib/utils.js') as { getSnippet?: unknown };
    if (typeof utils.getSnippet !== 'function') throw new Error('rss-parser changed: lib/utils.js has no getSnippet to replace');
    utils.getSnippet = () => '';
  });
  return snippetsOff;
}

/** Strict first; when that fails, the forgiving rewrite (and the strict error when that recovers nothing). */
export async function parseXmlFeed(text: string, format: XmlFeedFormat): Promise<XmlParse> {
  assertNoEntityDeclarations(text);
  await withoutSnippets();
  const prepared = prepare(text, format);
  let strictError: QuinError;
  try {
    return { feed: (await newParser().parseString(prepared)) as unknown as Raw, warning: null, strictError: null };
  } catch (e) {
    strictError = xmlError(e);
  }
  const { xml, problems } = rewriteWellFormed(prepared);
  let feed: Raw;
  try {
    feed = (await newParser().parseString(prepare(xml, format))) as unknown as Raw;
  } catch {
    throw strictError;
  }
  const forgiven = problems.length ? `; forgiven: ${problems.join('; ')}` : '';
  return {
    feed,
    warning: `${strictError.message.replace(/^malformed XML: /, 'not well-formed XML (')}), read leniently${forgiven}`,
    strictError,
  };
}
