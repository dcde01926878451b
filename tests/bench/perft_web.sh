#!/usr/bin/env bash
# Perft speed of the WebAssembly core in headless Chromium beside the
# native binary, in the same run on the same machine (issue 14; target:
# the page at 0.8 of the native rate or better). For each game, ROUNDS
# rounds, native then Chromium, each counting every depth 1..D from the
# start as `tabula perft GAME D` does. Prints one line per measurement:
#   NAME depth D nodes N seconds S nps R
# and, per game, the ratio of the medians.
# Usage: tests/bench/perft_web.sh [BUILD_DIR] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
rounds=${2:-3}
[ -x "$build/tabula" ] || BUILD_DIR=$build scripts/build.sh
scripts/build-wasm.sh
scripts/web-deps.sh

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
for gd in "laska 17" "chessball 7" "football 4" "volleyball 8"; do
  set -- $gd
  game=$1 depth=$2
  native=() web=()
  for r in $(seq "$rounds"); do
    line=$("$build/tabula" perft "$game" "$depth" | tail -n 1)
    set -- $line # total nodes N seconds S nps R
    echo "native-$game depth $depth nodes $3 seconds $5 nps $7"
    native+=("$7")
    line=$(node tests/web/browser.mjs perft "$game" "$depth" 1)
    echo "$line"
    web+=("${line##* }")
  done
  n=$(printf '%s\n' "${native[@]}" | median)
  w=$(printf '%s\n' "${web[@]}" | median)
  awk -v g="$game" -v n="$n" -v w="$w" \
    'BEGIN { printf "ratio-%s wasm/native %.2f (medians %d / %d nps)\n", g, w / n, w, n }'
done
