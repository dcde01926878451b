#!/usr/bin/env bash
# The engine tables of docs/engines.md: the current search against the
# old one at equal time per move, and each level against the one below at
# the levels' own budgets (deterministic for the seed; Elo over level 1 is
# the sum along the chain). Prints one line per row:
#   TABLE GAME ROW result games N wins W draws D losses L elo E lo LO hi HI
# Usage: tests/bench/engines.sh [BUILD_DIR] [GAMES] [JOBS] [MS_PER_MOVE]
# The docs' full tables use GAMES=400; that takes hours on two cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
games=${2:-400}
jobs=${3:-$(nproc)}
ms=${4:-20}
[ -x "$build/tabula" ] || BUILD_DIR=$build scripts/build.sh

row() { # TABLE GAME ROW ARGS...
  local table=$1 game=$2 name=$3
  shift 3
  local out
  out=$("$build/tabula" match "$game" "$@" --games "$games" --jobs "$jobs" \
        2>/dev/null | tr '\n' ' ')
  echo "$table $game $name $out"
}

for g in laska chessball football volleyball volleyball10; do
  row new-vs-old "$g" "time$ms" --a 8:depth=60 --b 8:old:depth=16 \
    --time "$ms" --seed 1
done
for g in laska chessball football volleyball volleyball10; do
  for level in 2 3 4; do
    row levels "$g" "$level-v-$((level - 1))" --a "$level" \
      --b "$((level - 1))" --seed 2
  done
done
