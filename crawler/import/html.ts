/**
 * Saved web pages (a folder of .html files, or one file): each page's main text through the same
 * extraction as crawled pages, its metadata (date, author, site name) and the published fact-checks
 * (schema.org ClaimReview) it carries. The page's address is its rel=canonical or og:url; a page
 * without one keeps a file:// address (shown, never linked).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createError } from '../../lib/errors';
import { findTags } from '../text/markup';
import { decodeBody } from '../text/charset';
import { extractArticle } from '../extract/article';
import type { ArticleInput } from '../store/articles';

function htmlFiles(p: string): string[] {
  if (!fs.existsSync(p)) throw createError('NOT_FOUND', `no such file or folder: ${p}`);
  if (fs.statSync(p).isFile()) return [p];
  return fs
    .readdirSync(p, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? htmlFiles(path.join(p, e.name)) : /\.html?$/i.test(e.name) ? [path.join(p, e.name)] : []));
}

/** The address a saved page declares for itself (rel=canonical, else og:url), when it is absolute http(s). */
export function declaredUrl(html: string): string | null {
  const head = html.slice(0, 200_000);
  // Tags found in linear time (text/markup.ts): a saved page is input like any other.
  const link = findTags(head, 'link\\b').find((t) => /rel\s*=\s*["']?canonical/i.test(t));
  const og = findTags(head, 'meta\\b').find((t) => /property\s*=\s*["']og:url["']/i.test(t));
  for (const [tag, attr] of [
    [link, 'href'],
    [og, 'content'],
  ] as const) {
    const v = tag && new RegExp(`${attr}\\s*=\\s*["']([^"']+)["']`, 'i').exec(tag)?.[1];
    if (v && /^https?:\/\//i.test(v.trim())) return v.trim().replace(/&amp;/g, '&');
  }
  return null;
}

export async function* readHtml(p: string, now = new Date()): AsyncGenerator<ArticleInput> {
  for (const file of htmlFiles(p)) {
    const html = decodeBody(fs.readFileSync(file), null).text;
    const url = declaredUrl(html) ?? pathToFileURL(path.resolve(file)).toString();
    const page = extractArticle(html, url, now);
    const host = /^https?:/.test(url) ? new URL(url).hostname.replace(/^www\./, '') : null;
    yield {
      canonicalUrl: page.canonicalUrl,
      originalUrl: url,
      externalId: path.basename(file),
      title: page.title ?? path.basename(file),
      author: page.author,
      source: page.siteName ?? host ?? 'saved pages',
      language: page.language,
      publishedAt: page.published?.date ?? null,
      publishedAtSource: page.published?.source ?? 'unknown',
      fetchedAt: now,
      textSource: 'import',
      extractionStatus: 'ok',
      text: page.text,
      claimReviews: page.claimReviews,
    };
  }
}
