// page_util.mjs: what the browser checks share (tests/web/browser.mjs,
// browser_net.mjs): the site served from a server of their own or by
// `tabula lobby --http`, a page opened in headless Chromium, a terminal
// host with its embedded lobby.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { readFile, readdir, rename } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { argv, env, exit } from 'node:process';

export const root = resolve(new URL('../..', import.meta.url).pathname);
export const puppeteer = await import(join(root,
  'web/node_modules/puppeteer-core/lib/esm/puppeteer/puppeteer-core.js'))
  .then((m) => m.default)
  .catch(() => {
    console.error('browser.mjs: puppeteer-core is not installed: run scripts/web-deps.sh');
    exit(2);
  });
try {
  await readFile(join(resolve(root, env.WASM_DIR ?? 'build-wasm'), 'site/wasm/tabula_web.wasm'));
} catch {
  console.error('browser.mjs: no build-wasm/site/wasm/tabula_web.wasm: run scripts/build-wasm.sh');
  exit(2);
}
export const wasmDir = resolve(root, env.WASM_DIR ?? 'build-wasm');
const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript',
  '.mjs': 'text/javascript', '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8', '.json': 'application/json',
  '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png',
};
// URL prefix -> folder; nothing outside these is served. The page is the
// site scripts/build-wasm.sh assembles, as `tabula lobby --http` serves it.
const mounts = [
  ['/golden/', join(root, 'tests/golden')],
  ['/check/', join(root, 'tests/web')],
  ['/', join(wasmDir, 'site')],
];

export function serve() {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    for (const [prefix, dir] of mounts) {
      if (!path.startsWith(prefix)) continue;
      const file = normalize(join(dir, path.slice(prefix.length)));
      if (!file.startsWith(dir)) break;
      try {
        const body = await readFile(file);
        res.writeHead(200, { 'content-type':
          types[extname(file)] ?? 'application/octet-stream' });
        res.end(body);
        return;
      } catch {
        break;
      }
    }
    res.writeHead(404);
    res.end();
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

// `tabula lobby --http` serving the site, as a user starts it: resolves
// to {listen, base, close} once it printed its listening: and http: lines
// (base https:// with extra's --tls-cert and --tls-key; extra: any more
// arguments, as a redis node's --redis).
// at: {listen, http} (HOST:PORT each) to start again where a lobby was
// (its listen and its base's address); none: free ports.
export function lobbyServer(binary, extra = [], at = null) {
  return new Promise((ok, fail) => {
    const p = spawn(binary, ['lobby', '--listen', at?.listen ?? '127.0.0.1:0', '--http',
      at?.http ?? '127.0.0.1:0', '--web', join(wasmDir, 'site'), ...extra],
    { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d) => {
      out += d;
      const l = out.match(/^listening: (\S+)$/m), h = out.match(/^http: (https?:\/\/\S+)\/$/m);
      if (l && h) ok({ listen: l[1], base: h[1], close: () => p.kill('SIGTERM'),
        kill: () => new Promise((gone) => { p.once('exit', gone); p.kill('SIGKILL'); }) });
    });
    p.on('exit', (code) => fail(new Error(`tabula lobby exited ${code}: ${out}`)));
  });
}

// A self-signed certificate for 127.0.0.1 made with the openssl command
// in a new temporary folder: {dir, cert, key, spki}, spki the base64
// SHA-256 of its public key, which Chromium's
// --ignore-certificate-errors-spki-list takes (the tests' browser trusts
// that one certificate, nothing else).
export function selfSignedCert() {
  const dir = mkdtempSync(join(tmpdir(), 'tabula-tls-'));
  const cert = join(dir, 'cert.pem'), key = join(dir, 'key.pem');
  const run = (args, input) => {
    const r = spawnSync('openssl', args, { input });
    if (r.status !== 0) throw new Error(`openssl ${args[0]}: ${r.stderr}`);
    return r.stdout;
  };
  run(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1',
    '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1']);
  const der = run(['pkey', '-pubin', '-outform', 'der'],
    run(['x509', '-in', cert, '-pubkey', '-noout']));
  return { dir, cert, key, spki: createHash('sha256').update(der).digest('base64') };
}

// Opens path on a server of this script's own, or, for the page itself
// when TABULA_BINARY names the tabula program, on `tabula lobby --http`.
export async function withPage(fn, path = '/check/check.html') {
  const lobby = env.TABULA_BINARY && !path.startsWith('/check/')
    ? await lobbyServer(env.TABULA_BINARY) : null;
  const server = lobby ? null : await serve();
  const base = lobby ? lobby.base : `http://127.0.0.1:${server.address().port}`;
  // (a browser that does not start must not leave the lobby holding the
  // caller's output open)
  const browser = await launchBrowser().catch((e) => {
    server?.close();
    lobby?.close();
    throw e;
  });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: Number(env.WEB_WIDTH ?? 1100),
      height: Number(env.WEB_HEIGHT ?? 760),
      // WEB_PHONE=1: a phone's screen (touch, the mobile viewport rules).
      ...(env.WEB_PHONE ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    if (env.WEB_LANGS) {
      // The browser's languages, as a user's settings give them.
      const langs = env.WEB_LANGS.split(',');
      await page.setExtraHTTPHeaders({ 'Accept-Language': langs.join(',') });
      await page.evaluateOnNewDocument((l) => {
        Object.defineProperty(navigator, 'languages', { get: () => l });
        Object.defineProperty(navigator, 'language', { get: () => l[0] });
      }, langs);
    }
    await page.goto(`${base}${path}`);
    const games = path.startsWith('/check/')
      ? await page.evaluate(() => window.tabulaReady)
        .catch((e) => { throw new Error(`module did not load: ${e} ${errors}`); })
      : await page.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 })
        .then(() => null);
    const result = await fn(page, games);
    if (errors.length) throw new Error(`errors in the page: ${errors.join('; ')}`);
    return result;
  } finally {
    await browser.close();
    if (server) server.close();
    if (lobby) lobby.close();
  }
}

export async function launchBrowser(args = []) {
  return withDialogs(await launchBrowserOnly(args));
}

// A page's beforeunload question (a seat in a running game asks before
// its tab closes or reloads) is answered yes, and kept in page.dialogs,
// as a user who means to leave answers it.
function withDialogs(browser) {
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (...a) => {
    const page = await newPage(...a);
    page.dialogs = [];
    page.on('dialog', (d) => {
      page.dialogs.push(d.type());
      if (d.type() === 'beforeunload') d.accept().catch(() => {});
    });
    return page;
  };
  return browser;
}

// WEB_BROWSER=firefox: Debian's firefox-esr over WebDriver BiDi. args:
// more Chromium switches.
async function launchBrowserOnly(args) {
  if (env.WEB_BROWSER === 'firefox')
    return puppeteer.launch({
      browser: 'firefox',
      protocolTimeout: 600000,
      executablePath: env.FIREFOX ?? '/usr/bin/firefox-esr',
      headless: true,
    });
  return puppeteer.launch({
    protocolTimeout: 600000,
    executablePath: env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    dumpio: !!env.WEB_DUMPIO, // WEB_DUMPIO=1: Chromium's own output
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic',
      '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync',
      // CHROMIUM_FLAGS: more switches, space-separated (a profile of the
      // page's module: --js-flags=--perf-basic-prof, docs/benchmarks.md).
      ...(env.CHROMIUM_FLAGS ? env.CHROMIUM_FLAGS.split(' ') : []), ...args],
  });
}

// `tabula host GAME --bot=1 --http 127.0.0.1:0` as a user runs it:
// resolves to {lines, invite, watch, join, watchLink, exited} once it
// printed its links; lines grows as it prints.
export function terminalHost(binary, game, extra = []) {
  return new Promise((ok, fail) => {
    // --delay: the host's bot waits before each move, so a spectator
    // arrives while the game goes on (some games end in a dozen plies).
    const p = spawn(binary, ['host', game, `--bot=${env.TABULA_NET_HOST_LEVEL ?? 3}`, '--seed', '7',
      '--delay', '200', ...extra,
      '--http', '127.0.0.1:0', '--web', join(wasmDir, 'site')],
    { stdio: ['ignore', 'pipe', 'inherit'] });
    const h = { lines: [], exited: null, proc: p };
    h.exit = new Promise((done) => p.on('exit', (code) => { h.exited = code; done(code); }));
    let buf = '';
    p.stdout.on('data', (d) => {
      buf += d;
      const parts = buf.split('\n');
      buf = parts.pop();
      for (const l of parts) {
        h.lines.push(l);
        let m;
        if ((m = l.match(/^invite: (\S+)/))) h.invite = m[1];
        if ((m = l.match(/^watch: (\S+)/))) h.watch = m[1];
        if ((m = l.match(/^join-link: (\S+)/))) h.join = m[1];
        if ((m = l.match(/^watch-link: (\S+)/))) h.watchLink = m[1];
      }
      if (h.join && h.watchLink) ok(h);
    });
    h.exit.then((code) => fail(new Error(`tabula host exited ${code}: ${h.lines.join('\n')}`)));
  });
}

// A redis-server of the test's own on a free loopback port, nothing
// written to disk (as tests/redis_util.h starts one for the lobby-node
// tests): resolves to {url, close} once it accepts connections.
export async function redisServer() {
  const { createServer: tcp } = await import('node:net');
  const port = await new Promise((ok) => {
    const s = tcp().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => ok(p)); });
  });
  return new Promise((ok, fail) => {
    const p = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '',
      '--appendonly', 'no'], { cwd: '/tmp', stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const seen = (d) => {
      out += d;
      if (/Ready to accept connections/.test(out))
        ok({ url: `redis://127.0.0.1:${port}`, close: () => p.kill('SIGTERM') });
    };
    p.stdout.on('data', seen);
    p.stderr.on('data', seen);
    p.on('error', fail);
    p.on('exit', (code) => fail(new Error(`redis-server exited ${code}: ${out}`)));
  });
}

// A test's terminal players: run(args, runEnv) starts the tabula program
// (TABULA_BINARY) with runEnv and resolves nothing: it gives {out, err,
// proc, exit} (exit a promise of the status), out and err growing as it
// prints; stop() ends those still running.
export function terminals() {
  const procs = [];
  return {
    run(args, runEnv = env) {
      const p = spawn(env.TABULA_BINARY, args, { env: runEnv, stdio: ['ignore', 'pipe', 'pipe'] });
      procs.push(p);
      const r = { out: '', err: '', proc: p };
      p.stdout.on('data', (d) => { r.out += d; });
      p.stderr.on('data', (d) => { r.err += d; });
      r.exit = new Promise((done) => p.on('exit', done));
      return r;
    },
    stop() { for (const p of procs) if (p.exitCode === null) p.kill('SIGTERM'); },
  };
}

// The first match of re in what a terminal of terminals() printed on out
// ('out' or 'err', where a seat warns), waited for up to a minute; throws
// naming what otherwise.
export async function waitOut(r, re, what, out = 'out') {
  for (let i = 0; i < 600 && !re.test(r[out]); i++) await new Promise((ok) => setTimeout(ok, 100));
  if (!re.test(r[out])) throw new Error(`${what}: no ${re} in ${JSON.stringify({ out: r.out, err: r.err })}`);
  return r[out].match(re);
}

// A browser scenario's verdict: body() runs, errors (the pages' own)
// fail it too; prints "NAME ok" or "NAME FAILED: why" and resolves to
// 0 or 1; cleanup() runs either way.
export async function verdict(name, errors, body, cleanup) {
  try {
    await body();
    if (errors.length) throw new Error(`errors in the page: ${errors.join('; ')}`);
    console.log(`${name} ok`);
    return 0;
  } catch (e) {
    console.log(`${name} FAILED: ${e.message}`);
    return 1;
  } finally {
    await cleanup();
  }
}
