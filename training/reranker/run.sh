#!/usr/bin/env bash
# Rebuilds the reranker (models/quin-reranker) from the shared data (npm run train:reranker),
# deterministically, in about an hour on 2 CPU cores (the training itself about 25 minutes):
#   1. what the reranking stage reads for every SciFact and Climate-FEVER claim, through the product's
#      own hybrid search (candidates.ts; a few minutes with the default static encoder);
#   2. the training lists: SciFact and Climate-FEVER train claims against those candidates, FEVER,
#      FNC-1, news titles against body windows (lists.ts);
#   3. the cross-encoder: all-MiniLM-L6-v2's first RERANK_LAYERS layers fine-tuned (train_reranker.py →
#      models/quin-reranker/model.onnx int8, config.json; the parity pairs for the test);
#   4. its settings on the dev split (curve.py → rerank.json: depth, weight, input), the product's own
#      evaluation (quin eval scifact / climate-fever, dev split) and the model card (card.py).
# Caches live in .cache/training/reranker, the Python environment in .cache/nli-env (training/setup.sh).
# RERANK_DEVICE=cuda trains on a GPU; SKIP_TRAIN=1 keeps the present model.onnx.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=.cache/nli-env/bin/python
OUT=models/quin-reranker
LAYERS="${RERANK_LAYERS:-6}"
LISTS="${RERANK_LISTS:-3000}"
# The setting written to rerank.json: the deepest whose stage p95 leaves hybrid + rerank + verdict
# within 600 ms at 1M snippets (docs/models.md, "the quality/latency curve").
CHOOSE="${RERANK_CHOOSE:-${LAYERS}L-int8:best@320:30}"
DATA=.cache/training/reranker
mkdir -p "$DATA"
npx tsx training/reranker/candidates.ts
npx tsx training/reranker/lists.ts
if [[ "${SKIP_TRAIN:-}" != 1 ]]; then
  rm -rf "$DATA/run"
  nice -n 10 "$PY" training/train_reranker.py --layers "$LAYERS" --lists "$LISTS" --max-len 128 --device "${RERANK_DEVICE:-cpu}" --run "$DATA/run" --out "$OUT"
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
"$PY" training/reranker/card.py --curve "$DATA/curve.json" --latency "$DATA/latency.json" --eval "$DATA/eval-scifact" "$DATA/eval-climate-fever" --out "$OUT"
