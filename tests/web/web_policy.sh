#!/usr/bin/env bash
# One policy, one place (issue 36), for the page: (1) web/ holds none
# of the numbers and rules C defines that it used to copy (the TB_E_*
# codes, the output kinds, the reconnect waits, the clock reader, the
# conduct grammar, when to reconnect and give up, the bot's levels); (2) in
# a headless Chromium the page's own seat (the seat layer's object, as
# the terminal drives it) gives the hand-worked reconnect waits, hosts a game with the clock "5+3s" and
# refuses a bad clock in the terminal's words (tests/web/browser.mjs
# policy), offers the bot at exactly engine/engine.h's levels (levels);
# (3) the page findings those copies caused are gone (stale); a draw
# offered on the page's turn is said to go with its move (offer).
# Run by ctest as web_policy.
#   tests/web/web_policy.sh NATIVE_BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
native=$(cd "${1:?usage: tests/web/web_policy.sh NATIVE_BUILD_DIR}" && pwd)
fail=0
# each pattern (grep -E) and what a match of it copies
pats=('-1[0-9]{3}\b'
  '\b(SEND|PLY|NOTE|WARN|THINK|REFETCH|DESYNC|DONE): *[0-9]'
  'RETRY_M|GIVE_UP_MS *=|[0-9] *\* *2 *\*\*'
  '\(s\?\)|MINUTES\+SECONDS'
  '\(resign\|'
  'lostAt|attempts *\+\+|retryMs|giveUpMs|refusalEnds'
  'n *% *10 *[=!]==|DAY_MS'
  'type accept or decline|startsWith\(.refused|offers a draw\$'
  'BOT_LEVELS|\[.you., *1, *2|bot:1|level 1\b'
  "t\\(.(the lobby refused|cannot reach the lobby|.*mistyped|.*gave up after)")
whats=('a TB_E_* code of core/tb_error.h' 'a Match_Out kind of match/match.h'
  'the reconnect waits of seat/seat.h' 'the clock reader of seat/seat.h'
  'the conduct grammar of match/conduct.c'
  'the connection policy of the seat (seat/seat.c)'
  'a plural rule of the .po headers, or the resumed turn cap of match.h'
  "a note's English words (match/note.c: the page reads the note's code)"
  "the bot's levels of engine/engine.h (the module's web_bot_levels)"
  "a refusal's advice (client/advice.c: the module's web_net_advice says it)")
for k in "${!pats[@]}"; do
  if grep -nE -- "${pats[$k]}" web/*.js web/*.html >&2; then
    echo "web_policy: the page copies ${whats[$k]} (the lines above)" >&2
    fail=1
  fi
done
# browser.mjs CHECK: passed when a line matches OK; its line KEEP is shown
browser() {
  local got
  got=$(TABULA_BINARY="$native/tabula" node --no-warnings tests/web/browser.mjs "$1" 2>&1 || true)
  if grep -q "$2" <<<"$got"; then
    echo "web_policy: $(grep "$3" <<<"$got")"
  else
    echo "web_policy: $1: FAILED: $got"
    fail=1
  fi
}
# the plural forms gettext gives for these counts, for the page to match
counts='0 1 2 3 4 5 11 12 14 21 22 25 101 111 112 121 122 200 1001 1021'
plurals=$(for lang in cs ru; do for n in $counts; do
  printf '%s\t%s\t%s\n' "$lang" "$n" "$(LANGUAGE=$lang LC_ALL=C.UTF-8 \
    TEXTDOMAINDIR="$native/locale" ngettext -d tabula -- \
    '%u ply since the last goal' '%u plies since the last goal' "$n")"
done; done)
export WEB_PLURALS=$plurals
browser policy '^policy .* ok$' '^policy '
# the bot's levels the page offers: engine/engine.h's, no more, no fewer
level() { sed -n "s/^#define BOT_LEVEL_$1 \([0-9]*\)$/\1/p" engine/engine.h; }
WEB_BOT_LEVELS="$(level MIN) $(level MAX) $(level PLAY)"
export WEB_BOT_LEVELS
browser levels '^levels ok ' '^levels '
# (3) the symptoms the copies had: stale help after a new game, a move
# list and message line stale after a network takeback
browser stale '^stale ok$' '^stale '
# a draw offered on the page's turn goes with its move (G-MC-1): the page
# says so, and the terminal's accept waits for its turn
browser offer '^offer ok$' '^offer '
[ $fail -eq 0 ] && echo "web_policy: the page keeps no copy and answers as the terminal"
exit $fail
