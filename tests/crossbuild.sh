#!/usr/bin/env bash
# Cross-build determinism check (issue 8, docs/determinism.md): builds
# core/ with the tiny golden-vector checker tests/golden/golden_check.c
# on a matrix of compilers, optimisation levels and targets, and checks
# that every build (1) replays every golden vector of tests/golden/GAME.txt
# with the committed hashes and (2) prints the same perft counts and the
# same BLAKE2b digest of seeded random games of every compiled-in game,
# and the same ratings of seeded synthetic games (club/rating.c, Glicko-2
# in integers: golden_check --ratings). Then the ratings list of real
# signed logs (issue 38): bots' games written by the native
# `tabula match --logs` (five pairs of levels, so several players), rated
# by the native `tabula ratings` and by tests/golden/ratings_check.c (the
# same calls, with proto/'s verification over libsodium and msgpack-c)
# built for wasm32-wasi by the WebAssembly cmake build and, in the full
# run, for 32-bit x86 (gcc -m32 -O2, against libsodium and msgpack-c
# built for i386 by scripts/cross-deps.sh into build-m32/deps): every
# list must be the same bytes.
#
#   tests/crossbuild.sh --quick   gcc and clang at -O0/-O3 on the host
#                                 (x86-64), gcc -O2 -funsigned-char,
#                                 and clang for wasm32-wasi at -O0/-O2 run
#                                 under Node's WASI; the real logs'
#                                 ratings natively and in wasm32 (what CI
#                                 runs)
#   tests/crossbuild.sh           also 32-bit x86 (gcc and clang -m32) and
#                                 big-endian s390x (cross gcc, under
#                                 qemu-user), -O0 and -O3 each; the real
#                                 logs' ratings in i386 too
#
# Missing Debian packages are installed through scripts/deps.sh. Debian's
# gcc-multilib conflicts with every gcc cross compiler, so -m32 uses its
# parts instead: libc6-dev-i386 and lib32gcc-N-dev. The native tabula and
# the wasm ratings_check come from scripts/build.sh (into $BUILD_DIR,
# default build/, and build-wasm/; little to do after scripts/test.sh).
# CROSSBUILD_GAMES (default 100) sets the random games per game,
# CROSSBUILD_RATING_GAMES (default 2000) the synthetic rated games,
# CROSSBUILD_LOG_GAMES (default 2000, a multiple of 10) the real logs, in
# --quick too: about a minute more there (two loaded cores).
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0
case "${1:-}" in
  --quick) quick=1 ;;
  "") ;;
  *) sed -n '2,38p' "$0" >&2; exit 2 ;;
esac
games=${CROSSBUILD_GAMES:-100}
rating_games=${CROSSBUILD_RATING_GAMES:-2000}
log_games=${CROSSBUILD_LOG_GAMES:-2000}
seed=1

pkgs=(gcc clang lld wasi-libc libclang-rt-14-dev-wasm32 nodejs)
if [ $quick -eq 0 ]; then
  gccv=$(gcc -dumpversion 2>/dev/null || echo 12)
  pkgs+=(libc6-dev-i386 "lib32gcc-${gccv%%.*}-dev" gcc-s390x-linux-gnu
         libc6-dev-s390x-cross qemu-user)
fi
scripts/deps.sh "${pkgs[@]}"

# WebAssembly: the same core as the browser page runs (issue 14), with
# Debian's wasi-libc; a 4 MiB stack, and 64 MiB of memory from the start
# because Node's WASI host misbehaves once a module grows its memory
# (tests/wasm/wasi_run.mjs says more).
wasm="--target=wasm32-wasi -Wl,-z,stack-size=4194304 -Wl,--initial-memory=67108864"
wasm_run="node --no-warnings tests/wasm/wasi_run.mjs"

# name | compiler | flags | runner (empty: run natively)
builds=(
  "gcc-O0-x86_64|gcc|-O0|"
  "gcc-O3-x86_64|gcc|-O3|"
  "clang-O0-x86_64|clang|-O0|"
  "clang-O3-x86_64|clang|-O3|"
  "gcc-O2-unsigned-char|gcc|-O2 -funsigned-char|"
  "clang-O0-wasm32|clang|$wasm -O0|$wasm_run"
  "clang-O2-wasm32|clang|$wasm -O2|$wasm_run"
)
if [ $quick -eq 0 ]; then
  builds+=(
    "gcc-O0-i386|gcc|-m32 -O0|"
    "gcc-O3-i386|gcc|-m32 -O3|"
    "clang-O0-i386|clang|-m32 -O0|"
    "clang-O3-i386|clang|-m32 -O3|"
    "gcc-O0-s390x|s390x-linux-gnu-gcc|-O0 -static|qemu-s390x"
    "gcc-O3-s390x|s390x-linux-gnu-gcc|-O3 -static|qemu-s390x"
  )
fi

warn=(-std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes
      -Wmissing-prototypes -Werror)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0
ref=""

printf '%-22s %-35s %-8s %-12s %s\n' build host golden digest seconds
for b in "${builds[@]}"; do
  IFS='|' read -r name cc flags runner <<<"$b"
  bin="$out/golden_check-$name"
  t0=$EPOCHREALTIME
  # shellcheck disable=SC2086 # flags and runner are word lists
  if ! $cc "${warn[@]}" $flags -Icore -Iclub -Iproto core/*.c club/rating.c \
      tests/golden/golden_check.c -o "$bin" 2>"$out/$name.build"; then
    printf '%-22s %s\n' "$name" "BUILD FAILED"
    cat "$out/$name.build"
    fail=1
    continue
  fi
  gold=ok
  # shellcheck disable=SC2086
  if ! $runner "$bin" --dir tests/golden >"$out/$name.golden" 2>&1; then
    gold=FAILED
    fail=1
  fi
  # shellcheck disable=SC2086
  if ! $runner "$bin" --digest "$games" "$seed" >"$out/$name.digest" 2>&1; then
    echo "digest run failed" >>"$out/$name.digest"
    fail=1
  fi
  # the ratings' maths (club/rating.c): the same digits on every build
  # shellcheck disable=SC2086
  if ! $runner "$bin" --ratings "$rating_games" "$seed" >>"$out/$name.digest" 2>&1; then
    echo "ratings run failed" >>"$out/$name.digest"
    fail=1
  fi
  sum=$(sha256sum <"$out/$name.digest" | cut -c1-12)
  t1=$EPOCHREALTIME
  # shellcheck disable=SC2086
  host=$($runner "$bin" --host 2>&1 || echo unknown)
  printf '%-22s %-35s %-8s %-12s %s\n' "$name" "$host" "$gold" "$sum" \
    "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')"
  [ "$gold" = ok ] || cat "$out/$name.golden"
  if [ -z "$ref" ]; then
    ref=$name
  elif ! cmp -s "$out/$ref.digest" "$out/$name.digest"; then
    echo "  $name disagrees with $ref:"
    diff "$out/$ref.digest" "$out/$name.digest" | sed 's/^/    /' || true
    fail=1
  fi
done

echo
cat "$out/$ref.golden" 2>/dev/null || true
cat "$out/$ref.digest" 2>/dev/null || true

# The ratings list of real signed logs (issue 38). The logs go under
# $out, and every build runs there with relative paths: Node's WASI
# (tests/wasm/wasi_run.mjs) opens only the current folder.
root=$(pwd)
BUILD_DIR=${BUILD_DIR:-build} scripts/build.sh >"$out/build.log" 2>&1 || {
  echo "crossbuild: scripts/build.sh failed:"
  tail -n 30 "$out/build.log"
  exit 1
}
native=$(cd "${BUILD_DIR:-build}" && pwd)
wasm_dir=$(cd "${WASM_DIR:-build-wasm}" && pwd)
pairs=(1-2 2-3 3-4 4-1 1-3)
t0=$EPOCHREALTIME
for p in "${pairs[@]}"; do
  mkdir -p "$out/logs/$p"
  "$native/tabula" match laska --a "${p%-*}" --b "${p#*-}" \
    --games $((log_games / ${#pairs[@]})) --nodes 100 --jobs 2 \
    --logs "$out/logs/$p" >/dev/null 2>&1 || {
    echo "crossbuild: tabula match $p failed"
    exit 1
  }
done
logs=$(find "$out/logs" -name '*.log' | wc -l)
echo
echo "ratings of $logs real logs (tabula match laska --nodes 100, levels" \
  "${pairs[*]}): written in $(awk -v a="$t0" -v b="$EPOCHREALTIME" \
  'BEGIN { printf "%.1f", b - a }') s"
# name | command run in $out (its arguments are the log folders)
rbuilds=(
  "tabula-x86_64|$native/tabula ratings"
  "ratings_check-wasm32|node --no-warnings $root/tests/wasm/wasi_run.mjs $wasm_dir/out/ratings_check"
)
if [ $quick -eq 0 ]; then
  scripts/cross-deps.sh i386 build-m32/deps
  m32=$root/build-m32/deps/sysroot
  if gcc -m32 -O2 "${warn[@]}" -isystem "$m32/include" -Icore -Iproto -Iclub \
      core/*.c proto/*.c club/*.c tests/golden/ratings_check.c \
      "$m32/lib/libsodium.a" "$m32/lib/libmsgpackc.a" \
      -o "$out/ratings_check-i386" 2>"$out/ratings-i386.build"; then
    rbuilds+=("ratings_check-gcc-O2-i386|$out/ratings_check-i386")
  else
    printf '%-26s %s\n' ratings_check-gcc-O2-i386 "BUILD FAILED"
    cat "$out/ratings-i386.build"
    fail=1
  fi
fi
rref=""
printf '%-26s %-8s %-8s %-12s %s\n' build players games list seconds
for b in "${rbuilds[@]}"; do
  IFS='|' read -r name cmd <<<"$b"
  list=$out/ratings-$name.txt
  t0=$EPOCHREALTIME
  # shellcheck disable=SC2086 # cmd is a word list
  if ! (cd "$out" && $cmd "${pairs[@]/#/logs/}" >"$list" 2>"$list.err"); then
    echo "run failed" >>"$list"
    cat "$list.err"
    fail=1
  fi
  t1=$EPOCHREALTIME
  printf '%-26s %-8s %-8s %-12s %s\n' "$name" "$(grep -c '^rating: ' "$list")" \
    "$(sed -n 's/^ratings: games \([0-9]*\).*/\1/p' "$list")" \
    "$(sha256sum <"$list" | cut -c1-12)" \
    "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')"
  if [ -z "$rref" ]; then
    rref=$name
  elif ! cmp -s "$out/ratings-$rref.txt" "$list"; then
    echo "  $name disagrees with $rref:"
    diff "$out/ratings-$rref.txt" "$list" | head -n 20 | sed 's/^/    /' || true
    fail=1
  fi
done
echo
cat "$out/ratings-$rref.txt"
# builds that all skipped every log would agree too: every log is rated
if ! grep -qx "ratings: games $logs logs $logs skipped 0" "$out/ratings-$rref.txt"; then
  echo "crossbuild: $rref did not rate all $logs logs"
  sed 's/^/    /' "$out/ratings-$rref.txt.err"
  fail=1
fi
if [ $fail -ne 0 ]; then
  echo "crossbuild: FAILED: the builds disagree or a build failed"
  exit 1
fi
echo "crossbuild: ${#builds[@]} builds agree on the golden vectors and digests;" \
  "${#rbuilds[@]} on the ratings of $logs real logs"
