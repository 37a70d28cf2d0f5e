/** What one crawl run carries around: database, settings, the HTTP transport, the lease owner. */
import type { Config } from '../../lib/config';
import type { Db, Models } from '../../lib/db/client';
import { createLogger, type Logger } from '../../lib/log';
import { createHttpClient, type HttpClient } from '../http';
import { parseThread, type ParseThread } from '../feeds/parse-thread';
import { newLeaseOwner } from '../schedule/lease';
import { DEFAULT_WINDOW, type WindowOptions } from '../text/snippets';

export type Feed = Models.FeedModel;
export type FeedItemRow = Models.FeedItemModel;

export interface CrawlContext {
  db: Db;
  config: Config;
  http: HttpClient;
  /** Where feeds and pages are parsed: a worker thread, under a deadline (feeds/parse-thread.ts). */
  parser: ParseThread;
  owner: string;
  signal?: AbortSignal;
  log: Logger;
  now: () => Date;
  window: WindowOptions;
}

export interface ContextOptions {
  http?: HttpClient;
  parser?: ParseThread;
  owner?: string;
  signal?: AbortSignal;
  log?: Logger;
  now?: () => Date;
}

export function createContext(db: Db, config: Config, opts: ContextOptions = {}): CrawlContext {
  return {
    db,
    config,
    http: opts.http ?? createHttpClient(config),
    parser: opts.parser ?? parseThread(),
    owner: opts.owner ?? newLeaseOwner(),
    signal: opts.signal,
    log: opts.log ?? createLogger('crawl'),
    now: opts.now ?? (() => new Date()),
    window: DEFAULT_WINDOW,
  };
}
