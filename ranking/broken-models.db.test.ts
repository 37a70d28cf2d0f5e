/**
 * Fault suite (docs/development.md): each model is a feature that fails alone. With the verdict's
 * model truncated or emptied, or the reranker's missing, the search context still opens and a claim
 * still gets its results — without the verdict (`verdictStatus: 'unavailable'`) or without reranking —
 * and the response says which model and what is wrong, naming no server path. (A truncated NLI
 * model used to make every search fail with MODEL_UNAVAILABLE: 503 on the API, nothing on the page.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSearchIndexes, runIndex } from '../indexer';
import { faissAvailable } from '../indexer/dense/faiss-native';
import { addArticle, TOPICS } from '../indexer/test-corpus';
import { loadConfig, type Config } from '../lib/config';
import { closeLoadedModels } from '../lib/models';
import { projectRoot } from '../lib/paths';
import { createTestDb, type TestDb } from '../testing/db';
import { openSearchContext } from './open';
import { search } from './pipeline';

let t: TestDb;
let models: string;

/** A copy of a shipped model folder under `models` as `name`, its model.onnx changed by `damage`. */
function copyModel(from: string, name: string, damage: (b: Buffer) => Buffer): void {
  const dir = path.join(models, name);
  fs.cpSync(path.join(projectRoot(), 'models', from), dir, { recursive: true });
  const onnx = path.join(dir, 'model.onnx');
  fs.writeFileSync(onnx, damage(fs.readFileSync(onnx)));
}

const withModels = (nliModel: string, rerankerModel: string): Config =>
  loadConfig({ env: {}, configFile: null, overrides: { ...t.config, nliModel, rerankerModel, modelsDir: models } });

const CLAIM = TOPICS[0]!.sentences[0]!;

beforeAll(async () => {
  t = await createTestDb();
  // The shipped models' folders name the shared tokenizer relative to models/: it comes along.
  models = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-broken-models-'));
  fs.cpSync(path.join(projectRoot(), 'models', 'tokenizers'), path.join(models, 'tokenizers'), { recursive: true });
  copyModel('quin-nli', 'nli-truncated', (b) => b.subarray(0, b.length >> 1));
  copyModel('quin-nli', 'nli-empty', () => Buffer.alloc(0));
  for (const a of TOPICS) await addArticle(t.db, a);
  await runIndex(t.db, t.config, { progress: false });
}, 180_000);

afterAll(async () => {
  await closeSearchIndexes();
  await closeLoadedModels();
  await t.cleanup();
  fs.rmSync(models, { recursive: true, force: true });
});

describe.skipIf(!faissAvailable())('a broken model costs only its feature', () => {
  for (const broken of ['nli-truncated', 'nli-empty']) {
    it(`${broken}: the claim is answered without a verdict, and the response says why without server paths`, async () => {
      const ctx = await openSearchContext(withModels(broken, 'none'), t.db);
      expect(ctx.verdict).toBeNull();
      expect(ctx.unavailable?.verdict?.model).toBe(broken);
      const res = await search({ q: CLAIM, halfLifeDays: null }, ctx);
      expect(res.kind).toBe('claim');
      expect(res.results.length).toBeGreaterThan(0);
      expect(res.verdict).toBeNull();
      expect(res.verdictStatus).toBe('unavailable');
      expect(res.models.nli).toBeNull();
      expect(res.models.unavailable?.nli).toMatch(new RegExp(`^the NLI model ${broken}: .*(empty|cut short or damaged)`));
      expect(res.warnings?.some((w) => w.startsWith('no verdict: the NLI model'))).toBe(true);
      const said = JSON.stringify(res);
      expect(said).not.toContain(models);
      expect(said).not.toContain(projectRoot());
      expect(said).not.toContain('onnxruntime_src');
    });
  }

  it('a reranker that does not exist: results in the first stage order, saying the reranker is off', async () => {
    const ctx = await openSearchContext(withModels('none', path.join(models, 'no-such-reranker')), t.db);
    expect(ctx.reranker).toBeNull();
    const res = await search({ q: CLAIM, halfLifeDays: null }, ctx);
    expect(res.results.length).toBeGreaterThan(0);
    expect(res.models.reranker).toBeNull();
    expect(res.models.unavailable?.reranker).toMatch(/^the reranker no-such-reranker: .*no such model folder/);
    expect(res.warnings?.some((w) => w.startsWith('not reranked:'))).toBe(true);
    expect(JSON.stringify(res)).not.toContain(models);
    // Asked not to rerank, nothing is said about the reranker.
    const plain = await search({ q: CLAIM, halfLifeDays: null, rerank: false }, ctx);
    expect(plain.models.unavailable).toBeUndefined();
  });
});
