/**
 * The client's connection settings (pure): the tests' nodes run with security off, so what reaches
 * the official client for credentials and TLS is checked here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isQuinError } from '../../lib/errors';
import { esClientOptions, nodeUrls, redactUrl } from './es-client';

describe('Elasticsearch connection settings', () => {
  it('takes several nodes, an API key and a CA file', () => {
    const ca = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'quin-ca-')), 'http_ca.crt');
    fs.writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    const opts = esClientOptions({ url: 'https://es1:9200, https://es2:9200,', apiKey: 'aWQ6a2V5', caFile: ca, timeoutMs: 5000 });
    expect(opts).toMatchObject({ nodes: ['https://es1:9200', 'https://es2:9200'], auth: { apiKey: 'aWQ6a2V5' }, requestTimeout: 5000 });
    expect(String((opts.tls as { ca: Buffer }).ca)).toContain('BEGIN CERTIFICATE');
    expect(esClientOptions({ url: 'http://127.0.0.1:9200', timeoutMs: 1000 })).not.toHaveProperty('auth');
  });

  it('refuses a missing CA file and an empty URL list', () => {
    for (const bad of [
      () => esClientOptions({ url: 'https://es1:9200', caFile: '/nonexistent/ca.crt', timeoutMs: 1000 }),
      () => esClientOptions({ url: ' , ', timeoutMs: 1000 }),
    ]) {
      let err: unknown;
      try {
        bad();
      } catch (e) {
        err = e;
      }
      expect(isQuinError(err, 'CONFIG_INVALID')).toBe(true);
    }
  });

  it('never shows a password', () => {
    expect(redactUrl('https://elastic:s3cret@es1:9200,https://es2:9200')).toBe('https://elastic:***@es1:9200/,https://es2:9200/');
    expect(nodeUrls('a,,b ')).toEqual(['a', 'b']);
  });
});
