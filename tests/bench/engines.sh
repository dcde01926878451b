#!/usr/bin/env bash
# The engine tables of docs/engines.md: the current search against the
# old one at equal time per move, and each level against the one below at
# the levels' own budgets (deterministic for the seed; Elo over level 1 is
# the sum along the chain). Prints one line per row:
#   TABLE GAME ROW result games N wins W draws D losses L elo E lo LO hi HI
#   moves a NA b NB movetime a MS b MS   (MS: processor ms a move)
# Usage: tests/bench/engines.sh [BUILD_DIR] [GAMES] [JOBS] [MS_PER_MOVE]
#                               [GAMES_NEW_VS_OLD]
# The docs' level rows use GAMES=400 and the new-against-old rows 100
# (GAMES_NEW_VS_OLD, default GAMES); together about 40 minutes on two
# shared cores. Football chess stops at level 3: a level-4 turn there
# takes seconds, so 400 games of it would take hours.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
games=${2:-400}
jobs=${3:-$(nproc)}
ms=${4:-20}
ab_games=${5:-$games}
[ -x "$build/tabula" ] || BUILD_DIR=$build scripts/build.sh

row() { # TABLE GAME ROW GAMES ARGS...
  local table=$1 game=$2 name=$3 n=$4
  shift 4
  local out
  out=$("$build/tabula" match "$game" "$@" --games "$n" --jobs "$jobs" \
        2>/dev/null | tr '\n' ' ')
  echo "$table $game $name $out"
}

for g in laska chessball football volleyball volleyball10; do
  row new-vs-old "$g" "time$ms" "$ab_games" --a 8:depth=60 \
    --b 8:old:depth=16 \
    --time "$ms" --seed 1
done
for g in laska chessball football volleyball volleyball10; do
  for level in 2 3 4; do
    [ "$g" = football ] && [ "$level" = 4 ] && continue
    row levels "$g" "$level-v-$((level - 1))" "$games" --a "$level" \
      --b "$((level - 1))" --seed 2
  done
done
