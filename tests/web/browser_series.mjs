// browser_series.mjs: a series on the page (issue 38; browser.mjs
// netseries, run by tests/web/web_series.sh) against a terminal player
// through a real `tabula lobby --http`. The page hosts a series of three
// laska games with its bot (the host form's Games); a terminal joins
// game 1 with the invite code (`tabula join CODE --bot=1`) and plays the
// rest as `tabula host --series` does, with no code typed. Checked: the
// page hosts games 1 and 3 and is the guest of game 2 (the terminal says
// "series: game 2 of 3: you are white"); each game's final hash is one on
// both sides; the page lists the three games, each with its log; its
// series line after the last game and the terminal's last "series:" line
// give the score derived here by hand from the three results (a win 1, a
// draw 1/2, the page White in games 1 and 3); the terminal exits 0. The
// page is reloaded in the pause after game 1 and again during game 2, and
// goes on with the series each time.
// Prints "netseries ..." lines and returns 0 or 1.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { env } from 'node:process';
import { lobbyServer, launchBrowser, terminals, waitOut, verdict } from './page_util.mjs';

export async function netSeries() {
  const home = await mkdtemp(join(tmpdir(), 'tabula-netseries-'));
  const lobby = await lobbyServer(env.TABULA_BINARY);
  const browser = await launchBrowser();
  const errors = [];
  const term = terminals();
  return verdict('netseries', errors, async () => {
    const page = await browser.newPage();
    await page.setViewport({ width: 1100, height: 760 });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${lobby.base}/`);
    await page.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 });
    // a series of 1000 games is refused in words, the form kept
    await page.select('#net-game', 'laska');
    await page.$eval('#net-series', (e) => { e.value = '1000'; });
    await page.click('#net-host button[type=submit]');
    await page.waitForFunction(() => document.getElementById('net-host-error').textContent !== '',
      { timeout: 10000, polling: 50 });
    const refused = await page.$eval('#net-host-error', (e) => e.textContent);
    if (refused !== 'a series is 2..99 games') throw new Error(`a series of 1000: ${JSON.stringify(refused)}`);

    await page.$eval('#net-series', (e) => { e.value = '3'; });
    await page.select('#net-host-bot', '1');
    await page.click('#net-host button[type=submit]');
    await page.waitForFunction(() => window.tabulaPage.game?.room?.invite, { timeout: 30000, polling: 100 });
    const code = await page.evaluate(() => window.tabulaPage.game.room.invite);
    const line1 = await page.$eval('#series-line', (e) => e.textContent);
    const t = term.run(['join', code, '--lobby', lobby.listen, '--bot=1', '--delay', '0', '--seed', '5'],
      { ...env, LANGUAGE: 'en', XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data') });
    await page.waitForFunction(() => document.getElementById('series-line').textContent !== '',
      { timeout: 60000, polling: 100 });
    const shown1 = await page.$eval('#series-line', (e) => e.textContent);
    if (line1 !== '' || shown1 !== 'Series: game 1 of 3; score: you 0 - opponent 0')
      throw new Error(`game 1's series line: ${JSON.stringify([line1, shown1])}`);
    // the page reloaded in the pause after game 1 goes on with the series
    // (its pending series in this tab's storage) with game 1 still listed
    await page.waitForFunction(() => window.tabulaPage.game?.seriesGames?.length === 1,
      { timeout: 300000, polling: 50 });
    await page.reload();
    await page.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 });
    const after = await page.evaluate(() => ({ n: window.tabulaPage.game?.seriesGames?.length,
      role: window.tabulaPage.game?.role }));
    if (after.n !== 1 || after.role !== 1)
      throw new Error(`after a reload between games: ${JSON.stringify(after)}`);
    await waitOut(t, /^series: game 2 of 3: you are white$/m, 'the terminal hosting game 2');
    // the page is game 2's guest (Black)
    await page.waitForFunction(() => window.tabulaPage.game?.role === 1 && window.tabulaPage.game.pos,
      { timeout: 60000, polling: 100 });
    const shown2 = await page.$eval('#series-line', (e) => e.textContent);
    if (!/^Series: game 2 of 3; score: you [01](\.5)? - opponent [01](\.5)?$/.test(shown2))
      throw new Error(`game 2's series line: ${JSON.stringify(shown2)}`);
    // reloaded during game 2: its kept seat is taken back held to the
    // series (web_series_resume), game 1 still listed, the line the same
    await page.reload();
    await page.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 });
    await page.waitForFunction(() => window.tabulaPage.game?.role === 1 && window.tabulaPage.game.pos &&
      document.getElementById('series-line').textContent !== '', { timeout: 60000, polling: 100 });
    const again = await page.evaluate(() => ({ n: window.tabulaPage.game.seriesGames.length,
      line: document.getElementById('series-line').textContent }));
    if (again.n !== 1 || again.line !== shown2)
      throw new Error(`after a reload in game 2: ${JSON.stringify(again)}, before '${shown2}'`);
    const status = await t.exit;
    await page.waitForFunction(() => window.tabulaPage.game?.seriesGames?.length === 3,
      { timeout: 300000, polling: 200 });
    const seen = await page.evaluate(() => ({ role: window.tabulaPage.game.role,
      final: window.tabulaPage.game.final,
      games: window.tabulaPage.game.seriesGames.map((g) => g.outcome),
      line: document.getElementById('series-line').textContent,
      links: [...document.querySelectorAll('#series-games a')].map((a) => a.download),
      items: [...document.querySelectorAll('#series-games li')].map((li) => li.textContent) }));
    // the score by hand: the page White in games 1 and 3, Black in 2
    const half = { '1-0': [2, 0], '0-1': [0, 2], '1/2-1/2': [1, 1] };
    let me = 0;
    let them = 0;
    seen.games.forEach((o, i) => {
      const [w, b] = half[o];
      me += i === 1 ? b : w;
      them += i === 1 ? w : b;
    });
    const pts = (h) => `${Math.floor(h / 2)}${h % 2 ? '.5' : ''}`;
    const hashes = [...t.out.matchAll(/^final-hash: (\S+)$/mg)].map((m) => m[1]);
    const last = [...t.out.matchAll(/^series: game 3 of 3: \S+; you (\S+) - opponent (\S+)$/mg)][0];
    console.log(`netseries games ${seen.games.join(' ')} page '${seen.line}' terminal '${last?.[0]}' exit ${status}`);
    if (status !== 0 || seen.role !== 0 || hashes.length !== 3 || hashes[2] !== seen.final)
      throw new Error(`the last game: ${JSON.stringify(seen)} terminal ${status} ${JSON.stringify(hashes)}: ${t.out} ${t.err}`);
    if (seen.line !== `Series: game 3 of 3; score: you ${pts(me)} - opponent ${pts(them)}`)
      throw new Error(`the page's score ${JSON.stringify(seen.line)}, by hand ${pts(me)} - ${pts(them)}`);
    if (!last || last[1] !== pts(them) || last[2] !== pts(me))
      throw new Error(`the terminal's score: ${JSON.stringify(last?.[0])}, by hand ${pts(them)} - ${pts(me)}`);
    if (seen.links.length !== 3) throw new Error(`the games' logs: ${JSON.stringify(seen.links)}`);
    // each game listed with its result and the side the page played
    const sides = ['(you are White)', '(you are Black)', '(you are White)'];
    seen.items.forEach((text, i) => {
      if (!text.startsWith(`${seen.games[i]} (`) || !text.includes(sides[i]))
        throw new Error(`game ${i + 1} listed as ${JSON.stringify(text)}`);
    });
  }, async () => {
    term.stop();
    await browser.close();
    lobby.close();
  });
}
