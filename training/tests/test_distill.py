"""The pure parts of the reranker's distillation (training/reranker/distill.py): which teacher layers a
student keeps and how they are renumbered, the student specs, and the loss (hard-label cross-entropy
mixed with the KL from the teacher's softened scores).

    python3 -m pytest training/tests
"""
import math
import os
import sys

import pytest

# The distillation is training code: without PyTorch (training/setup.sh installs it) there is nothing to test.
torch = pytest.importorskip('torch', reason='PyTorch is not installed here (bash training/setup.sh installs it)')

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
sys.path.insert(0, os.path.join(ROOT, 'training', 'reranker'))
import distill  # noqa: E402


def test_pick_layers_keeps_and_renumbers_the_chosen_layers_only():
    state = {f'bert.encoder.layer.{i}.attention.self.query.weight': torch.full((1,), float(i)) for i in range(6)}
    state['bert.embeddings.word_embeddings.weight'] = torch.zeros(2)
    state['classifier.weight'] = torch.ones(1)
    picked = distill.pick_layers(state, [0, 2, 4])
    layers = {k: float(v[0]) for k, v in picked.items() if k.startswith('bert.encoder.layer.')}
    assert layers == {'bert.encoder.layer.0.attention.self.query.weight': 0.0,
                      'bert.encoder.layer.1.attention.self.query.weight': 2.0,
                      'bert.encoder.layer.2.attention.self.query.weight': 4.0}
    assert 'bert.embeddings.word_embeddings.weight' in picked and 'classifier.weight' in picked
    # Layer 1 is not layer 10's prefix: the index is a whole path component.
    wide = {f'bert.encoder.layer.{i}.output.dense.bias': torch.full((1,), float(i)) for i in range(12)}
    assert float(distill.pick_layers(wide, [10, 1])['bert.encoder.layer.0.output.dense.bias'][0]) == 10.0


def test_parse_student():
    assert distill.parse_student('3L=0,1,2', 0.5) == ('3L', [0, 1, 2], 0.5)
    assert distill.parse_student('3Lhard=0,1,2:alpha=1', 0.5) == ('3Lhard', [0, 1, 2], 1.0)


def test_group_loss_is_cross_entropy_at_alpha_1_and_zero_kl_on_the_teacher():
    s = torch.tensor([2.0, 0.5, -1.0, 0.0])
    t = torch.tensor([1.0, 3.0, 0.0, -2.0])
    ce = -torch.log_softmax(s, -1)[0]
    assert math.isclose(float(distill.group_loss(s, t, 1.0, 2.0)), float(ce), rel_tol=1e-6)
    assert abs(float(distill.group_loss(t, t, 0.0, 2.0))) < 1e-6
    # Moving the student towards the teacher lowers the distillation term.
    assert float(distill.group_loss(0.5 * (s + t), t, 0.0, 2.0)) < float(distill.group_loss(s, t, 0.0, 2.0))
