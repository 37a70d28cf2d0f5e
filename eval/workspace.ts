/**
 * A scratch data directory per evaluated corpus: the corpus imported through the crawler's import,
 * indexed by the indexer, searched through ranking/. It lives under QUIN_CACHE_DIR/eval, keyed by the
 * corpus file's content hash, the snippet window and the encoder, so a second `quin eval` on the same
 * corpus reuses it (the import skips unchanged articles and the index run finds nothing to do) and the
 * user's own data directory is never touched. Sentence embeddings come from the shared cache.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { importCorpus } from '../crawler';
import { loadConfig, type Config } from '../lib/config';
import { createDb, type Db } from '../lib/db/client';
import { migrate } from '../lib/db/migrate';
import { closeSearchIndexes, openSearchIndexes, runIndex } from '../indexer';
import type { SearchIndexes } from '../indexer/types';
import { EVAL_PAGE_SIZE, rankingOptions, type SearchContext } from '../ranking';

export interface WorkspaceOptions {
  dataset: string;
  /** Corpus file and its import format (crawler/import). */
  corpusFile: string;
  format: 'scifact' | 'jsonl';
  /** Snippet windows (default: the configured ones). */
  window?: { size: number; stride: number; minChars: number };
  /** Configuration the scratch one is derived from (cache dir, encoder, model settings). */
  base: Config;
  /** Parent folder of scratch workspaces (default <cacheDir>/eval). */
  root?: string;
  progress?: boolean;
}

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

function encoderKey(config: Config): string {
  const id = config.encoder === 'onnx' ? `onnx-${path.basename(config.encoderModel ?? 'model')}` : config.encoder;
  return id.replace(/[^A-Za-z0-9._-]+/g, '_');
}

export async function openWorkspace(opts: WorkspaceOptions): Promise<Workspace> {
  const base = opts.base;
  const window = opts.window ?? { size: base.snippetSentences, stride: base.snippetStride, minChars: base.snippetMinChars };
  const corpusSha256 = fileSha256(opts.corpusFile);
  const key = crypto.createHash('sha256').update(JSON.stringify({ corpusSha256, window })).digest('hex').slice(0, 12);
  const dir = path.join(opts.root ?? path.join(base.cacheDir, 'eval'), `${opts.dataset}-${key}-${encoderKey(base)}`);
  fs.mkdirSync(dir, { recursive: true });
  // Always SQLite + FTS5 in the scratch folder, whatever the user's DATABASE_URL / ELASTICSEARCH_URL say.
  const overrides: Record<string, unknown> = {};
  const ignored = ['databaseUrlResolved', 'databaseProvider', 'databaseUrl', 'elasticsearchUrl', 'halfLifeDays'];
  for (const [k, v] of Object.entries(base)) if (v !== undefined && !ignored.includes(k)) overrides[k] = v;
  const config = loadConfig({
    env: {},
    configFile: null,
    overrides: { ...overrides, dataDir: dir, databaseUrl: `file:${path.join(dir, 'quin.db')}`, halfLifeDays: 'off' },
  });
  await migrate(config);
  const db = createDb(config);
  try {
    await db.$queryRawUnsafe('PRAGMA journal_mode = WAL');
    await importCorpus(db, opts.format, opts.corpusFile, { window, progress: opts.progress });
    await runIndex(db, config, opts.progress === false ? { progress: false } : {});
    const indexes = await openSearchIndexes(config, db);
    const articles = await db.article.findMany({ select: { id: true, externalId: true } });
    const docs = new Map(articles.map((a) => [a.id, a.externalId ?? String(a.id)]));
    const snippets = await db.snippet.count();
    const ctx: SearchContext = { indexes, db, provider: 'sqlite', options: rankingOptions(config, { maxK: EVAL_PAGE_SIZE }) };
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
      },
    };
  } catch (e) {
    await db.$disconnect();
    throw e;
  }
}
