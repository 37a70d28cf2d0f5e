#!/usr/bin/env bash
# System packages: FAISS + BLAS (faiss-node's binding links Debian's static libfaiss), Chromium (e2e
# tests), PostgreSQL (the second database the tests run against), numpy and pytest for the training
# scripts' parity tests (training/tests), Maven and unzip (the Elasticsearch node of the tests comes
# from Maven Central: scripts/es-node.sh). Installed only when missing.
set -euo pipefail
PKGS=(libfaiss-dev libopenblas-dev liblapack-dev chromium postgresql fonts-dejavu-core python3-numpy python3-pytest maven unzip)
[ "${QUIN_SKIP_APT:-}" = "1" ] && { echo "  QUIN_SKIP_APT=1: not installing ${PKGS[*]}"; exit 0; }
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && { echo "  apt packages present"; exit 0; }
SUDO=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else
    echo "  missing apt packages: ${missing[*]} (not root and no sudo: install them, or set QUIN_SKIP_APT=1)" >&2
    exit 1
  fi
fi
echo "  installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq || true
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
