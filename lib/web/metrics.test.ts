import { describe, expect, it } from 'vitest';
import { exposition, processMetrics, scrapeRegistry } from './metrics';

describe('Prometheus metrics (prom-client)', () => {
  it('exposes counters, histograms and scrape-time gauges in the text format', async () => {
    const m = processMetrics();
    m.searches.inc({ outcome: 'ok' });
    m.searchLatency.observe(0.05);
    m.searchLatency.observe(3);
    const scrape = scrapeRegistry();
    scrape.gauge('quin_feeds', 'Feeds "by" status.', [{ labels: { status: 'bro"ken\\' }, value: 2 }]);
    scrape.counter('quin_crawl_items_seen_total', 'Items.', [{ labels: { feed_status: 'active' }, value: 7 }]);
    scrape.gauge('quin_articles', 'Articles.', [{ value: 5 }]);
    const { text, contentType } = await exposition([m.registry, scrape.registry]);
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(text).toContain('# TYPE quin_search_duration_seconds histogram');
    expect(text).toMatch(/^quin_search_duration_seconds_bucket\{le="0\.05"\} 1$/m);
    expect(text).toMatch(/^quin_search_duration_seconds_count 2$/m);
    expect(text).toMatch(/^quin_search_requests_total\{outcome="ok"\} 1$/m);
    expect(text).toContain('quin_feeds{status="bro\\"ken\\\\"} 2');
    expect(text).toMatch(/^quin_crawl_items_seen_total\{feed_status="active"\} 7$/m);
    expect(text).toMatch(/^quin_articles 5$/m);
    expect(text).toContain('# TYPE process_resident_memory_bytes gauge');
  });

  it('keeps admin sign-in counters out of the public registry', async () => {
    const m = processMetrics();
    m.logins.inc({ outcome: 'failed' });
    expect((await exposition([m.registry])).text).not.toContain('quin_admin_logins_total');
    expect((await exposition([m.registry, m.adminRegistry])).text).toMatch(/^quin_admin_logins_total\{outcome="failed"\} 1$/m);
  });
});
