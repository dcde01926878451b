#!/usr/bin/env bash
# Laska perft speed beside Stockfish's `go perft 6` (chess start position),
# measured in the same run on the same machine. Prints one line each:
#   NAME nodes N seconds S nps R
# Usage: tests/bench/perft_laska.sh [BUILD_DIR] [LASKA_DEPTH] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
depth=${2:-18}
rounds=${3:-3}
scripts/deps.sh stockfish
[ -x "$build/tabula" ] || BUILD_DIR=$build scripts/build.sh

now() { date +%s.%N; }
for r in $(seq "$rounds"); do
  line=$("$build/tabula" perft laska "$depth" | tail -n 1)
  set -- $line   # total nodes N seconds S nps R
  echo "tabula-laska depth $depth nodes $3 seconds $5 nps $7"
  t0=$(now)
  out=$(printf 'position startpos\ngo perft 6\nquit\n' | /usr/games/stockfish 2>/dev/null)
  t1=$(now)
  nodes=$(printf '%s\n' "$out" | awk '/Nodes searched/ {print $3}')
  awk -v n="$nodes" -v a="$t0" -v b="$t1" \
    'BEGIN { s = b - a; printf "stockfish-perft6 nodes %d seconds %.3f nps %.0f\n", n, s, n / s }'
done
