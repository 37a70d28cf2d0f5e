/**
 * How a feed reader sees a feed: a strict XML parse (saxes) checked against RFC 4287's rules, and the
 * items as feedparser (the parser of several Node feed readers) reads them.
 */
import { Readable } from 'node:stream';
import FeedParser from 'feedparser';
import { SaxesParser } from 'saxes';

interface El {
  name: string;
  attrs: Record<string, string>;
  children: El[];
  text: string;
}

const ATOM = 'http://www.w3.org/2005/Atom';
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const IRI = /^[a-z][a-z0-9+.-]*:\S+$/i;

function tree(xml: string): El {
  const parser = new SaxesParser({ xmlns: true });
  const stack: El[] = [];
  let root: El | null = null;
  parser.on('opentag', (t) => {
    const attrs: Record<string, string> = {};
    for (const [k, a] of Object.entries(t.attributes)) attrs[k] = typeof a === 'string' ? a : a.value;
    if (t.uri !== ATOM) throw new Error(`element <${t.name}> is not in the Atom namespace`);
    const el: El = { name: t.local, attrs, children: [], text: '' };
    stack.at(-1)?.children.push(el);
    stack.push(el);
    root ??= el;
  });
  parser.on('text', (s) => {
    const top = stack.at(-1);
    if (top) top.text += s;
  });
  parser.on('closetag', () => void stack.pop());
  parser.write(xml).close();
  return root!;
}

/** RFC 4287 violations (an empty list for a valid feed). Throws on XML that is not well-formed. */
export function atomProblems(xml: string): string[] {
  const feed = tree(xml);
  const out: string[] = [];
  if (feed.name !== 'feed') return [`root is <${feed.name}>`];
  const kids = (el: El, name: string) => el.children.filter((c) => c.name === name);
  const one = (el: El, name: string, where: string) => {
    const n = kids(el, name).length;
    if (n !== 1) out.push(`${where}: ${n} <${name}> (exactly one required)`);
    return kids(el, name)[0];
  };
  const checkCommon = (el: El, where: string) => {
    const id = one(el, 'id', where);
    if (id && !IRI.test(id.text.trim())) out.push(`${where}: id is not an IRI: ${id.text}`);
    one(el, 'title', where);
    const updated = one(el, 'updated', where);
    if (updated && !RFC3339.test(updated.text.trim())) out.push(`${where}: updated is not RFC 3339: ${updated.text}`);
    for (const l of kids(el, 'link')) if (!l.attrs.href) out.push(`${where}: link without href`);
    for (const a of kids(el, 'author')) if (kids(a, 'name').length !== 1) out.push(`${where}: author without exactly one name`);
  };
  checkCommon(feed, 'feed');
  const entries = kids(feed, 'entry');
  const feedAuthor = kids(feed, 'author').length > 0;
  if (!kids(feed, 'link').some((l) => l.attrs.rel === 'self')) out.push('feed: no rel="self" link (SHOULD)');
  const alternates = kids(feed, 'link').filter((l) => (l.attrs.rel ?? 'alternate') === 'alternate');
  if (new Set(alternates.map((l) => `${l.attrs.type}|${l.attrs.hreflang}`)).size !== alternates.length)
    out.push('feed: two alternate links with the same type and hreflang');
  const ids = new Set<string>();
  entries.forEach((e, i) => {
    const where = `entry ${i + 1}`;
    checkCommon(e, where);
    const id = kids(e, 'id')[0]?.text.trim();
    if (id && ids.has(id)) out.push(`${where}: duplicate id ${id}`);
    if (id) ids.add(id);
    if (!feedAuthor && !kids(e, 'author').length) out.push(`${where}: no author and the feed has none`);
    const content = kids(e, 'content')[0];
    const hasAlternate = kids(e, 'link').some((l) => (l.attrs.rel ?? 'alternate') === 'alternate');
    if (!content && !hasAlternate) out.push(`${where}: neither content nor an alternate link`);
    if (content?.attrs.src && !kids(e, 'summary').length) out.push(`${where}: out-of-line content without a summary`);
    for (const p of kids(e, 'published')) if (!RFC3339.test(p.text.trim())) out.push(`${where}: published is not RFC 3339`);
  });
  return out;
}

export interface ReaderItem {
  title: string;
  link: string;
  guid: string;
  /** Atom `updated` (feedparser's date). */
  date: Date | null;
  /** Atom `published`. */
  pubdate: Date | null;
  summary: string;
  description: string;
  categories: string[];
  author: string;
}

/** The feed as feedparser reads it. */
export async function readWithFeedparser(
  xml: string,
): Promise<{ meta: { title: string; link: string; xmlurl: string | null; type: string }; items: ReaderItem[] }> {
  return new Promise((resolve, reject) => {
    const parser = new FeedParser({ strict: true, normalize: true, addmeta: false });
    const items: ReaderItem[] = [];
    parser.on('error', reject);
    parser.on('readable', function (this: FeedParser) {
      for (let item = this.read(); item; item = this.read()) items.push(item as unknown as ReaderItem);
    });
    parser.on('end', () => {
      const m = parser.meta as unknown as { title: string; link: string; xmlurl: string | null; '#type': string };
      resolve({ meta: { title: m.title, link: m.link, xmlurl: m.xmlurl, type: m['#type'] }, items });
    });
    Readable.from([xml]).pipe(parser);
  });
}
