/**
 * robots.txt (RFC 9309) through robots-parser, pure: text in, a policy out. The group naming our
 * product token wins over `*`, the longest matching Allow/Disallow pattern wins (Allow on a tie), `*`
 * and `$` work as in the RFC, and Crawl-delay (a common extension) is read as a per-host minimum delay.
 */
import robotsParser from 'robots-parser';

export interface RobotsPolicy {
  isAllowed(pathAndQuery: string): boolean;
  crawlDelaySeconds: number | null;
}

export const ALLOW_ALL: RobotsPolicy = { isAllowed: () => true, crawlDelaySeconds: null };

// robots-parser judges absolute URLs against the robots.txt URL; the policy is per origin already.
const BASE = 'http://robots.invalid';

/** Percent-encoded unreserved characters are compared decoded (RFC 9309 §2.2.2): /%7euser is /~user. */
function decodeUnreserved(s: string): string {
  return s.replace(/%([0-9a-fA-F]{2})/g, (m, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(ch) ? ch : m;
  });
}

export function robotsPolicy(text: string, productToken: string): RobotsPolicy {
  const robots = robotsParser(`${BASE}/robots.txt`, decodeUnreserved(text));
  const delay = robots.getCrawlDelay(productToken);
  return {
    crawlDelaySeconds: typeof delay === 'number' && Number.isFinite(delay) && delay >= 0 ? delay : null,
    isAllowed(pathAndQuery: string) {
      if (pathAndQuery === '/robots.txt') return true;
      const p = pathAndQuery.startsWith('/') ? pathAndQuery : `/${pathAndQuery}`;
      return robots.isAllowed(`${BASE}${decodeUnreserved(p)}`, productToken) !== false;
    },
  };
}
