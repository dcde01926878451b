#!/usr/bin/env bash
# Derives one new golden vector and prints it on standard output (it never
# writes a golden file: a reviewer appends the block by hand, once).
#
#   tests/golden/derive.sh LABEL GAME [--options O] [--position P]
#                          (--seed S --plies N | MOVE...)
#
# The moves come from golden_check --dump (random legal moves for a seed,
# or the MOVEs given, in any notation the game accepts); each state's
# encoding is dumped as hex and hashed here with coreutils' b2sum -l 256,
# a BLAKE2b-256 independent of both libsodium (proto_state_hash) and the
# checker's own BLAKE2b. See docs/determinism.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ $# -lt 3 ]; then
  sed -n '4,6p' "$0" >&2
  exit 2
fi
label=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-gcc}
$cc -std=c11 -O1 -Icore core/*.c tests/golden/golden_check.c -o "$tmp/golden_check"

echo "vector $label"
args=("$@")
for ((i = 1; i < ${#args[@]}; i++)); do
  case ${args[i]} in
    --options) echo "options ${args[i + 1]}" ;;
    --position) echo "position ${args[i + 1]}" ;;
  esac
done
"$tmp/golden_check" --dump "$@" >"$tmp/dump"
hash_of() {
  printf '%s' "$1" | perl -ne 'print pack("H*", $_)' | b2sum -l 256 | cut -d' ' -f1
}
# Notation may hold spaces: the encoding is the last word of a line.
while read -r tag rest; do
  case $tag in
    start) echo "start $(hash_of "$rest")" ;;
    move) echo "move ${rest% *} $(hash_of "${rest##* }")" ;;
    result) echo "result $rest" ;;
    *) echo "derive.sh: unexpected dump line '$tag'" >&2; exit 1 ;;
  esac
done <"$tmp/dump"
