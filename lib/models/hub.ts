/**
 * Hugging Face hub client for `quin models pull` (one transport boundary, after meilisearch-js):
 *   GET {endpoint}/api/models/{repo}/revision/{rev}?blobs=true → commit sha + files (size, git blob
 *       id, LFS sha256)
 *   GET {endpoint}/{repo}/resolve/{sha}/{path}                → the file (LFS files redirect to a CDN)
 * Downloads resume with Range requests from `<file>.part`, every file is verified (size, then the
 * LFS sha256 or the git blob sha1), the folder is validated as a model folder, and only then renamed
 * into place, so `models/<name>/` is never half-written.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createError } from '../errors';
import { readModelFolder } from './folder';
import { folderNameOf } from './registry';

export interface HubFile {
  path: string;
  size: number | null;
  /** sha256 of LFS files (the hub's ETag for them). */
  sha256: string | null;
  /** git blob sha1 of the file (every sibling has one). */
  blobId: string | null;
}

export interface HubRevision {
  repo: string;
  sha: string;
  files: HubFile[];
}

export interface PullOptions {
  endpoint: string;
  repo: string;
  revision?: string;
  modelsDir: string;
  /** Folder name under modelsDir (default: the repo name without its owner). */
  name?: string;
  /** The repo file that serves as the model (default onnx/model.onnx, else model.onnx). */
  onnxFile?: string;
  token?: string;
  /** Network retries per file; each retry resumes where the last attempt stopped. */
  retries?: number;
  /** Abort a download that receives nothing for this long. */
  idleTimeoutMs?: number;
  onProgress?: (file: string, bytes: number, total: number | null) => void;
}

export interface PullResult {
  dir: string;
  repo: string;
  sha: string;
  files: { path: string; size: number; sha256: string }[];
}

const REPO_ID = /^[A-Za-z0-9][\w.-]*(\/[A-Za-z0-9][\w.-]*)?$/;
const SUPPORT_FILES = [
  'config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'special_tokens_map.json',
  'vocab.txt',
  'added_tokens.json',
  'modules.json',
  'sentence_bert_config.json',
  '1_Pooling/config.json',
  'README.md',
];

function headers(token: string | undefined, extra: Record<string, string> = {}): Record<string, string> {
  return { 'user-agent': 'quin-models/1', ...(token ? { authorization: `Bearer ${token}` } : {}), ...extra };
}

function httpError(status: number, what: string): Error {
  const why =
    status === 401 || status === 403
      ? 'access denied (gated or private repo: accept its terms on the hub and set HF_TOKEN)'
      : status === 404
        ? 'not found (check the repo id and --revision)'
        : `HTTP ${status}`;
  return createError('DOWNLOAD_FAILED', `${what}: ${why}`, { status });
}

export async function fetchRevision(endpoint: string, repo: string, revision: string, token?: string): Promise<HubRevision> {
  if (!REPO_ID.test(repo)) throw createError('INVALID_INPUT', `"${repo}" is not a hub repo id (owner/name)`);
  const url = `${endpoint.replace(/\/+$/, '')}/api/models/${repo}/revision/${encodeURIComponent(revision)}?blobs=true`;
  let res: Response;
  try {
    res = await fetch(url, { headers: headers(token), signal: AbortSignal.timeout(30_000) });
  } catch (e) {
    throw createError('DOWNLOAD_FAILED', `cannot reach the model hub at ${endpoint} (${(e as Error).message}); set HF_ENDPOINT for a mirror`, undefined, e);
  }
  if (!res.ok) throw httpError(res.status, `${repo}@${revision}`);
  const body = (await res.json().catch(() => null)) as { sha?: unknown; siblings?: unknown } | null;
  if (!body || typeof body.sha !== 'string' || !Array.isArray(body.siblings)) throw createError('DOWNLOAD_FAILED', `${url}: unexpected answer (no sha / siblings)`);
  const files = (body.siblings as Record<string, unknown>[]).map((s) => {
    const lfs = (s.lfs ?? null) as { sha256?: string; size?: number } | null;
    const size = typeof s.size === 'number' ? s.size : typeof lfs?.size === 'number' ? lfs.size : null;
    return { path: String(s.rfilename), size, sha256: lfs?.sha256 ?? null, blobId: typeof s.blobId === 'string' ? s.blobId : null };
  });
  return { repo, sha: body.sha, files };
}

/** Which repo files make a model folder: the ONNX export (+ external data) and the small support files. */
export function selectFiles(rev: HubRevision, onnxFile?: string): { file: HubFile; dest: string }[] {
  const byPath = new Map(rev.files.map((f) => [f.path, f]));
  const onnxPath = onnxFile ?? ['onnx/model.onnx', 'model.onnx'].find((p) => byPath.has(p));
  const onnx = onnxPath ? byPath.get(onnxPath) : undefined;
  if (!onnx) {
    const available = rev.files.filter((f) => f.path.endsWith('.onnx')).map((f) => f.path);
    throw createError(
      'DOWNLOAD_FAILED',
      `${rev.repo} has no ${onnxFile ?? 'onnx/model.onnx or model.onnx'}` + (available.length ? `; ONNX files: ${available.join(', ')} (choose one with --onnx-file)` : '; it has no ONNX export'),
    );
  }
  if (!byPath.has('tokenizer.json')) throw createError('DOWNLOAD_FAILED', `${rev.repo} has no tokenizer.json (the runtime needs the fast-tokenizer file)`);
  if (!byPath.has('config.json')) throw createError('DOWNLOAD_FAILED', `${rev.repo} has no config.json`);
  const out = [{ file: onnx, dest: 'onnx/model.onnx' }];
  const data = byPath.get(`${onnx.path}_data`) ?? byPath.get(`${onnx.path}.data`);
  if (data) out.push({ file: data, dest: `onnx/${path.basename(data.path)}` });
  for (const p of SUPPORT_FILES) {
    const f = byPath.get(p);
    if (f) out.push({ file: f, dest: p });
  }
  return out;
}

function gitBlobSha1(file: string): string {
  const size = fs.statSync(file).size;
  const h = crypto.createHash('sha1').update(`blob ${size}\0`);
  h.update(fs.readFileSync(file));
  return h.digest('hex');
}

function sha256Of(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** Size and checksum of a fully downloaded file; a mismatch deletes it and throws. */
export function verifyFile(file: string, expected: HubFile, etag: string | null): string {
  const size = fs.statSync(file).size;
  const fail = (why: string) => {
    fs.rmSync(file, { force: true });
    throw createError('DOWNLOAD_FAILED', `${expected.path}: ${why}; the file was discarded, run the pull again`);
  };
  if (expected.size !== null && size !== expected.size) fail(`size ${size} bytes, expected ${expected.size}`);
  const sha = sha256Of(file);
  const wantSha = expected.sha256 ?? (etag && /^[0-9a-f]{64}$/.test(etag) ? etag : null);
  if (wantSha && sha !== wantSha) fail(`sha256 ${sha}, expected ${wantSha} (corrupted download)`);
  if (!wantSha && expected.blobId && gitBlobSha1(file) !== expected.blobId) fail(`git blob id differs from ${expected.blobId} (corrupted download)`);
  return sha;
}

/** One attempt: continue `<dest>.part` from its current size. Returns the ETag the hub reported. */
async function downloadOnce(url: string, part: string, opts: PullOptions, file: HubFile): Promise<string | null> {
  const have = fs.existsSync(part) ? fs.statSync(part).size : 0;
  if (file.size !== null && have === file.size && have > 0) return null;
  const ctrl = new AbortController();
  let idle: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(idle);
    idle = setTimeout(() => ctrl.abort(new Error('download stalled')), opts.idleTimeoutMs ?? 60_000);
  };
  arm();
  try {
    const res = await fetch(url, { headers: headers(opts.token, have > 0 ? { range: `bytes=${have}-` } : {}), signal: ctrl.signal, redirect: 'follow' });
    if (res.status === 416 && have > 0) return null;
    if (!res.ok) throw httpError(res.status, file.path);
    const etag = (res.headers.get('x-linked-etag') ?? res.headers.get('etag'))?.replace(/^W\//, '').replace(/"/g, '') ?? null;
    // 206 continues the partial file; 200 means the server ignored the range: start over.
    const append = res.status === 206 && have > 0;
    const out = fs.createWriteStream(part, { flags: append ? 'a' : 'w' });
    let bytes = append ? have : 0;
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        arm();
        if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
        bytes += chunk.length;
        opts.onProgress?.(file.path, bytes, file.size);
      }
    } finally {
      await new Promise<void>((resolve) => out.end(resolve));
    }
    return etag;
  } finally {
    clearTimeout(idle);
  }
}

async function downloadFile(rev: HubRevision, file: HubFile, target: string, opts: PullOptions): Promise<string> {
  if (fs.existsSync(target)) {
    // Verified by an earlier, interrupted pull of the same commit.
    if (file.size === null || fs.statSync(target).size === file.size) return sha256Of(target);
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const part = `${target}.part`;
  const url = `${opts.endpoint.replace(/\/+$/, '')}/${rev.repo}/resolve/${rev.sha}/${file.path.split('/').map(encodeURIComponent).join('/')}`;
  const retries = opts.retries ?? 3;
  let etag: string | null = null;
  for (let attempt = 0; ; attempt++) {
    try {
      etag = (await downloadOnce(url, part, opts, file)) ?? etag;
      if (file.size === null || fs.statSync(part).size >= file.size) break;
      throw new Error(`connection closed after ${fs.statSync(part).size} of ${file.size} bytes`);
    } catch (e) {
      if ((e as { code?: string }).code === 'DOWNLOAD_FAILED' || attempt >= retries) {
        throw createError('DOWNLOAD_FAILED', `${file.path}: ${(e as Error).message} (partial download kept; run the pull again to resume)`, undefined, e);
      }
    }
  }
  const sha = verifyFile(part, file, etag);
  fs.renameSync(part, target);
  return sha;
}

/** Moves a finished staging folder into place; an older copy is replaced only after that succeeded. */
function swapInto(staging: string, dir: string): void {
  if (!fs.existsSync(dir)) return fs.renameSync(staging, dir);
  const old = `${dir}.old-${process.pid}-${Date.now()}`;
  fs.renameSync(dir, old);
  try {
    fs.renameSync(staging, dir);
  } catch (e) {
    fs.renameSync(old, dir);
    throw e;
  }
  fs.rmSync(old, { recursive: true, force: true });
}

export async function pullModel(opts: PullOptions): Promise<PullResult> {
  const rev = await fetchRevision(opts.endpoint, opts.repo, opts.revision ?? 'main', opts.token);
  const wanted = selectFiles(rev, opts.onnxFile);
  const name = opts.name ?? folderNameOf(opts.repo);
  if (!/^[\w.-]+$/.test(name) || name.startsWith('.')) throw createError('INVALID_INPUT', `"${name}" is not a usable folder name`);
  // Staging is keyed by commit, so an interrupted pull of the same commit resumes file by file.
  const staging = path.join(opts.modelsDir, '.partial', `${name}@${rev.sha}`);
  fs.mkdirSync(staging, { recursive: true });
  const files: PullResult['files'] = [];
  for (const { file, dest } of wanted) {
    const sha256 = await downloadFile(rev, file, path.join(staging, dest), opts);
    files.push({ path: dest, size: fs.statSync(path.join(staging, dest)).size, sha256 });
  }
  fs.writeFileSync(
    path.join(staging, '.quin-model.json'),
    JSON.stringify({ repo: opts.repo, revision: opts.revision ?? 'main', sha: rev.sha, endpoint: opts.endpoint, pulledAt: new Date().toISOString(), files }, null, 2) + '\n',
  );
  readModelFolder(staging);
  const dir = path.join(opts.modelsDir, name);
  swapInto(staging, dir);
  return { dir, repo: opts.repo, sha: rev.sha, files };
}
