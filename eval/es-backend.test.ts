/**
 * `quin eval scifact --backend elasticsearch` on a real node (testing/es.ts): the same evaluation
 * with BM25 in a throwaway index of its own on the cluster, removed after; results.json says which
 * backend ran, and on a small SciFact subset the numbers stay close to the embedded backend's.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../lib/config';
import { tempDir } from '../testing/db';
import { rawClient, sharedEs, type EsNode } from '../testing/es';
import { SHARED_MISSING, sharedData } from '../testing/shared-data';
import { evaluate } from './evaluate';

const claims = sharedData('scifact', 'claims_train.jsonl');
const corpus = sharedData('scifact', 'corpus.jsonl');
const root = tempDir('quin-eval-es-');
let es: EsNode;

beforeAll(async () => {
  if (claims) es = await sharedEs();
}, 300_000);
afterAll(async () => {
  await es?.remove();
  fs.rmSync(root, { recursive: true, force: true });
});

async function run(base: Config, backend: 'embedded' | 'elasticsearch') {
  return evaluate({
    dataset: 'scifact',
    claimsFile: claims!,
    corpusFile: corpus!,
    split: 'dev',
    subset: { claims: 20, distractors: 150, split: 'dev' },
    runs: ['bm25', 'hybrid_score'],
    sections: false,
    progress: false,
    workspaceRoot: root,
    outDir: `${root}/out-${backend}`,
    base,
    backend,
  });
}

describe.skipIf(!claims)(`quin eval --backend elasticsearch${claims ? '' : ` (skipped: ${SHARED_MISSING})`}`, () => {
  it('evaluates with a throwaway index, says so, and stays close to the embedded numbers', async () => {
    const base = loadConfig({
      env: { QUIN_CACHE_DIR: `${root}/cache`, ELASTICSEARCH_URL: es.url },
      configFile: null,
      overrides: { dataDir: root },
    });
    const embedded = await run(base, 'embedded');
    const elastic = await run(base, 'elasticsearch');
    expect(embedded.results.backend).toBe('embedded');
    expect(elastic.results.backend).toBe('elasticsearch');
    expect(JSON.parse(fs.readFileSync(elastic.resultsFile!, 'utf8')).backend).toBe('elasticsearch');
    expect(elastic.info).toMatchObject({ bm25: 'elasticsearch', dense: 'faiss', elasticsearch: { removedAfter: true } });
    const index = (elastic.info.elasticsearch as { index: string }).index;
    expect(index).toMatch(/^quin-eval-scifact-subset-/);
    const client = rawClient(es.url);
    expect(await client.indices.exists({ index })).toBe(false);
    await client.close();
    for (const r of ['bm25', 'hybrid_score']) {
      const [a, b] = [embedded.results.runs[r]!, elastic.results.runs[r]!];
      expect(Math.abs(a['ndcg@10']! - b['ndcg@10']!), r).toBeLessThan(0.05);
      expect(Math.abs(a['recall@100']! - b['recall@100']!), r).toBeLessThan(0.05);
    }
  }, 600_000);
});
