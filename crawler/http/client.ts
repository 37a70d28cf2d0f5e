/**
 * The crawler's single boundary with the outside world: every feed, page and robots.txt request goes
 * through `HttpClient.fetch`. It applies, per hop: URL and address checks (private addresses refused
 * after DNS, inside the socket's lookup, on every redirect), robots.txt (cached per origin), the
 * per-host queue and global limit, conditional GET, timeouts, the size cap (after decompression),
 * content-type checks, redirect limits with loop detection and Retry-After on 429/503.
 *
 * One deadline per fetch: `fetchTimeoutMs` covering its wait for the host's turn, every redirect hop
 * and the body, so that no fetch (and no crawl pass behind it) can wait longer than that, whatever a
 * host does. A site's robots.txt, fetched once a day, is loaded first under a deadline of its own
 * (so at most twice that in all). A Retry-After too long to
 * wait for is never waited on: the fetch fails at once with FETCH_PAUSED and the caller reschedules.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../lib/config';
import { createError, isQuinError, type QuinError } from '../../lib/errors';
import { projectRoot } from '../../lib/paths';
import type { Agent } from 'undici';
import { assertLiteralAllowed, DEFAULT_POLICY, guardedLookup, type AddressPolicy } from './address';
import { parseContentType, refuseType, type Expect } from './content-type';
import { cancelled, HostQueue } from './host-queue';
import { CONNECT_TIMEOUT_MS, createDispatcher, requestOnce, type RawResponse } from './request';
import { parseRetryAfter } from './retry-after';
import { ALLOW_ALL, robotsPolicy, type RobotsPolicy } from './robots';

export type HttpConfig = Pick<
  Config,
  'allowPrivateHosts' | 'crawlConcurrency' | 'hostDelayMs' | 'fetchTimeoutMs' | 'maxResponseBytes' | 'tuning' | 'contactUrl'
>;

export interface FetchRequest {
  url: string;
  expect: Expect;
  etag?: string | null;
  lastModified?: string | null;
  signal?: AbortSignal;
}

export interface FetchResponse {
  requestedUrl: string;
  /** Final URL after redirects. */
  url: string;
  redirects: string[];
  status: number;
  notModified: boolean;
  body: Buffer;
  mime: string | null;
  charset: string | null;
  etag: string | null;
  lastModified: string | null;
  cacheControl: string | null;
  wireBytes: number;
  durationMs: number;
}

export interface HttpClient {
  fetch(req: FetchRequest): Promise<FetchResponse>;
  readonly userAgent: string;
  /** Closes idle connections (a finished CLI run calls it so that the process can end). */
  close(): Promise<void>;
}

/** Redirects followed per request: browsers stop at 20, but a news page needs at most a few (http→https, canonical host, a tracker). */
export const MAX_REDIRECTS = 5;
const ROBOTS_MAX_BYTES = 512 * 1024;
const ROBOTS_TTL_MS = 24 * 3600_000;
const ROBOTS_FAILURE_TTL_MS = 5 * 60_000;
const MAX_CRAWL_DELAY_MS = 60_000;

const ACCEPT: Record<Expect, string> = {
  feed: 'application/rss+xml, application/atom+xml, application/feed+json, application/rdf+xml;q=0.9, application/xml;q=0.8, text/xml;q=0.8, application/json;q=0.5, */*;q=0.1',
  html: 'text/html, application/xhtml+xml;q=0.9, */*;q=0.1',
  any: '*/*',
};

function version(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { version?: string }).version ?? '0';
  } catch {
    return '0';
  }
}

/** The crawler's name in its User-Agent and the robots.txt group it obeys. */
export const PRODUCT_TOKEN = 'QuinBot';

export function defaultUserAgent(contactUrl: string): string {
  return `${PRODUCT_TOKEN}/${version()} (+${contactUrl})`;
}

function withDetails(err: QuinError, extra: Record<string, unknown>): QuinError {
  return createError(err.code, err.message, { ...err.details, ...extra }, err.cause ?? err);
}

function header(raw: RawResponse, name: string): string | null {
  const v = raw.headers[name];
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
}

/** The pause a 429 or 503 answer asks for (ms), or null. */
function retryAfterOf(raw: RawResponse): number | null {
  return raw.status === 429 || raw.status === 503 ? parseRetryAfter(header(raw, 'retry-after') ?? undefined) : null;
}

/** A signal that fires at the fetch's deadline (reason FETCH_TIMEOUT) or when the caller's fires (reason CANCELLED). */
function deadlineSignal(url: string, ms: number, caller?: AbortSignal): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    let host = url;
    try {
      host = new URL(url).host;
    } catch {
      // reported as it was given
    }
    controller.abort(
      createError('FETCH_TIMEOUT', `${host}: no complete response within the ${ms} ms timeout (waiting for the host's turn included)`, {
        phase: 'total',
      }),
    );
  }, ms);
  const onCancel = () => controller.abort(cancelled(caller));
  if (caller?.aborted) onCancel();
  else caller?.addEventListener('abort', onCancel, { once: true });
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onCancel);
    },
  };
}

export function parseFetchUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw createError('INVALID_INPUT', `not a URL: ${JSON.stringify(raw)}`);
  }
  // `refused` says which rule refused it, so that a message never blames another (a file: URL is not a private address).
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw createError('FETCH_BLOCKED', `only http and https can be fetched, not ${url.protocol}`, { refused: 'scheme' });
  if (url.username || url.password) throw createError('FETCH_BLOCKED', 'URLs with credentials are not fetched', { refused: 'credentials' });
  url.hash = '';
  return url;
}

/** A request under way: its signal fires at its deadline (or on cancellation). */
interface InternalRequest extends FetchRequest {
  signal: AbortSignal;
  deadlineAt: number;
  /** The caller's own signal (cancellation only), for loads that outlive this request's deadline. */
  cancel?: AbortSignal;
}

export class Transport implements HttpClient {
  readonly userAgent: string;
  private readonly queue: HostQueue;
  private readonly dispatcher: Agent;
  private readonly robots = new Map<string, { policy: Promise<RobotsPolicy>; expires: number }>();

  constructor(
    private readonly config: HttpConfig,
    private readonly addresses: AddressPolicy = DEFAULT_POLICY,
  ) {
    this.userAgent = defaultUserAgent(config.contactUrl);
    this.queue = new HostQueue(config.crawlConcurrency, config.hostDelayMs);
    this.dispatcher = createDispatcher(guardedLookup(config.allowPrivateHosts, addresses), this.connectTimeoutMs);
  }

  /** The handshake's bound: never longer than a whole request may take. */
  private get connectTimeoutMs(): number {
    return Math.min(this.config.tuning.connectTimeoutMs ?? CONNECT_TIMEOUT_MS, this.config.fetchTimeoutMs);
  }

  async fetch(req: FetchRequest): Promise<FetchResponse> {
    const started = Date.now();
    let deadline: ReturnType<typeof deadlineSignal> | undefined;
    try {
      const first = parseFetchUrl(req.url);
      assertLiteralAllowed(first.hostname, this.config.allowPrivateHosts, this.addresses);
      this.queue.assertNotPaused(first);
      await this.robotsFor(first, req.signal);
      deadline = deadlineSignal(req.url, this.config.fetchTimeoutMs, req.signal);
      const deadlineAt = Date.now() + this.config.fetchTimeoutMs;
      return await this.follow({ ...req, signal: deadline.signal, deadlineAt, cancel: req.signal }, started, true);
    } catch (e) {
      const reason = deadline?.signal.aborted ? deadline.signal.reason : e;
      const err = isQuinError(reason) ? reason : createError('FETCH_FAILED', (reason as Error).message, undefined, reason);
      throw withDetails(err, { url: req.url, durationMs: Date.now() - started });
    } finally {
      deadline?.clear();
    }
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }

  private async follow(
    req: InternalRequest,
    started: number,
    checkRobots: boolean,
    maxBytes = this.config.maxResponseBytes,
  ): Promise<FetchResponse> {
    let url = parseFetchUrl(req.url);
    const visited = new Set([url.href]);
    const redirects: string[] = [];
    const maxRedirects = this.config.tuning.maxRedirects ?? MAX_REDIRECTS;
    for (;;) {
      assertLiteralAllowed(url.hostname, this.config.allowPrivateHosts, this.addresses);
      this.queue.assertNotPaused(url);
      if (checkRobots) {
        const policy = await this.robotsFor(url, req.cancel);
        if (!policy.isAllowed(url.pathname + url.search)) {
          throw createError('FETCH_ROBOTS', `${url.href} is disallowed by ${url.origin}/robots.txt for ${PRODUCT_TOKEN}`);
        }
      }
      const raw = await this.hop(url, req, maxBytes);
      if ([301, 302, 303, 307, 308].includes(raw.status)) {
        const location = header(raw, 'location');
        if (!location) throw createError('FETCH_HTTP_STATUS', `HTTP ${raw.status} without a Location header`, { status: raw.status });
        let next: URL;
        try {
          next = parseFetchUrl(new URL(location, url).href);
        } catch (e) {
          // Where the refused address came from: a redirect, not the URL the caller gave.
          if (!isQuinError(e, 'FETCH_BLOCKED')) throw e;
          throw createError('FETCH_BLOCKED', `${url.href} redirects to ${location.slice(0, 200)}: ${e.message}`, e.details, e);
        }
        if (visited.has(next.href))
          throw createError('FETCH_REDIRECTS', `redirect loop: ${[...redirects, next.href].join(' → ')}`, { status: raw.status });
        if (redirects.length >= maxRedirects) {
          throw createError('FETCH_REDIRECTS', `more than ${maxRedirects} redirects (last: ${next.href})`, {
            status: raw.status,
          });
        }
        visited.add(next.href);
        redirects.push(next.href);
        url = next;
        continue;
      }
      const common = {
        requestedUrl: req.url,
        url: url.href,
        redirects,
        status: raw.status,
        etag: header(raw, 'etag'),
        lastModified: header(raw, 'last-modified'),
        cacheControl: header(raw, 'cache-control'),
        wireBytes: raw.wireBytes,
        durationMs: Date.now() - started,
      };
      if (raw.status === 304) return { ...common, notModified: true, body: Buffer.alloc(0), mime: null, charset: null };
      if (raw.status >= 200 && raw.status < 300) {
        const ct = parseContentType(header(raw, 'content-type') ?? undefined);
        return { ...common, notModified: false, body: raw.body ?? Buffer.alloc(0), mime: ct.mime, charset: ct.charset };
      }
      throw this.statusError(url, raw);
    }
  }

  private statusError(url: URL, raw: RawResponse): QuinError {
    const details: Record<string, unknown> = { status: raw.status };
    const wait = retryAfterOf(raw);
    if (wait !== null) details.retryAfterMs = wait;
    const reason =
      raw.status === 404
        ? 'not found'
        : raw.status === 410
          ? 'gone'
          : raw.status === 429
            ? 'too many requests'
            : raw.status >= 500
              ? 'server error'
              : 'unexpected status';
    return createError('FETCH_HTTP_STATUS', `HTTP ${raw.status} (${reason}) from ${url.href}`, details);
  }

  /** One request, when the host queue allows it. */
  private hop(url: URL, req: InternalRequest, maxBytes: number): Promise<RawResponse> {
    const headers: Record<string, string> = {
      'User-Agent': this.userAgent,
      Accept: ACCEPT[req.expect],
      'Accept-Encoding': 'gzip, deflate, br',
    };
    if (req.etag) headers['If-None-Match'] = req.etag;
    if (req.lastModified) headers['If-Modified-Since'] = req.lastModified;
    const signal = req.signal!;
    return this.queue.run(
      url,
      async () => {
        const raw = await requestOnce(url, {
          headers,
          dispatcher: this.dispatcher,
          signal,
          maxBytes,
          connectTimeoutMs: this.connectTimeoutMs,
          wantBody: (status, h) => {
            if (status < 200 || status >= 300) return false;
            const ct = h['content-type'];
            const why = refuseType(req.expect, parseContentType(Array.isArray(ct) ? ct[0] : ct).mime);
            return why ? createError('FETCH_CONTENT_TYPE', `${url.href}: ${why}`, { status }) : true;
          },
        });
        // Recorded before the host's next request may start. 429 is about us and the whole host;
        // 503 about the resource (a feed in maintenance).
        const pause = retryAfterOf(raw);
        if (pause !== null && raw.status === 429) this.queue.pauseHost(url.host, Date.now() + pause, raw.status);
        else if (pause !== null) this.queue.pauseUrl(url, Date.now() + pause, raw.status);
        return raw;
      },
      { signal, deadlineAt: req.deadlineAt },
    );
  }

  private robotsFor(url: URL, cancel?: AbortSignal): Promise<RobotsPolicy> {
    const cached = this.robots.get(url.origin);
    if (cached && cached.expires > Date.now()) return cached.policy;
    const entry = { policy: this.loadRobots(url, cancel), expires: Date.now() + ROBOTS_TTL_MS };
    this.robots.set(url.origin, entry);
    entry.policy.catch((e: unknown) => {
      // A cancelled load (or one refused for a pause, which the queue remembers) is forgotten; a
      // failed one is remembered briefly so the host is not hammered.
      if (isQuinError(e, 'CANCELLED') || isQuinError(e, 'FETCH_PAUSED')) this.robots.delete(url.origin);
      else entry.expires = Date.now() + ROBOTS_FAILURE_TTL_MS;
    });
    return entry.policy;
  }

  /**
   * RFC 9309: 4xx means no restrictions; 5xx or an unreachable server means complete disallow (here:
   * the fetch fails with the original error, so that the feed shows why).
   */
  private async loadRobots(url: URL, cancel?: AbortSignal): Promise<RobotsPolicy> {
    const robotsUrl = `${url.origin}/robots.txt`;
    let res: FetchResponse;
    const deadline = deadlineSignal(robotsUrl, this.config.fetchTimeoutMs, cancel);
    try {
      const deadlineAt = Date.now() + this.config.fetchTimeoutMs;
      res = await this.follow(
        { url: robotsUrl, expect: 'any', signal: deadline.signal, deadlineAt, cancel },
        Date.now(),
        false,
        ROBOTS_MAX_BYTES,
      );
    } catch (caught) {
      const e = deadline.signal.aborted ? deadline.signal.reason : caught;
      if (!isQuinError(e)) throw e;
      const status = e.details?.status as number | undefined;
      if (e.code === 'FETCH_HTTP_STATUS' && status !== undefined && status >= 400 && status < 500 && status !== 429) return ALLOW_ALL;
      if (e.code === 'FETCH_TOO_LARGE' || e.code === 'FETCH_CONTENT_TYPE') return ALLOW_ALL;
      if (e.code === 'CANCELLED' || e.code === 'FETCH_BLOCKED' || e.code === 'FETCH_PAUSED') throw e;
      if (e.code === 'FETCH_HTTP_STATUS') {
        // No robots.txt, no crawling of the host: a pause it asks for there covers the whole host.
        const retryAfterMs = e.details?.retryAfterMs;
        if (typeof retryAfterMs === 'number') this.queue.pauseHost(url.host, Date.now() + retryAfterMs, status ?? null);
        throw createError(
          e.code,
          `${url.origin}/robots.txt answered HTTP ${status ?? '?'}: ${url.host} is not crawled until it answers (RFC 9309)`,
          { ...e.details, robots: true },
          e,
        );
      }
      throw createError(e.code, `${e.message} (fetching ${url.origin}/robots.txt)`, e.details, e);
    } finally {
      deadline.clear();
    }
    const policy = res.body.length ? robotsPolicy(res.body.toString('utf8'), PRODUCT_TOKEN) : ALLOW_ALL;
    // Capped so that a fetch can always wait for its turn within its own deadline.
    const maxDelay = Math.min(MAX_CRAWL_DELAY_MS, this.config.fetchTimeoutMs / 2);
    if (policy.crawlDelaySeconds) this.queue.setMinDelay(url.host, Math.min(policy.crawlDelaySeconds * 1000, maxDelay));
    return policy;
  }
}

export function createHttpClient(config: HttpConfig, addresses?: AddressPolicy): HttpClient {
  return new Transport(config, addresses);
}
