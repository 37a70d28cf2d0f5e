"""Smaller rerankers distilled from the 6-layer one (train_reranker.py's, which run.sh writes to
.cache/training/reranker/teacher): the layers axis of the quality/latency curve (docs/models.md) and the
served reranker (4 layers). A student keeps some of the teacher's own fine-tuned layers
(`--student NAME=LAYERS`, e.g. 3L=0,1,2 or 3Lskip=0,2,4) with its embeddings, pooler and head, and is
trained on the reranker's own training groups (train_reranker.py's draw, rendering and batching) with
loss = alpha · listwise cross-entropy on the relevant passage + (1 − alpha) · T² · KL(teacher ‖ student)
over the group's softmax at temperature T. The teacher is read from its int8 graph, dequantised
(common.state_from_int8_onnx), so a machine with a GPU needs only that folder and the data: the fp32
weights it was exported from are not needed. Word embeddings stay frozen, as in train_reranker.py.

Each student is then scored on our dev split exactly as curve.py scores a variant (its logits for the
top 50 hybrid candidates of every SciFact and Climate-FEVER dev claim; the weight chosen by 5-fold
cross-validation), in PyTorch fp32, beside the teacher read the same way. The students' weights come
back without the word-embedding table (the teacher's, frozen) as STUDENT.pt; export_student.py joins them into
an int8 ONNX folder on the CPU machine, where curve.py and `quin eval` score the int8 graph.

    python3 training/reranker/distill.py --device cuda --out OUT --student 3L=0,1,2 [--student 2L=0,1]
        [--lists 12000] [--batch 8] [--lr 1e-4] [--alpha 0.5] [--temperature 2] [--budget 420]
"""
import argparse
import functools
import json
import os
import sys
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, '..'))
import curve  # noqa: E402
from common import bert_tokenizer, pair_tensors, seed_everything, state_from_int8_onnx  # noqa: E402
from passage import render  # noqa: E402
from train_reranker import DATA, SEED, group_mean, groups, listwise_ce, optimiser, plan_batches, read_lists, update  # noqa: E402

# The 6-layer model run.sh trains: the served folder (models/quin-reranker) holds the student.
TEACHER = os.path.join(DATA, 'teacher')
INPUTS = [('window', 0), ('best', 320)]
EVAL_DEPTHS = [10, 15, 20, 30, 40, 50]


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument('--student', action='append', default=[], help="NAME=teacher layers kept, e.g. 3L=0,1,2; NAME may end in ':alpha=A'")
    p.add_argument('--teacher', default=TEACHER)
    p.add_argument('--lists', type=int, default=12000, help='training groups drawn')
    p.add_argument('--group', type=int, default=8)
    p.add_argument('--batch', type=int, default=8, help='groups per optimiser step')
    p.add_argument('--lr', type=float, default=1e-4)
    p.add_argument('--warmup', type=float, default=0.06)
    p.add_argument('--alpha', type=float, default=0.5, help='weight of the hard-label loss (1 − alpha on the teacher)')
    p.add_argument('--temperature', type=float, default=2.0)
    p.add_argument('--max-len', type=int, default=128)
    p.add_argument('--device', default='cpu')
    p.add_argument('--seed', type=int, default=SEED)
    p.add_argument('--data', default=os.path.join(DATA, 'lists.jsonl'))
    p.add_argument('--dev-limit', type=int, help='first N dev claims per dataset (a smoke test)')
    p.add_argument('--budget', type=float, default=1e9, help='seconds: students not started by then are skipped')
    p.add_argument('--out', required=True)
    return p.parse_args()


def parse_student(spec, default_alpha):
    name, _, layers = spec.partition('=')
    layers, _, opts = layers.partition(':')
    alpha = float(opts.split('=')[1]) if opts.startswith('alpha=') else default_alpha
    return name, [int(x) for x in layers.split(',')], alpha


def pick_layers(state, keep):
    """The state with only the encoder layers `keep`, renumbered 0, 1, … in that order; everything else as it is."""
    picked = {}
    for k, v in state.items():
        parts = k.split('.')
        if k.startswith('bert.encoder.layer.'):
            src = int(parts[3])
            if src not in keep:
                continue
            parts[3] = str(keep.index(src))
        picked['.'.join(parts)] = v
    return picked


def build(config_file, state, keep):
    """A BERT cross-encoder of the teacher's config with its layers `keep` (in that order) and everything else."""
    from transformers import BertConfig, BertForSequenceClassification
    cfg = BertConfig.from_json_file(config_file)
    cfg.num_hidden_layers = len(keep)
    model = BertForSequenceClassification(cfg)
    missing, unexpected = model.load_state_dict(pick_layers(state, keep), strict=False)
    missing = [m for m in missing if not m.endswith('position_ids')]
    if missing or unexpected:
        raise ValueError(f'state does not fit: missing {missing}, unexpected {unexpected}')
    model.bert.embeddings.word_embeddings.weight.requires_grad = False
    return model


def group_loss(s, t, alpha, temp):
    """Listwise CE on the relevant passage (first) mixed with the KL from the teacher's softened distribution."""
    hard = listwise_ce(s)
    soft = torch.nn.functional.kl_div(torch.log_softmax(s / temp, -1), torch.log_softmax(t / temp, -1), log_target=True, reduction='sum')
    return alpha * hard + (1 - alpha) * temp * temp * soft


def train(model, teacher, plan, args, alpha, device):
    total = len(plan)
    params, opt, sched = optimiser(model, args.lr, args.warmup, total)
    model.train()
    log, running = [], []
    for step, batch in enumerate(plan, 1):
        rows = [r for _, g in batch for r in g]
        ids, mask, types = pair_tensors(rows, device)
        with torch.no_grad():
            t_logits = teacher(input_ids=ids, attention_mask=mask, token_type_ids=types).logits.view(-1)
        s_logits = model(input_ids=ids, attention_mask=mask, token_type_ids=types).logits.view(-1)
        loss = group_mean(batch, functools.partial(group_loss, alpha=alpha, temp=args.temperature), s_logits, t_logits)
        update(loss, params, opt, sched)
        running.append(loss.item())
        if step % 100 == 0 or step == total:
            log.append({'step': step, 'loss': round(float(np.mean(running[-100:])), 4)})
            print(f'  step {step}/{total} loss {log[-1]["loss"]:.4f}', flush=True)
    model.eval()
    return log


def dev_pairs(dev, tok):
    """Per input: the tokenised (claim, passage) pairs of every dev claim's top MAX_DEPTH candidates, and where each goes."""
    out = {}
    for how, chars in INPUTS:
        pairs, where = [], []
        for name in curve.DATASETS:
            for qi, r in enumerate(dev[name]):
                for c in r['cands'][:curve.MAX_DEPTH]:
                    pairs.append((r['claim'], render(curve.as_cand(c), how, chars)))
                    where.append((name, qi))
        out[(how, chars)] = ([e.ids for e in tok.encode_batch(pairs)], where)
    return out


@torch.no_grad()
def score(model, encs, where, dev, device, batch=256):
    """curve.score_all's output (logits per dataset, claim, candidate) from a PyTorch model."""
    order = sorted(range(len(encs)), key=lambda i: len(encs[i]))
    logits = np.zeros(len(encs), dtype=np.float32)
    for at in range(0, len(order), batch):
        idx = order[at:at + batch]
        ids, mask, types = pair_tensors([encs[i] for i in idx], device)
        logits[idx] = model(input_ids=ids, attention_mask=mask, token_type_ids=types).logits.view(-1).float().cpu().numpy()
    return curve.by_claim(dev, where, logits)


def evaluate(model, pairs, dev, device):
    """Held-out-fold nDCG@10 (mean ± sd over 5 folds, weight chosen on the other four) per input and depth."""
    rows = []
    for (how, chars), (encs, where) in pairs.items():
        per_claim = curve.table(dev, score(model, encs, where, dev, device))
        for depth in EVAL_DEPTHS:
            held, weights = curve.cross_validate(dev, per_claim, depth)
            rows.append({'input': f'{how}@{chars}' if chars else how, 'depth': depth, 'weights': weights, 'cv': curve.cv_summary(held)})
    return rows


def print_rows(name, rows):
    for r in rows:
        print(f"  {name} {r['input']:>8} depth {r['depth']:>2}: "
              + '  '.join(f"{n} {r['cv'][n]['mean']:.4f} ± {r['cv'][n]['sd']:.4f}" for n in curve.DATASETS), flush=True)


def save_student(model, file):
    """The trained weights but the frozen word-embedding table, as fp16 (the int8 export rounds far more)."""
    state = {k: v.detach().to('cpu', torch.float16) for k, v in model.state_dict().items()
             if k != 'bert.embeddings.word_embeddings.weight' and not k.endswith('position_ids')}
    torch.save(state, file)


def main():
    args = parse_args()
    start = time.time()
    device = torch.device(args.device)
    os.makedirs(args.out, exist_ok=True)
    tok = bert_tokenizer(args.max_len)
    state = state_from_int8_onnx(os.path.join(args.teacher, 'model.onnx'))
    config_file = os.path.join(args.teacher, 'config.json')
    seed_everything(args.seed)
    with open(config_file) as f:
        depth = json.load(f)['num_hidden_layers']
    wanted = max(k for spec in args.student for k in parse_student(spec, args.alpha)[1]) if args.student else -1
    if wanted >= depth:
        raise SystemExit(f'{args.teacher} has {depth} layers: a student cannot keep layer {wanted}')
    teacher = build(config_file, state, list(range(depth))).to(device).eval()
    plan = plan_batches(groups(read_lists(args.data), args.lists, args.group, args.seed), tok, args.batch, args.seed)
    dev = curve.load_dev(args.dev_limit)
    pairs = dev_pairs(dev, tok)
    print(f'{len(plan)} steps of {args.batch} groups; dev ' + ', '.join(f'{n} {len(dev[n])}' for n in curve.DATASETS)
          + f'; ready in {time.time() - start:.0f} s', flush=True)
    results = {'args': vars(args), 'teacher': evaluate(teacher, pairs, dev, device), 'students': []}
    print_rows('teacher', results['teacher'])
    for spec in args.student:
        if time.time() - start > args.budget:
            print(f'skipped {spec}: over the budget', flush=True)
            continue
        name, keep, alpha = parse_student(spec, args.alpha)
        seed_everything(args.seed)
        model = build(config_file, state, keep).to(device)
        t0 = time.time()
        log = train(model, teacher, plan, args, alpha, device)
        took = time.time() - t0
        rows = evaluate(model, pairs, dev, device)
        print_rows(name, rows)
        results['students'].append({'name': name, 'layers': keep, 'alpha': alpha, 'train_s': round(took, 1), 'log': log, 'dev': rows})
        save_student(model, os.path.join(args.out, f'{name}.pt'))
        with open(os.path.join(args.out, 'distill.json'), 'w') as f:
            json.dump(results, f, indent=1)
    with open(os.path.join(args.out, 'distill.json'), 'w') as f:
        json.dump(results, f, indent=1)
    print(f'done in {time.time() - start:.0f} s', flush=True)


if __name__ == '__main__':
    main()
