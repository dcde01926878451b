#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz/ with clang (ASan + UBSan)
# and runs each for a bounded time from a seed corpus made by seeds.c.
#   tests/fuzz/run.sh [SECONDS]   seconds per target (default 20, or
#                                 $FUZZ_SECONDS); output in $FUZZ_DIR
#                                 (default build-fuzz/)
# Prints one line per target: executions, corpus size, crashes. A crash
# stops the script with libFuzzer's non-zero status and its reproducer.
set -euo pipefail
cd "$(dirname "$0")/../.."
# libFuzzer and the sanitizer runtimes are only "recommended" by clang,
# and deps.sh installs without recommends: name them.
scripts/deps.sh clang libclang-rt-dev
secs=${1:-${FUZZ_SECONDS:-20}}
out=${FUZZ_DIR:-build-fuzz}
mkdir -p "$out"
CC=${FUZZ_CC:-clang}
read -r -a deps <<<"$(pkg-config --cflags --libs libsodium msgpack)"
flags=(-std=c11 -g -O1 -Icore -Iproto -Imatch -Iseat -Ilobby -Iclub -Wall -Wextra
       -fsanitize=address,undefined -fno-sanitize-recover=undefined)
src=(core/*.c proto/*.c club/*.c)

"$CC" "${flags[@]}" tests/fuzz/seeds.c "${src[@]}" lobby/code.c \
  lobby/seek_card.c lobby/pool_wire.c "${deps[@]}" -o "$out/seeds"
rm -rf "$out/seeds.d"
"$out/seeds" "$out/seeds.d" >/dev/null

summary="$out/summary.txt"
: >"$summary"
# (seat: the seat layer's text readers; its seeds are written here)
mkdir -p "$out/seeds.d/seat"
printf '5+3' >"$out/seeds.d/seat/clock"
printf 'goals=3\n30s+1s' >"$out/seeds.d/seat/options"
printf '00ff10a9' >"$out/seeds.d/seat/hex"
printf 'series1 laska 3 1 0 1 1 0 %032d %064d %064d clock=300+0' 0 1 2 \
  >"$out/seeds.d/seat/series"
# (wire: the lobby's messages to a seat, and a client's hello; a first
# byte 0xAA puts a true WELCOME first: fuzz_wire.c. Version 4: PRESENCE
# (123 bytes: the guest's key too) and ACK (89) carry a receipt's seq,
# time, absences and signature, a FRAME 90 bytes of header)
rep() { for ((k = 0; k < $2; k++)); do printf "\\x$1"; done; }
mkdir -p "$out/seeds.d/wire"
{
  printf '\xaa\x00\x7b\x84\x01\x01'; rep 00 120
  printf '\x00\x59\x83'; rep 00 7; printf '\x01'; rep 00 80
  printf '\x00\x5b\x82'; rep 00 7; printf '\x02\x01'; rep 00 80; printf 'x'
} >"$out/seeds.d/wire/welcomed"
printf '\x00\x02\x85\x03' >"$out/seeds.d/wire/refused"
# (room: steps of fuzz_room.c: member 0 CREATEs a room, member 1 JOINs
# it, each sends a DATA, member 1 leaves, the time moves on)
mkdir -p "$out/seeds.d/room"
{
  printf '\x00\x00\xba\x01\x04'
  rep 21 16; rep 22 16; rep aa 32; rep 11 16; rep 00 32; rep 5e 64; rep 00 8
  printf '\x04\x00\x8a\x02\x04'
  rep 21 16; rep 33 16; rep bb 32; rep 5e 64; rep 00 8
  printf '\x00\x00\x03\x04e2\x04\x00\x03\x04e7\x05\x0a'
} >"$out/seeds.d/room/game"
# (trf: a tournament report file, typed by its columns: two players,
# a game and a pairing-allocated bye, CRLF ends)
mkdir -p "$out/seeds.d/trf"
{
  printf '012 Club\r\nXXR 2\r\n'
  printf '001    1 m    A                                 2100 CZE %11s %10s  1.5    1  0002 w 1  0000 - U\r\n' '' ''
  printf '001    2 wWFM B                                      CZE %11s %10s  0.0    2  0001 b 0  0000 - Z\r\n' '' ''
} >"$out/seeds.d/trf/two"
# (director: a tournament document, its first byte picking the kind)
mkdir -p "$out/seeds.d/director"
{
  printf '\000tabula-tournament 1\nid %064d\nname Club\ngame laska\n' 0
  printf 'clock 300+0\nsystem rr\nrounds 0\ndirector %064d\n' 0
  printf 'player %064d Ann\nplayer %064d\nwithdrawn 2 1\n' 1 2
  printf 'signature %0128d\n' 0
} >"$out/seeds.d/director/tournament"
{
  printf '\002tabula-results 1\ntournament %s\nround 1\n' "$(printf 'ab%.0s' {1..32})"
  printf 'game 1 2 0 %064d\ngame 3 1 1 %064d\n' 0 0
  for p in 1 2 3 4 5 6; do printf 'standing %d %d 0 0 0 0 0\n' $p $p; done
  printf 'signature %0128d\n' 0
} >"$out/seeds.d/director/results"
{ # (the optional lines: lobby, relay, a late entry)
  printf '\000tabula-tournament 1\nid %064d\nname Club\ngame laska\n' 0
  printf 'clock none\nsystem swiss\nrounds 3\ndirector %064d\n' 0
  printf 'lobby club.example:7470\nrelay ABCD-EFGH-JKMN-PQRS\n'
  printf 'player %064d Ann\nplayer %064d\nplayer %064d\n' 1 2 3
  printf 'withdrawn 1 3\nentered 3 2 half\n'
  printf 'signature %0128d\n' 0
} >"$out/seeds.d/director/late"
{ # (declared forfeits)
  printf '\002tabula-results 1\ntournament %s\nround 1\n' "$(printf 'ab%.0s' {1..32})"
  printf 'forfeit 1 white\ngame 2 1 1 %064d\nforfeit 3 none\n' 0
  for p in 1 2 3 4 5 6; do printf 'standing %d %d 0 0 0 0 0\n' $p $p; done
  printf 'signature %0128d\n' 0
} >"$out/seeds.d/director/forfeits"
# (index: a relay archive's index lines, a name and its later copy)
mkdir -p "$out/seeds.d/index"
printf '%064d laska %064d %064d 1700000000 9277' 0 1 2 >"$out/seeds.d/index/one"
printf '%064d-12 chessball %064d %064d 0 1' 7 1 2 >"$out/seeds.d/index/copy"
for target in ${FUZZ_ONLY:-frame envelope log record seat wire room name seek pool trf director swiss index}; do
  extra=()
  seeds=$target
  maxlen=8192
  if [ "$target" = log ]; then
    extra=(-DTABULA_FUZZ_UNSIGNED)
    maxlen=16384
  fi
  if [ "$target" = name ]; then # (mutated records reach the name's rules)
    extra=(-DTABULA_FUZZ_UNSIGNED)
    maxlen=512
  fi
  if [ "$target" = seek ]; then # (mutated cards reach the fields' rules)
    extra=(-DTABULA_FUZZ_UNSIGNED)
    maxlen=4096
  fi
  if [ "$target" = pool ]; then # (mutated offers reach past their proofs)
    extra=(-DTABULA_FUZZ_UNSIGNED)
    maxlen=1024
  fi
  if [ "$target" = index ]; then
    maxlen=600
  fi
  if [ "$target" = director ]; then # (mutated documents reach the
    # fields' rules past the director's signature)
    extra=(-DTABULA_FUZZ_UNSIGNED)
    maxlen=4096
  fi
  if [ "$target" = trf ]; then # (40 rounds make a 491-byte line)
    maxlen=4096
  fi
  if [ "$target" = swiss ]; then # (the TRF seeds and the published Swisses)
    seeds=trf
    maxlen=4096
    cp tests/club/trf/*.trf "$out/seeds.d/trf/"
  fi
  if [ "$target" = room ]; then # the relay's rooms (inet_pton: POSIX;
    # every hello's proof holds, so mutated hellos reach the rooms)
    extra=(-D_POSIX_C_SOURCE=200809L -DTABULA_FUZZ_UNSIGNED lobby/room.c
           lobby/source.c lobby/pool.c lobby/ratings.c)
  fi
  "$CC" "${flags[@]}" -fsanitize=fuzzer "${extra[@]}" \
    "tests/fuzz/fuzz_$target.c" "${src[@]}" seat/*.c match/*.c lobby/wire.c \
    lobby/code.c lobby/seek_card.c lobby/pool_wire.c "${deps[@]}" \
    -o "$out/fuzz_$target"
  corpus="$out/corpus/$target"
  mkdir -p "$corpus"
  cp "$out/seeds.d/$seeds"/* "$corpus/"
  if ! ASAN_OPTIONS=detect_leaks=1 "$out/fuzz_$target" "$corpus" \
    -max_total_time="$secs" -max_len="$maxlen" -print_final_stats=1 \
    -artifact_prefix="$out/crash-$target-" >"$out/fuzz_$target.txt" 2>&1; then
    tail -n 25 "$out/fuzz_$target.txt"
    echo "fuzz_$target: CRASH; reproducer: $(ls "$out"/crash-"$target"-*)" \
      | tee -a "$summary"
    exit 1
  fi
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' \
            "$out/fuzz_$target.txt" | grep -o '[0-9]*$')
  crashes=$(find "$out" -maxdepth 1 -name "crash-$target-*" | wc -l)
  files=$(find "$corpus" -type f | wc -l)
  echo "fuzz_$target: $execs executions in ${secs}s, corpus $files, crashes $crashes" \
    | tee -a "$summary"
done
