/**
 * Every text function of the crawler on hostile input, timed: long runs of "<", "<!--",
 * "<![CDATA[", "<script", quotes, spaces and the like, at 16 KB, 128 KB and 1 MB. A function passes
 * when each size stays within a budget proportional to its size; a quadratic one fails at the first,
 * small size (quickly), so a regression shows here instead of as a frozen server. A pattern with
 * nested or overlapping unbounded quantifiers over feed or page text is what this guards against
 * (text/markup.ts says how the crawler avoids them).
 *
 * QUIN_LINEAR_MAX_KB=128 runs the smaller sizes only.
 */
import { describe, expect, it } from 'vitest';
import { jsonLdBlocks, stripActiveContent, extractArticle } from './extract/article';
import { canonicalUrl } from './extract/canonical';
import { extractClaimReviews } from './extract/claim-review';
import { jsonLdObjects } from './extract/page-meta';
import { parseJsonFeed } from './feeds/json-feed';
import { parseOpml } from './feeds/opml';
import { parseFeed, rootElement } from './feeds/parser';
import { assertNoEntityDeclarations, rewriteWellFormed, withRssVersion, xhtmlConstructsToHtml } from './feeds/xml';
import { parseContentType } from './http/content-type';
import { parseMaxAge, parseRetryAfter } from './http/retry-after';
import { robotsPolicy } from './http/robots';
import { declaredUrl } from './import/html';
import { parseReutersSgml } from './import/reuters';
import { decodeBody } from './text/charset';
import { parseDate } from './text/dates';
import { decodeEntities, htmlToText, inlineText } from './text/html-text';
import { splitSentences, normalizeWhitespace } from './text/sentences';
import { makeSnippets } from './text/snippets';
import { storableText } from './text/storable';

const KB = 1024;
const MAX_KB = Number(process.env.QUIN_LINEAR_MAX_KB ?? 1024);
const SIZES = [16 * KB, 128 * KB, 1024 * KB].filter((n) => n <= MAX_KB * KB);
/** Budget: a fixed allowance plus so much per MB (generous: the machine is shared; quadratic code misses it by orders of magnitude). */
const BASE_MS = 250;
const MS_PER_MB = 4000;

const UNITS = [
  '<',
  '<!--',
  '<![CDATA[',
  '<script',
  '<script type="application/ld+json">',
  '<style>',
  '<p',
  '</',
  '</p',
  '<a href="',
  '<title type="xhtml">',
  '<link rel="alternate" ',
  '<rss ',
  '<!DOCTYPE ',
  '<?x?>',
  '<!--a-->',
  '"',
  "'",
  ' ',
  '\n',
  ' \n',
  '&',
  '&#',
  '&amp',
  'J. ',
  'Jan. ',
  'a',
  '\u0000',
  '<a <!-- <![CDATA[ <script "\' ',
];

/** A payload of about `size` characters: the unit repeated, then a character that ends no construct. */
const payload = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size) + '!';

const rss = (p: string) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><item><title>${p}</title><description>${p}</description></item></channel></rss>`;
const atom = (p: string) =>
  `<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><entry><id>1</id><title type="xhtml">${p}</title><content type="xhtml"><div>${p}</div></content></entry></feed>`;
const jsonFeed = (p: string) =>
  JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: p,
    items: [{ id: '1', title: p, content_html: p, date_published: p }],
  });
const page = (p: string) => `<!doctype html><html><head><title>${p}</title></head><body><article><p>${p}</p></article></body></html>`;
const opml = (p: string) =>
  `<opml version="2.0"><head><title>${p}</title></head><body><outline text="${p}" xmlUrl="https://e.test/f"/></body></opml>`;
const ignore = () => undefined;
const parsed = (p: Promise<unknown>) => p.then(ignore, ignore);
const attempt = (fn: () => unknown) => {
  try {
    fn();
  } catch {
    // refusing hostile input is fine; taking long is not
  }
};

/** Each text function, given a payload (its whole input, or the part a hostile sender controls). */
const FUNCTIONS: Record<string, (p: string) => unknown> = {
  htmlToText: (p) => htmlToText(p),
  inlineText: (p) => inlineText(p),
  decodeEntities: (p) => decodeEntities(p),
  normalizeWhitespace: (p) => normalizeWhitespace(p),
  splitSentences: (p) => splitSentences(p),
  makeSnippets: (p) => makeSnippets(splitSentences(p)),
  storableText: (p) => storableText(p),
  parseDate: (p) => parseDate(p),
  decodeBody: (p) => decodeBody(Buffer.from(p), null),
  rootElement: (p) => rootElement(p),
  assertNoEntityDeclarations: (p) => attempt(() => assertNoEntityDeclarations(p)),
  xhtmlConstructsToHtml: (p) => xhtmlConstructsToHtml(p),
  withRssVersion: (p) => withRssVersion(`<rss${p}`),
  rewriteWellFormed: (p) => rewriteWellFormed(rss(p)),
  'parseFeed(raw)': (p) => parsed(parseFeed(Buffer.from(p), { url: 'https://e.test/' })),
  'parseFeed(rss)': (p) => parsed(parseFeed(Buffer.from(rss(p)), { url: 'https://e.test/' })),
  'parseFeed(atom)': (p) => parsed(parseFeed(Buffer.from(atom(p)), { url: 'https://e.test/' })),
  'parseFeed(json)': (p) => parsed(parseFeed(Buffer.from(jsonFeed(p)), { url: 'https://e.test/' })),
  parseJsonFeed: (p) => attempt(() => parseJsonFeed(jsonFeed(p))),
  parseOpml: (p) => attempt(() => parseOpml(opml(p))),
  'parseOpml(raw)': (p) => attempt(() => parseOpml(p)),
  jsonLdBlocks: (p) => jsonLdBlocks(p),
  stripActiveContent: (p) => stripActiveContent(p),
  'extractArticle(raw)': (p) => extractArticle(p, 'https://e.test/a'),
  'extractArticle(page)': (p) => extractArticle(page(p), 'https://e.test/a'),
  jsonLdObjects: (p) => jsonLdObjects([p, `{"@context":"https://schema.org","headline":${JSON.stringify(p)}}`]),
  extractClaimReviews: (p) => extractClaimReviews([p, `{"@type":"ClaimReview","claimReviewed":${JSON.stringify(p)}}`], 'https://e.test/'),
  canonicalUrl: (p) => canonicalUrl(`https://e.test/?q=${p}`),
  parseContentType: (p) => parseContentType(`text/html; charset=${p}`),
  parseMaxAge: (p) => parseMaxAge(p),
  parseRetryAfter: (p) => parseRetryAfter(p),
  robotsPolicy: (p) => robotsPolicy(`User-agent: *\nDisallow: ${p}\n${p}`, 'QuinBot').isAllowed('https://e.test/x'),
  declaredUrl: (p) => declaredUrl(p),
  parseReutersSgml: (p) => parseReutersSgml(`<REUTERS NEWID="1"><TITLE>${p}</TITLE><BODY>${p}</BODY></REUTERS>${p}`),
};

/**
 * Over its budget, a size still passes when its time grew in proportion to its size since the size
 * before (within SCALING_SLACK): linear code on a slow or loaded machine (extractArticle at 1 MB read
 * 4.9–5.3 s against a 4.25 s budget on an AVX2 EPYC, and jsdom's parse grows a little faster than
 * the size: ×10–12 from 128 KB to 1 MB). From 128 KB to 1 MB a quadratic function takes 64 times as
 * long, well past the ×24 this allows. The size before is timed again beside the slow one, so a
 * burst of load during one of them is not read as growth, and small times are read as at least
 * FLOOR_MS, where a timer's noise and a collection pause would otherwise decide the ratio.
 */
const SCALING_SLACK = 3;
const FLOOR_MS = 50;

async function linearSince(
  fn: (p: string) => unknown,
  unit: string,
  before: { size: number; ms: number } | null,
  size: number,
  ms: number,
): Promise<boolean> {
  if (before === null) return false;
  const again = await timeOf(fn, payload(unit, before.size));
  const reference = Math.max(before.ms, again, FLOOR_MS);
  return ms <= (reference * size * SCALING_SLACK) / before.size;
}

async function timeOf(fn: (p: string) => unknown, input: string): Promise<number> {
  const t0 = performance.now();
  await fn(input);
  return performance.now() - t0;
}

/** The sizes at which `fn` ran too long for linear code, for each hostile unit (empty when linear). */
async function slowSizes(fn: (p: string) => unknown, units: string[]): Promise<string[]> {
  const slow: string[] = [];
  await timeOf(fn, payload('warm up', 4 * KB));
  for (const unit of units) {
    let before: { size: number; ms: number } | null = null;
    for (const size of SIZES) {
      const budget = BASE_MS + (MS_PER_MB * size) / (1024 * KB);
      const input = payload(unit, size);
      // Timed again when over budget (the machine is shared): a quadratic function misses it twice.
      let ms = await timeOf(fn, input);
      if (ms > budget) ms = Math.min(ms, await timeOf(fn, input));
      if (ms > budget && !(await linearSince(fn, unit, before, size, ms))) {
        slow.push(`${JSON.stringify(unit)} × ${size / KB} KB: ${Math.round(ms)} ms (budget ${Math.round(budget)} ms)`);
        break;
      }
      before = { size, ms };
    }
  }
  return slow;
}

/** Quadratic on purpose: every 4th position scans back to the start for a character that is not there. */
function quadratic(p: string): number {
  let found = 0;
  for (let i = 0; i < p.length; i += 4) found += p.lastIndexOf('\u0001', i) + 1;
  return found;
}

describe('text handling is linear in the size of hostile input', () => {
  for (const [name, fn] of Object.entries(FUNCTIONS)) {
    it(name, { timeout: 600_000 }, async () => {
      const slow = await slowSizes(fn, UNITS);
      expect(slow, slow.join('; ')).toEqual([]);
    });
  }

  it.skipIf(MAX_KB < 1024)('the judge itself: a quadratic function fails it', { timeout: 600_000 }, async () => {
    expect(await slowSizes(quadratic, [' '])).toHaveLength(1);
  });
});
