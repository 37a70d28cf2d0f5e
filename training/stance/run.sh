#!/usr/bin/env bash
# Rebuilds the verdict models from the shared data (npm run train:nli):
#   the NLI model (models/quin-nli, optional once a pre-trained one is pulled), the WordNet lexicon
#   (models/quin-align), generated news pairs, alignment features, the claims as the product's search
#   retrieves them, and finally the stance classifier and verdict aggregator chosen by 5-fold CV
#   (models/quin-nli/stance.json, verdict.json). Every step is deterministic; caches live in
#   .cache/training/stance.  Set SKIP_NLI=1 to keep the present NLI model.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash training/setup.sh
if [[ "${SKIP_NLI:-}" != 1 ]]; then
  npx tsx training/prepare.ts nli
  nice -n 10 /usr/bin/python3 training/train_nli.py
fi
npx tsx training/stance/build-lexicon.ts
npx tsx training/stance/generate.ts
nice -n 10 npx tsx training/stance/featurize.ts
for set in scifact news; do
  nice -n 10 npx tsx training/stance/claims-dump.ts "$set"
  nice -n 10 npx tsx training/stance/featurize-claims.ts "$set" --no-nli
done
nice -n 10 /usr/bin/python3 training/stance/train_verdict.py --write "$@"
