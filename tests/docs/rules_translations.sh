#!/usr/bin/env bash
# Checks the Czech and Russian rules pages against the English ones they
# translate: every docs/rules/GAME.md has cs/GAME.md and ru/GAME.md with the
# same headings (levels, in order, so the same count per level), the same
# decision and gap ids (D-xx-n, G-xx-n, and the volleyball spec's A-nn,
# P-nn), byte-identical
# fenced code blocks in the same order and the same set of inline code
# spans (move examples, position strings, command names: what the program
# reads is never translated); every relative link in docs/rules resolves;
# and the glossary has its English, Czech and Russian columns filled in
# every row. Expectations come from the English files only.
# Usage: rules_translations.sh [DOCS_RULES_DIR]; exit 0 when all hold.
set -u
dir=${1:-"$(dirname "$0")/../../docs/rules"}
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# Lines outside fenced code blocks.
prose() { awk '/^[ \t]*```/ { f = !f; next } !f' "$1"; }
# The fenced blocks with their fences, in order.
fences() { awk '/^[ \t]*```/ { print; f = !f; next } f' "$1"; }
# The level of every heading, in order (so the counts per level too).
headings() { prose "$1" | grep -oE '^#{1,6} ' | awk '{ print length($1) }'; }
# Decision and gap ids, one per line, sorted and unique.
ids() {
  prose "$1" | grep -oE '\b([DG]-[A-Z]{2,3}-[0-9]+|[AP]-[0-9]{2})\b' | sort -u
}
# Inline code spans, whitespace runs squeezed, sorted and unique.
spans() { prose "$1" | tr '\n' ' ' | tr -s ' \t' ' ' | grep -oE '`[^`]+`' | sort -u; }

same() { # what file-a file-b function
  local d
  d=$(diff <("$3" "$1") <("$3" "$2")) || bad "$2: $4 differ from $1:
$d"
}

n=0
for en in "$dir"/*.md; do
  base=$(basename "$en")
  [ "$base" = glossary.md ] && continue
  n=$((n + 1))
  for lang in cs ru; do
    tr="$dir/$lang/$base"
    if [ ! -f "$tr" ]; then bad "$tr missing"; continue; fi
    same "$en" "$tr" headings "heading levels"
    same "$en" "$tr" ids "decision ids"
    same "$en" "$tr" fences "fenced code blocks"
    same "$en" "$tr" spans "inline code spans"
    # The first line links the other two languages.
    first=$(head -n 1 "$tr")
    for other in "../$base" "../cs/$base" "../ru/$base"; do
      case "$other" in "../$lang/"*) continue ;; esac
      case "$first" in *"($other)"*) ;; *) bad "$tr: first line does not link $other" ;; esac
    done
  done
  first=$(head -n 1 "$en")
  for other in "cs/$base" "ru/$base"; do
    case "$first" in *"($other)"*) ;; *) bad "$en: first line does not link $other" ;; esac
  done
done
[ "$n" -ge 4 ] || bad "only $n English rules files in $dir"

# Every relative link to a .md file resolves.
for f in "$dir"/*.md "$dir"/cs/*.md "$dir"/ru/*.md; do
  [ -f "$f" ] || continue
  for l in $(prose "$f" | grep -oE '\]\([^)#: ]+\.md\)' | sed 's/^](//; s/)$//'); do
    [ -f "$(dirname "$f")/$l" ] || bad "$f: link $l does not resolve"
  done
done

# The glossary: a table per game, each row with English, Czech and Russian.
g="$dir/glossary.md"
if [ ! -f "$g" ]; then
  bad "$g missing"
else
  for sect in "Laska" "Chessball" "Football chess" "Chess volleyball"; do
    rows=$(awk -v s="## $sect" '/^## / { on = ($0 == s); next }
             on && /^\| / && !/^\|---/ && !/^\| English \|/' "$g" | wc -l)
    [ "$rows" -ge 10 ] || bad "$g: section $sect has $rows term rows"
  done
  prose "$g" | awk '/^\|/ && !/^\|---/ {
      n = split($0, c, "|")
      for (i = 2; i <= 4; i++) { t = c[i]; gsub(/[ \t]/, "", t)
        if (n < 6 || t == "") { print "FAIL: glossary row without column " i - 1 ": " $0; break } }
    }' | grep . && fail=1
fi

[ "$fail" -eq 0 ] && echo "rules translations: $n games, cs and ru consistent with English"
exit "$fail"
