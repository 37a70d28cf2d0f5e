/**
 * The parse thread's side (parse-thread.ts starts it): runs the crawler's parsers on what the main
 * thread sends and posts back the result or the error (code, message, details). Nothing here touches
 * the database or the network: bytes and text in, values out.
 */
import { parentPort } from 'node:worker_threads';
import { isQuinError } from '../../lib/errors';
import type { ParseCall, ParseReply } from './parse-thread';

const port = parentPort!;

async function run(call: ParseCall): Promise<unknown> {
  switch (call.fn) {
    case 'parseFeed': {
      const { parseFeed } = await import('./parser');
      const [bytes, opts] = call.args;
      return parseFeed(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), opts);
    }
    case 'parseOpml': {
      const { parseOpml } = await import('./opml');
      const [bytes] = call.args;
      return parseOpml(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    }
    case 'extractArticle': {
      const { extractArticle } = await import('../extract/article');
      return extractArticle(...call.args);
    }
  }
}

port.on('message', (call: ParseCall) => {
  void run(call).then(
    (value) => port.postMessage({ id: call.id, value } satisfies ParseReply),
    (e: unknown) =>
      port.postMessage({
        id: call.id,
        error: isQuinError(e)
          ? { code: e.code, message: e.message, details: e.details }
          : { code: null, message: e instanceof Error ? e.message : String(e) },
      } satisfies ParseReply),
  );
});
port.postMessage({ ready: true });
