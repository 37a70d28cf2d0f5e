import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config';
import { CrossEncoder } from '../../lib/models';
import type { SearchIndexes } from '../../indexer/types';
import type { RerankCandidate, StageContext } from '../stages';
import { asRelevance, combineScores, minMax, WEAKEST_MATCH } from './combine';
import { createRerankStage, readRerankSettings, RERANK_DEFAULT_DEPTH, RERANK_WEIGHT } from './index';
import { bestSentenceIndexes, bestSentencesText, passages, passageText, sentenceEvidenceScores } from './passage';
import { CrossEncoderRerankStage } from './stage';

const FIX = path.join(__dirname, '..', '..', 'lib', 'models', 'fixtures');

function cand(id: number, title: string, text: string, fused: number, sentences = [text]): RerankCandidate {
  return {
    snippetId: id,
    articleId: id,
    title,
    text,
    sentences,
    publishedAt: null,
    source: 's',
    bm25: null,
    dense: null,
    bm25Rank: null,
    denseRank: null,
    fused,
  };
}
const noVectors = { sentenceVectors: { get: async (ss: string[]) => ss.map(() => null) } } as unknown as SearchIndexes;
const ctx = (text: string, indexes: SearchIndexes = noVectors) =>
  ({
    query: { text, claim: text, kind: 'claim', terms: text.toLowerCase().split(' ') },
    queryVector: Float32Array.from([1, 0]),
    indexes,
  }) as unknown as StageContext;

describe('combineScores', () => {
  it('min-max normalises both scores and mixes them by the weight', () => {
    expect(minMax([2, 4, 3])).toEqual([0, 1, 0.5]);
    expect(minMax([5, 5])).toEqual([1, 1]);
    expect(minMax([1, NaN, 3])).toEqual([0, 0, 1]);
    expect(combineScores([10, 0, 5], [0.1, 0.3, 0.2], 0.5)).toEqual([0.5, 0.5, 0.5]);
    expect(combineScores([10, 0, 5], [0.1, 0.3, 0.2], 1)).toEqual([1, 0, 0.5]);
    expect(combineScores([10, 0, 5], [0.1, 0.3, 0.2], 0).map((x) => +x.toFixed(6))).toEqual([0, 1, 0.5]);
    expect(() => combineScores([1], [1, 2], 0.5)).toThrow(/1 model scores for 2 candidates/);
    expect(() => combineScores([1], [1], 1.5)).toThrow(/outside/);
  });
});

describe('asRelevance', () => {
  it('keeps the weakest reranked match above zero, so that the time decay can still lift it', () => {
    expect(asRelevance(0)).toBe(WEAKEST_MATCH);
    expect(asRelevance(1)).toBe(1);
    expect(asRelevance(Number.NaN)).toBe(WEAKEST_MATCH);
    // The weaker of two matches, two days old, against a five-year-old one at a one-week half-life.
    const [older, newer] = [asRelevance(1) * 2 ** ((-5 * 365) / 7), asRelevance(0) * 2 ** (-2 / 7)];
    expect(newer).toBeGreaterThan(older);
    // ...but not at a one-year half-life: relevance still decides there (5 half-lives apart, under 6.6).
    expect(asRelevance(0) * 2 ** (-2 / 365)).toBeLessThan(asRelevance(1) * 2 ** -5);
  });
});

describe('what the model reads (passage.ts)', () => {
  // The same cases pin the trainer's side (training/tests/test_reranker_passage.py).
  const cases = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'passage-cases.json'), 'utf8')) as {
    why: string;
    title: string;
    sentences: string[];
    scores: number[];
    chars: number;
    window: string;
    best: string;
  }[];

  it.each(cases.map((c) => [c.why, c] as const))('%s', (_why, c) => {
    expect(passageText({ title: c.title, text: c.sentences.join(' ') })).toBe(c.window);
    expect(bestSentencesText(c.title, c.sentences, c.scores, c.chars)).toBe(c.best);
  });

  it('no sentences, no best sentences', () => {
    expect(bestSentenceIndexes([], [], 100)).toEqual([]);
  });

  it('scores each sentence as the evidence stage does: cached-vector cosine and query words', async () => {
    const table = new Map([
      ['cats purr loudly', Float32Array.from([1, 0])],
      ['dogs bark', Float32Array.from([0, 1])],
    ]);
    const indexes = { sentenceVectors: { get: async (ss: string[]) => ss.map((s) => table.get(s) ?? null) } } as unknown as SearchIndexes;
    const cs = [cand(1, 't', 'dogs bark cats purr loudly', 1, ['dogs bark', 'cats purr loudly']), cand(2, 't', 'unknown cats', 1)];
    const [a, b] = await sentenceEvidenceScores(cs, ctx('cats purr', indexes));
    // cosine 0, no query word | cosine 1, both words | no vector: words only (half weight)
    expect(a).toEqual([0, 1]);
    expect(b).toEqual([0.25]);
    expect(await passages(cs, ctx('cats purr', indexes), 'best', 10)).toEqual(['t. cats purr loudly', 't. unknown cats']);
    expect(await passages(cs, ctx('cats purr', indexes), 'window', 10)).toEqual(['t. dogs bark cats purr loudly', 't. unknown cats']);
  });
});

describe('CrossEncoderRerankStage', () => {
  const model = { id: 'fake', score: async (_q: string, ps: string[]) => ps.map((p) => (p.includes('vaccine') ? 5 : 0)) };

  it('mixes the model score with the fused score; weight 0 keeps the first-stage order', async () => {
    const cs = [cand(1, 'Weather', 'rain tomorrow', 0.9), cand(2, 'Health', 'vaccine trial results', 0.5), cand(3, '', 'other', 0.1)];
    const full = await new CrossEncoderRerankStage(model, { depth: 10, weight: 1 }).rerank(cs, ctx('vaccine'));
    expect(full.map((s) => s.rerank)).toEqual([0, 5, 0]);
    expect(full.map((s) => s.relevance)).toEqual([0, 1, 0].map(asRelevance));
    const none = await new CrossEncoderRerankStage(model, { depth: 10, weight: 0 }).rerank(cs, ctx('vaccine'));
    expect(none.map((s) => s.relevance)).toEqual([1, 0.5, 0].map(asRelevance));
    expect(await new CrossEncoderRerankStage(model, { depth: 10, weight: 0.5 }).rerank([], ctx('vaccine'))).toEqual([]);
    expect(() => new CrossEncoderRerankStage(model, { depth: 0, weight: 0.5 })).toThrow(/depth/);
    expect(() => new CrossEncoderRerankStage(model, { depth: 5, weight: 2 })).toThrow(/weight/);
    expect(() => new CrossEncoderRerankStage(model, { depth: 5, weight: 0.5, chars: 0 })).toThrow(/chars/);
  });

  it('with the best-sentence input the model reads the title and the sentences that answer the query', async () => {
    const read: string[] = [];
    const spy = { id: 'spy', score: async (_q: string, ps: string[]) => (read.push(...ps), ps.map(() => 0)) };
    const c = cand(1, 'Trial', 'Methods were standard. The vaccine cut infections. Funding was public.', 1, [
      'Methods were standard.',
      'The vaccine cut infections.',
      'Funding was public.',
    ]);
    const stage = new CrossEncoderRerankStage(spy, { depth: 5, weight: 0.5, input: 'best', chars: 30 });
    await stage.rerank([c], ctx('vaccine infections'));
    expect(read).toEqual(['Trial. The vaccine cut infections.']);
    expect(stage.with({ depth: 7 }).settings).toEqual({ depth: 7, weight: 0.5, input: 'best', chars: 30 });
  });

  it('runs a standard-layout ONNX cross-encoder end to end', async () => {
    const ce = await CrossEncoder.load(path.join(FIX, 'tiny-cross-encoder'));
    afterAll(() => ce.close());
    const stage = new CrossEncoderRerankStage(ce, { depth: 50, weight: 0.5 });
    expect(stage.id).toMatch(/^onnx:tiny-cross-encoder@/);
    const cs = Array.from({ length: 7 }, (_, i) =>
      cand(i, `title ${i}`, `the cat sat on mat number ${i} ${'word '.repeat(i * 40)}`, 1 - i / 10),
    );
    const scores = await stage.rerank(cs, ctx('the cat sat on the mat'));
    expect(scores).toHaveLength(7);
    for (const s of scores) {
      expect(Number.isFinite(s.rerank)).toBe(true);
      expect(s.relevance).toBeGreaterThanOrEqual(0);
      expect(s.relevance).toBeLessThanOrEqual(1);
    }
    // Same input, same scores (no state between calls).
    expect((await stage.rerank(cs, ctx('the cat sat on the mat'))).map((s) => s.rerank)).toEqual(scores.map((s) => s.rerank));
  });
});

describe('rerank.json: the settings fitted for a model folder', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-rerank-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const folder = (name: string, settings?: string) => {
    const dir = path.join(tmp, name);
    fs.cpSync(path.join(FIX, 'tiny-cross-encoder'), dir, { recursive: true });
    // The fixture names the shared tokenizer.json relative to its own place.
    const tc = path.join(dir, 'tokenizer_config.json');
    const conf = JSON.parse(fs.readFileSync(tc, 'utf8')) as { tokenizer_file?: string };
    if (conf.tokenizer_file)
      conf.tokenizer_file = path.relative(dir, path.resolve(path.join(FIX, 'tiny-cross-encoder'), conf.tokenizer_file));
    fs.writeFileSync(tc, JSON.stringify(conf));
    if (settings !== undefined) fs.writeFileSync(path.join(dir, 'rerank.json'), settings);
    return dir;
  };
  const config = (dir: string) => ({ ...loadConfig({ env: {}, configFile: null }), rerankerModel: dir });

  it('a folder without one gets none; a broken one is a MODEL_INVALID error naming the file', () => {
    expect(readRerankSettings(folder('plain'))).toBeNull();
    const ok = folder('ok', '{"depth": 20, "weight": 0.7, "input": "best", "chars": 300, "fitted": {"on": "dev"}}');
    expect(readRerankSettings(ok)).toEqual({ depth: 20, weight: 0.7, input: 'best', chars: 300 });
    expect(readRerankSettings(folder('window', '{"depth": 20, "weight": 0.7}'))).toEqual({ depth: 20, weight: 0.7, input: 'window' });
    expect(() => readRerankSettings(folder('bad-json', '{"depth": 20'))).toThrow(/rerank\.json/);
    expect(() => readRerankSettings(folder('bad-depth', '{"depth": 2.5, "weight": 0.5}'))).toThrow(/depth must be a positive integer/);
    expect(() => readRerankSettings(folder('bad-input', '{"depth": 2, "weight": 0.5, "input": "all"}'))).toThrow(/input must be one of/);
    expect(() => readRerankSettings(folder('bad-weight', '{"depth": 2, "weight": 1.5}'))).toThrow(/weight/);
  });

  it('the stage takes the folder’s settings, else the defaults; an evaluation may override them', async () => {
    const fitted = await createRerankStage(config(folder('fitted', '{"depth": 12, "weight": 0.8, "input": "best", "chars": 250}')));
    expect(fitted!.settings).toEqual({ depth: 12, weight: 0.8, input: 'best', chars: 250 });
    const plain = await createRerankStage(config(folder('default')));
    expect(plain!.settings).toMatchObject({ depth: RERANK_DEFAULT_DEPTH, weight: RERANK_WEIGHT, input: 'window' });
    const over = await createRerankStage(config(folder('over', '{"depth": 12, "weight": 0.8}')), { depth: 40, weight: 1 });
    expect(over!.settings).toMatchObject({ depth: 40, weight: 1 });
    expect(await createRerankStage({ ...config(folder('none')), rerankerModel: 'none' })).toBeNull();
  });
});
