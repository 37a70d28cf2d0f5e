/**
 * Fault suite (docs/development.md): a data directory the database cannot live in. A data dir that is
 * a file said "EEXIST: file already exists, mkdir"; a read-only one "unable to open database file".
 * Each must name the file and the problem, and what to do. The read-only file system is real: a
 * read-only bind mount (as root, as CI runs); as another user, a folder without write permission.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/db';
import { isQuinError } from '../errors';
import { migrateSqlite } from './migrate';

const made: string[] = [];
const mounts: string[] = [];
afterAll(() => {
  for (const m of mounts) execFileSync('umount', [m]);
  for (const d of made) {
    fs.chmodSync(d, 0o755);
    fs.rmSync(d, { recursive: true, force: true });
  }
});

function refusal(file: string): Error {
  try {
    migrateSqlite(file);
  } catch (e) {
    expect(isQuinError(e, 'DB_UNAVAILABLE'), String(e)).toBe(true);
    return e as Error;
  }
  throw new Error(`${file} was opened`);
}

describe('a data directory the database cannot live in', () => {
  it('a data dir that is a file: says so, not EEXIST', () => {
    const dir = tempDir('quin-datadir-');
    made.push(dir);
    const notADir = path.join(dir, 'data');
    fs.writeFileSync(notADir, 'x');
    const e = refusal(path.join(notADir, 'quin.db'));
    expect(e.message).toBe(
      `the data directory ${notADir} is a file, not a directory: set QUIN_DATA_DIR (or DATABASE_URL) to a directory (it is created when missing), or move that file away`,
    );
    // Deeper below it too.
    expect(refusal(path.join(notADir, 'a', 'b', 'quin.db')).message).toContain(`${notADir} is a file, not a directory`);
  });

  it('a read-only data dir: names the file and the read-only file system (or the missing permission)', () => {
    const dir = tempDir('quin-readonly-');
    made.push(dir);
    const data = path.join(dir, 'data');
    fs.mkdirSync(data);
    migrateSqlite(path.join(data, 'quin.db')); // a real database first, then its folder goes read-only
    let where = data;
    if (process.getuid?.() === 0) {
      // Root writes anywhere the permissions say no: only a read-only mount stops it.
      where = path.join(dir, 'ro');
      fs.mkdirSync(where);
      try {
        execFileSync('mount', ['--bind', data, where]);
        mounts.unshift(where);
        execFileSync('mount', ['-o', 'remount,ro,bind', where]);
      } catch (err) {
        throw new Error(`this test needs a read-only bind mount (root with mount rights): ${String(err)}`);
      }
      const e = refusal(path.join(where, 'quin.db'));
      expect(e.message).toMatch(
        new RegExp(`^the database ${where}/quin\\.db cannot be written: it is on a read-only file system \\(EROFS\\)`),
      );
      expect(refusal(path.join(where, 'new', 'quin.db')).message).toContain(`${where} is on a read-only file system (EROFS)`);
    } else {
      fs.chmodSync(data, 0o555);
      fs.chmodSync(path.join(data, 'quin.db'), 0o444);
      expect(refusal(path.join(data, 'quin.db')).message).toMatch(/cannot be written: permission denied on the file \(EACCES\)/);
    }
  });
});
