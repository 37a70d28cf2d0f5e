/**
 * Fits the reranking stage's feature-combination layer (ranking/rerank/combo.ts) on the SciFact
 * train split and chooses the variant on the dev split, from training/rerank-features.ts's dump.
 *
 * Each variant (normalisation × feature set × depth) is fitted by a listwise softmax loss (all
 * snippets of relevant documents are positives, L2 0.01) with full-batch gradient descent on train
 * claims only, optionally refined by coordinate ascent on train nDCG@10; the variant with the best dev nDCG@10 (document level, as `quin eval`) is written to
 * models/quin-reranker/combo.json with its train and dev numbers. The plain weighted mix of the
 * current stage (combine.ts) is reported beside it for reference.
 *
 *   npx tsx training/fit-rerank-combo.ts [features=.cache/training/rerank-features.jsonl] [--write] [--variant "<depth> <set>/<norm>/<mode>"]
 */
import fs from 'node:fs';
import path from 'node:path';
import { ndcgAt } from '../eval/metrics';
import { combineScores } from '../ranking/rerank/combine';
import {
  ARTICLE_FEATURES,
  articleFeatures,
  comboRaw,
  normalize,
  type ArticleFeature,
  type ComboNormalization,
  type ComboWeights,
} from '../ranking/rerank/combo';
import { FEATURE_NAMES, type FeatureName, type Features } from '../ranking/rerank/features';

interface Cand {
  doc: string;
  model: number;
  features: Features;
}
interface Query {
  id: string;
  split: string;
  relevant: Set<string>;
  cands: Cand[];
}

function load(file: string): Query[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const q = JSON.parse(l) as { id: string; split: string; relevant: string[]; cands: Cand[] };
      return { ...q, relevant: new Set(q.relevant) };
    });
}

/** Document ranking from snippet scores over the top `depth` (best snippet per document). */
function docRanking(cands: readonly Cand[], scores: readonly number[]): string[] {
  const order = scores.map((s, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const i of order) {
    const d = cands[i]!.doc;
    if (seen.has(d)) continue;
    seen.add(d);
    out.push(d);
  }
  return out;
}

function ndcg(queries: readonly Query[], depth: number, score: (c: Cand[]) => number[]): number {
  let s = 0;
  for (const q of queries) {
    const top = q.cands.slice(0, depth);
    const ranked = docRanking(top, score(top));
    // Documents below the reranked depth keep their fused order (as the pipeline's tiers).
    const rest = docRanking(
      q.cands.slice(depth),
      q.cands.slice(depth).map((_, i) => -i),
    ).filter((d) => !ranked.includes(d));
    s += ndcgAt([...ranked, ...rest], q.relevant, 10);
  }
  return s / queries.length;
}

/** Per-query design matrices: column 0 = model, then the chosen features, each normalised per query. */
type Column = FeatureName | ArticleFeature;

function design(q: Query, depth: number, names: readonly Column[], how: ComboNormalization): { X: number[][]; y: number[] } {
  const top = q.cands.slice(0, depth);
  const art = articleFeatures(
    top.map((c) => c.doc),
    top.map((c) => c.model),
  );
  const raw = (n: Column) =>
    (ARTICLE_FEATURES as readonly string[]).includes(n) ? art[n as ArticleFeature] : top.map((c) => c.features[n as FeatureName]);
  const cols = [
    normalize(
      top.map((c) => c.model),
      how,
    ),
    ...names.map((n) => normalize(raw(n), how)),
  ];
  return { X: top.map((_, i) => cols.map((col) => col[i]!)), y: top.map((c) => (q.relevant.has(c.doc) ? 1 : 0)) };
}

function fit(train: readonly Query[], depth: number, names: readonly Column[], how: ComboNormalization, l2: number): number[] {
  const data = train.map((q) => design(q, depth, names, how)).filter((d) => d.y.some((y) => y > 0));
  const dim = names.length + 1;
  const w = new Array<number>(dim).fill(0);
  w[0] = 1;
  const m = new Array<number>(dim).fill(0);
  const v = new Array<number>(dim).fill(0);
  const lr = 0.05;
  for (let step = 1; step <= 400; step++) {
    const g = w.map((x) => 2 * l2 * x);
    for (const { X, y } of data) {
      const s = X.map((row) => row.reduce((a, x, j) => a + x * w[j]!, 0));
      const mx = Math.max(...s);
      const e = s.map((x) => Math.exp(x - mx));
      const z = e.reduce((a, b) => a + b, 0);
      const zp = e.reduce((a, x, i) => a + (y[i]! ? x : 0), 0);
      // loss = −log(Σ_pos e / Σ e); d/ds_i = p_i − [pos] e_i / Σ_pos e
      X.forEach((row, i) => {
        const d = (e[i]! / z - (y[i]! ? e[i]! / zp : 0)) / data.length;
        row.forEach((x, j) => (g[j]! += d * x));
      });
    }
    // Adam
    for (let j = 0; j < dim; j++) {
      m[j] = 0.9 * m[j]! + 0.1 * g[j]!;
      v[j] = 0.999 * v[j]! + 0.001 * g[j]! ** 2;
      w[j]! -= (lr * (m[j]! / (1 - 0.9 ** step))) / (Math.sqrt(v[j]! / (1 - 0.999 ** step)) + 1e-8);
    }
  }
  return w;
}

function asWeights(w: readonly number[], names: readonly Column[], how: ComboNormalization): ComboWeights {
  const r = (x: number) => Math.round(x * 1e4) / 1e4;
  return { normalization: how, model: r(w[0]!), features: Object.fromEntries(names.map((n, j) => [n, r(w[j + 1]!)])) };
}

const FEATURE_SETS: Record<string, Column[]> = {
  fused: ['fused'],
  first_stage: ['fused', 'bm25', 'dense', 'bm25_rr', 'dense_rr'],
  sentences: ['fused', 'sent_max', 'sent_top2'],
  article: ['fused', 'art_model_max', 'art_count'],
  sent_article: ['fused', 'sent_max', 'art_model_max', 'art_count'],
  all: [...FEATURE_NAMES, ...ARTICLE_FEATURES],
};

/** Coordinate ascent on train nDCG@10 from the softmax solution (the metric, not the surrogate). */
function refine(train: readonly Query[], depth: number, names: readonly Column[], how: ComboNormalization, w0: number[]): number[] {
  const data = train.map((q) => ({ q, ...design(q, depth, names, how) }));
  const evalW = (w: number[]) => {
    let s = 0;
    for (const { q, X } of data) {
      const top = q.cands.slice(0, depth);
      const ranked = docRanking(
        top,
        X.map((row) => row.reduce((a, x, j) => a + x * w[j]!, 0)),
      );
      s += ndcgAt(ranked, q.relevant, 10);
    }
    return s / data.length;
  };
  let w = [...w0];
  let best = evalW(w);
  for (let round = 0; round < 3; round++) {
    for (let j = 0; j < w.length; j++) {
      for (const d of [-0.5, -0.2, -0.1, 0.1, 0.2, 0.5]) {
        const cand = [...w];
        cand[j] = cand[j]! + d * Math.max(0.2, Math.abs(w0[0]!));
        const s = evalW(cand);
        if (s > best + 1e-6) {
          best = s;
          w = cand;
        }
      }
    }
  }
  return w;
}

function main() {
  const args = process.argv.slice(2);
  const file = path.resolve(args[0] && !args[0].startsWith('--') ? args[0] : '.cache/training/rerank-features.jsonl');
  const queries = load(file);
  const train = queries.filter((q) => q.split === 'train');
  const dev = queries.filter((q) => q.split === 'dev');
  const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
  console.log(`${train.length} train, ${dev.length} dev claims`);
  const baseline: Record<string, unknown> = {};
  for (const depth of [50, 100]) {
    baseline[`fused@${depth}`] = {
      train: r4(ndcg(train, depth, (c) => c.map((x) => x.features.fused))),
      dev: r4(ndcg(dev, depth, (c) => c.map((x) => x.features.fused))),
    };
    for (const wt of [0.3, 0.5, 0.7]) {
      const f = (c: Cand[]) =>
        combineScores(
          c.map((x) => x.model),
          c.map((x) => x.features.fused),
          wt,
        );
      baseline[`mix${wt}@${depth}`] = { train: r4(ndcg(train, depth, f)), dev: r4(ndcg(dev, depth, f)) };
    }
  }
  console.log('baselines (plain min-max mix of model and fused score):', JSON.stringify(baseline));
  const variants: { name: string; depth: number; weights: ComboWeights; train: number; dev: number }[] = [];
  // --variant "<depth> <set>/<normalisation>/<mode>" refits only the variant a full run chose.
  const only = args.includes('--variant') ? args[args.indexOf('--variant') + 1] : undefined;
  for (const depth of [50, 100]) {
    for (const how of ['zscore', 'minmax'] as const) {
      for (const [set, names] of Object.entries(FEATURE_SETS)) {
        for (const mode of ['softmax', 'softmax+ndcg']) {
          if (only && only !== `${depth} ${set}/${how}/${mode}`) continue;
          const w0 = fit(train, depth, names, how, 0.01);
          const w = mode === 'softmax' ? w0 : refine(train, depth, names, how, w0);
          const weights = asWeights(w, names, how);
          const score = (c: Cand[]) =>
            comboRaw(
              c.map((x) => x.model),
              c.map((x) => x.features),
              c.map((x) => x.doc),
              weights,
            );
          const v = {
            name: `${set}/${how}/${mode}`,
            depth,
            weights,
            train: r4(ndcg(train, depth, score)),
            dev: r4(ndcg(dev, depth, score)),
          };
          variants.push(v);
          console.log(`depth ${depth} ${v.name}: train ${v.train} dev ${v.dev} ${JSON.stringify(weights)}`);
        }
      }
    }
  }
  const best = variants.reduce((a, b) => (b.dev > a.dev ? b : a));
  console.log(`best on dev: depth ${best.depth} ${best.name} train ${best.train} dev ${best.dev}`);
  if (args.includes('--write')) {
    const out = path.resolve('models/quin-reranker/combo.json');
    const doc = {
      ...best.weights,
      depth: best.depth,
      fitted: {
        on: 'SciFact claims_train.jsonl, train split (eval/splits.ts)',
        chosen_on: 'dev split',
        variant: best.name,
        depth: best.depth,
        ndcg10_train: best.train,
        ndcg10_dev: best.dev,
        features_file: path.basename(file),
      },
    };
    fs.writeFileSync(out, JSON.stringify(doc, null, 2) + '\n');
    console.log(`wrote ${out}`);
  }
}

main();
