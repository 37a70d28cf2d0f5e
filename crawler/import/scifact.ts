/**
 * SciFact corpus.jsonl: {"doc_id", "title", "sentences": [...], "structured"}. Sentences are kept
 * as given (the gold evidence indexes refer to them), so snippets line up with the benchmark.
 */
import { z } from 'zod';
import { createError } from '../../lib/errors';
import type { ArticleInput } from '../store/articles';
import { readJsonLines } from './lines';

const Doc = z.object({ doc_id: z.number().int(), title: z.string(), sentences: z.array(z.string()) });

export const SCIFACT_SOURCE = 'SciFact';

export function scifactUrl(docId: number | string): string {
  return `corpus://scifact/${docId}`;
}

export async function* readScifact(file: string, now = new Date()): AsyncGenerator<ArticleInput> {
  for await (const { line, value } of readJsonLines(file)) {
    const parsed = Doc.safeParse(value);
    if (!parsed.success) throw createError('INVALID_INPUT', `${file}:${line}: not a SciFact corpus record`);
    const d = parsed.data;
    yield {
      canonicalUrl: scifactUrl(d.doc_id),
      originalUrl: scifactUrl(d.doc_id),
      externalId: String(d.doc_id),
      title: d.title,
      source: SCIFACT_SOURCE,
      publishedAt: null,
      publishedAtSource: 'unknown',
      fetchedAt: now,
      textSource: 'import',
      extractionStatus: 'ok',
      sentences: d.sentences,
    };
  }
}
