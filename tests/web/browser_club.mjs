// browser_club.mjs: a club's published numbers on the page (issue 38;
// browser.mjs club, run by tests/web/web_club.sh). A real `tabula lobby
// --http --archive DIR --key RELAY` serves the page and DIR, which this
// test fills as a club would: three games of terminal bots played through
// that relay, which keeps them in DIR/logs (with index.txt) and makes
// DIR/ratings.txt from them (`tabula ratings DIR/logs --relay RELAY`:
// docs/archive.md); a
// three-player round robin run with `tabula tournament
// create/register/pair/collect` on bot games through the same relay in
// DIR/tournaments/club-open/.
// Checked on the page: the start page offers Ratings; the view lists
// every published rating line; Check says the list made again in the
// page equals it; a ratings.txt with one digit changed makes Check name
// that line. The tournament view (#tournament=URL) shows the name, game,
// clock, director, every board with its result as the games ended, and
// the crosstable's points, derived here by hand from the games' result:
// lines (a chess win 1, a draw 1/2, the pairing-allocated bye 1:
// docs/tournaments.md); a copy of the folder with one byte of a results
// document changed is refused naming that document, and its round's
// results are not shown. Prints "club ok" or "club FAILED ...";
// WEB_SHOTS=DIR: screenshots of both views there.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync,
  writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { env } from 'node:process';
import { lobbyServer, launchBrowser } from './page_util.mjs';

const T = () => resolve(env.TABULA_BINARY);
const quiet = { ...env, LANGUAGE: 'en', LC_ALL: 'C.UTF-8' };

function run(args, cwd) {
  const r = spawnSync(T(), args, { cwd, env: quiet, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`tabula ${args.join(' ')}: ${r.status} ${r.stderr}`);
  return r.stdout;
}

function identity(file) {
  const out = run(['identity', '--file', file]);
  return { file, fp: out.match(/^fingerprint: (\S+)$/m)[1], pk: out.match(/^public-key: (\S+)$/m)[1] };
}

// A terminal command to its exit: {code, out}.
function terminal(args, cwd) {
  const p = spawn(T(), args, { cwd, env: quiet, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  p.stdout.on('data', (d) => { out += d; });
  p.stderr.on('data', (d) => { out += d; });
  const exit = new Promise((ok) => p.on('exit', (code) => ok(code)));
  return { proc: p, out: () => out, exit };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// White's half points of a result: line ("1-0", "0-1", "1/2-1/2").
function whiteHalf(out) {
  const m = out.match(/^result: (\S+)/m);
  if (!m) throw new Error(`no result: line in ${out}`);
  return { '1-0': 2, '0-1': 0, '1/2-1/2': 1 }[m[1]];
}

// host and join commands played by bots to the end; the host's output.
async function play(hostArgs, joinArgs, cwd) {
  const host = terminal(hostArgs, cwd);
  let code = null;
  for (let at = Date.now(); !code && Date.now() - at < 20000; await sleep(50)) {
    code = host.out().match(/^invite: (\S+)$/m)?.[1] ?? null;
    if (!code && (hostArgs.includes('--code'))) code = hostArgs[hostArgs.indexOf('--code') + 1];
  }
  if (!code) throw new Error(`no invite: ${host.out()}`);
  const guest = terminal(joinArgs(code), cwd);
  const [a, b] = await Promise.all([host.exit, guest.exit]);
  if (a !== 0 || b !== 0) throw new Error(`a game failed: ${host.out()} ${guest.out()}`);
  return host.out();
}

export async function clubPages() {
  const fails = [];
  const dir = mkdtempSync(join(tmpdir(), 'tabula-club-'));
  const arch = join(dir, 'arch');
  mkdirSync(join(arch, 'logs'), { recursive: true });
  mkdirSync(join(arch, 'tournaments'), { recursive: true });
  const relay = identity(join(dir, 'relay.key'));
  const ids = [0, 1, 2, 3].map((i) => identity(join(dir, `id${i}`)));
  const lobby = await lobbyServer(T(), ['--archive', arch, '--key', relay.file]);
  const browser = await launchBrowser();
  const errors = [];
  try {
    // ---- the relay's games, its logs and its list: the relay keeps
    // each game it relays (DIR/logs, index.txt) and recomputes its list
    // (DIR/ratings.txt) itself (docs/archive.md)
    const pairs = [[1, 2, 1, 3], [2, 3, 2, 1], [3, 1, 4, 1]]; // white, black, their levels
    for (const [k, [w, b, lw, lb]] of pairs.entries()) {
      const log = join(dir, `g${k}.log`);
      await play(['host', 'laska', '--clock', '5+0', '--lobby', lobby.listen, '--key', ids[w].file,
        `--bot=${lw}`, '--delay', '0', '--seed', String(10 + k), '--log', log],
      (code) => ['join', code, '--lobby', lobby.listen, '--key', ids[b].file, `--bot=${lb}`,
        '--delay', '0', '--seed', String(20 + k)], dir);
    }
    // By hand: three games through the relay, each kept once and rated;
    // three players.
    let published = '';
    for (let i = 0; i < 300 && !published.endsWith('ratings: games 3 logs 3 skipped 0\n'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      try { published = readFileSync(join(arch, 'ratings.txt'), 'utf8'); } catch { published = ''; }
    }
    if (!published.endsWith('ratings: games 3 logs 3 skipped 0\n') ||
        (published.match(/^rating: /gm) ?? []).length !== 3)
      fails.push(`the published list is not the one the games give: ${published}`);

    const page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    if (env.WEB_CONSOLE) page.on('console', (m) => console.log(`page: ${m.text()}`));
    await page.goto(`${lobby.base}/`);
    await page.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 });
    await page.waitForFunction(() => !document.getElementById('ratings-open-p').hidden, { timeout: 10000 })
      .catch(() => fails.push('the start page offers no Ratings'));
    await page.click('#ratings-open');
    await page.waitForFunction(() => !document.getElementById('club').hidden &&
      document.querySelectorAll('#ratings-tables table tr').length > 1, { timeout: 10000 });
    const rows = await page.$$eval('#ratings-tables table tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent).join(' ')).filter(Boolean));
    for (const line of published.split('\n').filter((l) => l.startsWith('rating: '))) {
      const [, , , fp, r, rd, , games] = line.split(' ');
      if (!rows.includes(`${fp} ${r} ${rd} ${games}`)) fails.push(`the view lacks ${line}: ${rows}`);
    }
    const check = async () => {
      await page.click('#ratings-check');
      await page.waitForFunction(() => /equals|differs/.test(document.getElementById('ratings-verdict').textContent)
        || document.getElementById('club-view-error').textContent, { timeout: 30000 });
      return page.evaluate(() => document.getElementById('ratings-verdict').textContent
        + document.getElementById('club-view-error').textContent);
    };
    const good = await check();
    if (env.WEB_SHOTS) await page.screenshot({ path: join(env.WEB_SHOTS, 'web-club-ratings.png'), fullPage: true });
    if (!/equals the published one, byte for byte/.test(good) || !/from 3 logs/.test(good))
      fails.push(`Check on the published list: ${good}`);
    // One digit of line 2 changed (the second player's rating).
    const lines = published.split('\n');
    const f = lines[1].split(' ');
    f[4] = String((Number(f[4]) + 1) % 10000);
    const forged = [lines[0], f.join(' '), ...lines.slice(2)].join('\n');
    writeFileSync(join(arch, 'ratings.txt'), forged);
    await page.goto('about:blank'); // (the same URL again would not load the page again)
    await page.goto(`${lobby.base}/#ratings`);
    await page.waitForFunction(() => window.tabulaPage?.ready && !document.getElementById('club').hidden,
      { timeout: 60000 });
    const bad = await check();
    if (!bad.includes('at line 2:') || !bad.includes(f.join(' ')) || !bad.includes(lines[1]))
      fails.push(`Check on a list with a digit changed: ${bad}`);

    // ---- a tournament: three players, a round robin on bot games
    const tdir = join(arch, 'tournaments');
    run(['tournament', 'create', 'club-open', '--game', 'laska', '--system', 'rr', '--clock', '5+0',
      '--name', 'Club Open', '--key', ids[0].file], tdir);
    run(['tournament', 'register', 'club-open', ids[1].pk, '--name', 'Ann', '--key', ids[0].file], tdir);
    run(['tournament', 'register', 'club-open', ids[2].pk, '--name', 'Bob', '--key', ids[0].file], tdir);
    run(['tournament', 'register', 'club-open', ids[3].pk, '--key', ids[0].file], tdir);
    const shown = { [ids[1].fp]: 'Ann', [ids[2].fp]: 'Bob', [ids[3].fp]: ids[3].fp };
    const byFp = { [ids[1].fp]: 1, [ids[2].fp]: 2, [ids[3].fp]: 3 };
    const half = { Ann: 0, Bob: 0, [ids[3].fp]: 0 };
    const boards = []; // [round, white, black, result text]
    for (let r = 1; r <= 3; r++) {
      const out = run(['tournament', 'pair', 'club-open', '--lobby', lobby.listen, '--key', ids[0].file], tdir);
      const bye = out.match(/^round \d+: (\S+) bye$/m);
      if (bye) half[shown[bye[1]]] += 2; // the pairing-allocated bye: a win
      const g = out.match(/^round \d+: (\S+) - (\S+)$/m);
      const white = out.match(/^ {2}white: tabula (.*) --me (.*)$/m);
      const black = out.match(/^ {2}black: tabula (.*) --me$/m);
      const w = byFp[g[1]], b = byFp[g[2]];
      const log = join(dir, `t${r}.log`);
      const host = await play([...white[1].split(' '), '--key', ids[w].file, ...white[2].split(' '),
        `--bot=${r}`, '--delay', '0', '--seed', String(30 + r), '--log', log],
      () => [...black[1].split(' '), '--key', ids[b].file, `--bot=${4 - r}`, '--delay', '0',
        '--seed', String(40 + r)], dir);
      const h = whiteHalf(host);
      half[shown[g[1]]] += h;
      half[shown[g[2]]] += 2 - h;
      boards.push([r, shown[g[1]], shown[g[2]], ['0-1', '0.5-0.5', '1-0'][h]]);
      run(['tournament', 'collect', 'club-open', log, '--key', ids[0].file], tdir);
    }
    await page.goto(`${lobby.base}/#tournament=/archive/tournaments/club-open/`);
    await page.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 });
    await page.waitForFunction(() => !document.getElementById('tourney-view').hidden ||
      document.getElementById('club-error').textContent, { timeout: 20000 });
    const view = await page.evaluate(() => ({
      name: document.getElementById('tourney-name').textContent,
      facts: document.getElementById('tourney-facts').textContent,
      refused: document.getElementById('tourney-refused').textContent,
      error: document.getElementById('club-error').textContent,
      boards: [...document.querySelectorAll('#tourney-rounds table.pairings')].flatMap((t) =>
        [...t.querySelectorAll('tr')].slice(1).map((tr) =>
          [t.dataset.round, ...[...tr.querySelectorAll('td')].map((td) => td.textContent)].join('|'))),
      cross: [...document.querySelectorAll('#tourney-crosstable tr')].slice(1).map((tr) =>
        [...tr.querySelectorAll('td')].map((td) => td.textContent)),
      check: document.getElementById('tourney-standings-check').textContent,
    }));
    if (env.WEB_SHOTS) await page.screenshot({ path: join(env.WEB_SHOTS, 'web-club-tournament.png'), fullPage: true });
    if (view.name !== 'Club Open' || !view.facts.includes('Laska') || !view.facts.includes('300+0') ||
        !view.facts.includes(ids[0].fp) || view.refused || view.error)
      fails.push(`the tournament's facts: ${JSON.stringify(view)}`);
    // (a row: round|board|white|black|result; the bye has a board too)
    const shownBoard = (rows, r, w, b, res) =>
      rows.some((x) => x.startsWith(`${r}|`) && x.endsWith(`|${w}|${b}|${res}`));
    for (const [r, w, b, res] of boards) {
      if (!shownBoard(view.boards, r, w, b, res))
        fails.push(`round ${r}: ${w} - ${b} ${res} not shown: ${view.boards}`);
    }
    // The crosstable's rows: best first, each with the points by hand.
    const pts = (h) => (h % 2 ? `${(h - 1) / 2}.5` : String(h / 2));
    const want = Object.entries(half).sort((a, b) => b[1] - a[1]);
    for (const [name, h] of want) {
      const row = view.cross.find((c) => c[1] === name);
      if (!row || row[2 + 3] !== pts(h)) fails.push(`${name} should have ${pts(h)}: ${JSON.stringify(view.cross)}`);
    }
    if (want[0][1] > want[1][1] && view.cross[0]?.[1] !== want[0][0])
      fails.push(`${want[0][0]} should lead: ${JSON.stringify(view.cross)}`);
    if (!/standings the director signed/.test(view.check) || /differ/.test(view.check))
      fails.push(`the published standings: ${view.check}`);

    // A copy with one byte of round 2's results changed (a hex digit of
    // its game's log hash): refused, named, its result not shown.
    cpSync(join(tdir, 'club-open'), join(tdir, 'forged'), { recursive: true });
    const file = join(tdir, 'forged', 'round-2.results');
    const text = readFileSync(file, 'utf8');
    const at = text.indexOf('\ngame ') + 1;
    const hashAt = text.indexOf('\n', at) - 1; // the last digit of the hash
    const digit = text[hashAt] === '0' ? '1' : '0';
    writeFileSync(file, text.slice(0, hashAt) + digit + text.slice(hashAt + 1));
    await page.goto(`${lobby.base}/#tournament=/archive/tournaments/forged/`);
    await page.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 });
    await page.waitForFunction(() => document.getElementById('tourney-refused').textContent, { timeout: 20000 })
      .catch(() => {});
    const forgedView = await page.evaluate(() => ({
      refused: document.getElementById('tourney-refused').textContent,
      boards: [...document.querySelectorAll('#tourney-rounds table.pairings')].flatMap((t) =>
        [...t.querySelectorAll('tr')].slice(1).map((tr) =>
          [t.dataset.round, ...[...tr.querySelectorAll('td')].map((td) => td.textContent)].join('|'))),
    }));
    const [, w2, b2, res2] = boards[1];
    if (!forgedView.refused.includes('round-2.results') || !/signature/.test(forgedView.refused))
      fails.push(`the forged results are not refused by name: ${JSON.stringify(forgedView)}`);
    if (!shownBoard(forgedView.boards, 2, w2, b2, '') || shownBoard(forgedView.boards, 2, w2, b2, res2))
      fails.push(`the forged round's result is shown: ${forgedView.boards}`);
    if (errors.length) fails.push(`page errors: ${errors}`);
  } catch (e) {
    fails.push(e.stack ?? String(e));
  } finally {
    await browser.close();
    lobby.close();
    if (!fails.length) rmSync(dir, { recursive: true, force: true });
  }
  console.log(fails.length ? `club FAILED\n${fails.join('\n')}` : 'club ok');
  return fails.length ? 1 : 0;
}
