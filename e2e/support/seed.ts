/**
 * The e2e corpus, loaded through the project's own import (`quin import`) and indexed with
 * `quin index`: a slice of SciFact (with the abstracts that some training claims cite), a slice of
 * Reuters-21578 when that importer exists, and our own small fixtures (dated articles for the
 * recency tests, an article whose text carries markup). Small enough to index in seconds with the static
 * encoder (and in a few minutes with an ONNX one, whose sentence vectors are then cached).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './state';

/** SciFact corpus lines (0-based) cited by the claims the tests use, beside the first lines of the file. */
export const SCIFACT_CITED_LINES = [1950, 2271, 964, 2406, 1145, 3391];
const SCIFACT_HEAD = 100;
const REUTERS_ARTICLES = 120;

export function sharedData(...parts: string[]): string | null {
  const base = process.env.QUIN_SHARED_DATA ? path.resolve(process.env.QUIN_SHARED_DATA) : path.resolve(ROOT, '..', 'shared', 'data');
  const p = path.join(base, ...parts);
  return fs.existsSync(p) ? p : null;
}

export function quin(args: string[], env: NodeJS.ProcessEnv, log: (s: string) => void): { ok: boolean; output: string } {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'e2e/support/quin-cli.mjs'), ...args], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  log(`quin ${args.join(' ')} → exit ${r.status}`);
  return { ok: r.status === 0, output };
}

function must(r: { ok: boolean; output: string }, what: string): void {
  if (!r.ok) throw new Error(`${what} failed:\n${r.output.slice(-4000)}`);
}

function scifactSlice(corpus: string, out: string): number {
  const lines = fs.readFileSync(corpus, 'utf8').split('\n').filter(Boolean);
  const picked = new Set<number>([...Array.from({ length: SCIFACT_HEAD }, (_, i) => i), ...SCIFACT_CITED_LINES]);
  const slice = [...picked].filter((i) => i < lines.length).map((i) => lines[i]!);
  fs.writeFileSync(out, slice.join('\n') + '\n');
  return slice.length;
}

/** The first `n` <REUTERS> documents of one SGML file, as a smaller SGML file. */
function reutersSlice(dir: string, out: string, n: number): number {
  const sgml = fs.readFileSync(path.join(dir, 'reut2-000.sgm'), 'latin1');
  const docs = sgml.match(/<REUTERS[\s\S]*?<\/REUTERS>/g) ?? [];
  const slice = docs.slice(0, n);
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'reut2-000.sgm'), `<!DOCTYPE lewis SYSTEM "lewis.dtd">\n${slice.join('\n')}\n`, 'latin1');
  return slice.length;
}

export function seedCorpus(
  dataDir: string,
  env: NodeJS.ProcessEnv,
  log: (s: string) => void,
): { scifactDocs: number; reutersArticles: number; fixtures: number } {
  const seedDir = path.join(dataDir, 'seed');
  fs.mkdirSync(seedDir, { recursive: true });
  const corpus = sharedData('scifact', 'corpus.jsonl');
  if (!corpus) throw new Error('the e2e tests need ../shared/data/scifact/corpus.jsonl (set QUIN_SHARED_DATA)');
  const scifactDocs = scifactSlice(corpus, path.join(seedDir, 'scifact.jsonl'));
  must(quin(['import', 'scifact', path.join(seedDir, 'scifact.jsonl')], env, log), 'import scifact');

  let reutersArticles = 0;
  const reuters = sharedData('news', 'reuters21578');
  if (reuters) {
    const n = reutersSlice(reuters, path.join(seedDir, 'reuters'), REUTERS_ARTICLES);
    const r = quin(['import', 'reuters', path.join(seedDir, 'reuters')], env, log);
    if (r.ok) reutersArticles = n;
    else if (/unknown import format/.test(r.output)) log('reuters importer not available: seeding without Reuters');
    else must(r, 'import reuters');
  }

  const fixtures = path.join(ROOT, 'e2e/fixtures/articles.jsonl');
  must(quin(['import', 'jsonl', fixtures], env, log), 'import fixtures');
  const t0 = Date.now();
  must(quin(['index'], env, log), 'index');
  log(`indexed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return { scifactDocs, reutersArticles, fixtures: fs.readFileSync(fixtures, 'utf8').split('\n').filter(Boolean).length };
}
