# CMake toolchain for Tabula's WebAssembly build (issue 14): clang's
# wasm32-wasi target with Debian's wasi-libc (headers in
# /usr/include/wasm32-wasi, libraries in /usr/lib/wasm32-wasi, found by
# Debian's clang on its own), lld as the linker, llvm's archiver.
# libsodium and msgpack-c for this target are built from Debian's source
# packages by scripts/wasm-deps.sh into TABULA_WASM_SYSROOT.
#
# clang runs binaryen's `wasm-opt` (at the link's -O level) over every
# module it links whenever wasm-opt is on the PATH, so the same sources
# gave a different module on a machine that happens to have binaryen.
# It is therefore required (Debian package binaryen, installed by
# scripts/wasm-deps.sh): one module everywhere. It shrinks the code by
# about 9%; its effect on the page's speed was within the measuring
# noise of the shared machine (docs/benchmarks.md).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR wasm32)
set(CMAKE_C_COMPILER clang)
set(CMAKE_C_COMPILER_TARGET wasm32-wasi)
set(CMAKE_AR llvm-ar-14)
set(CMAKE_RANLIB llvm-ranlib-14)

set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

find_program(TABULA_WASM_OPT wasm-opt)
if(NOT TABULA_WASM_OPT)
  message(FATAL_ERROR "wasm-opt not found: run scripts/wasm-deps.sh (Debian package binaryen)")
endif()
