#!/usr/bin/env bash
# Rebuilds the verdict's models from the shared data (npm run train:nli), deterministically, on CPU:
#   1. the WordNet lexicon of the alignment (models/quin-align) and the generated news pairs;
#   2. every labelled pair, tokenised by the product's tokenizer (build-pairs.ts);
#   3. the pair model (train_pair.py → models/quin-nli/model.onnx, config.json, metrics.json);
#   4. the held-out pairs and claims as the product's judge reads them (featurize*.ts; the claims
#      retrieved by our own search: claims-dump.ts, with the static encoder unless QUIN_ENCODER says);
#   5. the verdict's fitted files by cross-validation (train_verdict.py → verdict.json, stance.json
#      only if it earns its place) and the model card (card.py).
# Caches live in .cache/training. About an hour on 2 cores. SKIP_PAIR=1 keeps the present model.onnx.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash training/setup.sh
PY=/usr/bin/python3
npx tsx training/stance/build-lexicon.ts
npx tsx training/stance/generate.ts
npx tsx training/stance/build-pairs.ts
if [[ "${SKIP_PAIR:-}" != 1 ]]; then
  nice -n 10 "$PY" training/stance/train_pair.py --epochs 6 --own-dim 0 --out models/quin-nli
  cp models/quin-nli/parity.json lib/models/fixtures/quin-nli-parity.json && rm models/quin-nli/parity.json
fi
nice -n 10 npx tsx training/stance/featurize.ts
for set in scifact news; do
  QUIN_ENCODER="${QUIN_ENCODER:-static}" nice -n 10 npx tsx training/stance/claims-dump.ts "$set"
done
nice -n 10 npx tsx training/stance/featurize-claims.ts
nice -n 10 "$PY" training/stance/train_verdict.py --write "$@"
"$PY" training/stance/card.py
