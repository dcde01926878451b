#!/usr/bin/env bash
# A correspondence game on the page (issue 37), in headless Chromium
# against a terminal seat over `tabula lobby --http`: the page hosts Laska
# at 3days a move, a terminal `tabula join` moves and leaves; the hidden
# page's title and a Notification say "your move"; the start page lists
# the kept game with whose move it is, the time left and the last move,
# and, watching it on the lobby while hidden, turns it to "your move"
# when the terminal, opened again, moves (tests/web/browser_corr.mjs).
# Run by ctest as web_corr.
#   tests/web/web_corr.sh NATIVE_BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
native=${1:?usage: tests/web/web_corr.sh NATIVE_BUILD_DIR}
TABULA_BINARY="$native/tabula" node --no-warnings tests/web/browser.mjs netcorr
