#!/usr/bin/env bash
# A game of every game on the page (web/index.html, served by `tabula
# lobby --http` from build-wasm/site) in headless Chromium
# against the bot, the page's moves entered by clicking squares on its
# board (tests/web/browser.mjs play), then the same moves replayed by the
# native `tabula replay` as a plain game record: its final-hash must equal
# the state hash the page's WebAssembly core reached. A screenshot of each
# board is left in NATIVE_BUILD_DIR/web-GAME.png (prefix WEB_SHOT_PREFIX
# when set: tests/web/web_firefox.sh runs this in Firefox). Then a game
# against the bot survives its tab's reloads (browser.mjs playreload), in
# Laska and in Chess volleyball (a side acts several times running); the
# board's figurines, Chessball's map and Chess volleyball's ball. Run by
# ctest as web_play.
#   tests/web/web_play.sh NATIVE_BUILD_DIR [PLIES]
set -euo pipefail
cd "$(dirname "$0")/../.."
native=${1:?usage: tests/web/web_play.sh NATIVE_BUILD_DIR [PLIES]}
plies=${2:-24}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0
for game in laska chessball football volleyball volleyball10; do
  TABULA_BINARY="$native/tabula" node --no-warnings tests/web/browser.mjs \
    play "$game" "$plies" \
    "$native/${WEB_SHOT_PREFIX:-web-}$game.png" >"$out/$game.txt"
  page=$(sed -n 's/^page-final-hash: //p' "$out/$game.txt")
  grep -v '^page-final-hash: ' "$out/$game.txt" >"$out/$game.pgn"
  term=$("$native/tabula" replay "$out/$game.pgn" | sed -n 's/^final-hash: //p')
  n=$(grep -c '^[0-9]*\. ' "$out/$game.pgn" || true)
  if [ -n "$page" ] && [ "$page" = "$term" ]; then
    echo "web_play: $game: $n plies, page and terminal agree: $page"
  else
    echo "web_play: $game: FAILED: page '$page', terminal '$term'"
    cat "$out/$game.pgn"
    fail=1
  fi
done
for game in laska volleyball; do
  if TABULA_BINARY="$native/tabula" node --no-warnings tests/web/browser.mjs \
      playreload "$game" >"$out/reload-$game.txt"; then
    echo "web_play: $game: the game against the bot came back after each reload"
  else
    echo "web_play: $game: FAILED: a reload: $(cat "$out/reload-$game.txt")"
    fail=1
  fi
done
# The board's chess pieces as figurines (browser.mjs figurines).
if got=$(TABULA_BINARY="$native/tabula" node --no-warnings tests/web/browser.mjs \
  figurines 2>&1) &&
  grep -q '^figurines ok$' <<<"$got"; then
  echo "web_play: the board shows the chess figurines"
else
  echo "web_play: figurines: FAILED: $got"
  fail=1
fi
# Chessball's map names its fields, not longitudes (browser.mjs ballmap);
# Chess volleyball's ball is drawn as the ball (browser.mjs vball).
for check in ballmap vball; do
  if got=$(TABULA_BINARY="$native/tabula" node --no-warnings tests/web/browser.mjs \
    "$check" 2>&1) && grep -q "^$check ok$" <<<"$got"; then
    echo "web_play: $check ok"
  else
    echo "web_play: $check: FAILED: $got"
    fail=1
  fi
done
[ $fail -eq 0 ] && echo "web_play: every game's page hash equals the terminal's"
exit $fail
