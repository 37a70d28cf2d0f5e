#!/usr/bin/env bash
# npm dependencies. onnxruntime-node's installer would download CUDA libraries and roll the whole
# install back offline, so it is skipped (the CPU runtime ships inside the package).
# A fresh clone gets `npm ci` (exactly the lockfile); an existing node_modules whose dependencies
# changed gets `npm install`, which updates in place instead of deleting the folder under running
# processes.
set -euo pipefail
export ONNXRUNTIME_NODE_INSTALL=skip
stamp=node_modules/.quin-npm-stamp
want=$(node scripts/deps-hash.mjs)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then echo "  node_modules up to date"; exit 0; fi
if [ -d node_modules ] || [ ! -f package-lock.json ]; then
  npm install --no-audit --no-fund --loglevel=error
else
  npm ci --no-audit --no-fund --loglevel=error
fi
node scripts/deps-hash.mjs > "$stamp"
