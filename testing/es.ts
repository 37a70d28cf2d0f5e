/**
 * Real Elasticsearch nodes for the tests (scripts/es-node.sh: the distribution Elastic publishes on
 * Maven Central). `sharedEs()` is the node scripts/test.mjs started for the whole run
 * (QUIN_TEST_ES_URL), or, for a file run alone, one of its own; `ownEsNode()` is always a node of
 * the caller's own, for tests that stop, freeze or restart it. A machine where no node can start
 * fails these test files with the script's reason (their set-up fails), never a silent skip.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@elastic/elasticsearch';
import { projectRoot } from '../lib/paths';

const run = promisify(execFile);
const SCRIPT = () => path.join(projectRoot(), 'scripts', 'es-node.sh');
/** Fetching and unpacking the distribution the first time, then a node's start on a busy machine. */
const START_TIMEOUT_MS = 300_000;

export interface EsNode {
  url: string;
  /** The node's folder (config, data, logs, pid); null for the shared node of scripts/test.mjs. */
  dir: string | null;
  /** Starts it again on the same port and data (a stopped node's documents are still there). */
  start(): Promise<void>;
  /** Stops it (SIGTERM, then SIGKILL after 30 s) and waits for it to exit. */
  stop(): Promise<void>;
  /** SIGKILL: a node that dies at once (its acknowledged writes are in its translog). */
  kill(): void;
  /** SIGSTOP / SIGCONT: a node that stops answering without closing its connections. */
  freeze(): void;
  thaw(): void;
  /** Stops it and removes its folder. */
  remove(): Promise<void>;
}

async function script(args: string[]): Promise<string> {
  try {
    const { stdout } = await run('bash', [SCRIPT(), ...args], { timeout: START_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 });
    return stdout.trim().split('\n').pop() ?? '';
  } catch (e) {
    const err = e as Error & { stderr?: string };
    throw new Error(`scripts/es-node.sh ${args[0]} failed: ${(err.stderr || err.message).trim()}`);
  }
}

/** A node of the caller's own in a fresh folder (or the given one); `settings` are extra `-E` pairs. */
export async function ownEsNode(opts: { dir?: string; port?: number; settings?: Record<string, string> } = {}): Promise<EsNode> {
  const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'quin-es-'));
  const extra = Object.entries(opts.settings ?? {}).flatMap(([k, v]) => ['-E', `${k}=${v}`]);
  let url = await script(['start', dir, ...(opts.port ? [String(opts.port)] : []), ...extra]);
  const port = new URL(url).port;
  const pid = () => Number(fs.readFileSync(path.join(dir, 'pid'), 'utf8').trim());
  return {
    get url() {
      return url;
    },
    dir,
    async start() {
      url = await script(['start', dir, port, ...extra]);
    },
    async stop() {
      await script(['stop', dir]);
    },
    kill: () => process.kill(pid(), 'SIGKILL'),
    freeze: () => process.kill(pid(), 'SIGSTOP'),
    thaw: () => process.kill(pid(), 'SIGCONT'),
    async remove() {
      await script(['stop', dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The run's shared node, or one of this file's own; `remove()` stops only a node of its own. */
export async function sharedEs(): Promise<EsNode> {
  if (process.env.QUIN_TEST_ES_ERROR) throw new Error(`no Elasticsearch node for the tests: ${process.env.QUIN_TEST_ES_ERROR}`);
  const url = process.env.QUIN_TEST_ES_URL;
  if (!url) return ownEsNode();
  const refuse = () => Promise.reject(new Error('the shared Elasticsearch node is not for stopping: use ownEsNode()'));
  const never = () => {
    throw new Error('the shared Elasticsearch node is not for stopping: use ownEsNode()');
  };
  return { url, dir: null, start: refuse, stop: refuse, kill: never, freeze: never, thaw: never, remove: async () => undefined };
}

/** An index name no other test file uses on a shared node. */
export function uniqueIndex(prefix: string): string {
  return `${prefix}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}

/** A plain client for what a test reads or does behind the product's back. */
export function rawClient(url: string, requestTimeout = 30_000): Client {
  return new Client({ node: url, requestTimeout });
}

/** Removes the indexes whose names start with `prefix` (a test's own, on a shared node). */
export async function dropIndexes(url: string, prefix: string): Promise<void> {
  const client = rawClient(url);
  try {
    // By name: wildcard deletes are refused (action.destructive_requires_name).
    const names = Object.keys(
      await client.indices.get({ index: `${prefix}*`, expand_wildcards: 'all', allow_no_indices: true, ignore_unavailable: true }),
    );
    if (names.length) await client.indices.delete({ index: names, ignore_unavailable: true });
  } finally {
    await client.close();
  }
}
