#!/usr/bin/env bash
# The page's languages (docs/languages.md): for cs and ru, a headless
# Chromium whose languages are that one's (tests/web/browser.mjs lang,
# the page served by `tabula lobby --http`) shows the start page, a
# game's status, a refused move's error name and a resignation in it,
# with the final-hash line as in English; the EN / CS / RU switch changes
# the texts and is remembered over a reload. The expected texts are the
# catalogues' own, looked up by gettext(1) in the built .mo files (not
# copied from the page). Run by ctest as web_lang.
#   tests/web/web_lang.sh NATIVE_BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
native=$(cd "${1:?usage: tests/web/web_lang.sh NATIVE_BUILD_DIR}" && pwd)
ids=('New game' 'Host a network game' 'Replay a match log' 'Start' 'Resign'
  'White to move, ply {n}' 'White resigned' 'illegal move' 'malformed move notation')
fail=0
for lang in cs ru; do
  expect=$(for id in "${ids[@]}"; do
    text=$(LANGUAGE=$lang LC_ALL=C.UTF-8 TEXTDOMAINDIR="$native/locale" gettext -d tabula "$id")
    if [ "$text" = "$id" ]; then
      echo "web_lang: $lang: '$id' is not translated in the built catalogue" >&2
      exit 1
    fi
    printf '%s\t%s\n' "$id" "$text"
  done | node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>{
    const o={};for(const l of s.split("\n").filter(Boolean)){const[k,v]=l.split("\t");o[k]=v;}
    console.log(JSON.stringify(o));})') || { fail=1; continue; }
  case $lang in cs) langs=cs-CZ,cs,en ;; ru) langs=ru-RU,ru,en ;; esac
  got=$(WEB_LANGS=$langs WEB_EXPECT=$expect TABULA_BINARY="$native/tabula" \
    node --no-warnings tests/web/browser.mjs lang "$lang" 2>&1 || true)
  if printf '%s\n' "$got" | grep -q "^lang $lang ok final-hash: "; then
    echo "web_lang: $(printf '%s\n' "$got" | grep "^lang $lang ok ")"
  else
    echo "web_lang: $lang: FAILED: $got"
    fail=1
  fi
done
[ $fail -eq 0 ] && echo "web_lang: the page speaks Czech and Russian from the catalogues; the switch and final-hash hold"
exit $fail
