/** What the global set-up hands to the tests: where the server is, its data, the admin credentials. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface E2EState {
  baseURL: string;
  dataDir: string;
  dbPath: string;
  adminUser: string;
  adminPassword: string;
  /** QUIN_METRICS_TOKEN of the server under test (unlocks the admin families of /metrics). */
  metricsToken: string;
  feedUrl: string;
  notAFeedUrl: string;
  flakyFeedUrl: string;
  degradedFeedUrl: string;
  linksPageUrl: string;
  factCheckFeedUrl: string;
  strayByteFeedUrl: string;
  /** Whether a verdict (NLI) model is configured for this run. */
  nliModel: string | null;
  corpus: { scifactDocs: number; reutersArticles: number; fixtures: number };
  serverLog: string;
  serverPid: number;
}

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const STATE_FILE = path.join(ROOT, 'test-results', 'e2e-state.json');
export const ARTIFACTS = path.join(ROOT, 'e2e', 'artifacts');

export function readState(): E2EState {
  return JSON.parse(fs.readFileSync(STATE_FILE, 'utf8')) as E2EState;
}

export function writeState(s: E2EState): void {
  fs.mkdirSync(path.dirname(STATE_FILE), { recursive: true });
  fs.writeFileSync(STATE_FILE, JSON.stringify(s, null, 2));
}
