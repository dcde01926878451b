#!/usr/bin/env bash
# Chess volleyball perft speed beside Fairy-Stockfish's `go perft 5`
# (UCI_Variant chess, start position), measured in the same run on the same
# machine. Fairy-Stockfish has no volleyball variant, so it is the anchor
# for raw move-generation speed only. Prints one line each:
#   NAME nodes N seconds S nps R
# With BASE_BUILD (another build's directory, e.g. main's), each round also
# runs that build's tabula first, printed as "base-tabula-GAME ...", so a
# before/after pair is measured under the same load.
# Usage: tests/bench/perft_volleyball.sh [BUILD_DIR] [GAME] [DEPTH] [ROUNDS]
#        [BASE_BUILD]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
game=${2:-volleyball}
depth=${3:-7}
rounds=${4:-3}
base=${5:-}
scripts/deps.sh fairy-stockfish
[ -x "$build/tabula" ] || BUILD_DIR=$build scripts/build.sh

now() { date +%s.%N; }
for r in $(seq "$rounds"); do
  if [ -n "$base" ]; then
    line=$("$base/tabula" perft "$game" "$depth" | tail -n 1)
    set -- $line
    echo "base-tabula-$game depth $depth nodes $3 seconds $5 nps $7"
  fi
  line=$("$build/tabula" perft "$game" "$depth" | tail -n 1)
  set -- $line   # total nodes N seconds S nps R
  echo "tabula-$game depth $depth nodes $3 seconds $5 nps $7"
  t0=$(now)
  out=$(printf 'setoption name UCI_Variant value chess\nposition startpos\ngo perft 5\nquit\n' \
        | /usr/games/fairy-stockfish 2>/dev/null)
  t1=$(now)
  nodes=$(printf '%s\n' "$out" | awk '/Nodes searched/ {print $3}')
  awk -v n="$nodes" -v a="$t0" -v b="$t1" \
    'BEGIN { s = b - a; printf "fairy-stockfish-perft5 nodes %d seconds %.3f nps %.0f\n", n, s, n / s }'
done
