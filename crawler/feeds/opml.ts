/**
 * OPML, the feed readers' exchange format for a feed list (OPML 1.0, 1.1 and 2.0, as Miniflux,
 * FreshRSS, Feedly, Inoreader, NetNewsWire or Thunderbird export it): read into feeds with their
 * folder, and written back. Pure: text in, values out.
 *
 * Hostile files are refused with a clear message: more than OPML_MAX_BYTES, an internal DTD subset
 * (entity declarations: nothing is ever expanded), undefined entities, malformed XML, or more than
 * OPML_MAX_OUTLINES outlines. saxes is a strict, non-validating parser that never fetches anything.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { createError } from '../../lib/errors';
import { decodeBody } from '../text/charset';
import { storableText } from '../text/storable';
import { normalizeFeedUrl } from './manage';

export const OPML_MAX_BYTES = 2 * 1024 * 1024;
export const OPML_MAX_OUTLINES = 10_000;
const MAX_DEPTH = 32;

export interface OpmlFeed {
  xmlUrl: string;
  title: string | null;
  htmlUrl: string | null;
  /** Folder outlines above the feed, joined with " / " (null at the top level). */
  category: string | null;
}

export interface OpmlSkipped {
  url: string | null;
  reason: string;
}

export interface OpmlDocument {
  version: string | null;
  title: string | null;
  feeds: OpmlFeed[];
  /** Feed outlines that were left out, and why (not http(s), a duplicate...). */
  skipped: OpmlSkipped[];
}

const bad = (message: string) => createError('INVALID_INPUT', `not a usable OPML file: ${message}`);

/**
 * Attribute names are matched case-insensitively (old exporters wrote xmlurl, XMLURL). Values pass the
 * crawler's text boundary here, where they are read: XML 1.0 allows DEL and the C1 controls (raw or as
 * `&#x9b;`), and a file's titles are both stored and printed back (`quin feeds import` lists what it skipped).
 */
function attrs(tag: SaxesTagPlain): Map<string, string> {
  return new Map(Object.entries(tag.attributes).map(([k, v]) => [k.toLowerCase(), storableText(String(v)).trim()]));
}

const clean = (s: string | undefined) => (s ? storableText(s).replace(/\s+/g, ' ').trim() : '') || null;

function httpUrl(raw: string): string | null {
  if (!/^https?:\/\//i.test(raw)) return null;
  try {
    return normalizeFeedUrl(raw);
  } catch {
    return null;
  }
}

/** Reads an OPML file (bytes in any declared charset, or text). Throws INVALID_INPUT with the reason. */
export function parseOpml(input: Buffer | string): OpmlDocument {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  if (bytes.length > OPML_MAX_BYTES)
    throw bad(`the file is ${bytes.length.toLocaleString('en')} bytes, more than the ${OPML_MAX_BYTES.toLocaleString('en')} allowed`);
  const text = typeof input === 'string' ? input : decodeBody(bytes, null).text;
  if (text.trim() === '') throw bad('the file is empty');

  const doc: OpmlDocument = { version: null, title: null, feeds: [], skipped: [] };
  const folders: (string | null)[] = [];
  const seen = new Set<string>();
  const path: string[] = [];
  let outlines = 0;
  let titleText: string | null = null;

  const parser = new SaxesParser<{ xmlns: false; position: true }>({ xmlns: false, position: true });
  parser.on('doctype', (dt) => {
    if (dt.includes('[')) throw bad('it declares entities (an internal DTD subset): refused, entities are never expanded');
  });
  parser.on('opentag', (tag) => {
    const name = tag.name.toLowerCase();
    if (path.length === 0 && name !== 'opml') throw bad(`the root element is <${tag.name}>, not <opml>`);
    if (path.length >= MAX_DEPTH) throw bad(`outlines nested deeper than ${MAX_DEPTH} levels`);
    path.push(name);
    const a = attrs(tag);
    if (name === 'opml') doc.version = a.get('version') ?? null;
    if (name === 'title' && path[path.length - 2] === 'head') titleText = '';
    if (name !== 'outline') return;
    if (++outlines > OPML_MAX_OUTLINES) throw bad(`more than ${OPML_MAX_OUTLINES.toLocaleString('en')} outlines`);
    const label = clean(a.get('title')) ?? clean(a.get('text'));
    const raw = a.get('xmlurl');
    if (!raw) {
      folders.push(label);
      return;
    }
    folders.push(null); // a feed's children (rare) are not in a folder named after it
    const url = httpUrl(raw);
    if (!url) return void doc.skipped.push({ url: raw, reason: 'not an http(s) URL' });
    if (seen.has(url)) return void doc.skipped.push({ url, reason: 'listed twice' });
    seen.add(url);
    const category =
      folders
        .slice(0, -1)
        .filter((f): f is string => f !== null)
        .join(' / ') || null;
    doc.feeds.push({ xmlUrl: url, title: label, htmlUrl: a.get('htmlurl') ? httpUrl(a.get('htmlurl')!) : null, category });
  });
  parser.on('text', (t) => {
    if (titleText !== null) titleText += t;
  });
  parser.on('closetag', (tag) => {
    const name = path.pop();
    if (name === 'outline') folders.pop();
    if (name === 'title' && titleText !== null && tag.name.toLowerCase() === 'title') {
      doc.title = clean(titleText);
      titleText = null;
    }
  });
  try {
    parser.write(text).close();
  } catch (e) {
    if ((e as { code?: string }).code === 'INVALID_INPUT') throw e;
    throw bad(`malformed XML (${(e as Error).message.split('\n')[0]})`);
  }
  return doc;
}

// ---- writing ------------------------------------------------------------------------------------

/** XML attribute text: the five special characters escaped, line breaks kept as character references, control characters dropped. */
export function xmlAttr(s: string): string {
  return (
    s
      // eslint-disable-next-line no-control-regex -- XML 1.0 forbids these characters: they are dropped
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/\n/g, '&#10;')
      .replace(/\r/g, '&#13;')
      .replace(/\t/g, '&#9;')
  );
}

interface Folder {
  name: string;
  folders: Map<string, Folder>;
  feeds: OpmlFeed[];
}

function feedOutline(f: OpmlFeed, indent: string): string {
  const name = xmlAttr(f.title ?? f.xmlUrl);
  const html = f.htmlUrl ? ` htmlUrl="${xmlAttr(f.htmlUrl)}"` : '';
  return `${indent}<outline type="rss" text="${name}" title="${name}" xmlUrl="${xmlAttr(f.xmlUrl)}"${html}/>`;
}

function folderLines(folder: Folder, depth: number): string[] {
  const indent = '  '.repeat(depth);
  const out: string[] = [];
  for (const sub of folder.folders.values()) {
    const name = xmlAttr(sub.name);
    out.push(`${indent}<outline text="${name}" title="${name}">`, ...folderLines(sub, depth + 1), `${indent}</outline>`);
  }
  for (const f of folder.feeds) out.push(feedOutline(f, indent));
  return out;
}

/** An OPML 2.0 document of the feeds, folders as nested outlines ("News / World" → News › World). */
export function writeOpml(feeds: readonly OpmlFeed[], opts: { title: string; now?: Date }): string {
  const root: Folder = { name: '', folders: new Map(), feeds: [] };
  for (const f of feeds) {
    let folder = root;
    for (const part of (f.category ?? '')
      .split(' / ')
      .map((p) => p.trim())
      .filter(Boolean)) {
      let next = folder.folders.get(part);
      if (!next) folder.folders.set(part, (next = { name: part, folders: new Map(), feeds: [] }));
      folder = next;
    }
    folder.feeds.push(f);
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<opml version="2.0">',
    '  <head>',
    `    <title>${xmlAttr(opts.title)}</title>`,
    `    <dateCreated>${(opts.now ?? new Date()).toUTCString()}</dateCreated>`,
    '  </head>',
    '  <body>',
    ...folderLines(root, 2),
    '  </body>',
    '</opml>',
    '',
  ].join('\n');
}
