#!/usr/bin/env bash
# Builds Tabula's WebAssembly part and the browser page (issue 14) into
# build-wasm/ (or $WASM_DIR): libsodium and msgpack-c for wasm32-wasi from
# Debian's source packages (scripts/wasm-deps.sh, once), then core/,
# proto/, the page's module and the wasm check programs with
# cmake/wasm32-wasi.cmake, then the page itself in build-wasm/site: web/'s
# files, the module, and the few files of the npm packages it loads
# (scripts/web-deps.sh installs them). `tabula lobby --http` serves that
# folder. clang runs binaryen's wasm-opt -O3 over each module it links
# (cmake/wasm32-wasi.cmake). Extra arguments go to cmake's configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${WASM_DIR:-build-wasm}
scripts/wasm-deps.sh "$dir/deps"
cmake -S . -B "$dir/out" -DCMAKE_TOOLCHAIN_FILE="$(pwd)/cmake/wasm32-wasi.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DTABULA_WASM_SYSROOT="$(cd "$dir/deps/sysroot" && pwd)" \
  "$@" >/dev/null
cmake --build "$dir/out" -j "$(nproc)" >/dev/null

scripts/web-deps.sh
site="$dir/site"
rm -rf "$site.new"
mkdir -p "$site.new/wasm" "$site.new/node_modules/@bjorn3/browser_wasi_shim" \
  "$site.new/node_modules/three/build" \
  "$site.new/node_modules/three/examples/jsm/controls"
cp web/*.html web/*.js web/*.css "$site.new/"
# The page's languages (docs/languages.md): of each po/LL.po, the strings
# the page uses (web/*.js; core/tb_error.h's error names; and the texts
# of the module's own client/ sources, which it translates with the
# catalogue the page hands in: match/note.c's notes, core/phrase.c's view words, client/core_text.c's game titles
# and reasons, client/game_help.c's help) as
# locale/LL.json.
mkdir -p "$site.new/locale"
pot=$(mktemp)
xgettext --from-code=UTF-8 --language=JavaScript --omit-header --keyword=t \
  --keyword=N_ --keyword=tn:1,2 -o "$pot" web/*.js
xgettext --from-code=UTF-8 --language=C --omit-header --join-existing \
  --keyword=X:3 -o "$pot" core/tb_error.h
xgettext --from-code=UTF-8 --language=C --omit-header --join-existing \
  --keyword=_ --keyword=N_ --keyword=ngettext:1,2 --keyword=NP_:1,2 \
  -o "$pot" client/core_text.c client/game_help.c client/entry.c client/advice.c client/cli_util.c \
  client/netgame.c client/game_glance.c seat/*.c \
  web/wasm/web_match.c web/wasm/web_pool.c web/wasm/web_club.c web/wasm/web_series.c club/director.c \
  match/note.c core/phrase.c
for po in po/*.po; do
  msgmerge --quiet --no-fuzzy-matching -o - "$po" "$pot" | msgattrib --no-obsolete -o "$pot.po"
  node scripts/po2json.mjs "$pot.po" > "$site.new/locale/$(basename "$po" .po).json"
done
rm -f "$pot" "$pot.po"
# The page's module without DWARF (libsodium's and msgpack-c's objects
# carry it): 40% of the file, of no use in a browser (docs/benchmarks.md).
wasm-opt --strip-debug --strip-producers "$dir/out/tabula_web.wasm" \
  -o "$site.new/wasm/tabula_web.wasm"
cp -r web/node_modules/@bjorn3/browser_wasi_shim/dist \
  "$site.new/node_modules/@bjorn3/browser_wasi_shim/"
cp web/node_modules/three/build/three.module.js \
  web/node_modules/three/build/three.core.js "$site.new/node_modules/three/build/"
cp web/node_modules/three/examples/jsm/controls/OrbitControls.js \
  "$site.new/node_modules/three/examples/jsm/controls/"
cp web/node_modules/three/LICENSE "$site.new/node_modules/three/"
cp web/node_modules/@bjorn3/browser_wasi_shim/LICENSE-* \
  "$site.new/node_modules/@bjorn3/browser_wasi_shim/" 2>/dev/null || true
# Swapped in only when it changed: ctest runs the browser tests beside
# wasm_check, which builds again first, and a page loaded while the
# folder was gone failed (web_golden, found in CI); an unchanged build
# leaves the served folder as it is.
if [ -d "$site" ] && diff -rq "$site.new" "$site" >/dev/null 2>&1; then
  rm -rf "$site.new"
else
  rm -rf "$site"
  mv "$site.new" "$site"
fi
