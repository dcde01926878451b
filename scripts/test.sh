#!/usr/bin/env bash
# Builds Tabula and runs every test with ctest.
#   scripts/test.sh             the suite, warnings as errors
#   scripts/test.sh --sanitize  the same under AddressSanitizer + UBSan
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--sanitize" ]; then
  export BUILD_DIR=${BUILD_DIR:-build-asan} BUILD_TYPE=Debug
  # Criterion forks its workers; ASan's leak checker runs in each.
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
  scripts/build.sh -DTABULA_WERROR=ON -DTABULA_ASAN=ON -DTABULA_UBSAN=ON
else
  export BUILD_DIR=${BUILD_DIR:-build}
  scripts/build.sh -DTABULA_WERROR=ON
fi
# The browser tests (web_golden, web_play) run Debian's Chromium; the
# WebAssembly part was built by scripts/build.sh (wasm_check compares it
# with this build).
scripts/deps.sh chromium
ctest --test-dir "$BUILD_DIR" --output-on-failure -j 2
