#!/usr/bin/env bash
# Rebuilds the reranker (models/quin-reranker) from the shared data (npm run train:reranker),
# deterministically on CPU up to the distillation (a GPU's kernels are not bit-exact):
#   1. what the reranking stage reads for every SciFact and Climate-FEVER claim, through the product's
#      own hybrid search (candidates.ts; a few minutes with the default static encoder);
#   2. the training lists: SciFact and Climate-FEVER train claims against those candidates, FEVER,
#      FNC-1, news titles against body windows (lists.ts);
#   3. the teacher: all-MiniLM-L6-v2's 6 layers fine-tuned as a cross-encoder (train_reranker.py →
#      $DATA/teacher, int8; about 25 minutes on 2 CPU cores);
#   4. the served student: RERANK_LAYERS of the teacher's layers distilled from it (distill.py, about a
#      minute on a GPU, hours on CPU; RERANK_DEVICE=cuda) and exported int8 with the parity pairs for the
#      test (export_student.py → models/quin-reranker); RERANK_LAYERS=6 serves the teacher itself;
#   5. its settings on the dev split (curve.py → rerank.json: depth, weight, input), the stage's latency,
#      the product's own evaluation (quin eval scifact / climate-fever, dev split) and the model card (card.py).
# Caches live in .cache/training/reranker, the Python environment in .cache/nli-env (training/setup.sh).
# SKIP_TRAIN=1 keeps the present teacher and model.onnx.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=.cache/nli-env/bin/python
OUT=models/quin-reranker
LAYERS="${RERANK_LAYERS:-4}"
LISTS="${RERANK_LISTS:-3000}"
DISTILL_LISTS="${RERANK_DISTILL_LISTS:-16000}"
# The setting written to rerank.json: depth 20, where the 4-layer stage costs what the 6-layer one did
# at depth 12 and fits the stage's 100 ms (docs/models.md, "The layers axis").
CHOOSE="${RERANK_CHOOSE:-${LAYERS}L-int8:best@320:20}"
DATA=.cache/training/reranker
TEACHER="$DATA/teacher"
mkdir -p "$DATA"
npx tsx training/reranker/candidates.ts
npx tsx training/reranker/lists.ts
if [[ "${SKIP_TRAIN:-}" != 1 ]]; then
  rm -rf "$DATA/run" "$DATA/distill"
  nice -n 10 "$PY" training/train_reranker.py --layers 6 --lists "$LISTS" --max-len 128 --device "${RERANK_DEVICE:-cpu}" --run "$DATA/run" --out "$TEACHER"
  if [[ "$LAYERS" == 6 ]]; then
    cp "$TEACHER"/{model.onnx,config.json,metrics.json} "$OUT"/
    mv "$TEACHER/parity.json" "$OUT/parity.json"
  else
    keep=$(seq -s, 0 $((LAYERS - 1)))
    nice -n 10 "$PY" training/reranker/distill.py --device "${RERANK_DEVICE:-cpu}" --teacher "$TEACHER" --out "$DATA/distill" \
      --lists "$DISTILL_LISTS" --batch 8 --lr 1e-4 --alpha 0.5 --temperature 2 --student "${LAYERS}L=$keep"
    nice -n 10 "$PY" training/reranker/export_student.py --student "$DATA/distill/${LAYERS}L.pt" --layers "$keep" --teacher "$TEACHER" \
      --distill-log "$DATA/distill/distill.json" --out "$OUT"
  fi
  mv "$OUT/parity.json" lib/models/fixtures/quin-reranker-parity.json
fi
nice -n 10 "$PY" training/reranker/curve.py --variant "${LAYERS}L-int8=$OUT/model.onnx" --inputs window,best@320 \
  --choose "$CHOOSE" --write "$OUT" --out "$DATA/curve.json"
npx tsx training/reranker/latency.ts --threads 2 --claims 40 --depths 10,20,30,40,50 --inputs window,best@320 \
  --out "$DATA/latency.json" "$OUT"
for set in scifact climate-fever; do
  claims=../shared/data/scifact/claims_train.jsonl
  [[ "$set" == climate-fever ]] && claims=../shared/data/climate-fever/claims.jsonl
  nice -n 10 node bin/quin.mjs eval "$set" --claims "$claims" --split dev --runs hybrid_score,hybrid+rerank --no-sections \
    --out "$DATA/eval-$set" > "$DATA/eval-$set.txt"
done
distill=()
[[ "$LAYERS" != 6 ]] && distill=(--distill "$DATA/distill/distill.json")
"$PY" training/reranker/card.py --curve "$DATA/curve.json" --latency "$DATA/latency.json" --eval "$DATA/eval-scifact" "$DATA/eval-climate-fever" \
  --teacher "$TEACHER" "${distill[@]}" --out "$OUT"
