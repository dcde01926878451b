#!/usr/bin/env bash
# Installs the Debian packages Tabula needs, only those missing.
# Runs as root (or through sudo). Extra package names may be given.
set -euo pipefail

pkgs=(gcc make cmake pkg-config libuv1-dev libmsgpack-dev libsodium-dev
      libcriterion-dev libncurses-dev tmux libxml2-utils librsvg2-bin
      libwebsockets-dev libwebsockets-evlib-uv libhiredis-dev redis-server
      "$@")
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
