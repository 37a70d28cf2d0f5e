import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SearchIndexes } from '../../indexer/types';
import type { RerankCandidate, StageContext } from '../stages';
import { articleFeatures, comboRaw, comboScores, parseComboWeights, zScore } from './combo';
import { asRelevance } from './combine';
import { candidateFeatures, featuresOf, sentenceSimilarities, type Features } from './features';
import { readComboWeights } from './index';
import { CrossEncoderRerankStage } from './stage';

const v = (...xs: number[]) => Float32Array.from(xs);
const feats = (fused: number, sent = 0): Features =>
  featuresOf({ fused, bm25: null, dense: null, bm25Rank: null, denseRank: null }, { max: sent, top2: sent, mean: sent });

describe('features', () => {
  it('sentence similarities: best, best two and mean cosine; uncached sentences skipped', () => {
    const s = sentenceSimilarities(v(1, 0), [v(1, 0), null, v(0, 1), v(0.6, 0.8)]);
    expect(s.max).toBeCloseTo(1);
    expect(s.top2).toBeCloseTo(0.8);
    expect(s.mean).toBeCloseTo(1.6 / 3);
    expect(sentenceSimilarities(v(1, 0), [null])).toEqual({ max: 0, top2: 0, mean: 0 });
  });

  it('first-stage features: missing runs read as 0, ranks as reciprocals', () => {
    const f = featuresOf({ fused: 0.4, bm25: 12, dense: null, bm25Rank: 4, denseRank: null }, { max: 0.5, top2: 0.4, mean: 0.3 });
    expect(f).toMatchObject({ fused: 0.4, bm25: 12, dense: 0, bm25_rr: 0.25, dense_rr: 0, sent_max: 0.5 });
  });

  it('reads the cached sentence vectors of each candidate against the query vector', async () => {
    const table = new Map([
      ['cats purr', v(1, 0)],
      ['dogs bark', v(0, 1)],
    ]);
    const indexes = { sentenceVectors: { get: async (ss: string[]) => ss.map((s) => table.get(s) ?? null) } } as unknown as SearchIndexes;
    const ctx = { queryVector: v(1, 0), indexes } as unknown as StageContext;
    const c = (id: number, sentences: string[]) =>
      ({
        snippetId: id,
        articleId: id,
        sentences,
        fused: 0.5,
        bm25: null,
        dense: null,
        bm25Rank: null,
        denseRank: null,
      }) as unknown as RerankCandidate;
    const out = await candidateFeatures([c(1, ['dogs bark', 'cats purr']), c(2, ['dogs bark']), c(3, ['unknown'])], ctx);
    expect(out.map((f) => f.sent_max)).toEqual([1, 0, 0]);
  });
});

describe('combination layer', () => {
  it('z-scores, weights and scales the columns to [0, 1]', () => {
    expect(zScore([1, 2, 3]).map((x) => +x.toFixed(4))).toEqual([-1.2247, 0, 1.2247]);
    expect(zScore([2, 2])).toEqual([0, 0]);
    const w = parseComboWeights({ normalization: 'zscore', model: 1, features: { fused: 1 } });
    // The model prefers candidate 0, the first stage candidate 2: equal weights tie them, 1 in between.
    const raw = comboRaw([3, 2, 1], [feats(0), feats(0.5), feats(1)], [1, 2, 3], w);
    expect(raw.map((x) => +x.toFixed(6))).toEqual([0, 0, 0]);
    const scores = comboScores([3, 2, 1], [feats(0), feats(0.5), feats(1)], [1, 2, 3], { ...w, features: { fused: 0.5 } });
    expect(scores).toEqual([1, 0.5, 0]);
    expect(() => comboRaw([1], [], [1], w)).toThrow(/1 model scores/);
  });

  it('article features: best model score and count of an article among the candidates', () => {
    expect(articleFeatures([7, 8, 7], [1, 5, 3])).toEqual({ art_model_max: [3, 5, 3], art_count: [2, 1, 2] });
    const w = parseComboWeights({ normalization: 'minmax', model: 0, features: { art_count: 1 } });
    expect(comboScores([0, 0, 0], [feats(0), feats(0), feats(0)], [7, 8, 7], w)).toEqual([1, 0, 1]);
  });

  it('rejects malformed weights with a clear message', () => {
    expect(() => parseComboWeights({ normalization: 'rank', model: 1 })).toThrow(/normalization/);
    expect(() => parseComboWeights({ normalization: 'zscore', model: 'x' })).toThrow(/model weight/);
    expect(() => parseComboWeights({ normalization: 'zscore', model: 1, features: { colour: 1 } })).toThrow(/unknown feature "colour"/);
    expect(() => parseComboWeights({ normalization: 'zscore', model: 1, features: { fused: null } })).toThrow(/finite/);
    expect(() => parseComboWeights({ normalization: 'zscore', model: 1, depth: 2.5 })).toThrow(/depth/);
    expect(parseComboWeights({ normalization: 'zscore', model: 1, depth: 100 }).depth).toBe(100);
  });

  it('a model folder without combo.json gets none; a broken one is a MODEL_INVALID error', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-combo-'));
    expect(readComboWeights(dir)).toBeNull();
    fs.writeFileSync(path.join(dir, 'combo.json'), '{"normalization":"zscore","model":1,"features":{"fused":0.5}}');
    expect(readComboWeights(dir)).toEqual({ normalization: 'zscore', model: 1, features: { fused: 0.5 } });
    fs.writeFileSync(path.join(dir, 'combo.json'), '{"normalization":"zscore"');
    expect(() => readComboWeights(dir)).toThrow(/combo\.json/);
    fs.rmSync(dir, { recursive: true });
  });

  it('the stage uses the combination layer when it has one, the plain mix otherwise', async () => {
    const model = { id: 'fake', score: async (_q: string, ps: string[]) => ps.map((p) => (p.includes('vaccine') ? 5 : 0)) };
    const indexes = { sentenceVectors: { get: async (ss: string[]) => ss.map(() => null) } } as unknown as SearchIndexes;
    const ctx = {
      query: { text: 'vaccine', claim: 'vaccine', kind: 'claim', terms: ['vaccine'] },
      queryVector: v(1, 0),
      indexes,
    } as unknown as StageContext;
    const c = (id: number, text: string, fused: number) =>
      ({
        snippetId: id,
        articleId: id,
        title: '',
        text,
        sentences: [text],
        fused,
        bm25: null,
        dense: null,
        bm25Rank: null,
        denseRank: null,
      }) as unknown as RerankCandidate;
    const cs = [c(1, 'rain', 0.9), c(2, 'vaccine trial', 0.5), c(3, 'other', 0.1)];
    const combo = parseComboWeights({ normalization: 'minmax', model: 0, features: { fused: 1 } });
    const withCombo = await new CrossEncoderRerankStage(model, { depth: 10, weight: 1, combo }).rerank(cs, ctx);
    expect(withCombo.map((s) => s.relevance)).toEqual([1, 0.5, 0].map(asRelevance));
    const plain = await new CrossEncoderRerankStage(model, { depth: 10, weight: 1 }).rerank(cs, ctx);
    expect(plain.map((s) => s.relevance)).toEqual([0, 1, 0].map(asRelevance));
  });
});
