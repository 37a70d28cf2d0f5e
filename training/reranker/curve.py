"""The reranker's quality on our dev split, per setting, for the quality/latency curve and the fitted
settings (rerank.json): each model variant (layers, fp32 or int8) reads the top MAX_DEPTH hybrid
candidates of every SciFact and Climate-FEVER dev claim (candidates.ts) with each input (the window, or
the best sentences within a character budget); for every depth its score is mixed with the fused score
as the stage mixes them (min-max over the reranked candidates, weight w on the model), the rest keep
their fused order below, and documents are ranked by their best snippet, exactly as `quin eval` ranks
them. nDCG@10 per claim.

The weight is chosen by cross-validation over 5 folds of the dev claims (by claim id): each fold's w
is the one with the best mean nDCG@10 (SciFact and Climate-FEVER weighing the same) on the other four
folds; the held-out folds give mean ± sd. `--write` writes the chosen setting's rerank.json (depth,
weight chosen on all dev claims, input, chars) into the model folder.

    .cache/nli-env/bin/python training/reranker/curve.py --variant 6L-int8=models/quin-reranker/model.onnx [--variant ...]
        [--inputs window,best@320] [--choose 6L-int8:best@320:20] [--write models/quin-reranker]
"""
import argparse
import hashlib
import json
import math
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from common import CACHE, bert_tokenizer, cpu_session  # noqa: E402
from passage import render  # noqa: E402

DATA = os.path.join(CACHE, 'reranker')
DATASETS = ('scifact', 'climate-fever')
MAX_DEPTH = 50
DEPTHS = [5, 10, 15, 20, 25, 30, 40, 50]
WEIGHTS = [round(x * 0.1, 1) for x in range(11)]
FOLDS = 5


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument('--variant', action='append', default=[], help='NAME=path/to/model.onnx (max length from --max-len)')
    p.add_argument('--inputs', default='window,best@320')
    p.add_argument('--max-len', type=int, default=128)
    p.add_argument('--threads', type=int, default=2)
    p.add_argument('--choose', help='VARIANT:INPUT:DEPTH the setting to write')
    p.add_argument('--write', help='model folder to write rerank.json into')
    p.add_argument('--limit', type=int, help='first N dev claims of each dataset (a probe)')
    p.add_argument('--first-stage', choices=['hybrid', 'dump'], default='hybrid',
                   help="the order the transformer reranks: the hybrid's, or the first stage's recorded in the dump (candidates.ts --first-stage)")
    p.add_argument('--out', default=os.path.join(DATA, 'curve.json'))
    return p.parse_args()


def fold_of(dataset, qid):
    return hashlib.sha256(f'{dataset}:fold:{qid}'.encode()).digest()[0] % FOLDS


def load_dev(limit=None):
    dev = {}
    for name in DATASETS:
        with open(os.path.join(DATA, f'candidates-{name}.jsonl'), encoding='utf8') as f:
            rows = [json.loads(line) for line in f]
        dev[name] = [r for r in rows if r['split'] == 'dev'][:limit]
    return dev


def reorder_by_first_stage(dev):
    """The candidates in the order of the first stage recorded in the dump (its relevance in place of the fused score)."""
    out = {}
    for name, rows in dev.items():
        out[name] = []
        for r in rows:
            cands = sorted(r['cands'], key=lambda c: (-c['firstStage'], c['snippet']))
            out[name].append({**r, 'cands': [{**c, 'fused': c['firstStage']} for c in cands]})
    return out


def as_cand(c):
    return {'title': c['title'], 'sentences': c['sentences'], 'text': c['text'], 'scores': c['sentenceScores']}


def score_all(onnx_path, dev, how, chars, max_len, threads, cache):
    """The model's logit for each of the top MAX_DEPTH candidates of every dev claim (cached on disk)."""
    # The key names every scored (claim, snippet) in order: the same claims in another first-stage
    # order are other pairs at each position, so they must not share a cache file.
    order = ','.join(f"{r['id']}:{c['snippet']}" for n in DATASETS for r in dev[n] for c in r['cands'][:MAX_DEPTH])
    key = hashlib.sha256(f'{onnx_path}:{os.path.getmtime(onnx_path)}:{how}:{chars}:{max_len}:{MAX_DEPTH}:{order}'.encode()).hexdigest()[:16]
    file = os.path.join(cache, f'{key}.json')
    if os.path.exists(file):
        with open(file) as f:
            return json.load(f)
    tok = bert_tokenizer(max_len)
    sess = cpu_session(onnx_path, threads)
    pairs, where = [], []
    for name in DATASETS:
        for qi, r in enumerate(dev[name]):
            for ci, c in enumerate(r['cands'][:MAX_DEPTH]):
                pairs.append((r['claim'], render(as_cand(c), how, chars)))
                where.append((name, qi, ci))
    encs = [e.ids for e in tok.encode_batch(pairs)]
    order = sorted(range(len(encs)), key=lambda i: len(encs[i]))
    logits = np.zeros(len(encs), dtype=np.float32)
    t0 = time.time()
    for at in range(0, len(order), 32):
        idx = order[at:at + 32]
        width = max(len(encs[i]) for i in idx)
        ids = np.zeros((len(idx), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        types = np.zeros_like(ids)
        for j, i in enumerate(idx):
            e = encs[i]
            ids[j, :len(e)] = e
            mask[j, :len(e)] = 1
            sep = e.index(102)
            types[j, sep + 1:len(e)] = 1
        logits[idx] = sess.run(['logits'], {'input_ids': ids, 'attention_mask': mask, 'token_type_ids': types})[0].reshape(-1)
    print(f'  scored {len(encs)} pairs in {time.time() - t0:.0f} s', flush=True)
    out = by_claim(dev, where, logits)
    os.makedirs(cache, exist_ok=True)
    with open(file, 'w') as f:
        json.dump(out, f)
    return out


def by_claim(dev, where, logits):
    """Scored pairs put back per dataset and claim, in candidate order; `where` names each pair's (dataset, claim, ...)."""
    out = {name: [[] for _ in dev[name]] for name in DATASETS}
    for (name, qi, *_), x in zip(where, logits.tolist()):
        out[name][qi].append(x)
    return out


def cv_summary(held):
    """Mean and sd of each dataset's held-out folds, as curve.json and distill.json keep them."""
    return {n: {'mean': round(float(np.mean(held[n])), 4), 'sd': round(float(np.std(held[n])), 4)} for n in DATASETS}


def minmax(xs):
    a = np.asarray(xs, dtype=np.float64)
    span = a.max() - a.min()
    return (a - a.min()) / span if span > 0 else np.ones_like(a)


def ndcg10(ranked_docs, relevant):
    dcg = sum(1.0 / math.log2(i + 2) for i, d in enumerate(ranked_docs[:10]) if d in relevant)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(relevant), 10)))
    return dcg / ideal if ideal else 0.0


def claim_ndcg(r, model, depth, w):
    """nDCG@10 of one claim: the top `depth` reordered by the mix, the rest in fused order, one entry per document."""
    cands = r['cands']
    d = min(depth, len(cands))
    if d and w > 0:
        mixed = w * minmax(model[:d]) + (1 - w) * minmax([c['fused'] for c in cands[:d]])
        head = sorted(range(d), key=lambda i: (-mixed[i], cands[i]['snippet']))
    else:
        head = list(range(d))
    seen, ranked = set(), []
    for i in head + list(range(d, len(cands))):
        doc = cands[i]['doc']
        if doc not in seen:
            seen.add(doc)
            ranked.append(doc)
    return ndcg10(ranked, set(r['relevant']))


def table(dev, scores):
    """Per dataset, depth and weight: the nDCG@10 of every dev claim."""
    return {name: {depth: {w: [claim_ndcg(r, scores[name][qi], depth, w) for qi, r in enumerate(dev[name])] for w in WEIGHTS}
                   for depth in DEPTHS} for name in DATASETS}


def cross_validate(dev, per_claim, depth):
    """Held-out nDCG@10 per fold (weight chosen on the other folds), per dataset; and the chosen weights."""
    folds = {name: np.array([fold_of(name, r['id']) for r in dev[name]]) for name in DATASETS}
    held = {name: [] for name in DATASETS}
    chosen = []
    def fit_score(w, k):
        return np.mean([np.mean(np.array(per_claim[name][depth][w])[folds[name] != k]) for name in DATASETS])

    for k in range(FOLDS):
        w = max(WEIGHTS, key=lambda x: (round(fit_score(x, k), 6), -x))
        chosen.append(w)
        for name in DATASETS:
            held[name].append(float(np.mean(np.array(per_claim[name][depth][w])[folds[name] == k])))
    return held, chosen


def main():
    args = parse_args()
    dev = load_dev(args.limit)
    if args.first_stage == 'dump':
        dev = reorder_by_first_stage(dev)
    print('dev claims: ' + ', '.join(f'{n} {len(dev[n])}' for n in DATASETS), flush=True)
    cache = os.path.join(DATA, 'scores')
    base = {name: float(np.mean([claim_ndcg(r, [], 0, 0) for r in dev[name]])) for name in DATASETS}
    print(f'{args.first_stage} alone (its own order): ' + ', '.join(f'{n} {v:.4f}' for n, v in base.items()), flush=True)
    curve = {'first_stage': args.first_stage, 'first_stage_alone': base, 'settings': []}
    tables = {}
    for spec in args.variant:
        name, onnx_path = spec.split('=', 1)
        for inp in args.inputs.split(','):
            how, _, chars = inp.partition('@')
            print(f'{name} {inp}', flush=True)
            scores = score_all(onnx_path, dev, how, int(chars or 0), args.max_len, args.threads, cache)
            per_claim = table(dev, scores)
            tables[f'{name}:{inp}'] = per_claim
            for depth in DEPTHS:
                held, weights = cross_validate(dev, per_claim, depth)
                only = {n: float(np.mean(per_claim[n][depth][1.0])) for n in DATASETS}
                row = {'variant': name, 'input': inp, 'depth': depth, 'weights': weights,
                       'cv': cv_summary(held),
                       'model_alone': {n: round(v, 4) for n, v in only.items()}}
                curve['settings'].append(row)
                print(f"  depth {depth:>2}: " + '  '.join(f"{n} {row['cv'][n]['mean']:.4f} ± {row['cv'][n]['sd']:.4f}" for n in DATASETS)
                      + f"  (w per fold {weights}; model alone {only['scifact']:.4f} / {only['climate-fever']:.4f})", flush=True)
    with open(args.out, 'w') as f:
        json.dump(curve, f, indent=1)
    print(f'wrote {args.out}')
    if args.choose and args.write:
        variant, inp, depth = args.choose.split(':')
        depth = int(depth)
        per_claim = tables[f'{variant}:{inp}']
        w = max(WEIGHTS, key=lambda x: (round(np.mean([np.mean(per_claim[n][depth][x]) for n in DATASETS]), 6), -x))
        how, _, chars = inp.partition('@')
        row = next(s for s in curve['settings'] if s['variant'] == variant and s['input'] == inp and s['depth'] == depth)
        fitted = {'depth': depth, 'weight': w, 'input': how, **({'chars': int(chars)} if chars else {}),
                  'fitted': {'on': 'our dev split of SciFact claims_train.jsonl and Climate-FEVER claims.jsonl (eval/splits.ts)',
                             'weight': 'best mean nDCG@10 over both datasets on all dev claims; 5-fold choice per fold: ' + str(row['weights']),
                             'dev_ndcg10_cv': row['cv'], 'variant': variant}}
        with open(os.path.join(args.write, 'rerank.json'), 'w') as f:
            json.dump(fitted, f, indent=2)
            f.write('\n')
        print(f'wrote {os.path.join(args.write, "rerank.json")}: depth {depth}, weight {w}, input {inp}')


if __name__ == '__main__':
    main()
