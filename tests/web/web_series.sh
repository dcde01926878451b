#!/usr/bin/env bash
# A series on the page (issue 38), in headless Chromium against a
# terminal player through a real `tabula lobby --http`: three laska games
# with alternating hosts and no code typed after the first, one final
# hash a game on both sides, the score on the page and the terminal as
# derived by hand from the results (tests/web/browser_series.mjs). Run by
# ctest as web_series.
#   tests/web/web_series.sh NATIVE_BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
native=${1:?usage: tests/web/web_series.sh NATIVE_BUILD_DIR}
TABULA_BINARY="$native/tabula" node --no-warnings tests/web/browser.mjs netseries
