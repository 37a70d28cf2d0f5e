/**
 * `quin index --verify`: checks that every index holds exactly the snippets of the database — none
 * missing, none stale, none doubled — and that the dense index's positions hold the right vectors,
 * and says what differs.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../lib/config';
import type { Db } from '../lib/db/client';
import { isQuinError } from '../lib/errors';
import { loadDense, type LoadedDense } from './dense/dense-index';
import { faissAvailable } from './dense/faiss-native';
import { DENSE_FILE_PREFIX, denseTuning } from './dense/sync';
import { isLossyLayout } from './dense/vector-index';
import { idProblems, sampleIds } from './diff';
import { createEncoder } from './encoders';
import { indexesDir, sha256File, strayFiles } from './files';
import { bm25Location, openBm25 } from './open';
import { allSnippetIds, denseEntries, readState, snippetRows } from './state';
import type { Encoder } from './types';
import { openSentenceStore } from './vectors/store';
import type { Pooling } from './vectors/pooling';
import { snippetVectors } from './vectors/snippet-vectors';

export interface VerifyCheck {
  index: string;
  ok: boolean;
  /** Human-readable differences (empty when ok). */
  problems: string[];
  /** Facts checked, for the report. */
  facts: Record<string, number | string>;
}

export interface VerifyReport {
  ok: boolean;
  snippets: number;
  checks: VerifyCheck[];
}

export interface VerifyOptions {
  /** Dense positions whose stored vector is checked against a freshly pooled one (default 50). */
  sample?: number;
}

async function verifyBm25(db: Db, config: Config, dbIds: number[]): Promise<VerifyCheck> {
  const check: VerifyCheck = { index: `bm25 (${bm25Location(config)})`, ok: true, problems: [], facts: { snippets: dbIds.length } };
  const bm25 = openBm25(config);
  try {
    const r = await bm25.verify(db, dbIds);
    Object.assign(check.facts, r.facts);
    check.problems.push(...r.problems);
  } catch (e) {
    if (!isQuinError(e)) throw e;
    check.problems.push(e.message);
  } finally {
    await bm25.close();
  }
  check.ok = check.problems.length === 0;
  return check;
}

/**
 * Makes a search of `d` reach every stored vector, whatever its layout (an IVF index searches only
 * `nprobe` of its lists, HNSW only `efSearch` candidates), and says whether the stored vectors are
 * exact (Flat, IVF…,Flat, HNSW) or lossy codes (PQ, SQ…), whose cosine with themselves is below 1.
 * (Before, only a Flat index was sampled: `--verify` checked no vector once the index became IVF.)
 */
function searchEverything(d: LoadedDense): { exact: boolean } {
  const lists = /IVF(\d+)/i.exec(d.index.factory);
  if (lists) d.index.setSearchParam('nprobe', Number(lists[1]));
  if (/HNSW/i.test(d.index.factory)) d.index.setSearchParam('efSearch', 512);
  return { exact: !isLossyLayout(d.index.factory) };
}

/** Results looked through when a sampled vector is not in its own top 10. */
const WIDER_SEARCH = 256;

/** How far a lossy code's own cosine may fall below 1 (and below the best match). */
const LOSSY_TOLERANCE = 0.03;

/** Positions whose stored vector is not the one its snippet should have (strict for exact layouts). */
async function misplacedPositions(
  db: Db,
  config: Config,
  d: LoadedDense,
  encoder: Encoder,
  sample: number,
): Promise<{ checked: number; wrong: number[]; unreachable: number[] }> {
  const live = [...d.positions.entries()].filter(([, id]) => id >= 0);
  const step = Math.max(1, Math.floor(live.length / Math.max(sample, 1)));
  const picked = live.filter((_, i) => i % step === 0).slice(0, sample);
  const { exact } = searchEverything(d);
  const cache = openSentenceStore(config.cacheDir, encoder);
  try {
    const rows = await snippetRows(
      db,
      picked.map(([, id]) => id),
    );
    const { vectors } = await snippetVectors(rows, encoder, cache, (d.state.pooling ?? 'mean') as Pooling);
    const wrong: number[] = [];
    const unreachable: number[] = [];
    rows.forEach((row, i) => {
      const position = picked.find(([, id]) => id === row.id)![0];
      let r = d.index.search(vectors[i]!, Math.min(d.index.ntotal, 10));
      // A graph with few links (HNSW8) can miss a vector among near-duplicates in a small search: look wider.
      if (!r.labels.includes(position)) {
        const wide = Math.min(d.index.ntotal, WIDER_SEARCH);
        r = d.index.search(vectors[i]!, wide);
        // Fewer results than asked: the walk ran out of graph, and this node is not linked from the rest.
        // That loses recall, but says nothing of what the position holds (USearch cannot return a vector).
        if (!r.labels.includes(position) && r.labels.length < wide) return void unreachable.push(row.id);
      }
      const top = r.scores[0] ?? -Infinity;
      const at = r.labels.indexOf(position);
      // Its own vector must come back first (ties with identical texts allowed) with cosine ≈ 1; a
      // lossy code within what its code loses (SQ8 keeps cosines to ~1e-3, PQ to a few 1e-2).
      const tolerance = exact ? 1e-4 : LOSSY_TOLERANCE;
      if (at < 0 || r.scores[at]! < top - tolerance || r.scores[at]! < 1 - Math.max(1e-3, tolerance)) wrong.push(row.id);
    });
    return { checked: rows.length, wrong, unreachable };
  } finally {
    cache.close();
  }
}

async function verifyDense(db: Db, config: Config, dbIds: number[], opts: VerifyOptions): Promise<VerifyCheck> {
  const check: VerifyCheck = { index: 'dense (faiss)', ok: true, problems: [], facts: { snippets: dbIds.length } };
  const done = () => ((check.ok = check.problems.length === 0), check);
  if (!faissAvailable()) {
    check.problems.push('FAISS binding not built (bash scripts/setup.d/40-faiss.sh)');
    return done();
  }
  const state = await readState(db, 'dense');
  if (!state || !state.file) {
    if (dbIds.length) check.problems.push(`no dense index built yet: ${sampleIds(dbIds)} snippets missing`);
    return done();
  }
  const dir = indexesDir(config.dataDir);
  const file = path.join(dir, state.file);
  check.facts.file = state.file;
  check.facts.version = state.version;
  if (!fs.existsSync(file)) {
    check.problems.push(`index file ${state.file} named by the checkpoint is missing`);
    return done();
  }
  const sum = sha256File(file);
  if (sum !== state.fileSha256)
    check.problems.push(
      `index file ${state.file} does not match its checkpoint (sha256 ${sum.slice(0, 12)} ≠ ${state.fileSha256?.slice(0, 12)})`,
    );
  const encoder = await createEncoder(config);
  if (state.encoderId !== encoder.id) {
    check.problems.push(`built with encoder ${state.encoderId}, configured encoder is ${encoder.id} (run \`quin index\`)`);
    return done();
  }
  let d: LoadedDense | null;
  try {
    d = await loadDense(db, config.dataDir, { encoderId: encoder.id, dim: encoder.dim, nprobe: denseTuning(config).faissNprobe });
  } catch (e) {
    if (!isQuinError(e)) throw e;
    check.problems.push(e.message);
    return done();
  }
  const entries = await denseEntries(db);
  const ids = entries.map((e) => e.snippetId);
  check.facts.vectors = d?.index.ntotal ?? 0;
  check.facts.live = ids.length;
  check.facts.tombstones = d?.tombstones ?? 0;
  check.facts.factory = state.factory ?? '';
  check.problems.push(...idProblems('FAISS map', dbIds, ids));
  const strays = strayFiles(dir, DENSE_FILE_PREFIX, state.file);
  if (strays.length) check.facts.strayFiles = strays.join(', '); // harmless leftovers, removed by the next run
  if (d && ids.length) {
    const { checked, wrong, unreachable } = await misplacedPositions(db, config, d, encoder, opts.sample ?? 50);
    check.facts.vectorsChecked = checked;
    if (unreachable.length) check.facts.unreachableBySearch = sampleIds(unreachable);
    if (wrong.length) check.problems.push(`FAISS positions hold the wrong vectors for ${sampleIds(wrong)} snippets`);
  }
  return done();
}

export async function verifyIndexes(db: Db, config: Config, opts: VerifyOptions = {}): Promise<VerifyReport> {
  const dbIds = await allSnippetIds(db);
  // QUIN_ES_DENSE: the vectors are fields of the Elasticsearch documents the BM25 check covers.
  const esDense = Boolean(config.elasticsearchUrl && config.elasticsearchDense);
  const checks = [await verifyBm25(db, config, dbIds), ...(esDense ? [] : [await verifyDense(db, config, dbIds, opts)])];
  return { ok: checks.every((c) => c.ok), snippets: dbIds.length, checks };
}
