/**
 * Prometheus metrics with prom-client. Two registries observed in this process: the public one
 * (search latency and outcomes, API errors, Node.js process metrics) and the admin one (sign-in
 * attempts), which /metrics shows only to a scraper holding the metrics token: how often someone
 * tries the admin password is not for everyone to read. Gauges read from the database at scrape
 * time are built per scrape (app/_lib/metrics.ts) with `scrapeRegistry`.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The metrics this process observes itself. One instance per process, even if bundlers duplicate this module. */
export interface ProcessMetrics {
  registry: Registry;
  adminRegistry: Registry;
  searchLatency: Histogram;
  searches: Counter;
  httpErrors: Counter;
  logins: Counter;
}

const GLOBAL_KEY = Symbol.for('quin.web.metrics');

function create(): ProcessMetrics {
  const registry = new Registry();
  const adminRegistry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    adminRegistry,
    searchLatency: new Histogram({
      name: 'quin_search_duration_seconds',
      help: 'Time to answer a search (web page or API), seconds.',
      buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    searches: new Counter({
      name: 'quin_search_requests_total',
      help: 'Searches answered, by outcome (ok, invalid, rate_limited, shed: refused because the service was busy, search pages refused before rendering included, error).',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    httpErrors: new Counter({
      name: 'quin_http_errors_total',
      help: 'Error responses of the API, by code.',
      labelNames: ['code'],
      registers: [registry],
    }),
    logins: new Counter({
      name: 'quin_admin_logins_total',
      help: 'Admin sign-in attempts, by outcome (shown only with the metrics token).',
      labelNames: ['outcome'],
      registers: [adminRegistry],
    }),
  };
}

export function processMetrics(): ProcessMetrics {
  const g = globalThis as unknown as Record<symbol, ProcessMetrics | undefined>;
  g[GLOBAL_KEY] ??= create();
  return g[GLOBAL_KEY]!;
}

export type Labels = Record<string, string>;

export interface Sample {
  labels?: Labels;
  value: number;
}

/** A registry for values read at scrape time: each family set once from its samples. */
export function scrapeRegistry() {
  const registry = new Registry();
  const labelsOf = (samples: Sample[]) => [...new Set(samples.flatMap((s) => Object.keys(s.labels ?? {})))];
  return {
    registry,
    gauge(name: string, help: string, samples: Sample[]): void {
      const g = new Gauge({ name, help, labelNames: labelsOf(samples), registers: [registry] });
      for (const s of samples) g.set(s.labels ?? {}, s.value);
    },
    /** A total kept elsewhere (the database), exposed as a counter. */
    counter(name: string, help: string, samples: Sample[]): void {
      const c = new Counter({ name, help, labelNames: labelsOf(samples), registers: [registry] });
      for (const s of samples) c.inc(s.labels ?? {}, s.value);
    },
  };
}

/** The text exposition of several registries together (prom-client's own format). */
export async function exposition(registries: Registry[]): Promise<{ text: string; contentType: string }> {
  const merged = Registry.merge(registries);
  return { text: await merged.metrics(), contentType: merged.contentType };
}
