#!/usr/bin/env bash
# Laska perft speed beside Stockfish's `go perft 6` (chess start position),
# measured in the same run on the same machine. Prints one line each:
#   NAME nodes N seconds S nps R cpu_seconds C cpu_nps Q
# then the round's ratios (tabula over stockfish):
#   ratio nps X cpu_nps Y
# seconds is wall time (tabula's own perft timer; stockfish's whole run,
# start-up included); cpu_seconds is the process's user + system time,
# which a machine shared with other work disturbs less.
# Usage: tests/bench/perft_laska.sh [BUILD_DIR] [LASKA_DEPTH] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
depth=${2:-18}
rounds=${3:-3}
scripts/deps.sh stockfish
[ -x "$build/tabula" ] || BUILD_DIR=$build scripts/build.sh

now() { date +%s.%N; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
TIMEFORMAT='%U %S'
for r in $(seq "$rounds"); do
  { time "$build/tabula" perft laska "$depth" >"$out/tabula.txt"; } 2>"$out/tabula.cpu"
  set -- $(tail -n 1 "$out/tabula.txt")   # total nodes N seconds S nps R
  tn=$3 ts=$5 tr=$7
  tc=$(awk '{ print $1 + $2 }' "$out/tabula.cpu")
  awk -v n="$tn" -v s="$ts" -v r="$tr" -v c="$tc" -v d="$depth" \
    'BEGIN { printf "tabula-laska depth %d nodes %d seconds %s nps %s cpu_seconds %.3f cpu_nps %.0f\n", d, n, s, r, c, n / c }'
  t0=$(now)
  { time printf 'position startpos\ngo perft 6\nquit\n' |
      /usr/games/stockfish >"$out/sf.txt" 2>/dev/null; } 2>"$out/sf.cpu"
  t1=$(now)
  nodes=$(awk '/Nodes searched/ {print $3}' "$out/sf.txt")
  sc=$(awk '{ print $1 + $2 }' "$out/sf.cpu")
  awk -v n="$nodes" -v a="$t0" -v b="$t1" -v c="$sc" \
    'BEGIN { s = b - a; printf "stockfish-perft6 nodes %d seconds %.3f nps %.0f cpu_seconds %.3f cpu_nps %.0f\n", n, s, n / s, c, n / c }'
  awk -v tn="$tn" -v tr="$tr" -v tc="$tc" -v sn="$nodes" -v a="$t0" -v b="$t1" -v sc="$sc" \
    'BEGIN { printf "ratio nps %.2f cpu_nps %.2f\n", tr / (sn / (b - a)), (tn / tc) / (sn / sc) }'
done
