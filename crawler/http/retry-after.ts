/** Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. Pure. */

const MAX_MS = 7 * 24 * 3600_000;

/** Milliseconds to wait, capped at a week; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Math.min(Number(v) * 1000, MAX_MS);
  const t = Date.parse(v);
  if (Number.isNaN(t)) return null;
  return Math.min(Math.max(0, t - now), MAX_MS);
}

/** Seconds of Cache-Control max-age (s-maxage preferred), or null. */
export function parseMaxAge(cacheControl: string | undefined): number | null {
  if (!cacheControl) return null;
  const s = /(?:^|,)\s*s-maxage\s*=\s*"?(\d+)/i.exec(cacheControl) ?? /(?:^|,)\s*max-age\s*=\s*"?(\d+)/i.exec(cacheControl);
  return s ? Number(s[1]) : null;
}
