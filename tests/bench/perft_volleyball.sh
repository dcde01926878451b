#!/usr/bin/env bash
# Chess volleyball perft speed beside Fairy-Stockfish's `go perft 5`
# (UCI_Variant chess, start position), measured in the same run on the same
# machine. Fairy-Stockfish has no volleyball variant, so it is the anchor
# for raw move-generation speed only. Prints one line each:
#   NAME nodes N seconds S nps R cpu_seconds C cpu_nps Q
# then the round's ratio of CPU rates (tabula over fairy-stockfish):
#   ratio cpu_nps X
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
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
TIMEFORMAT='%U %S'
# cpu_seconds: the process's user + system time, which a machine shared
# with other work disturbs less than wall time.
run_tabula() { # NAME BUILD
  { time "$2/tabula" perft "$game" "$depth" >"$out/tabula.txt"; } 2>"$out/tabula.cpu"
  set -- "$1" $(tail -n 1 "$out/tabula.txt")   # NAME total nodes N seconds S nps R
  awk -v name="$1" -v n="$4" -v s="$6" -v r="$8" -v d="$depth" \
    -v c="$(awk '{ print $1 + $2 }' "$out/tabula.cpu")" \
    'BEGIN { printf "%s depth %d nodes %d seconds %s nps %s cpu_seconds %.3f cpu_nps %.0f\n", name, d, n, s, r, c, n / c }'
}
for r in $(seq "$rounds"); do
  if [ -n "$base" ]; then
    run_tabula "base-tabula-$game" "$base"
  fi
  run_tabula "tabula-$game" "$build"
  tn=$(awk '{ print $3 }' <<<"$(tail -n 1 "$out/tabula.txt")")
  tc=$(awk '{ print $1 + $2 }' "$out/tabula.cpu")
  t0=$(now)
  { time printf 'setoption name UCI_Variant value chess\nposition startpos\ngo perft 5\nquit\n' |
      /usr/games/fairy-stockfish >"$out/fsf.txt" 2>/dev/null; } 2>"$out/fsf.cpu"
  t1=$(now)
  nodes=$(awk '/Nodes searched/ {print $3}' "$out/fsf.txt")
  sc=$(awk '{ print $1 + $2 }' "$out/fsf.cpu")
  awk -v n="$nodes" -v a="$t0" -v b="$t1" -v c="$sc" \
    'BEGIN { s = b - a; printf "fairy-stockfish-perft5 nodes %d seconds %.3f nps %.0f cpu_seconds %.3f cpu_nps %.0f\n", n, s, n / s, c, n / c }'
  awk -v tn="$tn" -v tc="$tc" -v sn="$nodes" -v sc="$sc" \
    'BEGIN { printf "ratio cpu_nps %.2f\n", (tn / tc) / (sn / sc) }'
done
