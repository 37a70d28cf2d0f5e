/**
 * All configuration in one validated place (after Miniflux's config table): every setting has its
 * environment variable, its default and its validator. Values come from, in increasing priority,
 * the defaults, an optional JSON config file (QUIN_CONFIG, else ./quin.config.json when present),
 * and the environment. Invalid configuration fails at start with a message naming the setting.
 *
 * Sections own their settings; each component reads only what it needs from `Config`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { createError } from './errors';
import { setConfiguredLogLevel } from './log';

const bool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no'])])
  .transform((v) => (typeof v === 'boolean' ? v : ['true', '1', 'yes'].includes(v)));
const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max);
const num = (min: number, max = Number.POSITIVE_INFINITY) => z.coerce.number().min(min).max(max);
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
const url = z.string().url();

interface Setting<T extends z.ZodType = z.ZodType> {
  env: string;
  default: unknown;
  schema: T;
  doc: string;
  section: string;
}

function s<T extends z.ZodType>(section: string, env: string, def: unknown, schema: T, doc: string): Setting<T> {
  return { env, default: def, schema, doc, section };
}

const USE_LITE_RETIRED =
  '`use-lite` is no longer served (tens of sentences a second, and weaker than the static table distilled from it): use `static`, the default; `quin index` then rebuilds the dense index';

/**
 * Settings that were removed, with what replaces them: set in the environment or the config file,
 * they stop the program at start rather than being ignored without a word.
 */
export const RETIRED_SETTINGS: Record<string, { key: string; instead: string }> = {
  QUIN_USER_AGENT: {
    key: 'userAgent',
    instead: 'the crawler always identifies itself as `QuinBot/<version> (+QUIN_CONTACT_URL)`; set QUIN_CONTACT_URL',
  },
  QUIN_CONNECT_TIMEOUT_MS: { key: 'connectTimeoutMs', instead: 'connecting is bounded by 10 s and by QUIN_FETCH_TIMEOUT_MS' },
  QUIN_SESSION_HOURS: { key: 'sessionHours', instead: 'an admin session lasts 12 hours' },
  QUIN_LOGIN_RATE_LIMIT: { key: 'loginRateLimit', instead: 'sign-in attempts are limited to 10 per 15 minutes per client' },
};

/** The table. Key = name in the config file and in `Config`. */
export const SETTINGS = {
  // --- general -----------------------------------------------------------------------------
  dataDir: s('general', 'QUIN_DATA_DIR', './data', z.string().min(1), 'Directory for the database, indexes and other state.'),
  databaseUrl: s(
    'general',
    'DATABASE_URL',
    undefined,
    optionalString.refine((v) => v === undefined || /^(file:|postgres(ql)?:\/\/)/.test(v), 'must start with file: or postgres://'),
    'Database: `file:/path/quin.db` (SQLite, default `<dataDir>/quin.db`) or `postgres://user:pass@host/db`.',
  ),
  logLevel: s('general', 'QUIN_LOG_LEVEL', 'info', z.enum(['debug', 'info', 'warn', 'error', 'silent']), 'Log level.'),
  cacheDir: s(
    'general',
    'QUIN_CACHE_DIR',
    path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'quin'),
    z.string().min(1),
    'Cache shared across data directories (sentence embeddings keyed by content hash).',
  ),

  // --- crawler -----------------------------------------------------------------------------
  contactUrl: s(
    'crawler',
    'QUIN_CONTACT_URL',
    'https://github.com/quin-news/quin#crawler',
    url,
    'Contact URL put in the crawler User-Agent (`QuinBot/<version> (+<contactUrl>)`).',
  ),
  allowPrivateHosts: s(
    'crawler',
    'QUIN_ALLOW_PRIVATE_HOSTS',
    false,
    bool,
    'Allow fetching private, loopback and link-local addresses (tests only).',
  ),
  crawlConcurrency: s('crawler', 'QUIN_CRAWL_CONCURRENCY', 4, int(1, 64), 'Global limit of requests in flight.'),
  hostDelayMs: s('crawler', 'QUIN_HOST_DELAY_MS', 1000, int(0), 'Minimum delay between two requests to the same host.'),
  fetchTimeoutMs: s('crawler', 'QUIN_FETCH_TIMEOUT_MS', 30_000, int(100), 'Total timeout of one request, body included.'),
  maxResponseBytes: s('crawler', 'QUIN_MAX_RESPONSE_BYTES', 10 * 1024 * 1024, int(1024), 'Response size cap (after decompression).'),
  feedIntervalMinutes: s('crawler', 'QUIN_FEED_INTERVAL_MINUTES', 60, int(1), 'Default polling interval of a new feed.'),
  // --- indexer -----------------------------------------------------------------------------
  elasticsearchUrl: s(
    'indexer',
    'ELASTICSEARCH_URL',
    undefined,
    optionalString,
    'Use Elasticsearch for BM25 instead of SQLite FTS5: `http(s)://[user:password@]host:9200`, or several nodes of one cluster separated by commas.',
  ),
  elasticsearchIndex: s(
    'indexer',
    'QUIN_ES_INDEX',
    'quin-snippets',
    z.string().regex(/^[a-z0-9][a-z0-9_-]*$/),
    'Elasticsearch index name.',
  ),
  elasticsearchApiKey: s(
    'indexer',
    'ELASTICSEARCH_API_KEY',
    undefined,
    optionalString,
    'Elasticsearch API key (the base64 `id:key` form), instead of a user and password in the URL.',
  ),
  elasticsearchCaFile: s(
    'indexer',
    'ELASTICSEARCH_CA_FILE',
    undefined,
    optionalString,
    "PEM file of the CA that signed the cluster's HTTPS certificate (e.g. Elasticsearch's own `http_ca.crt`); unset: the system's CAs.",
  ),
  elasticsearchShards: s('indexer', 'QUIN_ES_SHARDS', 1, int(1, 1024), 'Primary shards of an Elasticsearch index `quin index` creates.'),
  elasticsearchReplicas: s(
    'indexer',
    'QUIN_ES_REPLICAS',
    'auto',
    z.union([z.literal('auto'), int(0, 16)]),
    'Replicas of an Elasticsearch index `quin index` creates: a number, or `auto` (one once the cluster has a second data node, none before).',
  ),
  encoder: s(
    'indexer',
    'QUIN_ENCODER',
    'static',
    z
      .string()
      .refine((v) => v !== 'use-lite', USE_LITE_RETIRED)
      .pipe(z.enum(['static', 'onnx'])),
    'Sentence encoder: `static` (models/quin-static-retrieval: a token table trained for retrieval, thousands of sentences/s) or `onnx` (a sentence-transformers folder). A dense index is always searched with the encoder that built it.',
  ),
  encoderModel: s(
    'indexer',
    'QUIN_ENCODER_MODEL',
    undefined,
    optionalString,
    "The encoder's model folder: for `onnx` a sentence-transformers folder (model.onnx, tokenizer.json, config.json), for `static` another table than models/quin-static-retrieval (model.bin, e.g. models/quin-static, the table distilled from USE-lite).",
  ),
  elasticsearchDense: s(
    'indexer',
    'QUIN_ES_DENSE',
    false,
    bool,
    'With ELASTICSEARCH_URL: Elasticsearch holds the snippet vectors too (a `dense_vector` field searched with kNN) instead of FAISS; docs/benchmarks.md#scale-out.',
  ),

  // --- ranking -----------------------------------------------------------------------------
  halfLifeDays: s(
    'ranking',
    'QUIN_HALF_LIFE_DAYS',
    365,
    z.union([z.literal('off'), num(0.001)]).transform((v): number | null => (v === 'off' ? null : Number(v))),
    'Half-life of the time decay in days (`off` disables it).',
  ),
  maxQueryChars: s('ranking', 'QUIN_MAX_QUERY_CHARS', 1000, int(10), 'Longest accepted query.'),
  // --- models ------------------------------------------------------------------------------
  rerankerModel: s(
    'models',
    'QUIN_RERANKER_MODEL',
    undefined,
    optionalString,
    'Reranker (cross-encoder) model: folder path, folder name under QUIN_MODELS_DIR or hub id; `none` disables; unset = built-in default (docs/models.md).',
  ),
  nliModel: s(
    'models',
    'QUIN_NLI_MODEL',
    undefined,
    optionalString,
    'NLI model for verdicts: folder path, folder name under QUIN_MODELS_DIR or hub id; `none` disables; unset = built-in default (docs/models.md).',
  ),
  modelsDir: s('models', 'QUIN_MODELS_DIR', './models', z.string().min(1), 'Where `quin models pull` puts downloaded models.'),
  ortThreads: s('models', 'QUIN_ORT_THREADS', 0, int(0, 256), 'onnxruntime intra-op threads (0 = runtime default).'),
  ortProvider: s('models', 'QUIN_ORT_PROVIDER', 'cpu', z.enum(['cpu', 'cuda']), 'onnxruntime execution provider.'),
  hfEndpoint: s('models', 'HF_ENDPOINT', 'https://huggingface.co', url, 'Hugging Face hub endpoint for `quin models pull`.'),
  hfToken: s('models', 'HF_TOKEN', undefined, optionalString, 'Hugging Face access token for gated or private repos (`quin models pull`).'),
  // --- web ---------------------------------------------------------------------------------
  host: s('web', 'HOST', '127.0.0.1', z.string().min(1), 'Address the web server listens on.'),
  port: s('web', 'PORT', 3000, int(1, 65535), 'Port the web server listens on.'),
  adminUser: s('web', 'QUIN_ADMIN_USER', 'admin', z.string().min(1), 'Admin user name.'),
  adminPasswordHash: s(
    'web',
    'QUIN_ADMIN_PASSWORD_HASH',
    undefined,
    optionalString,
    'scrypt hash of the admin password (`quin admin hash-password`).',
  ),
  sessionSecret: s(
    'web',
    'QUIN_SESSION_SECRET',
    undefined,
    optionalString,
    'Secret that signs session cookies (generated into the data dir when unset).',
  ),
  metricsToken: s(
    'web',
    'QUIN_METRICS_TOKEN',
    undefined,
    optionalString,
    'Bearer token that unlocks the admin families of `/metrics` (admin sign-in attempts); unset, they are never shown.',
  ),
  searchRateLimit: s('web', 'QUIN_SEARCH_RATE_LIMIT', 60, int(1), 'Searches per minute per client.'),
  seedFeeds: s(
    'web',
    'QUIN_SEED_FEEDS',
    true,
    z.union([z.boolean(), z.string()]).transform((v, ctx) => {
      const flag = bool.safeParse(v);
      if (flag.success) return flag.data as boolean | string[];
      const urls = String(v)
        .split(/[\s,]+/)
        .filter(Boolean);
      for (const u of urls) if (!url.safeParse(u).success) ctx.addIssue({ code: 'custom', message: `not a URL: ${u}` });
      return urls;
    }),
    'Feeds seeded on first start: `true` (a default list of public news feeds), `false`, or comma-separated feed URLs.',
  ),
  trustProxy: s(
    'web',
    'QUIN_TRUST_PROXY',
    false,
    bool,
    'Honour X-Forwarded-For and X-Forwarded-Proto from the reverse proxy in front (client address for the rate limits, HTTPS for cookies); without it every X-Forwarded-* header is removed.',
  ),
  worker: s('web', 'QUIN_WORKER', true, bool, '`npm start` also runs the background crawler + indexer (`quin worker`).'),
  workerPollSeconds: s(
    'web',
    'QUIN_WORKER_POLL_SECONDS',
    15,
    num(0.1, 3600),
    'Pause of each worker loop (crawl, index) between two of its passes.',
  ),
} satisfies Record<string, Setting>;

type Settings = typeof SETTINGS;

/**
 * Values fixed in code that tests and measurement tools (bench/, eval/) vary: not settings (no
 * environment variable, no config-file key, not in the reference). Each default is a constant next
 * to the code that reads it, with the reason for its value; an absent field means that constant.
 */
export interface Tuning {
  /** crawler/http/request.ts CONNECT_TIMEOUT_MS */
  connectTimeoutMs?: number;
  /** crawler/http/client.ts MAX_REDIRECTS */
  maxRedirects?: number;
  /** crawler/crawl/check-feed.ts MAX_ARTICLES_PER_CHECK */
  maxArticlesPerFeedRun?: number;
  /** crawler/crawl/check-feed.ts MAX_NEW_ITEMS_PER_CHECK */
  maxNewItemsPerCheck?: number;
  /** crawler/schedule/next-check.ts BACKOFF_MAX_MINUTES */
  backoffMaxMinutes?: number;
  /** crawler/schedule/next-check.ts BROKEN_AFTER_FAILURES */
  brokenAfterFailures?: number;
  /** indexer/dense/sync.ts INDEX_BATCH_SIZE (also the Elasticsearch batches) */
  indexBatchSize?: number;
  /** indexer/open.ts ELASTICSEARCH_TIMEOUT_MS */
  elasticsearchTimeoutMs?: number;
  /** indexer/dense/sync.ts FAISS_COMPACT_RATIO */
  faissCompactRatio?: number;
  /** indexer/dense/sync.ts FAISS_FACTORY ('auto' or a FAISS factory string) */
  faissFactory?: string;
  /** indexer/dense/sync.ts FAISS_EXACT_MAX */
  faissExactMax?: number;
  /** indexer/dense/dense-index.ts FAISS_NPROBE */
  faissNprobe?: number;
  /** indexer/dense/dense-index.ts DENSE_EF_SEARCH */
  denseEfSearch?: number;
  /** indexer/vectors/pooling.ts DENSE_POOLING */
  densePooling?: 'mean' | 'mean-title' | 'title-mean';
}

export type Config = { [K in keyof Settings]: z.output<Settings[K]['schema']> } & {
  /** Resolved: absolute data dir and database URL. */
  databaseUrlResolved: string;
  databaseProvider: 'sqlite' | 'postgres';
  /** Code constants varied by tests and tools (see Tuning); `{}` in production. */
  tuning: Tuning;
};

export interface LoadConfigOptions {
  /** Plain record, not NodeJS.ProcessEnv: Next's types make NODE_ENV required there. */
  env?: Record<string, string | undefined>;
  /** Explicit values (highest priority), e.g. from CLI flags or tests. */
  overrides?: Partial<Record<keyof Settings, unknown>>;
  configFile?: string | null;
  cwd?: string;
  /** Code constants to vary (tests, benchmarks); never read from the environment or the config file. */
  tuning?: Tuning;
}

function readConfigFile(file: string | null | undefined, env: Record<string, string | undefined>, cwd: string): Record<string, unknown> {
  const explicit = file ?? env.QUIN_CONFIG;
  const candidate = explicit ?? path.join(cwd, 'quin.config.json');
  if (!fs.existsSync(candidate)) {
    if (explicit) throw createError('CONFIG_INVALID', `QUIN_CONFIG: config file ${candidate} does not exist`);
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(candidate, 'utf8'));
  } catch (e) {
    throw createError('CONFIG_INVALID', `QUIN_CONFIG: ${candidate} is not valid JSON (${(e as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw createError('CONFIG_INVALID', `QUIN_CONFIG: ${candidate} must hold a JSON object`);
  }
  for (const key of Object.keys(parsed)) {
    const retired = Object.entries(RETIRED_SETTINGS).find(([, r]) => r.key === key);
    if (retired) throw createError('CONFIG_INVALID', `QUIN_CONFIG: "${key}" in ${candidate} is no longer a setting: ${retired[1].instead}`);
    if (!(key in SETTINGS)) throw createError('CONFIG_INVALID', `QUIN_CONFIG: unknown setting "${key}" in ${candidate}`);
  }
  return parsed as Record<string, unknown>;
}

export function loadConfig(opts: LoadConfigOptions = {}): Config {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const file = readConfigFile(opts.configFile, env, cwd);
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, r] of Object.entries(RETIRED_SETTINGS)) {
    if (env[name] !== undefined && env[name] !== '') problems.push(`${name} is no longer a setting: ${r.instead}; unset it`);
  }
  for (const [key, setting] of Object.entries(SETTINGS) as [keyof Settings, Setting][]) {
    let raw: unknown = setting.default;
    let origin = 'default';
    if (key in file) [raw, origin] = [file[key], `config file key "${key}"`];
    const fromEnv = env[setting.env];
    if (fromEnv !== undefined && fromEnv !== '') [raw, origin] = [fromEnv, setting.env];
    if (opts.overrides && key in opts.overrides && opts.overrides[key] !== undefined)
      [raw, origin] = [opts.overrides[key], `option ${key}`];
    const parsed = setting.schema.safeParse(raw);
    if (!parsed.success) {
      const why = parsed.error.issues.map((i) => i.message).join('; ');
      problems.push(`${setting.env} (${origin}): ${why} (got ${JSON.stringify(raw)})`);
      continue;
    }
    out[key] = parsed.data;
  }
  if (problems.length) throw createError('CONFIG_INVALID', `Invalid configuration:\n  ${problems.join('\n  ')}`);

  const dataDir = path.resolve(cwd, out.dataDir as string);
  out.dataDir = dataDir;
  out.modelsDir = path.resolve(cwd, out.modelsDir as string);
  out.cacheDir = path.resolve(cwd, out.cacheDir as string);
  const dbUrl = (out.databaseUrl as string | undefined) ?? `file:${path.join(dataDir, 'quin.db')}`;
  out.databaseUrlResolved = dbUrl.startsWith('file:') ? `file:${path.resolve(cwd, dbUrl.slice(5))}` : dbUrl;
  out.databaseProvider = dbUrl.startsWith('file:') ? 'sqlite' : 'postgres';
  out.tuning = { ...opts.tuning };
  return out as Config;
}

let cached: Config | undefined;
let processTuning: Tuning = {};
/** Process-wide configuration, loaded once. */
export function getConfig(): Config {
  if (!cached) {
    cached = loadConfig({ tuning: processTuning });
    setConfiguredLogLevel(cached.logLevel);
  }
  return cached;
}
/** For tests and commands that change the environment before use. */
export function resetConfig(): void {
  cached = undefined;
}
/** The tuning of getConfig() in this process (testing/quin-entry.ts, for the crash tests' child processes). */
export function setProcessTuning(tuning: Tuning): void {
  processTuning = { ...tuning };
  cached = undefined;
}

/** The configuration reference as a Markdown table (kept in docs/operations.md; a test checks they agree). */
export function configReferenceMarkdown(): string {
  const rows = ['| Setting (env) | Config-file key | Default | Description |', '| --- | --- | --- | --- |'];
  for (const [key, st] of Object.entries(SETTINGS) as [string, Setting][]) {
    const def = key === 'cacheDir' ? '`~/.cache/quin`' : st.default === undefined ? '—' : `\`${String(st.default)}\``;
    rows.push(`| \`${st.env}\` | \`${key}\` | ${def} | ${st.doc} |`);
  }
  return rows.join('\n');
}

/** SQLite file path of a `file:` database URL. */
export function sqlitePath(config: Pick<Config, 'databaseUrlResolved'>): string {
  return config.databaseUrlResolved.replace(/^file:/, '');
}
