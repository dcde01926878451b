#!/usr/bin/env bash
# Football chess perft speed beside Fairy-Stockfish, measured in the same
# run on the same machine. Fairy-Stockfish has no Football chess variant,
# so its anchors are its chess perft 6 and its shogi perft 5 (shogi is its
# only 9x9 game). Prints one line each:
#   NAME nodes N seconds S nps R
# Usage: tests/bench/perft_football.sh [BUILD_DIR] [FOOTBALL_DEPTH] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
depth=${2:-4}
rounds=${3:-3}
scripts/deps.sh fairy-stockfish
[ -x "$build/tabula" ] || BUILD_DIR=$build scripts/build.sh

now() { date +%s.%N; }
anchor() { # VARIANT DEPTH
  local t0 t1 out nodes
  t0=$(now)
  out=$(printf 'setoption name UCI_Variant value %s\nposition startpos\ngo perft %s\nquit\n' \
        "$1" "$2" | /usr/games/fairy-stockfish 2>/dev/null)
  t1=$(now)
  nodes=$(printf '%s\n' "$out" | awk '/Nodes searched/ {print $3}')
  awk -v v="$1" -v d="$2" -v n="$nodes" -v a="$t0" -v b="$t1" \
    'BEGIN { s = b - a; printf "fairy-stockfish-%s-perft%s nodes %d seconds %.3f nps %.0f\n", v, d, n, s, n / s }'
}
for r in $(seq "$rounds"); do
  line=$("$build/tabula" perft football "$depth" | tail -n 1)
  set -- $line   # total nodes N seconds S nps R
  echo "tabula-football depth $depth nodes $3 seconds $5 nps $7"
  anchor chess 6
  anchor shogi 5
done
