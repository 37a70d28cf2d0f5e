/**
 * `probeFeed`: fetch a URL once and parse it, for an admin adding a feed. Throws a clear, typed error
 * when the URL cannot be fetched or is not a feed (an HTML page names the feeds it links to).
 */
import type { Config } from '../../lib/config';
import { normalizeFeedUrl } from './manage';
import type { FeedFormat } from './parser';
import { parseThread, type ParseThread } from './parse-thread';
import { createHttpClient, type HttpClient } from '../http';

export interface FeedProbe {
  url: string;
  /** After redirects. */
  finalUrl: string;
  format: FeedFormat;
  title: string | null;
  siteUrl: string | null;
  language: string | null;
  items: number;
  itemsWithLinks: number;
  itemsWithDates: number;
  latestPublished: string | null;
  sampleTitles: string[];
  ttlMinutes: number | null;
}

/** The feed is parsed in the parse thread (parse-thread.ts), never on the caller's event loop. */
export async function probeFeed(
  url: string,
  config: Config,
  opts: { http?: HttpClient; signal?: AbortSignal; parser?: ParseThread } = {},
): Promise<FeedProbe> {
  const normalized = normalizeFeedUrl(url);
  const http = opts.http ?? createHttpClient(config);
  const res = await http.fetch({ url: normalized, expect: 'feed', signal: opts.signal }).finally(() => {
    if (!opts.http) void http.close();
  });
  const feed = await (opts.parser ?? parseThread()).parseFeed(res.body, { url: res.url, headerCharset: res.charset });
  const dates = feed.items.map((i) => i.published?.getTime()).filter((t): t is number => t !== undefined);
  return {
    url: normalized,
    finalUrl: res.url,
    format: feed.format,
    title: feed.title,
    siteUrl: feed.siteUrl,
    language: feed.language,
    items: feed.items.length,
    itemsWithLinks: feed.items.filter((i) => i.link).length,
    itemsWithDates: dates.length,
    latestPublished: dates.length ? new Date(Math.max(...dates)).toISOString() : null,
    sampleTitles: feed.items.slice(0, 5).map((i) => i.title),
    ttlMinutes: feed.ttlMinutes,
  };
}
