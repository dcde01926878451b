#!/usr/bin/env bash
# A club's published numbers on the page (issue 38), in headless Chromium
# from a real `tabula lobby --http --archive DIR`: the relay's ratings
# list shown and checked against its logs in the page, a changed digit
# named by its line; a round robin's documents shown with its standings,
# a changed byte refused (tests/web/browser_club.mjs). Run by ctest as
# web_club.
#   tests/web/web_club.sh NATIVE_BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
native=${1:?usage: tests/web/web_club.sh NATIVE_BUILD_DIR}
TABULA_BINARY="$native/tabula" node --no-warnings tests/web/browser.mjs club
