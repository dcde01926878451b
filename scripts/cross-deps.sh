#!/usr/bin/env bash
# Builds what Tabula's proto/ links besides its own code, libsodium and
# msgpack-c, for a target the machine has no Debian packages of them for,
# from Debian's own source packages (apt-get source, checked against
# Debian's signed index), into DIR/sysroot (include/, lib/). Nothing is
# downloaded from anywhere but Debian's archive, and the machine's own
# apt setup is left alone (no dpkg --add-architecture). Installs the
# toolchain packages it needs first.
#   scripts/cross-deps.sh wasm32 [DIR]  wasm32-wasi, with clang and
#                                       wasi-libc (default build-wasm/deps;
#                                       scripts/wasm-deps.sh)
#   scripts/cross-deps.sh i386 [DIR]    32-bit x86, with gcc -m32 and
#                                       libc6-dev-i386 (default
#                                       build-m32/deps; tests/crossbuild.sh)
# Idempotent: a finished sysroot (DIR/sysroot/.done) is kept as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
target=${1:-}
case "$target" in
  wasm32) dir=${2:-build-wasm/deps} ;;
  i386) dir=${2:-build-m32/deps} ;;
  *) sed -n '9,14p' "$0" >&2; exit 2 ;;
esac
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
sysroot=$dir/sysroot
if [ "$target" = wasm32 ]; then
  scripts/deps.sh clang lld llvm binaryen wasi-libc libclang-rt-14-dev-wasm32 \
    dpkg-dev autoconf automake libtool nodejs
  host=wasm32-wasi
  tool=(CC=clang AR=llvm-ar-14 RANLIB=llvm-ranlib-14 NM=llvm-nm-14)
  # wasi-libc's <sys/mman.h> refuses to compile without an emulation
  # library; libsodium does without it (no guard pages, no mlock), so
  # configure is told it is absent. Its utils.c includes <signal.h>
  # always: wasi-libc's minimal signal emulation (raise only) serves, and
  # Tabula's wasm programs link -lwasi-emulated-signal.
  tool+=(CFLAGS="--target=wasm32-wasi -O2 -D_WASI_EMULATED_SIGNAL"
         ac_cv_header_sys_mman_h=no)
  cmake_target=(-DCMAKE_TOOLCHAIN_FILE="$root/cmake/wasm32-wasi.cmake")
else
  # gcc-multilib's parts, not gcc-multilib itself, which conflicts with
  # every gcc cross compiler (as in tests/crossbuild.sh). Nor its link
  # /usr/include/asm -> x86_64-linux-gnu/asm, which glibc's <sys/stat.h>
  # needs under _GNU_SOURCE: the sysroot has its own (linux-libc-dev's
  # x86 asm headers serve both widths, as that link has them do), and
  # whatever builds against the sysroot finds it with its headers.
  gccv=$(gcc -dumpversion 2>/dev/null || echo 12)
  scripts/deps.sh gcc libc6-dev-i386 "lib32gcc-${gccv%%.*}-dev" dpkg-dev \
    autoconf automake libtool
  mkdir -p "$sysroot/include"
  ln -sfn /usr/include/x86_64-linux-gnu/asm "$sysroot/include/asm"
  host=i686-linux-gnu
  cc="gcc -m32 -isystem $sysroot/include"
  tool=(CC="$cc" AR=ar RANLIB=ranlib NM=nm CFLAGS="-O2")
  cmake_target=(-DCMAKE_C_COMPILER=gcc "-DCMAKE_C_FLAGS=${cc#gcc }")
fi
[ -f "$sysroot/.done" ] && exit 0
me="cross-deps ($target)"

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
echo "$me: fetching the Debian sources of libsodium and msgpack-c" >&2
apt-get "${opts[@]}" update -qq
(cd "$dir/src" && rm -rf libsodium-* msgpack-c-* &&
  apt-get "${opts[@]}" source -qq libsodium msgpack-c >/dev/null 2>&1)

jobs=$(nproc)

echo "$me: building libsodium for $host" >&2
src=$(find "$dir/src" -maxdepth 1 -type d -name 'libsodium-*' | head -n 1)
# Debian's source tree has no generated configure (its build runs
# autoreconf, as here; libsodium's autogen.sh would also download
# config.sub, which we do not). An older config.sub may predate the wasi OS
# name: libsodium's own dist-build/wasm32-wasi.sh patches it the same way.
(cd "$src" && autoreconf -if >"$dir/libsodium-autoreconf.log" 2>&1)
grep -q -F -- '-wasi' "$src/build-aux/config.sub" ||
  sed -i -e 's/-nacl\*)/-nacl*|-wasi)/' "$src/build-aux/config.sub"
(cd "$src" &&
  env "${tool[@]}" \
    ./configure --host="$host" --prefix="$sysroot" --disable-ssp \
      --disable-shared --without-pthreads >"$dir/libsodium-configure.log" 2>&1 &&
  make -j"$jobs" >"$dir/libsodium-make.log" 2>&1 &&
  make install >>"$dir/libsodium-make.log" 2>&1) || {
  echo "$me: libsodium failed; see $dir/libsodium-*.log" >&2
  exit 1
}

echo "$me: building msgpack-c for $host" >&2
src=$(find "$dir/src" -maxdepth 1 -type d -name 'msgpack-c-*' | head -n 1)
cmake -S "$src" -B "$dir/msgpack-build" "${cmake_target[@]}" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$sysroot" \
  -DCMAKE_INSTALL_LIBDIR=lib \
  -DMSGPACK_ENABLE_SHARED=OFF -DMSGPACK_BUILD_EXAMPLES=OFF \
  -DMSGPACK_BUILD_TESTS=OFF >"$dir/msgpack-configure.log" 2>&1 &&
  cmake --build "$dir/msgpack-build" -j "$jobs" >"$dir/msgpack-make.log" 2>&1 &&
  cmake --install "$dir/msgpack-build" >>"$dir/msgpack-make.log" 2>&1 || {
  echo "$me: msgpack-c failed; see $dir/msgpack-*.log" >&2
  exit 1
}
touch "$sysroot/.done"
echo "$me: $sysroot" >&2
