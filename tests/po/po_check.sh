#!/usr/bin/env bash
# The catalogues are sound and complete: msgfmt --check passes on every
# po/*.po; po/tabula.pot is what xgettext finds in the sources now (a
# string wrapped in _() but missing from the template fails here); every
# catalogue translates every template string, none fuzzy; and the .mo
# files in the build tree are those of the current catalogues.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: po_check.sh BUILD_DIR}
cd "$src"
fail=0
fresh=$(mktemp)
trap 'rm -f "$fresh"' EXIT
scripts/po.sh pot > "$fresh"
if ! diff -u po/tabula.pot "$fresh"; then
  echo "po_check: po/tabula.pot is stale: run scripts/po.sh update" >&2
  fail=1
fi
n=0
for po in po/*.po; do
  n=$((n + 1))
  lang=$(basename "$po" .po)
  if ! msgfmt --check --check-format -o /dev/null "$po"; then
    echo "po_check: msgfmt --check fails on $po" >&2
    fail=1
  fi
  grep -q '^"Plural-Forms: nplurals=' "$po" || {
    echo "po_check: $po lacks a Plural-Forms header" >&2; fail=1; }
  case "$lang" in # Czech and Russian: one, few, many
  cs|ru) grep -q '^"Plural-Forms: nplurals=3;' "$po" || {
    echo "po_check: $po needs three plural forms" >&2; fail=1; } ;;
  esac
  # (the template has no header entry: msgcmp's note on the catalogue's
  # header is left out)
  if ! msgcmp --use-untranslated "$po" po/tabula.pot 2>&1 |
      { grep -v "^$po:[0-9]*: warning: this message is not used" || true; } |
      { ! grep . >&2; }; then
    echo "po_check: $po and po/tabula.pot differ in their strings" >&2
    fail=1
  fi
  # "N translated messages[, F fuzzy translations][, U untranslated
  # messages]."
  stats=$(LC_ALL=C msgfmt --statistics -o /dev/null "$po" 2>&1)
  case "$stats" in
  *fuzzy*|*untranslated*)
    echo "po_check: $po: $stats" >&2
    fail=1 ;;
  esac
  mo="$build/locale/$lang/LC_MESSAGES/tabula.mo"
  if [ ! -f "$mo" ] || ! cmp -s <(msgfmt -o - "$po") "$mo"; then
    echo "po_check: $mo is missing or not built from $po" >&2
    fail=1
  fi
done
[ "$n" -ge 2 ] || { echo "po_check: expected po/cs.po and po/ru.po" >&2; fail=1; }
exit $fail
