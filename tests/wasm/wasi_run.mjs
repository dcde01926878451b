// wasi_run.mjs: runs a wasm32-wasi command module under Node's WASI, the
// way tests/crossbuild.sh runs a native build: arguments after the module
// path are the program's argv[1..], the current folder is preopened as
// "." (so relative paths such as tests/golden/laska.txt resolve), and the
// exit status is the program's.
//   node --no-warnings tests/wasm/wasi_run.mjs MODULE.wasm [ARG ...]
//
// Node's WASI host keeps the view of the module's memory it took at start
// and does not renew it after memory.grow, so a later fd_write reads freed
// memory: output is lost or Node itself dies with SIGSEGV at random (seen
// here with Node 20, about half the runs of golden_check --digest). Modules
// run here are therefore linked with --initial-memory large enough never to
// grow, and this runner refuses a run in which the memory grew (exit 3)
// rather than report what may be garbage.
import { readFile } from 'node:fs/promises';
import { argv, exit } from 'node:process';
import { WASI } from 'node:wasi';

if (argv.length < 3) {
  console.error('usage: node tests/wasm/wasi_run.mjs MODULE.wasm [ARG ...]');
  exit(2);
}
const wasi = new WASI({
  version: 'preview1',
  args: argv.slice(2),
  env: {},
  preopens: { '.': '.' },
  returnOnExit: true,
});
const module = await WebAssembly.compile(await readFile(argv[2]));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
const before = instance.exports.memory.buffer.byteLength;
const status = wasi.start(instance);
const after = instance.exports.memory.buffer.byteLength;
if (after !== before) {
  console.error(`wasi_run: ${argv[2]} grew its memory from ${before} to ` +
                `${after} bytes; link it with a larger --initial-memory`);
  exit(3);
}
exit(status);
