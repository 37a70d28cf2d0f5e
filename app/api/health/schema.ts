/** GET /api/health: liveness and readiness. 200 when ready, 503 when not; `?probe=live` only says the process answers. */
import { z } from 'zod';

export const healthQuery = z.object({
  probe: z
    .enum(['live', 'ready'])
    .default('ready')
    .describe('`live`: the process answers (always 200). `ready` (default): database and indexes are usable.'),
});

const check = { ok: z.boolean(), detail: z.string() };
const health = z.enum(['green', 'yellow', 'red']);

export const healthResponse = z.object({
  status: z
    .enum(['ok', 'degraded', 'unavailable'])
    .describe(
      "degraded: ready, but the background worker is not running (or its heartbeat is late), this process's event loop was blocked for a second or more in the last minute, or a configured model cannot serve (search goes on without its feature: `checks.models.unavailable`).",
    ),
  live: z.literal(true),
  ready: z.boolean(),
  uptimeSeconds: z.number().int(),
  checks: z.object({
    database: z.object({ ...check, latencyMs: z.number().nullable() }),
    indexes: z.object({
      ...check,
      snippets: z.number().int().nullable(),
      pending: z.number().int().nullable(),
      serving: z
        .object({ bm25: z.string(), denseVectors: z.number().int().nullable(), note: z.string().optional() })
        .nullable()
        .describe(
          'What this web process searches with (null until its indexes are loaded): the BM25 backend and the dense vectors it serves (0: BM25 only, the dense index is not built yet); `note` when the dense index was built with another encoder than the configured one.',
        ),
      elasticsearch: z
        .union([
          z.object({
            name: z.string(),
            status: health,
            nodes: z.number().int(),
            dataNodes: z.number().int(),
            index: z.object({ status: health, shards: z.number().int(), unassigned: z.number().int() }).nullable(),
          }),
          z.object({ error: z.string() }),
        ])
        .nullable()
        .describe(
          "With ELASTICSEARCH_URL: the cluster's health and nodes and the index's health, primary shards and unassigned copies (yellow: a replica unassigned, e.g. a node down; red: a primary missing), or why the cluster could not be read. An unreachable cluster or a red index makes the service not ready. Null without Elasticsearch.",
        ),
    }),
    models: z.object({
      ...check,
      state: z.enum(['not_loaded', 'loading', 'ready', 'failed']),
      encoder: z.string().nullable(),
      reranker: z.string().nullable(),
      nli: z.string().nullable(),
      unavailable: z
        .array(z.object({ feature: z.enum(['reranker', 'verdict']), model: z.string(), problem: z.string() }))
        .describe(
          'Configured models that cannot serve (missing, truncated, not ONNX): search goes on without their feature; the problem without server paths.',
        ),
    }),
    worker: z.object({
      ...check,
      state: z.string().nullable(),
      lastBeatAt: z.string().nullable(),
      ageSeconds: z.number().int().nullable(),
      stuck: z.string().nullable().describe('Why a live worker is stuck (a loop running without progress), or null.'),
      eventLoop: z
        .object({ p99Ms: z.number(), maxMs: z.number() })
        .nullable()
        .describe("The worker's event-loop delay over the minute before its last heartbeat, milliseconds."),
    }),
    eventLoop: z
      .object({ ...check, p99Ms: z.number(), maxMs: z.number(), windowSeconds: z.number().int() })
      .describe("This web process's event-loop delay over the last minute, milliseconds (not ok from a second)."),
  }),
});

export const liveResponse = z.object({ live: z.literal(true), uptimeSeconds: z.number().int() });
