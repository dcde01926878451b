#!/usr/bin/env bash
# Builds what Tabula's WebAssembly build links besides its own code:
# libsodium and msgpack-c for wasm32-wasi, from Debian's own source
# packages, into DIR/sysroot (include/, lib/); scripts/cross-deps.sh does
# it (and the same for 32-bit x86) and says how.
#   scripts/wasm-deps.sh DIR      (default build-wasm/deps)
# Idempotent: a finished sysroot (DIR/sysroot/.done) is kept as it is.
set -euo pipefail
exec "$(dirname "$0")/cross-deps.sh" wasm32 "$@"
