/**
 * Stages "retrieve" and "fuse": BM25 ‖ dense, top K each, then one fused list. The dense index is
 * asked to re-check its checkpoint before every search, so a web server started before the worker
 * built it uses it as soon as it exists (no restart).
 */
import { createError } from '../lib/errors';
import { yieldToEventLoop } from '../indexer/event-loop';
import type { Hit, IndexFilter } from '../indexer/types';
import type { SearchContext } from './context';
import { prepareTexts, readCandidates } from './candidates';
import { fuseRrf, fuseScores, singleRun, type FusedCandidate } from './fusion';
import { embedQuery } from './query-vectors';
import type { ResolvedRequest } from './request';
import { guard, type SearchRun } from './run';
import { hasFilter } from './select';
import type { QueryAnalysis } from './types';

/** Score fusion normalisation (chosen on the development split, docs/evaluation.md). */
export const SCORE_NORMALIZATION = 'minmax' as const;
/** With filters on, the dense run (which cannot filter inside FAISS) is fetched this much deeper. */
const DENSE_FILTER_OVERFETCH = 4;

export type Mode = ResolvedRequest['mode'];

export interface Retrieved {
  mode: Mode;
  bm25: Hit[];
  dense: Hit[];
  /** The query's embedding, when a stage needs it. */
  vector: Float32Array | null;
  /**
   * The BM25 hits' rows, read while the dense search was still running (the main thread waits for
   * it otherwise); null when the read failed (the load stage then reads them itself).
   */
  early?: Promise<Awaited<ReturnType<typeof readCandidates>> | null>;
}

/** The mode this search can run in: the dense index is re-checked first, and left out while it is empty. */
export async function servingMode(requested: Mode, ctx: SearchContext, run: SearchRun): Promise<Mode> {
  const dense = ctx.indexes.dense;
  // The configured encoder differs from the index's: said on every answer (indexer/open.ts).
  if (ctx.indexes.note) run.warnings.push(ctx.indexes.note);
  if (requested === 'bm25') return 'bm25';
  if (dense) await guard('INDEX_UNAVAILABLE', 'dense index', async () => dense.refresh?.());
  if (dense && dense.size() > 0) return requested;
  // Why there is no dense side: not built yet, or an index this process cannot serve (the note says which).
  const why = dense
    ? 'the dense index has not been built yet: run `quin index`'
    : ctx.indexes.note
      ? 'the dense index cannot be searched with the encoder it was built with'
      : 'the dense index cannot be served by this process (FAISS binding missing: bash scripts/setup.d/40-faiss.sh)';
  if (requested === 'dense') throw createError('INDEX_UNAVAILABLE', why);
  if (dense) run.warnings.push('dense index not built yet: BM25 only');
  else if (!ctx.indexes.note) run.warnings.push(`${why}: BM25 only`);
  return 'bm25';
}

/** The filters BM25 applies inside its index; the dense run is filtered after retrieval. */
function indexFilter(r: ResolvedRequest): IndexFilter | undefined {
  const f: IndexFilter = {};
  if (r.from) f.from = r.from;
  if (r.to) f.to = r.to;
  if (r.sources) f.sources = [...r.sources];
  return Object.keys(f).length ? f : undefined;
}

export async function retrieve(
  query: QueryAnalysis,
  r: ResolvedRequest,
  mode: Mode,
  needsVector: boolean,
  ctx: SearchContext,
  run: SearchRun,
): Promise<Retrieved> {
  const { indexes, options } = ctx;
  const k = options.retrieveK;
  const embedding = needsVector
    ? run.time('embed', () =>
        guard('MODEL_UNAVAILABLE', `encoder ${indexes.encoder.id}`, async () => {
          const v = await embedQuery(indexes.encoder, query.text);
          if (!v || v.length !== indexes.encoder.dim) throw new Error('no embedding returned');
          return v;
        }),
      )
    : Promise.resolve(null);
  const depth = hasFilter(r) ? k * DENSE_FILTER_OVERFETCH : k;
  // The dense search is sent as soon as the embedding is ready: to its own thread (USearch) or to
  // Elasticsearch, so it runs while BM25 does.
  const denseRun =
    mode === 'bm25'
      ? Promise.resolve([])
      : embedding.then((vector) =>
          run.time('dense', () => guard('INDEX_UNAVAILABLE', 'dense index', () => indexes.dense!.search(vector!, depth))),
        );
  // BM25 starts one turn of the event loop later: FTS5's search is synchronous, and run at once it would
  // hold the thread before the embedding's continuation had sent the dense search (an Elasticsearch
  // request is in flight meanwhile either way).
  const bm25Run =
    mode === 'dense'
      ? Promise.resolve([])
      : yieldToEventLoop().then(() =>
          run.time('bm25', () =>
            guard('INDEX_UNAVAILABLE', `BM25 index (${indexes.bm25.backend})`, () =>
              indexes.bm25.search({ text: query.text, terms: query.terms }, k, indexFilter(r)),
            ),
          ),
        );
  // While the dense search runs in its thread, the main thread reads the BM25 hits' rows and, while
  // it still runs, what the floor and the de-duplication read in their texts.
  let denseDone = mode === 'bm25';
  void denseRun.finally(() => (denseDone = true)).catch(() => undefined);
  // Handled where it is made: a BM25 failure rejects the search below, before anything awaits this.
  const early = bm25Run
    .then(async (hits) => {
      if (denseDone || !hits.length) return null;
      const rows = await readCandidates(
        hits.map((h) => h.snippetId),
        ctx,
      );
      await prepareTexts(rows.texts, query, ctx, () => denseDone);
      return rows;
    })
    .catch(() => null);
  const [vector, bm25, dense] = await Promise.all([embedding, bm25Run, denseRun]);
  return { mode, bm25, dense, vector, early };
}

export function fuse(hits: Retrieved, ctx: SearchContext): FusedCandidate[] {
  if (hits.mode === 'bm25') return singleRun(hits.bm25, 'bm25');
  if (hits.mode === 'dense') return singleRun(hits.dense, 'dense');
  const w = { bm25Weight: ctx.options.bm25Weight };
  return ctx.options.fusion === 'rrf'
    ? fuseRrf(hits.bm25, hits.dense, ctx.options.rrfK, w)
    : fuseScores(hits.bm25, hits.dense, w, SCORE_NORMALIZATION);
}
