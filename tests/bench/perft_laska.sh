#!/usr/bin/env bash
# Laska perft speed beside Stockfish's `go perft 6` (chess start position),
# measured in the same run on the same machine. Prints one line each:
#   NAME nodes N seconds S nps R cpu_seconds C cpu_nps Q
# then the round's ratios (tabula over stockfish):
#   ratio nps X cpu_nps Y
# seconds is wall time (tabula's own perft timer; stockfish's whole run,
# start-up included); cpu_seconds is the process's user + system time,
# which a machine shared with other work disturbs less.
# With BASE_BUILD (another build's directory, e.g. the build before a
# change), each round also runs that build's tabula first, printed as
# "base-tabula-laska ..." with its own "base-ratio nps X cpu_nps Y" against
# the same Stockfish run, so a before/after pair meets the same load.
# Usage: tests/bench/perft_laska.sh [BUILD_DIR] [LASKA_DEPTH] [ROUNDS]
#        [BASE_BUILD]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
depth=${2:-18}
rounds=${3:-3}
base=${4:-}
scripts/deps.sh stockfish
[ -x "$build/tabula" ] || BUILD_DIR=$build scripts/build.sh

now() { date +%s.%N; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
TIMEFORMAT='%U %S'
run_tabula() { # NAME BUILD PREFIX: sets PREFIX_n, PREFIX_r (wall rate), PREFIX_c
  { time "$2/tabula" perft laska "$depth" >"$out/tabula.txt"; } 2>"$out/tabula.cpu"
  set -- "$1" "$2" "$3" $(tail -n 1 "$out/tabula.txt")   # total nodes N seconds S nps R
  local n=$6 s=$8 r=${10} c
  c=$(awk '{ print $1 + $2 }' "$out/tabula.cpu")
  awk -v name="$1" -v n="$n" -v s="$s" -v r="$r" -v c="$c" -v d="$depth" \
    'BEGIN { printf "%s depth %d nodes %d seconds %s nps %s cpu_seconds %.3f cpu_nps %.0f\n", name, d, n, s, r, c, n / c }'
  printf -v "${3}_n" '%s' "$n"
  printf -v "${3}_r" '%s' "$r"
  printf -v "${3}_c" '%s' "$c"
}
ratio() { # LABEL N RATE CPU
  awk -v label="$1" -v tn="$2" -v tr="$3" -v tc="$4" -v sn="$nodes" -v a="$t0" -v b="$t1" -v sc="$sc" \
    'BEGIN { printf "%s nps %.2f cpu_nps %.2f\n", label, tr / (sn / (b - a)), (tn / tc) / (sn / sc) }'
}
for r in $(seq "$rounds"); do
  if [ -n "$base" ]; then
    run_tabula base-tabula-laska "$base" base
  fi
  run_tabula tabula-laska "$build" new
  t0=$(now)
  { time printf 'position startpos\ngo perft 6\nquit\n' |
      /usr/games/stockfish >"$out/sf.txt" 2>/dev/null; } 2>"$out/sf.cpu"
  t1=$(now)
  nodes=$(awk '/Nodes searched/ {print $3}' "$out/sf.txt")
  sc=$(awk '{ print $1 + $2 }' "$out/sf.cpu")
  awk -v n="$nodes" -v a="$t0" -v b="$t1" -v c="$sc" \
    'BEGIN { s = b - a; printf "stockfish-perft6 nodes %d seconds %.3f nps %.0f cpu_seconds %.3f cpu_nps %.0f\n", n, s, n / s, c, n / c }'
  ratio ratio "$new_n" "$new_r" "$new_c"
  if [ -n "$base" ]; then
    ratio base-ratio "$base_n" "$base_r" "$base_c"
  fi
done
