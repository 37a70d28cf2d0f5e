/**
 * A local stand-in for the Hugging Face hub (tests only): serves the hub's documented URL layout on
 * 127.0.0.1 — /api/models/{repo}/revision/{rev}?blobs=true and /{repo}/resolve/{rev}/{path}, LFS
 * files redirected to a CDN path with their sha256 as ETag, Range requests answered with 206 — and
 * can cut a download short or corrupt a file, to test resume and verification.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { tokenizerFile } from './folder';

export interface FakeHubOptions {
  repo: string;
  /** Repo path → content. */
  files: Record<string, Buffer>;
  sha?: string;
  /** Close the connection after this many bytes of the named file, for the first `times` requests. */
  cut?: { path: string; afterBytes: number; times: number };
  /** Serve different bytes than the metadata promises (same size). */
  corrupt?: string;
  /** Paths served without siblings' size/lfs info (older hub answers). */
  private?: boolean;
}

export interface FakeHub {
  url: string;
  requests: { path: string; range: string | null; auth: string | null }[];
  close(): Promise<void>;
}

const isLfs = (p: string) => p.endsWith('.onnx') || p.endsWith('.onnx_data');
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const blobId = (b: Buffer) => crypto.createHash('sha1').update(`blob ${b.length}\0`).update(b).digest('hex');

/** Files of a model folder on disk, as repo paths → bytes. */
export function folderFiles(dir: string, prefix = ''): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) Object.assign(out, folderFiles(p, `${prefix}${e.name}/`));
    else out[`${prefix}${e.name}`] = fs.readFileSync(p);
  }
  // A repository on the hub carries its own tokenizer.json: the one a local fixture shares is served as its own.
  const config = out[`${prefix}tokenizer_config.json`];
  if (config && !out[`${prefix}tokenizer.json`])
    out[`${prefix}tokenizer.json`] = fs.readFileSync(tokenizerFile(dir, JSON.parse(config.toString('utf8')) as Record<string, unknown>));
  return out;
}

export async function startFakeHub(opts: FakeHubOptions): Promise<FakeHub> {
  const sha = opts.sha ?? crypto.createHash('sha1').update(opts.repo).digest('hex');
  const requests: FakeHub['requests'] = [];
  let cutsLeft = opts.cut?.times ?? 0;

  const sendFile = (req: http.IncomingMessage, res: http.ServerResponse, p: string) => {
    let body = opts.files[p]!;
    const etag = isLfs(p) ? sha256(body) : blobId(body);
    if (opts.corrupt === p) {
      body = Buffer.from(body);
      const mid = body.length >> 1;
      body[mid] = body[mid]! ^ 0xff;
    }
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const start = m ? Number(m[1]) : 0;
    if (start > body.length) return res.writeHead(416).end();
    const slice = body.subarray(start);
    res.writeHead(m ? 206 : 200, {
      'content-length': slice.length,
      etag: `"${etag}"`,
      'accept-ranges': 'bytes',
      ...(m ? { 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` } : {}),
    });
    if (opts.cut && opts.cut.path === p && cutsLeft > 0) {
      cutsLeft--;
      // Cut once those bytes have left the process: destroyed on a timer alone, a socket on a busy
      // machine dropped what was still queued (a client saw 65,313 of 100,000 bytes).
      res.write(slice.subarray(0, opts.cut.afterBytes), () => setTimeout(() => res.socket?.destroy(), 20));
      return;
    }
    res.end(slice);
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push({ path: url.pathname, range: req.headers.range ?? null, auth: req.headers.authorization ?? null });
    const api = `/api/models/${opts.repo}/revision/`;
    if (url.pathname.startsWith(api)) {
      const rev = decodeURIComponent(url.pathname.slice(api.length));
      if (rev !== 'main' && rev !== sha) return res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Revision Not Found"}');
      const siblings = Object.entries(opts.files).map(([p, b]) =>
        opts.private ? { rfilename: p } : { rfilename: p, size: b.length, blobId: blobId(b), ...(isLfs(p) ? { lfs: { sha256: sha256(b), size: b.length, pointerSize: 134 } } : {}) },
      );
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: opts.repo, sha, siblings }));
    }
    const resolve = `/${opts.repo}/resolve/${sha}/`;
    if (url.pathname.startsWith(resolve)) {
      const p = decodeURIComponent(url.pathname.slice(resolve.length));
      if (!opts.files[p]) return res.writeHead(404).end('Entry not found');
      // The real hub redirects LFS files to its CDN, reporting the sha256 in X-Linked-Etag.
      if (isLfs(p)) return res.writeHead(302, { location: `/cdn/${p}`, 'x-linked-etag': `"${sha256(opts.files[p]!)}"`, 'x-linked-size': String(opts.files[p]!.length) }).end();
      return sendFile(req, res, p);
    }
    if (url.pathname.startsWith('/cdn/')) return sendFile(req, res, decodeURIComponent(url.pathname.slice(5)));
    if (url.pathname.startsWith('/api/models/')) return res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Repository not found"}');
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
