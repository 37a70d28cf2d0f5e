/**
 * A scratch data directory per evaluated corpus: the corpus imported through the crawler's import,
 * indexed by the indexer, searched through ranking/. It lives under QUIN_CACHE_DIR/eval, keyed by the
 * corpus's content hash, the snippet window and the encoder (a static table by its folder), so a second `quin eval` on the same
 * corpus reuses it (the import skips unchanged articles and the index run finds nothing to do) and the
 * user's own data directory is never touched. Sentence embeddings come from the shared cache.
 * Several corpora (files or folders, each with its import format) can share one workspace, as the
 * news evaluation's BBC + HuffPost + Reuters do; their content hashes together key it.
 * BM25 is the embedded FTS5 of that database, or (backend 'elasticsearch') a throwaway index of its
 * own on the cluster at ELASTICSEARCH_URL, removed again at close.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_WINDOW, importCorpus } from '../crawler';
import { loadConfig, type Config } from '../lib/config';
import { createError } from '../lib/errors';
import { createDb, type Db } from '../lib/db/client';
import { migrate } from '../lib/db/migrate';
import { closeSearchIndexes, dropElasticsearchIndex, openSearchIndexes, runIndex } from '../indexer';
import { staticModelDir } from '../indexer/encoders';
import type { SearchIndexes } from '../indexer/types';
import { EVAL_PAGE_SIZE, rankingOptions, type SearchContext } from '../ranking';

export interface CorpusSource {
  /** Import format (crawler/import: scifact, jsonl, bbc, huffpost, reuters). */
  format: string;
  /** The corpus file or folder. */
  path: string;
}

export interface WorkspaceOptions {
  dataset: string;
  /** One corpus file and its import format (crawler/import)… */
  corpusFile?: string;
  format?: string;
  /** …or several corpora imported into the one workspace. */
  corpora?: readonly CorpusSource[];
  /** Snippet windows (default: the configured ones). */
  window?: { size: number; stride: number; minChars: number };
  /** Configuration the scratch one is derived from (cache dir, encoder, model settings). */
  base: Config;
  /** Parent folder of scratch workspaces (default <cacheDir>/eval). */
  root?: string;
  progress?: boolean;
  /** Where BM25 lives: the workspace's own SQLite FTS5 (default) or Elasticsearch (base.elasticsearchUrl). */
  backend?: EvalBackend;
}

export type EvalBackend = 'embedded' | 'elasticsearch';

export interface Workspace {
  dir: string;
  config: Config;
  db: Db;
  indexes: SearchIndexes;
  ctx: SearchContext;
  stats: { documents: number; snippets: number; corpusSha256: string };
  docIdOf(articleId: number): string | undefined;
  close(): Promise<void>;
}

export function fileSha256(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** A file's hash, or a folder's: every file below it, by relative path and content, in name order. */
export function contentSha256(p: string): string {
  if (!fs.existsSync(p)) throw createError('NOT_FOUND', `no such file or folder: ${p}`);
  if (fs.statSync(p).isFile()) return fileSha256(p);
  const h = crypto.createHash('sha256');
  const walk = (dir: string, rel: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full, `${rel}${e.name}/`);
      else if (e.isFile()) h.update(`${rel}${e.name}\0${fileSha256(full)}\n`);
    }
  };
  walk(p, '');
  return h.digest('hex');
}

function encoderKey(config: Config): string {
  const id =
    config.encoder === 'onnx'
      ? `onnx-${path.basename(config.encoderModel ?? 'model')}`
      : config.encoder === 'static'
        ? `static-${path.basename(staticModelDir(config))}`
        : config.encoder;
  return id.replace(/[^A-Za-z0-9._-]+/g, '_');
}

export async function openWorkspace(opts: WorkspaceOptions): Promise<Workspace> {
  const base = opts.base;
  const window = opts.window ?? DEFAULT_WINDOW;
  const corpora = opts.corpora ?? (opts.corpusFile && opts.format ? [{ format: opts.format, path: opts.corpusFile }] : []);
  if (!corpora.length) throw createError('INVALID_INPUT', 'a workspace needs at least one corpus');
  const hashes = corpora.map((c) => ({ format: c.format, sha256: contentSha256(c.path) }));
  // One corpus keeps its file's own hash (and so its old workspace key); several hash together.
  const corpusSha256 = hashes.length === 1 ? hashes[0]!.sha256 : crypto.createHash('sha256').update(JSON.stringify(hashes)).digest('hex');
  const key = crypto.createHash('sha256').update(JSON.stringify({ corpusSha256, window })).digest('hex').slice(0, 12);
  const dir = path.join(opts.root ?? path.join(base.cacheDir, 'eval'), `${opts.dataset}-${key}-${encoderKey(base)}`);
  fs.mkdirSync(dir, { recursive: true });
  // Always SQLite in the scratch folder, whatever the user's DATABASE_URL says; BM25 in its FTS5
  // unless the backend asked for is Elasticsearch (backendOverrides), whatever ELASTICSEARCH_URL says.
  const overrides: Record<string, unknown> = {};
  const ignored = ['databaseUrlResolved', 'databaseProvider', 'databaseUrl', 'elasticsearchUrl', 'halfLifeDays'];
  for (const [k, v] of Object.entries(base)) if (v !== undefined && !ignored.includes(k)) overrides[k] = v;
  const config = loadConfig({
    env: {},
    configFile: null,
    overrides: {
      ...overrides,
      ...backendOverrides(opts.backend ?? 'embedded', opts.dataset, base),
      dataDir: dir,
      databaseUrl: `file:${path.join(dir, 'quin.db')}`,
      halfLifeDays: 'off',
    },
  });
  await migrate(config);
  const db = createDb(config);
  try {
    await db.$queryRawUnsafe('PRAGMA journal_mode = WAL');
    for (const c of corpora) await importCorpus(db, c.format, c.path, { window, progress: opts.progress });
    await runIndex(db, config, opts.progress === false ? { progress: false } : {});
    const indexes = await openSearchIndexes(config, db);
    const articles = await db.article.findMany({ select: { id: true, externalId: true } });
    const docs = new Map(articles.map((a) => [a.id, a.externalId ?? String(a.id)]));
    const snippets = await db.snippet.count();
    const ctx: SearchContext = {
      indexes,
      db,
      provider: 'sqlite',
      options: rankingOptions(config, { maxK: EVAL_PAGE_SIZE }, indexes.encoder),
    };
    return {
      dir,
      config,
      db,
      indexes,
      ctx,
      stats: { documents: articles.length, snippets, corpusSha256 },
      docIdOf: (id) => docs.get(id),
      async close() {
        // The indexer keeps one opened set per configuration and process: close them all, so that a
        // later workspace on the same folder opens fresh ones.
        await closeSearchIndexes();
        await db.$disconnect();
        if (config.elasticsearchUrl) await dropElasticsearchIndex(config);
      },
    };
  } catch (e) {
    await db.$disconnect();
    if (config.elasticsearchUrl) await dropElasticsearchIndex(config).catch(() => undefined);
    throw e;
  }
}

/**
 * Elasticsearch: the user's cluster (URL, credentials, CA, whether it holds the vectors too) and an
 * index no other run uses; its ledger in the workspace's database then names another index, so the
 * run indexes everything into it.
 */
function backendOverrides(backend: EvalBackend, dataset: string, base: Config): Record<string, unknown> {
  if (backend === 'embedded') return {};
  if (!base.elasticsearchUrl)
    throw createError('INVALID_INPUT', '--backend elasticsearch needs ELASTICSEARCH_URL (a cluster the evaluation may create an index on)');
  const id = `${process.pid}-${crypto.randomBytes(3).toString('hex')}`;
  return { elasticsearchUrl: base.elasticsearchUrl, elasticsearchIndex: `quin-eval-${dataset}-${id}`.toLowerCase() };
}
