/*
 * synctest_main.c: `tabula synctest` as a wasm32-wasi command, so the
 * WebAssembly build of core/ and proto/ (with libsodium and msgpack-c built
 * for wasm32-wasi) can be checked against the native binary: the same
 * arguments must print the same summary lines, state-hash digests
 * included (tests/wasm/wasm_check.sh, issue 14). Arguments are those of
 * `tabula synctest`.
 */
#include "cli.h"

int main(int argc, char **argv)
{
    return cli_synctest(argc - 1, argv + 1);
}
