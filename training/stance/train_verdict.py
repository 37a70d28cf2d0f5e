"""The verdict's fitted files for the pair model in models/quin-nli, chosen and reported by k-fold
cross-validation on claims and pairs the pair model never trained on:

  stance.json   only if a stance classifier over the model's log-probabilities and the alignment
                features beats the model alone (pairs: features.jsonl, 5 folds by claim). Otherwise
                no stance.json is written and the model decides (with the rule that a different name,
                number or year is never support, which ranking/verdict/judge.ts always applies).
  verdict.json  the claim-level decision: which sentences are judged (results read, sentences per
                result, how many are judged), a multinomial logistic regression over CLAIM_FEATURES
                of the judged sentences → P(SUPPORTED / REFUTED / NOT ENOUGH EVIDENCE), and the
                commit thresholds (claim-sentences.jsonl: SciFact and news claims as our search
                retrieves them, Climate-FEVER, COVID-Fact and HealthVer claims with their evidence).

Cross-validation: 5 folds over claims, stratified by dataset and label; every number is out of fold
and printed as mean ± spread across folds. Thresholds are chosen on the out-of-fold probabilities for
precision (a wrong verdict costs a reader more than "not enough evidence").

    /usr/bin/python3 training/stance/train_verdict.py [--write]
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
# Mirror of ranking/verdict/decide.ts CLAIM_FEATURES (a parity fixture checks the two agree).
CLAIM_FEATURES = ['max_sup', 'max_ref', 'mean_sup', 'mean_ref', 'top_sup', 'top_ref', 'max_cov', 'n_sup', 'n_ref', 'conflict',
                  'max_neg_cue', 'max_opposite_cue', 'max_number_cue', 'max_exact']
PER_RESULT = 2  # ranking/verdict/stage.ts PER_RESULT
MIXED = 0.8
# Held-out pair sets that decide whether a stance classifier is worth it (the judged kinds of pairs).
STANCE_TARGETS = ['fever', 'healthver', 'scifact', 'climate-fever', 'covidfact', 'news', 'cad_snli', 'fnc1']
# Pairs we generated ourselves are reported but never fitted on by the stance classifier (it is fitted on real labelled pairs).
GENERATED = {'fever-nei'}


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


# --- per-sentence stance: is a stance classifier over model + alignment worth it? ---------------

def never_for(judged):
    """Which rule of ranking/verdict/judge.ts neverFor applied: 'subject' (neither side), True (no support), False."""
    if judged[0] == 0.0 and judged[1] == 0.0 and judged[2] == 1.0:
        return 'subject'
    return judged[0] == 0.0


def apply_rule(p, nf):
    if nf == 'subject':
        return np.array([0.0, 0.0, 1.0])
    return np.array([0.0, p[1], p[2] + p[0]]) if nf else p


def LogisticRegression(**kw):  # noqa: N802 - sklearn's class, imported when fitting (the parity tests need numpy only)
    from sklearn.linear_model import LogisticRegression as LR
    return LR(**kw)


def balanced_lr(X, y, sets):
    """A multinomial logistic regression in which each set weighs the same, classes balanced within it."""
    w = np.ones(len(y))
    for s in set(sets):
        for c in range(3):
            m = (sets == s) & (y == c)
            if m.sum():
                w[m] = 1.0 / m.sum()
    return LogisticRegression(C=1.0, max_iter=2000).fit(X, y, sample_weight=w * len(w) / w.sum())


def stance_study(write):
    """Is a classifier over the model's log-probabilities and the alignment features worth it?
    Cross-validated (5 folds by claim) on the held-out dev pairs of real sets; the public test splits
    (FNC-1 competition, SICK, CAD-SNLI, COVID-Fact, RTE, Perspectrum, ARC, LIAR) are only scored, with
    the classifier fitted on every dev pair."""
    path = os.path.join(DIR, 'features.jsonl')
    if not os.path.exists(path):
        print(f'{path} missing: run training/stance/featurize.ts (stance study skipped)')
        return None
    head, rows = jsonl(path)
    names = head['features']
    y = np.array([PAIR_LABELS.index(r['label']) for r in rows])
    M = np.array([r['model'] for r in rows])
    J = np.array([r['judged'] for r in rows])
    X = np.hstack([np.log(np.clip(M, 1e-4, 1)), np.array([r['x'] for r in rows])])
    nf = [never_for(r['judged']) for r in rows]
    sets = np.array([r['set'].replace('-unrelated', '') for r in rows])
    dev = np.array([r['split'] == 'dev' for r in rows])
    fit_on = dev & ~np.isin(sets, list(GENERATED))
    groups = np.array([r['group'] for r in rows])
    # Folds by claim (group): deterministic.
    uniq = sorted(set(groups))
    rs = np.random.RandomState(SEED)
    fold_of = dict(zip(uniq, rs.randint(0, FOLDS, len(uniq))))
    fold = np.array([fold_of[g] for g in groups])
    stacked = np.zeros_like(M)
    for k in range(FOLDS):
        tr, te = fit_on & (fold != k), dev & (fold == k)
        stacked[te] = balanced_lr(X[tr], y[tr], sets[tr]).predict_proba(X[te])
    final = balanced_lr(X[fit_on], y[fit_on], sets[fit_on])
    stacked[~dev] = final.predict_proba(X[~dev])
    stacked_rule = np.array([apply_rule(p, f) for p, f in zip(stacked, nf)])
    print('\nper-sentence stance on held-out pairs (macro-F1 over the labels each set uses); dev splits: mean ± spread over 5 folds by claim;')
    print('test splits: one number, the classifier fitted on every dev pair:')
    print(f"{'set:split':22s} {'n':>6s}  {'model alone':>15s}  {'model + rule':>15s}  {'stacked + rule':>15s}")
    gains, test_gains, table = [], [], {}
    for split in ('dev', 'test'):
        for s in STANCE_TARGETS + sorted(set(sets) - set(STANCE_TARGETS)):
            m = (sets == s) & (dev if split == 'dev' else ~dev)
            if not m.sum():
                continue
            used = sorted(set(y[m]))
            if split == 'dev':
                res = [mean_sd([macro_f1(y[m & (fold == k)], P[m & (fold == k)].argmax(1), used) for k in range(FOLDS) if (m & (fold == k)).sum()])
                       for P in (M, J, stacked_rule)]
                if s in STANCE_TARGETS:
                    gains.append(float(res[2].split()[0]) - float(res[1].split()[0]))
            else:
                res = [f'{macro_f1(y[m], P[m].argmax(1), used):.3f}' for P in (M, J, stacked_rule)]
                test_gains.append(float(res[2]) - float(res[1]))
            print(f'{s + ":" + split:22s} {m.sum():6d}  {res[0]:>15s}  {res[1]:>15s}  {res[2]:>15s}')
            table[f'{s}:{split}'] = {'n': int(m.sum()), 'model': res[0], 'model_rule': res[1], 'stacked_rule': res[2]}
    gain, test_gain = statistics.mean(gains), statistics.mean(test_gains)
    print(f'stacked vs model + rule: {gain:+.4f} macro-F1 on the target sets (dev, cross-validated), {test_gain:+.4f} on the test splits')
    # The simpler choice unless the classifier gains clearly on dev (at least 0.02 on average) and does not lose on the test splits.
    use = gain >= 0.02 and test_gain >= 0
    print('choice:', 'stance.json (stacked classifier)' if use else 'no stance.json: the model decides (simpler; the classifier gains too little)')
    out = {'use': use, 'table': table, 'gain': round(gain, 4), 'test_gain': round(test_gain, 4)}
    if use:
        out.update({'model': head['model'], 'names': ['nli_e', 'nli_c', 'nli_n'] + names, 'lr': final})
    return out


def stance_probs(study, row):
    """The judged probabilities of a candidate sentence under the chosen stance rule."""
    m = np.array(row['model'], dtype=float)
    nf = never_for(row['judged'])
    if study and study['use']:
        x = np.hstack([np.log(np.clip(m, 1e-4, 1)), np.array(row['x'])])
        return apply_rule(study['lr'].predict_proba(x[None, :])[0], nf)
    return np.array(row['judged'], dtype=float)


# --- per-claim decision --------------------------------------------------------------------------

def answer_score(p, relevance):
    """Mirror of ranking/verdict/stage.ts answerScore."""
    return (1 - p[2]) * (0.5 + 0.5 * max(0.0, min(1.0, relevance)))


def pick(cands, n):
    """Mirror of ranking/verdict/stage.ts pickEvidence: best answers first, at most PER_RESULT per result, ties by position."""
    order = sorted(range(len(cands)), key=lambda i: (-answer_score(cands[i]['model'], cands[i]['relevance']), i))
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
            cue('neg'), cue('opposite'), cue('number'), cue('exact')]


def claim_cues(x, names):
    """Mirror of ranking/verdict/stage.ts claimCues: the alignment cues a judged sentence brings to the claim's features."""
    v = dict(zip(names, x))
    return {'neg': v['neg_mismatch_x_cov'], 'opposite': v['antonym_x_cov'], 'number': v['num_different'] * v['cov'], 'exact': v['cov_exact']}


def claims_table(study, depth, sentences, judged):
    head, rows = jsonl(os.path.join(DIR, 'claim-sentences.jsonl'))
    by = {}
    for r in rows:
        c = by.setdefault(r['id'], {'dataset': r['dataset'], 'label': r['label'], 'cands': []})
        if r['rank'] >= 0:
            c['cands'].append(r)
    claims = []
    for cid, c in by.items():
        # As evidenceItems: the top `depth` results' first `sentences` sentences (rows come in that order).
        cands, seen_rank = [], {}
        for r in c['cands']:
            if r['rank'] >= depth:
                continue
            seen_rank[r['rank']] = seen_rank.get(r['rank'], 0) + 1
            if seen_rank[r['rank']] <= sentences:
                cands.append({**r, 'p': stance_probs(study, r).tolist(), 'cues': claim_cues(r['x'], head['features'])})
        items = [cands[i] for i in pick(cands, judged)]
        claims.append({'id': cid, 'dataset': c['dataset'], 'y': LABELS.index(c['label']), 'items': items, 'x': claim_features(items)})
    return head, claims


def decide(P, X, commit, commit_refuted, mixed=MIXED):
    """Mirror of ranking/verdict/decide.ts decide: 0 SUPPORTED, 1 REFUTED, 2 NEI, 3 MIXED; and the confidence."""
    out, conf = [], []
    for p, x in zip(P, X):
        side = 0 if p[0] >= p[1] else 1
        strong = max(p[0], p[1])
        bar = commit_refuted if side == 1 else commit
        if strong >= bar and strong >= p[2]:
            out.append(side)
            conf.append(strong)
        elif x[0] >= mixed and x[1] >= mixed and p[0] + p[1] >= commit:
            out.append(3)
            conf.append(p[0] + p[1])
        else:
            out.append(2)
            conf.append(max(p[2], 1 - strong))
    return np.array(out), np.array(conf)


def claim_metrics(y, pred, conf):
    scored = np.where(pred == 3, 2, pred)
    commit = pred != 2
    ok = scored == y
    n_commit = int(commit.sum())
    order = np.argsort(-np.where(commit, conf, -1), kind='stable')
    k20 = int(round(0.2 * len(y)))
    top20 = ok[order[:k20]].mean() if 0 < k20 <= n_commit else None
    return {
        'n': len(y), 'macro_f1': macro_f1(list(y), list(scored), [0, 1, 2]), 'accuracy': float(ok.mean()),
        'committed_precision': float(ok[commit].mean()) if n_commit else None, 'coverage': n_commit / len(y),
        'refuted_precision': float(ok[pred == 1].mean()) if (pred == 1).sum() else None,
        'true_to_refuted': float(((y == 0) & (pred == 1)).sum() / max(1, (y == 0).sum())),
        'false_to_supported': float(((y == 1) & (pred == 0)).sum() / max(1, (y == 1).sum())),
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


def oof(claims):
    from sklearn.model_selection import StratifiedKFold
    X = np.array([c['x'] for c in claims])
    y = np.array([c['y'] for c in claims])
    strat = np.array([f"{c['dataset']}:{c['y']}" for c in claims])
    folds = np.zeros(len(claims), dtype=int)
    P = np.zeros((len(claims), 3))
    w = claim_weights(claims)
    for k, (tr, te) in enumerate(StratifiedKFold(FOLDS, shuffle=True, random_state=SEED).split(X, strat)):
        lr = LogisticRegression(C=1.0, max_iter=2000).fit(X[tr], y[tr], sample_weight=w[tr])
        P[te] = lr.predict_proba(X[te])
        folds[te] = k
    return X, y, P, folds


def report(claims, X, y, P, folds, commit, commit_refuted, label=''):
    pred, conf = decide(P, X, commit, commit_refuted)
    ds = np.array([c['dataset'] for c in claims])
    lines = {}
    for d in sorted(set(ds)) + ['all']:
        m = ds == d if d != 'all' else np.ones(len(ds), bool)
        per_fold = [claim_metrics(y[m & (folds == k)], pred[m & (folds == k)], conf[m & (folds == k)]) for k in range(FOLDS)]
        whole = claim_metrics(y[m], pred[m], conf[m])
        lines[d] = {'whole': whole, 'folds': per_fold}
    if label:
        print(label)
    keys = ['macro_f1', 'committed_precision', 'coverage', 'refuted_precision', 'true_to_refuted', 'false_to_supported', 'top20_precision']
    print(f"  {'set':14s} {'n':>5s} " + ' '.join(f'{k:>17s}' for k in keys))
    for d, v in lines.items():
        print(f"  {d:14s} {v['whole']['n']:5d} " + ' '.join(f"{mean_sd([f[k] for f in v['folds']]):>17s}" for k in keys))
    return lines


def balanced_precision(y, pred, ds):
    """Committed precision with every dataset weighing the same (COVID-Fact would otherwise be most of it)."""
    correct = commits = 0.0
    for d in set(ds):
        m = ds == d
        commit = pred[m] != 2
        ok = np.where(pred[m] == 3, 2, pred[m]) == y[m]
        correct += (ok & commit).sum() / m.sum()
        commits += commit.sum() / m.sum()
    return correct / commits if commits else None, commits / len(set(ds))


# The claims read as the product reads them (through our own search): the thresholds are chosen on these.
PRODUCT_SETS = ('scifact', 'news')
MAX_TRUE_TO_REFUTED = 0.05


def choose_thresholds(claims, X, y, P):
    """The commit thresholds with the best mean macro-F1 over the claims read through our search
    (PRODUCT_SETS), among those that call at most MAX_TRUE_TO_REFUTED of the true claims of each
    of those sets refuted (the error readers forgive least), REFUTED at least as strict as SUPPORTED;
    on out-of-fold probabilities. Returns (mean macro-F1, commit, commit_refuted, committed precision)."""
    ds = np.array([c['dataset'] for c in claims])
    on = np.isin(ds, PRODUCT_SETS)
    best = None
    for commit, cr in itertools.product(np.arange(0.3, 0.86, 0.05), np.arange(0.3, 0.96, 0.05)):
        if cr < commit - 1e-9:
            continue
        pred, conf = decide(P, X, commit, cr)
        per = [claim_metrics(y[ds == d], pred[ds == d], conf[ds == d]) for d in PRODUCT_SETS]
        if max(m['true_to_refuted'] for m in per) > MAX_TRUE_TO_REFUTED:
            continue
        f1 = statistics.mean(m['macro_f1'] for m in per)
        prec, _ = balanced_precision(y[on], pred[on], ds[on])
        if best is None or f1 > best[0] + 1e-9:
            best = (f1, round(float(commit), 2), round(float(cr), 2), round(prec or 0.0, 4))
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--write', action='store_true')
    args = ap.parse_args()
    study = stance_study(args.write)
    print('\nclaim-level decision (5-fold CV over held-out claims; thresholds chosen on out-of-fold probabilities):')
    results = []
    for depth, sentences, judged in [(5, 3, 4), (5, 5, 6), (8, 5, 6), (8, 5, 8)]:
        head, claims = claims_table(study, depth, sentences, judged)
        X, y, P, folds = oof(claims)
        th = choose_thresholds(claims, X, y, P)
        if th is None:
            print(f'depth {depth} × {sentences}, judged {judged}: no thresholds reach 0.85 committed precision')
            continue
        f1, commit, cr, prec = th
        print(f'\ndepth {depth} × {sentences} sentences, judged {judged}: commit S {commit} / R {cr}: on {"+".join(PRODUCT_SETS)} mean macro-F1 {f1:.4f}, committed precision {prec:.4f}')
        lines = report(claims, X, y, P, folds, commit, cr)
        results.append((f1, depth, sentences, judged, commit, cr, claims, lines))
    # The best mean macro-F1; a larger reading only when it gains more than 0.01 (reading less is faster).
    results.sort(key=lambda r: (r[1] * r[2], r[3]))
    chosen = results[0]
    for r in results[1:]:
        if r[0] > chosen[0] + 0.01:
            chosen = r
    f1, depth, sentences, judged, commit, cr, claims, lines = chosen
    print(f'\nchosen: depth {depth} × {sentences}, judged {judged}, commit S {commit} / R {cr} (mean macro-F1 {f1:.4f})')
    if args.write:
        write(study, head, claims, depth, sentences, judged, commit, cr, lines)


def write(study, head, claims, depth, sentences, judged, commit, cr, lines):
    X = np.array([c['x'] for c in claims])
    y = np.array([c['y'] for c in claims])
    lr = LogisticRegression(C=1.0, max_iter=2000).fit(X, y, sample_weight=claim_weights(claims))
    out = 'models/quin-nli'
    verdict = {
        'version': 3, 'depth': depth, 'sentences': sentences, 'judged': judged, 'features': CLAIM_FEATURES,
        'coef': [[round(float(v), 6) for v in row] for row in lr.coef_], 'intercept': [round(float(v), 6) for v in lr.intercept_],
        'commit': commit, 'commit_refuted': cr, 'mixed': MIXED,
        'fitted': {'model': head['model'], 'claims': len(claims), 'datasets': sorted({c['dataset'] for c in claims}),
                   'cv': {d: {k: (round(v, 4) if isinstance(v, float) else v) for k, v in res['whole'].items()} for d, res in lines.items()},
                   'cv_spread': {d: {k: mean_sd([f[k] for f in res['folds']]) for k in res['whole'] if k != 'n'} for d, res in lines.items()},
                   'stance_study': {'table': study['table'], 'gain': study['gain'], 'test_gain': study['test_gain'], 'stance_json': study['use']} if study else None},
    }
    with open(os.path.join(out, 'verdict.json'), 'w') as f:
        json.dump(verdict, f, indent=1)
        f.write('\n')
    stance_file = os.path.join(out, 'stance.json')
    if study and study['use']:
        lr_s = study['lr']
        with open(stance_file, 'w') as f:
            json.dump({'features': study['names'], 'nli': study['model'], 'model': {'kind': 'logistic', 'coef': lr_s.coef_.round(6).tolist(),
                                                                                   'intercept': lr_s.intercept_.round(6).tolist()}}, f)
            f.write('\n')
        # Parity fixture: the TypeScript classify(stanceInput(...)) must give these probabilities.
        head_f, rows = jsonl(os.path.join(DIR, 'features.jsonl'))
        sample = rows[:: max(1, len(rows) // 40)][:40]
        Xs = np.hstack([np.log(np.clip(np.array([r['model'] for r in sample]), 1e-4, 1)), np.array([r['x'] for r in sample])])
        with open('ranking/verdict/fixtures/stance-parity.json', 'w') as f:
            json.dump([{'values': dict(zip(head_f['features'], r['x'])), 'model': r['model'], 'p': [round(float(v), 8) for v in p]}
                       for r, p in zip(sample, lr_s.predict_proba(Xs))], f)
            f.write('\n')
    else:
        for f in (stance_file, 'ranking/verdict/fixtures/stance-parity.json'):
            if os.path.exists(f):
                os.remove(f)
    # Parity fixtures: the TypeScript claimFeatures and pickEvidence must give these for these inputs.
    os.makedirs('ranking/verdict/fixtures', exist_ok=True)
    cases = [c for c in claims if c['items']][:: max(1, len(claims) // 15)][:15]
    with open('ranking/verdict/fixtures/claim-features.json', 'w') as f:
        json.dump([{'items': [{'probs': dict(zip(['supports', 'refutes', 'neutral'], it['p'])), 'relevance': it['relevance'], 'recency': 1,
                               'rank': it['rank'], 'coverage': it['coverage'], 'cues': it['cues']} for it in c['items']], 'features': c['x']} for c in cases], f)
        f.write('\n')
    _, rows = jsonl(os.path.join(DIR, 'claim-sentences.jsonl'))
    by = {}
    for r in rows:
        if r['rank'] >= 0:
            by.setdefault(r['id'], []).append(r)
    picks = []
    for cid in list(by)[:: max(1, len(by) // 15)][:15]:
        cands = by[cid]
        picks.append({'items': [{'rank': r['rank'], 'relevance': r['relevance']} for r in cands],
                      'probs': [dict(zip(['supports', 'refutes', 'neutral'], r['model'])) for r in cands], 'n': judged, 'picked': pick(cands, judged)})
    with open('ranking/verdict/fixtures/pick-parity.json', 'w') as f:
        json.dump(picks, f)
        f.write('\n')
    P = lr.predict_proba(X)
    pred, _ = decide(P, X, commit, cr)
    with open('ranking/verdict/fixtures/decide-parity.json', 'w') as f:
        json.dump([{'items': [{'probs': dict(zip(['supports', 'refutes', 'neutral'], it['p'])), 'relevance': it['relevance'], 'recency': 1,
                               'rank': it['rank'], 'coverage': it['coverage'], 'cues': it['cues']} for it in c['items']],
                    'label': ['SUPPORTED', 'REFUTED', 'NOT_ENOUGH_EVIDENCE', 'MIXED'][int(p)]} for c, p in list(zip(claims, pred))[:: max(1, len(claims) // 20)][:20]], f)
        f.write('\n')
    print(f'wrote {out}/verdict.json' + (', stance.json' if study and study['use'] else ' (no stance.json)') + ' and ranking/verdict/fixtures/{claim-features,pick-parity,decide-parity}.json')


if __name__ == '__main__':
    sys.exit(main())
