import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalUrl, chooseCanonical, sameSite } from './canonical';
import { extractArticle } from './article';
import { htmlToText } from '../text/html-text';

const page = (name: string) => fs.readFileSync(path.join(__dirname, '..', 'testdata', 'pages', name), 'utf8');
const NOW = new Date('2025-01-01T00:00:00Z');

describe('extractArticle', () => {
  it('keeps the article text, drops navigation, comments and footer, and never runs scripts', () => {
    const a = extractArticle(page('article-meta.html'), 'https://daily.test/news/2024/03/river-levels-fall?utm_campaign=x', NOW);
    expect(a.title).toBe('River levels fall after week of floods');
    expect(a.text).toMatch(/^By Ada Reporter\nRiver levels across the county fell on Tuesday/);
    expect(a.text).toContain('Dr. Jane Smith, a hydrologist');
    expect(a.text.split('\n')).toHaveLength(6); // byline + five paragraphs, one a line
    for (const junk of ['SCRIPT RAN', 'Most read', 'First!', 'All rights reserved', 'Sport']) expect(a.text).not.toContain(junk);
    expect(a).toMatchObject({
      canonicalUrl: 'https://daily.test/news/2024/03/river-levels-fall?id=7',
      published: { date: new Date('2024-03-05T07:30:00Z'), source: 'meta' },
      author: 'Ada Reporter',
      siteName: 'The Daily Test',
      language: 'en',
    });
  });

  it('reads the date from JSON-LD and ignores a canonical URL on another site', () => {
    const a = extractArticle(page('article-jsonld.html'), 'https://stadtanzeiger.test/lokales/bruecke', NOW);
    expect(a.published).toMatchObject({ date: new Date('2023-11-20T06:15:00Z'), source: 'jsonld' });
    expect(a.author).toBe('Max Muster');
    expect(a.canonicalUrl).toBe('https://stadtanzeiger.test/lokales/bruecke');
    expect(a.language).toBe('de');
    expect(a.text).toMatch(/^Die neue Brücke über den Fluss/);
  });

  it('has no date when the page gives none', () => {
    const a = extractArticle(page('article-nodate.html'), 'https://city.test/library', NOW);
    expect(a.published).toBeNull();
    expect(a.text.length).toBeGreaterThan(400);
  });

  it('yields no text for a page without an article, or whose text only scripts would write', () => {
    expect(extractArticle(page('empty.html'), 'https://tv.test/watch', NOW).text.length).toBeLessThan(60);
    expect(extractArticle(page('spa.html'), 'https://app.test/', NOW).text).not.toContain('only exists when scripts run');
  });

  it('survives markup that is not HTML at all', () => {
    expect(extractArticle('\u0000\u0001 binary junk <<<>>>', 'https://x.test/', NOW).text.length).toBeLessThan(40);
    expect(extractArticle('', 'https://x.test/', NOW)).toMatchObject({ text: '', title: null });
  });
});

describe('canonical URLs', () => {
  it('strips tracking parameters, fragments and default ports', () => {
    expect(canonicalUrl('HTTPS://News.Test:443/a/b?utm_source=rss&id=3&fbclid=x&CMP=twt#top')).toBe('https://news.test/a/b?id=3');
    expect(canonicalUrl('http://news.test/a?utm_medium=feed')).toBe('http://news.test/a');
    expect(canonicalUrl('ftp://news.test/a')).toBeNull();
    expect(canonicalUrl('not a url')).toBeNull();
  });

  it('trusts rel=canonical only on the same site', () => {
    expect(sameSite('https://www.bbc.co.uk/news/1', 'https://bbc.co.uk/x')).toBe(true);
    expect(sameSite('https://m.example.com/a', 'https://www.example.com/b')).toBe(true);
    expect(sameSite('https://evil.co.uk/', 'https://bbc.co.uk/')).toBe(false);
    expect(chooseCanonical('https://www.example.com/amp/story', '/story?utm_source=x')).toBe('https://www.example.com/story');
    expect(chooseCanonical('https://evil.test/copy', 'https://bbc.co.uk/news/1')).toBe('https://evil.test/copy');
  });
});

describe('htmlToText', () => {
  it('keeps paragraphs, drops tags and scripts, decodes entities', () => {
    expect(htmlToText('<p>Caf&eacute; &amp; bar&#8217;s</p><script>x()</script><div>Second&nbsp;line<br>third</div>')).toBe(
      'Café & bar’s\nSecond line\nthird',
    );
    expect(htmlToText(null)).toBe('');
  });
});
