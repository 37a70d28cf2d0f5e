"""The Python side of the verdict's parity fixtures (ranking/verdict/fixtures/, written by
train_verdict.py --write): the reading of a sentence, the claim features, the choice of sentences and
the commit rule computed here must still give what was written, as ranking/verdict/parity.test.ts
checks for TypeScript.

    python3 -m pytest training/tests
"""
import json
import os
import sys

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
sys.path.insert(0, os.path.join(ROOT, 'training', 'stance'))
import train_verdict as tv  # noqa: E402

FIXTURES = os.path.join(ROOT, 'ranking', 'verdict', 'fixtures')


def read(name):
    with open(os.path.join(FIXTURES, name)) as f:
        return json.load(f)


def as_items(items):
    return [{'p': [it['probs']['supports'], it['probs']['refutes'], it['probs']['neutral']], 'relevance': it['relevance'],
             'recency': it['recency'], 'rank': it['rank'], 'coverage': it['coverage'], 'cues': it.get('cues', {})} for it in items]


def test_claim_features():
    cases = read('claim-features.json')
    assert len(cases) >= 10
    for c in cases:
        assert np.allclose(tv.claim_features(as_items(c['items'])), c['features'], atol=1e-9)


def test_pick():
    cases = read('pick-parity.json')
    assert len(cases) >= 10
    for c in cases:
        cands = [{'rank': it['rank'], 'relevance': it['relevance'], 'p': [p['supports'], p['refutes'], p['neutral']]}
                 for it, p in zip(c['items'], c['probs'])]
        assert tv.pick(cands, c['n']) == c['picked']


def test_decide_with_the_shipped_verdict_json():
    with open(os.path.join(ROOT, 'models', 'quin-nli', 'verdict.json')) as f:
        agg = json.load(f)
    assert set(agg['features']) <= set(tv.CLAIM_FEATURES)
    labels = ['SUPPORTED', 'REFUTED', 'NOT_ENOUGH_EVIDENCE', 'MIXED']
    cases = read('decide-parity.json')
    assert len(cases) >= 10
    for c in cases:
        x = np.array(tv.claim_features(as_items(c['items'])))
        z = np.array(agg['intercept']) + np.array(agg['coef']) @ x[tv.columns(agg['features'])]
        p = np.exp(z - z.max())
        p /= p.sum()
        items = as_items(c['items'])
        shown = [tv.stance_of(it['p']) for it in items]
        detail = any(tv.stance_of(it['p']) == 1 and it['cues'].get('contra', 0) > 0 for it in items)
        pred, _ = tv.decide(p[None, :], x[None, :], agg['commit'], agg['commit_refuted'], agg['mixed'], stances=[(0 in shown, 1 in shown, detail)],
                            commit_refuted_detail=agg.get('commit_refuted_detail'))
        assert labels[int(pred[0])] == c['label']


def test_reading_with_the_shipped_verdict_json():
    path = os.path.join(FIXTURES, 'reading-parity.json')
    if not os.path.exists(path):  # written by the first fit of a version-5 verdict.json
        return
    with open(os.path.join(ROOT, 'models', 'quin-nli', 'verdict.json')) as f:
        reading = json.load(f)['reading']
    cases = read('reading-parity.json')
    assert len(cases) >= 10
    for c in cases:
        m = [c['model']['supports'], c['model']['refutes'], c['model']['neutral']]
        x = [c['values'][k] for k in tv.DETAIL_FEATURES]
        got = tv.read(m, x, c['contradicted'], reading)
        assert np.allclose(got, [c['read']['supports'], c['read']['refutes'], c['read']['neutral']], atol=1e-6)
