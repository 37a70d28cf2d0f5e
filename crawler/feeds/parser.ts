/**
 * Feed documents to items: RSS 2.0, RSS 0.9x (also without a version attribute), RDF/RSS 1.0, Atom
 * and JSON Feed 1.0/1.1, in any declared (or undeclared) charset, with dates in the forms real feeds
 * use. xml.ts reads the XML (strictly, else leniently with a warning), json-feed.ts the JSON;
 * this module decodes the bytes first, says clearly what a document is when it is not a feed, and
 * maps the raw fields to items itself (dates: rss-parser's own date handling only knows English
 * RFC 822 and throws on a malformed Atom date). Pure, and without state between two calls: bytes in,
 * a ParsedFeed or a FEED_PARSE_ERROR out.
 */
import crypto from 'node:crypto';
import { createError } from '../../lib/errors';
import { charsetWarnings, decodeBody, type CharsetSource } from '../text/charset';
import { isPlausibleDate, parseDate } from '../text/dates';
import { looksLikeJson, parseJsonFeed } from './json-feed';
import { findTags } from '../text/markup';
import { storable } from '../text/storable';
import { rootElement as rootElementAt } from './root';
import { parseXmlFeed, type Raw } from './xml';
import { htmlToText, inlineText } from '../text/html-text';

export type FeedFormat = 'rss' | 'rdf' | 'atom' | 'json';

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
  /** The item's own text as plain text: the longest of content:encoded / Atom content, description /
   * summary, itunes:summary and Media RSS media:description. */
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
  /** What had to be forgiven to read the document (a charset declaration overruled, invalid UTF-8 replaced, not
   * well-formed XML read leniently, JSON items skipped). */
  warnings: string[];
}

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
  return rootElementAt(text)?.name ?? null;
}

function alternateFeeds(html: string): string[] {
  const out: string[] = [];
  for (const tag of findTags(html, 'link\\b')) {
    if (/rel\s*=\s*["']?alternate/i.test(tag) && /type\s*=\s*["']?application\/(?:rss|atom|rdf)\+xml/i.test(tag)) {
      const href = /href\s*=\s*["']([^"']+)["']/i.exec(tag);
      if (href) out.push(href[1]!);
    }
  }
  return out;
}

function classify(text: string): Exclude<FeedFormat, 'json'> {
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
  throw createError('FEED_PARSE_ERROR', `not a feed: the root element is <${root}>, expected <rss>, <rdf:RDF> or <feed> (or a JSON Feed)`);
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

/** An RSS guid that is a permalink (isPermaLink "true" or absent) and an http(s) URL, else null. */
function permalinkGuid(raw: Raw, base: string): string | null {
  const node = (raw['quin-guid'] as unknown[] | undefined)?.[0];
  const value = str(node);
  if (!value || !/^https?:\/\//i.test(value)) return null;
  const attr = (node as { $?: { isPermaLink?: string } } | undefined)?.$?.isPermaLink;
  return attr === undefined || attr.trim().toLowerCase() === 'true' ? absolute(value, base) : null;
}

/** Media RSS descriptions, on the item or inside its media:group (YouTube). */
function mediaDescription(raw: Raw): string | null {
  const direct = str(raw['quin-media-description']);
  if (direct) return direct;
  const group = (raw['quin-media-group'] as Raw[] | undefined)?.[0];
  return group ? str(group['media:description']) : null;
}

type TextSource = FeedItem['textSource'];

/** The longest of the item's texts (plain text), the first on a tie: content, description, itunes:summary, media:description. */
function itemText(raw: Raw, format: FeedFormat): { text: string; textSource: TextSource } {
  const candidates: [string | null, Exclude<TextSource, null>][] = [
    [format === 'atom' ? str(raw.content) : str(raw['content:encoded']), 'item_content'],
    [format === 'atom' ? str(raw.summary) : str(raw.description), 'item_description'],
    [str(raw['itunes:summary']), 'item_description'],
    [mediaDescription(raw), 'item_description'],
  ];
  let best: { text: string; textSource: TextSource } = { text: '', textSource: null };
  for (const [html, source] of candidates) {
    const text = htmlToText(html);
    if (text.length > best.text.length) best = { text, textSource: source };
  }
  return best;
}

function toItem(raw: Raw, format: FeedFormat, base: string, now: Date): FeedItem {
  const link = absolute(str(raw.link) ?? str(raw['rdf:about']), base) ?? (format === 'rss' ? permalinkGuid(raw, base) : null);
  const guid = str(raw.guid) ?? str(raw.id) ?? str(raw['rdf:about']);
  const title = inlineText(str(raw.title));
  const { text, textSource } = itemText(raw, format);
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

/** The document as raw fields: JSON Feed, or XML (RSS, RDF, Atom) read strictly or leniently. */
async function rawFeed(text: string): Promise<{ format: FeedFormat; feed: Raw; warnings: string[]; strictError: Error | null }> {
  if (looksLikeJson(text)) {
    const { feed, skipped } = parseJsonFeed(text);
    return { format: 'json', feed, warnings: skipped ? [`${skipped} JSON Feed items without an id were skipped`] : [], strictError: null };
  }
  const format = classify(text);
  const { feed, warning, strictError } = await parseXmlFeed(text.trimStart(), format);
  return { format, feed, warnings: warning ? [warning] : [], strictError };
}

export async function parseFeed(body: Buffer, opts: ParseFeedOptions): Promise<ParsedFeed> {
  const decoded = decodeBody(body, opts.headerCharset);
  const text = decoded.text.replace(/^\uFEFF/, '');
  const { format, feed, warnings, strictError } = await rawFeed(text);
  const siteUrl = absolute(str(feed.link), opts.url);
  const now = opts.now ?? new Date();
  const items = ((feed.items as Raw[] | undefined) ?? [])
    .map((i) => toItem(i, format, siteUrl ?? opts.url, now))
    .filter((i) => i.key !== '');
  const title = inlineText(str(feed.title)) || null;
  // A lenient read that found neither a title nor an item recovered nothing: the document's own error stands.
  if (strictError && !title && items.length === 0) throw strictError;
  // Item keys are looked up as they are stored: made storable here, where they are read.
  return storable({
    format,
    title,
    siteUrl,
    language: str(feed.language),
    ttlMinutes: ttlMinutes(feed),
    charset: decoded.charset,
    charsetSource: decoded.source,
    items,
    warnings: [...charsetWarnings(decoded), ...warnings],
  });
}
