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

  /usr/bin/python3 training/stance/train_verdict.py [--variants final|nli|gbdt|gen] [--write]
"""
import argparse
import json
import os
import sys

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
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


def balanced_weights(y, groups, group_weight=lambda g: 1.0):
    """Class-balanced within each group (source or dataset); each group weighs group_weight(g) × the same total."""
    w = np.ones(len(y))
    for g in np.unique(groups):
        k = groups == g
        for c in range(3):
            m = k & (y == c)
            if m.sum():
                w[m] = k.sum() / (3 * m.sum())
        w[k] *= group_weight(g) * 1000.0 / w[k].sum()
    return w


def stance_weights(y, src, gen_weight):
    """Every real source weighs the same; generated pairs `gen_weight` of that."""
    return balanced_weights(y, src, lambda s: gen_weight if s == "news-gen" else 1.0)


class Stance:
    def __init__(self, names, cfg):
        self.cfg = cfg
        self.mask, self.cols = stance_mask(names, cfg["nli"], cfg["refute_nli"])

    def fit(self, X, y, src):
        w = stance_weights(y, src, self.cfg["gen"])
        if self.cfg.get("gbdt"):
            self.trees = HistGradientBoostingClassifier(max_depth=3, max_iter=150, learning_rate=0.05, l2_regularization=1.0, random_state=SEED).fit(X, y, sample_weight=w)
            return self
        if self.cfg["masked"]:
            self.coef, self.intercept = masked_fit(X, y, w, self.mask, self.cfg["l2"])
        else:
            m = LogisticRegression(C=1 / (2 * self.cfg["l2"] * 1000), max_iter=3000).fit(X, y, sample_weight=w)
            self.coef, self.intercept = m.coef_, m.intercept_
        return self

    def proba(self, X):
        if self.cfg.get("gbdt"):
            return self.trees.predict_proba(X)
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
    """As ranking/verdict/stage.ts evidenceItems: the top `depth` results' first `per` evidence sentences, each sentence once."""
    items, seen = [], set()
    for row, p in zip(rows, probs):
        key = row.get("sentence", "").strip().lower()
        if row["rank"] < depth and row["j"] < per and key not in seen:
            seen.add(key)
            items.append({"relevance": row["relevance"], "rank": row["rank"], "coverage": row["coverage"], "p": p})
    return items


def decide(P, commit, X=None, mixed=1.1, commit_refuted=None):
    """As ranking/verdict/decide.ts: rows of [p_sup, p_ref, p_nei] → 0 SUPPORTED, 1 REFUTED, 2 NEI, 3 MIXED.
    REFUTED may need a higher bar than SUPPORTED (`commit_refuted`): a wrong "Refuted" costs a reader more."""
    cr = commit if commit_refuted is None else commit_refuted
    out = np.full(len(P), 2)
    side = np.where(P[:, 0] >= P[:, 1], 0, 1)
    strong = np.maximum(P[:, 0], P[:, 1])
    bar = np.where(side == 0, commit, cr)
    commit_ok = (strong >= bar) & (strong >= P[:, 2])
    out[commit_ok] = side[commit_ok]
    if X is not None:
        both = ~commit_ok & (X[:, 0] >= mixed) & (X[:, 1] >= mixed) & (P[:, 0] + P[:, 1] >= commit)
        out[both] = 3
    return out


def claim_weights(y, ds):
    return balanced_weights(y, ds)


def verdict_metrics(y, pred):
    """MIXED (3) commits and is scored as NOT_ENOUGH_EVIDENCE."""
    committed = pred != 2
    pred = np.where(pred == 3, 2, pred)
    true = y == 0
    return {
        "macro_f1": f1_score(y, pred, average="macro", labels=[0, 1, 2]),
        "refuted_precision": float((y[pred == 1] == 1).mean()) if (pred == 1).any() else float("nan"),
        "committed_precision": float((y[committed] == pred[committed]).mean()) if committed.any() else float("nan"),
        "coverage": float(committed.mean()),
        "true_marked_refuted": float(((pred == 1) & true).sum() / max(1, true.sum())),
        "accuracy": float((y == pred).mean()),
    }


def export_trees(model):
    """sklearn HistGradientBoosting → ranking/verdict/align/classifier.ts 'gbdt' (nodes: feature, threshold or leaf value, left, right, missing-left)."""
    trees = []
    for it in model._predictors:
        per_class = []
        for pred in it:
            nodes = []
            for n in pred.nodes:
                if n["is_leaf"]:
                    nodes.append([-1, round(float(n["value"]), 8), 0, 0, 0])
                else:
                    nodes.append([int(n["feature_idx"]), float(n["num_threshold"]), int(n["left"]), int(n["right"]), int(n["missing_go_to_left"])])
            per_class.append(nodes)
        trees.append(per_class)
    return {"kind": "gbdt", "baseline": [float(v) for v in np.ravel(model._baseline_prediction)], "trees": trees}


def write_models(cfg, names, nli_id, P_x, P_n, P_y, P_src, claims, oof_claims, depth, per, commit, commit_refuted, mixed, report):
    """Fits the chosen stance model on every pair and the aggregator on every claim's out-of-fold judgements."""
    X_all = np.array([design(x, n, cfg["nli"]) for x, n in zip(P_x, P_n)])
    m = Stance(names, cfg).fit(X_all, P_y, P_src)
    stance = {
        "features": m.cols,
        "nli": nli_id if cfg["nli"] else None,
        "model": export_trees(m.trees) if cfg.get("gbdt") else {"kind": "logistic", "coef": np.round(m.coef, 6).tolist(), "intercept": np.round(m.intercept, 6).tolist()},
        "fitted": {"on": "SciFact claims_train, Climate-FEVER (shared half), our news claims, generated news pairs", "config": cfg, "cv": report.get("pairs")},
    }
    X_c, y_c, ds_c, cases = claim_matrix(claims, oof_claims, depth, per, keep_items=True)
    agg = LogisticRegression(C=1.0, max_iter=3000).fit(X_c, y_c, sample_weight=claim_weights(y_c, ds_c))
    verdict = {
        "version": 2,
        "depth": depth,
        "sentences": per,
        "features": CLAIM_FEATURES,
        "coef": np.round(agg.coef_, 6).tolist(),
        "intercept": np.round(agg.intercept_, 6).tolist(),
        "commit": commit,
        "commit_refuted": commit_refuted,
        "mixed": mixed,
        "fitted": {"on": "out-of-fold stance judgements of SciFact claims_train and our news claims, through the product's search", "cv": report.get("claims")},
    }
    os.makedirs("models/quin-nli", exist_ok=True)
    with open("models/quin-nli/stance.json", "w") as f:
        json.dump(stance, f, separators=(",", ":"))
    with open("models/quin-nli/verdict.json", "w") as f:
        json.dump(verdict, f, indent=1)
    # Parity fixture: the TypeScript claimFeatures must give these numbers for these items.
    os.makedirs("ranking/verdict/fixtures", exist_ok=True)
    with open("ranking/verdict/fixtures/claim-features.json", "w") as f:
        json.dump([{"items": items, "features": feats} for items, feats in cases[:12]], f)
    # And the TypeScript classify() must give the fitted model's probabilities for these feature rows.
    rows = X_all[np.random.RandomState(SEED).choice(len(X_all), 40, replace=False)]
    with open("ranking/verdict/fixtures/stance-parity.json", "w") as f:
        json.dump([{"x": x.tolist(), "p": [round(float(v), 8) for v in p]} for x, p in zip(rows, m.proba(rows))], f)
    print("wrote models/quin-nli/stance.json, models/quin-nli/verdict.json, ranking/verdict/fixtures/{claim-features,stance-parity}.json")


def claim_matrix(claims, oof_claims, depth, per, keep_items=False):
    X_c, y_c, ds_c, g_c, cases = [], [], [], [], []
    for ds, rows in claims.items():
        by = {}
        for i, r in enumerate(rows):
            by.setdefault(r["id"], []).append(i)
        for cid, idx in by.items():
            rr = [rows[i] for i in idx if rows[i]["rank"] >= 0]
            pp = [[float(v) for v in oof_claims[ds][i]] for i in idx if rows[i]["rank"] >= 0]
            items = claim_items(rr, pp, depth, per)
            f = claim_features(items)
            X_c.append(f)
            y_c.append(VERDICT.index(rows[idx[0]]["label"]))
            ds_c.append(ds)
            g_c.append(cid)
            if keep_items and len(cases) < 12 and items:
                cases.append(([{"probs": {"supports": it["p"][0], "refutes": it["p"][1], "neutral": it["p"][2]}, "relevance": it["relevance"], "recency": 1, "rank": it["rank"], "coverage": it["coverage"]} for it in items], f))
    if keep_items:
        return np.array(X_c), np.array(y_c), np.array(ds_c), cases
    return np.array(X_c), np.array(y_c), np.array(ds_c), g_c


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true", help="fit the chosen configuration on all data and write the model files")
    # Defaults = the configuration chosen by the CV below (docs/models.md): what `npm run train:nli` writes.
    ap.add_argument("--variants", default="final")
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--per", type=int, default=1)
    ap.add_argument("--commit", type=float, default=0.4)
    ap.add_argument("--commit-refuted", type=float, default=0.6)
    ap.add_argument("--mixed", type=float, default=0.8)
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

    # Per-sentence training data: labelled pairs + retrieved SciFact sentences that are not rationales (neutral).
    extra = [r for r in claims.get("scifact", []) if r["rank"] >= 0 and r.get("gold") == "NEUTRAL"]
    P_src = np.array([r["src"] for r in feats] + ["scifact"] * len(extra))
    P_grp = np.array([r["group"] for r in feats] + [r["id"] for r in extra])
    P_y = np.array([STANCE.index(r["label"]) for r in feats] + [2] * len(extra))
    P_x = [r["x"] for r in feats] + [r["x"] for r in extra]
    P_n = [r["nli"] for r in feats] + [r["nli"] for r in extra]

    configs = {
        # Needs the NLI model's probabilities in claim-sentences-*.jsonl (featurize-claims.ts without --no-nli).
        "nli": [
            {"name": "masked align+nli(no refute) gen0.5", "nli": True, "refute_nli": False, "masked": True, "gen": 0.5, "l2": 1e-3},
            {"name": "masked align gen0.5", "nli": False, "refute_nli": False, "masked": True, "gen": 0.5, "l2": 1e-3},
            {"name": "masked align+nli gen0.5", "nli": True, "refute_nli": True, "masked": True, "gen": 0.5, "l2": 1e-3},
            {"name": "plain lr align+nli gen0.5", "nli": True, "refute_nli": True, "masked": False, "gen": 0.5, "l2": 1e-3},
        ],
        "gbdt": [
            {"name": "gbdt align", "nli": False, "refute_nli": False, "masked": False, "gbdt": True, "gen": 0.5, "l2": 1e-3},
            {"name": "gbdt align+nli", "nli": True, "refute_nli": True, "masked": False, "gbdt": True, "gen": 0.5, "l2": 1e-3},
        ],
        # The first is the one --write fits: gradient-boosted trees read news pairs a little better (within the
        # folds' spread) but call more true claims refuted; the masked LR is simpler and keeps the refute
        # class on contradiction cues, so it is the choice.
        "final": [
            {"name": "masked align gen0.5", "nli": False, "refute_nli": False, "masked": True, "gen": 0.5, "l2": 1e-3},
            {"name": "gbdt align gen0.5", "nli": False, "refute_nli": False, "masked": False, "gbdt": True, "gen": 0.5, "l2": 1e-3},
        ],
        "gen": [
            {"name": f"masked align+nli(no refute) gen{g}", "nli": True, "refute_nli": False, "masked": True, "gen": g, "l2": 1e-3} for g in (0.0, 0.25, 0.5, 1.0)
        ],
    }[args.variants]
    if args.write:
        configs = configs[:1]

    real_groups = sorted(set(g for g, s in zip(P_grp, P_src) if s != "news-gen") | {r["id"] for rows in claims.values() for r in rows})
    rng = np.random.RandomState(SEED)
    order = rng.permutation(len(real_groups))
    fold_of = {g: int(order[i] % FOLDS) for i, g in enumerate(real_groups)}
    shapes = [(args.depth, args.per)] if args.write else [(3, 1), (5, 1), (5, 2), (8, 2)]
    commits = [(args.commit, args.commit_refuted or args.commit)] if args.write else [(0.4, 0.4), (0.5, 0.5), (0.6, 0.6), (0.7, 0.7), (0.4, 0.6), (0.5, 0.6), (0.4, 0.7), (0.5, 0.7)]

    for cfg in configs:
        report = {"pairs": {}, "claims": {}}
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
        line = [cfg["name"]]
        for src in ("scifact", "climate-fever", "news"):
            per_fold = [f1_score(P_y[(P_src == src) & (pair_fold == k)], oof_pairs[(P_src == src) & (pair_fold == k)].argmax(1), average="macro", labels=[0, 1, 2]) for k in range(FOLDS) if ((P_src == src) & (pair_fold == k)).any()]
            report["pairs"][src] = {"macro_f1_mean": round(float(np.mean(per_fold)), 4), "macro_f1_std": round(float(np.std(per_fold)), 4), "folds": FOLDS}
            line.append(f"{src} pair F1 {np.mean(per_fold):.3f}±{np.std(per_fold):.3f}")
        print(" | ".join(line), flush=True)
        for depth, per in shapes:
            X_c, y_c, ds_c, g_c = claim_matrix(claims, oof_claims, depth, per)
            cfold = np.array([fold_of[g] for g in g_c])
            P = np.zeros((len(y_c), 3))
            for k in range(FOLDS):
                tr = cfold != k
                agg = LogisticRegression(C=1.0, max_iter=3000).fit(X_c[tr], y_c[tr], sample_weight=claim_weights(y_c[tr], ds_c[tr]))
                P[cfold == k] = agg.predict_proba(X_c[cfold == k])
            for commit, commit_refuted in commits:
                pred = decide(P, commit, X_c, args.mixed, commit_refuted)
                parts = []
                for ds in claims:
                    vals = {key: [] for key in ("macro_f1", "refuted_precision", "committed_precision", "true_marked_refuted", "coverage", "accuracy")}
                    for k in range(FOLDS):
                        sel = (ds_c == ds) & (cfold == k)
                        mm = verdict_metrics(y_c[sel], pred[sel])
                        for key in vals:
                            vals[key].append(mm[key])
                    report["claims"][ds] = {key: {"mean": round(float(np.nanmean(v)), 4), "std": round(float(np.nanstd(v)), 4)} for key, v in vals.items()}
                    report["claims"][ds].update(depth=depth, sentences=per, commit=commit, commit_refuted=commit_refuted)
                    f = lambda key: f"{np.nanmean(vals[key]):.3f}±{np.nanstd(vals[key]):.3f}"
                    parts.append(f"{ds}: F1 {f('macro_f1')} Rprec {f('refuted_precision')} commit-prec {f('committed_precision')} cov {f('coverage')} true→R {f('true_marked_refuted')}")
                print(f"   {depth}x{per} commit S {commit} R {commit_refuted}: " + " || ".join(parts), flush=True)
        if args.write:
            write_models(cfg, names, head["nli"], P_x, P_n, P_y, P_src, claims, oof_claims, args.depth, args.per, args.commit, args.commit_refuted or args.commit, args.mixed, report)


if __name__ == "__main__":
    main()
