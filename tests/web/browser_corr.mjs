// browser_corr.mjs: a correspondence game on the page (issue 37; browser.mjs
// netcorr, run by tests/web/web_corr.sh): `tabula lobby --http` serves the
// page, which hosts Laska with a 3days clock from its start page's form;
// a terminal `tabula join` (its own XDG_DATA_HOME) takes Black, types one
// move on standard input and leaves once it is with the relay, as a
// correspondence seat does. The page, hidden, says "your move" in its tab
// title and in a Notification (the permission granted through the
// DevTools protocol, Browser.grantPermissions, then the page's own toggle
// clicked); the title is its own again once the tab is seen. The page then
// moves and leaves for its start page: the kept game is listed as the
// opponent's move, with the time left and the last move. Hidden again, the
// terminal opens its seat again (`tabula games`'s open: line) and moves:
// the start page, watching its kept game on the lobby, turns the row to
// "your move" with the terminal's move, the title and a second
// notification say so. Prints "netcorr ok" or "netcorr FAILED ...".
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { env } from 'node:process';
import { lobbyServer, launchBrowser } from './page_util.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A terminal command of the test's player (its own seats' folder):
// {proc, out(), err(), exit}.
function terminal(args, home, input = null) {
  const p = spawn(env.TABULA_BINARY, args, { stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...env, XDG_DATA_HOME: home, LANGUAGE: 'en', LC_ALL: 'C.UTF-8' } });
  let out = '', err = '';
  p.stdout.on('data', (d) => { out += d; });
  p.stderr.on('data', (d) => { err += d; });
  const exit = new Promise((ok) => p.on('exit', (code) => ok(code)));
  if (input !== null) p.stdin.end(input);
  return { proc: p, out: () => out, err: () => err, exit };
}

async function until(what, fn, ms = 30000) {
  for (let at = Date.now(); Date.now() - at < ms; await sleep(100))
    if (await fn()) return;
  throw new Error(`timed out: ${what}`);
}

export async function netCorr() {
  const fails = [];
  const home = mkdtempSync(join(tmpdir(), 'tabula-corr-'));
  const lobby = await lobbyServer(env.TABULA_BINARY);
  const browser = await launchBrowser();
  const kids = [];
  let hiding = 'a tab in front';
  const errors = [];
  try {
    await browser.defaultBrowserContext().overridePermissions(lobby.base, ['notifications']);
    const page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    if (env.WEB_CONSOLE) page.on('console', (m) => console.log(`page: ${m.text()}`));
    // Every Notification the page makes, recorded (headless Chromium
    // shows none).
    await page.evaluateOnNewDocument(() => {
      window.shownNotes = [];
      const N = window.Notification;
      if (N) window.Notification = class extends N {
        constructor(title, o) { super(title, o); window.shownNotes.push(title); }
      };
    });
    await page.goto(`${lobby.base}/`);
    await page.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 });
    const other = await browser.newPage(); // brought to front: the page is hidden
    // Hidden as a user hides it: another tab in front. Where the headless
    // browser still says 'visible', the page is told it is hidden.
    const hide = async () => {
      await other.bringToFront();
      await sleep(300);
      if (await page.evaluate(() => document.visibilityState) !== 'hidden') {
        hiding = 'visibilityState set in the page';
        await page.evaluate(() => {
          Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
          document.dispatchEvent(new Event('visibilitychange'));
        });
      }
    };
    const unhide = async () => {
      await page.bringToFront();
      await page.evaluate(() => {
        if (Object.getOwnPropertyDescriptor(document, 'visibilityState')) {
          delete document.visibilityState;
          document.dispatchEvent(new Event('visibilitychange'));
        }
      });
    };
    await page.bringToFront();

    // The page hosts Laska at 3 days a move.
    await page.select('#net-game', 'laska');
    await page.type('#net-clock', '3days');
    await page.click('#net-host button[type=submit]');
    await page.waitForFunction(() => window.tabulaPage.game?.room?.invite, { timeout: 30000 });
    const invite = await page.evaluate(() => window.tabulaPage.game.room.invite);
    // The toggle in the game's panel: permission already granted, its
    // click only turns notices on.
    await page.waitForSelector('#notify-game input');
    await page.click('#notify-game input');
    await until('the toggle on', () => page.evaluate(() => localStorage.getItem('tabula-notify') === '1'));

    const guest = terminal(['join', invite, '--lobby', lobby.listen], home);
    kids.push(guest.proc);
    await page.waitForFunction(() => !document.getElementById('move-input').disabled,
      { timeout: 30000, polling: 100 });
    const play = async () => {
      const mv = await page.evaluate(() => window.tabulaPage.game.pos.moves()[0]);
      await page.type('#move-input', mv);
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.getElementById('move-input').disabled,
        { timeout: 30000, polling: 100 });
      // Black's answer, from the page's position after the move
      await page.waitForFunction((m) => window.tabulaPage.game.moves.at(-1)?.text === m, { timeout: 30000 }, mv);
      return { mv, reply: await page.evaluate(() => window.tabulaPage.game.pos.moves()[0]) };
    };
    const { mv: white1, reply: black1 } = await play();
    await until('the terminal sees the first move', () => guest.out().includes(white1), 15000)
      .catch(() => {}); // (its line mode's words aside: the move goes when its turn comes)
    await hide();
    guest.proc.stdin.end(`${black1}\n`);
    const code = await guest.exit;
    if (!/is with the relay/.test(guest.err()))
      fails.push(`the terminal seat did not leave with its move on the relay (exit ${code}): ${guest.err()}`);
    await until('the title says your move', () => page.evaluate(() => document.title.includes('Your move')))
      .catch(async (e) => fails.push(`${e.message}: ${await page.evaluate(() => JSON.stringify({
        moves: window.tabulaPage.game.moves, vis: document.visibilityState, was: window.tabulaPage.game.wasMine,
        link: window.tabulaPage.game.link }))} ${guest.out()} ${guest.err()}`));
    const title = await page.evaluate(() => document.title);
    if (title !== '● Your move — Tabula') fails.push(`the hidden tab's title: '${title}'`);
    const notes1 = await page.evaluate(() => window.shownNotes);
    if (!notes1.some((n) => n.startsWith('Your move: Laska') && n.endsWith(`, 2.${black1}`)))
      fails.push(`the notification of the terminal's move: ${JSON.stringify(notes1)}`);
    await unhide();
    await until('the title back', () => page.evaluate(() => document.title === 'Tabula'))
      .catch(() => fails.push('the title stayed marked once the tab was seen'));

    // The page moves, and leaves for its start page: the game is kept.
    // (Once the relay's receipt of the move came, so the kept log holds
    // the opponent's turn start and the row its time left: under load
    // (CI's sanitizer pass beside web_net) the page once left first.)
    const { reply: black2 } = await play();
    await until('the move witnessed', () => page.evaluate(() => {
      const seat = window.tabulaPage.game.seat;
      return seat.glance(seat.state(performance.now()).side, Date.now()).leftMs >= 0;
    }), 15000).catch((e) => fails.push(e.message));
    await page.click('#new');
    await page.waitForSelector('#kept-list li', { timeout: 10000 }).catch(async (e) => {
      throw new Error(`${e.message}: ${await page.evaluate(() => JSON.stringify({ start: !document.getElementById('start').hidden,
        keys: Object.keys(localStorage), game: window.tabulaPage.game?.mode }))}`);
    });
    const row = () => page.$eval('#kept-list li', (li) => ({ turn: li.dataset.turn, text: li.textContent }));
    const r1 = await row();
    if (r1.turn !== 'opponent' || !r1.text.includes("opponent's move") || !r1.text.includes('left') ||
        !r1.text.includes('last move 3.'))
      fails.push(`the kept game after the page's move: ${JSON.stringify(r1)}`);

    // Hidden, the terminal opens its seat again and moves.
    await hide();
    const games = terminal(['games'], home);
    await games.exit;
    const open = games.out().match(/^ {2}open: tabula (.*)$/m);
    if (!open) throw new Error(`tabula games gave no open: line: ${games.out()} ${games.err()}`);
    const args = open[1].split(' ');
    const again = terminal(args, home, `${black2}\n`);
    kids.push(again.proc);
    await again.exit;
    await until('the start page lists your move', async () => (await row()).turn === 'you', 30000)
      .catch((e) => fails.push(`${e.message}: ${JSON.stringify(r1)} then ${again.err()}`));
    const r2 = await row();
    if (!r2.text.includes('your move') || !r2.text.includes(`last move 4.${black2}`))
      fails.push(`the kept game after the terminal's move: ${JSON.stringify(r2)}`);
    const title2 = await page.evaluate(() => document.title);
    if (title2 !== '● Your move — Tabula') fails.push(`the hidden start page's title: '${title2}'`);
    const notes2 = await page.evaluate(() => window.shownNotes);
    if (!notes2.some((n) => n.startsWith('Your move: Laska') && n.endsWith(`, 4.${black2}`)))
      fails.push(`the notification from the start page's watch: ${JSON.stringify(notes2)}`);
    await unhide();
  } catch (e) {
    fails.push(e.message);
  } finally {
    if (errors.length) fails.push(`errors in the page: ${errors.join('; ')}`);
    await browser.close();
    for (const k of kids) k.kill();
    lobby.close();
    rmSync(home, { recursive: true, force: true });
  }
  console.log(fails.length ? `netcorr FAILED (hidden by ${hiding}): ${fails.join('; ')}`
    : `netcorr ok (hidden by ${hiding})`);
  return fails.length ? 1 : 0;
}
