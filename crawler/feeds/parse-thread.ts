/**
 * Parsing off the event loop, under a deadline. Feed documents, OPML files and article pages are parsed in a
 * worker thread (parse-thread-host.ts), one at a time, so that the process that asked (the web
 * server adding or probing a feed, the worker's crawl) keeps answering while a big or hostile
 * document is read. A parse that runs past its deadline is stopped (the thread is ended and a new one
 * started for the next parse) and fails with FEED_PARSE_TIMEOUT, "took too long to read": the crawl
 * records it as the feed's error and tries the feed again later with back-off.
 *
 * The thread loads the TypeScript sources itself through tsx, as bin/quin.mjs does, so it works the
 * same under the CLI, the worker, the tests and the Next.js server (whose bundle it does not use).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createError, type ErrorCode } from '../../lib/errors';
import { projectRoot } from '../../lib/paths';
import type { ExtractedPage } from '../extract/article';
import type { OpmlDocument } from './opml';
import type { ParsedFeed, ParseFeedOptions } from './parser';

/** How long one parse may take (a 10 MB feed of 100,000 items takes a few seconds on a busy machine). */
export const PARSE_DEADLINE_MS = 20_000;
/** The thread's heap: a document that needs more is refused, not the process. */
const THREAD_HEAP_MB = 1024;

export type ParseCall =
  | { id: number; fn: 'parseFeed'; args: [Uint8Array, ParseFeedOptions] }
  | { id: number; fn: 'parseOpml'; args: [Uint8Array] }
  | { id: number; fn: 'extractArticle'; args: [string, string, Date] };
export type ParseReply =
  | { id: number; value: unknown; error?: undefined }
  | { id: number; value?: undefined; error: { code: ErrorCode | null; message: string; details?: Record<string, unknown> } };
type CallInput = ParseCall extends infer C ? (C extends ParseCall ? Omit<C, 'id'> : never) : never;

export interface ParseThread {
  parseFeed(body: Buffer, opts: ParseFeedOptions, deadlineMs?: number): Promise<ParsedFeed>;
  extractArticle(html: string, pageUrl: string, now: Date, deadlineMs?: number): Promise<ExtractedPage>;
  parseOpml(file: Buffer, deadlineMs?: number): Promise<OpmlDocument>;
  close(): Promise<void>;
}

function bootCode(): string {
  const root = projectRoot();
  const tsx = pathToFileURL(path.join(root, 'node_modules/tsx/dist/esm/api/index.mjs')).href;
  const host = pathToFileURL(path.join(root, 'crawler/feeds/parse-thread-host.ts')).href;
  return `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(host)}); });`;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

export function createParseThread(): ParseThread {
  let worker: Worker | null = null;
  let ready: Promise<void> | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  let nextId = 1;

  const start = (): Promise<void> => {
    const w = new Worker(bootCode(), { eval: true, resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } });
    worker = w;
    w.unref();
    // A thread that fails is dropped (the next parse starts another); its error never reaches the process.
    w.on('error', () => {
      if (worker === w) [worker, ready] = [null, null];
    });
    // An idle thread never keeps the process alive; one that is parsing does (see call).
    return new Promise<void>((resolve, reject) => {
      const onMessage = (m: { ready?: boolean }) => {
        if (!m.ready) return;
        w.off('message', onMessage);
        w.off('error', reject);
        resolve();
      };
      w.on('message', onMessage);
      w.once('error', reject);
      w.once('exit', (code) => {
        if (worker === w) [worker, ready] = [null, null];
        reject(new Error(`the parse thread exited (code ${code})`));
      });
    });
  };

  const stop = async () => {
    const w = worker;
    [worker, ready] = [null, null];
    if (w) await w.terminate();
  };

  const call = async <T>(input: CallInput, deadlineMs: number): Promise<T> => {
    ready ??= start().catch((e: unknown) => {
      [worker, ready] = [null, null];
      throw createError('FEED_PARSE_ERROR', `the parser could not start: ${e instanceof Error ? e.message : String(e)}`);
    });
    await ready;
    const w = worker!;
    const id = nextId++;
    w.ref();
    try {
      return await new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          cleanup();
          void stop();
          reject(
            createError(
              'FEED_PARSE_TIMEOUT',
              `the document took too long to read (more than ${seconds(deadlineMs)}); it is tried again later`,
              {
                deadlineMs,
              },
            ),
          );
        }, deadlineMs);
        const onMessage = (m: ParseReply) => {
          if (m.id !== id) return;
          cleanup();
          if (!m.error) return resolve(m.value as T);
          const { code, message, details } = m.error;
          reject(code ? createError(code, message, details) : new Error(message));
        };
        const onExit = (code: number) => {
          cleanup();
          reject(createError('FEED_PARSE_ERROR', `the document could not be read: the parser stopped (exit ${code}; too large?)`));
        };
        const onError = (e: Error) => {
          cleanup();
          void stop();
          reject(createError('FEED_PARSE_ERROR', `the document could not be read: ${e.message}`));
        };
        const cleanup = () => {
          clearTimeout(timer);
          w.off('message', onMessage);
          w.off('exit', onExit);
          w.off('error', onError);
        };
        w.on('message', onMessage);
        w.once('exit', onExit);
        w.once('error', onError);
        w.postMessage({ ...input, id });
      });
    } finally {
      if (worker === w) w.unref();
    }
  };

  /** One parse at a time: the deadline counts from when a parse starts, not while it waits its turn. */
  const serial = <T>(input: CallInput, deadlineMs: number): Promise<T> => {
    const result = queue.then(() => call<T>(input, deadlineMs));
    queue = result.catch(() => undefined);
    return result;
  };

  return {
    parseFeed: (body, opts, deadlineMs = PARSE_DEADLINE_MS) =>
      serial({ fn: 'parseFeed', args: [new Uint8Array(body.buffer, body.byteOffset, body.byteLength), opts] }, deadlineMs),
    parseOpml: (file, deadlineMs = PARSE_DEADLINE_MS) =>
      serial({ fn: 'parseOpml', args: [new Uint8Array(file.buffer, file.byteOffset, file.byteLength)] }, deadlineMs),
    extractArticle: (html, pageUrl, now, deadlineMs = PARSE_DEADLINE_MS) =>
      serial({ fn: 'extractArticle', args: [html, pageUrl, now] }, deadlineMs),
    close: async () => {
      await queue;
      await stop();
    },
  };
}

let shared: ParseThread | null = null;

/** This process's parse thread (started at the first parse). */
export function parseThread(): ParseThread {
  shared ??= createParseThread();
  return shared;
}
