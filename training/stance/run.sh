#!/usr/bin/env bash
# Rebuilds the verdict's model and fitted files from the shared data (npm run train:nli),
# deterministically:
#   1. the WordNet lexicon of the details stage (models/quin-align) and the generated news pairs;
#   2. what our own search retrieves for every labelled claim (scifact, our news claims, our dev news
#      claims from held-out articles: claims-dump.ts); every labelled pair, tokenised by the product's
#      tokenizer (build-pairs.ts); the minimal pairs (minimal-pairs.ts: one detail changed by kind);
#   3. the NLI model: all-MiniLM-L6-v2 fine-tuned as a 3-way cross-encoder in two phases
#      (train_nli.py): the labelled pairs; then with what our search retrieves for the training
#      claims added → models/quin-nli/model.onnx int8, config.json, metrics.json; the parity pairs
#      for the test. PHASE3=1 adds a third phase from phase 2's int8 export on the minimal pairs (not
#      shipped: it read every pair set better and the news claims end to end no better, docs/models.md);
#   4. the held-out pairs and claims as the product's judge reads them (featurize*.ts: the NLI model's
#      probabilities and the details stage's features);
#   5. the verdict's fitted reading and decision by cross-validation (train_verdict.py → verdict.json)
#      and the model card (card.py).
# Caches live in .cache/training, the Python environment in .cache/nli-env (training/setup.sh).
# Several hours on 2 CPU cores (step 3 is most of it); NLI_DEVICE=cuda trains on a GPU.
# SKIP_PAIR=1 keeps the present model.onnx (steps 4-5 refit the decision for it).
# START_FROM=<int8 model.onnx> skips phases 1-2 and runs phase 3 from that model.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash training/setup.sh
PY=.cache/nli-env/bin/python
npx tsx training/stance/build-lexicon.ts
npx tsx training/stance/generate.ts
# What our own search retrieves for every labelled claim (it depends on retrieval only, not on the NLI
# model): the second training phase reads its non-evidence sentences, the decision its results.
for set in scifact news news-dev; do
  QUIN_ENCODER="${QUIN_ENCODER:-static}" nice -n 10 npx tsx training/stance/claims-dump.ts "$set"
done
npx tsx training/stance/build-pairs.ts
nice -n 10 npx tsx training/stance/minimal-pairs.ts
if [[ "${SKIP_PAIR:-}" != 1 ]]; then
  run=.cache/training/nli-run
  start="${START_FROM:-}"
  phase3="${PHASE3:-}"
  [[ -n "$start" ]] && phase3=1
  out2=models/quin-nli
  [[ "$phase3" == 1 ]] && out2="$run/2/export"
  if [[ -z "$start" ]]; then
    nice -n 10 "$PY" training/stance/train_nli.py --examples 160000 --eval-every 20000 --device "${NLI_DEVICE:-cpu}" \
      --run "$run/1" --no-export
    nice -n 10 "$PY" training/stance/train_nli.py --examples 32000 --eval-every 16000 --lr 2e-5 --seed 20261128 \
      --device "${NLI_DEVICE:-cpu}" --start "$run/1/state.pt" --extra .cache/training/stance/retrieved.jsonl \
      --weight scifact-retrieved=2 --weight news-retrieved=2 --weight fever-gen=0.5 --run "$run/2" --out "$out2"
    start="$out2/model.onnx"
  fi
  [[ "$phase3" == 1 ]] && nice -n 10 "$PY" training/stance/train_nli.py --examples "${PHASE3_EXAMPLES:-32000}" --eval-every 8000 --lr 2e-5 --seed 20261129 \
    --device "${NLI_DEVICE:-cpu}" --start "$start" --extra .cache/training/stance/retrieved.jsonl \
    --extra .cache/training/stance/minimal.jsonl --select news-minimal:dev \
    --weight news-minimal=4 --weight scifact-retrieved=2 --weight news-retrieved=2 --weight fever-gen=0.5 --run "$run/3" --out models/quin-nli
  mv models/quin-nli/parity.json lib/models/fixtures/quin-nli-parity.json
fi
nice -n 10 npx tsx training/stance/featurize.ts
nice -n 10 npx tsx training/stance/featurize-claims.ts
nice -n 10 "$PY" training/stance/train_verdict.py --write "$@"
"$PY" training/stance/card.py
