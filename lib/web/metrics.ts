/**
 * A small Prometheus registry: counters and histograms observed in this process, plus gauges read at
 * scrape time (database counts, index sizes, worker heartbeat). Text exposition format 0.0.4.
 */
export type Labels = Record<string, string>;

export interface Sample {
  labels?: Labels;
  value: number;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  samples: Sample[];
}

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

function labelText(labels: Labels | undefined): string {
  const entries = Object.entries(labels ?? {});
  if (entries.length === 0) return '';
  return `{${entries.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}`;
}

function num(v: number): string {
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return Number.isNaN(v) ? 'NaN' : String(v);
}

export function formatMetrics(families: MetricFamily[]): string {
  const out: string[] = [];
  for (const f of families) {
    out.push(`# HELP ${f.name} ${f.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples) {
      // Histogram samples carry their own suffix in a reserved label (see Histogram.families).
      const { __suffix, ...labels } = s.labels ?? {};
      out.push(`${f.name}${__suffix ?? ''}${labelText(labels)} ${num(s.value)}`);
    }
  }
  return out.join('\n') + '\n';
}

const key = (labels: Labels) => JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));

export class Counter {
  private readonly values = new Map<string, { labels: Labels; value: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(labels: Labels = {}, by = 1): void {
    const k = key(labels);
    const cur = this.values.get(k) ?? { labels, value: 0 };
    cur.value += by;
    this.values.set(k, cur);
  }
  family(): MetricFamily {
    return { name: this.name, help: this.help, type: 'counter', samples: [...this.values.values()].map((v) => ({ labels: v.labels, value: v.value })) };
  }
}

export class Histogram {
  private readonly series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: number[],
  ) {}
  observe(value: number, labels: Labels = {}): void {
    const k = key(labels);
    const s = this.series.get(k) ?? { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
    this.buckets.forEach((le, i) => {
      if (value <= le) s.counts[i]! += 1;
    });
    s.sum += value;
    s.count += 1;
    this.series.set(k, s);
  }
  family(): MetricFamily {
    const samples: Sample[] = [];
    for (const s of this.series.values()) {
      this.buckets.forEach((le, i) => samples.push({ labels: { __suffix: '_bucket', ...s.labels, le: num(le) }, value: s.counts[i]! }));
      samples.push({ labels: { __suffix: '_bucket', ...s.labels, le: '+Inf' }, value: s.count });
      samples.push({ labels: { __suffix: '_sum', ...s.labels }, value: s.sum });
      samples.push({ labels: { __suffix: '_count', ...s.labels }, value: s.count });
    }
    return { name: this.name, help: this.help, type: 'histogram', samples };
  }
}

/** The metrics this process observes itself. One instance per process, even if bundlers duplicate this module. */
export interface ProcessMetrics {
  searchLatency: Histogram;
  searches: Counter;
  httpErrors: Counter;
  logins: Counter;
}

const GLOBAL_KEY = Symbol.for('quin.web.metrics');

export function processMetrics(): ProcessMetrics {
  const g = globalThis as unknown as Record<symbol, ProcessMetrics | undefined>;
  g[GLOBAL_KEY] ??= {
    searchLatency: new Histogram('quin_search_duration_seconds', 'Time to answer a search (web page or API), seconds.', [
      0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
    ]),
    searches: new Counter('quin_search_requests_total', 'Searches answered, by outcome (ok, invalid, rate_limited, error).'),
    httpErrors: new Counter('quin_http_errors_total', 'Error responses of the API, by code.'),
    logins: new Counter('quin_admin_logins_total', 'Admin sign-in attempts, by outcome.'),
  };
  return g[GLOBAL_KEY]!;
}
