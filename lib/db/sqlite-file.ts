/**
 * Before the SQLite file is opened: can it be made and written where the settings put it? SQLite's
 * own words were "unable to open database file" (a read-only file system) and Node's "EEXIST: file
 * already exists, mkdir" (a data dir that is a file); this says which file, what is wrong with the
 * place, and what to do about it. A database in WAL mode needs its folder writable even to be read
 * (the -wal and -shm files beside it), so a read-only folder fails every command, reading included.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createError, type QuinError } from '../errors';

const SETTING = 'QUIN_DATA_DIR (or DATABASE_URL)';

/** The first existing path from `p` upwards. */
function existingAncestor(p: string): string {
  let at = p;
  while (!fs.existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
  return at;
}

function writeProblem(target: string, file: string): QuinError | null {
  try {
    fs.accessSync(target, fs.constants.W_OK);
    return null;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EROFS')
      return createError(
        'DB_UNAVAILABLE',
        `the database ${file} cannot be written: ${target === file ? 'it is' : `${target} is`} on a read-only file system (EROFS); mount it read-write, or set ${SETTING} to a writable place`,
        { file, reason: 'read_only_fs' },
      );
    if (code === 'EACCES' || code === 'EPERM')
      return createError(
        'DB_UNAVAILABLE',
        `the database ${file} cannot be written: permission denied on ${target === file ? 'the file' : target} (${code}); give this user write access, or set ${SETTING} to a writable place`,
        { file, reason: 'permission' },
      );
    return null;
  }
}

/** Throws DB_UNAVAILABLE saying what is wrong when `file` cannot be created or written; returns when it can. */
export function checkSqliteFile(file: string): void {
  const dir = path.dirname(file);
  const existing = existingAncestor(dir);
  if (!fs.statSync(existing).isDirectory())
    throw createError(
      'DB_UNAVAILABLE',
      `the data directory ${existing} is a file, not a directory: set ${SETTING} to a directory (it is created when missing), or move that file away`,
      { file, reason: 'not_a_directory' },
    );
  if (fs.existsSync(file) && fs.statSync(file).isDirectory())
    throw createError('DB_UNAVAILABLE', `the database ${file} is a directory, not a SQLite file: set ${SETTING} to another place`, {
      file,
      reason: 'is_directory',
    });
  // The file itself, and its folder (the -wal and -shm files, a new database).
  const problem = (fs.existsSync(file) ? writeProblem(file, file) : null) ?? writeProblem(existing, file);
  if (problem) throw problem;
}
