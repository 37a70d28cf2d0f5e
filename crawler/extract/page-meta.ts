/**
 * What a page says about itself in its metadata: publication date (meta tags, then JSON-LD, then
 * <time pubdate>), author, site name, language and rel=canonical. Reads a parsed Document; pure.
 */
import { isPlausibleDate, parseDate } from '../text/dates';

export interface PageDate {
  date: Date;
  source: 'meta' | 'jsonld';
  raw: string;
}

export interface PageMeta {
  published: PageDate | null;
  author: string | null;
  siteName: string | null;
  language: string | null;
  canonical: string | null;
}

const DATE_META = [
  'article:published_time',
  'og:article:published_time',
  'og:published_time',
  'datepublished',
  'pubdate',
  'publishdate',
  'publish-date',
  'publish_date',
  'published_time',
  'article.published',
  'dc.date.issued',
  'dc.date',
  'dcterms.issued',
  'dcterms.created',
  'dcterms.date',
  'sailthru.date',
  'parsely-pub-date',
  'citation_publication_date',
  'citation_date',
  'date',
];

function metaContent(doc: Document, names: string[]): string | null {
  const wanted = new Map(names.map((n, i) => [n, i]));
  let best: { rank: number; value: string } | null = null;
  for (const el of doc.querySelectorAll('meta')) {
    const key = (el.getAttribute('property') ?? el.getAttribute('name') ?? el.getAttribute('itemprop') ?? '').trim().toLowerCase();
    const rank = wanted.get(key);
    const value = el.getAttribute('content')?.trim();
    if (rank !== undefined && value && (!best || rank < best.rank)) best = { rank, value };
  }
  return best?.value ?? null;
}

/** Every object in the page's JSON-LD blocks, @graph members included. Malformed blocks are skipped. */
export function jsonLdObjects(blocks: string[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const visit = (v: unknown, depth: number) => {
    if (depth > 5 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) return v.forEach((x) => visit(x, depth + 1));
    const o = v as Record<string, unknown>;
    out.push(o);
    if (o['@graph']) visit(o['@graph'], depth + 1);
    if (o.mainEntity) visit(o.mainEntity, depth + 1);
  };
  for (const b of blocks) {
    try {
      visit(JSON.parse(b.trim().replace(/^<!--|-->$/g, '')), 0);
    } catch {
      // A broken JSON-LD block is common and harmless: ignore it.
    }
  }
  return out;
}

function plausible(raw: string | null | undefined, source: PageDate['source'], now: Date): PageDate | null {
  if (!raw || typeof raw !== 'string') return null;
  const date = parseDate(raw);
  return isPlausibleDate(date, now) ? { date, source, raw } : null;
}

function jsonLdDate(objects: Record<string, unknown>[], now: Date): PageDate | null {
  for (const key of ['datePublished', 'dateCreated']) {
    for (const o of objects) {
      const d = plausible(o[key] as string | undefined, 'jsonld', now);
      if (d) return d;
    }
  }
  return null;
}

function jsonLdAuthor(objects: Record<string, unknown>[]): string | null {
  for (const o of objects) {
    const a = o.author;
    const first = Array.isArray(a) ? a[0] : a;
    if (typeof first === 'string' && first.trim()) return first.trim();
    if (first && typeof first === 'object' && typeof (first as { name?: unknown }).name === 'string')
      return (first as { name: string }).name.trim();
  }
  return null;
}

export function readPageMeta(doc: Document, jsonLdBlocks: string[], now = new Date()): PageMeta {
  const objects = jsonLdObjects(jsonLdBlocks);
  const timeEl = doc.querySelector(
    'time[pubdate][datetime], time[itemprop="datePublished"][datetime], [itemprop="datePublished"][datetime]',
  );
  const published =
    plausible(metaContent(doc, DATE_META), 'meta', now) ??
    jsonLdDate(objects, now) ??
    plausible(timeEl?.getAttribute('datetime'), 'meta', now);
  const lang = (doc.documentElement.getAttribute('lang') ?? metaContent(doc, ['og:locale', 'content-language', 'language']) ?? '').trim();
  return {
    published,
    author: metaContent(doc, ['author', 'article:author', 'parsely-author', 'sailthru.author', 'dc.creator']) ?? jsonLdAuthor(objects),
    siteName: metaContent(doc, ['og:site_name', 'application-name']),
    language: /^[a-z]{2,3}\b/i.test(lang) ? lang.slice(0, /^[a-z]{3}\b/i.test(lang) ? 3 : 2).toLowerCase() : null,
    canonical: doc.querySelector('link[rel~="canonical"][href]')?.getAttribute('href') ?? metaContent(doc, ['og:url']),
  };
}
