/**
 * Feed documents to items: RSS 2.0, RSS 0.9x (also without a version attribute), RDF/RSS 1.0 and
 * Atom, in any declared (or undeclared) charset, with dates in the forms real feeds use. rss-parser
 * does the XML walking; this module decodes the bytes first, says clearly what a document is when it
 * is not a feed, and reads the raw date fields itself (rss-parser's own date handling only knows
 * English RFC 822 and throws on a malformed Atom date). Pure: bytes in, a ParsedFeed or a
 * FEED_PARSE_ERROR out.
 */
import crypto from 'node:crypto';
import Parser from 'rss-parser';
import { createError } from '../lib/errors';
import { decodeBody, type CharsetSource } from './charset';
import { isPlausibleDate, parseDate } from './dates';
import { htmlToText, inlineText } from './html-text';

export type FeedFormat = 'rss' | 'rdf' | 'atom';

export interface FeedItem {
  /** Stable identity within the feed: guid/id, else the link, else a hash of title and text. */
  key: string;
  guid: string | null;
  link: string | null;
  title: string;
  author: string | null;
  published: Date | null;
  /** The raw date string the date came from (or that could not be read). */
  publishedRaw: string | null;
  /** Why a raw date was not used: it could not be read, or it is implausible (future, pre-1980). */
  dateProblem: 'unreadable' | 'implausible' | null;
  /** The item's own text as plain text (content:encoded / Atom content, else description/summary). */
  text: string;
  textSource: 'item_content' | 'item_description' | null;
}

export interface ParsedFeed {
  format: FeedFormat;
  title: string | null;
  siteUrl: string | null;
  language: string | null;
  /** The feed's own polling hint (RSS ttl, or sy:updatePeriod/sy:updateFrequency), in minutes. */
  ttlMinutes: number | null;
  charset: string;
  charsetSource: CharsetSource;
  items: FeedItem[];
}

type Raw = Record<string, unknown>;

// Atom dates are renamed before rss-parser sees them: it calls new Date(x).toISOString() on them,
// which throws on anything the engine cannot read and fails the whole feed.
const RENAMED: Record<string, string> = { published: 'quin-published', updated: 'quin-updated' };

const parser = new Parser<Raw, Raw>({
  customFields: {
    feed: ['sy:updatePeriod', 'sy:updateFrequency', 'quin-updated'] as never,
    item: ['quin-published', 'quin-updated', 'dc:date', 'description', 'summary', 'id', 'author', 'dc:creator'] as never,
  },
  xml2js: { tagNameProcessors: [(name: string) => RENAMED[name] ?? name] },
});

function str(v: unknown): string | null {
  if (typeof v === 'string') return v.trim() || null;
  if (Array.isArray(v)) return str(v[0]);
  if (v && typeof v === 'object') {
    const o = v as { _?: unknown; name?: unknown };
    if (typeof o._ === 'string') return o._.trim() || null;
    if (o.name !== undefined) return str(o.name);
  }
  return null;
}

/** The first element's name, skipping the XML declaration, comments, PIs and the doctype. */
export function rootElement(text: string): string | null {
  const m = /^(?:\s|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>)*<([A-Za-z_][\w.:-]*)/i.exec(text);
  return m ? m[1]! : null;
}

function alternateFeeds(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<link\b[^>]*>/gi)) {
    const tag = m[0];
    if (/rel\s*=\s*["']?alternate/i.test(tag) && /type\s*=\s*["']?application\/(?:rss|atom|rdf)\+xml/i.test(tag)) {
      const href = /href\s*=\s*["']([^"']+)["']/i.exec(tag);
      if (href) out.push(href[1]!);
    }
  }
  return out;
}

function classify(text: string): FeedFormat {
  const root = rootElement(text);
  if (!root) {
    throw createError('FEED_PARSE_ERROR', text.trim() ? 'not a feed: no XML element found' : 'not a feed: the document is empty');
  }
  const name = root.toLowerCase();
  if (name === 'rss') return 'rss';
  if (name === 'feed') return 'atom';
  if (name.endsWith(':rdf') || name === 'rdf') return 'rdf';
  if (['html', 'head', 'body'].includes(name) || /^<!doctype html/i.test(text.trimStart())) {
    const alt = alternateFeeds(text);
    throw createError(
      'FEED_PARSE_ERROR',
      `not a feed: an HTML page${alt.length ? ` (it links to feeds: ${alt.slice(0, 3).join(', ')})` : ''}`,
      {
        alternates: alt,
      },
    );
  }
  throw createError('FEED_PARSE_ERROR', `not a feed: the root element is <${root}>, expected <rss>, <rdf:RDF> or <feed>`);
}

function xmlError(e: unknown): Error {
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

// A bare "&" (not starting an entity) is the most common reason a real feed is not well-formed.
const BARE_AMP = /&(?!(?:[A-Za-z][A-Za-z0-9]*|#\d+|#x[0-9A-Fa-f]+);)/g;

async function parseXml(text: string, format: FeedFormat): Promise<Raw> {
  // RSS without a version attribute (seen in real feeds) has the RSS 2.0 structure.
  const prepared = format === 'rss' ? text.replace(/<rss\b(?![^>]*\bversion\s*=)/, '<rss version="2.0"') : text;
  try {
    return (await parser.parseString(prepared)) as unknown as Raw;
  } catch (e) {
    if (!BARE_AMP.test(prepared)) throw xmlError(e);
    try {
      return (await parser.parseString(prepared.replace(BARE_AMP, '&amp;'))) as unknown as Raw;
    } catch {
      throw xmlError(e);
    }
  }
}

function absolute(link: string | null, base: string): string | null {
  if (!link) return null;
  try {
    const u = new URL(link, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

const PERIOD_MINUTES: Record<string, number> = { hourly: 60, daily: 1440, weekly: 10080, monthly: 43200, yearly: 525600 };

function ttlMinutes(feed: Raw): number | null {
  const ttl = Number(str(feed.ttl));
  if (Number.isFinite(ttl) && ttl > 0) return Math.round(ttl);
  const period = PERIOD_MINUTES[str(feed['sy:updatePeriod'])?.toLowerCase() ?? ''];
  if (!period) return null;
  const freq = Number(str(feed['sy:updateFrequency']) ?? 1);
  return Math.max(1, Math.round(period / (Number.isFinite(freq) && freq > 0 ? freq : 1)));
}

function itemDate(raw: Raw, now: Date): Pick<FeedItem, 'published' | 'publishedRaw' | 'dateProblem'> {
  const candidates = [raw.pubDate, raw['dc:date'], raw['quin-published'], raw['quin-updated']]
    .map(str)
    .filter((s): s is string => s !== null);
  for (const c of candidates) {
    const d = parseDate(c);
    if (d)
      return isPlausibleDate(d, now)
        ? { published: d, publishedRaw: c, dateProblem: null }
        : { published: null, publishedRaw: c, dateProblem: 'implausible' };
  }
  return candidates.length
    ? { published: null, publishedRaw: candidates[0]!, dateProblem: 'unreadable' }
    : { published: null, publishedRaw: null, dateProblem: null };
}

function toItem(raw: Raw, format: FeedFormat, base: string, now: Date): FeedItem {
  const link = absolute(str(raw.link) ?? str(raw['rdf:about']), base);
  const guid = str(raw.guid) ?? str(raw.id) ?? str(raw['rdf:about']);
  const title = inlineText(str(raw.title));
  const content = htmlToText(format === 'atom' ? str(raw.content) : str(raw['content:encoded']));
  const description = htmlToText(format === 'atom' ? str(raw.summary) : str(raw.description));
  const [text, textSource] =
    content && content.length >= description.length
      ? [content, 'item_content' as const]
      : description
        ? [description, 'item_description' as const]
        : ['', null];
  const key = guid ?? link ?? (title || text ? `sha1:${crypto.createHash('sha1').update(`${title}\n${text}`).digest('hex')}` : '');
  return {
    key,
    guid,
    link,
    title,
    author: inlineText(str(raw.creator) ?? str(raw['dc:creator']) ?? str(raw.author)) || null,
    ...itemDate(raw, now),
    text,
    textSource,
  };
}

export interface ParseFeedOptions {
  /** The URL the feed was fetched from (relative links resolve against it). */
  url: string;
  headerCharset?: string | null;
  now?: Date;
}

export async function parseFeed(body: Buffer, opts: ParseFeedOptions): Promise<ParsedFeed> {
  const decoded = decodeBody(body, opts.headerCharset);
  const text = decoded.text.replace(/^\uFEFF/, '');
  const format = classify(text);
  const feed = await parseXml(text.trimStart(), format);
  const siteUrl = absolute(str(feed.link), opts.url);
  const now = opts.now ?? new Date();
  const items = ((feed.items as Raw[] | undefined) ?? [])
    .map((i) => toItem(i, format, siteUrl ?? opts.url, now))
    .filter((i) => i.key !== '');
  return {
    format,
    title: inlineText(str(feed.title)) || null,
    siteUrl,
    language: str(feed.language),
    ttlMinutes: ttlMinutes(feed),
    charset: decoded.charset,
    charsetSource: decoded.source,
    items,
  };
}
