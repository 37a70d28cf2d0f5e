import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { robotsPolicy } from './robots';

const forbid = fs.readFileSync(path.join(__dirname, '..', 'testdata', 'robots-forbid.txt'), 'utf8');

describe('robots.txt', () => {
  it('applies the * group to an unnamed crawler, longest match first', () => {
    const p = robotsPolicy(forbid, 'QuinBot');
    expect(p.isAllowed('/news/1.html')).toBe(true);
    expect(p.isAllowed('/private/feed.xml')).toBe(false);
    expect(p.isAllowed('/private/open-data.xml')).toBe(true);
    expect(p.isAllowed('/docs/a.pdf')).toBe(false);
    expect(p.isAllowed('/docs/a.pdf?x=1')).toBe(true);
    expect(p.isAllowed('/robots.txt')).toBe(true);
  });

  it('uses the group that names the crawler instead of *', () => {
    expect(robotsPolicy(forbid, 'BadBot').isAllowed('/news/1.html')).toBe(false);
    const own = 'User-agent: quinbot\nDisallow: /x\n\nUser-agent: *\nDisallow: /\n';
    expect(robotsPolicy(own, 'QuinBot').isAllowed('/news')).toBe(true);
    expect(robotsPolicy(own, 'QuinBot').isAllowed('/x/1')).toBe(false);
  });

  it('merges consecutive user-agent lines into one group and reads Crawl-delay', () => {
    const text = 'User-agent: a\nUser-agent: QuinBot\nCrawl-delay: 2.5\nDisallow: /tmp\n# comment\nUser-agent: *\nDisallow:\n';
    const p = robotsPolicy(text, 'QuinBot');
    expect(p.crawlDelaySeconds).toBe(2.5);
    expect(p.isAllowed('/tmp/x')).toBe(false);
    expect(robotsPolicy(text, 'Other').isAllowed('/tmp/x')).toBe(true);
  });

  it('allows everything for empty or garbage files and prefers Allow on a tie', () => {
    expect(robotsPolicy('', 'QuinBot').isAllowed('/a')).toBe(true);
    expect(robotsPolicy('<html><body>Not found</body></html>', 'QuinBot').isAllowed('/a')).toBe(true);
    expect(robotsPolicy('User-agent: *\nDisallow: /a\nAllow: /a\n', 'QuinBot').isAllowed('/a')).toBe(true);
    expect(robotsPolicy('User-agent: *\nDisallow: /%7euser\n', 'QuinBot').isAllowed('/~user/x')).toBe(false);
  });
});
