/**
 * Builds a benchmark data directory of about N snippets through the product's own path: shared
 * corpora → generic JSON-lines import (sentences, windows, store, FTS5 triggers) → `runIndex`
 * (FAISS). Snippets are cut with stride 1 (windows of 5 sentences starting at every sentence; the
 * product uses stride 3) so that the shared news corpora reach 100k snippets of the product's length.
 * Beyond what the corpora hold (~141k), synthetic articles are made by drawing sentences from them.
 *
 * Dense vectors: the bulk comes from the substitute encoder (bench/substitute-encoder.ts), written into
 * a private vector cache under the configured encoder's id before `runIndex`, so that the indexer
 * finds every sentence cached and builds FAISS exactly as it would from real vectors.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { importCorpus, makeSnippets, splitSentences } from '../crawler';
import { createEncoder, runIndex, snippetSentences, VectorCache, type IndexRunStats } from '../indexer';
import { loadConfig, type Config } from '../lib/config';
import { createDb, type Db } from '../lib/db/client';
import { migrate } from '../lib/db/migrate';
import { sharedDataDir } from '../lib/paths';
import { BENCH_SOURCES, type BenchDoc } from './corpora';
import { substituteEncoder } from './substitute-encoder';

export const BENCH_WINDOW = { size: 5, stride: 1, minChars: 40 };

const rank = (id: string) => crypto.createHash('sha256').update(`quin-bench:${id}`).digest('hex');

export function sharedDocs(): BenchDoc[] {
  const docs: BenchDoc[] = [];
  for (const src of Object.values(BENCH_SOURCES)) {
    const p = path.join(sharedDataDir(), ...src.path);
    if (fs.existsSync(p)) docs.push(...src.read(p));
  }
  return docs.sort((a, b) => (rank(a.id) < rank(b.id) ? -1 : 1));
}

/** A small seeded PRNG (mulberry32): the same synthetic corpus on every machine. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Articles of 20 sentences drawn (seeded) from the pool, dated over 2018–2024: labelled "Synthetic". */
export function* syntheticDocs(pool: readonly string[], seed: number): Generator<BenchDoc> {
  const rand = prng(seed);
  for (let i = 0; ; i++) {
    const sentences = Array.from({ length: 20 }, () => pool[Math.floor(rand() * pool.length)]!);
    const day = Math.floor(rand() * 7 * 365);
    yield { id: `synthetic-${i}`, title: sentences[0]!.split(' ').slice(0, 8).join(' '), text: sentences.join(' '), published: new Date(Date.UTC(2018, 0, 1) + day * 86_400_000).toISOString(), source: 'Synthetic' };
  }
}

/** Documents in a fixed order until they make at least n snippets with the bench window. */
export function chooseDocs(n: number): { docs: BenchDoc[]; snippets: number; synthetic: number } {
  const out: BenchDoc[] = [];
  let snippets = 0;
  const pool: string[] = [];
  for (const d of sharedDocs()) {
    if (snippets >= n) break;
    const sentences = splitSentences(d.text);
    const count = makeSnippets(sentences, BENCH_WINDOW).length;
    if (!count) continue;
    out.push(d);
    snippets += count;
    pool.push(...sentences);
  }
  let synthetic = 0;
  if (snippets < n && pool.length) {
    for (const d of syntheticDocs(pool, 20_240_601)) {
      if (snippets >= n) break;
      out.push(d);
      snippets += makeSnippets(splitSentences(d.text), BENCH_WINDOW).length;
      synthetic++;
    }
  }
  return { docs: out, snippets, synthetic };
}

export interface BuiltBench {
  dir: string;
  config: Config;
  db: Db;
  snippets: number;
  articles: number;
  synthetic: number;
  sentences: number;
  importSeconds: number;
  prefillSeconds: number;
  index: IndexRunStats;
}

async function prefillVectors(db: Db, config: Config): Promise<{ sentences: number; seconds: number }> {
  const started = Date.now();
  const encoder = await createEncoder(config);
  const cache = new VectorCache(config.cacheDir, encoder.id, encoder.dim);
  const substitute = substituteEncoder(encoder.dim);
  const seen = new Set<string>();
  let lastId = 0;
  try {
    for (;;) {
      const rows = await db.snippet.findMany({ where: { id: { gt: lastId } }, orderBy: { id: 'asc' }, take: 5000, select: { id: true, text: true, sentenceSpans: true, title: true } });
      if (!rows.length) break;
      lastId = rows.at(-1)!.id;
      const texts = [...new Set(rows.flatMap((r) => [...snippetSentences(r), r.title.trim()]).filter((t) => t && !seen.has(t)))];
      texts.forEach((t) => seen.add(t));
      if (texts.length) cache.put(texts, await substitute.embed(texts));
    }
  } finally {
    cache.close();
    await encoder.close?.();
  }
  return { sentences: seen.size, seconds: (Date.now() - started) / 1000 };
}

export async function buildBench(n: number, root: string, base: Config): Promise<BuiltBench> {
  const dir = path.join(root, `bench-${n}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const chosen = chooseDocs(n);
  const corpus = path.join(dir, 'corpus.jsonl');
  fs.writeFileSync(corpus, chosen.docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
  const config = loadConfig({
    env: {},
    configFile: null,
    overrides: { dataDir: dir, databaseUrl: `file:${path.join(dir, 'quin.db')}`, cacheDir: path.join(dir, 'cache'), encoder: base.encoder, encoderModel: base.encoderModel, faissFactory: base.faissFactory, faissExactMax: base.faissExactMax },
  });
  await migrate(config);
  const db = createDb(config);
  await db.$queryRawUnsafe('PRAGMA journal_mode = WAL');
  let started = Date.now();
  await importCorpus(db, 'jsonl', corpus, { window: BENCH_WINDOW, progress: false, batchSize: 500 });
  const importSeconds = (Date.now() - started) / 1000;
  const prefill = await prefillVectors(db, config);
  started = Date.now();
  const index = await runIndex(db, config, { progress: false });
  return {
    dir,
    config,
    db,
    snippets: await db.snippet.count(),
    articles: await db.article.count(),
    synthetic: chosen.synthetic,
    sentences: prefill.sentences,
    importSeconds,
    prefillSeconds: prefill.seconds,
    index,
  };
}
