#!/usr/bin/env bash
# Times `tabula simtest` (issue 13): simulated whole matches per second of
# CPU, per game, beside an anchor measured in the same run on the same
# machine: `tabula synctest` (seeded random games checked at every ply,
# the same rules core without the protocol; 200 games, perft check off). CPU seconds (user + sys)
# come from bash's `time` around each command, so other processes on a
# shared machine weigh less than in wall time. MATCHES (default 200) per
# game, ROUNDS (default 3), ADVERSARY (default all: the guest's lies,
# `tabula simtest --adversary`; none for honest matches). Figures go in
# docs/benchmarks.md, never in unit tests.
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/build.sh >/dev/null
matches=${MATCHES:-200}
rounds=${ROUNDS:-3}
adversary=${ADVERSARY:-all}
cpu() { # command...: prints the CPU seconds (user + sys) it took
  local TIMEFORMAT='%U %S'
  { time "$@" >/dev/null 2>&1; } 2>&1 | awk '{ printf "%.2f", $1 + $2 }'
}
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -m), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg), $matches matches per game, adversary $adversary"
echo "| round | game | simtest CPU s | matches/s | matches/min | synctest 200 games CPU s |"
echo "|---|---|---|---|---|---|"
for r in $(seq 1 "$rounds"); do
  for g in $(build/tabula --help | sed -n 's/^games: //p'); do
    s=$(cpu build/tabula simtest "$g" --matches "$matches" --seed "$r" \
      --adversary "$adversary")
    a=$(cpu build/tabula synctest "$g" --games 200 --perft 0 --seed "$r")
    awk -v r="$r" -v g="$g" -v s="$s" -v m="$matches" -v a="$a" \
      'BEGIN { printf "| %s | %s | %s | %.1f | %.0f | %s |\n", r, g, s, m / s, 60 * m / s, a }'
  done
done
