/**
 * Builds a benchmark data directory of about N snippets through the product's own path: shared
 * corpora → the crawler's import readers and store (sentences, windows, FTS5 triggers) → `runIndex`
 * (FAISS). Snippets are cut with stride 1 (windows of 5 sentences starting at every sentence; the
 * product uses stride 3) so that the shared news corpora reach 100k snippets of the product's length.
 * Beyond what the corpora hold (~141k), synthetic articles are made by recombining their real
 * sentences (20 drawn at random per article), which the report says.
 *
 * Dense vectors are the configured encoder's own (default: the static encoder), computed by
 * `runIndex` as the product computes them; nothing is substituted.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { IMPORT_FORMATS, makeSnippets, splitSentences, storeArticles, type ArticleInput } from '../crawler';
import { runIndex, type IndexRunStats } from '../indexer';
import { loadConfig, type Config } from '../lib/config';
import { createDb, type Db } from '../lib/db/client';
import { migrate } from '../lib/db/migrate';
import { sharedDataDir } from '../lib/paths';
import { mulberry32 } from '../lib/random';

export const BENCH_WINDOW = { size: 5, stride: 1, minChars: 40 };

/** The shared corpora, read by the crawler's own import readers (`quin import <format>`). */
export const BENCH_SOURCES: { format: string; path: string[] }[] = [
  { format: 'reuters', path: ['news', 'reuters21578'] },
  { format: 'bbc', path: ['news', 'bbc'] },
  { format: 'huffpost', path: ['news', 'huffpost', 'news_category_subset.json'] },
  { format: 'scifact', path: ['scifact', 'corpus.jsonl'] },
];

const rank = (id: string) => crypto.createHash('sha256').update(`quin-bench:${id}`).digest('hex');

/** Every article of the shared corpora, in a fixed pseudo-random order (so a prefix mixes sources). */
export async function sharedArticles(): Promise<ArticleInput[]> {
  const out: ArticleInput[] = [];
  for (const src of BENCH_SOURCES) {
    const p = path.join(sharedDataDir(), ...src.path);
    if (!fs.existsSync(p)) continue;
    for await (const a of IMPORT_FORMATS[src.format]!(p)) out.push(a);
  }
  return out.sort((a, b) => (rank(a.canonicalUrl) < rank(b.canonicalUrl) ? -1 : 1));
}

export const sentencesOf = (a: ArticleInput) => a.sentences ?? splitSentences(a.text ?? '');

/** Articles of 20 sentences drawn (seeded) from the pool, dated over 2018–2024, source "Synthetic". */
export function* syntheticArticles(pool: readonly string[], seed: number): Generator<ArticleInput> {
  const rand = mulberry32(seed);
  for (let i = 0; ; i++) {
    const sentences = Array.from({ length: 20 }, () => pool[Math.floor(rand() * pool.length)]!);
    const day = Math.floor(rand() * 7 * 365);
    const url = `https://synthetic.invalid/${i}`;
    yield {
      canonicalUrl: url,
      originalUrl: url,
      title: sentences[0]!.split(' ').slice(0, 8).join(' '),
      source: 'Synthetic',
      publishedAt: new Date(Date.UTC(2018, 0, 1) + day * 86_400_000),
      publishedAtSource: 'import',
      fetchedAt: new Date(),
      textSource: 'import',
      extractionStatus: 'ok',
      sentences,
    };
  }
}

/** Articles in a fixed order until they make at least n snippets with the bench window. */
export async function chooseArticles(n: number): Promise<{ articles: ArticleInput[]; snippets: number; synthetic: number }> {
  const out: ArticleInput[] = [];
  let snippets = 0;
  const pool: string[] = [];
  for (const a of await sharedArticles()) {
    if (snippets >= n) break;
    const sentences = sentencesOf(a);
    const count = makeSnippets(sentences, BENCH_WINDOW).length;
    if (!count) continue;
    out.push(a);
    snippets += count;
    pool.push(...sentences);
  }
  let synthetic = 0;
  if (snippets < n && pool.length) {
    for (const a of syntheticArticles(pool, 20_240_601)) {
      if (snippets >= n) break;
      out.push(a);
      snippets += makeSnippets(a.sentences!, BENCH_WINDOW).length;
      synthetic++;
    }
  }
  return { articles: out, snippets, synthetic };
}

export interface BuiltBench {
  dir: string;
  config: Config;
  db: Db;
  snippets: number;
  articles: number;
  synthetic: number;
  importSeconds: number;
  index: IndexRunStats;
}

/** The bench data dir's configuration (its own database; encoder, FAISS and model settings from `base`). */
export function benchConfig(dir: string, base: Config): Config {
  return loadConfig({
    env: {},
    configFile: null,
    overrides: {
      dataDir: dir,
      databaseUrl: `file:${path.join(dir, 'quin.db')}`,
      cacheDir: base.encoder === 'static' ? path.join(dir, 'cache') : base.cacheDir,
      encoder: base.encoder,
      encoderModel: base.encoderModel,
      // --backend elasticsearch (bench/es.ts): both indexes there; unset for the embedded rows.
      elasticsearchUrl: base.elasticsearchUrl,
      elasticsearchIndex: base.elasticsearchIndex,
      elasticsearchDense: base.elasticsearchDense,
      // The models as configured (QUIN_RERANKER_MODEL, QUIN_NLI_MODEL): what is timed is what serves.
      rerankerModel: base.rerankerModel,
      nliModel: base.nliModel,
      modelsDir: base.modelsDir,
    },
    tuning: base.tuning,
  });
}

export async function buildBench(n: number, root: string, base: Config): Promise<BuiltBench> {
  const dir = path.join(root, `bench-${n}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const chosen = await chooseArticles(n);
  const config = benchConfig(dir, base);
  await migrate(config);
  const db = createDb(config);
  await db.$queryRawUnsafe('PRAGMA journal_mode = WAL');
  const started = Date.now();
  for (let i = 0; i < chosen.articles.length; i += 500) await storeArticles(db, chosen.articles.slice(i, i + 500), BENCH_WINDOW);
  chosen.articles.length = 0; // the texts are in the database now
  const importSeconds = (Date.now() - started) / 1000;
  const index = await runIndex(db, config, { progress: false });
  return {
    dir,
    config,
    db,
    snippets: await db.snippet.count(),
    articles: await db.article.count(),
    synthetic: chosen.synthetic,
    importSeconds,
    index,
  };
}
