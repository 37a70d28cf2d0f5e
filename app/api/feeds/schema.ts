/** /api/feeds (admin): list, add, change and remove the crawled feeds. */
import { z } from 'zod';
import type { FeedHealth } from '../../../crawler';

const feedUrl = z
  .string()
  .trim()
  .min(1, 'give the feed URL')
  .max(2000)
  .refine((v) => /^https?:\/\//i.test(v) && URL.canParse(v), 'must be an http:// or https:// URL');

const feedId = z.coerce.number().int().positive().describe('Feed id.');

export const addFeedBody = z.object({
  url: feedUrl.describe('The RSS / Atom / RDF feed URL. It is fetched once to confirm that it parses.'),
  intervalMinutes: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .optional()
    .describe('Polling interval (default QUIN_FEED_INTERVAL_MINUTES).'),
  title: z.string().trim().max(300).optional().describe('Display name (default: the title the feed gives itself).'),
});

export const patchFeedBody = z
  .object({
    id: feedId,
    action: z.enum(['pause', 'resume', 'refresh']).optional().describe('pause: stop polling; resume: poll again; refresh: check it now.'),
    intervalMinutes: z.coerce
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 60)
      .optional(),
    title: z.string().max(300).optional().describe('Display name; an empty string goes back to the title the feed gives itself.'),
  })
  .refine(
    (b) => b.action !== undefined || b.intervalMinutes !== undefined || b.title !== undefined,
    'give an action, intervalMinutes or title',
  );

export const deleteFeedQuery = z.object({ id: feedId });

export const feedHealth = z.object({
  id: z.number().int(),
  url: z.string(),
  title: z.string().nullable(),
  siteUrl: z.string().nullable(),
  category: z.string().nullable().describe('Folder in the feed list (OPML outlines, "News / World").'),
  status: z.string().describe('active | paused | broken'),
  intervalMinutes: z.number().int(),
  lastCheckedAt: z.string().nullable(),
  nextCheckAt: z.string(),
  lastSuccessAt: z.string().nullable(),
  consecutiveFailures: z.number().int(),
  lastError: z.string().nullable(),
  lastErrorCode: z.string().nullable().describe('Error code from lib/errors.ts, e.g. FETCH_TIMEOUT, FEED_PARSE_ERROR.'),
  lastErrorAt: z.string().nullable(),
  lastHttpStatus: z.number().int().nullable(),
  parseWarning: z
    .string()
    .nullable()
    .describe(
      'What had to be forgiven to read the last document, or null: a charset declaration the bytes contradict, invalid UTF-8 replaced (with the count), XML that was not well-formed read leniently, more new items than one check takes in. Shown beside the state (an ok feed may have one).',
    ),
  hintMinutes: z.number().int().nullable().describe("The feed's own polling hint (RSS ttl, Cache-Control), minutes."),
  itemsSeen: z.number().int(),
  itemsNew: z.number().int(),
  articlesExtracted: z.number().int(),
  articlesFailed: z.number().int(),
  snippetsMade: z.number().int(),
  articles: z.number().int(),
  pendingItems: z.number().int().describe('Items listed by the feed whose article is still to be fetched.'),
  state: z
    .enum(['ok', 'new', 'degraded', 'failing', 'broken', 'paused'])
    .describe('What the health means: degraded = the feed is read but its items do not become articles (or it lists none).'),
  stateReason: z.string().nullable().describe('Why the state is not ok.'),
  recentItems: z
    .object({
      settled: z.number().int(),
      stored: z.number().int(),
      failed: z.number().int(),
      pending: z.number().int(),
      lastError: z.string().nullable(),
    })
    .describe('What became of the latest 50 items, and why the newest failed one failed.'),
  failingSince: z.string().nullable().describe('Start of the current run of failed checks.'),
  createdAt: z.string(),
});

export const feedList = z.object({ feeds: z.array(feedHealth) });
export const feedOne = z.object({ feed: feedHealth });
export const feedRemoved = z.object({ removed: z.object({ id: z.number().int(), url: z.string() }) });

// Compile-time check: every FeedHealth fits this schema (new fields there must be added here; the API
// e2e tests parse real responses with the strict schema to catch what a type check cannot).
export function asFeedHealthJson(v: FeedHealth): z.output<typeof feedHealth> {
  return v;
}
