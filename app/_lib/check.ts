/**
 * The web service's article check (the JSON API and the /check page): the body read with a size cap
 * and validated before anything is fetched, one rate-limit charge per check (a check runs many
 * searches), each search through the process's search gate (load shedding), and the events streamed
 * as NDJSON while the claims are checked — or the report as JSON or CSV at the end. A failure before
 * the first event (bad input, a page that cannot be fetched) is a plain JSON error with its status;
 * one after it is the stream's last line, `{"type":"error"}`.
 */
import {
  buildReport,
  checkArticle,
  CHECK_RERANK_DEPTH,
  extractClaims,
  MAX_TEXT_CHARS,
  parseCheckRequest,
  reportCsv,
  type CheckEvent,
  type CheckParams,
} from '../../check';
import { parseThread } from '../../crawler';
import { createError, isQuinError } from '../../lib/errors';
import { errorBody, jsonResponse } from '../../lib/web/http';
import { createLogger } from '../../lib/log';
import { search, type SearchRequest } from '../../ranking';
import { parseSearch, runSearch } from './search';
import { searchContext, services } from './services';

/** A check costs this many searches of the client's rate (it runs one search per part of each claim). */
export const CHECK_RATE_COST = 5;
const log = createLogger('check');
/** Largest request body: the longest text, escaped as JSON (\u00XX is six bytes a character), plus the rest. */
export const MAX_CHECK_BODY_BYTES = MAX_TEXT_CHARS * 6 + 64 * 1024;

const WARM_UP_TEXT = 'The company said on Monday that its sales rose 5% in March and that it would hire 200 people.';

/**
 * What the first article check would otherwise wait for, done at the server's start: the parse
 * thread (jsdom and Readability take seconds to load on a busy machine), the tagger's lexicon, and a
 * first search of a claim through the models (their first run allocates). Failures are ignored: the
 * check itself reports them.
 */
export async function warmCheck(): Promise<void> {
  const html = `<!doctype html><title>warm-up</title><p>${WARM_UP_TEXT}</p>`;
  await parseThread()
    .extractArticle(html, 'http://localhost/', new Date())
    .catch(() => undefined);
  const part = extractClaims({ text: WARM_UP_TEXT }).claims.flatMap((c) => c.parts)[0];
  if (part)
    await searchContext()
      .then((ctx) => search({ q: part, k: 3, rerankDepth: CHECK_RERANK_DEPTH }, ctx))
      .catch(() => undefined);
}

export async function chargeCheck(client: string): Promise<void> {
  const d = (await services()).searchLimiter.take(client, CHECK_RATE_COST);
  if (!d.allowed)
    throw createError('RATE_LIMITED', `too many checks: try again in ${d.retryAfterSeconds} s`, { retryAfterSeconds: d.retryAfterSeconds });
}

/** The JSON body, refused past the cap before it is all read (a 100 MB paste never reaches the parser). */
export async function readCheckBody(req: Request): Promise<CheckParams> {
  if (!/^application\/json\b/i.test(req.headers.get('content-type') ?? ''))
    throw createError('INVALID_INPUT', 'send the check as JSON (Content-Type: application/json): {"url": …} or {"text": …}');
  const declared = Number(req.headers.get('content-length') ?? 0);
  if (declared > MAX_CHECK_BODY_BYTES) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body?.getReader();
  for (let r = await reader?.read(); r && !r.done; r = await reader!.read()) {
    size += r.value.byteLength;
    if (size > MAX_CHECK_BODY_BYTES) {
      await reader!.cancel();
      throw tooLarge();
    }
    chunks.push(r.value);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  } catch {
    throw createError('INVALID_INPUT', 'the request body is not valid JSON');
  }
  return parseCheckRequest(raw);
}

function tooLarge() {
  return createError('INVALID_INPUT', `the request is larger than ${Math.round(MAX_CHECK_BODY_BYTES / 1024)} KB: check the text in parts`);
}

async function runGatedSearch(r: SearchRequest) {
  return runSearch(await parseSearch(r));
}

/** The check's events; the first is awaited here, so that a failure before it is an ordinary error response. */
async function started(params: CheckParams, signal: AbortSignal) {
  const { config, db } = await services();
  const t0 = performance.now();
  const events = logged(checkArticle(params, { config, db, runSearch: runGatedSearch, signal }), t0);
  const first = await events.next();
  return { first: first.done ? null : first.value, events };
}

/** The events passed on as they come; the check's size and times logged at its end (operations read them). */
async function* logged(events: AsyncGenerator<CheckEvent>, t0: number): AsyncGenerator<CheckEvent> {
  let articleMs = 0;
  for await (const e of events) {
    if (e.type === 'article') articleMs = Math.round(performance.now() - t0);
    if (e.type === 'done') log.info('checked an article', { ...e.summary, articleMs });
    yield e;
  }
}

function ndjson(first: CheckEvent | null, events: AsyncGenerator<CheckEvent>): Response {
  const encoder = new TextEncoder();
  const line = (e: unknown) => encoder.encode(`${JSON.stringify(e)}\n`);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      if (first) controller.enqueue(line(first));
    },
    async pull(controller) {
      try {
        const next = await events.next();
        if (next.done) controller.close();
        else controller.enqueue(line(next.value));
      } catch (e) {
        if (!isQuinError(e, 'CANCELLED')) log.warn('failed while streaming', { error: String(e) });
        controller.enqueue(line({ type: 'error', error: errorBody(e).body.error }));
        controller.close();
      }
    },
    async cancel() {
      await events.return(undefined);
    },
  });
  return new Response(stream, {
    headers: { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
  });
}

export async function respondWithCheck(params: CheckParams, format: 'ndjson' | 'json' | 'csv', signal: AbortSignal): Promise<Response> {
  const { first, events } = await started(params, signal);
  if (format === 'ndjson') return ndjson(first, events);
  const all: CheckEvent[] = first ? [first] : [];
  for await (const e of events) all.push(e);
  const report = buildReport(
    all,
    { url: params.url ?? null, includeLater: params.includeLater ?? false, asOf: params.asOf ?? null },
    new Date(),
  )!;
  if (format === 'json') return jsonResponse(report, { headers: { 'content-disposition': 'attachment; filename="quin-check.json"' } });
  return new Response(reportCsv(report), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="quin-check.csv"',
      'cache-control': 'no-store',
    },
  });
}
