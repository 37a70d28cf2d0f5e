"""The stance head of quin-nli: a linear layer over frozen Universal Sentence Encoder Lite vectors of
the claim (u) and the evidence sentence (v), [u; v; |u−v|; u·v] (the seed paper's NLI input, USE
being trained with an NLI task among others), plus quin-nli's own log-probabilities, giving refined
entailment / contradiction / neutral logits. quin-nli reads words (GloVe); the head adds what a
pre-trained sentence encoder knows about the two sentences as wholes.

Reads .cache/training/stance/{pairs.jsonl,vectors.f32} (training/prepare-stance.ts: the same
SciFact and Climate-FEVER pairs as quin-nli, USE-lite vectors from the product's embedding cache,
quin-nli's probabilities); trains on the train split, chooses the epoch on the mean dev macro-F1 of
SciFact and Climate-FEVER, and writes models/quin-nli/stance-head.onnx + stance-head.json.

    /usr/bin/python3 training/train_stance_head.py
"""
import json
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
from common import CACHE, ROOT, macro_f1, seed_everything  # noqa: E402

SEED = 20240611
EPOCHS = 30
BATCH = 64
LR = 1e-3
WEIGHT_DECAY = 1e-3
DIM = 512
ENCODER = 'use-lite@0.2.0'
LABELS = ['entailment', 'contradiction', 'neutral']
SRC = os.path.join(CACHE, 'stance')
OUT = os.path.join(ROOT, 'models', 'quin-nli')


class StanceHead(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.linear = torch.nn.Linear(4 * dim + 3, 3)

    def forward(self, claim_vector, evidence_vector, nli_probs):
        u, v = claim_vector, evidence_vector
        x = torch.cat([u, v, torch.abs(u - v), u * v, torch.log(nli_probs + 1e-6)], dim=1)
        return self.linear(x)


def load():
    rows = [json.loads(line) for line in open(os.path.join(SRC, 'pairs.jsonl'), encoding='utf8') if line.strip()]
    vectors = np.fromfile(os.path.join(SRC, 'vectors.f32'), dtype=np.float32).reshape(-1, DIM)
    u = torch.tensor(vectors[[r['u'] for r in rows]])
    v = torch.tensor(vectors[[r['v'] for r in rows]])
    p = torch.tensor(np.array([r['p'] for r in rows], dtype=np.float32))
    y = torch.tensor([r['label'] for r in rows])
    return rows, u, v, p, y


def scores(pred, y, mask):
    idx = np.where(mask)[0]
    gold, guess = y[idx].tolist(), pred[idx].tolist()
    return {'n': len(idx), 'accuracy': float(np.mean([g == p for g, p in zip(gold, guess)])) if len(idx) else 0.0, 'macro_f1': macro_f1(gold, guess, [0, 1, 2])}


def evaluate(pred, y, rows):
    src = np.array([r['src'] for r in rows])
    dev = np.array([r['split'] == 'dev' for r in rows])
    return {'scifact_dev': scores(pred, y, dev & (src == 'scifact')), 'climate_fever_dev': scores(pred, y, dev & (src == 'climate-fever'))}


def train():
    seed_everything(SEED)
    torch.set_num_threads(1)
    rows, u, v, p, y = load()
    train_idx = np.array([i for i, r in enumerate(rows) if r['split'] == 'train'])
    counts = np.bincount(y[train_idx].numpy(), minlength=3)
    weights = torch.tensor(counts.sum() / (3 * counts), dtype=torch.float32)
    print(f'train {len(train_idx)} pairs (by label {counts.tolist()}), dev {len(rows) - len(train_idx)}')
    baseline = evaluate(p.argmax(1), y, rows)
    print('quin-nli alone', baseline)
    model = StanceHead(DIM)
    opt = torch.optim.Adam(model.parameters(), lr=LR, weight_decay=WEIGHT_DECAY)
    rs = np.random.RandomState(SEED)
    history, best = [], (-1.0, 0, None)
    for epoch in range(1, EPOCHS + 1):
        model.train()
        order = rs.permutation(train_idx)
        total = 0.0
        for b in range(0, len(order), BATCH):
            j = torch.tensor(order[b:b + BATCH])
            loss = torch.nn.functional.cross_entropy(model(u[j], v[j], p[j]), y[j], weight=weights)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(j)
        model.eval()
        with torch.no_grad():
            pred = model(u, v, p).argmax(1)
        ev = evaluate(pred, y, rows)
        history.append({'epoch': epoch, 'loss': total / len(train_idx), **ev})
        key = (ev['scifact_dev']['macro_f1'] + ev['climate_fever_dev']['macro_f1']) / 2
        print(f'epoch {epoch}: loss {total / len(train_idx):.4f} scifact dev F1 {ev["scifact_dev"]["macro_f1"]:.4f} climate-fever dev F1 {ev["climate_fever_dev"]["macro_f1"]:.4f}', flush=True)
        if key > best[0]:
            best = (key, epoch, {k: t.clone() for k, t in model.state_dict().items()})
    model.load_state_dict(best[2])
    model.eval()
    return model, history, best[1], baseline, (u[:2], v[:2], p[:2])


def export(model, history, best_epoch, baseline, sample):
    path = os.path.join(OUT, 'stance-head.onnx')
    torch.onnx.export(model, sample, path, input_names=['claim_vector', 'evidence_vector', 'nli_probs'], output_names=['logits'],
                      dynamic_axes={'claim_vector': {0: 'batch'}, 'evidence_vector': {0: 'batch'}, 'nli_probs': {0: 'batch'}, 'logits': {0: 'batch'}},
                      opset_version=14)
    final = history[best_epoch - 1]
    meta = {'encoder': ENCODER, 'dim': DIM, 'labels': LABELS, 'seed': SEED, 'trained_epochs': best_epoch,
            'dev': {'quin-nli': baseline, 'with_head': {k: final[k] for k in ('scifact_dev', 'climate_fever_dev')}}}
    with open(os.path.join(OUT, 'stance-head.json'), 'w', encoding='utf8') as f:
        json.dump(meta, f, indent=2)
        f.write('\n')
    with open(os.path.join(CACHE, 'stance-head-history.json'), 'w', encoding='utf8') as f:
        json.dump(history, f, indent=1)
    write_card_section(meta, sum(p.numel() for p in model.parameters()))
    print(f'wrote {path} (epoch {best_epoch}):', json.dumps(meta['dev']))


def write_card_section(meta, n_params):
    """The head's section of the model card (models/quin-nli/README.md), between markers, so that a
    new run replaces it and train_nli.py's card keeps the rest."""
    base, head = meta['dev']['quin-nli'], meta['dev']['with_head']
    row = lambda name, d: f"| {name} | {d['scifact_dev']['macro_f1']:.4f} | {d['scifact_dev']['accuracy']:.4f} | {d['climate_fever_dev']['macro_f1']:.4f} | {d['climate_fever_dev']['accuracy']:.4f} |"
    section = f"""<!-- stance-head:start (written by training/train_stance_head.py) -->
## Stance head (stance-head.onnx, stance-head.json)

A linear layer ({n_params:,} parameters) over frozen **Universal Sentence Encoder Lite** vectors of the
claim (u) and the evidence sentence (v), [u; v; |u−v|; u·v] (the seed paper's NLI input; USE was
trained with an NLI task among others), plus log p of quin-nli's three probabilities → refined
entailment / contradiction / neutral logits. The verdict stage (ranking/verdict/stance-head.ts) runs it
after quin-nli when the dense index's encoder is `{meta['encoder']}` (the vectors come from the
embedding cache and the query embedding: nothing is embedded for it); a sentence without a cached
vector keeps quin-nli's probabilities. `QUIN_NLI_STANCE_HEAD=false` turns it off.

Data: the same SciFact and Climate-FEVER pairs as quin-nli (train split; `training/prepare-stance.ts`),
class-weighted cross-entropy, Adam (lr {LR}, weight decay {WEIGHT_DECAY}), up to {EPOCHS} epochs, the epoch
({meta['trained_epochs']}) chosen on the mean dev macro-F1 of the two sets. Seed {SEED}. Per evidence sentence, dev splits:

| | SciFact macro-F1 | SciFact acc. | Climate-FEVER macro-F1 | Climate-FEVER acc. |
| --- | --- | --- | --- | --- |
{row('quin-nli alone', base)}
{row('quin-nli + stance head', head)}

Caveat: quin-nli's probabilities on train-split pairs are those of a model fitted on them (more
confident than on unseen pairs), so the head may lean on them more than it should.
<!-- stance-head:end -->
"""
    card = os.path.join(OUT, 'README.md')
    text = open(card, encoding='utf8').read() if os.path.exists(card) else '# quin-nli\n'
    start, end = text.find('<!-- stance-head:start'), text.find('<!-- stance-head:end -->')
    if start >= 0 and end > start:
        text = text[:start] + section + text[end + len('<!-- stance-head:end -->\n'):]
    else:
        marker = text.find('\n## Limits')
        text = (text[:marker + 1] + section + '\n' + text[marker + 1:]) if marker >= 0 else text.rstrip('\n') + '\n\n' + section
    with open(card, 'w', encoding='utf8') as f:
        f.write(text)


if __name__ == '__main__':
    export(*train())
