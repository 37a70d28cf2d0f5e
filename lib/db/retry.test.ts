import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { tempDir } from '../../testing/db';
import { createDb } from './client';
import { migrateSqlite } from './migrate';
import { isBusyError, writeTransaction } from './retry';

describe('writeTransaction on SQLite: the write lock first, retried while another writer holds it', () => {
  const dir = tempDir('quin-write-tx-');
  const file = path.join(dir, 'quin.db');
  migrateSqlite(file);
  const config = loadConfig({ env: {}, configFile: null, overrides: { dataDir: dir } });
  const db = createDb(config);
  const second = createDb(config);
  const other = new Database(file);
  other.pragma('busy_timeout = 0');
  afterAll(async () => {
    await Promise.all([db.$disconnect(), second.$disconnect()]);
    other.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const otherInsert = (name: string) =>
    other.prepare("INSERT INTO index_state (name, version, backend, ntotal, updated_at) VALUES (?, 1, 'b', 0, '2024-01-01')").run(name);

  it('a plain transaction that reads, then writes after another commit, fails at once (the bug); this one does not', async () => {
    const plain = db.$transaction(async (tx) => {
      await tx.feed.count();
      otherInsert('first');
      await tx.indexState.create({ data: { name: 'plain', version: 1, backend: 'b', ntotal: 0 } });
    });
    const e = await plain.catch((err: unknown) => err);
    expect(isBusyError(e)).toBe(true);

    let otherWrote: string | null = null;
    await writeTransaction(db, async (tx) => {
      await tx.feed.count();
      try {
        otherInsert('second');
        otherWrote = 'yes';
      } catch (err) {
        otherWrote = (err as { code?: string }).code ?? 'error';
      }
      await tx.indexState.create({ data: { name: 'mine', version: 1, backend: 'b', ntotal: 0 } });
    });
    // The lock was held from the start: the other writer had to wait, the transaction committed.
    expect(otherWrote).toBe('SQLITE_BUSY');
    expect(await db.indexState.findUnique({ where: { name: 'mine' } })).not.toBeNull();
  });

  it('waits for a writer of another connection that holds the lock, without blocking the event loop', async () => {
    other.prepare('BEGIN IMMEDIATE').run();
    const t0 = Date.now();
    let ticks = 0;
    const tick = setInterval(() => ticks++, 20);
    setTimeout(() => other.prepare('COMMIT').run(), 600);
    await writeTransaction(db, (tx) => tx.indexState.create({ data: { name: 'late', version: 1, backend: 'b', ntotal: 0 } }));
    clearInterval(tick);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(550);
    // The event loop kept running while it waited (a busy timeout would have frozen it).
    expect(ticks).toBeGreaterThan(10);
  });

  it('two clients of one process writing at once both finish (neither waits inside the busy timeout on the other)', async () => {
    const slowWriter = (client: typeof db, name: string) =>
      writeTransaction(client, async (tx) => {
        await tx.feed.count();
        await new Promise((r) => setTimeout(r, 200));
        await tx.indexState.create({ data: { name, version: 1, backend: 'b', ntotal: 0 } });
      });
    const t0 = Date.now();
    await Promise.all([slowWriter(db, 'a'), slowWriter(second, 'b')]);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(await db.indexState.count({ where: { name: { in: ['a', 'b'] } } })).toBe(2);
  });
});
