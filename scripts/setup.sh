#!/usr/bin/env bash
# Idempotent set-up for a fresh machine of this project's kind (see ../shared/ENVIRONMENT.md):
# apt packages, npm dependencies (native modules built from source), the FAISS binding, the Prisma
# clients. Each step lives in scripts/setup.d/ and skips itself when its work is already done.
# `npm start`, `npm test`, `quin` and .ci/run call this through scripts/ensure-setup.mjs.
set -euo pipefail
cd "$(dirname "$0")/.."
export ONNXRUNTIME_NODE_INSTALL=skip
for step in scripts/setup.d/*.sh; do
  echo "setup: $(basename "$step")"
  bash "$step"
done
node scripts/ensure-setup.mjs --stamp
echo "setup: done"
