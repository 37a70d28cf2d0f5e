/**
 * Before the e2e tests: a temporary data dir seeded through `quin import` + `quin index`, a local
 * news site to crawl, and the production build served by scripts/start.mjs on a free port of
 * 127.0.0.1 (admin password configured as an scrypt hash; private hosts allowed for the local site).
 * Returns the teardown.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hashPassword } from '../lib/web/password';
import { startFeedServer } from './support/feed-server';
import { seedCorpus } from './support/seed';
import { freePort, startServer } from './support/server';
import { ARTIFACTS, ROOT, writeState } from './support/state';

const log = (s: string) => process.stderr.write(`[e2e setup] ${s}\n`);

export default async function globalSetup(): Promise<() => Promise<void>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-e2e-'));
  const serverLog = path.join(ROOT, 'test-results', 'e2e-server.log');
  fs.mkdirSync(path.dirname(serverLog), { recursive: true });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  fs.writeFileSync(serverLog, '');
  const adminPassword = crypto.randomBytes(12).toString('base64url');
  const metricsToken = crypto.randomBytes(18).toString('base64url');
  const nliModel = fs.existsSync(path.join(ROOT, 'models', 'quin-nli', 'model.onnx')) ? 'quin-nli' : null;
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    QUIN_ROOT: ROOT,
    QUIN_DATA_DIR: dataDir,
    DATABASE_URL: '',
    HOST: '127.0.0.1',
    PORT: String(port),
    QUIN_LOG_LEVEL: process.env.QUIN_LOG_LEVEL ?? 'info',
    QUIN_LOG_FORMAT: 'json',
    QUIN_SEED_FEEDS: 'false',
    QUIN_ALLOW_PRIVATE_HOSTS: 'true',
    QUIN_HOST_DELAY_MS: '50',
    QUIN_WORKER_POLL_SECONDS: '1',
    QUIN_ADMIN_USER: 'editor',
    QUIN_ADMIN_PASSWORD_HASH: await hashPassword(adminPassword),
    QUIN_SESSION_SECRET: crypto.randomBytes(24).toString('base64url'),
    QUIN_METRICS_TOKEN: metricsToken,
    // Tests act as distinct clients through X-Forwarded-For (rate limits); the browser as 127.0.0.1.
    QUIN_TRUST_PROXY: 'true',
    QUIN_SEARCH_RATE_LIMIT: '120',
    // The verdict model the repository ships (when present); the reranker as configured by default.
    QUIN_NLI_MODEL: nliModel ?? 'none',
  };
  const t0 = Date.now();
  const corpus = seedCorpus(dataDir, env, log);
  log(`corpus: ${JSON.stringify(corpus)} in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  const feeds = await startFeedServer();
  const server = await startServer(env, serverLog, 15 * 60_000);
  log(`server ready at ${server.baseURL} after ${((Date.now() - t0) / 1000).toFixed(0)} s (log: ${serverLog})`);
  writeState({
    baseURL: server.baseURL,
    dataDir,
    dbPath: path.join(dataDir, 'quin.db'),
    adminUser: 'editor',
    adminPassword,
    metricsToken,
    feedUrl: feeds.feedUrl,
    notAFeedUrl: feeds.notAFeedUrl,
    flakyFeedUrl: feeds.flakyFeedUrl,
    degradedFeedUrl: feeds.degradedFeedUrl,
    linksPageUrl: feeds.linksPageUrl,
    factCheckFeedUrl: feeds.factCheckFeedUrl,
    strayByteFeedUrl: feeds.strayByteFeedUrl,
    nliModel,
    corpus,
    serverLog,
    serverPid: server.proc.pid ?? 0,
  });
  return async () => {
    await server.stop();
    await feeds.close();
    if (!process.env.QUIN_E2E_KEEP_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
