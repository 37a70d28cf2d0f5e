/**
 * HuffPost "News Category" records, one JSON object a line: {category, headline, authors, link,
 * short_description, date}; the file, or the folder it ships in (every JSON-lines file in it). A record has only a headline and a one-sentence description, so both
 * form the text (the headline as its own sentence); the link is the article's URL and the date its
 * publication day.
 */
import { z } from 'zod';
import { createError } from '../../lib/errors';
import { canonicalUrl } from '../extract/canonical';
import { parseDate } from '../text/dates';
import type { ArticleInput } from '../store/articles';
import { jsonLineFiles, readJsonLines } from './lines';

export const HUFFPOST_SOURCE = 'HuffPost';

const Record = z.object({
  headline: z.string(),
  short_description: z.string().default(''),
  link: z.string().min(1),
  date: z.string().optional(),
  authors: z.string().optional(),
  category: z.string().optional(),
});

export async function* readHuffpost(p: string, now = new Date()): AsyncGenerator<ArticleInput> {
  for (const file of jsonLineFiles(p)) yield* readFile(file, now);
}

async function* readFile(file: string, now: Date): AsyncGenerator<ArticleInput> {
  for await (const { line, value } of readJsonLines(file)) {
    const parsed = Record.safeParse(value);
    if (!parsed.success)
      throw createError('INVALID_INPUT', `${file}:${line}: not a HuffPost record (${parsed.error.issues[0]?.message ?? 'invalid'})`);
    const r = parsed.data;
    const url = canonicalUrl(r.link);
    if (!url) throw createError('INVALID_INPUT', `${file}:${line}: link is not an http(s) URL: ${JSON.stringify(r.link)}`);
    const published = r.date ? parseDate(r.date) : null;
    if (r.date && !published) throw createError('INVALID_INPUT', `${file}:${line}: unrecognised date ${JSON.stringify(r.date)}`);
    const headline = r.headline.replace(/\s+/g, ' ').trim();
    const description = r.short_description.replace(/\s+/g, ' ').trim();
    yield {
      canonicalUrl: url,
      originalUrl: r.link,
      externalId: url,
      title: headline || description.slice(0, 80),
      author: r.authors?.trim() || null,
      source: HUFFPOST_SOURCE,
      language: 'en',
      publishedAt: published,
      publishedAtSource: published ? 'import' : 'unknown',
      fetchedAt: now,
      textSource: 'import',
      extractionStatus: 'ok',
      // A headline without final punctuation would run into the description's first sentence.
      text: [headline && !/[.!?…"”']$/.test(headline) ? `${headline}.` : headline, description].filter(Boolean).join('\n'),
    };
  }
}
