// browser_net.mjs: the network checks of tests/web/browser.mjs (net,
// nethost, netclaim, netresign, policy, stale, offer): the page against a
// terminal seat over a real lobby, and the page asking the seat layer.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { rmSync } from 'node:fs';
import { readFile, readdir, rename } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { argv, env, exit } from 'node:process';
import { root, puppeteer, wasmDir, serve, lobbyServer, withPage, launchBrowser, terminalHost, selfSignedCert, redisServer,
  terminals, waitOut, verdict } from './page_util.mjs';

// A new page of browser at url, ready; its errors go to errors.
async function openPage(browser, url, errors) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1100, height: 760 });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 });
  return page;
}

export async function netPages(outDir, games) {
  const browser = await launchBrowser();
  let failed = 0;
  try {
    for (const game of games) {
      const host = await terminalHost(env.TABULA_BINARY, game);
      const errors = [];
      const open = (url) => openPage(browser, url, errors);
      // A fixed seed for the page's bot: the game is the same every run.
      const player = await open(`${host.join}&bot=1&seed=${env.TABULA_NET_SEED ?? 2}`);
      const show = (page) => page.evaluate(() => ({
        status: document.getElementById('status').textContent,
        message: document.getElementById('message').textContent,
        plies: window.tabulaPage.game?.moves?.length,
        notes: window.tabulaPage.game?.notes?.slice(-6).map((n) => n()) })).catch((e) => e.message);
      // A spectator once the game is under way.
      await player.waitForFunction(() => window.tabulaPage.game?.moves?.length >= 2 ||
        window.tabulaPage.game?.final, { timeout: 60000, polling: 50 })
        .catch(async (e) => {
          throw new Error(`${game}: ${e.message}: page ${JSON.stringify(await show(player))}; ` +
            `host ${host.lines.slice(-6).join(' | ')}`);
        });
      if (await player.evaluate(() => window.tabulaPage.game.final))
        throw new Error(`${game}: the game ended before a spectator could join`);
      const watcher = await open(host.watchLink);
      const final = (page) => page.waitForFunction(() =>
        document.getElementById('final').textContent.startsWith('final-hash: ') &&
        window.tabulaPage.game.final, { timeout: 240000, polling: 300 })
        .catch(async (e) => {
          throw new Error(`${game}: ${e.message}: page ${JSON.stringify(await show(page))}; ` +
            `host ${host.lines.slice(-6).join(' | ')}`);
        })
        .then(() => page.evaluate(() => ({
          shown: document.getElementById('final').textContent.slice(12),
          hash: window.tabulaPage.game.final,
          plies: window.tabulaPage.game.moves.length,
          failed: window.tabulaPage.game.failed })));
      const step = (what, x) => x.then((v) => { if (env.WEB_NET_DEBUG) console.error(`${game}: ${what}`); return v; });
      const [p, w, code] = await Promise.all([step('player done', final(player)),
        step('spectator done', final(watcher)), step('host exited', host.exit)]);
      const hostHash = host.lines.map((l) => l.match(/^final-hash: (\S+)/)?.[1])
        .find((x) => x) ?? '-';
      // The log, downloaded as a user downloads it (the page's button).
      const cdp = await browser.target().createCDPSession();
      await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: outDir });
      if (env.WEB_NET_DEBUG) console.error(`${game}: downloading`);
      const before = new Set(await readdir(outDir));
      await player.bringToFront(); // a page behind another gets no frames
      await player.click('#download-log');
      let file = null;
      for (let i = 0; i < 100 && !file; i++) {
        await new Promise((r) => setTimeout(r, 100));
        file = (await readdir(outDir)).find((f) => !before.has(f) && f.endsWith('.log'));
      }
      if (file) await rename(join(outDir, file), join(outDir, `net-${game}.log`));
      if (env.WEB_NET_DEBUG) console.error(`${game}: downloaded ${file}`);
      await player.evaluate(() => window.scrollTo(0, 0));
      await player.screenshot({ path: join(outDir, `web-net-${game}.png`) });
      console.log(`net ${game} host ${hostHash} page ${p.shown} spectator ${w.shown} ` +
        `plies ${p.plies} exit ${code} log ${file ? 'downloaded' : 'missing'}`);
      if (p.shown !== p.hash || w.shown !== w.hash) {
        console.log(`net ${game}: the page shows another hash than its module's`);
        failed++;
      }
      if (errors.length) {
        console.log(`net ${game}: errors in the page: ${errors.join('; ')}`);
        failed++;
      }
      await player.close();
      await watcher.close();
    }
  } finally {
    await browser.close();
  }
  return failed ? 1 : 0;
}

// tls: the lobby serves the page over HTTPS (--tls-cert, --tls-key with a
// certificate of the test's own, which the browser is told to trust) and
// the page's seat plays over WSS.
export async function netHost(game, tls = false) {
  const cert = tls ? selfSignedCert() : null;
  const lobby = await lobbyServer(env.TABULA_BINARY,
    cert ? ['--tls-cert', cert.cert, '--tls-key', cert.key] : []);
  const browser = await launchBrowser(cert ? [`--ignore-certificate-errors-spki-list=${cert.spki}`] : [])
    .catch((e) => { lobby.close(); throw e; });
  try {
    if (tls && !lobby.base.startsWith('https://'))
      throw new Error(`nethost ${game} tls: the lobby serves ${lobby.base}`);
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    // The page's WebSockets, as the browser opens them.
    const sockets = [];
    const cdp = await page.createCDPSession();
    await cdp.send('Network.enable');
    cdp.on('Network.webSocketCreated', (e) => sockets.push(e.url));
    await page.goto(`${lobby.base}/`);
    await page.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 });
    // The start page's form, as a user fills it in.
    await page.select('#net-game', game);
    await page.select('#net-host-bot', '3');
    await page.click('#net-host button[type=submit]');
    await page.waitForFunction(() => /invite: /.test(document.getElementById('net-room').textContent),
      { timeout: 60000, polling: 100 });
    const shownInvite = () => page.evaluate(() =>
      document.getElementById('net-room').textContent.match(/invite: (\S+),/)?.[1]);
    const invite = await shownInvite();
    // A reload before anyone joined: the same room, the same codes.
    await page.reload();
    await page.waitForFunction(() => window.tabulaPage?.ready &&
      /invite: /.test(document.getElementById('net-room').textContent), { timeout: 60000, polling: 100 });
    if (await shownInvite() !== invite) throw new Error(`the reloaded host shows ${await shownInvite()}, not ${invite}`);
    // The commands a terminal player and a spectator type, with the
    // lobby's TCP address (not the page's).
    await page.waitForFunction(() => document.querySelectorAll('#net-room code').length === 2,
      { timeout: 10000, polling: 50 }).catch(() => {});
    const commands = await page.$$eval('#net-room code', (c) => c.map((e) => e.textContent));
    const watch = await page.evaluate(() => document.getElementById('net-room').textContent.match(/watch: (\S+),/)?.[1]);
    const wantCommands = [`tabula join ${invite} --lobby ${lobby.listen}`,
      `tabula spectate ${watch} --lobby ${lobby.listen}`];
    if (commands.join('|') !== wantCommands.join('|'))
      throw new Error(`the room's terminal commands: ${JSON.stringify(commands)}, expected ${JSON.stringify(wantCommands)}`);
    // --delay: the game lasts long enough for a reload in the middle.
    const term = spawn(env.TABULA_BINARY, [...commands[0].split(' ').slice(1),
      '--bot=1', '--seed', '3', '--delay', '200'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    term.stdout.on('data', (d) => { out += d; });
    const exited = new Promise((done) => term.on('exit', done));
    // A reload in the middle: the host's seat and its bot go on.
    await page.waitForFunction(() => window.tabulaPage.game.moves.length >= 4 ||
      window.tabulaPage.game.final, { timeout: 60000, polling: 50 });
    const at = await page.evaluate(() => window.tabulaPage.game.final ? -1 : window.tabulaPage.game.moves.length);
    if (at < 0) throw new Error(`nethost ${game}: the game ended before the reload`);
    await page.reload();
    await page.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 });
    const back = await page.evaluate(() => ({ mode: window.tabulaPage.game?.mode,
      moves: window.tabulaPage.game?.moves.length }));
    if (back.mode !== 'net' || !(back.moves >= at)) {
      throw new Error(`nethost ${game}: after the reload at ply ${at}: ${JSON.stringify(back)}`);
    }
    const code = await exited;
    await page.waitForFunction(() => window.tabulaPage.game.final, { timeout: 60000, polling: 200 });
    const r = await page.evaluate(() => ({ hash: window.tabulaPage.game.final,
      shown: document.getElementById('final').textContent.slice(12),
      plies: window.tabulaPage.game.moves.length }));
    const termHash = out.match(/^final-hash: (\S+)$/m)?.[1] ?? '-';
    console.log(`nethost ${game} page ${r.shown} terminal ${termHash} plies ${r.plies} reloaded-at ${at} exit ${code}` +
      (tls ? ` over ${[...new Set(sockets.map((u) => u.replace(/:\/\/.*/, '')))].join(',')}` : ''));
    if (errors.length) {
      console.log(`nethost ${game}: errors in the page: ${errors.join('; ')}`);
      return 1;
    }
    const want = `${tls ? 'wss' : 'ws'}://${new URL(lobby.base).host}/`;
    if (!sockets.length || sockets.some((u) => u !== want)) {
      console.log(`nethost ${game}: the page's WebSockets went to ${sockets.join(' ')}, not ${want}`);
      return 1;
    }
    return r.shown === r.hash && r.hash === termHash && code === 0 ? 0 : 1;
  } finally {
    await browser.close();
    lobby.close();
    if (cert) rmSync(cert.dir, { recursive: true, force: true });
  }
}

// Two tabs of one browser play each other, and a closed tab comes back
// (issue 39, findings 1 and 2): the page hosts Laska from its start page
// (you play), the #join= link opens in a second tab of the same browser
// (once both shared the browser's one key and the match never started);
// both type moves; the guest's tab, asked first (beforeunload), is closed
// in the middle, and the same link opened in a new tab takes the seat
// back (it had said "seat already taken") with its moves; the start page
// of a third tab lists no game then (both seats run), and after the host
// tab closes too, lists the host's game with Resume, which takes it back.
// With noLocks the pages have no Web Locks (as on a plain-http address
// that is not this machine's: no secure context), and the seats' leases
// in localStorage keep tabs apart instead. A third tab opening the link
// of a running seat joins as a new player, is refused, and leaves the
// running seat's record alone (a trial found it removed).
// Prints "nettabs ..." and returns 0 or 1.
export async function netTabs(noLocks = false) {
  const lobby = await lobbyServer(env.TABULA_BINARY);
  const browser = await launchBrowser();
  const errors = [];
  try {
    const open = async (url) => {
      if (!noLocks) return openPage(browser, url, errors);
      const page = await browser.newPage();
      await page.evaluateOnNewDocument(() => { delete Navigator.prototype.locks; });
      await page.goto('about:blank');
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.setViewport({ width: 1100, height: 760 });
      await page.goto(url);
      await page.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 });
      return page;
    };
    const say = (w) => { if (env.WEB_NET_DEBUG) console.error(`nettabs: ${w}`); };
    const host = await open(`${lobby.base}/`);
    await host.select('#net-game', 'laska');
    await host.select('#net-host-bot', '0');
    await host.click('#net-host button[type=submit]');
    await host.waitForFunction(() => /invite: /.test(document.getElementById('net-room').textContent),
      { timeout: 60000, polling: 100 });
    const invite = await host.evaluate(() =>
      document.getElementById('net-room').textContent.match(/invite: (\S+),/)?.[1]);
    say('hosted');
    let guest = await open(`${lobby.base}/#join=${invite}`);
    const plies = (page) => page.evaluate(() => window.tabulaPage.game?.moves?.length ?? -1);
    const move = async (page, n) => {
      await page.bringToFront();
      await page.waitForFunction(() => !document.getElementById('move-input').disabled,
        { timeout: 60000, polling: 100 });
      const mv = await page.evaluate(() => window.tabulaPage.game.pos.moves()[0]);
      await page.type('#move-input', mv);
      await page.keyboard.press('Enter');
      await page.waitForFunction((k) => window.tabulaPage.game.moves.length >= k,
        { timeout: 60000, polling: 100 }, n);
      return mv;
    };
    // The other tab's message line once the move came: it names the
    // opponent's move (a new user saw the host's own 'sent ...' stay).
    const told = (page, mv) => page.waitForFunction((w) => document.getElementById('message').textContent === w,
      { timeout: 30000, polling: 50 }, `the opponent played ${mv}`)
      .catch(async () => {
        throw new Error(`after the opponent's ${mv} the message line says '${await page.$eval('#message', (e) => e.textContent)}'`);
      });
    say('guest open');
    await move(host, 1);
    await told(host, await move(guest, 2));
    await told(guest, await move(host, 3));
    await guest.waitForFunction(() => window.tabulaPage.game.moves.length >= 3,
      { timeout: 60000, polling: 100 });
    say('3 plies');
    const keys = await Promise.all([host, guest].map((p) => p.evaluate(() => window.tabulaPage.game.key)));
    if (keys[0] === keys[1]) throw new Error('the two tabs play with one key');
    if (noLocks && await guest.evaluate(() => navigator.locks !== undefined))
      throw new Error('the page still has Web Locks');
    // The running guest's link in another tab: a new player, refused;
    // the running seat's record stays.
    const intruder = await open(`${lobby.base}/#join=${invite}`);
    // (its game has role 1 from the moment it asks, before the answer:
    // only the refusal, or a seat that got the moves, decides)
    await intruder.waitForFunction(() => document.getElementById('net-error').textContent !== '' ||
      (window.tabulaPage.game?.role === 1 && window.tabulaPage.game.moves.length >= 3),
    { timeout: 60000, polling: 100 });
    const taken = await intruder.evaluate(() => ({ role: window.tabulaPage.game?.role ?? null,
      error: document.getElementById('net-error').textContent }));
    if (taken.role !== null || !/second player/.test(taken.error))
      throw new Error(`a second tab on the running guest's link: ${JSON.stringify(taken)}`);
    await intruder.close();
    const code = invite.replace(/[^0-9A-Z]/g, '');
    const kept = await guest.evaluate((c) => localStorage.getItem(`tabula-seat:1:${c}`), code);
    if (!kept) throw new Error('the running guest\'s record is gone');
    await guest.reload();
    await guest.waitForFunction(() => window.tabulaPage?.ready && window.tabulaPage.game?.role === 1 &&
      window.tabulaPage.game.moves.length >= 3, { timeout: 60000, polling: 100 });
    // The guest's tab closes in the middle, asked first.
    say('closing guest');
    const asked = guest.dialogs.length; // (its reload above asked too)
    await guest.close({ runBeforeUnload: true });
    for (let i = 0; i < 50 && !guest.isClosed(); i++) await new Promise((r) => setTimeout(r, 100));
    if (guest.dialogs.slice(asked).join() !== 'beforeunload')
      throw new Error(`closing the guest's tab asked ${JSON.stringify(guest.dialogs.slice(asked))}`);
    // The same link in a new tab: the seat comes back.
    say('guest closed');
    guest = await open(`${lobby.base}/#join=${invite}`);
    await guest.waitForFunction(() => window.tabulaPage.game?.moves?.length >= 3,
      { timeout: 60000, polling: 100 });
    const back = await guest.evaluate(() => ({ role: window.tabulaPage.game.role,
      notes: window.tabulaPage.game.notes.map((n) => n()).join(' | ') }));
    // (the storage has the moves saved before the close; the rest come
    // from the relay)
    if (back.role !== 1 || !/resumed: \d+ moves? from this browser's storage/.test(back.notes))
      throw new Error(`the reopened link: ${JSON.stringify(back)}`);
    say('guest back');
    await move(guest, 4);
    await host.waitForFunction(() => window.tabulaPage.game.moves.length >= 4,
      { timeout: 60000, polling: 100 });
    // A third tab's start page: both seats run, so it lists none.
    say('4 plies');
    const third = await open(`${lobby.base}/`);
    const listed = () => third.evaluate(() => ({ hidden: document.getElementById('kept-seats').hidden,
      items: [...document.querySelectorAll('#kept-list li')].map((li) => li.textContent) }));
    const none = await listed();
    if (!none.hidden || none.items.length) throw new Error(`a third tab lists ${JSON.stringify(none)}`);
    // The host's tab closes; the third tab's start page lists its game.
    say('closing host');
    await host.close({ runBeforeUnload: true });
    for (let i = 0; i < 50 && !host.isClosed(); i++) await new Promise((r) => setTimeout(r, 100));
    await third.reload();
    await third.waitForFunction(() => window.tabulaPage?.ready &&
      !document.getElementById('kept-seats').hidden, { timeout: 10000, polling: 100 });
    const one = await listed();
    // (the game by its title, with whose move it is: "Laska (Lasker
    // 1911) · you: host · CODE: your move · last move 4.a5xc3")
    if (one.items.length !== 1 || !one.items[0].includes('Laska') || !one.items[0].includes('your move') ||
        !one.items[0].includes('you: host') || !one.items[0].replace(/[^0-9A-Z]/g, '').includes(code))
      throw new Error(`the start page lists ${JSON.stringify(one)}`);
    say('listed');
    await third.bringToFront(); // (a page behind another gets no clicks)
    await third.click('#kept-list button');
    await third.waitForFunction(() => window.tabulaPage.game?.moves?.length >= 4,
      { timeout: 60000, polling: 100 });
    say('resumed in the third tab');
    await move(third, 5);
    say('5 plies');
    await guest.waitForFunction(() => window.tabulaPage.game.moves.length >= 5,
      { timeout: 60000, polling: 100 });
    if (errors.length) throw new Error(`errors in the pages: ${errors.join('; ')}`);
    console.log(`nettabs${noLocks ? ' (no Web Locks)' : ''} two tabs played 5 plies; a third tab on the guest's link was refused and left its seat; the guest came back from its link, the host from the start page`);
    return 0;
  } catch (e) {
    console.log(`nettabs FAILED: ${e.message}`);
    if (env.WEB_NET_DEBUG) console.error(e.stack);
    return 1;
  } finally {
    await browser.close();
    lobby.close();
  }
}

// A person's seat (laska, 5+3 clock): the link's refusals first (a bot
// level out of range, a bad seed, an invite code whose last group is
// mistyped: each back on the start page with the reason, the page still
// usable), then the game, joined with the corrected code: a typed move, a reload of the page in the
// middle (the seat is taken back from the tab's storage), a second typed
// move, Resign; the page's final hash equals the terminal's.
// A person's seat on the page whose opponent leaves for good (a trial
// found the page saying "type 'claim win' or 'claim draw'" with no way to
// do either): a claim typed too early is refused by the session, the
// Claim buttons come once the countdown (10 s on a 1+0 clock, G-MC-9) has
// run, and Claim the win ends the game for Black, 0-1 (abandon); the move
// between is typed in double quotes, as a pv gives it. The host
// is a terminal bot on a lobby of its own, so killing it leaves the lobby
// up to say the seat is gone. Prints "netclaim ..." and returns 0 or 1.
export async function netClaim() {
  const lobby = await lobbyServer(env.TABULA_BINARY);
  const host = spawn(env.TABULA_BINARY, ['host', 'laska', '--bot=1', '--seed', '7', '--delay', '4000',
    '--clock', '1+0', '--lobby', lobby.listen], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const invite = await new Promise((ok, fail) => {
    host.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/^invite: (\S+)$/m);
      if (m) ok(m[1]);
    });
    host.on('exit', (code) => fail(new Error(`tabula host exited ${code}: ${out}`)));
  });
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${lobby.base}/#join=${invite}`);
    await page.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 });
    await page.waitForFunction(() => !document.getElementById('move-input').disabled,
      { timeout: 60000, polling: 100 });
    const typed = async (text) => {
      await page.type('#move-input', text);
      await page.keyboard.press('Enter');
    };
    await typed('claim win');
    await page.waitForFunction(() => [...document.querySelectorAll('#notes li')]
      .some((li) => li.textContent.includes("refused: 'claim win': the opponent is not absent long enough")),
    { timeout: 10000, polling: 100 });
    const early = await page.evaluate(() => document.getElementById('claim-win').hidden);
    const mv = await page.evaluate(() => window.tabulaPage.game.pos.moves()[0]);
    await typed(`"${mv}"`); // as tabula analyse's pv quotes a move (the module unquotes it)
    await page.waitForFunction(() => document.getElementById('move-input').disabled, { timeout: 10000, polling: 50 });
    host.kill('SIGKILL'); // within its bot's 4 s delay: White's turn
    await page.waitForFunction(() => !document.getElementById('claim-win').hidden &&
      !document.getElementById('claim-draw').hidden, { timeout: 40000, polling: 200 });
    await page.click('#claim-win');
    await page.waitForFunction(() => window.tabulaPage.game.final, { timeout: 20000, polling: 100 });
    const end = await page.evaluate(() => ({ status: document.getElementById('status').textContent,
      final: document.getElementById('final').textContent,
      buttons: ['claim-win', 'claim-draw'].map((id) => document.getElementById(id).hidden).join(' ') }));
    console.log(`netclaim early-hidden ${early} moved ${mv} status ${end.status} after-end-hidden ${end.buttons} ${end.final}`);
    if (errors.length) console.log(`netclaim: errors in the page: ${errors.join('; ')}`);
    return early && end.status.startsWith('0-1 (') && end.buttons === 'true true' &&
      /^final-hash: [0-9a-f]{64}$/.test(end.final) && !errors.length ? 0 : 1;
  } finally {
    await browser.close();
    host.kill('SIGKILL');
    lobby.close();
  }
}

export async function netResign() {
  const host = await terminalHost(env.TABULA_BINARY, 'laska', ['--clock', '5+3']);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    // The lobby out of reach, as the page sees it, while this tab's
    // localStorage says so: its WebSockets go to a closed port (the
    // discard port of the loopback address), so they fail as a stopped
    // lobby's do, while the page itself still loads.
    await page.evaluateOnNewDocument(() => {
      const Real = window.WebSocket;
      window.WebSocket = class extends Real {
        constructor(url, protocols) {
          super(localStorage.getItem('tabula-test-lobby-down') ? 'ws://127.0.0.1:9/' : url, protocols);
        }
      };
    });
    const refused = async (url, want) => {
      await page.evaluate(() => { // (the same page: the last refusal goes)
        const e = document.getElementById('net-error');
        if (e) e.textContent = '';
      });
      await page.goto(url);
      await page.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 });
      await page.waitForFunction(() => document.getElementById('net-error').textContent !== '',
        { timeout: 60000, polling: 100 });
      const r = await page.evaluate(() => ({ error: document.getElementById('net-error').textContent,
        start: !document.getElementById('start').hidden,
        code: document.getElementById('net-code').value }));
      if (r.error !== want || !r.start) {
        throw new Error(`${url}: want the start page saying "${want}", got ${JSON.stringify(r)}`);
      }
      return r;
    };
    const base = new URL(host.join);
    // A reloaded page whose tab kept a damaged seat: on the start page
    // with the reason, the record gone.
    await page.goto(`${base.origin}/`);
    await page.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 });
    await page.evaluate(() => {
      localStorage.setItem('tabula-seat:1:', JSON.stringify({ role: 1, key: '00', seat: 'x', log: '' }));
      sessionStorage.setItem('tabula-seat', '1:');
    });
    await page.reload();
    await page.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 });
    const damaged = await page.evaluate(() => ({ error: document.getElementById('net-error').textContent,
      start: !document.getElementById('start').hidden, kept: sessionStorage.getItem('tabula-seat'),
      stored: localStorage.getItem('tabula-seat:1:') }));
    if (damaged.error !== 'the stored seat is damaged' || !damaged.start || damaged.kept !== null ||
        damaged.stored !== null)
      throw new Error(`a damaged kept seat: ${JSON.stringify(damaged)}`);
    // The words of the levels and seeds the page takes (the bot's levels
    // of engine/engine.h, BOT_LEVEL_MIN..BOT_LEVEL_MAX; a 32-bit seed).
    await refused(`${host.join}&bot=9`, "bad bot level '9' in the link: the page's bot plays levels 1..8");
    await refused(`${host.join}&bot=1&seed=-3`,
      "bad seed '-3' in the link: expected a whole number 0..4294967295");
    // The invite code with its last symbol changed: the lobby has the
    // room (the first three groups) and seats the page, whose check of
    // the host key against the last group fails.
    const alphabet = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
    const last = host.invite.slice(-1);
    const bad = host.invite.slice(0, -1) + alphabet[(alphabet.indexOf(last) + 1) % alphabet.length];
    const r = await refused(`${base.origin}/#join=${bad}`,
      `the game at ${base.host} was not made by the host of code ${bad}: is the code mistyped? Check its last group`);
    if (r.code !== bad) throw new Error(`the code box holds ${r.code}, not ${bad}`);
    // The same page joins with the right link (the lobby gave back the
    // seat the mistyped code took: that joiner never spoke).
    await page.goto(host.join);
    await page.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 });
    const myTurn = () => page.waitForFunction(() => !document.getElementById('move-input').disabled,
      { timeout: 60000, polling: 100 });
    const typeMove = async () => {
      const mv = await page.evaluate(() => window.tabulaPage.game.pos.moves()[0]);
      await page.type('#move-input', mv);
      await page.keyboard.press('Enter');
      return mv;
    };
    // Black's turn: the move box is enabled.
    await myTurn();
    const clocks = await page.evaluate(() => document.getElementById('clocks').textContent);
    // White's clock stands while Black thinks: shown rounded down to the
    // second, as the terminal shows it (5:02.9 is 5:02).
    await new Promise((r) => setTimeout(r, 300)); // (the clocks redraw each 250 ms)
    const white = await page.evaluate(() => ({ text: document.getElementById('clocks').textContent,
      ms: window.tabulaPage.game.seat.state(Math.floor(performance.now())).clock[0] }));
    const whiteWant = `${Math.floor(white.ms / 60000)}:${String(Math.floor(white.ms / 1000) % 60).padStart(2, '0')}`;
    if (!white.text.startsWith(`White ${whiteWant} `))
      throw new Error(`White's clock at ${white.ms} ms shows '${white.text}', not ${whiteWant}`);
    // The message line answers the last thing typed or clicked: a move
    // refused there, then the move and, before White can answer, Take
    // back: the line says it waits for Black's turn, and once the turn
    // came, that it went (the request: Black's last ply and White's
    // reply, 2 plies), not the older error or the waiting line.
    const message = () => page.evaluate(() => document.getElementById('message').textContent);
    await page.type('#move-input', 'a1-h8');
    await page.keyboard.press('Enter');
    const refusedMove = await message();
    if (!refusedMove.startsWith("'a1-h8': ")) throw new Error(`a refused move says '${refusedMove}'`);
    const [mv, held] = await page.evaluate(() => { // (one task: White cannot move in between)
      const m = window.tabulaPage.game.pos.moves()[0];
      document.getElementById('move-input').value = m;
      document.getElementById('move-form').requestSubmit();
      document.getElementById('takeback').click();
      return [m, document.getElementById('message').textContent];
    });
    if (held !== "'takeback' is sent when your turn comes")
      throw new Error(`Take back on White's turn says '${held}'`);
    await page.waitForFunction(() => document.getElementById('message').textContent ===
      'black asks to take back 2 plies', { timeout: 30000, polling: 50 })
      .catch(async () => { throw new Error(`the held takeback went; the message line says '${await message()}'`); });
    await page.waitForFunction(() => window.tabulaPage.game.moves.length >= 2,
      { timeout: 60000, polling: 100 });
    // A reload in the middle of the game: the seat comes back.
    const before = await page.evaluate(() => window.tabulaPage.game.moves.map((m) => m.text));
    await page.reload();
    await page.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 });
    const back = await page.evaluate(() => ({ mode: window.tabulaPage.game?.mode,
      moves: window.tabulaPage.game?.moves.map((m) => m.text) ?? [] }));
    // (the terminal may have moved again before the reload)
    if (back.mode !== 'net' || back.moves.slice(0, before.length).join(' ') !== before.join(' ')) {
      throw new Error(`after the reload: ${JSON.stringify(back)}, before it ${before.join(' ')}`);
    }
    await myTurn();
    // The turn in progress goes on across a reload (G-MC-6): Black's
    // clock after another reload is lower than before it by at least the
    // wait (a restarted turn would show more), and not gone.
    const blackMs = () => page.evaluate(() => {
      const g = window.tabulaPage.game;
      return g?.mode === 'net' ? g.seat.state(Math.floor(performance.now())).clock[1] : -1;
    });
    const turnBefore = await blackMs();
    const waitMs = 1500;
    await new Promise((r) => setTimeout(r, waitMs));
    await page.reload();
    await page.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 });
    await page.waitForFunction(() => {
      const g = window.tabulaPage.game;
      return g?.mode === 'net' && g.seat.state(Math.floor(performance.now())).clock[1] >= 0;
    }, { timeout: 60000, polling: 50 });
    const turnAfter = await blackMs();
    await myTurn();
    const mv2 = await typeMove();
    await page.waitForFunction(() => window.tabulaPage.game.moves.length >= 4,
      { timeout: 60000, polling: 100 });
    // A reload while the lobby is out of reach, twice: the seat stays
    // kept (a failed connection is no refusal), the page says it is
    // reconnecting, with a longer wait each attempt; once the lobby is
    // back the next attempt takes the seat in again.
    const downState = () => page.evaluate(() => ({ mode: window.tabulaPage.game?.mode,
      kept: sessionStorage.getItem('tabula-seat') !== null,
      message: document.getElementById('message').textContent,
      start: !document.getElementById('start').hidden,
      white: window.tabulaPage.game?.moves.filter((m) => m.side === 0).pop()?.text }));
    await page.evaluate(() => localStorage.setItem('tabula-test-lobby-down', '1'));
    const waits = [];
    for (let i = 0; i < 2; i++) {
      await page.reload();
      await page.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 });
      await page.waitForFunction(() => /\(attempt 2,/.test(document.getElementById('message').textContent),
        { timeout: 30000, polling: 50 }).catch(() => {});
      const down = await downState();
      const m = down.message.match(/^the lobby is out of reach; reconnecting \(attempt (\d+), next in ([\d.]+) s\)$/);
      if (down.mode !== 'net' || !down.kept || down.start || !m)
        throw new Error(`a reload with the lobby out of reach (${i + 1}): ${JSON.stringify(down)}`);
      // a guest's first wait is the terminal's 1 s, doubled each attempt
      if (Number(m[2]) !== Math.min(8, 2 ** (Number(m[1]) - 1)))
        throw new Error(`attempt ${m[1]} waits ${m[2]} s: ${down.message}`);
      waits.push(`${m[1]}:${m[2]}`);
    }
    await page.evaluate(() => localStorage.removeItem('tabula-test-lobby-down'));
    await page.waitForFunction(() => window.tabulaPage.game?.link === 'connected',
      { timeout: 30000, polling: 100 });
    const backUp = await downState();
    // (or, when the terminal moved while the page was away, that move)
    if (!backUp.kept || (backUp.message !== 'click or type your moves on your turn' &&
        backUp.message !== `the opponent played ${backUp.white}`))
      throw new Error(`the lobby back: ${JSON.stringify(backUp)}, waits ${waits}`);
    await page.click('#resign'); // (Resign asks once)
    await page.click('#resign');
    await page.waitForFunction(() => window.tabulaPage.game.final, { timeout: 60000, polling: 100 });
    const code = await host.exit;
    const res = await page.evaluate(() => ({
      shown: document.getElementById('final').textContent.slice(12),
      status: document.getElementById('status').textContent,
      // after the end: no offer, answer, takeback or resign can be sent
      conduct: ['draw', 'resign', 'takeback'].map((id) => document.getElementById(id).disabled)
        .concat(['accept', 'decline'].map((id) => document.getElementById(id).hidden)).join(' '),
      kept: sessionStorage.getItem('tabula-seat') }));
    // What a tab keeps is read as hostile: the module refuses a damaged
    // seat text, a resume point past 2^64, a log with a flipped byte, a
    // spectator's seat, a host's seat of another key (web_match.h).
    const hostile = await page.evaluate(() => {
      const pg = window.tabulaPage;
      const seat = pg.game.seat.seat();
      const log = pg.game.seat.log();
      const key = pg.game.key;
      const take = (a) => {
        try {
          pg.tabula.netResume(a).free();
          return 'taken';
        } catch (e) {
          return `${e.code} ${e.message}`;
        }
      };
      const flipped = log.slice();
      flipped[log.length >> 1] ^= 1;
      const f = seat.split('\t');
      return [
        take({ role: 1, key, seat, log }),
        take({ role: 1, key, seat: 'zz\t-\t-\t0\t0', log: new Uint8Array(0) }),
        take({ role: 1, key, seat: [...f.slice(0, 3), '18446744073709551616', f[4]].join('\t'), log }),
        take({ role: 1, key, seat, log: flipped }),
        take({ role: 2, key, seat, log }),
        take({ role: 0, game: 'laska', key, seat: [f[0], f[1], f[1], 0, 0].join('\t'), log: new Uint8Array(0) }),
      ];
    });
    const want = ['taken', '-1016 the stored seat is damaged', '-1016 the stored seat is damaged',
      /^-10\d\d the stored match log: /, "-1001 only a host's or a guest's seat is resumed",
      '-1016 the stored seat is not of this key'];
    const wrong = hostile.filter((h, i) => !(want[i] instanceof RegExp ? want[i].test(h) : h === want[i]));
    if (wrong.length) throw new Error(`kept seats: ${JSON.stringify(hostile)}`);
    // A kept turn start in the future counts as 0 ms, days old as one
    // day (86400000 ms), none as 0 (match_turn_away, asked of the module
    // as the terminal and the simulator ask it; G-MC-6).
    // (the page's own module: the lobby that served it is gone by now)
    const turns = await page.evaluate(() => {
      const t = window.tabulaPage.tabula;
      const at = 1764570000000;
      return [at - 4000, at + 5000, at - 3 * 86400000, 0, NaN]
        .map((turnAt) => t.x.web_turn_away(turnAt, at));
    });
    if (turns.join(' ') !== '4000 0 86400000 0 0') throw new Error(`kept turn starts: ${turns}`);
    const term = host.lines.map((l) => l.match(/^final-hash: (\S+)/)?.[1]).find((x) => x) ?? '-';
    const result = host.lines.map((l) => l.match(/^result: (.*)$/)?.[1]).find((x) => x) ?? '-';
    console.log(`netresign page ${res.shown} terminal ${term} result ${result} page-status ${res.status} ` +
      `moved ${mv} ${mv2} reloaded-at ${before.length} lobby-down-waits ${waits.join(',')} kept-after-end ${res.kept !== null} ` +
      `turn-clock ${turnBefore} -> ${turnAfter} ms over a ${waitMs} ms reload ` +
      `clocks ${clocks.replace(/\s+/g, ' ')} conduct-after-end ${res.conduct}`);
    if (errors.length) console.log(`netresign: errors in the page: ${errors.join('; ')}`);
    return res.shown === term && result === '1-0 (resign)' && res.status === '1-0 (resignation)' &&
      /White \d+:\d\d/.test(clocks) && /Black \d+:\d\d/.test(clocks) && code === 0 &&
      turnAfter > 0 && turnAfter <= turnBefore - waitMs &&
      res.kept === null && res.conduct === 'true true true true true' && !errors.length ? 0 : 1;
  } finally {
    await browser.close();
    host.proc.kill();
  }
}

// One policy, one place (issue 36): the page asks the module's seat layer
// (seat/seat.h) and so answers as the terminal does. The waits between
// reconnects, worked out by hand from seat.h's rule (first wait 100 for
// the host, 1000 for the others, 2000 after TB_E_CODE, 6000 after
// TB_E_RATE; doubled each failed attempt up to 8000), the same as
// tests/seat/test_seat.c; the numbers the page uses by name exist and are
// C's (TB_E_* negative, the output kinds distinct); a clock typed in the
// host form as "5+3s" (which the page's own reader used to refuse) hosts
// the game, and a bad one is refused in the terminal's very words; so is
// a typed move; conduct commands are told from moves by the session's
// grammar (match_conduct_line: the first word resign, draw, accept,
// decline, abort, takeback or claim).
// Prints "policy ..." and returns 0 or 1.
export async function policyPage() {
  const term = spawnSync(env.TABULA_BINARY, ['host', 'laska', '--clock', '5+3x'],
    { encoding: 'utf8', env: { ...env, LANGUAGE: 'en', LC_ALL: 'C.UTF-8' } });
  const termWhy = term.stderr.trim().replace(/^tabula host: /, '');
  if (term.status !== 2 || !termWhy.startsWith("bad clock '5+3x'"))
    throw new Error(`tabula host --clock 5+3x: exit ${term.status}: ${term.stderr}`);
  // (G-MC-10: the other kinds, and a refusal that names its part)
  const period = spawnSync(env.TABULA_BINARY, ['host', 'laska', '--clock', '40/0'],
    { encoding: 'utf8', env: { ...env, LANGUAGE: 'en', LC_ALL: 'C.UTF-8' } });
  const periodWhy = period.stderr.trim().replace(/^tabula host: /, '');
  if (period.status !== 2 || !periodWhy.startsWith("bad clock '40/0': the time is"))
    throw new Error(`tabula host --clock 40/0: exit ${period.status}: ${period.stderr}`);
  // A typed move refused: the terminal's one reader (entry_read) gives
  // the reason, how moves look and a legal move (a3-b4, Laska's first in
  // canonical order); the page must say the same.
  const termMove = spawnSync(env.TABULA_BINARY, ['moves', 'laska', 'c3-d5'],
    { encoding: 'utf8', env: { ...env, LANGUAGE: 'en', LC_ALL: 'C.UTF-8' } })
    .stderr.trim().replace(/^tabula moves: move 1 /, '');
  if (!termMove.startsWith("'c3-d5': ") || !termMove.endsWith('a legal move now: a3-b4'))
    throw new Error(`tabula moves laska c3-d5: ${termMove}`);
  return withPage(async (page) => {
    const got = await page.evaluate(async () => {
      const m = await import('/tabula.js');
      const t = await m.loadTabula('/wasm/tabula_web.wasm');
      const { TB_E, NET } = m;
      // The waits between attempts, read from the page's own seat (the
      // seat layer's object, as the terminal drives it): a host seat taken
      // back (let in before) whose lobby stays out of reach, every attempt
      // failing at once: 100 ms, doubled each time to 8 s, and never given
      // up (seat/seat.h; by hand: 20 attempts end at 1000 + 12700 +
      // 13 x 8000 = 117700 ms, past the minute after which it once gave up).
      const key = t.keyNew();
      const fresh = t.netSeat({ role: 0, game: 'laska', key });
      const kept = fresh.seat();
      fresh.free();
      const s = t.netResume({ role: 0, game: 'laska', key, seat: kept, log: new Uint8Array(0) });
      const waits = [];
      let clock = 1000, failed = '', connects = 0;
      for (let i = 0; i < 40 && !failed; i++) {
        for (let o; (o = s.poll()) !== null;) {
          if (o.kind === NET.CONNECT) connects++;
          if (o.kind === NET.LOST) waits.push(Number(o.text.split('\t')[1]));
          if (o.kind === NET.FAILED) failed = o.text;
        }
        if (failed) break;
        if (connects > waits.length) s.closed(clock); // the attempt failed
        else { clock = s.deadline(); s.tick(clock); }
      }
      s.free();
      const kinds = ['SEND', 'PLY', 'NOTE', 'WARN', 'THINK', 'DESYNC', 'DONE', 'CONNECT', 'CLOSE', 'UP', 'LOST', 'FAILED'];
      return { waits, failed: `${failed}@${clock}`, attempts: waits.length,
        codes: ['TB_E_CODE', 'TB_E_RATE', 'TB_E_SIGNATURE', 'TB_E_OPTION']
          .every((k) => Number.isInteger(TB_E[k]) && TB_E[k] < 0),
        kinds: new Set(kinds.map((k) => NET[k]).filter(Number.isInteger)).size === kinds.length,
        clock: t.clockOptions('goals=3', '5+3s'),
        clockKinds: ['5d3', '40/90+30', '3days'].map((c) => t.clockOptions('', c)).join(' '),
        periodWhy: (() => { try { return t.clockOptions('', '40/0'); } catch (e) { return e.message; } })(),
        move: (() => { try { t.position('laska').play('c3-d5'); return 'played'; } catch (e) { return e.message; } })(),
        conduct: ['resign', 'takeback 2', 'takeback x', 'claim win', 'claim now', 'draw', 'accept',
          'drawn', 'c3-d4', 'T Qd8-b6>a5', '', 'Resign'].map((l) => (t.isConduct(l) ? 1 : 0)).join('') };
    });
    const want = [100, 200, 400, 800, 1600, 3200, 6400, ...Array(13).fill(8000)];
    // The host form, as a user fills it in: a bad clock first.
    await page.select('#net-game', 'laska');
    await page.type('#net-clock', '5+3x');
    await page.click('#net-host button[type=submit]');
    // (shown under the Host form, not under Join's)
    await page.waitForFunction(() => document.getElementById('net-host-error').textContent !== '',
      { timeout: 10000, polling: 50 });
    const pageWhy = await page.$eval('#net-host-error', (e) => e.textContent);
    await page.$eval('#net-clock', (e) => { e.value = ''; });
    await page.type('#net-clock', '5+3s');
    await page.click('#net-host button[type=submit]');
    await page.waitForFunction(() => /invite: /.test(document.getElementById('net-room').textContent),
      { timeout: 60000, polling: 100 });
    const hosted = await page.evaluate(() => window.tabulaPage.game?.options ?? null);
    // The page's plural forms against gettext's (WEB_PLURALS: "LANG\tN\tFORM"
    // lines from ngettext(1) on the built catalogues): the rule is the .po
    // header's, tabulated at build time, not a copy of it.
    const plurals = (env.WEB_PLURALS ?? '').split('\n').filter(Boolean).map((l) => l.split('\t'));
    const pluralGot = await page.evaluate(async (rows) => {
      const i = await import('/i18n.js');
      const out = [];
      for (const [lang, n] of rows) {
        await i.setLang(lang);
        out.push(i.tn('%u ply since the last goal', '%u plies since the last goal', Number(n)));
      }
      await i.setLang('en');
      return out;
    }, plurals);
    const pluralWrong = plurals.filter(([, , want], k) => pluralGot[k] !== want);
    // (not given up: no FAILED after 20 attempts, at 117700 ms)
    const ok = JSON.stringify(got.waits) === JSON.stringify(want) && got.failed === '@117700' &&
      got.codes && got.kinds && got.clock === 'goals=3,clock=300+3' && pageWhy === termWhy &&
      got.clockKinds === 'clock=300d3 clock=40/5400+30 clock=3day' && got.periodWhy === periodWhy &&
      hosted === 'clock=300+3' && got.move === termMove && got.conduct === '111111100000' &&
      plurals.length > 0 && pluralWrong.length === 0;
    console.log(`policy waits ${got.waits.join(',')} failed ${JSON.stringify(got.failed)} codes ${got.codes} ` +
      `kinds ${got.kinds} clock ${got.clock} clocks ${got.clockKinds} hosted ${JSON.stringify(hosted)} ` +
      `conduct ${got.conduct} ` +
      `plurals ${plurals.length - pluralWrong.length}/${plurals.length} ` +
      `${ok ? 'ok' : 'FAILED'}`);
    if (pageWhy !== termWhy) console.log(`policy: the page says "${pageWhy}", the terminal "${termWhy}"`);
    if (got.periodWhy !== periodWhy)
      console.log(`policy: the page says "${got.periodWhy}", the terminal "${periodWhy}"`);
    for (const [lang, n, want] of pluralWrong) console.log(`policy: ${lang} ${n}: the page says "${pluralGot[plurals.findIndex((p) => p[0] === lang && p[1] === n)]}", gettext "${want}"`);
    if (got.move !== termMove) console.log(`policy: the page refuses c3-d5 with "${got.move}", the terminal "${termMove}"`);
    return ok ? 0 : 1;
  }, '/');
}

// What the page shows stays of the game on screen (issue 36's page
// findings): (1) the help, open while a new game of another game starts
// (from New game, against the bot or a friend), is that game's, and so
// is the help opened afresh (its button, the ? key): its first line the
// new game's title, never the last game's; (2) in a network game, a takeback the page accepts shortens the
// move list at once (before any later move), and the message line no
// longer says the taken-back move was sent; the terminal, the other seat,
// types its moves and the takeback in line mode. Prints "stale ..." and
// returns 0 or 1.
export async function stalePage() {
  const fails = [];
  await withPage(async (page) => {
    const start = async (name, opponent = 'human') => {
      if (await page.$eval('#start', (e) => e.hidden)) await page.click('#new');
      // (a game on this device under way asks once before it is left)
      if (await page.$eval('#start', (e) => e.hidden)) await page.click('#new');
      await page.select('#game-name', name);
      await page.select('#opponent', opponent);
      await page.select('#play-as', '1'); // (against the bot, it moves first)
      await page.click('#new-game button[type=submit]');
      await page.waitForFunction((n) => window.tabulaPage.game?.name === n, { timeout: 10000 }, name);
    };
    // The help's first line: the game's title (core's, as each game's
    // rules name it: Lasker's 1911 rules, Boyer's 1951 Football chess).
    const titles = { laska: 'Laska (Lasker 1911)', football: 'Football chess (Boyer 1951)',
      chessball: 'Chessball (chess on a football, 1998)' };
    const help = () => page.$eval('#help', (e) => (e.hidden ? null : e.textContent.split('\n')[0]));
    const seen = [];
    const expect = (what, got, name) => {
      seen.push(`${what}: ${got}`);
      if (got !== titles[name]) fails.push(`help ${what}: '${got}', expected '${titles[name]}'`);
    };
    // Game A's help open, then New game B (by the button, the bot first;
    // then by the ? key): the help shown, and opened afresh, is B's.
    await start('laska');
    await page.click('#help-button');
    expect('in laska', await help(), 'laska');
    for (const [b, opponent, open] of [['football', 'bot:1', () => page.click('#help-button')],
      ['chessball', 'human', () => page.keyboard.press('?')]]) {
      await start(b, opponent);
      const shown = await help();
      if (shown !== null) expect(`left open, after New game ${b}`, shown, b);
      if (shown !== null) await open(); // closed
      await open(); // opened afresh
      expect(`opened after New game ${b}`, await help(), b);
    }
    console.log(`stale help: ${seen.join('; ')}`);
  }, '/');
  await laskaAgainstTerminal(fails, async ({ page, host }) => {
    const mine = await page.evaluate(() => window.tabulaPage.game.pos.moves()[0]);
    await page.type('#move-input', mine);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.tabulaPage.game.moves.length === 2,
      { timeout: 60000, polling: 50 });
    // White asks back to its own turn: both plies (the line waits in the
    // host's session for White's turn, if Black's move is not there yet).
    host.stdin.write('takeback\n');
    await page.waitForFunction(() => !document.getElementById('accept').hidden,
      { timeout: 60000, polling: 50 });
    await page.click('#accept');
    await page.waitForFunction(() => window.tabulaPage.game.seat.state(0).moves === 0,
      { timeout: 60000, polling: 50 });
    const after = await page.evaluate(() => ({ moves: window.tabulaPage.game.moves.length,
      items: document.querySelectorAll('#move-list li').length,
      message: document.getElementById('message').textContent }));
    console.log(`stale takeback: list ${after.moves} items ${after.items} message "${after.message}"`);
    if (after.moves !== 0 || after.items !== 0 || after.message.includes(mine))
      fails.push(`after the takeback: ${JSON.stringify(after)}`);
  });
  console.log(fails.length ? `stale FAILED: ${fails.join('; ')}` : 'stale ok');
  return fails.length ? 1 : 0;
}

// A Laska game of the page, which joins as Black, against `tabula host
// laska` on a terminal (in English) whose lines the check types: fn({page,
// host, hostSays(RE)}) runs on the page's first turn (the terminal played
// a3-b4); its failures, and the page's errors, go to fails.
async function laskaAgainstTerminal(fails, fn) {
  const site = join(wasmDir, 'site');
  const host = spawn(env.TABULA_BINARY, ['host', 'laska', '--http', '127.0.0.1:0', '--web', site],
    { stdio: ['pipe', 'pipe', 'inherit'], env: { ...env, LANGUAGE: 'en', LC_ALL: 'C.UTF-8' } });
  let out = '';
  host.stdout.on('data', (d) => { out += d; });
  const hostSays = async (re) => {
    for (let i = 0; i < 600 && !re.test(out); i++) await new Promise((r) => setTimeout(r, 50));
    if (!re.test(out)) throw new Error(`the terminal host never printed ${re}: ${out}`);
  };
  const browser = await launchBrowser();
  try {
    await hostSays(/^join-link: \S+$/m);
    const link = out.match(/^join-link: (\S+)$/m)[1];
    const errors = [];
    const page = await openPage(browser, link, errors);
    host.stdin.write('a3-b4\n'); // Laska's first legal move (docs/rules/laska.md)
    await page.waitForFunction(() => !document.getElementById('move-input').disabled,
      { timeout: 60000, polling: 50 });
    await fn({ page, host, hostSays });
    if (errors.length) fails.push(`errors in the page: ${errors.join('; ')}`);
  } finally {
    await browser.close();
    host.kill();
  }
}

// A draw offered on the page's turn (G-MC-1, docs/protocol.md: a seat
// appends only on its turn, so an offer goes with its maker's move and is
// answered on the receiver's turn): `tabula host laska` on a terminal,
// the page joins as Black; on its turn it presses Offer a draw and its
// message line says the offer goes with its move; the terminal, told to
// accept or decline, types accept at once and is told the answer waits
// for its turn; the page moves and the draw is agreed. Prints "offer ok"
// or "offer FAILED ...".
export async function offerPage() {
  const fails = [];
  await laskaAgainstTerminal(fails, async ({ page, host, hostSays }) => {
    await page.click('#draw');
    const told = 'black offers a draw: your offer goes with your move; the opponent answers it on their turn';
    await page.waitForFunction((w) => document.getElementById('message').textContent === w,
      { timeout: 10000, polling: 50 }, told).catch(() => {});
    const message = await page.$eval('#message', (e) => e.textContent);
    if (message !== told) fails.push(`the offer's message line: '${message}', expected '${told}'`);
    await hostSays(/black offers a draw: type accept or decline/);
    host.stdin.write('accept\n');
    await hostSays(/a draw offer is answered on your turn: your answer is sent when it comes/);
    const mine = await page.evaluate(() => window.tabulaPage.game.pos.moves()[0]);
    await page.type('#move-input', mine);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.tabulaPage.game.final, { timeout: 60000, polling: 100 });
    const status = await page.$eval('#status', (e) => e.textContent);
    if (status !== '1/2-1/2 (draw agreed)') fails.push(`the status after the accept: '${status}'`);
  });
  console.log(fails.length ? `offer FAILED: ${fails.join('; ')}` : 'offer ok');
  return fails.length ? 1 : 0;
}

// Finding 7 of the first-hour issue on the page: a spectator page that
// opens 8 s into Black's turn shows Black's running clock as the
// players have it (the relay's time at its WELCOME runs the turn,
// docs/trust.md), not the full time. `tabula host laska --clock 5+0`
// plays White at once; a terminal `tabula join --bot=1 --delay 20000`
// thinks 20 s as Black. Black's clock is 300 s less the time since
// White's ply line, read where the players read it.
export async function netWatch() {
  const host = await terminalHost(env.TABULA_BINARY, 'laska', ['--clock', '5+0']);
  const lobbyAddr = host.lines.map((l) => l.match(/^lobby: (\S+)/)?.[1]).find((x) => x);
  const guest = spawn(env.TABULA_BINARY, ['join', host.invite, '--lobby', lobbyAddr, '--bot=1',
    '--delay', '20000'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const browser = await launchBrowser();
  try {
    let white = 0;
    for (let i = 0; i < 600 && !white; i++) {
      if (host.lines.some((l) => /^ +1\. white /.test(l))) white = Date.now();
      else await new Promise((r) => setTimeout(r, 20));
    }
    if (!white) throw new Error(`White never moved: ${host.lines.join(' | ')}`);
    await new Promise((r) => setTimeout(r, 8000));
    const errors = [];
    const page = await openPage(browser, host.watchLink, errors);
    await page.waitForFunction(() => /Black \d+:\d\d/.test(document.getElementById('clocks').textContent),
      { timeout: 60000, polling: 100 });
    await new Promise((r) => setTimeout(r, 300)); // (the clocks redraw each 250 ms)
    const shown = await page.evaluate(() => document.getElementById('clocks').textContent);
    const want = 300000 - (Date.now() - white);
    const m = shown.match(/Black (\d+):(\d\d)/);
    const black = (Number(m[1]) * 60 + Number(m[2])) * 1000;
    console.log(`netwatch black ${shown.replace(/\s+/g, ' ')} want ${(want / 1000).toFixed(1)} s`);
    // shown rounded down to the second; the ply line came at most a
    // moment after the relay numbered White's move
    return Math.abs(black + 500 - want) <= 1500 && !errors.length ? 0 : 1;
  } finally {
    await browser.close();
    guest.kill('SIGKILL');
    host.proc.kill('SIGKILL');
  }
}

// The first hour as one story in one browser (issue 39's Done-when), with
// only what the page says: the start page's New game against the bot
// (Laska, level 1), a move and the bot's answer; New game, then Host
// (you play) and the opponent's link in a second tab of the same
// browser; both move, each tab's message line naming the other's move;
// the guest's tab is closed in the middle (the browser asks first) and
// the same link in a new tab takes the seat back; it moves, the host
// resigns (Resign asks once); the host downloads the log, goes back to
// the start page with New game and chooses the log there: the replay
// viewer steps through the game to its result. Prints "story ..." and
// returns 0 or 1.
export async function storyPage(outDir) {
  const lobby = await lobbyServer(env.TABULA_BINARY);
  const browser = await launchBrowser();
  const errors = [];
  const say = (w) => { if (env.WEB_NET_DEBUG) console.error(`story: ${w}`); };
  const text = (page, id) => page.$eval(`#${id}`, (e) => e.textContent);
  const waitText = (page, id, re, what) => page.waitForFunction((i, r) =>
    new RegExp(r).test(document.getElementById(i).textContent), { timeout: 60000, polling: 50 }, id, re.source)
    .catch(async () => { throw new Error(`${what}: #${id} says '${await text(page, id)}'`); });
  const typeMove = async (page) => {
    await page.bringToFront();
    await page.waitForFunction(() => !document.getElementById('move-input').disabled,
      { timeout: 60000, polling: 50 });
    const mv = await page.evaluate(() => window.tabulaPage.game.pos.moves()[0]);
    await page.type('#move-input', mv);
    await page.keyboard.press('Enter');
    return mv;
  };
  const plies = (page, n) => page.waitForFunction((k) => window.tabulaPage.game?.moves?.length >= k,
    { timeout: 60000, polling: 50 }, n);
  try {
    // The bot.
    const host = await openPage(browser, `${lobby.base}/`, errors);
    await host.select('#game-name', 'laska');
    await host.select('#opponent', 'bot:1');
    await host.select('#play-as', '0');
    await host.click('#new-game button[type=submit]');
    await waitText(host, 'message', /^type .*; or click the squares \(\? explains\)$/, 'a new game against the bot');
    await typeMove(host);
    await waitText(host, 'message', /^the bot played \S+$/, 'the bot\'s answer');
    say('played the bot');
    // New game asks once: the game under way is not kept once left.
    await host.click('#new');
    await waitText(host, 'message', /^Click New game again to leave this game: it is not kept$/,
      'New game in a game under way');
    if (await host.$eval('#start', (e) => e.hidden) !== true) throw new Error('New game left at once');
    // A friend in a second tab.
    await host.click('#new');
    await host.waitForFunction(() => !document.getElementById('start').hidden, { timeout: 10000 });
    await host.select('#net-game', 'laska');
    await host.select('#net-host-bot', '0');
    await host.click('#net-host button[type=submit]');
    await host.waitForFunction(() => document.querySelector('#net-room a'), { timeout: 60000, polling: 100 });
    const link = await host.$eval('#net-room a', (a) => a.href); // the opponent's link
    if (!/#join=/.test(link)) throw new Error(`the room's first link is ${link}`);
    let guest = await openPage(browser, link, errors);
    const m1 = await typeMove(host);
    await waitText(guest, 'message', new RegExp(`^the opponent played ${m1}$`), 'the guest after White\'s move');
    const m2 = await typeMove(guest);
    await waitText(host, 'message', new RegExp(`^the opponent played ${m2}$`), 'the host after Black\'s move');
    await typeMove(host);
    await plies(guest, 3);
    say('3 plies');
    // The guest's tab closes in the middle, and comes back.
    const asked = guest.dialogs.length;
    await guest.close({ runBeforeUnload: true });
    for (let i = 0; i < 50 && !guest.isClosed(); i++) await new Promise((r) => setTimeout(r, 100));
    if (guest.dialogs.slice(asked).join() !== 'beforeunload')
      throw new Error(`closing the guest's tab asked ${JSON.stringify(guest.dialogs.slice(asked))}`);
    guest = await openPage(browser, link, errors);
    await plies(guest, 3);
    await waitText(guest, 'notes', /resumed: 3 moves from this browser's storage/, 'the guest back');
    await typeMove(guest);
    await plies(host, 4);
    say('guest back, 4 plies');
    // The host resigns.
    await host.bringToFront();
    await host.click('#resign');
    await host.click('#resign');
    await waitText(host, 'status', /^0-1 \(resignation\)$/, 'the host\'s end');
    await waitText(guest, 'status', /^0-1 \(resignation\)$/, 'the guest\'s end');
    const final = await text(host, 'final');
    // The log, downloaded with the page's button, replayed on the start page.
    const cdp = await browser.target().createCDPSession();
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: outDir });
    const before = new Set(await readdir(outDir));
    await host.click('#download-log');
    let file = null;
    for (let i = 0; i < 100 && !file; i++) {
      await new Promise((r) => setTimeout(r, 100));
      file = (await readdir(outDir)).find((f) => !before.has(f) && f.endsWith('.log'));
    }
    if (!file) throw new Error('no log downloaded');
    await host.click('#new');
    await host.waitForFunction(() => !document.getElementById('start').hidden, { timeout: 10000 });
    const input = await host.$('#replay-file');
    await input.uploadFile(join(outDir, file));
    await host.waitForFunction(() => window.tabulaPage.game?.mode === 'replay' ||
      document.getElementById('replay-error').textContent !== '', { timeout: 60000, polling: 50 });
    const replayError = await text(host, 'replay-error');
    if (replayError) throw new Error(`the downloaded log: ${replayError}`);
    for (let i = 0; i < 4; i++) await host.click('#next');
    const end = await host.evaluate(() => ({ at: window.tabulaPage.game.at, all: window.tabulaPage.game.all.length,
      status: document.getElementById('status').textContent, final: document.getElementById('final').textContent }));
    console.log(`story: bot, host and guest tabs, guest closed and back, resigned, replayed ${end.at}/${end.all} ` +
      `'${end.status}' ${end.final === final ? 'same final hash' : `final ${end.final} vs ${final}`}`);
    if (end.at !== 4 || end.all !== 4 || end.final !== final || !/0-1/.test(end.status))
      return 1;
    await host.click('#new');
    await host.waitForFunction(() => !document.getElementById('start').hidden, { timeout: 10000 });
    if (errors.length) { console.log(`story: errors in the page: ${errors.join('; ')}`); return 1; }
    return 0;
  } finally {
    await browser.close();
    lobby.close();
  }
}

// netSeek across two lobby nodes of one real redis-server (`tabula lobby
// --redis`): the page on one node, every terminal on the other.
export async function netSeekRedis() {
  const redis = await redisServer();
  try {
    return await netSeek({ page: ['--redis', redis.url], other: ['--redis', redis.url] });
  } finally {
    redis.close();
  }
}

// Public seeks on the page's start view (issue 37), against real
// processes: `tabula lobby --http`; before any seek the list says none
// is open; a terminal `tabula seek laska --bot=1` (its player named with
// `tabula identity --name`) shows up in the page's list within a
// refresh, its row's code the terminal's invite: line and its player the
// name with the terminal's fingerprint; Play joins it (the page's bot
// plays) and the game ends with one hash on both; Play holds a host to
// the game its seek showed (the list's game changed under the button: the
// match start is refused). Then the page puts up
// a seek from its form: a name with a bidi control is refused with the
// rule's words, a good one is kept, the page says the lobby listed it,
// `tabula seeks` lists it with the page's name beside the fingerprint
// the page's own list shows, the page is reloaded (its seat seeks again,
// still listed), and `tabula join CODE --bot=1` plays it to
// the end, one hash on both. Last, terminal seeks until the lobby's limit
// of open seeks from one address refuses one (each listed one a row of
// the page's list), and the page's own seek is then refused in the
// limit's words (TB_E_SEEKS) and ends, back on the start page with the
// reason under the form, keeping no seat (as the terminal's seek ends).
// lobbies: the page's lobby and, given, a
// second node of the same redis (the terminals use it: the list is one
// across nodes). Prints "netseek ..." and returns 0 or 1.
export async function netSeek(lobbyArgs = null) {
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const home = await mkdtemp(join(tmpdir(), 'tabula-netseek-'));
  const termEnv = { ...env, XDG_CONFIG_HOME: home };
  const lobby = await lobbyServer(env.TABULA_BINARY, lobbyArgs?.page ?? []);
  const other = lobbyArgs?.other ? await lobbyServer(env.TABULA_BINARY, lobbyArgs.other) : lobby;
  const browser = await launchBrowser();
  const errors = [];
  const term = terminals();
  const say = (w) => { if (env.WEB_NET_DEBUG) console.error(`netseek: ${w}`); };
  // A terminal command on the other node (terminals(): {out, err, exit}).
  const run = (args, runEnv = termEnv) => term.run(args, runEnv);
  // `tabula seeks laska` as it ends; asked again a little later while the
  // lobby says this address asked too often (the page's refreshes and
  // each tabula join's look-up share the address's rate).
  const seeksNow = async () => {
    for (let i = 0; ; i++) {
      const r = run(['seeks', 'laska', '--lobby', other.listen]);
      await r.exit;
      if (!/too often/.test(r.err) || i === 5) return r;
      await new Promise((ok) => setTimeout(ok, 2500));
    }
  };
  return verdict('netseek', errors, async () => {
    const id = run(['identity', '--name', 'Terminál Тест']);
    await id.exit;
    const termFp = id.out.match(/^fingerprint: (\S+)$/m)?.[1];
    if (!termFp) throw new Error(`tabula identity said ${JSON.stringify(id.out)}`);
    const page = await openPage(browser, `${lobby.base}/`, errors);
    // The empty list: a line pointing at the form.
    await page.waitForFunction(() => document.getElementById('seeks-none').textContent !== '',
      { timeout: 20000, polling: 100 });
    const empty = await page.evaluate(() => ({ none: document.getElementById('seeks-none').textContent,
      table: document.getElementById('seeks-table').hidden }));
    if (!empty.table || !/Create a seek/.test(empty.none))
      throw new Error(`the empty list: ${JSON.stringify(empty)}`);
    say('empty list shown');

    // A terminal seek appears in the page's list.
    const seek = run(['seek', 'laska', '--bot=1', '--seed', '7', '--delay', '100', '--lobby', other.listen]);
    const invite = (await waitOut(seek, /^invite: (\S+)$/m, 'tabula seek'))[1];
    await waitOut(seek, /^seek: listed$/m, 'tabula seek');
    await page.waitForFunction((c) => document.querySelector(`#seeks-list tr[data-code="${c}"]`),
      { timeout: 20000, polling: 200 }, invite);
    const row = await page.evaluate((c) => {
      const tr = document.querySelector(`#seeks-list tr[data-code="${c}"]`);
      const cell = (k) => tr.querySelector(`td.${k}`);
      return { who: cell('who').textContent, elements: cell('who').children.length,
        game: cell('game').textContent, clock: cell('clock').textContent,
        waited: cell('waited').textContent, none: document.getElementById('seeks-none').textContent };
    }, invite);
    say(`row ${JSON.stringify(row)}`);
    if (row.who !== `Terminál Тест (${termFp})` || row.elements !== 0 || !/Laska/.test(row.game) ||
        row.clock !== '-' || !/^\d+s$/.test(row.waited) || row.none !== '')
      throw new Error(`the terminal's seek in the page's list: ${JSON.stringify(row)}, expected Terminál Тест (${termFp})`);
    // Play: the join form's flow with the row's code (the page's bot).
    await page.select('#net-join-bot', '1');
    await page.click(`#seeks-list tr[data-code="${invite}"] button`);
    await page.waitForFunction(() => window.tabulaPage.game?.final, { timeout: 240000, polling: 200 });
    const code1 = await seek.exit;
    const joined = await page.evaluate(() => ({ hash: window.tabulaPage.game.final,
      role: window.tabulaPage.game.role, plies: window.tabulaPage.game.moves.length,
      shown: document.getElementById('final').textContent.slice(12) }));
    const termHash = seek.out.match(/^final-hash: (\S+)$/m)?.[1] ?? '-';
    console.log(`netseek terminal-seek ${invite} page ${joined.shown} terminal ${termHash} plies ${joined.plies} exit ${code1}`);
    if (joined.role !== 1 || joined.hash !== termHash || joined.shown !== termHash || code1 !== 0)
      throw new Error(`the page's game of the terminal's seek: ${JSON.stringify(joined)}, terminal ${termHash} exit ${code1}`);

    // Play holds the host to the game its seek showed (as tabula join
    // does): the list's game changed under the button (a host that lied,
    // as the page sees it), the match start is refused and nothing is
    // played.
    await page.click('#new');
    await page.waitForFunction(() => !document.getElementById('start').hidden, { timeout: 10000 });
    const liar = run(['seek', 'laska', '--bot=1', '--lobby', other.listen]);
    const liarCode = (await waitOut(liar, /^invite: (\S+)$/m, 'the second tabula seek'))[1];
    await page.waitForFunction((c) => window.tabulaPage.seeks.some((x) => x.code === c),
      { timeout: 20000, polling: 200 }, liarCode);
    await page.evaluate((c) => {
      const s = window.tabulaPage.seeks.find((x) => x.code === c);
      s.game = 'chessball';
      document.querySelector(`#seeks-list tr[data-code="${c}"] button`).click();
    }, liarCode);
    const promise = 'refused a match start: it is not the game the seek promised';
    await page.waitForFunction((w) => window.tabulaPage.game?.notes?.some((n) => n() === w),
      { timeout: 30000, polling: 100 }, promise).catch(async () => {
      throw new Error(`a seek's game changed under Play: notes ${JSON.stringify(await page.evaluate(() =>
        window.tabulaPage.game?.notes?.map((n) => n())))}`);
    });
    const lied = await page.evaluate(() => window.tabulaPage.game.moves.length);
    if (lied !== 0) throw new Error(`a seek's game changed under Play: ${lied} plies played`);
    liar.proc.kill('SIGTERM');
    say('a start of another game than the seek showed was refused');

    // The page's own seek, from its form.
    await page.click('#new');
    await page.waitForFunction(() => !document.getElementById('start').hidden, { timeout: 10000 });
    await page.select('#seek-game', 'laska');
    await page.select('#seek-bot', '1');
    await page.$eval('#seek-name', (e) => { e.value = 'Page\u202eEvil'; });
    await page.click('#seek-form button[type=submit]');
    await page.waitForFunction(() => document.getElementById('seek-error').textContent !== '',
      { timeout: 10000, polling: 50 });
    const refused = await page.evaluate(() => ({ error: document.getElementById('seek-error').textContent,
      start: !document.getElementById('start').hidden }));
    if (!/bidirectional control character.*U\+202E/.test(refused.error) || !refused.start)
      throw new Error(`a name with a bidi control: ${JSON.stringify(refused)}`);
    say(`refused: ${refused.error}`);
    await page.$eval('#seek-name', (e) => { e.value = '  Page   Игрок '; });
    await page.click('#seek-form button[type=submit]');
    await page.waitForFunction(() => /invite: /.test(document.getElementById('net-room').textContent) &&
      window.tabulaPage.game.notes.some((n) => n() === 'seek: listed'), { timeout: 30000, polling: 100 });
    const mine = await page.evaluate(() => ({
      invite: document.getElementById('net-room').textContent.match(/invite: (\S+),/)?.[1],
      stored: localStorage.getItem('tabula-name'), identity: Boolean(localStorage.getItem('tabula-identity')) }));
    if (mine.stored !== 'Page Игрок' || !mine.identity)
      throw new Error(`the page keeps ${JSON.stringify(mine)}`);
    say(`page seeks with ${mine.invite}`);
    // `tabula seeks` lists it, with the page's name.
    const list = await seeksNow();
    const line = list.out.split('\n').find((l) => l.startsWith(`seek: ${mine.invite} `));
    const m = line?.match(/^seek: (\S+) laska - - \d+s (\S+) Page Игрок$/);
    if (!m) throw new Error(`tabula seeks: ${JSON.stringify({ out: list.out, err: list.err })}`);
    // the page's own list shows it with the same key's fingerprint (a
    // second page: the first plays)
    const lister = await openPage(browser, `${lobby.base}/`, errors);
    await lister.waitForFunction((c) => document.querySelector(`#seeks-list tr[data-code="${c}"]`),
      { timeout: 20000, polling: 200 }, mine.invite);
    const who = await lister.$eval(`#seeks-list tr[data-code="${mine.invite}"] td.who`, (e) => e.textContent);
    if (who !== `Page Игрок (${m[2]})`) throw new Error(`the page's seek is listed as ${who}, the terminal's list says ${m[2]}`);
    await lister.close();
    await page.bringToFront();
    // A reload before anyone came: the seat comes back and seeks again
    // (its name from the browser's storage).
    await page.reload();
    await page.waitForFunction((c) => window.tabulaPage?.ready && window.tabulaPage.game?.mode === 'net' &&
      document.getElementById('net-room').textContent.includes(`invite: ${c},`) &&
      window.tabulaPage.game.notes.some((n) => n() === 'seek: listed'), { timeout: 30000, polling: 100 }, mine.invite);
    const again = await seeksNow();
    if (!again.out.includes(`seek: ${mine.invite} laska - - `) || !/ Page Игрок$/m.test(again.out))
      throw new Error(`tabula seeks after the page's reload: ${JSON.stringify({ out: again.out, err: again.err })}`);
    say('listed again after a reload');
    // A terminal takes it and plays it out.
    const joiner = run(['join', mine.invite, '--lobby', other.listen, '--bot=1', '--seed', '3']);
    const code2 = await joiner.exit;
    await page.waitForFunction(() => window.tabulaPage.game.final, { timeout: 120000, polling: 200 });
    const hosted = await page.evaluate(() => ({ hash: window.tabulaPage.game.final,
      plies: window.tabulaPage.game.moves.length,
      shown: document.getElementById('final').textContent.slice(12) }));
    const joinHash = joiner.out.match(/^final-hash: (\S+)$/m)?.[1] ?? '-';
    console.log(`netseek page-seek ${mine.invite} page ${hosted.shown} terminal ${joinHash} plies ${hosted.plies} exit ${code2}`);
    if (hosted.hash !== joinHash || hosted.shown !== joinHash || code2 !== 0)
      throw new Error(`the terminal's game of the page's seek: ${JSON.stringify(hosted)}, terminal ${joinHash} exit ${code2}`);
    // The lobby's limit of open seeks from one address: unnamed terminal
    // seeks until the lobby refuses one (each listed one a row of the page's
    // list), then the page's own is refused too, in the limit's words.
    await page.click('#new');
    await page.waitForFunction(() => !document.getElementById('start').hidden, { timeout: 10000 });
    // (unnamed: each seek's key its game's, new each time, so only the
    // address's share counts, not a player's)
    const unnamed = { ...env, XDG_CONFIG_HOME: join(home, 'unnamed') };
    const seekers = [];
    for (let i = 0; i < 32; i++) {
      const r = run(['seek', 'chessball', '--lobby', other.listen], unnamed);
      seekers.push(r);
      for (let k = 0; k < 300 && !/^seek: listed$/m.test(r.out) && !/seek: not listed: /.test(r.err); k++)
        await new Promise((ok) => setTimeout(ok, 100));
      if (!/^seek: listed$/m.test(r.out)) break;
    }
    const limit = seekers.at(-1).err.match(/seek: not listed: (.*)$/m)?.[1];
    if (!limit) throw new Error(`${seekers.length} terminal seeks, none refused`);
    await page.waitForFunction((n) => document.querySelectorAll('#seeks-list tr').length === n,
      { timeout: 20000, polling: 200 }, seekers.length - 1).catch(async () => {
      throw new Error(`the page lists ${await page.$$eval('#seeks-list tr', (r) => r.length)} seeks, ` +
        `not the ${seekers.length - 1} listed`);
    });
    await page.click('#seek-form button[type=submit]');
    // (as the terminal's: a refused seek ends, back on the start page
    // with the reason under the form, and keeps no host's seat; the
    // guest's seat of the refused start above is kept, as a seat left is)
    const refusal = `seek: not listed: ${limit}`;
    await page.waitForFunction((w) => !document.getElementById('start').hidden &&
      document.getElementById('seek-error').textContent === w && !window.tabulaPage.game &&
      !Object.keys(localStorage).some((k) => k.startsWith('tabula-seat:0:')), { timeout: 30000, polling: 100 }, refusal)
      .catch(async () => {
        throw new Error(`the page's seek over the limit: ${JSON.stringify(await page.evaluate(() => ({
          start: !document.getElementById('start').hidden, error: document.getElementById('seek-error').textContent,
          message: document.getElementById('message').textContent, mode: window.tabulaPage.game?.mode,
          kept: Object.keys(localStorage).filter((k) => k.startsWith('tabula-seat:')) })))}, expected '${refusal}'`);
      });
    say(`over the limit: ${refusal}`);
    console.log(`netseek limit ${seekers.length - 1} open seeks; the page was told '${refusal}'`);
  }, async () => {
    term.stop();
    await browser.close();
    lobby.close();
    if (other !== lobby) other.close();
    await rm(home, { recursive: true, force: true });
  });
}
