#!/usr/bin/env bash
# Perft speed of the WebAssembly core in headless Chromium beside the
# native binary, in the same run on the same machine (issue 14; target:
# the page at 0.8 of the native rate or better). For each game, ROUNDS
# rounds, native then Chromium, each counting every depth 1..D from the
# start as `tabula perft GAME D` does; the depths make every round
# seconds of processor time on both sides (Football chess's 4 the least,
# about 2 s natively: its 5 would take minutes). The page first counts the
# same once untimed, so that the rounds time the code V8 optimised, not
# its compilation (tests/web/browser.mjs perft). Prints one line per
# measurement:
#   NAME depth D nodes N seconds S nps R cpu-seconds C cpu-nps R [...]
# (Chromium's lines go on with main-cpu-seconds C main-cpu-nps R: its
# renderer's main thread alone, where the module runs) and, per game, the
# ratios of the medians: by wall time, by processor time (native: the
# process's user + system time; Chromium: all its renderer processes'
# threads) and by the renderer's main thread. On a machine shared with
# other work the processor-time ratios are the ones to trust: wall time
# also counts the time a process waited for a core, and the two sides do
# not wait alike. Both sides must count the same nodes (checked).
# Usage: tests/bench/perft_web.sh [BUILD_DIR] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
rounds=${2:-3}
. tests/bench/web_bench.sh

for gd in "laska 19" "chessball 7" "football 4" "volleyball 9" "volleyball10 7"; do
  set -- $gd
  game=$1 depth=$2
  native=() native_cpu=() web=() web_cpu=() web_main=()
  for r in $(seq "$rounds"); do
    out=$(mktemp)
    times=$( { time "$build/tabula" perft "$game" "$depth" >"$out"; } 2>&1)
    set -- $(tail -n 1 "$out") # total nodes N seconds S nps R
    rm -f "$out"
    cpu=$(cpu_of "$times")
    cnps=$(awk -v n="$3" -v c="$cpu" 'BEGIN { printf "%d", n / c }')
    echo "native-$game depth $depth nodes $3 seconds $5 nps $7 cpu-seconds $cpu cpu-nps $cnps"
    native+=("$7") native_cpu+=("$cnps") nodes=$3
    line=$(node tests/web/browser.mjs perft "$game" "$depth" 1)
    echo "$line"
    set -- $line # ... nodes N ... nps R cpu-seconds C cpu-nps R main-cpu-seconds C main-cpu-nps R
    if [ "$5" != "$nodes" ]; then
      echo "perft_web: $game $depth: $nodes nodes natively, $5 in Chromium" >&2
      exit 1
    fi
    web+=("$9") web_cpu+=("${13}") web_main+=("${17}")
  done
  n=$(printf '%s\n' "${native[@]}" | median)
  w=$(printf '%s\n' "${web[@]}" | median)
  nc=$(printf '%s\n' "${native_cpu[@]}" | median)
  wc=$(printf '%s\n' "${web_cpu[@]}" | median)
  wm=$(printf '%s\n' "${web_main[@]}" | median)
  awk -v g="$game" -v n="$n" -v w="$w" -v nc="$nc" -v wc="$wc" -v wm="$wm" 'BEGIN {
    printf "ratio-%s wasm/native wall %.2f (medians %d / %d nps) cpu %.2f (medians %d / %d nps) main-cpu %.2f (median %d nps)\n",
      g, w / n, w, n, wc / nc, wc, nc, wm / nc, wm }'
done
