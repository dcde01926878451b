#!/usr/bin/env bash
# The page on a phone-sized screen and from the keyboard (issue 14): for
# every game, on a 390x844 touch screen (tests/web/browser.mjs phone,
# served by `tabula lobby --http`), nothing is wider than the screen, a
# move is played by tapping its squares and one from the keyboard alone
# (Tab to the move box within a few presses, type, Enter), and the help
# names no terminal key; then every game plays a long game (two players
# on the device, 111 plies found first with the module's positions, going
# back where every move would end the game; Football chess to 20 goals,
# Chess volleyball with 60-minute sets): the ply numbers are whole, the
# move list scrolls itself and not the window, the final-hash line stays
# inside its panel (browser.mjs longGameLayout). A screenshot of each board is left in
# NATIVE_BUILD_DIR/web-phone-GAME.png. Run by ctest as web_phone.
#   tests/web/web_phone.sh NATIVE_BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
native=${1:?usage: tests/web/web_phone.sh NATIVE_BUILD_DIR}
fail=0
for game in laska chessball football volleyball volleyball10; do
  got=$(WEB_PHONE=1 WEB_WIDTH=390 WEB_HEIGHT=844 WEB_PHONE_LONG=1 TABULA_BINARY="$native/tabula" \
    node --no-warnings tests/web/browser.mjs phone "$game" \
    "$native/web-phone-$game.png" 2>&1 || true)
  if grep -q "^phone $game ok " <<<"$got"; then
    echo "web_phone: $(grep "^phone $game ok " <<<"$got")"
  else
    echo "web_phone: $game: FAILED: $(grep -m1 'Error' <<<"$got" || printf '%s' "$got")"
    fail=1
  fi
done
[ $fail -eq 0 ] && echo "web_phone: every board fits a phone, plays by tap and by keyboard"
exit $fail
