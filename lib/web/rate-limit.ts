/**
 * Per-client rate limits as token buckets in memory (one web process; several processes each apply
 * their own limit). A bucket holds `limit` tokens and refills at `limit` per `windowMs`.
 */
export interface RateDecision {
  allowed: boolean;
  remaining: number;
  /** Seconds until one token is available again (0 when allowed). */
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly clock: () => number = Date.now,
    private readonly maxKeys = 100_000,
  ) {}

  take(key: string, cost = 1): RateDecision {
    const now = this.clock();
    const rate = this.limit / this.windowMs;
    const b = this.buckets.get(key) ?? { tokens: this.limit, at: now };
    b.tokens = Math.min(this.limit, b.tokens + (now - b.at) * rate);
    b.at = now;
    this.buckets.delete(key); // re-insert: the Map's order is then least-recently-used first
    this.buckets.set(key, b);
    this.evict();
    if (b.tokens >= cost) {
      b.tokens -= cost;
      return { allowed: true, remaining: Math.floor(b.tokens), retryAfterSeconds: 0 };
    }
    return { allowed: false, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((cost - b.tokens) / rate / 1000)) };
  }

  /** Whether a take would be allowed now, without taking (the proxy answers 429 before rendering). */
  peek(key: string, cost = 1): RateDecision {
    const b = this.buckets.get(key);
    if (!b) return { allowed: true, remaining: this.limit, retryAfterSeconds: 0 };
    const rate = this.limit / this.windowMs;
    const tokens = Math.min(this.limit, b.tokens + (this.clock() - b.at) * rate);
    return tokens >= cost
      ? { allowed: true, remaining: Math.floor(tokens), retryAfterSeconds: 0 }
      : { allowed: false, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((cost - tokens) / rate / 1000)) };
  }

  /** Forget a client (e.g. after a successful sign-in). */
  reset(key: string): void {
    this.buckets.delete(key);
  }

  private evict(): void {
    while (this.buckets.size > this.maxKeys) {
      const oldest = this.buckets.keys().next().value;
      if (oldest === undefined) break;
      this.buckets.delete(oldest);
    }
  }
}

/**
 * The web server (scripts/start/web-server.mjs) puts the client address in this header after removing
 * any copy the client sent: the socket's address, or behind a trusted proxy (QUIN_TRUST_PROXY) the
 * address that proxy appended to X-Forwarded-For.
 */
export const CLIENT_IP_HEADER = 'x-quin-client-ip';

export function clientKey(headers: Headers): string {
  return headers.get(CLIENT_IP_HEADER) || 'unknown';
}

const SEARCH_KEY = Symbol.for('quin.web.search-limiter');

/** This web process's per-client search limit (QUIN_SEARCH_RATE_LIMIT a minute), shared by the proxy and the handlers. */
export function searchRateLimiter(perMinute: number): RateLimiter {
  const g = globalThis as unknown as Record<symbol, RateLimiter | undefined>;
  g[SEARCH_KEY] ??= new RateLimiter(perMinute, 60_000);
  return g[SEARCH_KEY];
}
