#!/usr/bin/env bash
# The tabula program's catalogues (docs/languages.md):
#   scripts/po.sh pot     print the template xgettext makes from the sources
#   scripts/po.sh update  rewrite po/tabula.pot and merge it into po/*.po
# Sources: client/*.c, client/tui/*.c, seat/*.c, match/note.c (the notes' words), core/phrase.c (the views' words), club/tourney_trf.c, club/director.c (a refused
# TRF file's words) and core/tb_error.h (its error messages,
# translated at the client edge), then the page's web/*.js (t(), tn() and N_() of
# web/i18n.js; index.html's texts are listed in app.js): one template.
# No line numbers in the files, so moving code does not churn them.
set -euo pipefail
cd "$(dirname "$0")/.."

pot() {
  local tmp
  tmp=$(mktemp)
  xgettext --from-code=UTF-8 --language=C --no-location --sort-output \
    --omit-header --keyword=_ --keyword=N_ --keyword=ngettext:1,2 \
    --keyword=X:3 --keyword=NP_:1,2 --flag=_:1:pass-c-format --flag=N_:1:pass-c-format \
    --add-comments=TRANSLATORS: -o "$tmp" client/*.c client/tui/*.c seat/*.c match/note.c core/phrase.c \
    club/tourney_trf.c club/director.c web/wasm/web_pool.c web/wasm/web_club.c web/wasm/web_series.c \
    core/tb_error.h
  # A warning of xgettext's JavaScript reader (it takes `<` before a
  # name for an XML literal, as `1 << side`) means it lost its place and
  # skipped the rest of a file's strings: refuse the template rather than
  # drop their translations.
  if ! xgettext --from-code=UTF-8 --language=JavaScript --no-location --sort-output \
    --omit-header --join-existing --keyword=t --keyword=N_ --keyword=tn:1,2 \
    --add-comments=TRANSLATORS: -o "$tmp" web/*.js 2>"$tmp.err" || [ -s "$tmp.err" ]; then
    cat "$tmp.err" >&2
    echo "po.sh: xgettext could not read web/*.js whole (above)" >&2
    rm -f "$tmp" "$tmp.err"
    return 1
  fi
  cat "$tmp"
  rm -f "$tmp" "$tmp.err"
}

case "${1:-}" in
pot) pot ;;
update)
  pot > po/tabula.pot
  for po in po/*.po; do
    msgmerge --quiet --update --backup=none --no-location --sort-output \
      --no-fuzzy-matching "$po" po/tabula.pot
  done ;;
*) echo "usage: scripts/po.sh pot|update" >&2; exit 2 ;;
esac
