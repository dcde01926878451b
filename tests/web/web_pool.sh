#!/usr/bin/env bash
# The pool on the page (issue 37), in headless Chromium against real
# processes (tests/web/browser_pool.mjs, browser.mjs netpool): three
# players, the page and two terminals `tabula pool`, on docs/pool.md's
# worked example with the page as A (laska and chessball at 3+2..10+5):
# the terminal offering laska at 15+10..30+0 waits and the page shows the
# counts the relay sends (laska 2, chessball 1), the terminal offering
# chessball at 5+0 pairs with the page, which hosts it and plays it out
# with its bot (one final hash on both), the waiting terminal is told
# laska 1; then the page offers laska at 30+0 and plays as the waiting
# terminal's guest (one hash on both); a second tab of the browser (one
# identity key) is refused an offer while the first's waits, which Cancel
# withdraws; on one lobby, an offer waits through its lobby's restart
# (made again, counted by the new lobby).
# First on one `tabula lobby --http`, then with the page on one `tabula
# lobby --redis` node and the terminals on another of one redis-server
# (skipped without redis-server). Run by ctest as web_pool.
#   tests/web/web_pool.sh NATIVE_BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
native=${1:?usage: tests/web/web_pool.sh NATIVE_BUILD_DIR}
fail=0
run() {
  if TABULA_BINARY="$native/tabula" node --no-warnings tests/web/browser.mjs netpool "$@"; then
    echo "web_pool: ${*:-one lobby}: the page paired with a terminal as host and as guest, one hash each"
  else
    echo "web_pool: ${*:-one lobby}: FAILED"
    fail=1
  fi
}
run
if command -v redis-server >/dev/null; then
  run redis
else
  echo "web_pool: across two lobby nodes skipped: no redis-server"
fi
exit $fail
