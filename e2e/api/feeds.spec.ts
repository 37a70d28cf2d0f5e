import { feedList, feedOne, feedRemoved } from '../../app/api/feeds/schema';
import { expect, test } from '../support/fixtures';

test.describe('/api/feeds (admin)', () => {
  test('adds a feed after fetching it once, pauses, resumes and removes it; the database follows', async ({ adminApi, state, db }) => {
    const url = `${state.feedUrl}?via=api`;
    const added = await adminApi.request.post('/api/feeds', { data: { url, intervalMinutes: 30 }, headers: adminApi.headers });
    expect(added.status(), await added.text()).toBe(201);
    const { feed } = feedOne.parse(await added.json());
    expect(feed).toMatchObject({ url, title: 'Estuary Evening News', intervalMinutes: 30, status: 'active' });
    expect(db.prepare('SELECT url, interval_minutes AS i FROM feeds WHERE id = ?').get(feed.id)).toEqual({ url, i: 30 });

    const again = await adminApi.request.post('/api/feeds', { data: { url }, headers: adminApi.headers });
    expect(again.status()).toBe(409);

    const paused = feedOne.parse(
      await (await adminApi.request.patch('/api/feeds', { data: { id: feed.id, action: 'pause' }, headers: adminApi.headers })).json(),
    );
    expect(paused.feed.status).toBe('paused');
    expect(db.prepare('SELECT status FROM feeds WHERE id = ?').get(feed.id)).toEqual({ status: 'paused' });
    const resumed = feedOne.parse(
      await (await adminApi.request.patch('/api/feeds', { data: { id: feed.id, action: 'resume' }, headers: adminApi.headers })).json(),
    );
    expect(resumed.feed.status).toBe('active');

    const list = feedList.parse(await (await adminApi.request.get('/api/feeds')).json());
    expect(list.feeds.map((f) => f.id)).toContain(feed.id);

    const removed = await adminApi.request.delete(`/api/feeds?id=${feed.id}`, { headers: adminApi.headers });
    expect(feedRemoved.parse(await removed.json()).removed).toEqual({ id: feed.id, url });
    expect(db.prepare('SELECT count(*) AS n FROM feeds WHERE id = ?').get(feed.id)).toEqual({ n: 0 });
    expect((await adminApi.request.delete(`/api/feeds?id=${feed.id}`, { headers: adminApi.headers })).status()).toBe(404);
  });

  test('refuses what is not a feed, with the reason, and adds nothing', async ({ adminApi, state, db }) => {
    const before = db.prepare('SELECT count(*) AS n FROM feeds').get();
    const page = await adminApi.request.post('/api/feeds', { data: { url: state.notAFeedUrl }, headers: adminApi.headers });
    expect(page.status()).toBe(400);
    expect((await page.json()).error.message).toMatch(/could not be read/);
    const ftp = await adminApi.request.post('/api/feeds', { data: { url: 'ftp://example.org/feed' }, headers: adminApi.headers });
    expect(ftp.status()).toBe(400);
    expect((await ftp.json()).error.message).toMatch(/http/);
    const missing = await adminApi.request.post('/api/feeds', {
      data: { url: `${state.feedUrl.replace('feed.xml', 'missing.xml')}` },
      headers: adminApi.headers,
    });
    expect(missing.status()).toBe(400);
    expect((await missing.json()).error.message).toMatch(/404/);
    expect(db.prepare('SELECT count(*) AS n FROM feeds').get()).toEqual(before);
  });

  test('validates PATCH and DELETE input', async ({ adminApi }) => {
    expect((await adminApi.request.patch('/api/feeds', { data: { id: 1 }, headers: adminApi.headers })).status()).toBe(400);
    expect((await adminApi.request.patch('/api/feeds', { data: { id: 'x', action: 'pause' }, headers: adminApi.headers })).status()).toBe(
      400,
    );
    expect((await adminApi.request.delete('/api/feeds?id=abc', { headers: adminApi.headers })).status()).toBe(400);
  });
});
