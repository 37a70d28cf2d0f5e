/**
 * The web process's long-lived objects, created once per server process (never per request) and kept
 * on globalThis so that every route bundle shares them: configuration, the database client, the rate
 * limiters, and the search context (indexes, encoder and models, which are slow to load).
 */
import { getConfig, type Config } from '../../lib/config';
import { getDb, type Db } from '../../lib/db/client';
import { authContext, type AuthContext } from '../../lib/web/auth';
import { RateLimiter, searchRateLimiter } from '../../lib/web/rate-limit';
import type { SearchContext } from '../../ranking';
import { openSearchContext } from './search-context';

interface Services {
  config: Config;
  db: Db;
  startedAt: Date;
  searchLimiter: RateLimiter;
  loginLimiter: RateLimiter;
}

interface Holder {
  services?: Promise<Services>;
  search?: { promise: Promise<SearchContext>; failedAt?: number; ready?: boolean };
}

/** Enough for an admin who mistypes; few enough that guessing a generated password is hopeless. */
const LOGIN_ATTEMPTS_PER_15_MINUTES = 10;

const KEY = Symbol.for('quin.web.services');
const holder = (): Holder => ((globalThis as unknown as Record<symbol, Holder>)[KEY] ??= {});

async function create(): Promise<Services> {
  const config = getConfig();
  const db = await getDb(config);
  return {
    config,
    db,
    startedAt: new Date(),
    searchLimiter: searchRateLimiter(config.searchRateLimit),
    loginLimiter: new RateLimiter(LOGIN_ATTEMPTS_PER_15_MINUTES, 15 * 60_000),
  };
}

export function services(): Promise<Services> {
  const h = holder();
  h.services ??= create().catch((e) => {
    h.services = undefined; // a database that was down may be up at the next request
    throw e;
  });
  return h.services;
}

/** Read per request: a changed password or a new generated one applies at once. */
export async function auth(): Promise<AuthContext> {
  return authContext((await services()).config);
}

const RETRY_AFTER_FAILURE_MS = 10_000;

/** The search context, opened on first use. A failure is remembered for a few seconds, then retried. */
export async function searchContext(): Promise<SearchContext> {
  const h = holder();
  const cur = h.search;
  if (cur && (cur.failedAt === undefined || Date.now() - cur.failedAt < RETRY_AFTER_FAILURE_MS)) return cur.promise;
  const { config, db } = await services();
  const entry: NonNullable<Holder['search']> = { promise: openSearchContext(config, db) };
  entry.promise.then(
    () => (entry.ready = true),
    () => (entry.failedAt = Date.now()),
  );
  h.search = entry;
  return entry.promise;
}

/** Whether the search context is loaded (health checks must not trigger the slow load themselves). */
export function searchContextState(): 'not_loaded' | 'loading' | 'ready' | 'failed' {
  const s = holder().search;
  if (!s) return 'not_loaded';
  if (s.failedAt !== undefined) return 'failed';
  return s.ready ? 'ready' : 'loading';
}
