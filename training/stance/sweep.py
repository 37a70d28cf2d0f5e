"""Cross-validated comparison of pair-model settings (training/stance/train_pair.py), several runs at
once (on a GPU when there is one), each writing its held-out numbers after every epoch:

    python3 training/stance/sweep.py --out DIR [--folds 3] [--parallel 6] [--budget 480] [--device cuda]
    python3 training/stance/sweep.py --summary DIR

Runs are started fold 0 of every setting first, then fold 1, …, and no run starts after `--budget`
seconds, so a cut-short sweep still compares every setting on the same folds. `--summary` prints,
per setting, the mean ± spread across folds of each target set's macro-F1 on the held-out claims
(`<set>:cv`), at the epoch the dev splits chose, and the dev splits' own numbers.
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SETTINGS = {
    'base': [],
    'own0': ['--own-dim', '0'],
    'drop35': ['--dropout', '0.35'],
    'own0-drop35': ['--own-dim', '0', '--dropout', '0.35'],
    'domain-own0-drop35': ['--profile', 'domain', '--own-dim', '0', '--dropout', '0.35'],
    'bilstm-own0-drop35': ['--encoder', 'bilstm', '--own-dim', '0', '--dropout', '0.35'],
    'dim192-own0-drop35': ['--dim', '192', '--own-dim', '0', '--dropout', '0.35'],
    'lr5e-4-own0-drop35': ['--lr', '5e-4', '--own-dim', '0', '--dropout', '0.35'],
}
TARGETS = ['fever', 'healthver', 'scifact', 'climate-fever', 'news', 'covidfact', 'cad_snli', 'fnc1']
SELECT = ['fever:dev', 'healthver:dev', 'scifact:dev', 'climate-fever:dev', 'covidfact:dev', 'cad_snli:dev', 'news:dev']


def run(args):
    os.makedirs(args.out, exist_ok=True)
    names = args.settings.split(',') if args.settings else list(SETTINGS)
    queue = [(name, fold) for fold in range(args.folds) for name in names]
    running, start = [], time.time()
    while queue or running:
        running = [(p, tag) for p, tag in running if p.poll() is None]
        while queue and len(running) < args.parallel and time.time() - start < args.budget:
            name, fold = queue.pop(0)
            tag = f'{name}.fold{fold}'
            cmd = [sys.executable, os.path.join(HERE, 'train_pair.py'), '--no-export', '--device', args.device, '--epochs', str(args.epochs),
                   '--batch', str(args.batch), '--folds', str(args.folds), '--fold', str(fold), '--results', os.path.join(args.out, f'{tag}.json'),
                   *(['--limit', str(args.limit)] if args.limit else []), *SETTINGS[name]]
            log = open(os.path.join(args.out, f'{tag}.log'), 'w')
            running.append((subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT), tag))
            print(f'{time.time() - start:6.0f}s started {tag}', flush=True)
        if time.time() - start >= args.budget:
            queue = []
        time.sleep(2)
    print(f'{time.time() - start:.0f}s done', flush=True)


def summary(out):
    by = {}
    for f in sorted(glob.glob(os.path.join(out, '*.json'))):
        r = json.load(open(f))
        name = os.path.basename(f).rsplit('.fold', 1)[0]
        hist = r['history']
        # The epoch the dev splits choose (as the trainer does).
        best = max(hist, key=lambda h: sum(h['held_out'][s]['macro_f1'] for s in SELECT if s in h['held_out']))
        by.setdefault(name, []).append(best)
    lines = []
    for name, runs in by.items():
        cells = []
        for t in TARGETS:
            vals = [h['held_out'][f'{t}:cv']['macro_f1'] for h in runs if f'{t}:cv' in h['held_out']]
            if vals:
                cells.append(f"{t} {statistics.mean(vals):.3f}±{statistics.pstdev(vals):.3f}")
        dev = statistics.mean([statistics.mean([h['held_out'][s]['macro_f1'] for s in SELECT if s in h['held_out']]) for h in runs])
        cv = statistics.mean([statistics.mean([h['held_out'][f'{t}:cv']['macro_f1'] for t in TARGETS if f'{t}:cv' in h['held_out']]) for h in runs])
        lines.append((cv, f"{name:24s} folds={len(runs)} epochs={[h['epoch'] for h in runs]} cv-mean={cv:.4f} dev-mean={dev:.4f} | " + ' '.join(cells)))
    for _, line in sorted(lines, reverse=True):
        print(line)


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--out')
    ap.add_argument('--summary')
    ap.add_argument('--folds', type=int, default=3)
    ap.add_argument('--parallel', type=int, default=6)
    ap.add_argument('--budget', type=float, default=480)
    ap.add_argument('--epochs', type=int, default=4)
    ap.add_argument('--batch', type=int, default=32)
    ap.add_argument('--device', default='cpu')
    ap.add_argument('--settings', default='')
    ap.add_argument('--limit', type=int, default=0, help='train on N pairs only (a smoke test)')
    a = ap.parse_args()
    if a.summary:
        summary(a.summary)
    else:
        run(a)
