#!/usr/bin/env bash
# Chessball perft speed beside Stockfish, measured in the same run.
#   tests/bench/perft_chessball.sh [BUILD_DIR] [DEPTH] [SF_DEPTH]
# Runs `tabula perft chessball DEPTH` (default 7: 652 million nodes over
# depths 1..7) and Stockfish's `go perft SF_DEPTH` from the chess start
# (default 7: 3.2 billion nodes), one after the other, and prints nodes,
# wall and CPU (user) seconds and nodes per second for each. On a shared
# machine compare the CPU figures; wall time includes waiting for a core.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
depth=${2:-7}
sf_depth=${3:-7}
tabula="$build/tabula"
sf=$(command -v stockfish || echo /usr/games/stockfish)
[ -x "$tabula" ] || { echo "no $tabula: build first" >&2; exit 2; }
[ -x "$sf" ] || { echo "no stockfish" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() { # name, output file, command...
  local name=$1 out=$2
  shift 2
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -f "%U" -o "$tmp/$name.user" "$@" >"$out"
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l >"$tmp/$name.wall"
}

run tabula "$tmp/tabula.out" "$tabula" perft chessball "$depth"
run stockfish "$tmp/sf.out" sh -c \
  "printf 'go perft $sf_depth\nquit\n' | '$sf'"

tab_nodes=$(awk '/^total nodes/ {print $3}' "$tmp/tabula.out")
sf_nodes=$(awk '/^Nodes searched/ {print $3}' "$tmp/sf.out")
report() { # label nodes name
  local wall user
  wall=$(cat "$tmp/$3.wall")
  user=$(cat "$tmp/$3.user")
  awk -v l="$1" -v n="$2" -v w="$wall" -v u="$user" 'BEGIN {
    printf "%-34s nodes %11.0f  wall %7.2f s  cpu %7.2f s  " \
           "nps(wall) %5.0fM  nps(cpu) %5.0fM\n", l, n, w, u,
           n / w / 1e6, (u > 0 ? n / u / 1e6 : 0) }'
}
echo "date $(date -u +%Y-%m-%dT%H:%MZ)  cpu $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')  load $(cut -d' ' -f1-3 /proc/loadavg)"
report "tabula perft chessball 1..$depth" "$tab_nodes" tabula
report "stockfish go perft $sf_depth (chess)" "$sf_nodes" stockfish
grep '^perft' "$tmp/tabula.out"
