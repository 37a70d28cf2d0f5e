/**
 * A pasted text as an article to check: control characters out (a paste from a PDF or a terminal
 * carries some), paragraphs kept, and a clear error past the limit — the reader is told how long the
 * text is and what to do, and nothing is checked or stored.
 */
import { createError } from '../../lib/errors';
import { MAX_TEXT_CHARS, type Article } from '../schema';

export function pastedArticle(raw: string, title: string | undefined, publishedAt: string | undefined): { article: Article; text: string } {
  const text = raw
    .replace(/\r\n?/g, '\n')
    .replace(/(?![\t\n])\p{Cc}/gu, ' ')
    .trim();
  if (!text) throw createError('INVALID_INPUT', 'the text is empty: paste an article or give its URL', { param: 'text' });
  if (text.length > MAX_TEXT_CHARS) {
    throw createError(
      'INVALID_INPUT',
      `the text is ${text.length.toLocaleString('en')} characters long; at most ${MAX_TEXT_CHARS.toLocaleString('en')} are checked at once: check it in parts`,
      { param: 'text', max: MAX_TEXT_CHARS, got: text.length },
    );
  }
  const day = publishedAt ? new Date(/^\d{4}-\d{2}-\d{2}$/.test(publishedAt) ? `${publishedAt}T00:00:00Z` : publishedAt) : null;
  return {
    text,
    article: {
      url: null,
      finalUrl: null,
      canonicalUrl: null,
      title: title?.trim() || null,
      siteName: null,
      publishedAt: day?.toISOString() ?? null,
      publishedFrom: day ? 'given' : null,
      characters: text.length,
      truncated: false,
    },
  };
}
