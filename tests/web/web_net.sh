#!/usr/bin/env bash
# Network games terminal against browser (issue 14), in headless
# Chromium: for each game `tabula host GAME --bot=3 --http` hosts with its
# embedded lobby serving the page, the browser joins with the printed
# #join=CODE link plus &bot=1 (the core's bot plays the browser seat in
# its Web Worker), a second page watches through the #watch= link two
# plies in, and the game is played out
# (tests/web/browser.mjs net). Each game passes when the terminal's
# final-hash equals the player page's and the spectator page's, and the
# log downloaded from the page with its button verifies with `tabula
# replay` to the same hash. Then the page hosts a Chessball game from its
# start page and a terminal bot joins it with the code the page shows,
# the page reloaded once before the join (the same room and codes) and
# once in the middle of the game (its seat and bot go on; browser.mjs
# nethost), the same again from a lobby serving the page over HTTPS and
# its members over WSS with a self-signed certificate (nethost tls), and
# a person's seat on the page refuses a link's bad bot
# level, bad seed and a mistyped invite code, shows the clocks, plays a
# typed move, is reloaded, is reloaded again 1.5 s into its turn (its
# clock goes on, lower by at least the wait), plays another and resigns
# (browser.mjs netresign); last a person's seat whose terminal host is
# killed claims the win once the absence countdown has run (browser.mjs
# netclaim); and a spectator page that opens 8 s into Black's turn shows
# Black's clock 8 s down, as the players have it (browser.mjs netwatch);
# public seeks (browser.mjs netseek): `tabula seek laska` shows up in the
# start page's list (its code the terminal's invite: line, its player's
# name and fingerprint), Play joins it and the game is played out, and
# holds a host to the game its seek showed (a start of another refused);
# the
# page's seek form refuses a name with a bidi control in the rule's
# words, puts a seek up with a good one, `tabula seeks` lists it with
# that name and `tabula join CODE --bot=1` plays it out, one hash each,
# and over the lobby's limit of open seeks from one address the page's
# seek is refused in the limit's words and ends, as the terminal's does,
# and all of it again with the page on one `tabula lobby --redis` node
# and the terminals on another of the same redis-server;
# and the first hour's story in one browser (browser.mjs story): a game
# against the bot from the start page, then Host and the opponent's link
# in a second tab, both moving, the second tab closed (asked first) and
# the link reopened, the host resigning, the downloaded log chosen on the
# start page and stepped through to its end.
# Screenshots in
# NATIVE_BUILD_DIR/web-net-GAME.png.
# Run by ctest as web_net.
#   tests/web/web_net.sh NATIVE_BUILD_DIR [GAME...]
set -euo pipefail
cd "$(dirname "$0")/../.."
native=${1:?usage: tests/web/web_net.sh NATIVE_BUILD_DIR [GAME...]}
shift
games=("$@")
[ ${#games[@]} -gt 0 ] || games=(laska chessball football volleyball volleyball10)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
TABULA_BINARY="$native/tabula" node --no-warnings tests/web/browser.mjs net \
  "$out" "${games[@]}" | tee "$out/net.txt"
fail=0
for game in "${games[@]}"; do
  line=$(grep "^net $game host " "$out/net.txt" || true)
  read -r _ _ _ host _ page _ spect _ plies _ code _ <<<"$line" || true
  log="$out/net-$game.log"
  replay=-
  if [ -f "$log" ]; then
    replay=$("$native/tabula" replay "$log" | sed -n 's/^final-hash: //p') || replay="FAILED"
  fi
  if [ -n "$host" ] && [ "$host" = "$page" ] && [ "$host" = "$spect" ] &&
     [ "$host" = "$replay" ] && [ "${code:-1}" = 0 ]; then
    echo "web_net: $game: $plies plies; terminal, page, spectator and the downloaded log agree: $host"
  else
    echo "web_net: $game: FAILED: terminal '${host:-}' page '${page:-}' spectator '${spect:-}' log '$replay' host exit '${code:-}'"
    fail=1
  fi
  [ -f "$out/web-net-$game.png" ] && cp "$out/web-net-$game.png" "$native/"
done
# One browser.mjs scenario: step NAME "what passed" "what failed" [ARGS].
step() {
  local name=$1 ok=$2 bad=$3
  shift 3
  if TABULA_BINARY="$native/tabula" node --no-warnings tests/web/browser.mjs \
      "$name" "$@" | tee "$out/$name.txt"; then
    echo "web_net: $ok"
  else
    echo "web_net: FAILED: $bad: $(cat "$out/$name.txt")"
    fail=1
  fi
}
# The page hosts from its start page's form, a terminal bot joins.
step nethost "the page hosted chessball, was reloaded twice, the terminal joined; hashes agree" \
  "the page hosting chessball" chessball
# The same with the lobby's own TLS: the page over HTTPS, its seat over WSS.
step nethost "over HTTPS and WSS (tabula lobby --tls-cert), the page hosted chessball, was reloaded twice, the terminal joined; hashes agree" \
  "the page hosting chessball over HTTPS and WSS" chessball tls
# A person's seat: clocks shown, a typed move, Resign.
step netresign "the page's refusals, clocks, typed moves around a reload and resignation reached the terminal" \
  "the page's own seat"
# Public seeks: the page lists a terminal's seek and plays it; the page
# puts one up from its form, which `tabula seeks` lists and a terminal
# plays.
step netseek "the page listed a terminal's seek and played it; a terminal listed the page's seek with its name and played it" \
  "public seeks on the page"
# The same across two lobby nodes of one redis-server (the page on one,
# the terminals on the other), where the machine has redis-server.
if command -v redis-server >/dev/null; then
  step netseek "across two lobby nodes of one redis-server, the page and the terminals listed and played each other's seeks" \
    "public seeks across two lobby nodes" redis
else
  echo "web_net: public seeks across two lobby nodes skipped: no redis-server"
fi
# Two tabs of one browser play each other; closed tabs come back.
step nettabs "two tabs of one browser played each other; a closed tab came back from its link and from the start page" \
  "two tabs of one browser"
step nettabs "the same without Web Locks (no secure context): the seats' leases kept the tabs apart" \
  "two tabs of one browser without Web Locks" nolocks
# A person's seat whose opponent leaves: the claims, typed and clicked.
step netclaim "the page refused an early claim and claimed the win once the absent host's countdown ran out" \
  "a claim against an absent opponent"
# A spectator page that comes in 8 s into Black's turn: the players' clock.
step netwatch "a late spectator page showed Black's running clock as the players have it" \
  "a late spectator page's clock"
# The first hour as one story in one browser: the bot, a friend in a
# second tab, the friend's tab closed and back, the log replayed.
step story "the first hour's story: the bot, a friend in a second tab that closed and came back, the log replayed" \
  "the first hour's story in one browser" "$out"
[ $fail -eq 0 ] && echo "web_net: every game's terminal, page, spectator and log hashes agree"
exit $fail
