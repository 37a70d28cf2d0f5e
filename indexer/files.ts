/**
 * Index files on disk: atomic writes (temporary file, fsync, rename, fsync of the folder) so that a
 * reader or a restart after kill -9 sees either the old file or the new one, never a torn one; and an
 * exclusive lock so that only one indexer process writes the indexes of a data dir at a time.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createError } from '../lib/errors';

export function indexesDir(dataDir: string): string {
  return path.join(dataDir, 'indexes');
}

export function sha256(buf: Buffer): string {
  return crypto.createHash('sha256').update(buf).digest('hex');
}

export function sha256File(file: string): string {
  const h = crypto.createHash('sha256');
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(1 << 20);
    let n: number;
    while ((n = fs.readSync(fd, buf, 0, buf.length, null)) > 0) h.update(buf.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  return h.digest('hex');
}

function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a directory; the rename is still atomic.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Has `write` fill a temporary file beside `file` (e.g. a native writer), then makes it durable and
 * renames it into place: the same guarantees as writeFileAtomic without the bytes in memory.
 */
export function writeAtomicWith(file: string, write: (tmp: string) => void): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`);
  try {
    write(tmp);
    const fd = fs.openSync(tmp, 'r+');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
  fs.renameSync(tmp, file);
  fsyncDir(dir);
}

/** Writes all of `bytes` at the file's current position (a write may take only part of them). */
export function writeAll(fd: number, bytes: Uint8Array): void {
  for (let off = 0; off < bytes.length;) off += fs.writeSync(fd, bytes, off, bytes.length - off);
}

/** A file's size in bytes, 0 when it does not exist. */
export function fileBytes(file: string): number {
  return fs.existsSync(file) ? fs.statSync(file).size : 0;
}

/** Writes `content` (one buffer, or pieces in order) to `file` atomically and durably. */
export function writeFileAtomic(file: string, content: Uint8Array | readonly Uint8Array[]): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`);
  const fd = fs.openSync(tmp, 'wx');
  try {
    // Pieces are written one after another: a large file need not be joined into one buffer first.
    for (const buf of content instanceof Uint8Array ? [content] : content) writeAll(fd, buf);
    fs.fsyncSync(fd);
  } catch (e) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw e;
  }
  fs.closeSync(fd);
  fs.renameSync(tmp, file);
  fsyncDir(dir);
}

/**
 * Leftovers of interrupted runs in `dir`: temporary files and index files other than `keep` and its
 * companions (`<keep>.<suffix>`, as the f16 rows beside an `i8+f16` graph).
 */
export function strayFiles(dir: string, prefix: string, keep: string | null): string[] {
  if (!fs.existsSync(dir)) return [];
  const kept = (name: string) => keep !== null && (name === keep || name.startsWith(`${keep}.`));
  return fs
    .readdirSync(dir)
    .filter((name) => (name.startsWith(`.${prefix}`) && name.endsWith('.tmp')) || (name.startsWith(prefix) && !kept(name)));
}

/** Removes the stray files of `dir` (strayFiles); returns their names. */
export function removeStrayFiles(dir: string, prefix: string, keep: string | null): string[] {
  const removed = strayFiles(dir, prefix, keep);
  for (const name of removed) fs.rmSync(path.join(dir, name), { force: true });
  return removed;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface IndexLock {
  release(): void;
}

/**
 * Takes the data dir's indexer lock (a file holding our pid, created exclusively). A lock left by a
 * process that no longer exists (kill -9) is taken over; one held by a live process is a CONFLICT.
 */
export function acquireIndexLock(dataDir: string): IndexLock {
  const dir = indexesDir(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'indexer.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let held = true;
      return {
        release() {
          if (!held) return;
          held = false;
          try {
            if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.rmSync(file, { force: true });
          } catch {
            // already gone
          }
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(fs.readFileSync(file, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw createError('CONFLICT', `another indexer (pid ${pid}) is working on ${dataDir}; try again when it is done`);
      }
      fs.rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw createError('CONFLICT', `could not take the indexer lock ${file}`);
}
