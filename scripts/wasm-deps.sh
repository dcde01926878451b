#!/usr/bin/env bash
# Builds what Tabula's WebAssembly build links besides its own code:
# libsodium and msgpack-c for wasm32-wasi, from Debian's own source
# packages (apt-get source, checked against Debian's signed index), into
# DIR/sysroot (include/, lib/). Nothing is downloaded from anywhere but
# Debian's archive. Installs the toolchain packages it needs first.
#   scripts/wasm-deps.sh DIR      (default build-wasm/deps)
# Idempotent: a finished sysroot (DIR/sysroot/.done) is kept as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
dir=${1:-build-wasm/deps}
scripts/deps.sh clang lld llvm binaryen wasi-libc libclang-rt-14-dev-wasm32 dpkg-dev \
  autoconf automake libtool nodejs
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
sysroot=$dir/sysroot
[ -f "$sysroot/.done" ] && exit 0

# A private apt state with deb-src lines for the suite this machine runs,
# so the machine's own sources.list is left alone.
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
apt=$dir/apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$dir/src"
echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
  "http://deb.debian.org/debian $suite main" >"$apt/sources.list"
opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
      -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
      -o APT::Sandbox::User=root)
echo "wasm-deps: fetching the Debian sources of libsodium and msgpack-c" >&2
apt-get "${opts[@]}" update -qq
(cd "$dir/src" && rm -rf libsodium-* msgpack-c-* &&
  apt-get "${opts[@]}" source -qq libsodium msgpack-c >/dev/null 2>&1)

jobs=$(nproc)
tool=(CC=clang AR=llvm-ar-14 RANLIB=llvm-ranlib-14 NM=llvm-nm-14)

echo "wasm-deps: building libsodium for wasm32-wasi" >&2
src=$(find "$dir/src" -maxdepth 1 -type d -name 'libsodium-*' | head -n 1)
# Debian's source tree has no generated configure (its build runs
# autoreconf, as here; libsodium's autogen.sh would also download
# config.sub, which we do not). An older config.sub may predate the wasi OS
# name: libsodium's own dist-build/wasm32-wasi.sh patches it the same way.
# wasi-libc's <sys/mman.h> refuses to compile without an emulation
# library; libsodium does without it (no guard pages, no mlock), so
# configure is told it is absent. Its utils.c includes <signal.h> always:
# wasi-libc's minimal signal emulation (raise only) serves, and Tabula's
# wasm programs link -lwasi-emulated-signal.
(cd "$src" && autoreconf -if >"$dir/libsodium-autoreconf.log" 2>&1)
grep -q -F -- '-wasi' "$src/build-aux/config.sub" ||
  sed -i -e 's/-nacl\*)/-nacl*|-wasi)/' "$src/build-aux/config.sub"
(cd "$src" &&
  env "${tool[@]}" CFLAGS="--target=wasm32-wasi -O2 -D_WASI_EMULATED_SIGNAL" \
    ac_cv_header_sys_mman_h=no \
    ./configure --host=wasm32-wasi --prefix="$sysroot" --disable-ssp \
      --disable-shared --without-pthreads >"$dir/libsodium-configure.log" 2>&1 &&
  make -j"$jobs" >"$dir/libsodium-make.log" 2>&1 &&
  make install >>"$dir/libsodium-make.log" 2>&1) || {
  echo "wasm-deps: libsodium failed; see $dir/libsodium-*.log" >&2
  exit 1
}

echo "wasm-deps: building msgpack-c for wasm32-wasi" >&2
src=$(find "$dir/src" -maxdepth 1 -type d -name 'msgpack-c-*' | head -n 1)
cmake -S "$src" -B "$dir/msgpack-build" \
  -DCMAKE_TOOLCHAIN_FILE="$root/cmake/wasm32-wasi.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$sysroot" \
  -DMSGPACK_ENABLE_SHARED=OFF -DMSGPACK_BUILD_EXAMPLES=OFF \
  -DMSGPACK_BUILD_TESTS=OFF >"$dir/msgpack-configure.log" 2>&1 &&
  cmake --build "$dir/msgpack-build" -j "$jobs" >"$dir/msgpack-make.log" 2>&1 &&
  cmake --install "$dir/msgpack-build" >>"$dir/msgpack-make.log" 2>&1 || {
  echo "wasm-deps: msgpack-c failed; see $dir/msgpack-*.log" >&2
  exit 1
}
touch "$sysroot/.done"
echo "wasm-deps: $sysroot" >&2
