#!/usr/bin/env bash
# Installs what the browser page and its tests need: Debian's chromium
# (headless browser tests) and nodejs, then the page's npm packages from
# web/package-lock.json (npm ci, only when web/node_modules is missing or
# older than the lock file).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh nodejs chromium
if [ ! -d web/node_modules ] || [ web/package-lock.json -nt web/node_modules ]; then
  echo "web-deps: npm ci in web/" >&2
  (cd web && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  touch web/node_modules
fi
