/**
 * JSON Feed 1.0 and 1.1 (https://jsonfeed.org/version/1.1), validated with zod and mapped to the
 * same raw item fields the XML feeds give (title, link, guid, dates, content, summary, author). Pure.
 */
import { z } from 'zod';
import { createError } from '../../lib/errors';
import type { Raw } from './xml';

const Author = z.object({ name: z.string().optional() }).passthrough();

const Item = z
  .object({
    id: z.union([z.string(), z.number()]).transform(String),
    url: z.string().optional(),
    external_url: z.string().optional(),
    title: z.string().optional(),
    content_html: z.string().optional(),
    content_text: z.string().optional(),
    summary: z.string().optional(),
    date_published: z.string().optional(),
    date_modified: z.string().optional(),
    author: Author.optional(),
    authors: z.array(Author).optional(),
  })
  .passthrough();

const JsonFeed = z
  .object({
    version: z
      .string()
      .regex(/^https?:\/\/jsonfeed\.org\/version\/1(\.\d+)?\/?$/, 'version must be https://jsonfeed.org/version/1 or /1.1'),
    title: z.string().optional(),
    home_page_url: z.string().optional(),
    language: z.string().optional(),
    items: z.array(z.unknown()),
  })
  .passthrough();

/** True when the document looks like JSON (its first character is "{"), whatever its content type said. */
export function looksLikeJson(text: string): boolean {
  return text.trimStart().startsWith('{');
}

export interface JsonFeedParse {
  feed: Raw;
  /** Items that were not JSON Feed items (no id), skipped. */
  skipped: number;
}

/** The feed as raw fields (`items` as for the XML feeds), or FEED_PARSE_ERROR saying why it is not a JSON Feed. */
export function parseJsonFeed(text: string): JsonFeedParse {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw createError('FEED_PARSE_ERROR', `not a feed: malformed JSON (${(e as Error).message})`, undefined, e);
  }
  const parsed = JsonFeed.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw createError(
      'FEED_PARSE_ERROR',
      `not a JSON Feed: ${issue ? `${issue.path.join('.') || 'document'}: ${issue.message}` : 'invalid'}`,
    );
  }
  const items: Raw[] = [];
  let skipped = 0;
  for (const raw of parsed.data.items) {
    const item = Item.safeParse(raw);
    if (!item.success) {
      skipped++;
      continue;
    }
    const i = item.data;
    const author = i.authors?.find((a) => a.name)?.name ?? i.author?.name;
    items.push({
      guid: i.id,
      link: i.url ?? i.external_url,
      title: i.title,
      // HTML is preferred when both are given (as readers do); plain text is escaped so it reads as text.
      'content:encoded': i.content_html ?? (i.content_text !== undefined ? escapeHtml(i.content_text) : undefined),
      description: i.summary,
      'quin-published': i.date_published,
      'quin-updated': i.date_modified,
      author,
    });
  }
  const d = parsed.data;
  return { feed: { title: d.title, link: d.home_page_url, language: d.language, items }, skipped };
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
