/** `quin models pull` against a local server that answers in the Hugging Face hub's URL layout. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isQuinError } from '../errors';
import { CrossEncoder } from './cross-encoder';
import { folderFiles, startFakeHub, type FakeHub } from './fake-hub';
import { pullModel } from './hub';

const REPO = 'cross-encoder/tiny-test-reranker';
const source = folderFiles(path.join(__dirname, 'fixtures', 'tiny-cross-encoder'));
const files = { ...source, 'pytorch_model.bin': Buffer.from('not wanted'), 'onnx/model_qint8.onnx': Buffer.from('other export') };
let hub: FakeHub | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'quin-pull-'));

describe('quin models pull', () => {
  it('downloads the ONNX export and support files into models/<name>, verified, and the model runs', async () => {
    hub = await startFakeHub({ repo: REPO, files });
    const modelsDir = tmp();
    const r = await pullModel({ endpoint: hub.url, repo: REPO, modelsDir, token: 'hf_secret' });
    expect(r.dir).toBe(path.join(modelsDir, 'tiny-test-reranker'));
    expect(r.files.map((f) => f.path).sort()).toEqual(['config.json', 'onnx/model.onnx', 'special_tokens_map.json', 'tokenizer.json', 'tokenizer_config.json']);
    expect(fs.readFileSync(path.join(r.dir, 'onnx', 'model.onnx')).equals(source['onnx/model.onnx']!)).toBe(true);
    expect(fs.existsSync(path.join(r.dir, 'pytorch_model.bin'))).toBe(false);
    expect(JSON.parse(fs.readFileSync(path.join(r.dir, '.quin-model.json'), 'utf8'))).toMatchObject({ repo: REPO, sha: r.sha });
    expect(fs.readdirSync(path.join(modelsDir, '.partial'))).toEqual([]);
    expect(hub.requests.every((q) => q.auth === 'Bearer hf_secret' || q.path.startsWith('/cdn/'))).toBe(true);
    const ce = await CrossEncoder.load(r.dir);
    expect((await ce.score('q', ['p'])).length).toBe(1);
    await ce.close();
  });

  it('resumes an interrupted download with a Range request', async () => {
    hub = await startFakeHub({ repo: REPO, files, cut: { path: 'onnx/model.onnx', afterBytes: 100_000, times: 1 } });
    const modelsDir = tmp();
    // No retries: the first pull fails and keeps what it had.
    await expect(pullModel({ endpoint: hub.url, repo: REPO, modelsDir, retries: 0 })).rejects.toThrow(/partial download kept/);
    expect(fs.existsSync(path.join(modelsDir, 'tiny-test-reranker'))).toBe(false);
    const r = await pullModel({ endpoint: hub.url, repo: REPO, modelsDir });
    const ranged = hub.requests.filter((q) => q.path === '/cdn/onnx/model.onnx' && q.range);
    expect(ranged).toHaveLength(1);
    expect(Number(/bytes=(\d+)-/.exec(ranged[0]!.range!)![1])).toBeGreaterThanOrEqual(100_000);
    expect(fs.readFileSync(path.join(r.dir, 'onnx', 'model.onnx')).equals(source['onnx/model.onnx']!)).toBe(true);
  });

  it('retries within one pull, resuming where the connection dropped', async () => {
    hub = await startFakeHub({ repo: REPO, files, cut: { path: 'onnx/model.onnx', afterBytes: 50_000, times: 2 } });
    const r = await pullModel({ endpoint: hub.url, repo: REPO, modelsDir: tmp(), retries: 3 });
    expect(hub.requests.filter((q) => q.path === '/cdn/onnx/model.onnx')).toHaveLength(3);
    expect(fs.readFileSync(path.join(r.dir, 'onnx', 'model.onnx')).equals(source['onnx/model.onnx']!)).toBe(true);
  });

  it('rejects a corrupted file and leaves no model folder', async () => {
    for (const corrupt of ['onnx/model.onnx', 'tokenizer.json']) {
      hub = await startFakeHub({ repo: REPO, files, corrupt });
      const modelsDir = tmp();
      const err = await pullModel({ endpoint: hub.url, repo: REPO, modelsDir }).catch((e: unknown) => e);
      expect(isQuinError(err, 'DOWNLOAD_FAILED')).toBe(true);
      expect((err as Error).message).toMatch(new RegExp(`${corrupt}: (sha256|git blob id).*corrupted`));
      expect(fs.existsSync(path.join(modelsDir, 'tiny-test-reranker'))).toBe(false);
      await hub.close();
      hub = undefined;
    }
  });

  it('replaces an existing folder atomically and keeps it when a pull fails', async () => {
    hub = await startFakeHub({ repo: REPO, files });
    const modelsDir = tmp();
    const dir = path.join(modelsDir, 'tiny-test-reranker');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'old.txt'), 'old');
    await hub.close();
    hub = await startFakeHub({ repo: REPO, files, corrupt: 'config.json' });
    await expect(pullModel({ endpoint: hub.url, repo: REPO, modelsDir })).rejects.toThrow();
    expect(fs.readFileSync(path.join(dir, 'old.txt'), 'utf8')).toBe('old');
    await hub.close();
    hub = await startFakeHub({ repo: REPO, files });
    await pullModel({ endpoint: hub.url, repo: REPO, modelsDir });
    expect(fs.existsSync(path.join(dir, 'old.txt'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'onnx', 'model.onnx'))).toBe(true);
  });

  it('gives clear errors for unknown repos and revisions, repos without ONNX, bad ids and an unreachable hub', async () => {
    hub = await startFakeHub({ repo: REPO, files });
    const modelsDir = tmp();
    await expect(pullModel({ endpoint: hub.url, repo: 'nobody/nothing', modelsDir })).rejects.toThrow(/not found/);
    await expect(pullModel({ endpoint: hub.url, repo: REPO, revision: 'v9', modelsDir })).rejects.toThrow(/not found \(check the repo id and --revision\)/);
    await expect(pullModel({ endpoint: hub.url, repo: '../../etc', modelsDir })).rejects.toThrow(/not a hub repo id/);
    await expect(pullModel({ endpoint: hub.url, repo: REPO, modelsDir, onnxFile: 'onnx/absent.onnx' })).rejects.toThrow(/ONNX files: onnx\/model.onnx, onnx\/model_qint8.onnx/);
    await hub.close();
    hub = await startFakeHub({ repo: REPO, files: { 'config.json': Buffer.from('{}'), 'tokenizer.json': Buffer.from('{}'), 'pytorch_model.bin': Buffer.from('x') } });
    await expect(pullModel({ endpoint: hub.url, repo: REPO, modelsDir })).rejects.toThrow(/has no ONNX export/);
    await expect(pullModel({ endpoint: 'http://127.0.0.1:9', repo: REPO, modelsDir })).rejects.toThrow(/cannot reach the model hub/);
  });

  it('verifies by ETag when the revision listing has no sizes or hashes', async () => {
    hub = await startFakeHub({ repo: REPO, files, private: true, corrupt: 'onnx/model.onnx' });
    await expect(pullModel({ endpoint: hub.url, repo: REPO, modelsDir: tmp() })).rejects.toThrow(/sha256 .* expected/);
  });
});
