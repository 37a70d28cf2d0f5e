"""
The stance classifier (per evidence sentence) and the claim-level verdict aggregator, chosen and
reported by k-fold cross-validation over ALL our labelled data, then fitted on all of it.

Inputs (written by the TypeScript side, from the product's own code):
  .cache/training/stance/features.jsonl            labelled pairs: SciFact, Climate-FEVER, our news
                                                   claims, generated news pairs (featurize.ts)
  .cache/training/stance/claim-sentences-*.jsonl   what the verdict stage reads for each SciFact and
                                                   news claim, through the product's search
                                                   (claims-dump.ts + featurize-claims.ts)

Cross-validation: 5 folds over claims (a claim's pairs and its retrieved sentences stay in one fold);
generated pairs are always training data. Per fold: the stance model is fitted on the other folds
and judges this fold's sentences; the claim aggregator is then cross-validated on those out-of-fold
judgements. Reported: mean ± spread across folds of SciFact end-to-end macro-F1 and REFUTED
precision, news macro-F1, committed precision and true claims marked REFUTED, Climate-FEVER per-pair
macro-F1; and a risk–coverage table for the commit threshold.

  /usr/bin/python3 training/stance/train_verdict.py [--write]
"""
import argparse
import json
import os
import sys

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score
from sklearn.model_selection import GroupKFold

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from masked_lr import fit as masked_fit, predict_proba as masked_proba  # noqa: E402

DIR = ".cache/training/stance"
STANCE = ["SUPPORTED", "REFUTED", "NEUTRAL"]
VERDICT = ["SUPPORTED", "REFUTED", "NOT_ENOUGH_EVIDENCE"]
REFUTE_READS = {"antonym", "antonym_x_cov", "neg_mismatch", "neg_mismatch_x_cov", "num_different", "year_different", "name_swap", "roles_swapped", "cov"}
SEED = 20261125
FOLDS = 5


def jsonl(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


# --- per-sentence stance -------------------------------------------------------------------

def design(x, nli, use_nli):
    x = np.asarray(x, dtype=float)
    if not use_nli:
        return x
    return np.hstack([x, np.log(np.clip(np.asarray(nli, dtype=float), 1e-4, 1))])


def stance_mask(names, use_nli, refute_nli):
    cols = names + (["nli_e", "nli_c", "nli_n"] if use_nli else [])
    m = np.ones((3, len(cols)))
    for j, n in enumerate(cols):
        if n not in REFUTE_READS and not (refute_nli and n == "nli_c"):
            m[1, j] = 0
    return m, cols


def stance_weights(y, src, gen_weight):
    """Class-balanced within each source; every real source weighs the same in total."""
    w = np.ones(len(y))
    for s in np.unique(src):
        k = src == s
        for c in range(3):
            m = k & (y == c)
            if m.sum():
                w[m] = k.sum() / (3 * m.sum())
        w[k] *= (gen_weight if s == "news-gen" else 1.0) * 1000.0 / w[k].sum()
    return w


class Stance:
    def __init__(self, names, cfg):
        self.cfg = cfg
        self.mask, self.cols = stance_mask(names, cfg["nli"], cfg["refute_nli"])

    def fit(self, X, y, src):
        w = stance_weights(y, src, self.cfg["gen"])
        if self.cfg["masked"]:
            self.coef, self.intercept = masked_fit(X, y, w, self.mask, self.cfg["l2"])
        else:
            m = LogisticRegression(C=1 / (2 * self.cfg["l2"] * 1000), max_iter=3000).fit(X, y, sample_weight=w)
            self.coef, self.intercept = m.coef_, m.intercept_
        return self

    def proba(self, X):
        return masked_proba(self.coef, self.intercept, X)


# --- claim level ---------------------------------------------------------------------------

CLAIM_FEATURES = ["max_sup", "max_ref", "mean_sup", "mean_ref", "top_sup", "top_ref", "max_cov", "n_sup", "n_ref", "conflict"]


def claim_features(items):
    """Mirror of ranking/verdict/decide.ts claimFeatures (a parity fixture checks both)."""
    if not items:
        return [0.0] * len(CLAIM_FEATURES)
    w = np.array([max(0.0, it["relevance"]) * max(0.0, it.get("recency", 1.0)) for it in items])
    s = np.array([it["p"][0] for it in items])
    r = np.array([it["p"][1] for it in items])
    maxw = w.max()
    sup = (w * s).max() / maxw if maxw > 0 else 0.0
    ref = (w * r).max() / maxw if maxw > 0 else 0.0
    top_rank = min(it["rank"] for it in items)
    top = [it for it in items if it["rank"] == top_rank]
    return [
        sup,
        ref,
        float((w * s).sum() / w.sum()) if w.sum() > 0 else 0.0,
        float((w * r).sum() / w.sum()) if w.sum() > 0 else 0.0,
        max(it["p"][0] for it in top),
        max(it["p"][1] for it in top),
        max(it["coverage"] for it in items),
        float((s > 0.5).mean()),
        float((r > 0.5).mean()),
        sup * ref,
    ]


def claim_items(rows, probs, depth, per):
    items = []
    for row, p in zip(rows, probs):
        if row["rank"] < depth and row["j"] < per:
            items.append({"relevance": row["relevance"], "rank": row["rank"], "coverage": row["coverage"], "p": p})
    return items


def decide(P, commit):
    """P: rows of [p_sup, p_ref, p_nei] → label index (0 S, 1 R, 2 NEI) under the commit threshold."""
    out = np.full(len(P), 2)
    side = np.where(P[:, 0] >= P[:, 1], 0, 1)
    strong = P.max(1 if False else 1) if False else np.maximum(P[:, 0], P[:, 1])
    commit_ok = (strong >= commit) & (strong >= P[:, 2])
    out[commit_ok] = side[commit_ok]
    return out


def claim_weights(y, ds):
    w = np.ones(len(y))
    for d in np.unique(ds):
        k = ds == d
        for c in range(3):
            m = k & (y == c)
            if m.sum():
                w[m] = k.sum() / (3 * m.sum())
        w[k] *= 1000.0 / w[k].sum()
    return w


def verdict_metrics(y, pred):
    committed = pred != 2
    true = y == 0
    return {
        "macro_f1": f1_score(y, pred, average="macro", labels=[0, 1, 2]),
        "refuted_precision": float((y[pred == 1] == 1).mean()) if (pred == 1).any() else float("nan"),
        "committed_precision": float((y[committed] == pred[committed]).mean()) if committed.any() else float("nan"),
        "coverage": float(committed.mean()),
        "true_marked_refuted": float(((pred == 1) & true).sum() / max(1, true.sum())),
        "accuracy": float((y == pred).mean()),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true", help="fit on all data and write the model files")
    ap.add_argument("--variants", default="default")
    args = ap.parse_args()

    feats = jsonl(f"{DIR}/features.jsonl")
    head, feats = feats[0], feats[1:]
    names = head["features"]
    claims = {}
    for ds in ("scifact", "news"):
        path = f"{DIR}/claim-sentences-{ds}.jsonl"
        if os.path.exists(path):
            claims[ds] = [r for r in jsonl(path)]
    print(f"pairs {len(feats)}; claim sentences: " + ", ".join(f"{k} {len(v)}" for k, v in claims.items()), flush=True)

    # Per-sentence training data: labelled pairs + retrieved SciFact sentences with their gold stance.
    P_src = np.array([r["src"] for r in feats])
    P_grp = np.array([r["group"] for r in feats])
    P_y = np.array([STANCE.index(r["label"]) for r in feats])
    P_x = [r["x"] for r in feats]
    P_n = [r["nli"] for r in feats]
    for r in claims.get("scifact", []):
        if r["rank"] >= 0 and r.get("gold") == "NEUTRAL":
            P_src = np.append(P_src, "scifact")
            P_grp = np.append(P_grp, r["id"])
            P_y = np.append(P_y, 2)
            P_x.append(r["x"])
            P_n.append(r["nli"])

    configs = {
        "default": [
            {"name": "masked align gen0.5", "nli": False, "refute_nli": False, "masked": True, "gen": 0.5, "l2": 1e-3},
            {"name": "masked align+nli(no refute) gen0.5", "nli": True, "refute_nli": False, "masked": True, "gen": 0.5, "l2": 1e-3},
            {"name": "masked align+nli gen0.5", "nli": True, "refute_nli": True, "masked": True, "gen": 0.5, "l2": 1e-3},
            {"name": "plain lr align+nli gen0.5", "nli": True, "refute_nli": True, "masked": False, "gen": 0.5, "l2": 1e-3},
        ],
    }[args.variants]

    real_groups = sorted(set(g for g, s in zip(P_grp, P_src) if s != "news-gen") | {r["id"] for rows in claims.values() for r in rows})
    rng = np.random.RandomState(SEED)
    order = rng.permutation(len(real_groups))
    fold_of = {g: int(order[i] % FOLDS) for i, g in enumerate(real_groups)}

    for cfg in configs:
        X_all = np.array([design(x, n, cfg["nli"]) for x, n in zip(P_x, P_n)])
        pair_fold = np.array([fold_of.get(g, -1) for g in P_grp])
        # Out-of-fold stance probabilities for labelled pairs and for every retrieved claim sentence.
        oof_pairs = np.zeros((len(P_y), 3))
        oof_claims = {ds: np.zeros((len(rows), 3)) for ds, rows in claims.items()}
        for k in range(FOLDS):
            tr = pair_fold != k
            m = Stance(names, cfg).fit(X_all[tr], P_y[tr], P_src[tr])
            te = pair_fold == k
            oof_pairs[te] = m.proba(X_all[te])
            for ds, rows in claims.items():
                idx = [i for i, r in enumerate(rows) if r["rank"] >= 0 and fold_of[r["id"]] == k]
                if idx:
                    oof_claims[ds][idx] = m.proba(np.array([design(rows[i]["x"], rows[i]["nli"], cfg["nli"]) for i in idx]))
        # Per-pair metrics (Climate-FEVER is judged per evidence pair).
        line = [cfg["name"]]
        for s in ("scifact", "climate-fever", "news"):
            per = []
            for k in range(FOLDS):
                sel = (P_src == s) & (pair_fold == k)
                if sel.sum():
                    per.append(f1_score(P_y[sel], oof_pairs[sel].argmax(1), average="macro", labels=[0, 1, 2]))
            line.append(f"{s} pair F1 {np.mean(per):.3f}±{np.std(per):.3f}")
        print(" | ".join(line), flush=True)
        # Claim level for several depths.
        for depth, per in ((3, 2), (5, 2), (5, 3), (8, 3)):
            X_c, y_c, ds_c, g_c = [], [], [], []
            for ds, rows in claims.items():
                by = {}
                for i, r in enumerate(rows):
                    by.setdefault(r["id"], []).append(i)
                for cid, idx in by.items():
                    rr = [rows[i] for i in idx if rows[i]["rank"] >= 0]
                    pp = [oof_claims[ds][i] for i in idx if rows[i]["rank"] >= 0]
                    X_c.append(claim_features(claim_items(rr, pp, depth, per)))
                    y_c.append(VERDICT.index(rows[idx[0]]["label"]))
                    ds_c.append(ds)
                    g_c.append(cid)
            X_c, y_c, ds_c = np.array(X_c), np.array(y_c), np.array(ds_c)
            cfold = np.array([fold_of[g] for g in g_c])
            P = np.zeros((len(y_c), 3))
            for k in range(FOLDS):
                tr = cfold != k
                agg = LogisticRegression(C=1.0, max_iter=3000).fit(X_c[tr], y_c[tr], sample_weight=claim_weights(y_c[tr], ds_c[tr]))
                P[cfold == k] = agg.predict_proba(X_c[cfold == k])
            for commit in (0.4, 0.5, 0.6, 0.7):
                pred = decide(P, commit)
                parts = []
                for ds in claims:
                    vals = {key: [] for key in ("macro_f1", "refuted_precision", "committed_precision", "true_marked_refuted", "coverage")}
                    for k in range(FOLDS):
                        sel = (ds_c == ds) & (cfold == k)
                        mm = verdict_metrics(y_c[sel], pred[sel])
                        for key in vals:
                            vals[key].append(mm[key])
                    f = lambda key: f"{np.nanmean(vals[key]):.3f}±{np.nanstd(vals[key]):.3f}"
                    parts.append(f"{ds}: F1 {f('macro_f1')} Rprec {f('refuted_precision')} commit-prec {f('committed_precision')} cov {f('coverage')} true→R {f('true_marked_refuted')}")
                print(f"   {depth}x{per} commit {commit}: " + " || ".join(parts), flush=True)


if __name__ == "__main__":
    main()
