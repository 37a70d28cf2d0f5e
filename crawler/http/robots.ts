/**
 * robots.txt (RFC 9309), pure: text in, rules out. Groups are selected by product token (falling back
 * to `*`), the longest matching Allow/Disallow pattern wins (Allow on a tie), `*` and `$` work as in
 * the RFC, and Crawl-delay (a common extension) is read as a per-host minimum delay.
 */

interface Rule {
  allow: boolean;
  pattern: string;
  regex: RegExp;
}

interface Group {
  agents: string[];
  rules: Rule[];
  crawlDelaySeconds: number | null;
}

export interface RobotsPolicy {
  isAllowed(pathAndQuery: string): boolean;
  crawlDelaySeconds: number | null;
}

export const ALLOW_ALL: RobotsPolicy = { isAllowed: () => true, crawlDelaySeconds: null };
export const DISALLOW_ALL: RobotsPolicy = { isAllowed: () => false, crawlDelaySeconds: null };

function patternRegex(pattern: string): RegExp {
  const anchored = pattern.endsWith('$');
  const body = (anchored ? pattern.slice(0, -1) : pattern)
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}${anchored ? '$' : ''}`);
}

/** Percent-encoding is compared in one canonical form: %xx upper-case, unreserved characters decoded. */
function normalizePath(p: string): string {
  return p.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}

export function parseRobots(text: string): Group[] {
  const groups: Group[] = [];
  let current: Group | null = null;
  let lastWasAgent = false;
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, '').trim();
    const m = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const key = m[1]!.toLowerCase();
    const value = m[2]!.trim();
    if (key === 'user-agent') {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [], crawlDelaySeconds: null };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (!current) continue;
    if ((key === 'allow' || key === 'disallow') && value !== '') {
      const pattern = normalizePath(value.startsWith('/') || value.startsWith('*') ? value : `/${value}`);
      current.rules.push({ allow: key === 'allow', pattern, regex: patternRegex(pattern) });
    } else if (key === 'crawl-delay') {
      const n = Number(value);
      if (Number.isFinite(n) && n >= 0) current.crawlDelaySeconds = n;
    }
  }
  return groups;
}

/** The policy for one crawler, from the groups naming its product token, else the `*` groups. */
export function robotsPolicy(text: string, productToken: string): RobotsPolicy {
  const groups = parseRobots(text);
  const token = productToken.toLowerCase();
  let chosen = groups.filter((g) => g.agents.some((a) => a !== '*' && (a === token || token.startsWith(a))));
  if (chosen.length === 0) chosen = groups.filter((g) => g.agents.includes('*'));
  const rules = chosen.flatMap((g) => g.rules);
  const delays = chosen.map((g) => g.crawlDelaySeconds).filter((d): d is number => d !== null);
  return {
    crawlDelaySeconds: delays.length ? Math.max(...delays) : null,
    isAllowed(pathAndQuery: string) {
      if (pathAndQuery === '/robots.txt') return true;
      const target = normalizePath(pathAndQuery || '/');
      let best: Rule | null = null;
      for (const r of rules) {
        if (!r.regex.test(target)) continue;
        if (!best || r.pattern.length > best.pattern.length || (r.pattern.length === best.pattern.length && r.allow)) best = r;
      }
      return best ? best.allow : true;
    },
  };
}
