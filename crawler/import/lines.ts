import fs from 'node:fs';
import readline from 'node:readline';
import { createError } from '../../lib/errors';

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
