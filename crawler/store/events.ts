/** Per-fetch crawl events: one row per feed check and per article fetch, for the health views. */
import { describeError, isQuinError } from '../../lib/errors';
import type { Tx } from './articles';
import { storableText } from '../text/storable';

export interface EventInput {
  feedId: number | null;
  kind: 'feed' | 'article';
  url: string;
  outcome: 'ok' | 'not_modified' | 'error' | 'skipped';
  httpStatus?: number | null;
  durationMs: number;
  bytes?: number;
  itemsSeen?: number;
  itemsNew?: number;
  articlesExtracted?: number;
  articlesFailed?: number;
  snippetsMade?: number;
  error?: unknown;
}

const MAX_ERROR_CHARS = 1000;

export function errorCode(err: unknown): string {
  return isQuinError(err) ? err.code : 'INTERNAL';
}

/** An error as stored (feed and item rows, events): one line, storable, capped. */
export function errorText(err: unknown): string {
  return storableText(describeError(err)).slice(0, MAX_ERROR_CHARS);
}

export function errorStatus(err: unknown): number | null {
  const s = isQuinError(err) ? err.details?.status : undefined;
  return typeof s === 'number' ? s : null;
}

export async function recordEvent(tx: Pick<Tx, 'crawlEvent'>, e: EventInput): Promise<void> {
  await tx.crawlEvent.create({
    data: {
      feedId: e.feedId,
      kind: e.kind,
      url: storableText(e.url).slice(0, 2000),
      outcome: e.outcome,
      httpStatus: e.httpStatus ?? (e.error ? errorStatus(e.error) : null),
      durationMs: Math.max(0, Math.round(e.durationMs)),
      bytes: e.bytes ?? 0,
      itemsSeen: e.itemsSeen ?? 0,
      itemsNew: e.itemsNew ?? 0,
      articlesExtracted: e.articlesExtracted ?? 0,
      articlesFailed: e.articlesFailed ?? 0,
      snippetsMade: e.snippetsMade ?? 0,
      errorCode: e.error ? errorCode(e.error) : null,
      error: e.error ? errorText(e.error) : null,
    },
  });
}
