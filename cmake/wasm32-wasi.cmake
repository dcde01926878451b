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

# WebAssembly features past the 1.0 core that every browser the page
# supports has had since 2020-2021 (Chromium 75+, Firefox 79+, Safari
# 15+): bulk memory (memcpy and memset as one memory.copy / memory.fill
# instead of a byte and word loop in wasi-libc's C: Chess volleyball's
# perft copies its whole state, about 800 bytes, per node), sign
# extension, non-trapping float-to-int, mutable globals. clang 14 with
# bulk memory keeps thread-local variables as such, and wasi-libc's are
# plain globals in a module without threads: the local-exec model links
# them. Measured in docs/benchmarks.md (the browser perft section); the
# page in firefox-esr is checked by ctest's web_firefox.
set(CMAKE_C_FLAGS_INIT "-mbulk-memory -msign-ext -mnontrapping-fptoint -mmutable-globals -ftls-model=local-exec")

find_program(TABULA_WASM_OPT wasm-opt)
if(NOT TABULA_WASM_OPT)
  message(FATAL_ERROR "wasm-opt not found: run scripts/wasm-deps.sh (Debian package binaryen)")
endif()
