#!/usr/bin/env bash
# lobby_scale.sh: rooms and idle connections held by several lobby nodes
# on one Redis, for docs/benchmarks.md (issue 15: 100,000 connections and
# 50,000 rooms; one process may hold at most 20,000 descriptors here, so
# nodes and load generators are several processes each). One
# redis-server on a free loopback port in a temporary folder (no
# persistence), NODES `tabula lobby --redis` nodes, GENS load generators
# (tests/bench/lobby_load.c) of ROOMS rooms each: a host on one node and
# its guest on the next, so every room spans two nodes. Generator g
# connects from its own SRCS source addresses 127.0.g.1..SRCS (default 8:
# one address has only ~28,000 ephemeral ports, and connecting slows down
# as they fill); the nodes' per-address caps are raised for the bench by
# flags. Once every member is in, the connections stay
# idle (heartbeats only) past the lobby's 15 s idle timeout; then the
# nodes' resident memory and Redis's used_memory are read, against their
# values before, the CPU time each node and Redis use over IDLE_S more
# seconds of idle holding is taken from /proc, and the generators count
# what they still hold. With BENCH_RTT_ROUNDS=N, bench_lobby's
# round trips and frames a second (in memory, one node on Redis, two
# nodes; its own nodes, on this Redis) are taken in the same run, once
# before the load and once while it is held (HOLD_S must cover both).
# NODE_BIN=PATH runs the nodes from another tabula (an anchor built from
# an earlier commit, e.g. with net/'s per-connection timers).
# Usage: tests/bench/lobby_scale.sh BUILD_DIR NODES GENS ROOMS [HOLD_S]
# (HOLD_S must cover the 17 s past the idle timeout, IDLE_S (default 10)
# and the round trips when asked for.)
set -euo pipefail
build="$(cd "$1" && pwd)"
bin="${NODE_BIN:-$build/tabula}"
load="$build/lobby_load"
nodes=$2
gens=$3
per=$4
hold=${5:-25}
total=$((gens * per))
tmp=$(mktemp -d /tmp/tabula-scale-XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  { wait; } 2>/dev/null || true
  [ -n "${KEEP:-}" ] && echo "kept $tmp" >&2 || rm -rf "$tmp"
}
trap cleanup EXIT
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
wait_for() { # file text timeout_s
  local end=$(( $(now_ms) + ${3:-30} * 1000 ))
  until grep -q -- "$2" "$1" 2>/dev/null; do
    [ "$(now_ms)" -lt "$end" ] || { echo "no '$2' in $1" >&2; cat "$1" >&2; exit 1; }
    sleep 0.05
  done
}
rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; } # user + system
idle_s=${IDLE_S:-10}
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --dir "$tmp" --save '' \
  --appendonly no >"$tmp/redis.out" 2>&1 &
rpid=$!
pids+=($rpid)
wait_for "$tmp/redis.out" "Ready to accept"
used() { redis-cli -p "$port" info memory | tr -d '\r' | sed -n 's/^used_memory:\([0-9]*\)$/\1/p'; }
url="redis://127.0.0.1:$port"
# Each generator's members all come from its one address: the caps per
# address are raised to what one generator opens.
list=""
npids=()
for i in $(seq 1 "$nodes"); do
  "$bin" lobby --listen 127.0.0.1:0 --redis "$url" --max-rooms "$((total + 1000))" \
    --max-conns 19500 --max-rooms-per-address "$((per + 1000))" \
    --max-conns-per-address "$((2 * per + 1000))" >"$tmp/node$i.out" 2>"$tmp/node$i.err" &
  npids+=($!)
  pids+=($!)
  wait_for "$tmp/node$i.out" "listening: "
  list="$list${list:+,}$(sed -n 's/^listening: //p' "$tmp/node$i.out")"
done
sleep 1
rr0=$(rss_kib "$rpid")
n0=0
for p in "${npids[@]}"; do n0=$((n0 + $(rss_kib "$p"))); done
rtt() { # label
  [ "${BENCH_RTT_ROUNDS:-0}" -gt 0 ] || return 0
  BENCH_REDIS="$url" BENCH_LATENCY_ONLY=1 "$build/bench_lobby" "$bin" \
    "$BENCH_RTT_ROUNDS" 2>&1 | sed "s/^/$1 /"
}
rtt idle
r0=$(used)
t0=$(now_ms)
for g in $(seq 1 "$gens"); do
  srcs=""
  for a in $(seq 1 "${SRCS:-8}"); do srcs="$srcs${srcs:+,}127.0.$g.$a"; done
  "$load" "$list" "$per" "$hold" "$((g - 1))" "$srcs" \
    >"$tmp/gen$g.out" 2>"$tmp/gen$g.err" &
  pids+=($!)
done
for g in $(seq 1 "$gens"); do wait_for "$tmp/gen$g.out" "^ready" 900; done
t1=$(now_ms)
sleep 17 # past the idle timeout: heartbeats are what holds them
n1=0
for p in "${npids[@]}"; do n1=$((n1 + $(rss_kib "$p"))); done
r1=$(used)
rr1=$(rss_kib "$rpid")
keys=$(redis-cli -p "$port" dbsize | tr -d '\r')
# CPU while idle-holding: each node's and Redis's ticks (1/100 s) over
# idle_s seconds.
c0=(); for p in "${npids[@]}" "$rpid"; do c0+=("$(cpu_ticks "$p")"); done
sleep "$idle_s"
cpu="scale idle_cpu_percent_over_${idle_s}s"
i=0
for p in "${npids[@]}" "$rpid"; do
  d=$(( $(cpu_ticks "$p") - c0[i] ))
  [ "$p" = "$rpid" ] && name=redis || name="node$((i + 1))"
  cpu="$cpu $name $(awk "BEGIN {printf \"%.1f\", $d / $idle_s}")"
  i=$((i + 1))
done
echo "$cpu"
rtt loaded
for g in $(seq 1 "$gens"); do wait_for "$tmp/gen$g.out" "^held" $((hold + 120)); done
welcomed=0; alive=0; gone=0
for g in $(seq 1 "$gens"); do
  set -- $(sed -n 's/^ready rooms [0-9]* members [0-9]* welcomed \([0-9]*\) gone \([0-9]*\).*/\1 \2/p' "$tmp/gen$g.out")
  welcomed=$((welcomed + $1))
  set -- $(sed -n 's/^held members [0-9]* alive \([0-9]*\) gone \([0-9]*\)/\1 \2/p' "$tmp/gen$g.out")
  alive=$((alive + $1)); gone=$((gone + $2))
done
echo "scale nodes $nodes generators $gens rooms $total members $((2 * total)) welcomed $welcomed setup_s $(awk "BEGIN {printf \"%.1f\", ($t1 - $t0) / 1000}") held_after_idle $alive gone $gone"
echo "scale node_rss_kib_before $n0 after $n1 per_room_bytes $(( (n1 - n0) * 1024 / total )) per_member_bytes $(( (n1 - n0) * 1024 / (2 * total) ))"
echo "scale redis_used_before $r0 after $r1 per_room_bytes $(( (r1 - r0) / total )) redis_rss_kib_before $rr0 after $rr1 keys $keys"
for g in $(seq 1 "$gens"); do head -3 "$tmp/gen$g.err"; done
for i in $(seq 1 "$nodes"); do grep -v "^$" "$tmp/node$i.err" | head -3 || true; done
