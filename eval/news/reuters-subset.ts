/**
 * A Reuters-21578 subset for the news evaluation: the stories the claims name plus a fixed number of
 * distractors, written as one SGML file of the original <REUTERS> blocks (so the crawler's `reuters`
 * import reads it as it reads the full corpus). All 21,578 stories would take hours to embed with
 * USE-lite on a laptop-class CPU; a few thousand distractors keep retrieval honest at a fraction of
 * that. The distractors are the stories with a body whose sha256(NEWID) is smallest: deterministic,
 * independent of the claims, spread over the whole year.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createError } from '../../lib/errors';

export const DEFAULT_REUTERS_DISTRACTORS = 2000;

export interface ReutersSubset {
  file: string;
  /** Stories written (named + distractors). */
  documents: number;
  named: number;
  distractors: number;
  /** Named NEWIDs the corpus does not have. */
  missing: string[];
}

interface Block {
  newId: string;
  raw: string;
  hasBody: boolean;
}

function blocks(dir: string): Block[] {
  if (!fs.existsSync(dir)) throw createError('NOT_FOUND', `no such folder: ${dir} (expected the Reuters-21578 reut2-*.sgm files)`);
  const files = fs.statSync(dir).isFile()
    ? [dir]
    : fs
        .readdirSync(dir)
        .filter((f) => /\.sgm$/i.test(f))
        .sort()
        .map((f) => path.join(dir, f));
  if (!files.length) throw createError('INVALID_INPUT', `${dir} holds no .sgm files (expected the Reuters-21578 reut2-*.sgm files)`);
  const out: Block[] = [];
  for (const f of files) {
    for (const m of fs.readFileSync(f, 'latin1').matchAll(/<REUTERS\b[^>]*>[\s\S]*?<\/REUTERS>/g)) {
      const newId = /NEWID="(\d+)"/.exec(m[0])?.[1];
      if (newId) out.push({ newId, raw: m[0], hasBody: /<BODY>[\s\S]*?\S[\s\S]*?<\/BODY>/.test(m[0]) });
    }
  }
  return out;
}

const rank = (id: string) => crypto.createHash('sha256').update(id).digest('hex');

/** Picks the named stories and `distractors` others (pure apart from reading `dir`). */
export function selectReuters(dir: string, named: ReadonlySet<string>, distractors: number): { chosen: Block[]; missing: string[] } {
  const all = blocks(dir);
  const have = new Set(all.map((b) => b.newId));
  const picked = all.filter((b) => named.has(b.newId));
  const others = all
    .filter((b) => !named.has(b.newId) && b.hasBody)
    .map((b) => ({ b, r: rank(b.newId) }))
    .sort((a, b) => (a.r < b.r ? -1 : a.r > b.r ? 1 : 0))
    .slice(0, Math.max(0, distractors))
    .map((x) => x.b);
  const chosen = [...picked, ...others].sort((a, b) => Number(a.newId) - Number(b.newId));
  return { chosen, missing: [...named].filter((id) => !have.has(id)).sort() };
}

/**
 * Writes the subset under `outDir`, named by its content (so a changed selection is a new file and
 * an unchanged one is reused as is).
 */
export function writeReutersSubset(dir: string, named: ReadonlySet<string>, distractors: number, outDir: string): ReutersSubset {
  const { chosen, missing } = selectReuters(dir, named, distractors);
  const body = chosen.map((b) => b.raw).join('\n') + '\n';
  const hash = crypto.createHash('sha256').update(body, 'latin1').digest('hex').slice(0, 12);
  const file = path.join(outDir, `reuters-subset-${hash}.sgm`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(outDir, { recursive: true });
    // Written whole, then renamed: a crash never leaves a half file under the final name.
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, body, 'latin1');
    fs.renameSync(tmp, file);
  }
  const namedCount = chosen.filter((b) => named.has(b.newId)).length;
  return { file, documents: chosen.length, named: namedCount, distractors: chosen.length - namedCount, missing };
}
