"""The stance pair model (models/quin-nli/model.onnx): reads the claim against one evidence passage
word by word and gives P(supports), P(refutes), P(neither) — served in the NLI role as a standard
Hugging Face sequence-classification folder (input_ids, attention_mask, token_type_ids of a BERT
pair premise = evidence, hypothesis = claim → logits; config.json id2label).

Architecture (ESIM / decomposable attention, Chen et al. 2017, Parikh et al. 2016, over frozen
pre-trained word vectors, since no pre-trained transformer can be had here):
  words    GloVe 6B 100-d (frozen, int8 rows inside the graph) + a small trained vector per token,
           + per-word alignment flags computed in the graph: the same word on the other side, a
           WordNet antonym on the other side, a number, a negation word, a hedge;
  context  two masked convolutions (kernel 3) with residuals;
  align    cross attention between the two sides (each word attends to the other text only);
  compare  [h; ã; h − ã; h ⊙ ã] through a feed-forward layer, per word;
  pool     mean and max over each side, plus pair counts (claim numbers absent from the evidence,
           negation on one side only, antonym pairs);
  decide   MLP → 3 logits.

Data: .cache/training/stance/pairs.jsonl (build-pairs.ts). Each set's pairs are class-balanced and
each set weighs SET_WEIGHT × sqrt(its size) in the loss, so that no large set drowns the others.
The epoch is chosen on the mean macro-F1 of the held-out splits named in SELECT (never on a test
split). Deterministic on CPU (fixed seeds, one thread).

    /usr/bin/python3 training/stance/train_pair.py [--epochs N] [--dim D] [--out DIR] [--device cuda]
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
from torch import nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from common import CACHE, CLS, SEP, ROOT, SHARED, glove_matrix, macro_f1, quantize_rows, seed_everything, token_tables, vocab, write_folder  # noqa: E402

SEED = 20261126
LABELS = ['entailment', 'contradiction', 'neutral']
PAIRS = os.path.join(CACHE, 'stance', 'pairs.jsonl')
LEXICONS = os.path.join(SHARED, 'nli', 'lexicons')
# Relative weight of each set in the loss (× sqrt of its size). Argumentative stance (Perspectrum,
# ARC, LIAR) is not factual support, so it weighs less; general NLI teaches negation and quantifiers.
SET_WEIGHT = {
    'fever': 1.0, 'fever-gen': 0.6, 'fever-nei': 0.6, 'scifact': 1.5, 'climate-fever': 1.2, 'healthver': 1.5, 'covidfact': 0.8,
    'news': 1.5, 'news-gen': 0.8, 'fnc1': 0.8, 'fnc1-unrelated': 0.3, 'arc': 0.3, 'arc-unrelated': 0.2, 'wice': 1.0,
    'sick': 0.6, 'cad_snli': 0.8, 'med': 0.5, 'rte': 0.6, 'perspectrum': 0.3, 'liar': 0.3,
    'scifact-retrieved': 1.0, 'news-retrieved': 1.0,
}
# In-domain profile: the sets closest to what the verdict reads (news, science, health, climate) weigh double.
IN_DOMAIN = {'scifact', 'climate-fever', 'healthver', 'news', 'news-gen', 'covidfact', 'fnc1', 'wice'}
PROFILES = {'base': lambda s: SET_WEIGHT.get(s, 0.5), 'domain': lambda s: SET_WEIGHT.get(s, 0.5) * (2.0 if s in IN_DOMAIN else 1.0)}
# Held-out splits the epoch is chosen on (dev splits only; test splits are reported, never chosen on).
SELECT = ['fever:dev', 'healthver:dev', 'scifact:dev', 'climate-fever:dev', 'covidfact:dev', 'cad_snli:dev', 'news:dev']
LABEL_ID = {'SUPPORTS': 0, 'REFUTES': 1, 'NOT_ENOUGH_INFO': 2}
ANT_SLOTS = 6
SUFFIXES = ['s', 'es', 'ed', 'd', 'ing', 'er', 'est', 'ly']
NEGATIONS = set("not no never nothing none nobody nowhere neither nor cannot without lack lacks lacked lacking fail fails failed absence absent deny denies denied n't".split())


def inflect(w, suf):
    if w.endswith('e') and suf[0] in 'aeiou':
        return w[:-1] + suf
    if w.endswith('y') and suf in ('er', 'est', 'ed', 'es'):
        return w[:-1] + 'i' + suf
    return w + suf


def word_tables(tokens):
    """Per token: negation word, hedge word, and up to ANT_SLOTS antonym token ids (WordNet 3.0 direct antonyms, inflected)."""
    index = {t: i for i, t in enumerate(tokens)}
    neg = np.zeros(len(tokens), dtype=np.float32)
    hedge = np.zeros(len(tokens), dtype=np.float32)
    with open(os.path.join(LEXICONS, 'ukp_ida', 'negation_words.txt'), encoding='utf8') as f:
        negs = NEGATIONS | {w.strip().lower() for w in f if w.strip() and ' ' not in w.strip()}
    for w in negs:
        if w in index:
            neg[index[w]] = 1.0
    with open(os.path.join(LEXICONS, 'ukp_ida', 'hedges.txt'), encoding='utf8') as f:
        for w in f:
            w = w.strip().lower()
            if w in index and ' ' not in w:
                hedge[index[w]] = 1.0
    pairs = {}
    with open(os.path.join(LEXICONS, 'wordnet30_antonyms.tsv'), encoding='utf8') as f:
        for line in f:
            parts = line.rstrip('\n').split('\t')
            if len(parts) < 3:
                continue
            a, b = parts[1].lower(), parts[2].lower()
            for x, y in [(a, b), (b, a)]:
                for p, q in [(x, y)] + [(inflect(x, s), inflect(y, s)) for s in SUFFIXES]:
                    if p in index and q in index and p != q:
                        pairs.setdefault(p, set()).add(q)
    ant = np.full((len(tokens), ANT_SLOTS), -1, dtype=np.int64)
    for a, bs in pairs.items():
        ids = sorted(index[b] for b in bs)[:ANT_SLOTS]
        ant[index[a], :len(ids)] = ids
    print(f'lexicon: {int(neg.sum())} negation and {int(hedge.sum())} hedge tokens, {len(pairs)} tokens with antonyms', flush=True)
    return neg, hedge, ant


class PairModel(nn.Module):
    def __init__(self, emb_q, emb_scale, tables, dim, own_dim, dropout, encoder='conv'):
        super().__init__()
        self.encoder = encoder
        content, isnum, neg, hedge, ant = tables
        for name, val in [('emb_q', emb_q), ('emb_scale', emb_scale), ('content', content), ('isnum', isnum), ('neg', neg), ('hedge', hedge), ('ant', ant)]:
            self.register_buffer(name, torch.tensor(val))
        self.own = nn.Embedding(len(emb_scale), max(1, own_dim))
        nn.init.normal_(self.own.weight, std=0.02 if own_dim else 0.0)
        self.own.weight.requires_grad = own_dim > 0
        own_dim = max(1, own_dim)
        n_flags = 7
        self.inp = nn.Linear(100 + own_dim + n_flags, dim)
        self.conv1 = nn.Conv1d(dim, dim, 3, padding=1)
        self.conv2 = nn.Conv1d(dim, dim, 3, padding=1)
        if encoder == 'bilstm':
            self.lstm = nn.LSTM(dim, dim // 2, batch_first=True, bidirectional=True)
        self.compare = nn.Sequential(nn.Linear(4 * dim + n_flags, dim), nn.ReLU(), nn.Dropout(dropout), nn.Linear(dim, dim), nn.ReLU())
        self.drop = nn.Dropout(dropout)
        self.head = nn.Sequential(nn.Linear(4 * dim + 6, dim), nn.ReLU(), nn.Dropout(dropout), nn.Linear(dim, 3))

    def forward(self, input_ids, attention_mask, token_type_ids):
        am = attention_mask.float()
        seg = token_type_ids.float()
        real = am * (input_ids != CLS).float() * (input_ids != SEP).float()
        pm, hm = real * (1 - seg), real * seg  # premise (evidence) and hypothesis (claim) words
        other = (seg.unsqueeze(2) != seg.unsqueeze(1)).float() * real.unsqueeze(2) * real.unsqueeze(1)  # [B, L, L]
        # Per-word flags: the same token / an antonym on the other side, number, negation, hedge, segment.
        same_tok = (input_ids.unsqueeze(2) == input_ids.unsqueeze(1)).float()
        exact = (same_tok * other).amax(dim=2)
        a = self.ant[input_ids]  # [B, L, S]
        ant_hit = ((a.unsqueeze(2) == input_ids.unsqueeze(1).unsqueeze(3)).float().amax(dim=3) * other).amax(dim=2)
        num = self.isnum[input_ids] * real
        ng = self.neg[input_ids] * real
        hg = self.hedge[input_ids] * real
        cont = self.content[input_ids] * real
        flags = torch.stack([exact, ant_hit, num, ng, hg, cont, seg * real], dim=2)
        e = self.emb_q[input_ids].float() * self.emb_scale[input_ids].unsqueeze(-1)
        x = torch.relu(self.inp(torch.cat([e, self.own(input_ids), flags], dim=2))) * am.unsqueeze(-1)
        if self.encoder == 'bilstm':
            h = x + self.lstm(self.drop(x))[0] * am.unsqueeze(-1)
        else:
            h = x.transpose(1, 2)
            h = h + torch.relu(self.conv1(self.drop(h))) * am.unsqueeze(1)
            h = h + torch.relu(self.conv2(self.drop(h))) * am.unsqueeze(1)
            h = h.transpose(1, 2)  # [B, L, D]
        # Cross attention: each word attends to the words of the other text only.
        s = torch.matmul(h, h.transpose(1, 2)) / math.sqrt(h.shape[-1])
        s = s.masked_fill(other == 0, -1e4)
        att = torch.softmax(s, dim=2) * (other.sum(2, keepdim=True) > 0).float()
        aligned = torch.matmul(att, h)
        c = self.compare(torch.cat([h, aligned, h - aligned, h * aligned, flags], dim=2))

        def pool(mask):
            m = mask.unsqueeze(-1)
            mean = (c * m).sum(1) / (m.sum(1) + 1e-6)
            mx = (c * m - 1e4 * (1 - m)).amax(dim=1)
            return mean, torch.where(m.sum(1) > 0, mx, torch.zeros_like(mx))

        pmean, pmax = pool(pm)
        hmean, hmax = pool(hm)
        # Pair counts: claim numbers the evidence lacks, negation on one side only, antonym pairs, claim coverage.
        num_missing = (num * seg * (1 - exact)).sum(1)
        neg_diff = torch.abs((ng * (1 - seg)).sum(1).clamp(max=1) - (ng * seg).sum(1).clamp(max=1))
        antonyms = (ant_hit * hm).sum(1)
        cover = (exact * cont * hm).sum(1) / ((cont * hm).sum(1) + 1e-6)
        hedges = (hg * pm).sum(1).clamp(max=2)
        counts = torch.stack([num_missing.clamp(max=3), neg_diff, antonyms.clamp(max=2), cover, hedges, torch.log1p(hm.sum(1))], dim=1)
        return self.head(torch.cat([pmean, pmax, hmean, hmax, counts], dim=1))


def pad(rows, device):
    n = max(len(r['ids']) for r in rows)
    ids = torch.zeros((len(rows), n), dtype=torch.long)
    mask = torch.zeros((len(rows), n), dtype=torch.long)
    types = torch.zeros((len(rows), n), dtype=torch.long)
    for i, r in enumerate(rows):
        k = len(r['ids'])
        ids[i, :k] = torch.tensor(r['ids'])
        mask[i, :k] = 1
        first_sep = r['ids'].index(SEP) if SEP in r['ids'] else k - 1
        types[i, first_sep + 1:k] = 1
    return ids.to(device), mask.to(device), types.to(device)


def batches(rows, size, rng):
    """Batches of similar length (less padding), in random order."""
    order = sorted(range(len(rows)), key=lambda i: (len(rows[i]['ids']), rng.random()))
    chunks = [order[i:i + size] for i in range(0, len(order), size)]
    rng.shuffle(chunks)
    return chunks


def loss_weights(rows, profile='base'):
    """Class-balanced within each set; each set's total weight ∝ SET_WEIGHT × sqrt(size); mean 1."""
    weight = PROFILES[profile]
    by = {}
    for r in rows:
        by.setdefault(r['set'], {}).setdefault(r['label'], 0)
        by[r['set']][r['label']] += 1
    w = np.zeros(len(rows))
    for i, r in enumerate(rows):
        labels = by[r['set']]
        n = sum(labels.values())
        w[i] = weight(r['set']) * math.sqrt(n) / (len(labels) * labels[r['label']])
    return w / w.mean()


def predict(model, rows, device, size=256):
    model.eval()
    out = np.zeros((len(rows), 3), dtype=np.float32)
    order = sorted(range(len(rows)), key=lambda i: len(rows[i]['ids']))
    with torch.no_grad():
        for i in range(0, len(order), size):
            idx = order[i:i + size]
            out[idx] = torch.softmax(model(*pad([rows[j] for j in idx], device)), dim=1).cpu().numpy()
    model.train()
    return out


def report(model, held, device):
    res = {}
    for key, rows in held.items():
        p = predict(model, rows, device).argmax(1)
        gold = [LABEL_ID[r['label']] for r in rows]
        used = sorted(set(gold))
        # A prediction outside the labels a set uses counts as wrong (as `quin eval stance` scores it).
        res[key] = {'n': len(rows), 'accuracy': round(float(np.mean([g == q for g, q in zip(gold, p)])), 4), 'macro_f1': round(macro_f1(gold, list(p), used), 4)}
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--epochs', type=int, default=int(os.environ.get('QUIN_PAIR_EPOCHS', '4')))
    ap.add_argument('--dim', type=int, default=int(os.environ.get('QUIN_PAIR_DIM', '128')))
    ap.add_argument('--own-dim', type=int, default=32)
    ap.add_argument('--dropout', type=float, default=0.2)
    ap.add_argument('--lr', type=float, default=1e-3)
    ap.add_argument('--batch', type=int, default=32)
    ap.add_argument('--limit', type=int, default=0, help='train on the first N shuffled pairs (a quick check)')
    ap.add_argument('--out', default=os.path.join(ROOT, 'models', 'quin-nli'))
    ap.add_argument('--device', default='cpu')
    ap.add_argument('--threads', type=int, default=1)
    ap.add_argument('--no-export', action='store_true')
    ap.add_argument('--profile', default='base', choices=sorted(PROFILES))
    ap.add_argument('--encoder', default='conv', choices=['conv', 'bilstm'])
    ap.add_argument('--folds', type=int, default=0, help='cross-validation: hold out fold --fold of the training claims (by group)')
    ap.add_argument('--fold', type=int, default=0)
    ap.add_argument('--results', default='', help='write the held-out numbers of every epoch here (JSON)')
    args = ap.parse_args()
    seed_everything(SEED)
    torch.set_num_threads(args.threads)
    device = torch.device(args.device)
    rows = [json.loads(line) for line in open(PAIRS, encoding='utf8') if line.strip()]
    train = [r for r in rows if r['split'] == 'train']
    held = {}
    for r in rows:
        if r['split'] != 'train':
            held.setdefault(f"{r['set'].replace('-unrelated', '')}:{r['split']}", []).append(r)
    if args.folds:
        # Fold by claim group (sha-like stable hash), so that a claim's pairs stay on one side.
        fold_of = lambda g: int.from_bytes(__import__('hashlib').sha256(g.encode()).digest()[:4], 'big') % args.folds
        for r in train:
            if fold_of(r['group']) == args.fold:
                held.setdefault(f"{r['set']}:cv", []).append(r)
        train = [r for r in train if fold_of(r['group']) != args.fold]
    rng = random.Random(SEED)
    if args.limit:
        rng.shuffle(train)
        train = train[:args.limit]
    w = loss_weights(train, args.profile)
    tokens = vocab()
    emb_q, emb_scale = quantize_rows(glove_matrix(tokens))
    content, isnum = token_tables(tokens)
    neg, hedge, ant = word_tables(tokens)
    model = PairModel(emb_q, emb_scale, (content, isnum, neg, hedge, ant), args.dim, args.own_dim, args.dropout, args.encoder).to(device)
    n_params = sum(p.numel() for p in model.parameters())
    print(f'train {len(train)} pairs, {n_params:,} trained parameters, device {device}', flush=True)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    steps = args.epochs * math.ceil(len(train) / args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps, pct_start=max(0.1, 2.0 / steps), anneal_strategy='linear')
    history, best = [], (-1.0, 0, None)
    for epoch in range(1, args.epochs + 1):
        t0, total, seen = time.time(), 0.0, 0
        for k, idx in enumerate(batches(train, args.batch, rng)):
            b = [train[i] for i in idx]
            logits = model(*pad(b, device))
            gold = torch.tensor([LABEL_ID[r['label']] for r in b], device=device)
            per = nn.functional.cross_entropy(logits, gold, reduction='none', label_smoothing=0.05)
            loss = (per * torch.tensor(w[idx], dtype=torch.float32, device=device)).mean()
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
            sched.step()
            total += loss.item() * len(b)
            seen += len(b)
            if k % 500 == 0:
                print(f'  epoch {epoch} batch {k}: loss {total / seen:.4f}, {seen / (time.time() - t0):.0f} pairs/s', flush=True)
        ev = report(model, held, device)
        key = float(np.mean([ev[s]['macro_f1'] for s in SELECT if s in ev]))
        history.append({'epoch': epoch, 'loss': round(total / seen, 4), 'select': round(key, 4), 'seconds': round(time.time() - t0), 'held_out': ev})
        print(json.dumps({k: v for k, v in history[-1].items() if k != 'held_out'}), flush=True)
        for s, m in sorted(ev.items()):
            print(f'    {s:22s} n={m["n"]:6d} acc={m["accuracy"]:.4f} macroF1={m["macro_f1"]:.4f}', flush=True)
        if args.results:
            with open(args.results, 'w') as f:
                json.dump({'settings': vars(args), 'history': history}, f)
        if key > best[0]:
            best = (key, epoch, {k: v.detach().clone() for k, v in model.state_dict().items()})
    model.load_state_dict(best[2])
    model.eval().cpu()
    if not args.no_export:
        export(model, history, best[1], train, args, n_params)


def export(model, history, best_epoch, sample, args, n_params):
    os.makedirs(args.out, exist_ok=True)
    ids, mask, types = pad(sample[:2], 'cpu')
    # The TorchScript exporter (torch ≥ 2.5 defaults to the dynamo one, which Debian's 1.13 lacks).
    legacy = {'dynamo': False} if 'dynamo' in __import__('inspect').signature(torch.onnx.export).parameters else {}
    torch.onnx.export(model, (ids, mask, types), os.path.join(args.out, 'model.onnx'), input_names=['input_ids', 'attention_mask', 'token_type_ids'],
                      output_names=['logits'], dynamic_axes={n: {0: 'batch', 1: 'sequence'} for n in ['input_ids', 'attention_mask', 'token_type_ids']} | {'logits': {0: 'batch'}},
                      opset_version=14, **legacy)
    chosen = history[best_epoch - 1]
    config = {'architectures': ['QuinPairForSequenceClassification'], 'model_type': 'quin-pair', 'quin_model': 'nli',
              'id2label': {str(i): name for i, name in enumerate(LABELS)}, 'label2id': {name: i for i, name in enumerate(LABELS)},
              'max_position_embeddings': 128, 'hidden_size': args.dim, 'seed': SEED, 'trained_epochs': best_epoch, 'parameters': n_params}
    metrics = {'labels': LABELS, 'chosen_epoch': best_epoch, 'select_on': SELECT, 'held_out': chosen['held_out'], 'history': history,
               'settings': {k: v for k, v in vars(args).items() if k not in ('out',)}, 'set_weight': SET_WEIGHT}
    write_folder(args.out, config, None, metrics)
    # Parity fixture: onnxruntime in Node must give these PyTorch probabilities (lib/models/own-models.test.ts).
    rows = sorted(sample, key=lambda r: (len(r['ids']), r['claim']))[::max(1, len(sample) // 8)][:8]
    probs = predict(model, rows, 'cpu')
    with open(os.path.join(args.out, 'parity.json'), 'w') as f:
        json.dump([{'evidence': r['evidence'], 'claim': r['claim'], 'ids': r['ids'], 'probs': [round(float(x), 6) for x in p]} for r, p in zip(rows, probs)], f, indent=1)
        f.write('\n')
    print('wrote', args.out, flush=True)


if __name__ == '__main__':
    main()
