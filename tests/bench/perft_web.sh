#!/usr/bin/env bash
# Perft speed of the WebAssembly core in headless Chromium beside the
# native binary, in the same run on the same machine (issue 14; target:
# the page at 0.8 of the native rate or better). For each game, ROUNDS
# rounds, native then Chromium, each counting every depth 1..D from the
# start as `tabula perft GAME D` does. Prints one line per measurement:
#   NAME depth D nodes N seconds S nps R cpu-seconds C cpu-nps R
# and, per game, the ratios of the medians, by wall time and by processor
# time (native: the process's user + system time; Chromium: its renderer
# processes'). On a machine shared with other work the processor-time
# ratio is the one to trust: wall time also counts the time a process
# waited for a core, and the two sides do not wait alike.
# Usage: tests/bench/perft_web.sh [BUILD_DIR] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
rounds=${2:-3}
. tests/bench/web_bench.sh

for gd in "laska 17" "chessball 7" "football 4" "volleyball 8" "volleyball10 6"; do
  set -- $gd
  game=$1 depth=$2
  native=() native_cpu=() web=() web_cpu=()
  for r in $(seq "$rounds"); do
    out=$(mktemp)
    times=$( { time "$build/tabula" perft "$game" "$depth" >"$out"; } 2>&1)
    set -- $(tail -n 1 "$out") # total nodes N seconds S nps R
    rm -f "$out"
    cpu=$(cpu_of "$times")
    cnps=$(awk -v n="$3" -v c="$cpu" 'BEGIN { printf "%d", n / c }')
    echo "native-$game depth $depth nodes $3 seconds $5 nps $7 cpu-seconds $cpu cpu-nps $cnps"
    native+=("$7") native_cpu+=("$cnps")
    line=$(node tests/web/browser.mjs perft "$game" "$depth" 1)
    echo "$line"
    set -- $line # ... nps R cpu-seconds C cpu-nps R
    web+=("$9") web_cpu+=("${13}")
  done
  n=$(printf '%s\n' "${native[@]}" | median)
  w=$(printf '%s\n' "${web[@]}" | median)
  nc=$(printf '%s\n' "${native_cpu[@]}" | median)
  wc=$(printf '%s\n' "${web_cpu[@]}" | median)
  awk -v g="$game" -v n="$n" -v w="$w" -v nc="$nc" -v wc="$wc" 'BEGIN {
    printf "ratio-%s wasm/native wall %.2f (medians %d / %d nps) cpu %.2f (medians %d / %d nps)\n",
      g, w / n, w, n, wc / nc, wc, nc }'
done
