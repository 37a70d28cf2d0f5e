"""Re-export a shipped int8 model folder through common.export_int8 (the current exporter), keeping its
weights: the int8 graph is dequantised (common.state_from_int8_onnx), loaded into the same MiniLM
classifier and quantised again. Symmetric per-channel int8 puts each dequantised row back on the grid
it came from, so the weights are the same to the bit; only the graph around them changes. The folder's
parity fixture is rescored (its `int8` values: what Python's onnxruntime gives for each pair, one pair
a call; the PyTorch values stay those of the fp32 training checkpoint).

    .cache/nli-env/bin/python training/reexport_int8.py models/quin-reranker lib/models/fixtures/quin-reranker-parity.json
    .cache/nli-env/bin/python training/reexport_int8.py models/quin-nli lib/models/fixtures/quin-nli-parity.json
"""
import json
import os
import sys
import tempfile

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import MINILM_INIT, cpu_session, export_int8, minilm_classifier, pair_tensors, state_from_int8_onnx  # noqa: E402



def reexport(folder):
    with open(os.path.join(folder, 'config.json')) as f:
        config = json.load(f)
    labels = [config['id2label'][str(i)] for i in range(len(config['id2label']))]
    model = minilm_classifier(MINILM_INIT, config['num_hidden_layers'], labels)
    state = state_from_int8_onnx(os.path.join(folder, 'model.onnx'))
    missing, unexpected = model.load_state_dict(state, strict=False)
    missing = [k for k in missing if k != 'bert.embeddings.position_ids']
    if missing or unexpected:
        raise ValueError(f'{folder}: missing {missing[:5]}, unexpected {unexpected[:5]}')
    model.eval()
    with tempfile.TemporaryDirectory() as run:
        export_int8(model, run, folder)
    return os.path.join(folder, 'model.onnx')


def rescore(onnx_path, fixture):
    with open(fixture) as f:
        cases = json.load(f)
    sess = cpu_session(onnx_path)
    moved = 0.0
    for c in cases:
        ids, mask, types = pair_tensors([c['ids']], 'cpu')
        out = sess.run(['logits'], {'input_ids': ids.numpy(), 'attention_mask': mask.numpy(), 'token_type_ids': types.numpy()})[0][0]
        if isinstance(c['int8'], list):  # an NLI fixture holds probabilities
            p = np.exp(out - out.max())
            new = [round(float(x), 6) for x in p / p.sum()]
            moved = max(moved, max(abs(a - b) for a, b in zip(new, c['int8'])))
        else:
            new = round(float(out.reshape(-1)[-1] if len(out) == 1 else out[-1] - out[0]), 5)
            moved = max(moved, abs(new - c['int8']))
        c['int8'] = new
    with open(fixture, 'w') as f:
        json.dump(cases, f, indent=1)
        f.write('\n')
    return moved


if __name__ == '__main__':
    torch.set_num_threads(2)
    path = reexport(sys.argv[1])
    print(f'{path}: re-exported; parity values moved by at most {rescore(path, sys.argv[2]):.5f}', flush=True)
