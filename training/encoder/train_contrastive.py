"""Contrastive training of the static encoder (the PyTorch side of `npm run train:encoder`).

Reads what training/encoder/prepare.ts wrote (token ids from the product's own tokenizer, passages,
pairs with BM25 hard negatives, the distilled starting table) and fine-tunes the token table so that
a query's vector is close to its relevant passages' and far from the others':

  text vector    = normalise(mean of its tokens' rows)              (the product's StaticEncoder)
  passage vector = normalise(mean of its sentences' and title's text vectors)   (mean-title pooling)
  loss           = InfoNCE over the batch: each query against its positive, every other query's
                   positive and hard negative (in-batch negatives + one BM25 hard negative each),
                   scale 1/temperature; passages that are positives of the query itself are masked.
                   With --matryoshka, the same loss on the first 128 and 64 dimensions is added.

Batches hold one source each (its negatives come from its own pool). Deterministic: one thread,
fixed seeds, a fixed order. Writes <out>/table.f32 (vocab × dim) and <out>/train-log.json.

  /usr/bin/python3 training/encoder/train_contrastive.py --data .cache/training/encoder --out DIR [--epochs 3 ...]
"""

import argparse
import json
import math
import os
import time

import numpy as np
import torch
import torch.nn.functional as F


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--data", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--lr", type=float, default=0.02)
    p.add_argument("--scale", type=float, default=20.0, help="1 / temperature")
    p.add_argument("--seed", type=int, default=20240611)
    p.add_argument("--weights", default="", help="per-source epoch multipliers, e.g. scifact-claims=4,climate-fever=4")
    p.add_argument("--cap", default="", help="per-source cap of examples per epoch, e.g. reuters=8000")
    p.add_argument("--matryoshka", action="store_true")
    p.add_argument("--symmetric", action="store_true", help="add the passage → query direction of the loss")
    p.add_argument("--hard", type=int, default=1, help="hard negatives per query in a batch")
    p.add_argument("--eval-every", type=int, default=0, help="evaluate every N steps as well as after each epoch")
    p.add_argument("--eval-table", default="", help="only evaluate this table (vocab × dim float32) on the dev sets, print JSON")
    return p.parse_args()


def load(data):
    man = json.load(open(os.path.join(data, "manifest.json")))
    a = lambda n, t: np.fromfile(os.path.join(data, n), dtype=t)
    d = {
        "man": man,
        "base": a("base.f32", np.float32).reshape(man["vocab"], man["dim"]),
        "text_off": a("text_off.i64", np.int64),
        "text_tok": a("text_tok.i32", np.int32),
        "pas_off": a("pas_off.i64", np.int64),
        "pas_txt": a("pas_txt.i32", np.int32),
        "ex_query": a("ex_query.i32", np.int32),
        "ex_src": a("ex_src.i32", np.int32),
        "ex_pos_off": a("ex_pos_off.i64", np.int64),
        "ex_pos": a("ex_pos.i32", np.int32),
        "ex_neg": a("ex_neg.i32", np.int32).reshape(-1, man["negatives"]),
        "evals": {},
    }
    for ev in man["evals"]:
        n = ev["name"]
        d["evals"][n] = {
            "query": a(f"eval_{n}_query.i32", np.int32),
            "pas": a(f"eval_{n}_pas.i32", np.int32),
            "doc": a(f"eval_{n}_doc.i32", np.int32),
            "qrels": ev["qrels"],
            "docs": ev["docs"],
        }
    return d


class Model:
    def __init__(self, d):
        self.d = d
        base = torch.from_numpy(d["base"].copy())
        self.emb = torch.nn.EmbeddingBag(base.shape[0], base.shape[1], mode="mean", sparse=True)
        with torch.no_grad():
            self.emb.weight.copy_(base)
        self.text_off = d["text_off"]
        self.text_tok = d["text_tok"]

    def texts(self, ids):
        """Normalised vectors of texts (zero vector for a text without tokens)."""
        ids = np.asarray(ids, dtype=np.int64)
        starts = self.text_off[ids]
        ends = self.text_off[ids + 1]
        lens = ends - starts
        flat = np.concatenate([self.text_tok[s:e] for s, e in zip(starts, ends)]) if len(ids) else np.zeros(0, np.int32)
        offsets = np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int64)
        v = self.emb(torch.from_numpy(flat.astype(np.int64)), torch.from_numpy(offsets))
        return F.normalize(v, dim=1, eps=1e-12)

    def passages(self, pids, dims=None):
        """mean-title pooling: normalise(mean of the normalised text vectors of each passage)."""
        pids = np.asarray(pids, dtype=np.int64)
        offs = self.d["pas_off"]
        parts = [self.d["pas_txt"][offs[p] : offs[p + 1]] for p in pids]
        owner = np.concatenate([np.full(len(x), i) for i, x in enumerate(parts)]).astype(np.int64)
        tids = np.concatenate(parts)
        uniq, inv = np.unique(tids, return_inverse=True)
        tv = self.texts(uniq)
        if dims:
            tv = F.normalize(tv[:, :dims], dim=1, eps=1e-12)
        rows = tv[torch.from_numpy(inv.astype(np.int64))]
        out = torch.zeros(len(pids), tv.shape[1])
        out.index_add_(0, torch.from_numpy(owner), rows)
        return F.normalize(out, dim=1, eps=1e-12)


def ndcg_at_10(ranked, relevant):
    dcg = sum(1.0 / math.log2(i + 2) for i, doc in enumerate(ranked[:10]) if doc in relevant)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(10, len(relevant))))
    return dcg / ideal if ideal else 0.0


@torch.no_grad()
def evaluate(model, d):
    out = {}
    for name, ev in d["evals"].items():
        q = model.texts(ev["query"]).numpy()
        p = torch.cat([model.passages(ev["pas"][i : i + 4096]) for i in range(0, len(ev["pas"]), 4096)]).numpy()
        sims = q @ p.T
        ndocs = ev["docs"]
        scores = []
        recall = []
        for qi in range(len(q)):
            best = np.full(ndocs, -np.inf, dtype=np.float32)
            np.maximum.at(best, ev["doc"], sims[qi])
            ranked = np.argsort(-best, kind="stable")
            rel = set(ev["qrels"][qi])
            scores.append(ndcg_at_10(list(ranked[:10]), rel))
            top100 = set(ranked[:100].tolist())
            recall.append(len(rel & top100) / len(rel) if rel else 0.0)
        out[name] = {"ndcg@10": round(float(np.mean(scores)), 4), "recall@100": round(float(np.mean(recall)), 4)}
    return out


def parse_map(s, cast):
    out = {}
    for part in filter(None, s.split(",")):
        k, v = part.split("=")
        out[k.strip()] = cast(v)
    return out


def epoch_batches(d, args, rng):
    """One epoch: per source, its examples (multiplied / capped), shuffled and cut into batches; batches interleaved."""
    names = [s["name"] for s in d["man"]["sources"]]
    weights = parse_map(args.weights, float)
    caps = parse_map(args.cap, int)
    batches = []
    for s, name in enumerate(names):
        idx = np.nonzero(d["ex_src"] == s)[0]
        w = weights.get(name, 1.0)
        reps = int(math.floor(w))
        chosen = [rng.permutation(idx) for _ in range(reps)]
        frac = w - reps
        if frac > 0:
            chosen.append(rng.permutation(idx)[: int(round(frac * len(idx)))])
        ex = np.concatenate(chosen) if chosen else np.zeros(0, np.int64)
        if name in caps:
            ex = ex[: caps[name]]
        for i in range(0, len(ex) - args.batch // 4, args.batch):  # drop a small last batch
            batches.append(ex[i : i + args.batch])
    order = rng.permutation(len(batches))
    return [batches[i] for i in order]


def step_loss(model, d, batch, args, rng):
    pos_lists = [d["ex_pos"][d["ex_pos_off"][e] : d["ex_pos_off"][e + 1]] for e in batch]
    pos = np.array([pl[rng.randint(len(pl))] for pl in pos_lists], dtype=np.int64)
    docs = [pos]
    for _ in range(args.hard):
        negs = d["ex_neg"][batch]
        pick = []
        for row in negs:
            cand = row[row >= 0]
            pick.append(cand[rng.randint(len(cand))] if len(cand) else -1)
        pick = np.array(pick, dtype=np.int64)
        docs.append(pick[pick >= 0])
    doc_ids = np.concatenate(docs)
    # Mask passages that are positives of the query (other than its own target column).
    maxp = max(len(pl) for pl in pos_lists)
    pmat = np.full((len(batch), maxp), -2, dtype=np.int64)
    for i, pl in enumerate(pos_lists):
        pmat[i, : len(pl)] = pl
    mask = (pmat[:, :, None] == doc_ids[None, None, :]).any(1)
    mask[np.arange(len(batch)), np.arange(len(batch))] = False
    mask_t = torch.from_numpy(mask)
    target = torch.arange(len(batch))
    q_all = model.texts(d["ex_query"][batch])
    dims_list = [None] + ([128, 64] if args.matryoshka else [])
    loss = 0.0
    for dims in dims_list:
        q = q_all if dims is None else F.normalize(q_all[:, :dims], dim=1, eps=1e-12)
        p = model.passages(doc_ids, dims)
        s = (q @ p.T) * args.scale
        s = s.masked_fill(mask_t, -1e4)
        loss = loss + F.cross_entropy(s, target)
        if args.symmetric:
            sp = (p[: len(batch)] @ q.T) * args.scale
            loss = loss + F.cross_entropy(sp, target)
    return loss


def main():
    args = parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = np.random.RandomState(args.seed)
    d = load(args.data)
    model = Model(d)
    if args.eval_table:
        table = np.fromfile(args.eval_table, dtype=np.float32).reshape(d["base"].shape)
        with torch.no_grad():
            model.emb.weight.copy_(torch.from_numpy(table))
        print(json.dumps(evaluate(model, d)))
        return
    opt = torch.optim.SparseAdam(list(model.emb.parameters()), lr=args.lr)
    log = {"args": vars(args), "epochs": []}
    started = time.time()
    base_eval = evaluate(model, d)
    log["start"] = base_eval
    print(f"start: {base_eval}", flush=True)
    step = 0
    for epoch in range(args.epochs):
        batches = epoch_batches(d, args, rng)
        total = 0.0
        t0 = time.time()
        for bi, batch in enumerate(batches):
            opt.zero_grad()
            loss = step_loss(model, d, batch, args, rng)
            loss.backward()
            opt.step()
            total += float(loss)
            step += 1
            if args.eval_every and step % args.eval_every == 0:
                print(f"  step {step}: loss {total / (bi + 1):.4f} {evaluate(model, d)}", flush=True)
        ev = evaluate(model, d)
        entry = {"epoch": epoch + 1, "steps": len(batches), "loss": round(total / max(1, len(batches)), 4), "seconds": round(time.time() - t0, 1), "dev": ev}
        log["epochs"].append(entry)
        print(json.dumps(entry), flush=True)
    os.makedirs(args.out, exist_ok=True)
    model.emb.weight.detach().numpy().astype(np.float32).tofile(os.path.join(args.out, "table.f32"))
    log["seconds"] = round(time.time() - started, 1)
    json.dump(log, open(os.path.join(args.out, "train-log.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
