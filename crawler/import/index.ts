/**
 * `quin import <format> <path>`: local corpora through the same snippet pipeline as crawled
 * articles. Importing twice adds nothing (canonical URL + content hash).
 */
import type { Db } from '../../lib/db/client';
import { createError } from '../../lib/errors';
import { createProgress } from '../../lib/progress';
import type { WindowOptions } from '../text/snippets';
import { storeArticles, type ArticleInput, type StoreOutcome } from '../store/articles';
import { readBbc } from './bbc';
import { readHtml } from './html';
import { readHuffpost } from './huffpost';
import { readJsonl } from './jsonl';
import { readReuters } from './reuters';
import { readScifact } from './scifact';

export type ImportReader = (path: string) => AsyncIterable<ArticleInput>;

export const IMPORT_FORMATS: Record<string, ImportReader> = {
  jsonl: readJsonl,
  scifact: readScifact,
  reuters: readReuters,
  bbc: readBbc,
  huffpost: readHuffpost,
  html: readHtml,
};

export interface ImportSummary extends Record<StoreOutcome, number> {
  format: string;
  path: string;
  snippets: number;
  seconds: number;
}

export interface ImportOptions {
  window: WindowOptions;
  batchSize?: number;
  progress?: boolean;
}

export async function importCorpus(db: Db, format: string, path: string, opts: ImportOptions): Promise<ImportSummary> {
  const reader = IMPORT_FORMATS[format];
  if (!reader) throw createError('INVALID_INPUT', `unknown import format "${format}" (known: ${Object.keys(IMPORT_FORMATS).join(', ')})`);
  const started = Date.now();
  const summary: ImportSummary = { format, path, created: 0, updated: 0, unchanged: 0, empty: 0, snippets: 0, seconds: 0 };
  const progress = opts.progress === false ? undefined : createProgress({ label: `import ${format}`, unit: 'articles' });
  const batchSize = opts.batchSize ?? 200;
  let batch: ArticleInput[] = [];
  const flush = async () => {
    if (!batch.length) return;
    for (const r of await storeArticles(db, batch, opts.window)) {
      summary[r.outcome]++;
      summary.snippets += r.snippets;
    }
    progress?.tick(batch.length);
    batch = [];
  };
  for await (const article of reader(path)) {
    batch.push(article);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  summary.seconds = (Date.now() - started) / 1000;
  progress?.done(`${summary.created} new, ${summary.updated} updated, ${summary.unchanged} unchanged, ${summary.snippets} snippets`);
  return summary;
}
