import { describe, expect, it } from 'vitest';
import { Counter, formatMetrics, Histogram } from './metrics';

describe('Prometheus text exposition', () => {
  it('writes counters, gauges and cumulative histograms', () => {
    const c = new Counter('quin_x_total', 'X done.');
    c.inc({ outcome: 'ok' });
    c.inc({ outcome: 'ok' }, 2);
    c.inc({ outcome: 'error' });
    const h = new Histogram('quin_latency_seconds', 'Latency.', [0.1, 1]);
    h.observe(0.05);
    h.observe(0.5);
    h.observe(3);
    const text = formatMetrics([
      c.family(),
      h.family(),
      { name: 'quin_feeds', help: 'Feeds "by" status.\nSecond line', type: 'gauge', samples: [{ labels: { status: 'bro"ken\\' }, value: 2 }] },
    ]);
    expect(text).toBe(
      [
        '# HELP quin_x_total X done.',
        '# TYPE quin_x_total counter',
        'quin_x_total{outcome="ok"} 3',
        'quin_x_total{outcome="error"} 1',
        '# HELP quin_latency_seconds Latency.',
        '# TYPE quin_latency_seconds histogram',
        'quin_latency_seconds_bucket{le="0.1"} 1',
        'quin_latency_seconds_bucket{le="1"} 2',
        'quin_latency_seconds_bucket{le="+Inf"} 3',
        'quin_latency_seconds_sum 3.55',
        'quin_latency_seconds_count 3',
        '# HELP quin_feeds Feeds "by" status.\\nSecond line',
        '# TYPE quin_feeds gauge',
        'quin_feeds{status="bro\\"ken\\\\"} 2',
        '',
      ].join('\n'),
    );
  });
});
