"""The verdict's fitted decision for the NLI model in models/quin-nli (verdict.json, version 5), chosen
and reported by k-fold cross-validation on claims and pairs the model never trained on:

  the reading     how one sentence is read: the NLI model's probabilities and the details stage's
                  features (ranking/verdict/details: topic, each kind of detail confirmed or
                  contradicted) combined by a multinomial logistic regression (the combiner), fitted
                  on held-out pairs whose claims the claim-level decision never sees (the dev minimal
                  pairs of minimal-pairs.ts, FEVER dev and our symmetric FEVER dev), 5 folds by claim;
                  reported per pair set, dev and public test splits, model alone vs combined.
  verdict.json    the claim-level decision: what is read (results, sentences per result, passages),
                  how it is read (the model alone or the combiner; the topic a sentence needs to take a
                  stance; whether a contradicted detail can still read as support), how many items are
                  shown, a multinomial logistic regression over CLAIM_FEATURES of the shown items →
                  P(SUPPORTED / REFUTED / NOT ENOUGH EVIDENCE), and the commit thresholds
                  (claim-sentences.jsonl: SciFact and news claims as our search retrieves them, our dev
                  news claims from held-out articles, Climate-FEVER, COVID-Fact and HealthVer claims
                  with their evidence).

Cross-validation: 5 folds over claims, stratified by label within each dataset; every number is out of
fold and printed as mean ± spread across folds. Among the settings, the simplest whose mean macro-F1
is within one fold-spread of the best is chosen (a setting that is best by a hair on one split is
noise). Thresholds are chosen on out-of-fold probabilities.

A committed verdict always shows its reason (decide.ts, mirrored in `decide` here): SUPPORTED only
with a shown item read as supporting, REFUTED only with one read as refuting, MIXED with both.

    .cache/nli-env/bin/python training/stance/train_verdict.py [--write]
"""
import argparse
import itertools
import json
import os
import statistics
import sys

import numpy as np

DIR = '.cache/training/stance'
SEED = 20261126
FOLDS = 5
LABELS = ['SUPPORTED', 'REFUTED', 'NOT_ENOUGH_EVIDENCE']
PAIR_LABELS = ['SUPPORTS', 'REFUTES', 'NOT_ENOUGH_INFO']
# Mirror of ranking/verdict/details/compare.ts DETAIL_FEATURES (the featurized rows name them in their header).
DETAIL_FEATURES = ['topic', 'predicate', 'cov', 'cov_exact', 'n_details', 'confirmed', 'all_confirmed', 'unmentioned',
                   'contra_name', 'contra_place', 'contra_number', 'contra_date', 'contra_direction', 'contra_negation',
                   'contra_roles', 'other_number', 'hedge_claim', 'hedge_evidence', 'len_evidence']
# Mirror of ranking/verdict/judge.ts READING_FEATURES.
READING_FEATURES = ['sup', 'ref', 'neu'] + DETAIL_FEATURES + ['sup_x_contra', 'ref_x_confirmed']
CONTRA = [f for f in DETAIL_FEATURES if f.startswith('contra_')]
# Mirror of ranking/verdict/decide.ts CLAIM_FEATURES (a parity fixture checks the two agree).
CLAIM_FEATURES = ['max_sup', 'max_ref', 'mean_sup', 'mean_ref', 'top_sup', 'top_ref', 'max_cov', 'n_sup', 'n_ref', 'conflict',
                  'max_contra', 'max_sure_contra', 'max_confirmed', 'max_sure_name', 'max_sure_place', 'max_sure_number',
                  'max_sure_date', 'max_sure_direction', 'max_sure_negation']
CONTRA_KINDS = ['name', 'place', 'number', 'date', 'direction', 'negation']  # decide.ts CONTRA_KINDS
# The features that read the stance probabilities alone (no detail cue).
MODEL_FEATURES = CLAIM_FEATURES[:10]
PER_RESULT = 2  # ranking/verdict/stage.ts PER_RESULT
MIXED = 0.8
# Held-out pair sets the combiner is fitted on: none of their claims is a claim of the claim-level decision.
COMBINER_SETS = ['news-minimal', 'fever', 'fever-sym']
# Pair sets reported (dev splits by fold, test splits once).
PAIR_TARGETS = ['news-minimal', 'fever', 'fever-sym', 'scifact', 'climate-fever', 'healthver', 'covidfact', 'news', 'cad_snli', 'fnc1']


def jsonl(path):
    with open(path) as f:
        head = json.loads(f.readline())
        return head, [json.loads(line) for line in f if line.strip()]


def macro_f1(gold, pred, labels):
    f = []
    for label in labels:
        tp = sum(1 for g, p in zip(gold, pred) if g == label and p == label)
        fp = sum(1 for g, p in zip(gold, pred) if g != label and p == label)
        fn = sum(1 for g, p in zip(gold, pred) if g == label and p != label)
        f.append(2 * tp / (2 * tp + fp + fn) if tp else 0.0)
    return sum(f) / len(f)


def mean_sd(xs):
    xs = [x for x in xs if x is not None]
    if not xs:
        return '–'
    return f'{statistics.mean(xs):.3f} ± {statistics.pstdev(xs):.3f}'


def LogisticRegression(**kw):  # noqa: N802 - sklearn's class, imported when fitting (the parity tests need numpy only)
    from sklearn.linear_model import LogisticRegression as LR
    return LR(**kw)


def fold_of_groups(groups):
    uniq = sorted(set(groups))
    rs = np.random.RandomState(SEED)
    f = dict(zip(uniq, rs.randint(0, FOLDS, len(uniq))))
    return np.array([f[g] for g in groups])


# --- per sentence: the reading ------------------------------------------------------------------

def reading_inputs(model, x):
    """Mirror of judge.ts readingInputs: the model's probabilities, the details' features, two interactions."""
    v = dict(zip(DETAIL_FEATURES, x))
    contra = max(v[f] for f in CONTRA)
    return [model[0], model[1], model[2]] + [v[f] for f in DETAIL_FEATURES] + [model[0] * contra, model[1] * v['all_confirmed']]


def read(model, x, contradicted, reading):
    """Mirror of judge.ts readPair: relevance before stance, the combiner, then the detail rule."""
    topic = x[0]
    if topic < reading['topic']:
        return [0.0, 0.0, 1.0]
    p = list(model)
    comb = reading.get('combiner')
    if comb:
        inputs = dict(zip(READING_FEATURES, reading_inputs(model, x)))
        z = np.array(comb['intercept']) + np.array(comb['coef']) @ np.array([inputs[f] for f in comb['features']])
        e = np.exp(z - z.max())
        p = list(e / e.sum())
    if reading['details'] and contradicted:
        rest = p[1] + p[2]
        return [0.0, p[1] / rest, p[2] / rest] if rest > 0 else [0.0, 1.0, 0.0]
    return p


def pair_table():
    path = os.path.join(DIR, 'features.jsonl')
    if not os.path.exists(path):
        print(f'{path} missing: run training/stance/featurize.ts (the reading is the model alone)')
        return None
    head, rows = jsonl(path)
    assert head['features'] == DETAIL_FEATURES, f"{path} names other detail features: rerun featurize.ts"
    return rows


def pair_weights(rows):
    """Each set weighs the same, labels balanced within it."""
    w = np.ones(len(rows))
    key = np.array([f"{r['set']}\t{r['label']}" for r in rows])
    for k in set(key):
        w[key == k] = 1.0 / (key == k).sum()
    return w * len(w) / w.sum()


def fit_combiner(rows):
    X = np.array([reading_inputs(r['model'], r['x']) for r in rows])
    y = np.array([PAIR_LABELS.index(r['label']) for r in rows])
    lr = LogisticRegression(C=1.0, max_iter=3000).fit(X, y, sample_weight=pair_weights(rows))
    return {'features': READING_FEATURES, 'coef': [[round(float(v), 6) for v in row] for row in lr.coef_],
            'intercept': [round(float(v), 6) for v in lr.intercept_]}


def reading_study(rows):
    """The combiner out of fold on the sets it is fitted on, and once fitted on all of them on every other
    held-out set: macro-F1 of the model alone, the model with the detail rule, and the combiner with it."""
    if rows is None:
        return None, None
    sets = np.array([r['set'].replace('-unrelated', '') for r in rows])
    dev = np.array([r['split'] == 'dev' for r in rows])
    fit = np.array([s in COMBINER_SETS for s in sets]) & dev
    if fit.sum() < 300:
        print(f'only {int(fit.sum())} held-out pairs of {", ".join(COMBINER_SETS)} featurized: no combiner (the reading is the model alone)')
        return None, None
    fold = fold_of_groups([r['group'] for r in rows])
    y = np.array([PAIR_LABELS.index(r['label']) for r in rows])
    # Out of fold on the fitted sets; the final combiner everywhere else.
    P = {k: np.zeros((len(rows), 3)) for k in ('model', 'rule', 'combined')}
    for k in range(FOLDS):
        tr = fit & (fold != k)
        comb = fit_combiner([rows[i] for i in np.flatnonzero(tr)])
        te = np.flatnonzero(fit & (fold == k))
        for i in te:
            P['combined'][i] = read(rows[i]['model'], rows[i]['x'], rows[i]['contra'], {'topic': 0, 'details': True, 'combiner': comb})
    combiner = fit_combiner([rows[i] for i in np.flatnonzero(fit)])
    for i, r in enumerate(rows):
        P['model'][i] = r['model']
        P['rule'][i] = read(r['model'], r['x'], r['contra'], {'topic': 0, 'details': True})
        if not fit[i]:
            P['combined'][i] = read(r['model'], r['x'], r['contra'], {'topic': 0, 'details': True, 'combiner': combiner})
    print('\nthe reading on held-out pairs (macro-F1 over the labels each set uses; dev: mean ± spread over 5 folds by claim;'
          f' the combiner out of fold on {", ".join(COMBINER_SETS)}, fitted on all of them elsewhere):')
    print(f"{'set:split':22s} {'n':>6s}  {'model alone':>15s}  {'+ detail rule':>15s}  {'combined':>15s}")
    table = {}
    for split in ('dev', 'test'):
        for s in PAIR_TARGETS + sorted(set(sets) - set(PAIR_TARGETS)):
            m = (sets == s) & (dev if split == 'dev' else ~dev)
            if not m.sum():
                continue
            used = sorted(set(y[m]))
            if split == 'dev':
                res = [mean_sd([macro_f1(y[m & (fold == k)], P[n][m & (fold == k)].argmax(1), used) for k in range(FOLDS) if (m & (fold == k)).sum()])
                       for n in ('model', 'rule', 'combined')]
            else:
                res = [f'{macro_f1(y[m], P[n][m].argmax(1), used):.3f}' for n in ('model', 'rule', 'combined')]
            print(f'{s + ":" + split:22s} {m.sum():6d}  {res[0]:>15s}  {res[1]:>15s}  {res[2]:>15s}')
            table[f'{s}:{split}'] = {'n': int(m.sum()), 'model': res[0], 'rule': res[1], 'combined': res[2]}
    kinds = [r.get('kind') for r in rows]
    mini = (sets == 'news-minimal') & dev
    if mini.sum():
        print('minimal pairs (dev) by the kind of detail changed: REFUTES recall, model alone / combined (out of fold):')
        for kind in sorted({k for k, m in zip(kinds, mini) if m and k}):
            mk = mini & np.array([k == kind for k in kinds]) & (y == 1)
            rec = [float((P[n][mk].argmax(1) == 1).mean()) for n in ('model', 'combined')]
            print(f'  {kind:10s} {mk.sum():5d}  {rec[0]:.3f} / {rec[1]:.3f}')
            table[f'minimal-refutes-recall:{kind}'] = {'n': int(mk.sum()), 'model': round(rec[0], 4), 'combined': round(rec[1], 4)}
    return {'table': table}, combiner


# --- per claim: the decision --------------------------------------------------------------------

def answer_score(p, relevance):
    """Mirror of ranking/verdict/stage.ts answerScore."""
    return (1 - p[2]) * (0.5 + 0.5 * max(0.0, min(1.0, relevance)))


def pick(cands, n, key='p'):
    """Mirror of ranking/verdict/stage.ts pickEvidence: best answers first, at most PER_RESULT per result, ties by position."""
    order = sorted(range(len(cands)), key=lambda i: (-answer_score(cands[i][key], cands[i]['relevance']), i))
    per, out = {}, []
    for i in order:
        if len(out) >= n:
            break
        r = cands[i]['rank']
        if per.get(r, 0) >= PER_RESULT:
            continue
        per[r] = per.get(r, 0) + 1
        out.append(i)
    return out


def claim_features(items):
    """Mirror of ranking/verdict/decide.ts claimFeatures (a parity fixture checks both)."""
    if not items:
        return [0.0] * len(CLAIM_FEATURES)
    w = np.array([max(0.0, it['relevance']) * max(0.0, it.get('recency', 1.0)) for it in items])
    s = np.array([it['p'][0] for it in items])
    r = np.array([it['p'][1] for it in items])
    maxw = w.max()
    sup = float((w * s).max() / maxw) if maxw > 0 else 0.0
    ref = float((w * r).max() / maxw) if maxw > 0 else 0.0
    top_rank = min(it['rank'] for it in items)
    top = [it for it in items if it['rank'] == top_rank]

    def cue(k):
        return max(it.get('cues', {}).get(k, 0.0) for it in items)

    return [sup, ref,
            float((w * s).sum() / w.sum()) if w.sum() > 0 else 0.0,
            float((w * r).sum() / w.sum()) if w.sum() > 0 else 0.0,
            max(it['p'][0] for it in top), max(it['p'][1] for it in top),
            max(it['coverage'] for it in items),
            float((s > 0.5).mean()), float((r > 0.5).mean()), sup * ref,
            cue('contra'), cue('sure'), cue('confirmed')] + [max(it.get('cues', {}).get('kinds', {}).get(k, 0.0) for it in items) for k in CONTRA_KINDS]


def claim_cues(row):
    """Mirror of ranking/verdict/stage.ts claimCues: a contradicted detail, one where the other details are stated, every detail stated; × topic."""
    v = dict(zip(DETAIL_FEATURES, row['x']))
    contra = v['topic'] if row['contra'] else 0.0
    rest = v['confirmed'] + v['unmentioned']
    others = v['confirmed'] / rest if rest > 0 else 0.5  # stage.ts othersStated
    sure = contra * others

    def by(*fs):
        return sure if any(v[f] > 0 for f in fs) else 0.0
    kinds = {'name': by('contra_name', 'contra_roles'), 'place': by('contra_place'), 'number': by('contra_number'), 'date': by('contra_date'),
             'direction': by('contra_direction'), 'negation': by('contra_negation')}
    return {'contra': contra, 'sure': sure, 'confirmed': v['all_confirmed'] * v['topic'], 'kinds': kinds}


def stance_of(p):
    """Mirror of judge.ts mostProbable: 0 supports, 1 refutes, 2 neither (ties to supports, then refutes)."""
    if p[0] >= p[1] and p[0] >= p[2]:
        return 0
    return 1 if p[1] >= p[2] else 2


def read_claims():
    head, rows = jsonl(os.path.join(DIR, 'claim-sentences.jsonl'))
    assert head['features'] == DETAIL_FEATURES, 'claim-sentences.jsonl names other detail features: rerun featurize-claims.ts'
    by = {}
    for r in rows:
        c = by.setdefault(r['id'], {'dataset': r['dataset'], 'label': r['label'], 'cands': []})
        if r['rank'] >= 0:
            c['cands'].append(r)
    return head, by


def reading_of(s, combiner):
    return {'topic': s['topic'], 'details': s['details'], **({'combiner': combiner} if s['reading'] == 'combined' and combiner else {})}


def claims_table(by, s, combiner):
    """Each claim's shown items under one setting, as the stage builds them (evidenceItems, judge, pickEvidence)."""
    reading = reading_of(s, combiner)
    claims = []
    for cid, c in by.items():
        cands, seen_rank = [], {}
        for r in c['cands']:
            if r['rank'] >= s['depth']:
                continue
            if r['kind'] == 'sentence':
                seen_rank[r['rank']] = seen_rank.get(r['rank'], 0) + 1
                if seen_rank[r['rank']] > s['sentences']:
                    continue
            elif not s['passages'] or r['kind'] != f"passage:{s['sentences']}":
                continue
            cands.append({**r, 'p': read(r['model'], r['x'], r['contra'], reading), 'cues': claim_cues(r)})
        # As evidenceItems: a result's sentences, then its passage (rows were written sentences first).
        cands.sort(key=lambda r: (r['rank'], r['kind'] != 'sentence', r['i']))
        items = [cands[i] for i in pick(cands, s['judged'])]
        claims.append({'id': cid, 'dataset': c['dataset'], 'y': LABELS.index(c['label']), 'items': items, 'x': claim_features(items)})
    return claims


def decide(P, X, commit, commit_refuted, mixed=MIXED, stances=None, commit_refuted_detail=None):
    """Mirror of ranking/verdict/decide.ts decide (vectorised): 0 SUPPORTED, 1 REFUTED, 2 NEI, 3 MIXED; and
    the confidence. `stances[i]` = (a shown item reads as supporting, one reads as refuting, one reads as
    refuting and contradicts a detail of the claim): a side commits only with its reason shown; REFUTED
    needs `commit_refuted_detail` where a contradicted detail is shown, `commit_refuted` otherwise."""
    P = np.asarray(P, dtype=float)
    X = np.asarray(X, dtype=float)
    has = np.asarray(stances if stances is not None else [(True, True, False)] * len(P), dtype=bool).reshape(len(P), 3)
    side = np.where(P[:, 0] >= P[:, 1], 0, 1)
    strong = np.maximum(P[:, 0], P[:, 1])
    rd = commit_refuted if commit_refuted_detail is None else commit_refuted_detail
    bar = np.where(side == 1, np.where(has[:, 2], rd, commit_refuted), commit)
    shown = has[np.arange(len(P)), side]
    commit_side = (strong >= bar) & (strong >= P[:, 2]) & shown
    is_mixed = ~commit_side & (X[:, 0] >= mixed) & (X[:, 1] >= mixed) & (P[:, 0] + P[:, 1] >= commit) & has[:, 0] & has[:, 1]
    out = np.where(commit_side, side, np.where(is_mixed, 3, 2))
    conf = np.where(commit_side, strong, np.where(is_mixed, P[:, 0] + P[:, 1], np.maximum(P[:, 2], 1 - strong)))
    return out, conf


def shown_stances(claims):
    return [(any(stance_of(it['p']) == 0 for it in c['items']), any(stance_of(it['p']) == 1 for it in c['items']),
             any(stance_of(it['p']) == 1 and it['cues']['contra'] > 0 for it in c['items'])) for c in claims]


def claim_metrics(y, pred, conf):
    scored = np.where(pred == 3, 2, pred)
    commit = pred != 2
    ok = scored == y
    n_commit = int(commit.sum())
    # The most confident fifth of the committed verdicts.
    order = np.argsort(-np.where(commit, conf, -1), kind='stable')
    k20 = int(round(0.2 * n_commit))
    top20 = ok[order[:k20]].mean() if k20 > 0 else None
    return {
        'n': len(y), 'macro_f1': macro_f1(list(y), list(scored), [0, 1, 2]), 'accuracy': float(ok.mean()),
        'committed_precision': float(ok[commit].mean()) if n_commit else None, 'coverage': n_commit / len(y),
        'refuted_precision': float(ok[pred == 1].mean()) if (pred == 1).sum() else None,
        'true_to_refuted': float(((y == 0) & (pred == 1)).sum() / max(1, (y == 0).sum())),
        'false_to_supported': float(((y == 1) & (pred == 0)).sum() / max(1, (y == 1).sum())),
        'false_to_refuted': float(((y == 1) & (pred == 1)).sum() / max(1, (y == 1).sum())),
        'top20_precision': float(top20) if top20 is not None else None,
    }


def claim_weights(claims):
    """Each dataset weighs the same, classes balanced within it."""
    w = np.ones(len(claims))
    ds = np.array([c['dataset'] for c in claims])
    y = np.array([c['y'] for c in claims])
    for d in set(ds):
        for c in range(3):
            m = (ds == d) & (y == c)
            if m.sum():
                w[m] = 1.0 / m.sum()
    return w * len(w) / w.sum()


def columns(features):
    return [CLAIM_FEATURES.index(f) for f in features]


_FOLDS = {}


def folds_of(claims):
    """5 folds stratified by label within each dataset, each dataset on its own: a claim's fold does
    not depend on which other datasets are in the table (so fits on different data compare fold by fold)."""
    key = tuple(c['id'] for c in claims)
    if key in _FOLDS:
        return _FOLDS[key]
    from sklearn.model_selection import StratifiedKFold
    folds = np.zeros(len(claims), dtype=int)
    ds = np.array([c['dataset'] for c in claims])
    y = np.array([c['y'] for c in claims])
    for d in sorted(set(ds)):
        idx = np.flatnonzero(ds == d)
        counts = np.bincount(y[idx])
        strat = y[idx] if counts[counts > 0].min() >= FOLDS else np.zeros(len(idx), int)  # too few of a label: unstratified
        for f, (_, te) in enumerate(StratifiedKFold(FOLDS, shuffle=True, random_state=SEED).split(idx, strat)):
            folds[idx[te]] = f
    _FOLDS[key] = folds
    return folds


# The claims read as the product reads them (through our own search): the thresholds are chosen on these.
PRODUCT_SETS = ('scifact', 'news', 'news-dev')


def fit_mask(claims, fit):
    """The claims the decision is fitted on: 'search' = those read through our own search (the
    product's inputs), 'all' = with the claims read against the evidence their data gives."""
    return np.array([fit == 'all' or c['dataset'] in PRODUCT_SETS for c in claims])


def oof(claims, features, fit='all'):
    X = np.array([c['x'] for c in claims])
    Xf = X[:, columns(features)]
    y = np.array([c['y'] for c in claims])
    folds = folds_of(claims)
    use = fit_mask(claims, fit)
    P = np.zeros((len(claims), 3))
    for k in range(FOLDS):
        tr, te = use & (folds != k), folds == k
        lr = LogisticRegression(C=1.0, max_iter=2000).fit(Xf[tr], y[tr], sample_weight=claim_weights([claims[i] for i in np.flatnonzero(tr)]))
        P[te] = lr.predict_proba(Xf[te])
    return X, y, P, folds


KEYS = ['macro_f1', 'committed_precision', 'coverage', 'refuted_precision', 'true_to_refuted', 'false_to_supported', 'false_to_refuted',
        'top20_precision']


def report(claims, X, y, P, folds, commit, commit_refuted, quiet=False, commit_refuted_detail=None):
    pred, conf = decide(P, X, commit, commit_refuted, stances=shown_stances(claims), commit_refuted_detail=commit_refuted_detail)
    ds = np.array([c['dataset'] for c in claims])
    lines = {}
    for d in sorted(set(ds)) + ['all']:
        m = ds == d if d != 'all' else np.ones(len(ds), bool)
        per_fold = [claim_metrics(y[m & (folds == k)], pred[m & (folds == k)], conf[m & (folds == k)]) for k in range(FOLDS)]
        lines[d] = {'whole': claim_metrics(y[m], pred[m], conf[m]), 'folds': per_fold}
    if not quiet:
        print(f"  {'set':14s} {'n':>5s} " + ' '.join(f'{k:>17s}' for k in KEYS))
        for d, v in lines.items():
            print(f"  {d:14s} {v['whole']['n']:5d} " + ' '.join(f"{mean_sd([f[k] for f in v['folds']]):>17s}" for k in KEYS))
    return lines


MAX_TRUE_TO_REFUTED = 0.05


def choose_thresholds(claims, X, y, P):
    """The commit thresholds with the best mean macro-F1 over the claims read through our search
    (PRODUCT_SETS), among those that call at most MAX_TRUE_TO_REFUTED of the true claims of each
    of those sets refuted (the error readers forgive least), REFUTED at least as strict as SUPPORTED,
    and REFUTED with a contradicted detail shown no stricter than without; on out-of-fold
    probabilities. Returns (mean macro-F1, commit, commit_refuted, commit_refuted_detail)."""
    ds = np.array([c['dataset'] for c in claims])
    st = shown_stances(claims)
    sets = [d for d in PRODUCT_SETS if (ds == d).any()]
    masks = [ds == d for d in sets]
    best = None
    grid = np.round(np.arange(0.3, 0.96, 0.05), 2)
    for commit, cr, crd in itertools.product(grid[grid <= 0.85], grid, grid):
        if cr < commit - 1e-9 or crd > cr + 1e-9 or crd < commit - 1e-9:
            continue
        pred, conf = decide(P, X, commit, cr, stances=st, commit_refuted_detail=crd)
        # The constraint first (cheap): true claims called REFUTED, per set.
        if any(((y[m] == 0) & (pred[m] == 1)).sum() > MAX_TRUE_TO_REFUTED * max(1, (y[m] == 0).sum()) for m in masks):
            continue
        f1 = statistics.mean(macro_f1(list(y[m]), list(np.where(pred[m] == 3, 2, pred[m])), [0, 1, 2]) for m in masks)
        if best is None or f1 > best[0] + 1e-9:
            best = (f1, float(commit), float(cr), float(crd))
    return best


def fold_scores(lines):
    """Per fold: the mean macro-F1 over the product's sets."""
    sets = [d for d in PRODUCT_SETS if d in lines]
    return [statistics.mean(lines[d]['folds'][k]['macro_f1'] for d in sets) for k in range(FOLDS)]


# The verdict stage's latency budget: about 30 model reads a claim (int8, 2 cores: docs/benchmarks.md).
MAX_READS = 32
# Settings tried, cheapest first: fewer items read, the model alone, the detail rule on, model features, fewer items judged,
# search fit, the lowest topic gate. The detail rule counts as the simpler reading: with it a sentence shown with a
# contradicted detail ("Baghdad here, Basra in the claim") is never also read as support, so the reason a reader sees
# and the details shown beside it agree; without it they can disagree. Data still decides whether it stays within
# one fold-spread of the best. Relevance comes before stance (a sentence about too little of the claim takes none): the gate is
# always on, data chooses how high.
SETTINGS = [dict(depth=d, sentences=s, passages=False, judged=j, reading=rd, topic=t, details=dt, features=f, fit=fit)
            for d, s, j, rd, t, dt, f, fit in itertools.product((3, 5), (2, 3), (4, 6), ('model', 'combined'), (0.35, 0.5, 0.65),
                                                               (False, True), ('model', 'details'), ('search', 'all'))
            if d * s <= MAX_READS]


def cost(s):
    return (s['depth'] * s['sentences'], s['reading'] == 'combined', not s['details'], s['features'] == 'details', s['judged'],
            s['fit'] == 'all', s['topic'])


def search(by, combiner, quick=False):
    results = []
    for s in sorted(SETTINGS, key=cost):
        if s['reading'] == 'combined' and not combiner:
            continue
        # --quick: a first look (depth 3, the claims read through our search), not for --write.
        if quick and (s['depth'] != 3 or s['fit'] != 'search'):
            continue
        claims = claims_table(by, s, combiner)
        feats = MODEL_FEATURES if s['features'] == 'model' else CLAIM_FEATURES
        X, y, P, folds = oof(claims, feats, s['fit'])
        th = choose_thresholds(claims, X, y, P)
        if th is None:
            continue
        f1, commit, cr, crd = th
        lines = report(claims, X, y, P, folds, commit, cr, quiet=True, commit_refuted_detail=crd)
        scores = fold_scores(lines)
        results.append({'setting': s, 'f1': f1, 'commit': commit, 'commit_refuted': cr, 'commit_refuted_detail': crd, 'folds': scores,
                        'mean': statistics.mean(scores), 'spread': statistics.pstdev(scores)})
        print(f"  {json.dumps(s):150s} {statistics.mean(scores):.4f} ± {statistics.pstdev(scores):.4f}  S {commit} / R {cr} / R+detail {crd}", flush=True)
    best = max(results, key=lambda r: r['mean'])
    # The cheapest setting within one fold-spread of the best (results are in cost order).
    chosen = next(r for r in results if r['mean'] >= best['mean'] - best['spread'])
    return results, best, chosen


def risk_coverage(y, P, X, stances, steps=10):
    """Committed precision as the commit threshold rises (both sides), on out-of-fold probabilities."""
    rows = []
    for t in np.linspace(0.35, 0.95, steps + 1):
        pred, _ = decide(P, X, t, t, stances=stances)
        commit = pred != 2
        ok = np.where(pred == 3, 2, pred) == y
        rows.append({'threshold': round(float(t), 2), 'coverage': round(float(commit.mean()), 4),
                     'precision': round(float(ok[commit].mean()), 4) if commit.sum() else None})
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--write', action='store_true')
    ap.add_argument('--quick', action='store_true', help='depth 3 and the search fit only: a first look, never written')
    args = ap.parse_args()
    if args.quick and args.write:
        ap.error('--quick chooses among fewer settings: it does not write')
    study, combiner = reading_study(pair_table())
    head, by = read_claims()
    print(f'\nclaim-level decision: {len(SETTINGS)} settings, 5-fold CV over {len(by)} held-out claims; mean macro-F1 over {"+".join(PRODUCT_SETS)} per fold:')
    results, best, chosen = search(by, combiner, args.quick)
    s = chosen['setting']
    print(f"\nbest: {json.dumps(best['setting'])} {best['mean']:.4f} ± {best['spread']:.4f}")
    print(f"chosen (the cheapest within one spread of the best): {json.dumps(s)} {chosen['mean']:.4f} ± {chosen['spread']:.4f}, commit S {chosen['commit']} / R {chosen['commit_refuted']} / R with a detail {chosen['commit_refuted_detail']}")
    claims = claims_table(by, s, combiner)
    feats = MODEL_FEATURES if s['features'] == 'model' else CLAIM_FEATURES
    X, y, P, folds = oof(claims, feats, s['fit'])
    lines = report(claims, X, y, P, folds, chosen['commit'], chosen['commit_refuted'], commit_refuted_detail=chosen['commit_refuted_detail'])
    rc = risk_coverage(y, P, X, shown_stances(claims))
    print('risk-coverage (all held-out claims, out of fold): ' + ', '.join(f"{r['threshold']}: {r['coverage']:.2f}/{r['precision']}" for r in rc))
    if args.write:
        write(study, head, claims, chosen, feats, lines, rc, results, combiner, by)


def write(study, head, claims, chosen, feats, lines, rc, results, combiner, by):
    s = chosen['setting']
    X = np.array([c['x'] for c in claims])
    y = np.array([c['y'] for c in claims])
    use = fit_mask(claims, s['fit'])
    fitted = [c for c, u in zip(claims, use) if u]
    lr = LogisticRegression(C=1.0, max_iter=2000).fit(X[use][:, columns(feats)], y[use], sample_weight=claim_weights(fitted))
    out = 'models/quin-nli'
    reading = reading_of(s, combiner)
    verdict = {
        'version': 5, 'depth': s['depth'], 'sentences': s['sentences'], 'passages': s['passages'], 'judged': s['judged'],
        'reading': reading,
        'features': feats, 'coef': [[round(float(v), 6) for v in row] for row in lr.coef_], 'intercept': [round(float(v), 6) for v in lr.intercept_],
        'commit': chosen['commit'], 'commit_refuted': chosen['commit_refuted'], 'commit_refuted_detail': chosen['commit_refuted_detail'], 'mixed': MIXED,
        'fitted': {'model': head['model'], 'claims': len(fitted), 'datasets': sorted({c['dataset'] for c in fitted}),
                   'reported': sorted({c['dataset'] for c in claims}),
                   'cv': {d: {k: (round(v, 4) if isinstance(v, float) else v) for k, v in res['whole'].items()} for d, res in lines.items()},
                   'cv_spread': {d: {k: mean_sd([f[k] for f in res['folds']]) for k in res['whole'] if k != 'n'} for d, res in lines.items()},
                   'risk_coverage': rc,
                   'settings_tried': [{**r['setting'], 'mean': round(r['mean'], 4), 'spread': round(r['spread'], 4)} for r in results],
                   'reading_study': study},
    }
    with open(os.path.join(out, 'verdict.json'), 'w') as f:
        json.dump(verdict, f, indent=1)
        f.write('\n')
    write_fixtures(claims, lr, feats, s, chosen, reading, by)
    print(f'wrote {out}/verdict.json and ranking/verdict/fixtures/{{claim-features,pick-parity,decide-parity,reading-parity}}.json')


def write_fixtures(claims, lr, feats, s, chosen, reading, by):
    """Parity fixtures: the TypeScript readPair, claimFeatures, pickEvidence and decide must give these for these inputs."""
    os.makedirs('ranking/verdict/fixtures', exist_ok=True)

    def dump(name, obj):
        with open(f'ranking/verdict/fixtures/{name}', 'w') as f:
            json.dump(obj, f)
            f.write('\n')

    def items_of(c):
        return [{'probs': dict(zip(['supports', 'refutes', 'neutral'], it['p'])), 'relevance': it['relevance'], 'recency': 1,
                 'rank': it['rank'], 'coverage': it['coverage'], 'cues': it['cues']} for it in c['items']]

    cases = [c for c in claims if c['items']][:: max(1, len(claims) // 15)][:15]
    dump('claim-features.json', [{'items': items_of(c), 'features': c['x']} for c in cases])
    picks = []
    for cid in list(by)[:: max(1, len(by) // 15)][:15]:
        cands = [{**r, 'p': read(r['model'], r['x'], r['contra'], reading)} for r in by[cid]['cands'] if r['kind'] == 'sentence']
        picks.append({'items': [{'rank': r['rank'], 'relevance': r['relevance']} for r in cands],
                      'probs': [dict(zip(['supports', 'refutes', 'neutral'], r['p'])) for r in cands], 'n': s['judged'], 'picked': pick(cands, s['judged'])})
    dump('pick-parity.json', picks)
    rows = [r for c in list(by.values())[::max(1, len(by) // 30)] for r in c['cands'][:2]][:40]
    rows += [r for c in by.values() for r in c['cands'] if r['contra']][:10]
    dump('reading-parity.json', [{'model': dict(zip(['supports', 'refutes', 'neutral'], r['model'])), 'values': dict(zip(DETAIL_FEATURES, r['x'])),
                                  'contradicted': bool(r['contra']), 'read': dict(zip(['supports', 'refutes', 'neutral'], read(r['model'], r['x'], r['contra'], reading)))}
                                 for r in rows])
    X = np.array([c['x'] for c in claims])
    pred, _ = decide(lr.predict_proba(X[:, columns(feats)]), X, chosen['commit'], chosen['commit_refuted'], stances=shown_stances(claims),
                     commit_refuted_detail=chosen['commit_refuted_detail'])
    labels = ['SUPPORTED', 'REFUTED', 'NOT_ENOUGH_EVIDENCE', 'MIXED']
    # Every label the rule gives, and claims whose side was withheld for want of a shown reason.
    idx = list(range(0, len(claims), max(1, len(claims) // 20)))[:20]
    idx += [i for i in range(len(claims)) if pred[i] in (1, 3)][:5]
    dump('decide-parity.json', [{'items': items_of(claims[i]), 'label': labels[int(pred[i])]} for i in idx])


if __name__ == '__main__':
    sys.exit(main())
