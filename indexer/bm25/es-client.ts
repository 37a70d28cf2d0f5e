/**
 * The one place a client to the cluster is made (indexer/bm25/elasticsearch.ts uses it): one or more
 * node URLs (comma-separated; the client moves to another node when one fails), credentials in the
 * URL (`https://user:password@host:9200`) or as an API key, TLS through an https URL, with a CA file
 * for a cluster whose certificate no public CA signed (Elasticsearch's own security set-up makes one).
 */
import fs from 'node:fs';
import { Client, SniffingTransport } from '@elastic/elasticsearch';
import { createError } from '../../lib/errors';

export interface EsConnection {
  /** One URL, or several separated by commas (nodes of the same cluster). */
  url: string;
  apiKey?: string;
  /** PEM file of the CA that signed the cluster's HTTP certificate. */
  caFile?: string;
  timeoutMs: number;
}

type ClientOptions = NonNullable<ConstructorParameters<typeof Client>[0]>;

/**
 * The client's transport with its retries made at once: the default backoff (1-2 s, then 2-4 s)
 * made a refused connection — known at once — cost a search 4.5 s and /api/health 9 s. Callers retry
 * on their own schedule (the worker's next pass, the reader's next search). The client takes no
 * backoff option itself, only a Transport class.
 */
class PromptTransport extends SniffingTransport {
  constructor(opts: ConstructorParameters<typeof SniffingTransport>[0]) {
    super({ ...opts, retryBackoff: () => 0 });
  }
}

export function nodeUrls(url: string): string[] {
  return url
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
}

/** The URL(s) with any password hidden, for messages and logs. */
export function redactUrl(url: string): string {
  return nodeUrls(url)
    .map((one) => {
      try {
        const u = new URL(one);
        if (u.password) u.password = '***';
        return u.toString();
      } catch {
        return one;
      }
    })
    .join(',');
}

export function esClientOptions(c: EsConnection): ClientOptions {
  const nodes = nodeUrls(c.url);
  if (nodes.length === 0) throw createError('CONFIG_INVALID', 'ELASTICSEARCH_URL names no node');
  let ca: Buffer | undefined;
  if (c.caFile) {
    if (!fs.existsSync(c.caFile)) throw createError('CONFIG_INVALID', `ELASTICSEARCH_CA_FILE: ${c.caFile} does not exist`);
    ca = fs.readFileSync(c.caFile);
  }
  return {
    nodes,
    requestTimeout: c.timeoutMs,
    // A failed request is retried on another node (or the same one): twice, then the caller's error.
    maxRetries: 2,
    Transport: PromptTransport,
    ...(c.apiKey ? { auth: { apiKey: c.apiKey } } : {}),
    ...(ca ? { tls: { ca } } : {}),
  };
}

export function esClient(c: EsConnection): Client {
  return new Client(esClientOptions(c));
}
