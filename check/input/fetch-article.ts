/**
 * An article fetched for a check, through the crawler's one HTTP module: the address guard (private,
 * loopback and metadata addresses refused after DNS and on every redirect), robots.txt, the size and
 * time caps (tighter here than for the crawl: a reader is waiting), content types checked before a
 * body is read; then the charset, and Readability in the parse thread (never on the caller's event
 * loop) for the text, the title and the page's date. Every failure is a QuinError that says what to
 * do instead (paste the text).
 */
import { createHttpClient, decodeBody, parseThread, type FetchResponse, type HttpClient, type ParseThread } from '../../crawler';
import type { Config } from '../../lib/config';
import { createError, isQuinError } from '../../lib/errors';
import { MAX_TEXT_CHARS, type Article } from '../schema';

/** A reader waits for the page: at most this long (or the crawl's own timeout when shorter). */
export const CHECK_FETCH_TIMEOUT_MS = 15_000;
/** Page size cap after decompression (or the crawl's own when smaller): articles are far smaller. */
export const CHECK_MAX_PAGE_BYTES = 5 * 1024 * 1024;
/** Between the robots.txt request and the page's (the crawl waits QUIN_HOST_DELAY_MS): one page, asked for by a person. */
const CHECK_HOST_DELAY_MS = 250;

export interface FetchedArticle {
  article: Article;
  text: string;
  /** Addresses the page is known by (asked, final, canonical), to leave stored copies out of the evidence. */
  urls: string[];
}

export interface FetchDeps {
  http?: HttpClient;
  parser?: ParseThread;
  signal?: AbortSignal;
  now?: () => Date;
}

/** The crawl's HTTP settings held to the check's caps. */
export function checkHttpConfig(config: Config): Config {
  return {
    ...config,
    fetchTimeoutMs: Math.min(config.fetchTimeoutMs, CHECK_FETCH_TIMEOUT_MS),
    maxResponseBytes: Math.min(config.maxResponseBytes, CHECK_MAX_PAGE_BYTES),
    hostDelayMs: Math.min(config.hostDelayMs, CHECK_HOST_DELAY_MS),
  };
}

/** Share of characters that no text has: NULs, other control characters and U+FFFD (bytes that were not text). */
export function binaryShare(text: string): number {
  const sample = text.slice(0, 65_536);
  if (!sample.length) return 0;
  const bad = sample.match(/(?![\t\n\r\f\v])[\p{Cc}\ufffd]/gu)?.length ?? 0;
  return bad / sample.length;
}

async function fetchPage(url: string, config: Config, deps: FetchDeps): Promise<FetchResponse> {
  const http = deps.http ?? createHttpClient(checkHttpConfig(config));
  try {
    return await http.fetch({ url, expect: 'html', signal: deps.signal });
  } catch (e) {
    throw explained(e);
  } finally {
    if (!deps.http) void http.close();
  }
}

/** The fetch's error with what to do about it, for a reader who only wanted an article checked. */
function explained(e: unknown): unknown {
  if (!isQuinError(e)) return e;
  const tip: Partial<Record<string, string>> = {
    FETCH_ROBOTS: 'the site asks robots not to fetch this page: paste its text instead',
    FETCH_TOO_LARGE: `the page is larger than ${CHECK_MAX_PAGE_BYTES / 1024 / 1024} MB: paste the article's text instead`,
    FETCH_TIMEOUT: 'the site did not answer in time: try again later, or paste the text',
    FETCH_CONTENT_TYPE: 'this is not a web page: give the address of an article, or paste its text',
  };
  const hint = tip[e.code];
  return hint ? createError(e.code, `${e.message} — ${hint}`, e.details, e) : e;
}

/** The first `max` characters, cut at the last paragraph break before them (else at the limit). */
function beginning(text: string, max: number): string {
  const cut = text.lastIndexOf('\n', max);
  return text.slice(0, cut > max / 2 ? cut : max);
}

export async function fetchArticle(url: string, config: Config, deps: FetchDeps = {}): Promise<FetchedArticle> {
  const res = await fetchPage(url, config, deps);
  const html = decodeBody(res.body, res.charset).text;
  if (binaryShare(html) > 0.02)
    throw createError('EXTRACTION_FAILED', `${res.url} is not a text page (binary content): paste the article's text instead`);
  const page = await (deps.parser ?? parseThread()).extractArticle(html, res.url, deps.now?.() ?? new Date());
  const text = page.text.trim();
  if (!text) throw createError('EXTRACTION_FAILED', `no article text found at ${res.url}: paste the article's text instead`);
  const truncated = text.length > MAX_TEXT_CHARS;
  return {
    text: truncated ? beginning(text, MAX_TEXT_CHARS) : text,
    urls: [...new Set([url, res.url, page.canonicalUrl])],
    article: {
      url,
      finalUrl: res.url,
      canonicalUrl: page.canonicalUrl,
      title: page.title,
      siteName: page.siteName ?? null,
      publishedAt: page.published?.date.toISOString() ?? null,
      publishedFrom: page.published?.source ?? null,
      characters: text.length,
      truncated,
    },
  };
}
