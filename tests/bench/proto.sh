#!/usr/bin/env bash
# Protocol benchmarks (figures go to docs/benchmarks.md, "Protocol"):
#   1. envelopes sealed (encode + sign) and opened (limits walk, decode,
#      canonical check, verify) per second, beside libsodium's raw Ed25519
#      sign and verify of the same payload bytes in the same run;
#   2. replay throughput in plies per second: signed Laska logs written by
#      bench_proto mklog, verified in-process (proto_log_verify) and by the
#      `tabula replay --quiet` command (process start included).
#   tests/bench/proto.sh [BUILD_DIR] [SECONDS_PER_RATE] [LOGS]
set -euo pipefail
cd "$(dirname "$0")/../.."
b=${1:-build}
secs=${2:-1}
logs=${3:-20}
"$b/bench_proto" sign "$secs"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for seed in $(seq 1 "$logs"); do
  "$b/bench_proto" mklog "$tmp/$seed.log" "$seed" >/dev/null
done
cat "$tmp"/*.log >/dev/null # warm the page cache
for round in 1 2 3; do
  total=0
  t0=$(date +%s.%N)
  for f in "$tmp"/*.log; do
    out=$("$b/tabula" replay --quiet "$f")
    p=$(sed -n 's/^verified: [0-9]* envelopes, \([0-9]*\) plies.*/\1/p' <<<"$out")
    total=$((total + p))
  done
  t1=$(date +%s.%N)
  awk -v r="$round" -v n="$logs" -v p="$total" -v a="$t0" -v z="$t1" \
    'BEGIN { printf "round %d: tabula replay: %d logs, %d plies in %.3f s: %.0f plies/s\n", r, n, p, z - a, p / (z - a) }'
done
longest=$(ls -S "$tmp"/*.log | head -1)
"$b/bench_proto" replay "$longest" 3
