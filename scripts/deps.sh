#!/usr/bin/env bash
# Installs the Debian packages Tabula needs, only those missing.
# Runs as root (or through sudo). Extra package names may be given.
set -euo pipefail

pkgs=(gcc make cmake pkg-config libuv1-dev libmsgpack-dev libsodium-dev
      libcriterion-dev libncurses-dev tmux libxml2-utils librsvg2-bin
      libwebsockets-dev libwebsockets-evlib-uv libhiredis-dev redis-server
      libssl-dev libcurl4-openssl-dev gettext locales openssl "$@")
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

# The Czech and Russian locales the language tests run the program under
# (docs/languages.md): generated once, after the locales package.
locales_made() {
  local want=() l
  for l in cs_CZ ru_RU; do
    locale -a 2>/dev/null | grep -qx "$l.utf8" || want+=("$l")
  done
  [ ${#want[@]} -eq 0 ] && return 0
  echo "deps: generating locales ${want[*]}" >&2
  for l in "${want[@]}"; do
    grep -q "^$l.UTF-8 UTF-8" /etc/locale.gen 2>/dev/null ||
      echo "$l.UTF-8 UTF-8" | $sudo tee -a /etc/locale.gen >/dev/null
  done
  $sudo locale-gen >/dev/null
}

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  locales_made
  exit 0
fi

echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
locales_made
