/**
 * The index's own encoder and its measured relevance floor, against the real parts: the dense
 * index carries the id of the encoder that built it, and a search uses that encoder whatever is
 * configured (saying so, and what a rebuild would cost) — never "not built" for an index that exists; the relevance floor measured at index time is
 * stored with the index and keeps nonsense out.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSearchIndexes, openSearchIndexes, runIndex } from '../indexer';
import { faissAvailable } from '../indexer/dense/faiss-native';
import { readFloor } from '../indexer/dense/floor-calibration';
import { loadStaticEncoder } from '../indexer/encoders';
import { indexesDir } from '../indexer/files';
import { readState } from '../indexer/state';
import { addArticle, TOPICS } from '../indexer/test-corpus';
import { loadConfig, type Config } from '../lib/config';
import { projectRoot } from '../lib/paths';
import { createTestDb, type TestDb } from '../testing/db';
import { rankingOptions } from './context';
import { search } from './pipeline';

let t: TestDb;
let models: string;
let idA: string;
let idB: string;

/** Two tables in a models folder: the distilled one as `quin-a`, and `quin-b`, the same with one scale changed (another hash). */
function makeModels(): void {
  models = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-models-'));
  const src = fs.readFileSync(path.join(projectRoot(), 'models', 'quin-static', 'model.bin'));
  fs.mkdirSync(path.join(models, 'quin-a'));
  fs.writeFileSync(path.join(models, 'quin-a', 'model.bin'), src);
  const other = Buffer.from(src);
  const model = loadStaticEncoder(path.join(models, 'quin-a'));
  // The first scale follows the magic, the header and its padding; nudging a float's low byte keeps the file valid.
  let at = 16 + src.readUInt32LE(12);
  at += (4 - (at % 4)) % 4;
  other[at] = other[at]! ^ 1;
  fs.mkdirSync(path.join(models, 'quin-b'));
  fs.writeFileSync(path.join(models, 'quin-b', 'model.bin'), other);
  idA = model.id;
  idB = loadStaticEncoder(path.join(models, 'quin-b')).id;
}

const withModel = (name: string): Config =>
  loadConfig({
    env: {},
    configFile: null,
    overrides: { ...t.config, encoder: 'static', encoderModel: path.join(models, name), modelsDir: models },
  });

async function searchWith(config: Config, q: string) {
  await closeSearchIndexes();
  const indexes = await openSearchIndexes(config, t.db);
  const res = await search(
    { q, halfLifeDays: null },
    { indexes, db: t.db, provider: t.provider, options: rankingOptions(config, {}, indexes.encoder) },
  );
  return { indexes, res };
}

describe.skipIf(!faissAvailable())('the dense index carries its encoder and its relevance floor', () => {
  beforeAll(async () => {
    makeModels();
    t = await createTestDb();
    for (const a of TOPICS) await addArticle(t.db, a);
    await runIndex(t.db, withModel('quin-a'), { progress: false });
  }, 120_000);
  afterAll(async () => {
    await closeSearchIndexes();
    await t.cleanup();
    fs.rmSync(models, { recursive: true, force: true });
  });

  it('stores the id of the encoder that built it, and a floor measured with that encoder', async () => {
    expect(idA).not.toBe(idB);
    expect((await readState(t.db, 'dense'))?.encoderId).toBe(idA);
    const floor = readFloor(indexesDir(t.config.dataDir))!;
    expect(floor.encoderId).toBe(idA);
    expect(floor.matchMin).toBeGreaterThan(floor.nonsense.max);
    expect(floor.onlyMin).toBeGreaterThan(floor.matchMin);
  });

  it('searches with the index’s encoder when another one is configured, and says what a rebuild would cost', async () => {
    const { indexes, res } = await searchWith(withModel('quin-b'), 'vitamin D supplements and bone fractures');
    expect(indexes.encoder.id).toBe(idA);
    expect(indexes.note).toMatch(new RegExp(`built with ${idA.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, not the configured static:quin-b@`));
    expect(indexes.note).toMatch(/`quin index` would rebuild it with static:quin-b@[0-9a-f]+: \d+ snippets, about \d+ seconds/);
    expect(res.models).toMatchObject({ encoder: idA, dense: true });
    expect(res.results[0]?.scores.dense).not.toBeNull();
    expect(res.warnings).toEqual([indexes.note]);
    expect(res.warnings!.join(' ')).not.toMatch(/not built/);
  });

  it('says plainly when the index’s encoder cannot be loaded: BM25 only, never "not built"', async () => {
    const config = withModel('quin-b');
    fs.renameSync(path.join(models, 'quin-a'), path.join(models, 'quin-a-gone'));
    try {
      const { indexes, res } = await searchWith(config, 'vitamin D supplements and bone fractures');
      expect(indexes.dense).toBeNull();
      expect(indexes.note).toMatch(/cannot be loaded here, and the configured encoder is static:quin-b@.*BM25 only/);
      expect(res.results.length).toBeGreaterThan(0);
      expect(res.models.dense).toBe(false);
      expect(res.warnings).toEqual([indexes.note]);
    } finally {
      fs.renameSync(path.join(models, 'quin-a-gone'), path.join(models, 'quin-a'));
    }
  });

  it('finds nothing for nonsense, although the static table puts it close to everything', async () => {
    const { res } = await searchWith(withModel('quin-a'), 'qzxv plorbnak wuffle');
    expect(res.total).toBe(0);
    expect(res.results).toEqual([]);
    expect(res.verdict).toBeNull();
  });
});
