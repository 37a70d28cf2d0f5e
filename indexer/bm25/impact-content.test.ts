/**
 * The accelerator over the FTS5 table inside the database (content mode, kept by triggers): its
 * freshness comes from the bm25_generation row that migration 0007's triggers bump with every
 * snippet write, so a copy built before a write is not used alone after it.
 */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqlitePath } from '../../lib/config';
import { createTestDb, type TestDb } from '../../testing/db';
import { addArticle, TOPICS } from '../test-corpus';
import { Fts5Index, FTS_TOKENIZER } from './fts5';
import { compressPostings } from './impact-blocks';
import { decodeImpactBlocks, fingerprintReader, readImpact, rewriteImpact } from './impact-store';

describe.skipIf(process.env.QUIN_TEST_DB === 'postgres')('BM25 accelerator in content mode', () => {
  let t: TestDb;
  let fts: Fts5Index;
  beforeEach(async () => {
    t = await createTestDb();
    for (const a of TOPICS) await addArticle(t.db, a);
    fts = new Fts5Index(sqlitePath(t.config), 'content', { titleWeight: 1.5 });
  });
  afterEach(async () => {
    await fts.close();
    await t.cleanup();
  });

  const query = (terms: string[]) => fts.search({ text: terms.join(' '), terms }, 10);

  it('answers as FTS5 does while fresh, with the rows written since until rebuilt, and fresh again after', async () => {
    const plain = new Fts5Index(sqlitePath(t.config), 'content', { titleWeight: 1.5, impactFile: '' });
    try {
      expect(fts.refreshImpact(0).built).toBe(true);
      const terms = ['interest', 'rates', 'vitamin', 'fractures'];
      const fast = await query(terms);
      expect(fts.lastPath).toBe('impact');
      expect(fast).toEqual(await plain.search({ text: '', terms }, 10));

      await addArticle(t.db, {
        key: 'late',
        title: 'Interest rates and vitamin sales',
        sentences: ['Vitamin sellers watched interest rates closely this spring.', 'Sales of supplements rose as rates fell.'],
      });
      // The copy no longer matches; the rows written since are scored beside it (bm25/impact-live.ts).
      expect(await query(terms)).toEqual(await plain.search({ text: '', terms }, 10));
      expect(fts.lastPath).toBe('impact+live');
      expect(fts.refreshImpact(0)).toMatchObject({ built: true });
      await sleep(2100); // a reader looks for a newer copy at most every 2 s
      // The newer copy is read in the background; the old one answers (with the rows since) meanwhile.
      expect(await query(terms)).toEqual(await plain.search({ text: '', terms }, 10));
      expect(fts.lastPath).toBe('impact+live');
      let after = await query(terms);
      for (let i = 0; i < 50 && fts.lastPath !== 'impact'; i++) {
        await sleep(20);
        after = await query(terms);
      }
      expect(fts.lastPath).toBe('impact');
      expect(after).toEqual(await plain.search({ text: '', terms }, 10));
      expect(fts.refreshImpact(0).reason).toBe('up to date');
    } finally {
      await plain.close();
    }
  });

  it('follows new snippets by the difference, and starts over after an in-place update (migration 0009)', async () => {
    expect(fts.refreshImpact(0)).toMatchObject({ built: true, reason: 'rebuilt' });
    // What the file holds after an update is what a full build of the live index gives, block for block.
    const db = new Database(sqlitePath(t.config), { readonly: true });
    const saved = () => decodeImpactBlocks(fs.readFileSync(fts.impactFile));
    const full = () => ({ fingerprint: fingerprintReader(db)!()!, blocks: compressPostings(readImpact(db)!.arrays) });
    await addArticle(t.db, { key: 'later', title: 'Vitamin sales', sentences: ['Vitamin sales rose this spring across the region.'] });
    const r = fts.refreshImpact(0);
    expect(r.incremental?.added).toBeGreaterThan(0);
    expect(saved()).toEqual(full());
    // Rows removed: written into the copy's blocks (impact-rewrite.ts), the same result.
    await t.db.$executeRawUnsafe(`DELETE FROM snippets WHERE article_id = (SELECT min(id) FROM articles)`);
    await addArticle(t.db, { key: 'latest', title: 'Solar sales', sentences: ['Solar panel sales doubled this year.'] });
    // By the blocks' rewrite, not by the merge of the flat arrays it replaces.
    const rewritten = rewriteImpact(db, saved(), FTS_TOKENIZER);
    expect(rewritten?.added).toBe(1);
    expect(rewritten?.removed).toBeGreaterThan(0);
    expect(fts.refreshImpact(0).incremental?.removed).toBeGreaterThan(0);
    expect(fts.refreshImpact(0).reason).toBe('up to date');
    expect(saved()).toEqual(full());
    db.close();
    await t.db.$executeRawUnsafe(`UPDATE snippets SET text = 'rewritten in place' WHERE id = (SELECT min(id) FROM snippets)`);
    const again = fts.refreshImpact(0);
    expect(again).toMatchObject({ built: true, reason: 'rebuilt' });
    expect(again.incremental).toBeUndefined();
  });
});
