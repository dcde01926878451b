#!/usr/bin/env bash
# The bot's speed in the page against the terminal's (issue 14): the
# page's bot (its Web Worker, headless Chromium) plays PLIES plies of each
# game against itself from the start at LEVEL, seed 1 for every move; then
# the native `tabula analyse` searches each of the same positions with the
# same limits (--depth LEVEL --nodes, the level's work budget) and seed.
# The search is deterministic, so both sides do the same work: the native
# bestmove must equal the page's move, and the work count N (positions
# searched + moves listed + children evaluated) is the terminal's. Speed is
# compared in processor time (the renderer's for the page, user + system
# for the terminal), which a machine shared with other work does not
# inflate as it does wall time. Prints per move
#   native GAME ply I nodes N cpu-seconds C | page cpu-seconds C seconds S
# and per game
#   bot-GAME level L plies P nodes N native-cpu C page-cpu C ratio R
# (R: the page's work per second over the terminal's).
# Usage: tests/bench/bot_web.sh [BUILD_DIR] [LEVEL] [PLIES]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
level=${2:-8}
plies=${3:-8}
. tests/bench/web_bench.sh

# engine/bot.c's level budget: 20000 * 4^LEVEL, at most 2^23.
budget=$(( 20000 << (2 * level) ))
[ "$budget" -le 8388608 ] || budget=8388608
for game in laska chessball football volleyball volleyball10; do
  web=$(node tests/web/browser.mjs bot "$game" "$level" "$plies" 1)
  mapfile -t lines <<<"$web"
  moves=() total=0 ncpu=0 wcpu=0
  for line in "${lines[@]}"; do
    # web-bot GAME ply I seconds S cpu-seconds C move MOVE...
    read -r _ _ _ ply _ secs _ cpu _ move <<<"$line"
    out=$(mktemp)
    times=$( { time "$build/tabula" analyse "$game" "${moves[@]}" --depth "$level" \
      --nodes "$budget" --seed 1 >"$out"; } 2>&1)
    best=$(sed -n 's/^bestmove //p' "$out")
    nodes=$(awk '$1 == "info" { for (i = 1; i < NF; i++) if ($i == "nodes") n = $(i + 1) } END { print n }' "$out")
    rm -f "$out"
    if [ "$best" != "$move" ]; then
      echo "bot-$game ply $ply: the page played '$move', the terminal '$best'" >&2
      exit 1
    fi
    c=$(cpu_of "$times")
    echo "native $game ply $ply nodes $nodes cpu-seconds $c | page cpu-seconds $cpu seconds $secs"
    total=$((total + nodes))
    ncpu=$(awk -v a="$ncpu" -v b="$c" 'BEGIN { print a + b }')
    wcpu=$(awk -v a="$wcpu" -v b="$cpu" 'BEGIN { print a + b }')
    moves+=("$move")
  done
  awk -v g="$game" -v l="$level" -v p="${#moves[@]}" -v n="$total" -v nc="$ncpu" -v wc="$wcpu" \
    'BEGIN { printf "bot-%s level %d plies %d nodes %d native-cpu %.2f page-cpu %.2f ratio %.2f\n",
      g, l, p, n, nc, wc, nc / wc }'
done
