/**
 * The parse thread: the same results as parsing in-process (dates, errors with their details), the
 * caller's event loop free while a big document is read, and a parse past its deadline stopped with
 * FEED_PARSE_TIMEOUT, after which the next parse works (on a new thread).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createParseThread } from './parse-thread';
import { parseFeed } from './parser';

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, '..', 'testdata', name));
const thread = createParseThread();
afterAll(() => thread.close());

/** A JSON Feed of `n` items (about 120 bytes each). */
function bigFeed(n: number): Buffer {
  const items = Array.from({ length: n }, (_, i) => ({
    id: `item-${i}`,
    url: `https://e.test/${i}`,
    title: `Story number ${i}`,
    content_html: `<p>Text of story ${i}.</p>`,
    date_published: '2024-02-05T09:00:00Z',
  }));
  return Buffer.from(JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: 'Big', items }));
}

describe('parse thread', () => {
  it('gives what parseFeed gives in-process, dates included', async () => {
    const opts = { url: 'https://news.test/feed', now: new Date('2024-06-01T00:00:00Z') };
    const body = fixture('jsonfeed-1.1.json');
    const there = await thread.parseFeed(body, opts);
    expect(there).toEqual(await parseFeed(body, opts));
    expect(there.items.find((i) => i.published)?.published).toBeInstanceOf(Date);
  });

  it('passes errors back with their code and details', async () => {
    await expect(thread.parseFeed(fixture('html-page.html'), { url: 'https://news.test/' })).rejects.toMatchObject({
      code: 'FEED_PARSE_ERROR',
      details: { alternates: expect.any(Array) },
    });
  });

  it('keeps the caller answering while a big document is read', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const started = performance.now();
    const parsed = await thread.parseFeed(bigFeed(50_000), { url: 'https://e.test/' });
    const ms = performance.now() - started;
    clearInterval(timer);
    expect(parsed.items).toHaveLength(50_000);
    // The timer ran throughout (at least a third of its chances, on a shared machine).
    expect(ticks).toBeGreaterThan(ms / 10 / 3);
  });

  it('stops a parse past its deadline: FEED_PARSE_TIMEOUT, then the next parse works', async () => {
    const started = performance.now();
    await expect(thread.parseFeed(bigFeed(100_000), { url: 'https://e.test/' }, 50)).rejects.toMatchObject({
      code: 'FEED_PARSE_TIMEOUT',
      message: expect.stringContaining('took too long to read'),
    });
    expect(performance.now() - started).toBeLessThan(5000);
    const next = await thread.parseFeed(fixture('jsonfeed-1.1.json'), { url: 'https://news.test/' });
    expect(next.format).toBe('json');
  });
});
