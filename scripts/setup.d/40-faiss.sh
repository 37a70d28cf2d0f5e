#!/usr/bin/env bash
# FAISS binding: faiss-node 0.5.1 built against Debian's static libfaiss (1.7.3) with node-gyp.
# Its own install script downloads a prebuilt binary from GitHub and then `git clone`s FAISS, which
# cannot work offline, so it is not a package.json dependency (that would break `npm ci`): it is
# fetched from the npm registry into vendor/faiss-build/ (git-ignored) with scripts disabled and
# built here. indexer/dense/faiss-native.ts loads it from there. Fast when already built.
set -euo pipefail
cd "$(dirname "$0")/../.."
VERSION=0.5.1
DIR=vendor/faiss-build
PKG=$DIR/node_modules/faiss-node
OUT=$PKG/build/Release/faiss-node.node
stamp=$DIR/.stamp
want="faiss-node@$VERSION $(node -p 'process.versions.modules') $(sha256sum "$0" | cut -c1-16)"

if [ -f "$OUT" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then echo "  faiss-node $VERSION built"; exit 0; fi
if [ ! -f /usr/lib/x86_64-linux-gnu/libfaiss.a ] && [ ! -f /usr/lib/libfaiss.a ] && ! ls /usr/lib/*/libfaiss.a >/dev/null 2>&1; then
  echo "  libfaiss.a not found (apt-get install libfaiss-dev libopenblas-dev): the dense index will be unavailable" >&2
  exit 1
fi

mkdir -p "$DIR"
[ -f "$DIR/package.json" ] || echo '{ "name": "quin-faiss-build", "private": true }' > "$DIR/package.json"
# The registry is the only source; scripts off (the upstream installer would try GitHub).
npm install --prefix "$DIR" --ignore-scripts --no-audit --no-fund --loglevel=error --no-save "faiss-node@$VERSION" "node-addon-api@6.1.0"

# FAISS 1.7.4 moved idx_t to namespace scope; Debian ships 1.7.3 where it is Index::idx_t.
cat > "$PKG/src/faiss_compat.h" <<'EOF'
#pragma once
#include <faiss/Index.h>
namespace faiss { using idx_t = Index::idx_t; }
EOF
cat > "$PKG/binding.gyp" <<'EOF'
{
  "targets": [{
    "target_name": "faiss-node",
    "sources": ["src/faiss.cc"],
    "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")"],
    "defines": ["NAPI_VERSION=6", "NAPI_CPP_EXCEPTIONS"],
    "cflags_cc!": ["-fno-exceptions", "-fno-rtti", "-std=gnu++17", "-std=gnu++14"],
    "cflags_cc": ["-std=c++17", "-fopenmp", "-frtti", "-fexceptions", "-O2", "-include", "faiss_compat.h", "-I<(module_root_dir)/src"],
    "libraries": ["-l:libfaiss.a", "-llapack", "-lopenblas", "-lgomp"],
    "ldflags": ["-fopenmp"]
  }]
}
EOF
GYP=$(dirname "$(command -v npm)")/../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js
[ -f "$GYP" ] || GYP=/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js
log=$PWD/$DIR/build.log
(cd "$PKG" && node "$GYP" rebuild --nodedir=/usr --loglevel=warn) >"$log" 2>&1 || { cat "$log" >&2; echo "  faiss-node build failed" >&2; exit 1; }
# Smoke test in a child process: an exact inner-product search must find the vector itself.
node -e "
const f = require('./$PKG');
const ix = f.Index.fromFactory(4, 'Flat', f.MetricType.METRIC_INNER_PRODUCT);
ix.add([1,0,0,0, 0,1,0,0]);
const r = ix.search([0,1,0,0], 1);
if (ix.ntotal() !== 2 || r.labels[0] !== 1) { console.error('faiss-node smoke test failed', r); process.exit(1); }
"
echo "$want" > "$stamp"
echo "  faiss-node $VERSION built against $(dpkg-query -W -f='${Version}' libfaiss-dev 2>/dev/null || echo 'system libfaiss')"
