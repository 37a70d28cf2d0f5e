/**
 * Generic JSON-lines corpus: one {"id","title","text","url"?,"published"?,"source"?} a line.
 */
import path from 'node:path';
import { z } from 'zod';
import { createError } from '../../lib/errors';
import type { ArticleInput } from '../store/articles';
import { parseDate } from '../text/dates';
import { jsonLineFiles, readJsonLines } from './lines';

const Record = z.object({
  id: z.union([z.string().min(1), z.number()]),
  title: z.string().default(''),
  text: z.string().min(1),
  url: z.string().url().optional(),
  published: z.union([z.string(), z.number()]).optional().nullable(),
  source: z.string().min(1).optional(),
});

/** One file, or every JSON-lines file of a folder. */
export async function* readJsonl(p: string, now = new Date()): AsyncGenerator<ArticleInput> {
  for (const file of jsonLineFiles(p)) yield* readFile(file, now);
}

async function* readFile(file: string, now: Date): AsyncGenerator<ArticleInput> {
  const corpus = path.basename(file).replace(/\.(jsonl|json|ndjson)$/i, '');
  for await (const { line, value } of readJsonLines(file)) {
    const parsed = Record.safeParse(value);
    if (!parsed.success) {
      throw createError(
        'INVALID_INPUT',
        `${file}:${line}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    }
    const r = parsed.data;
    const published = r.published == null ? null : parseDate(String(r.published));
    if (r.published != null && published === null) {
      throw createError('INVALID_INPUT', `${file}:${line}: unrecognised date ${JSON.stringify(r.published)}`);
    }
    const id = String(r.id);
    const url = r.url ?? `corpus://${encodeURIComponent(r.source ?? corpus)}/${encodeURIComponent(id)}`;
    yield {
      canonicalUrl: url,
      originalUrl: url,
      externalId: id,
      title: r.title || r.text.slice(0, 80),
      source: r.source ?? corpus,
      publishedAt: published,
      publishedAtSource: published ? 'import' : 'unknown',
      fetchedAt: now,
      textSource: 'import',
      extractionStatus: 'ok',
      text: r.text,
    };
  }
}
