import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { createError } from '../../lib/errors';

/**
 * The JSON-lines files a path names: the file itself, or a folder's .json / .jsonl / .ndjson files
 * (sorted, sub-folders included), so that a corpus can be given as the folder it ships in.
 */
export function jsonLineFiles(p: string): string[] {
  if (!fs.existsSync(p)) throw createError('NOT_FOUND', `no such file or folder: ${p}`);
  if (!fs.statSync(p).isDirectory()) return [p];
  const files = fs
    .readdirSync(p, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) =>
      e.isDirectory() ? jsonLineFiles(path.join(p, e.name)) : /\.(jsonl?|ndjson)$/i.test(e.name) ? [path.join(p, e.name)] : [],
    );
  if (!files.length) throw createError('INVALID_INPUT', `${p} holds no .json, .jsonl or .ndjson files`);
  return files;
}

/** Reads a JSON-lines file lazily; a malformed line is an error naming the file and line number. */
export async function* readJsonLines(file: string): AsyncGenerator<{ line: number; value: unknown }> {
  if (!fs.existsSync(file)) throw createError('NOT_FOUND', `no such file: ${file}`);
  const rl = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let line = 0;
  for await (const raw of rl) {
    line++;
    const text = raw.trim();
    if (!text) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw createError('INVALID_INPUT', `${file}:${line}: not valid JSON (${(e as Error).message})`);
    }
    yield { line, value };
  }
}
