/**
 * Reads a response body while decompressing it, counting both the bytes on the wire and the bytes
 * after decompression, and aborting as soon as either passes the cap: a gzip, deflate or brotli bomb
 * costs at most the cap (plus one decompressor chunk) of memory, never the bomb's size.
 */
import type { Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import { createError, type QuinError } from '../../lib/errors';

export interface BodyResult {
  body: Buffer;
  wireBytes: number;
}

function decoderFor(encoding: string, firstByte: number | undefined): Transform | null {
  switch (encoding) {
    case '':
    case 'identity':
    case 'none':
      return null;
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      // "deflate" should be zlib-wrapped (RFC 9110) but some servers send raw deflate: a zlib header's
      // first byte has compression method 8 in its low nibble.
      return firstByte !== undefined && (firstByte & 0x0f) === 8 ? zlib.createInflate() : zlib.createInflateRaw();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      throw createError('FETCH_FAILED', `unsupported Content-Encoding "${encoding}"`);
  }
}

export function tooLarge(maxBytes: number, what: string): QuinError {
  return createError('FETCH_TOO_LARGE', `response larger than ${maxBytes} bytes ${what}`, { maxBytes });
}

/**
 * Resolves with the decoded body, or rejects with FETCH_TOO_LARGE / FETCH_FAILED. The caller owns
 * timeouts: destroying `source` rejects this promise.
 */
export function readBody(source: Readable, contentEncoding: string | undefined, maxBytes: number): Promise<BodyResult> {
  const encoding = (contentEncoding ?? '').trim().toLowerCase();
  return new Promise<BodyResult>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let wireBytes = 0;
    let decodedBytes = 0;
    let decoder: Transform | null | undefined;
    let settled = false;

    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      source.destroy();
      decoder?.destroy();
      reject(err);
    };
    const finish = () => {
      if (settled) return;
      settled = true;
      resolve({ body: Buffer.concat(chunks, decodedBytes), wireBytes });
    };
    const collect = (chunk: Buffer) => {
      decodedBytes += chunk.length;
      if (decodedBytes > maxBytes)
        return fail(tooLarge(maxBytes, encoding && encoding !== 'identity' ? `after ${encoding} decompression` : ''));
      chunks.push(chunk);
    };

    source.on('data', (chunk: Buffer) => {
      if (settled) return;
      wireBytes += chunk.length;
      if (wireBytes > maxBytes) return fail(tooLarge(maxBytes, 'on the wire'));
      if (decoder === undefined) {
        try {
          decoder = decoderFor(encoding, chunk[0]);
        } catch (e) {
          return fail(e);
        }
        if (decoder) {
          decoder.on('data', collect);
          decoder.on('end', finish);
          decoder.on('error', (e) => fail(createError('FETCH_FAILED', `corrupt ${encoding} body: ${e.message}`, undefined, e)));
        }
      }
      if (decoder) {
        // Respect the decompressor's back-pressure so a bomb is inflated no faster than it is counted.
        if (!decoder.write(chunk)) {
          source.pause();
          decoder.once('drain', () => source.resume());
        }
      } else collect(chunk);
    });
    source.on('end', () => {
      if (settled) return;
      if (decoder) decoder.end();
      else finish();
    });
    source.on('error', fail);
    source.on('close', () => {
      if (!settled && !source.readableEnded) fail(createError('FETCH_FAILED', 'connection closed before the body was complete'));
    });
  });
}
