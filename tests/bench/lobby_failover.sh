#!/usr/bin/env bash
# lobby_failover.sh: the time from killing a lobby node (SIGKILL) until
# both players are playing again, for docs/benchmarks.md. One redis-server
# on a free loopback port in a temporary folder, node A and node B on it;
# host and guest (bots, --delay 200) on A, a spectator on B. At the
# spectator's ply 6, A is killed and started again at once on its address
# (the players know one address until --lobby A,B reaches the match
# driver); the time runs until both players have printed
# "lobby: reconnected" and a further ply has been played. Each run checks
# the three final hashes are equal.
# Usage: tests/bench/lobby_failover.sh BUILD_DIR [RUNS]
set -euo pipefail
bin="$(cd "$1" && pwd)/tabula"
runs=${2:-5}
tmp=$(mktemp -d /tmp/tabula-failover-XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --dir "$tmp" --save '' \
  --appendonly no >"$tmp/redis.out" 2>&1 &
pids+=($!)
until grep -q "Ready to accept" "$tmp/redis.out"; do sleep 0.05; done
url="redis://127.0.0.1:$port"
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
wait_for() { # file text
  local end=$(( $(now_ms) + 30000 ))
  until grep -q -- "$2" "$1" 2>/dev/null; do
    [ "$(now_ms)" -lt "$end" ] || { echo "no '$2' in $1" >&2; exit 1; }
    sleep 0.005
  done
}
"$bin" lobby --listen 127.0.0.1:0 --redis "$url" >"$tmp/b.out" 2>&1 &
pids+=($!)
wait_for "$tmp/b.out" "listening: "
nb=$(sed -n 's/^listening: //p' "$tmp/b.out")
for run in $(seq 1 "$runs"); do
  d="$tmp/run$run"; mkdir -p "$d"; cd "$d"
  "$bin" lobby --listen 127.0.0.1:0 --redis "$url" >a.out 2>&1 &
  apid=$!; pids+=($apid)
  wait_for a.out "listening: "
  na=$(sed -n 's/^listening: //p' a.out)
  "$bin" host chessball --bot=2 --log h.log --lobby "$na" --delay 200 >h.out 2>&1 &
  hpid=$!
  wait_for h.out "watch: "
  inv=$(sed -n 's/^invite: //p' h.out); wat=$(sed -n 's/^watch: //p' h.out)
  "$bin" spectate "$wat" --lobby "$nb" --log s.log >s.out 2>&1 &
  spid=$!
  "$bin" join "$inv" --lobby "$na" --bot=1 --log g.log --delay 200 >g.out 2>&1 &
  gpid=$!
  wait_for s.out "   6. "
  t0=$(now_ms)
  kill -9 "$apid"; wait "$apid" 2>/dev/null || true
  "$bin" lobby --listen "$na" --redis "$url" >>a.out 2>&1 &
  pids+=($!)
  wait_for h.out "lobby: reconnected"
  wait_for g.out "lobby: reconnected"
  wait_for s.out "   7. "
  t1=$(now_ms)
  wait "$hpid" "$gpid" "$spid"
  hashes=$(grep -h "final-hash: " h.out g.out s.out | sort -u | wc -l)
  echo "failover run $run kill_to_playing_ms $((t1 - t0)) same_final_hash $([ "$hashes" = 1 ] && echo yes || echo no)"
  kill "${pids[-1]}"
done
rm -rf "$tmp"
