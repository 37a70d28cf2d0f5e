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
# Quin's additions to the binding, the only calls indexer/dense/faiss-native.ts makes with data:
# Float32Array in and out (no JS number arrays: converting 100k x 384 numbers took ~19 s), search
# parameters (nprobe, efSearch) through FAISS's ParameterSpace, and a file writer (no toBuffer copy
# of a 1M-vector index); every FAISS exception becomes a JS error. Applied once to the fresh source.
cat > "$PKG/src/quin_ext_methods.h" <<'EOF'
  // Quin's additions (scripts/setup.d/40-faiss.sh): Float32Array in and out, search parameters,
  // a file writer; every FAISS exception becomes a JS error instead of aborting the process.
  static const float *quinFloats(const Napi::Env &env, const Napi::Value &v, size_t d, size_t *n)
  {
    if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != napi_float32_array)
      throw Napi::TypeError::New(env, "expected a Float32Array");
    Napi::Float32Array a = v.As<Napi::Float32Array>();
    if (d == 0 || a.ElementLength() % d != 0)
      throw Napi::Error::New(env, "Float32Array length is not a multiple of the index dimension");
    *n = a.ElementLength() / d;
    return a.Data();
  }

  Napi::Value addF32(const Napi::CallbackInfo &info)
  {
    Napi::Env env = info.Env();
    size_t n;
    const float *x = quinFloats(env, info[0], index_->d, &n);
    if (index_->ntotal + (int64_t)n > 2147483647LL) throw Napi::Error::New(env, "index would exceed 2^31 vectors");
    try { index_->add(n, x); } catch (const std::exception &ex) { throw Napi::Error::New(env, ex.what()); }
    return env.Undefined();
  }

  Napi::Value trainF32(const Napi::CallbackInfo &info)
  {
    Napi::Env env = info.Env();
    size_t n;
    const float *x = quinFloats(env, info[0], index_->d, &n);
    try { index_->train(n, x); } catch (const std::exception &ex) { throw Napi::Error::New(env, ex.what()); }
    return env.Undefined();
  }

  Napi::Value searchF32(const Napi::CallbackInfo &info)
  {
    Napi::Env env = info.Env();
    size_t nq;
    const float *q = quinFloats(env, info[0], index_->d, &nq);
    if (!info[1].IsNumber()) throw Napi::TypeError::New(env, "k must be a number");
    int64_t k = info[1].As<Napi::Number>().Int64Value();
    if (k < 1 || k > index_->ntotal) throw Napi::Error::New(env, "k must be between 1 and ntotal");
    Napi::Float32Array dist = Napi::Float32Array::New(env, nq * k);
    std::vector<faiss::idx_t> ids(nq * k);
    try { index_->search(nq, q, k, dist.Data(), ids.data()); } catch (const std::exception &ex) { throw Napi::Error::New(env, ex.what()); }
    Napi::Int32Array labels = Napi::Int32Array::New(env, nq * k);
    for (size_t i = 0; i < nq * k; i++) labels[i] = (int32_t)ids[i];
    Napi::Object out = Napi::Object::New(env);
    out.Set("distances", dist);
    out.Set("labels", labels);
    return out;
  }

  Napi::Value setParam(const Napi::CallbackInfo &info)
  {
    Napi::Env env = info.Env();
    if (!info[0].IsString() || !info[1].IsNumber()) throw Napi::TypeError::New(env, "setParam(name: string, value: number)");
    try { faiss::ParameterSpace().set_index_parameter(index_.get(), info[0].As<Napi::String>().Utf8Value(), info[1].As<Napi::Number>().DoubleValue()); }
    catch (const std::exception &ex) { throw Napi::Error::New(env, ex.what()); }
    return env.Undefined();
  }

  Napi::Value writeFile(const Napi::CallbackInfo &info)
  {
    Napi::Env env = info.Env();
    if (!info[0].IsString()) throw Napi::TypeError::New(env, "writeFile(path: string)");
    try { faiss::write_index(index_.get(), info[0].As<Napi::String>().Utf8Value().c_str()); }
    catch (const std::exception &ex) { throw Napi::Error::New(env, ex.what()); }
    return env.Undefined();
  }
EOF
if ! grep -q quin_ext_methods "$PKG/src/faiss.cc"; then
  sed -i '0,/^#include <napi.h>/s//#include <napi.h>\n#include <vector>\n#include <faiss\/AutoTune.h>/' "$PKG/src/faiss.cc"
  sed -i '0,/^protected:/s//#include "quin_ext_methods.h"\nprotected:/' "$PKG/src/faiss.cc"
  sed -i 's/^\( *\)InstanceMethod("toBuffer", \&Index::toBuffer),/\0\n\1InstanceMethod("addF32", \&Index::addF32),\n\1InstanceMethod("trainF32", \&Index::trainF32),\n\1InstanceMethod("searchF32", \&Index::searchF32),\n\1InstanceMethod("setParam", \&Index::setParam),\n\1InstanceMethod("writeFile", \&Index::writeFile),/' "$PKG/src/faiss.cc"
fi
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
ix.addF32(new Float32Array([1,0,0,0, 0,1,0,0]));
const r = ix.searchF32(new Float32Array([0,1,0,0]), 1);
if (ix.ntotal() !== 2 || r.labels[0] !== 1) { console.error('faiss-node smoke test failed', r); process.exit(1); }
"
echo "$want" > "$stamp"
echo "  faiss-node $VERSION built against $(dpkg-query -W -f='${Version}' libfaiss-dev 2>/dev/null || echo 'system libfaiss')"
