#!/usr/bin/env bash
# Installs what the browser page needs: nodejs, then the page's npm
# packages from web/package-lock.json (npm ci, only when web/node_modules
# is missing or older than the lock file). The browser tests also need
# Debian's chromium: scripts/test.sh installs it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh nodejs
if [ ! -d web/node_modules ] || [ web/package-lock.json -nt web/node_modules ]; then
  echo "web-deps: npm ci in web/" >&2
  (cd web && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  touch web/node_modules
fi
