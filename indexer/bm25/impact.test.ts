import fs from 'node:fs';
import type Database from 'better-sqlite3';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Fts5Index, type FtsRow } from './fts5';
import { mulberry32 as rng } from '../../lib/random';
import { decodeImpact, encodeImpact, readImpact } from './impact-store';

const WORDS = `study studies studied patient patients cell cells cancer risk risks increase increased increasing
  vaccine vaccines climate warming temperature ocean sea level ice café naïve protein gene genes mouse mice
  trial trials effect effects reduce reduced mortality heart disease blood pressure insulin diabetes`
  .split(/\s+/)
  .filter(Boolean);

/** Skewed word choice, so that some terms are common (the case the accelerator is for). */
function words(r: () => number, n: number): string {
  return Array.from({ length: n }, () => WORDS[Math.floor(r() ** 2 * WORDS.length)]!).join(' ');
}

function rows(seed: number, n: number, firstId = 1): FtsRow[] {
  const r = rng(seed);
  return Array.from({ length: n }, (_, i) => ({
    id: firstId + i * 2, // gaps, as deletions leave them
    title: r() < 0.1 ? '' : words(r, 1 + Math.floor(r() * 6)),
    text: r() < 0.02 ? '' : `${words(r, 5 + Math.floor(r() * 60))}.`,
    source: 'test',
    publishedAt: null,
  }));
}

const QUERIES: string[][] = [
  ['study'],
  ['studies', 'study', 'patients'], // two terms, one token: FTS5 scores the phrase twice
  ['cancer', 'risk', 'increase', 'mortality', 'heart', 'blood'],
  ['Café', 'naive'],
  ['absent', 'words', 'only'],
  ['ocean', 'absentword'],
  ['e-mail', 'study'], // two tokens in one term: FTS5 answers
  ['CELLS', 'Genes', 'mouse'],
];

describe('BM25 accelerator (in-memory postings) against FTS5', () => {
  let dir: string;
  let fts: Fts5Index;
  let plain: Fts5Index;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-impact-'));
    const file = path.join(dir, 'bm25.sqlite');
    fts = new Fts5Index(file, 'file', { titleWeight: 1.5 });
    plain = new Fts5Index(file, 'file', { titleWeight: 1.5, impactFile: '' });
    fts.apply(rows(7, 1500), []);
  });
  afterEach(() => {
    fts.close();
    plain.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const both = async (terms: string[], k: number) =>
    [await fts.search({ text: terms.join(' '), terms }, k), await plain.search({ text: terms.join(' '), terms }, k)] as const;

  it('returns exactly FTS5 bm25() rows and scores, ties by rowid', async () => {
    expect(fts.refreshImpact(0).built).toBe(true);
    for (const terms of QUERIES) {
      for (const k of [1, 10, 500, 5000]) {
        const [fast, slow] = await both(terms, k);
        expect(fts.lastPath).toBe(terms.includes('e-mail') ? 'fts5' : 'impact');
        expect(plain.lastPath).toBe('fts5');
        expect(fast.map((h) => h.score)).toEqual(slow.map((h) => h.score));
        // FTS5 does not promise an order among equal scores: compare the sets per score.
        const key = (hs: typeof fast) => hs.map((h) => `${h.score}:${h.snippetId}`).sort();
        if (fast.length < k) expect(key(fast)).toEqual(key(slow));
        else
          expect(key(fast).filter((x) => !x.startsWith(`${fast.at(-1)!.score}:`))).toEqual(
            key(slow).filter((x) => !x.startsWith(`${slow.at(-1)!.score}:`)),
          );
      }
    }
  });

  it('is used only while it matches the FTS5 index; the next refresh catches up', async () => {
    fts.refreshImpact(0);
    await both(['study'], 10);
    expect(fts.lastPath).toBe('impact');
    fts.apply(rows(8, 50, 100_001), [1, 3, 5]);
    const [stale, truth] = await both(['study', 'cancer'], 50);
    expect(fts.lastPath).toBe('fts5');
    expect(stale).toEqual(truth);
    expect(fts.refreshImpact(0)).toMatchObject({ built: true });
    expect(fts.refreshImpact(0)).toMatchObject({ built: false, reason: 'up to date' });
    await new Promise((r) => setTimeout(r, 2100)); // readers look for a newer file every 2 s
    // The newer file is read in the background (FTS5 answers meanwhile in file mode).
    let [fresh, truth2] = await both(['study', 'cancer'], 50);
    for (let i = 0; i < 50 && fts.lastPath !== 'impact'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      [fresh, truth2] = await both(['study', 'cancer'], 50);
    }
    expect(fts.lastPath).toBe('impact');
    expect(fresh.map((h) => h.score)).toEqual(truth2.map((h) => h.score));
  });

  it('keeps no file below the row threshold, and filters and empty queries behave as before', async () => {
    const leftover = path.join(dir, `.${path.basename(fts.impactFile)}.123.abcd.tmp`);
    fs.writeFileSync(leftover, 'torn');
    fts.refreshImpact(0);
    expect(fs.existsSync(leftover)).toBe(false);
    expect(fs.existsSync(fts.impactFile)).toBe(true);
    expect(fts.refreshImpact(10_000)).toMatchObject({ built: false });
    expect(fs.existsSync(fts.impactFile)).toBe(false);
    fts.refreshImpact(0);
    await fts.search({ text: 'study', terms: ['study'] }, 10, { sources: ['test'] });
    expect(fts.lastPath).toBe('fts5');
    await expect(fts.search({ text: '!!', terms: ['!!'] }, 10)).rejects.toMatchObject({ code: 'QUERY_UNUSABLE' });
  });

  it('brings its copy up to date by the difference, array for array what a full build gives', async () => {
    const db = (fts as unknown as { db: Database.Database }).db;
    expect(fts.refreshImpact(0)).toMatchObject({ built: true, reason: 'rebuilt' });
    // New rows (with terms that sort by code point, not by UTF-16 unit) and removed ones, some of
    // whose terms disappear.
    const odd: FtsRow[] = ['émigré zebra', '東京 study', '𝔘nicode ﬁsh', 'uniquewordgone'].map((title, i) => ({
      id: 300_001 + i,
      title,
      text: `${title} ${words(rng(i), 12)}.`,
      source: 'test',
      publishedAt: null,
    }));
    fts.apply([...odd, { ...odd[3]!, id: 300_101 }], []);
    expect(fts.refreshImpact(0).incremental).toEqual({ added: 5, removed: 0 });
    fts.apply(rows(9, 200, 200_001), [1, 3, 5, 7, 101, 300_004, 300_101]);
    const r = fts.refreshImpact(0);
    expect(r).toMatchObject({ built: true, incremental: { added: 200, removed: 7 } });
    const saved = decodeImpact(fs.readFileSync(fts.impactFile));
    const full = readImpact(db)!;
    expect(saved.fingerprint).toBe(full.fingerprint);
    expect(saved.arrays.terms).toEqual(full.arrays.terms);
    expect(saved.arrays.terms).not.toContain('uniquewordgon');
    for (const k of ['termStart', 'postDoc', 'postTf0', 'postTf1', 'docIds', 'docLen'] as const)
      expect([...saved.arrays[k]], k).toEqual([...full.arrays[k]]);
    // Rows above the copy's last with rows removed: written into the blocks (impact-rewrite.ts), the same result.
    fts.apply(rows(4, 60, 400_001), [200_011, 200_021, 300_001]);
    expect(fts.refreshImpact(0)).toMatchObject({ built: true, incremental: { added: 60, removed: 3 } });
    const rewritten = decodeImpact(fs.readFileSync(fts.impactFile));
    const fullAgain = readImpact(db)!;
    expect(rewritten.fingerprint).toBe(fullAgain.fingerprint);
    expect(rewritten.arrays.terms).toEqual(fullAgain.arrays.terms);
    for (const k of ['termStart', 'postDoc', 'postTf0', 'postTf1', 'docIds', 'docLen'] as const)
      expect([...rewritten.arrays[k]], k).toEqual([...fullAgain.arrays[k]]);
    await new Promise((res) => setTimeout(res, 2100));
    const [fast, slow] = await both(['study', 'zebra', 'ﬁsh'], 50);
    expect(fts.lastPath).toBe('impact');
    expect(fast.map((h) => h.score)).toEqual(slow.map((h) => h.score));
  });

  it('builds from scratch when a row is replaced under its id (a new epoch)', () => {
    fts.refreshImpact(0);
    fts.apply([{ id: 1, title: 'replaced', text: 'in place', source: 'test', publishedAt: null }], []);
    const r = fts.refreshImpact(0);
    expect(r).toMatchObject({ built: true, reason: 'rebuilt' });
    expect(r.incremental).toBeUndefined();
  });

  it('round-trips its file format and rejects a damaged file', () => {
    const db = (fts as unknown as { db: Database.Database }).db;
    const built = readImpact(db)!;
    const back = decodeImpact(encodeImpact(built));
    expect(back.fingerprint).toBe(built.fingerprint);
    expect(back.arrays.terms).toEqual(built.arrays.terms);
    expect([...back.arrays.postTf1]).toEqual([...built.arrays.postTf1]);
    expect([...back.arrays.docLen]).toEqual([...built.arrays.docLen]);
    const damaged = encodeImpact(built).subarray(0, 200);
    expect(() => decodeImpact(damaged)).toThrow();
  });
});
