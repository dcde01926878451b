#!/usr/bin/env bash
# Logs dropped on the page (issue 14): a match log of two terminal bots
# verified in the page with the same final hash as `tabula replay`; the
# same log with one byte flipped refused at the frame and ply its layout
# gives, as `tabula replay` refuses it; the log cut short refused as well;
# a resigned match's result shown; the viewer's buttons drawn (no glyph
# the default fonts lack), named, and stepped by the keys; New game and
# the browser's Back return from it to the start page. Run by ctest
# as web_replay.
#   tests/web/web_replay.sh NATIVE_BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
native=$(cd "${1:?usage: tests/web/web_replay.sh NATIVE_BUILD_DIR}" && pwd)
tab="$native/tabula"
out=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$out"' EXIT
page_all() { TABULA_BINARY="$tab" node --no-warnings tests/web/browser.mjs replay "$1" 2>/dev/null; }
# (the first line of the page's output, read whole: with pipefail a
# `| head` that stops reading can fail the pipeline on SIGPIPE)
page() { local all; all=$(page_all "$1"); head -n 1 <<<"$all"; }

# A laska game between two bots, the host's log kept.
"$tab" host laska --bot=1 --log "$out/h.log" >"$out/host.out" 2>&1 &
for _ in $(seq 200); do grep -q '^lobby: ' "$out/host.out" && break; sleep 0.1; done
invite=$(sed -n 's/^invite: //p' "$out/host.out")
lobby=$(sed -n 's/^lobby: //p' "$out/host.out")
"$tab" join "$invite" --lobby "$lobby" --bot=1 >"$out/guest.out" 2>&1
wait
want=$("$tab" replay "$out/h.log" | sed -n 's/^final-hash: //p')
plies=$("$tab" replay "$out/h.log" | grep -c '^ *[0-9]*\. ' || true)
all=$(page_all "$out/h.log")
got=$(head -n 1 <<<"$all")
if [ "$got" != "page-replay: ok $plies $want" ]; then
  echo "web_replay: FAILED: whole log: page '$got', terminal $plies plies $want"
  exit 1
fi
echo "web_replay: whole log verified in the page: $plies plies, $want"
# The viewer's buttons drawn, named, and the keys (browser.mjs
# replayControls).
controls=$(printf '%s\n' "$all" | sed -n 's/^page-controls: //p')
if [ "$controls" != "ok first ply,previous ply,next ply,last ply" ]; then
  echo "web_replay: FAILED: the viewer's buttons and keys: '$controls'"
  exit 1
fi
echo "web_replay: the viewer's buttons are drawn and named; Home, End, the arrows, Enter and Space step"
back=$(printf '%s\n' "$all" | sed -n 's/^page-back: //p')
if [ "$back" != "ok" ]; then
  echo "web_replay: FAILED: the way back from the viewer: '$back'"
  exit 1
fi
echo "web_replay: New game and the browser's Back leave the viewer for the start page"

# One byte flipped in the middle of a chosen move's frame. Where it must
# be refused comes from the file's layout alone (docs/protocol.md: 13
# bytes of magic, then frames of a u32 big-endian length and a body:
# frame 0 the header; envelopes (a msgpack array of 2, first byte 0x92):
# envelope 1 the match start, envelope K ply K-1's move; in a version 2
# log the relay's receipt records between them (arrays of 6 or 7); the
# end record last), not from either program.
size=$(stat -c %s "$out/h.log")
frames=() # "body-offset:length" of each envelope's frame, in order
at=13
first=1
while [ "$at" -lt "$size" ]; do
  len=$(od -An -tu1 -j "$at" -N4 "$out/h.log" |
    awk '{ print (($1 * 256 + $2) * 256 + $3) * 256 + $4 }')
  kind=$(od -An -tu1 -j "$((at + 4))" -N1 "$out/h.log" | tr -d ' ')
  if [ "$first" = 1 ] || [ "$kind" = 146 ]; then # the header, 0x92
    frames+=("$((at + 4)):$len")
  fi
  first=0
  at=$((at + 4 + len))
done
want_frame=$(( ${#frames[@]} / 2 )) # a move about half way
want_ply=$((want_frame - 1))
IFS=: read -r body len <<<"${frames[$want_frame]}"
at=$((body + len / 2))
cp "$out/h.log" "$out/flip.log"
byte=$(od -An -tu1 -j "$at" -N1 "$out/flip.log" | tr -d ' ')
printf "$(printf '\\%03o' $(((byte + 1) % 256)))" |
  dd of="$out/flip.log" bs=1 seek="$at" conv=notrunc status=none
term=$("$tab" replay "$out/flip.log" 2>&1 || true)
case "$term" in
  *"FAILED at ply $want_ply: "*"(envelope $want_frame, "*) ;;
  *) echo "web_replay: FAILED: flipped byte at $at in frame $want_frame: terminal: $term"
     exit 1 ;;
esac
got=$(page "$out/flip.log")
case "$got" in
  "page-replay: FAILED flip.log: FAILED at frame $want_frame (ply $want_ply): "*) ;;
  *) echo "web_replay: FAILED: flipped byte at $at in frame $want_frame: page '$got'"
     exit 1 ;;
esac
echo "web_replay: a byte flipped in frame $want_frame of ${#frames[@]} is refused at ply $want_ply, in the page as by tabula replay"

# Cut short inside a frame.
head -c $((size - 7)) "$out/h.log" >"$out/cut.log"
got=$(page "$out/cut.log")
case "$got" in
  "page-replay: FAILED cut.log: FAILED: the log is cut short"*) ;;
  *) echo "web_replay: FAILED: cut log: page '$got'"; exit 1 ;;
esac
echo "web_replay: a log cut short is refused"

# A match white resigned before its first move (the host reads 'resign'
# from standard input): the page shows the log's result as `tabula
# replay` prints it, though the board shows no game over.
echo resign | "$tab" host laska --log "$out/r.log" >"$out/rhost.out" 2>&1 &
for _ in $(seq 200); do grep -q '^lobby: ' "$out/rhost.out" && break; sleep 0.1; done
invite=$(sed -n 's/^invite: //p' "$out/rhost.out")
lobby=$(sed -n 's/^lobby: //p' "$out/rhost.out")
"$tab" join "$invite" --lobby "$lobby" --bot=1 >"$out/rguest.out" 2>&1
wait
got=$(page_all "$out/r.log")
case "$got" in
  *"page-status: result: 0-1 (resign)") ;;
  *) echo "web_replay: FAILED: resigned log: page '$got'"; exit 1 ;;
esac
echo "web_replay: a resigned match shows 'result: 0-1 (resign)' in the page"
