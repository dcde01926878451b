#!/usr/bin/env bash
# The page in Firefox (issue 14): Debian's firefox-esr, driven by
# puppeteer-core over WebDriver BiDi (tests/web/browser.mjs with
# WEB_BROWSER=firefox), replays every golden vector and plays a short game
# of every game against the bot as web_play does in Chromium, the
# terminal's replay reaching the page's final hash. Skipped (exit 77) when
# firefox-esr is not installed. Run by ctest as web_firefox.
#   tests/web/web_firefox.sh NATIVE_BUILD_DIR [PLIES]
set -euo pipefail
cd "$(dirname "$0")/../.."
native=${1:?usage: tests/web/web_firefox.sh NATIVE_BUILD_DIR [PLIES]}
if ! command -v "${FIREFOX:-firefox-esr}" >/dev/null; then
  echo "web_firefox: skipped: firefox-esr is not installed (apt-get install firefox-esr)"
  exit 77
fi
export WEB_BROWSER=firefox FIREFOX=${FIREFOX:-$(command -v firefox-esr)}
echo "web_firefox: $("$FIREFOX" --version 2>/dev/null | tail -n 1)"
node --no-warnings tests/web/browser.mjs golden
WEB_SHOT_PREFIX=web-firefox- tests/web/web_play.sh "$native" "${2:-12}"
