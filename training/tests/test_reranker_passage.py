"""The reranker's training passages are built as the product's stage builds them: the cases of
ranking/rerank/fixtures/passage-cases.json, which ranking/rerank/rerank.test.ts checks for TypeScript.

    python3 -m pytest training/tests
"""
import json
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
sys.path.insert(0, os.path.join(ROOT, 'training', 'reranker'))
from passage import render  # noqa: E402


def test_passage_cases():
    with open(os.path.join(ROOT, 'ranking', 'rerank', 'fixtures', 'passage-cases.json'), encoding='utf8') as f:
        cases = json.load(f)
    assert len(cases) >= 5
    for c in cases:
        cand = {'title': c['title'], 'sentences': c['sentences'], 'text': ' '.join(c['sentences']), 'scores': c['scores']}
        assert render(cand, 'window', c['chars']) == c['window'], c['why']
        assert render(cand, 'best', c['chars']) == c['best'], c['why']
