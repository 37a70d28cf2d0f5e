#!/usr/bin/env bash
# npm dependencies. onnxruntime-node's installer would download CUDA libraries and roll the whole
# install back offline, so it is skipped (the CPU runtime ships inside the package).
set -euo pipefail
export ONNXRUNTIME_NODE_INSTALL=skip
stamp=node_modules/.quin-npm-stamp
want=$(sha256sum package.json package-lock.json 2>/dev/null | sha256sum | cut -c1-16)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then echo "  node_modules up to date"; exit 0; fi
if [ -f package-lock.json ]; then npm ci --no-audit --no-fund --loglevel=error; else npm install --no-audit --no-fund --loglevel=error; fi
echo "$want" > "$stamp"
