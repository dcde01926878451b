# CMake toolchain for Tabula's WebAssembly build (issue 14): clang's
# wasm32-wasi target with Debian's wasi-libc (headers in
# /usr/include/wasm32-wasi, libraries in /usr/lib/wasm32-wasi, found by
# Debian's clang on its own), lld as the linker, llvm's archiver.
# libsodium and msgpack-c for this target are built from Debian's source
# packages by scripts/wasm-deps.sh into TABULA_WASM_SYSROOT.
#
# Speed and size of the modules (docs/benchmarks.md): clang runs
# binaryen's `wasm-opt -O3` over every module it links with -O3 whenever
# wasm-opt is on the PATH (Debian package binaryen, installed by
# scripts/wasm-deps.sh); measured in Chromium that post-pass makes the
# page's perft about a third faster, so its absence is an error here.
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
