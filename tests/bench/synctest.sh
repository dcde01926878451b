#!/usr/bin/env bash
# Times issue 8's acceptance run: `tabula synctest` with 10,000 games of
# every compiled-in game (or GAMES=N), one game at a time so each gets its
# own wall-clock figure. Builds build/ first. Figures go in
# docs/determinism.md ("Synctest speed"), never in unit tests.
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/build.sh >/dev/null
games=${GAMES:-10000}
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -m), $(nproc) cores, $games games each"
for g in $(build/tabula --help | sed -n 's/^games: //p'); do
  build/tabula synctest "$g" --games "$games" 2>/dev/null | grep -v '^synctest: ok$'
done
