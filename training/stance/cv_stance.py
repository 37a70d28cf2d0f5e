"""
Cross-validation of per-sentence stance classifiers on the feature dump (featurize.ts).

Folds: 5-fold over claims (GroupKFold on the real sets: SciFact, Climate-FEVER, our news claims);
the generated news pairs are always in the training part (they are not what we are judged on).
Reports, per model variant, macro-F1 on each real set: mean and spread across folds, and on the
'dev' split items alone (those quin-nli was not trained on: its probabilities on train-split items are
in-sample, so variants that read them are only judged fairly there).

  /usr/bin/python3 training/stance/cv_stance.py [.cache/training/stance/features.jsonl]
"""
import hashlib
import json
import sys

import os
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score
from sklearn.model_selection import GroupKFold

LABELS = ["SUPPORTED", "REFUTED", "NEUTRAL"]
SEED = 20261125


def split_of(group):
    ds, qid = group.split(":", 1)
    if ds not in ("scifact", "climate-fever"):
        return "dev"
    h = hashlib.sha256(f"{ds}:{qid}".encode()).digest()
    return "dev" if int.from_bytes(h[:4], "big") / 2**32 < 0.3 else "train"


def load(path):
    rows = [json.loads(l) for l in open(path)]
    head, rows = rows[0], rows[1:]
    X = np.array([r["x"] for r in rows], dtype=np.float64)
    N = np.array([r["nli"] for r in rows], dtype=np.float64)
    y = np.array([LABELS.index(r["label"]) for r in rows])
    src = np.array([r["src"] for r in rows])
    grp = np.array([r["group"] for r in rows])
    dev = np.array([split_of(g) == "dev" for g in grp])
    return head, X, N, y, src, grp, dev


def weights(y, src, gen_weight):
    w = np.ones(len(y))
    for s in np.unique(src):
        for c in range(3):
            m = (src == s) & (y == c)
            if m.sum():
                w[m] = len(y[src == s]) / (3 * m.sum())
        if s == "news-gen":
            w[src == s] *= gen_weight
        # Each real set weighs the same in total whatever its size.
        tot = w[src == s].sum()
        w[src == s] *= 1000.0 / tot
    return w


def design(X, N, use_nli):
    if not use_nli:
        return X
    return np.hstack([X, np.log(np.clip(N, 1e-4, 1))])


REFUTE_READS = {"antonym", "antonym_x_cov", "neg_mismatch", "neg_mismatch_x_cov", "num_different", "year_different", "name_swap", "roles_swapped", "cov"}


def refute_mask(names, use_nli):
    cols = names + (["nli_e", "nli_c", "nli_n"] if use_nli else [])
    m = np.ones((3, len(cols)))
    for j, n in enumerate(cols):
        if n not in REFUTE_READS and n != "nli_c":
            m[1, j] = 0
    return m


class Masked:
    def __init__(self, names, use_nli, l2=1e-3):
        self.mask = refute_mask(names, use_nli)
        self.l2 = l2

    def fit(self, X, y, sample_weight):
        from masked_lr import fit
        self.coef, self.intercept = fit(X, y, sample_weight, self.mask, self.l2)
        return self

    def predict_proba(self, X):
        from masked_lr import predict_proba
        return predict_proba(self.coef, self.intercept, X)

    def predict(self, X):
        return self.predict_proba(X).argmax(1)


def make(kind):
    if kind == "lr":
        return LogisticRegression(C=1.0, max_iter=2000)
    return HistGradientBoostingClassifier(max_iter=120, learning_rate=0.1, max_leaf_nodes=15, l2_regularization=1.0, random_state=SEED)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else ".cache/training/stance/features.jsonl"
    head, X, N, y, src, grp, dev = load(path)
    real = src != "news-gen"
    gkf = GroupKFold(n_splits=5)
    real_idx = np.where(real)[0]
    folds = list(gkf.split(real_idx, groups=grp[real_idx]))
    variants = [("quin-nli argmax", None, None, None)]
    kinds = sys.argv[2].split(",") if len(sys.argv) > 2 else ["lr", "masked", "hgb"]
    for kind in kinds:
        for use_nli in (False, True):
            for gw in (0.0, 0.5):
                variants.append((f"{kind} align{'+nli' if use_nli else ''} gen×{gw}", kind, use_nli, gw))
    sets = [s for s in ("scifact", "climate-fever", "news") if (src == s).any()]
    print(f"{len(y)} pairs; real {real.sum()}; sets {sets}")
    for name, kind, use_nli, gw in variants:
        per = {s: [] for s in sets}
        per_dev = {s: [] for s in sets}
        pred_all = np.zeros(len(y), dtype=int)
        for tr_r, te_r in folds:
            tr = np.concatenate([real_idx[tr_r], np.where(~real)[0]]) if gw and gw > 0 else real_idx[tr_r]
            te = real_idx[te_r]
            if kind is None:
                pred = N[te].argmax(1)
            else:
                m = Masked(head["features"], use_nli) if kind == "masked" else make(kind)
                m.fit(design(X[tr], N[tr], use_nli), y[tr], sample_weight=weights(y[tr], src[tr], gw or 0))
                pred = m.predict(design(X[te], N[te], use_nli))
            pred_all[te] = pred
            for s in sets:
                k = src[te] == s
                if k.sum():
                    per[s].append(f1_score(y[te][k], pred[k], average="macro", labels=[0, 1, 2]))
        out = []
        for s in sets:
            k = (src == s) & dev
            dev_f1 = f1_score(y[k], pred_all[k], average="macro", labels=[0, 1, 2]) if k.sum() else float("nan")
            out.append(f"{s} {np.mean(per[s]):.3f}±{np.std(per[s]):.3f} (dev {dev_f1:.3f})")
        print(f"{name:28s} " + " | ".join(out), flush=True)


if __name__ == "__main__":
    main()
