#!/usr/bin/env bash
# The page's load size and time to first board (issue 14), served by
# `tabula lobby --http` as a user opens it, in headless Chromium with an
# empty cache each time: for each game ROUNDS fresh loads of the start
# page and then that game's board (tests/web/browser.mjs load). Prints
# each load's line, then per game the medians:
#   load-GAME start-ms T start-bytes B board-ms T board-bytes B
# and the files the site serves with their sizes as served and gzip -9'd
# (Debian's libwebsockets 4.1 is built without HTTP compression, so the
# lobby serves them as they are; the gzip column is what compression at
# the server would save).
# Usage: tests/bench/load_web.sh [BUILD_DIR] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
rounds=${2:-3}
. tests/bench/web_bench.sh
site=${WASM_DIR:-build-wasm}/site

for game in laska chessball football volleyball volleyball10; do
  sm=() sb=() bm=() bb=()
  for r in $(seq "$rounds"); do
    line=$(TABULA_BINARY=$build/tabula node tests/web/browser.mjs load "$game" 2>/dev/null)
    echo "$line"
    set -- $line # page-load GAME start-ms T start-bytes B board-ms T board-bytes B files N
    sm+=("$4") sb+=("$6") bm+=("$8") bb+=("${10}")
  done
  echo "load-$game start-ms $(printf '%s\n' "${sm[@]}" | median)" \
    "start-bytes $(printf '%s\n' "${sb[@]}" | median)" \
    "board-ms $(printf '%s\n' "${bm[@]}" | median)" \
    "board-bytes $(printf '%s\n' "${bb[@]}" | median)"
done
(cd "$site" && find . -type f \( -name '*.js' -o -name '*.html' -o -name '*.css' \
  -o -name '*.wasm' \) | sort | while read -r f; do
  echo "file $f bytes $(wc -c <"$f") gzip $(gzip -9c "$f" | wc -c)"
done)
