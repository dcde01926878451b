#!/usr/bin/env bash
# Installs what is missing and builds Tabula into build/ (or $BUILD_DIR),
# then the browser page with its WebAssembly module into build-wasm/
# (scripts/build-wasm.sh; `tabula lobby --http` serves build-wasm/site).
# Extra arguments go to cmake's configure step of the native build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
dir=${BUILD_DIR:-build}
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo} "$@" >/dev/null
cmake --build "$dir" -j "$(nproc)"
scripts/build-wasm.sh
