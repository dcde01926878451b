#!/usr/bin/env bash
# Builds Tabula's WebAssembly part (issue 14) into build-wasm/ (or
# $WASM_DIR): libsodium and msgpack-c for wasm32-wasi from Debian's source
# packages (scripts/wasm-deps.sh, once), then core/ and proto/ and the
# wasm check programs with cmake/wasm32-wasi.cmake. Extra arguments go to
# cmake's configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${WASM_DIR:-build-wasm}
scripts/wasm-deps.sh "$dir/deps"
cmake -S . -B "$dir/out" -DCMAKE_TOOLCHAIN_FILE="$(pwd)/cmake/wasm32-wasi.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DTABULA_WASM_SYSROOT="$(cd "$dir/deps/sysroot" && pwd)" \
  "$@" >/dev/null
cmake --build "$dir/out" -j "$(nproc)" >/dev/null
