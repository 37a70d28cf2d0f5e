/**
 * Fault suite (docs/development.md): two writers on one database. `quin import` stores its batches
 * while `quin index` runs again and again beside it; every run of both must finish (exit 0) — a writer
 * waits for the other, it never fails because the other wrote — and `quin index --verify` must be
 * clean afterwards. On SQLite the index runs used to fail with Prisma's "Operation has timed out"
 * (SQLITE_BUSY_SNAPSHOT on the checkpoint's read-then-write transaction): 5 of 8 beside an import.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../testing/db';
import { runQuin, spawnQuin } from '../testing/quin-cli';
import { faissAvailable } from './dense/faiss-native';

const WORDS = ['council', 'harbour', 'budget', 'hospital', 'railway', 'farmers', 'election', 'storm', 'museum', 'bank', 'school', 'river'];
const VERBS = ['approved', 'delayed', 'funded', 'criticised', 'expanded', 'closed', 'opened', 'reviewed'];

/** A JSON-lines corpus of `n` distinct articles (5 sentences each), about a minute of import here. */
function writeCorpus(file: string, n: number): void {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const w = (k: number) => WORDS[(i * 7 + k * 5) % WORDS.length]!;
    const sentences = Array.from(
      { length: 5 },
      (_, j) => `The ${w(j)} ${VERBS[(i + j) % VERBS.length]} the ${w(j + 3)} plan for district ${i} on day ${j + 1} of the review.`,
    );
    lines.push(
      JSON.stringify({
        id: `writers-${i}`,
        title: `Report ${i}: the ${w(1)} and the ${w(2)}`,
        text: sentences.join(' '),
        url: `https://writers.example/${i}`,
        source: i % 2 ? 'wire' : 'daily',
        publishedAt: new Date(Date.UTC(2024, 0, 1 + (i % 300))).toISOString(),
      }),
    );
  }
  fs.writeFileSync(file, lines.join('\n') + '\n');
}

describe.skipIf(!faissAvailable())('an import and the indexer writing to one database', () => {
  let t: TestDb;
  let env: Record<string, string>;
  let corpus: string;
  beforeAll(async () => {
    t = await createTestDb();
    env = {
      QUIN_DATA_DIR: t.dataDir,
      DATABASE_URL: t.config.databaseUrlResolved,
      QUIN_CACHE_DIR: t.config.cacheDir,
      QUIN_LOG_LEVEL: 'warn',
      QUIN_CONFIG: '',
    };
    corpus = path.join(t.dataDir, 'writers.jsonl');
    writeCorpus(corpus, 15_000);
    // Something to index from the first run on.
    const first = path.join(t.dataDir, 'first.jsonl');
    writeCorpus(first, 300);
    fs.writeFileSync(first, fs.readFileSync(first, 'utf8').replaceAll('writers-', 'first-').replaceAll('writers.example', 'first.example'));
    expect((await runQuin(['import', 'jsonl', first], env)).status).toBe(0);
  }, 180_000);
  afterAll(async () => {
    await t.cleanup();
  });

  it('every `quin index` beside `quin import` finishes, the import finishes, and verify is clean', async () => {
    const imp = spawnQuin(['import', 'jsonl', corpus], env);
    let importOut = '';
    imp.stdout!.on('data', (d: Buffer) => (importOut += d.toString()));
    imp.stderr!.on('data', (d: Buffer) => (importOut += d.toString()));
    const t0 = Date.now();
    let importEnd = Infinity;
    const importDone = new Promise<number | null>((resolve) => imp.on('close', (code) => resolve(code)));
    void importDone.then(() => (importEnd = Date.now()));

    // At least 8 index runs, and as many more as the import lasts.
    const runs: { status: number | null; out: string; from: number; to: number }[] = [];
    while (runs.length < 8 || importEnd === Infinity) {
      const from = Date.now();
      const r = await runQuin(['index'], env, 300_000);
      runs.push({ status: r.status, out: r.stderr.slice(-600), from, to: Date.now() });
      if (runs.length >= 40) break;
    }
    const importCode = await importDone;
    expect(importCode, importOut.slice(-1000)).toBe(0);
    const failed = runs.filter((r) => r.status !== 0);
    expect(failed.length, `${failed.length} of ${runs.length} index runs failed:\n${failed.map((f) => f.out).join('\n---\n')}`).toBe(0);
    // The indexer wrote beside the import for a good part of it (the test would prove nothing otherwise).
    const besideMs = runs.reduce((sum, r) => sum + Math.max(0, Math.min(r.to, importEnd) - Math.max(r.from, t0)), 0);
    expect(besideMs, `index runs beside the import for ${besideMs} ms of ${importEnd - t0}`).toBeGreaterThan(0.5 * (importEnd - t0));

    expect((await runQuin(['index'], env, 300_000)).status).toBe(0);
    const verify = await runQuin(['index', '--verify'], env, 300_000);
    expect(verify.stdout, verify.stderr).toContain('indexes match the database');
    expect(verify.status).toBe(0);
    const snippets = await t.db.snippet.count();
    expect(snippets).toBeGreaterThan(15_000);
  }, 900_000);
});
