/**
 * The pruned accelerator against the exhaustive scorer, and both against FTS5, over a real corpus:
 * SciFact's abstracts and BBC News's stories cut into snippets, searched with 1,000 random queries
 * (SciFact claims, and draws from the index's own vocabulary: rare and common terms, repeats,
 * absent words). Identical means the same rows, the same doubles, the same order. A slow test (about
 * a minute: the exhaustive scorer is the reference); impact-maxscore.test.ts covers the edges quickly.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusRows, firstDifference, rng, scifactClaims } from '../../testing/impact';
import { SHARED_MISSING } from '../../testing/shared-data';
import { Fts5Index, FTS_TOKENIZER, type FtsRow } from './fts5';
import type { ImpactIndex } from './impact';
import { QueryTokenizer, readImpactFile, sqliteLog } from './impact-store';

const rows = corpusRows();
const WEIGHTS: [number, number] = [1.5, 1];

describe.skipIf(!rows)(`pruned BM25 over SciFact + BBC News snippets${rows ? '' : ` (${SHARED_MISSING})`}`, () => {
  let dir: string;
  let fts: Fts5Index;
  let plain: Fts5Index;
  let queries: string[][];

  let db: Database.Database;
  let log: (x: number) => number;
  const loaded = (): ImpactIndex => readImpactFile(fts.impactFile, log)!.index;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-impact-corpus-'));
    const file = path.join(dir, 'bm25.sqlite');
    fts = new Fts5Index(file, 'file', { titleWeight: WEIGHTS[0] });
    plain = new Fts5Index(file, 'file', { titleWeight: WEIGHTS[0], impactFile: '' });
    fts.apply(
      rows!.map((r, i) => ({ ...r, id: 1 + i * 2 })),
      [],
    );
    expect(fts.refreshImpact(0).built).toBe(true);
    db = new Database(file);
    log = sqliteLog(db);
    queries = randomQueries(loaded(), db);
  }, 120_000);
  afterAll(async () => {
    db?.close();
    await fts?.close();
    await plain.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('returns the exhaustive top k for 1,000 random queries at k = 10, 100 and 500 (and 1, 2,000 for some)', () => {
    const index = loaded();
    expect(index.nRow).toBeGreaterThan(25_000);
    let compared = 0;
    queries.forEach((q, i) => {
      const ks = i % 10 === 0 ? [1, 10, 100, 500, 2000] : [10, 100, 500];
      // The order is total (score, then rowid), so a smaller k's top is the start of a larger one's.
      const reference = index.searchExhaustive(q, ks.at(-1)!, WEIGHTS);
      for (const k of ks) {
        expect(firstDifference(index.search(q, k, WEIGHTS), reference.slice(0, k)), `${q.join(' ')} k=${k}`).toBeNull();
        compared++;
      }
    });
    expect(compared).toBeGreaterThan(3000);
  });

  it('does so for other column weights too', () => {
    const index = loaded();
    for (const w of [
      [1, 1],
      [0, 1],
      [5, 0.5],
    ] as [number, number][])
      for (const q of queries.slice(0, 60))
        expect(firstDifference(index.search(q, 100, w), index.searchExhaustive(q, 100, w)), q.join(' ')).toBeNull();
  });

  it('answers as FTS5 bm25() does (scores; rows among equal scores)', async () => {
    for (const q of queries.slice(0, 25)) {
      const fast = await fts.search({ text: q.join(' '), terms: q }, 100);
      expect(fts.lastPath).toBe('impact');
      const slow = await plain.search({ text: q.join(' '), terms: q }, 100);
      expect(fast.map((h) => h.score)).toEqual(slow.map((h) => h.score));
      // FTS5 does not promise an order among equal scores: compare the rows above the last score.
      const above = (hs: typeof fast) =>
        hs
          .filter((h) => h.score !== hs.at(-1)!.score)
          .map((h) => `${h.score}:${h.snippetId}`)
          .sort();
      expect(above(fast)).toEqual(above(slow));
    }
  });

  it('stays exact after rows are removed and added (the copy updated by the difference)', () => {
    const r = rng(17);
    const remove = Array.from({ length: 400 }, () => 1 + 2 * Math.floor(r() * rows!.length));
    const add: FtsRow[] = rows!.slice(0, 300).map((row, i) => ({ ...row, id: 10_000_000 + i, title: `${row.title} update` }));
    fts.apply(add, remove);
    expect(fts.refreshImpact(0).incremental).toMatchObject({ added: 300 });
    const index = loaded();
    for (const q of [...queries.slice(0, 60), ['updat'], ['updat', 'cell']])
      for (const k of [10, 500])
        expect(firstDifference(index.search(q, k, WEIGHTS), index.searchExhaustive(q, k, WEIGHTS)), q.join(' ')).toBeNull();
  });
});

/** 300 SciFact claims as FTS5 tokens, and 700 draws from the vocabulary (uniform over terms, or by postings, so common ones too). */
function randomQueries(index: ImpactIndex, db: Database.Database): string[][] {
  const tok = new QueryTokenizer(db, FTS_TOKENIZER);
  const claims = scifactClaims(300).map((c) => (c.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).flatMap((w) => tok.tokenize([w]) ?? []));
  const { terms, termStart } = index.blocks;
  const postings = termStart[terms.length]!;
  const byPosting = (p: number) => {
    let lo = 0;
    let hi = terms.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (termStart[mid]! <= p) lo = mid;
      else hi = mid - 1;
    }
    return terms[lo]!;
  };
  const r = rng(2024);
  const draws = Array.from({ length: 700 }, () =>
    Array.from({ length: 1 + Math.floor(r() ** 1.5 * 30) }, () => {
      const x = r();
      if (x < 0.05) return 'zzabsentzz';
      return x < 0.5 ? terms[Math.floor(r() * terms.length)]! : byPosting(Math.floor(r() * postings));
    }),
  );
  return [...claims.filter((c) => c.length), ...draws];
}
