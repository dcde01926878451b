#!/usr/bin/env bash
# The WebAssembly build agrees with the native one (issue 14, run by ctest
# as wasm_check): (1) the wasm golden_check replays every golden vector of
# tests/golden with the committed state hashes; (2) `tabula synctest` built
# for wasm32-wasi (core/ and proto/ with libsodium and msgpack-c built for
# wasm) prints the same summary lines, state-hash digests included, as the
# native tabula for the same seed. Builds the wasm part first if needed
# (scripts/build-wasm.sh).
#   tests/wasm/wasm_check.sh NATIVE_BUILD_DIR [GAMES]
set -euo pipefail
cd "$(dirname "$0")/../.."
native=${1:?usage: tests/wasm/wasm_check.sh NATIVE_BUILD_DIR [GAMES]}
games=${2:-20}
seed=7
wasm=${WASM_DIR:-build-wasm}
scripts/build-wasm.sh
run() { node --no-warnings tests/wasm/wasi_run.mjs "$@"; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run "$wasm/out/golden_check" --dir tests/golden
"$native/tabula" synctest --games "$games" --seed "$seed" 2>/dev/null |
  sed 's/; [0-9.]* s$//' >"$out/native.txt"
run "$wasm/out/synctest" --games "$games" --seed "$seed" 2>/dev/null |
  sed 's/; [0-9.]* s$//' >"$out/wasm.txt"
if ! diff "$out/native.txt" "$out/wasm.txt"; then
  echo "wasm_check: FAILED: the wasm synctest differs from the native one"
  exit 1
fi
sed 's/^/wasm = native: /' "$out/wasm.txt"
echo "wasm_check: the WebAssembly build agrees with the native build"
