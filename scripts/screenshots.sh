#!/usr/bin/env bash
# Makes the screenshots in docs/img: every game's board on a terminal
# (tmux at 140x44 in a UTF-8 locale, drawn by xterm.js with xterm's
# standard colours: scripts/term-shot.mjs) and on the page (headless
# Chromium at 1100x760, four plies against the bot: tests/web/browser.mjs
# play; and on a 390x844 phone: browser.mjs phone). Needs the build
# (scripts/build.sh) and the test tools
# (scripts/test.sh installs chromium and tmux).
#   scripts/screenshots.sh [GAME...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/web-deps.sh
games=("$@")
[ ${#games[@]} -gt 0 ] || games=(laska chessball football volleyball volleyball10)
out=docs/img
mkdir -p "$out"
session="tabula-shot-$$"
for game in "${games[@]}"; do
  tmux new-session -d -s "$session" -x 140 -y 44 \
    "env LC_ALL=C.UTF-8 build/tabula play $game --seed 1; sleep 60"
  # the board is up once its prompt is drawn
  for _ in $(seq 100); do
    tmux capture-pane -p -t "$session" | grep -q '^move>' && break
    sleep 0.1
  done
  tmux capture-pane -e -p -t "$session" >"$out/.screen.ansi"
  tmux kill-session -t "$session"
  node --no-warnings scripts/term-shot.mjs "$out/terminal-$game.png" 140 44 \
    <"$out/.screen.ansi"
  rm -f "$out/.screen.ansi"
  TABULA_BINARY=build/tabula node --no-warnings tests/web/browser.mjs \
    play "$game" 4 "$out/web-$game.png" >/dev/null
  TABULA_BINARY=build/tabula node --no-warnings tests/web/browser.mjs \
    phone "$game" "$out/web-phone-$game.png" >/dev/null
  echo "screenshots: $out/terminal-$game.png $out/web-$game.png $out/web-phone-$game.png"
done
