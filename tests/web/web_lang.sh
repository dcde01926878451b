#!/usr/bin/env bash
# The page's languages (docs/languages.md): for cs and ru, a headless
# Chromium whose languages are that one's (tests/web/browser.mjs lang,
# the page served by `tabula lobby --http`) shows the start page, a
# game's status, a refused move's error name and a resignation in it
# (Resign asking once first),
# with the final-hash line as in English; the module's own texts too (a
# game's help, the board's status line, a network note, an end reason;
# Chess volleyball's help speaks of the page's move box, not of Tab;
# Laska's of a square's description, not of the terminal's cell line),
# and no English word of the module's is left on the Football chess and
# Chess volleyball boards; the EN / CS / RU switch changes the texts and
# is remembered over a reload; a network game's players and message
# lines, its room line and its notes follow the switch, and a terminal
# player joins with the command the room line shows, offers a draw on
# its turn, and the page's Accept then says it waits for the page's
# turn; the start page's list of seeks says none is open, and its seek
# form refuses a name with a control character in the rule's words; the
# pool form's offer shows its count in the language's plural form and
# Cancel withdraws it. The
# expected texts are the catalogues'
# own, looked up by gettext(1) and ngettext(1) in the built .mo files
# (not copied from the page). Run by ctest as web_lang.
#   tests/web/web_lang.sh NATIVE_BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
native=$(cd "${1:?usage: tests/web/web_lang.sh NATIVE_BUILD_DIR}" && pwd)
# msgids to look up; "N|ONE|MANY|COUNT" looks up ONE's plural form for
# COUNT (the key in WEB_EXPECT is the whole string). A game's name may
# read the same in a language (Laska in Czech).
ids=('New game' 'Host a network game' 'Replay a match log' 'Start' 'Resign'
  'White to move, ply {n}' 'White resigned' 'illegal move' 'malformed move notation'
  'no such square on this board'
  'Laska (Lasker 1911)' $'%s\n\nMoves\n' $'\nBoard\n' $'Now, for example:\n'
  $'A move goes from square to square: c3-d4. A capture lists every\nsquare it lands on: b2xd4, or b2xd4xf6 for a double capture; the\nfirst and last squares are enough when only one capture fits\n(b2xf6). Capturing is compulsory.\n'
  'goals %u-%u, first to %u wins; ' 'N|%u ply since the last goal|%u plies since the last goal|0'
  'white' 'black' '{w1} offers a draw' '{w1} offers a draw: type accept or decline' 'resignation' 'draw agreed'
  'Resign? Click again' 'Click Resign again to resign'
  "opponent's link:" 'Your opponent types, on their terminal:'
  'a draw offer is answered on your turn: your answer is sent when it comes'
  'In the move box the page offers the legal moves that fit what you type (type d8, then pick one).'
  'you: host' 'click or type your moves on your turn'
  'Open seeks' 'Create a seek' 'No seek is open on this lobby: put one up with the form Create a seek.'
  'name refused: {why}' 'a control character'
  'Play anyone' 'In the pool: {counts}' 'N|{game}: {n} waiting|{game}: {n} waiting|1'
  'Chessball (chess on a football, 1998)' 'You withdrew your offer.'
  $'w, b: a White or Black soldier; W, B: an officer. A column of\nseveral pieces shows them top first (bw: a Black soldier on a White\none; a column of more than three shows its top two and +, as bw+);\na square\'s description (shown when pointing at it, and read out by\nscreen readers) lists it whole, top first.\n'
  $'w, b: a White or Black soldier; W, B: an officer. A column of\nseveral pieces shows them top first (bw: a Black soldier on a White\none; a column of more than three shows its top two and +, as bw+);\nthe cell\'s line under the board lists it whole, top first.\n')
fail=0
for lang in cs ru; do
  expect=$(LANGUAGE=$lang LC_ALL=C.UTF-8 TEXTDOMAINDIR="$native/locale" node -e '
    const { execFileSync } = require("node:child_process");
    const o = {};
    const names = new Set(["Laska (Lasker 1911)"]);
    for (const id of process.argv.slice(1)) {
      const [n, one, many, count] = id.split("|");
      const text = n === "N" && count !== undefined
        ? execFileSync("ngettext", ["-d", "tabula", "--", one, many, count], { encoding: "utf8" })
        : execFileSync("gettext", ["-d", "tabula", "--", id], { encoding: "utf8" });
      if (!names.has(id) && text === (n === "N" ? (count === "1" ? one : many) : id)) {
        console.error(`web_lang: ${process.env.LANGUAGE}: ${JSON.stringify(id)} is not translated in the built catalogue`);
        process.exit(1);
      }
      o[id] = text;
    }
    console.log(JSON.stringify(o));' "${ids[@]}") || { fail=1; continue; }
  case $lang in cs) langs=cs-CZ,cs,en ;; ru) langs=ru-RU,ru,en ;; esac
  got=$(WEB_LANGS=$langs WEB_EXPECT=$expect TABULA_BINARY="$native/tabula" \
    node --no-warnings tests/web/browser.mjs lang "$lang" 2>&1 || true)
  if grep -q "^lang $lang ok final-hash: " <<<"$got"; then
    echo "web_lang: $(grep "^lang $lang ok " <<<"$got")"
  else
    echo "web_lang: $lang: FAILED: $got"
    fail=1
  fi
done
[ $fail -eq 0 ] && echo "web_lang: the page speaks Czech and Russian from the catalogues; the switch and final-hash hold"
exit $fail
