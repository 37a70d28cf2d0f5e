"""Shared pieces of our own models' training: paths, seeds, a metric, and the model folder's files.

Our models read the BERT uncased token ids that lib/models' tokenizer produces (the tokenizer.json the
repository keeps), so a trained model is a standard Hugging Face ONNX folder: input_ids, attention_mask,
token_type_ids -> logits, config.json with id2label, tokenizer_config.json naming that tokenizer.json.
"""
import json
import os
import random

import numpy as np
import torch

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
CACHE = os.environ.get('QUIN_TRAINING_CACHE') or os.path.join(ROOT, '.cache', 'training')
SHARED = os.environ.get('QUIN_SHARED_DATA') or os.path.join(ROOT, '..', 'shared', 'data')
TOKENIZER = os.path.join(SHARED, 'tokenizers', 'bert-base-uncased')


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def macro_f1(gold, pred, labels):
    f1s = []
    for label in labels:
        tp = sum(1 for g, p in zip(gold, pred) if g == label and p == label)
        fp = sum(1 for g, p in zip(gold, pred) if g != label and p == label)
        fn = sum(1 for g, p in zip(gold, pred) if g == label and p != label)
        prec = tp / (tp + fp) if tp + fp else 0.0
        rec = tp / (tp + fn) if tp + fn else 0.0
        f1s.append(2 * prec * rec / (prec + rec) if prec + rec else 0.0)
    return sum(f1s) / len(f1s)


SHARED_TOKENIZER = os.path.join(ROOT, 'models', 'tokenizers', 'bert-base-uncased', 'tokenizer.json')


def link_tokenizer(out_dir):
    """The folder's tokenizer files, its tokenizer.json named by `tokenizer_file` (the one the repository keeps)."""
    import shutil
    os.makedirs(os.path.dirname(SHARED_TOKENIZER), exist_ok=True)
    if not os.path.exists(SHARED_TOKENIZER):
        shutil.copy(os.path.join(TOKENIZER, 'tokenizer.json'), SHARED_TOKENIZER)
    shutil.copy(os.path.join(TOKENIZER, 'special_tokens_map.json'), os.path.join(out_dir, 'special_tokens_map.json'))
    with open(os.path.join(TOKENIZER, 'tokenizer_config.json'), encoding='utf8') as f:
        config = json.load(f)
    config['tokenizer_file'] = os.path.relpath(SHARED_TOKENIZER, os.path.abspath(out_dir))
    with open(os.path.join(out_dir, 'tokenizer_config.json'), 'w', encoding='utf8') as f:
        json.dump(config, f, indent=2)
        f.write('\n')


def write_folder(out_dir, config, card, metrics):
    os.makedirs(out_dir, exist_ok=True)
    link_tokenizer(out_dir)
    with open(os.path.join(out_dir, 'config.json'), 'w') as f:
        json.dump(config, f, indent=2)
        f.write('\n')
    with open(os.path.join(out_dir, 'metrics.json'), 'w') as f:
        json.dump(metrics, f, indent=2)
        f.write('\n')
    if card is not None:
        with open(os.path.join(out_dir, 'README.md'), 'w') as f:
            f.write(card)
