// browser_pool.mjs: the pool on the page (issue 37; browser.mjs netpool,
// run by tests/web/web_pool.sh), three players against real processes:
// the page and two terminals `tabula pool`, each with its own identity,
// on `tabula lobby --http` or, with redis, on two `tabula lobby --redis`
// nodes of one redis-server (the page on one, the terminals on the
// other). docs/pool.md's worked example with the page as A: the page's
// form refuses a range out of order in the terminal's words, then offers
// laska and chessball at 3+2..10+5 and shows the count the relay sends;
// C (`tabula pool laska --clock 15+10..30+0`) waits and the page shows
// laska 2, chessball 1; B (`tabula pool chessball --clock 5+0`) pairs with
// the page, which hosts chessball at 5+0 (the older offer hosts) and its
// bot plays it out: one final hash on both. C is told laska 1 and waits
// on; the page then offers laska at 30+0, which C's offer (older) hosts:
// the page plays as guest, held to C's game and clock, one hash on both.
// Last a second tab of the browser (the same identity) is refused an
// offer while the first's waits, and that one is withdrawn with Cancel.
// On one lobby last: an offer waits, the lobby is killed and started
// again on its addresses, and the page says the connection was lost and
// makes the same offer again, which the new lobby counts (seat_pool_lost).
// Prints "netpool ..." lines and
// returns 0 or 1.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { env } from 'node:process';
import { lobbyServer, launchBrowser, redisServer, terminals, waitOut, verdict } from './page_util.mjs';

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

export async function netPool(useRedis = false) {
  const home = await mkdtemp(join(tmpdir(), 'tabula-netpool-'));
  const redis = useRedis ? await redisServer() : null;
  const extra = redis ? ['--redis', redis.url] : [];
  const lobby = await lobbyServer(env.TABULA_BINARY, extra);
  const other = redis ? await lobbyServer(env.TABULA_BINARY, extra) : lobby;
  const browser = await launchBrowser();
  const errors = [];
  const term = terminals();
  const say = (w) => { if (env.WEB_NET_DEBUG) console.error(`netpool: ${w}`); };
  // A terminal player of its own (its identity and seats' folders).
  const run = (who, args) => term.run(args, { ...env, XDG_CONFIG_HOME: join(home, who, 'config'),
    XDG_DATA_HOME: join(home, who, 'data') });
  // The page's pool counts as the relay last told them, once they are want.
  const counts = async (page, want, what) => {
    await page.waitForFunction((w) => JSON.stringify(window.tabulaPage.pool?.counts) === w,
      { timeout: 20000, polling: 100 }, JSON.stringify(want)).catch(async () => {
      throw new Error(`${what}: the page's counts ${JSON.stringify(await page.evaluate(() =>
        ({ pool: window.tabulaPage.pool, status: document.getElementById('pool-status').textContent,
          error: document.getElementById('pool-error').textContent }))) }, expected ${JSON.stringify(want)}`);
    });
    return page.$eval('#pool-status', (e) => e.textContent);
  };
  const offer = async (page, games, clock) => {
    await page.$$eval('#pool-games input', (boxes, g) => {
      for (const b of boxes) b.checked = g.includes(b.value);
    }, games);
    await page.$eval('#pool-clock', (e, c) => { e.value = c; }, clock);
    await page.select('#pool-bot', '1');
    await page.click('#pool-offer');
  };
  // The page's game to its end: {hash, role, plies, shown}.
  const played = async (page) => {
    await page.waitForFunction(() => window.tabulaPage.game?.final, { timeout: 300000, polling: 200 });
    return page.evaluate(() => ({ hash: window.tabulaPage.game.final, role: window.tabulaPage.game.role,
      name: window.tabulaPage.game.name, options: window.tabulaPage.game.options,
      plies: window.tabulaPage.game.moves.length,
      shown: document.getElementById('final').textContent.slice(12) }));
  };
  let lobby2 = null;
  return verdict('netpool', errors, async () => {
    const page = await browser.newPage();
    await page.setViewport({ width: 1100, height: 760 });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${lobby.base}/`);
    await page.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 });
    // The form: a box per game of the module's catalogue; a range out of
    // order refused in the terminal's words (seat_clock_range_bad).
    const boxes = await page.$$eval('#pool-games input[type=checkbox]', (b) => b.map((x) => x.value));
    if (!boxes.includes('laska') || !boxes.includes('chessball'))
      throw new Error(`the pool form's games: ${JSON.stringify(boxes)}`);
    await offer(page, ['laska', 'chessball'], '10+5..3+2');
    await page.waitForFunction(() => document.getElementById('pool-error').textContent !== '',
      { timeout: 10000, polling: 50 });
    const refused = await page.$eval('#pool-error', (e) => e.textContent);
    if (!/10\+5\.\.3\+2/.test(refused) || await page.evaluate(() => window.tabulaPage.pool !== null))
      throw new Error(`a range out of order: ${JSON.stringify(refused)}`);
    say(`refused: ${refused}`);
    // A rating range out of order refused in the terminal's words too
    // (seat_rating_range_bad; the form's Ratings, issue 38).
    await page.$eval('#pool-rating', (e) => { e.value = '1800..1400'; });
    await offer(page, ['laska'], '5+0');
    await page.waitForFunction(() => /1800\.\.1400/.test(document.getElementById('pool-error').textContent),
      { timeout: 10000, polling: 50 }).catch(() => {});
    const badRating = await page.$eval('#pool-error', (e) => e.textContent);
    if (badRating !== "bad rating range '1800..1400'; expected LO..HI, whole ratings from 1 to 65535, e.g. 1400..1800" ||
        await page.evaluate(() => window.tabulaPage.pool !== null))
      throw new Error(`a rating range out of order: ${JSON.stringify(badRating)}`);
    await page.$eval('#pool-rating', (e) => { e.value = ''; });

    // A: the page, laska and chessball at 3+2..10+5.
    await offer(page, ['laska', 'chessball'], '3+2..10+5');
    const alone = await counts(page, [{ game: 'laska', n: 1 }, { game: 'chessball', n: 1 }], 'the page alone');
    say(`alone: ${alone}`);
    // C: laska at 15+10..30+0 shares laska with the page, not a clock.
    const c = run('c', ['pool', 'laska', '--clock', '15+10..30+0', '--bot=1', '--delay', '50',
      '--lobby', other.listen]);
    await waitOut(c, /^pool: waiting \(laska 2\)$/m, 'C waiting');
    const both = await counts(page, [{ game: 'laska', n: 2 }, { game: 'chessball', n: 1 }], 'the page and C');
    if (!/Laska.*: 2 waiting, .*Chessball.*: 1 waiting/.test(both))
      throw new Error(`the page's counts in words: ${JSON.stringify(both)}`);
    console.log(`netpool waiting page '${both}'`);
    if (await page.$eval('#pool-cancel', (e) => e.hidden)) throw new Error('no Cancel while the offer waits');
    // B: chessball at 5+0 pairs with the page (older: it hosts) at 5+0.
    const b = run('b', ['pool', 'chessball', '--clock', '5+0', '--bot=1', '--lobby', other.listen]);
    await waitOut(b, /^pool: paired: guest chessball 5\+0$/m, 'B paired');
    const first = await played(page);
    const codeB = await b.exit;
    const hashB = b.out.match(/^final-hash: (\S+)$/m)?.[1] ?? '-';
    console.log(`netpool paired host ${first.name} ${first.options} page ${first.shown} terminal ${hashB} plies ${first.plies} exit ${codeB}`);
    if (first.role !== 0 || first.name !== 'chessball' || first.options !== 'clock=300+0' ||
        first.hash !== hashB || first.shown !== hashB || codeB !== 0)
      throw new Error(`the page's pool game as host: ${JSON.stringify(first)}, terminal ${hashB} exit ${codeB}: ${b.err}`);
    // C waits on, told the counts of its game.
    await waitOut(c, /^pool: waiting \(laska 1\)$/m, 'C after the pairing');
    say('C told laska 1');

    // The page again, laska at 30+0: C (older) hosts, the page is its guest.
    await page.click('#new');
    await page.waitForFunction(() => !document.getElementById('start').hidden, { timeout: 10000 });
    await offer(page, ['laska'], '30+0');
    await waitOut(c, /^pool: paired: host laska 30\+0$/m, 'C paired');
    const second = await played(page);
    const codeC = await c.exit;
    const hashC = c.out.match(/^final-hash: (\S+)$/m)?.[1] ?? '-';
    console.log(`netpool paired guest ${second.name} page ${second.shown} terminal ${hashC} plies ${second.plies} exit ${codeC}`);
    if (second.role !== 1 || second.name !== 'laska' || second.hash !== hashC || second.shown !== hashC || codeC !== 0)
      throw new Error(`the page's pool game as guest: ${JSON.stringify(second)}, terminal ${hashC} exit ${codeC}: ${c.err}`);

    // An offer withdrawn: Cancel, and the form is back.
    await page.click('#new');
    await page.waitForFunction(() => !document.getElementById('start').hidden, { timeout: 10000 });
    await offer(page, ['chessball'], '');
    await counts(page, [{ game: 'chessball', n: 1 }], 'a lone offer without a clock');
    // A second tab of this browser is the same player (its identity key
    // proves both offers): the lobby refuses its offer while one waits.
    const tab = await browser.newPage();
    tab.on('pageerror', (e) => errors.push(String(e)));
    await tab.goto(`${lobby.base}/`);
    await tab.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 });
    await offer(tab, ['chessball'], '');
    await tab.waitForFunction(() => document.getElementById('pool-error').textContent !== '',
      { timeout: 20000, polling: 100 });
    const twice = await tab.evaluate(() => ({ error: document.getElementById('pool-error').textContent,
      pool: window.tabulaPage.pool, offer: !document.getElementById('pool-offer').hidden }));
    if (twice.error !== 'the lobby did not take the offer: an offer of yours waits on this lobby already (one waits at a time)' ||
        twice.pool !== null || !twice.offer)
      throw new Error(`a second tab's offer: ${JSON.stringify(twice)}`);
    console.log(`netpool second tab '${twice.error}'`);
    await tab.close();
    await page.bringToFront();
    await page.click('#pool-cancel');
    const gone = await page.evaluate(() => ({ pool: window.tabulaPage.pool,
      status: document.getElementById('pool-status').textContent,
      offer: !document.getElementById('pool-offer').hidden }));
    if (gone.pool !== null || gone.status !== 'You withdrew your offer.' || !gone.offer)
      throw new Error(`Cancel: ${JSON.stringify(gone)}`);

    // The page's lobby killed while its offer waits, then started again
    // where it was: the page says the connection was lost and offers
    // again (seat_pool_lost), and the new lobby counts it (one lobby:
    // the page's lobby is the one that served it).
    if (redis) return;
    await offer(page, ['chessball'], '');
    await counts(page, [{ game: 'chessball', n: 1 }], 'an offer before its lobby goes');
    const at = { listen: lobby.listen, http: new URL(lobby.base).host };
    await lobby.kill();
    await page.waitForFunction(() => window.tabulaPage.pool?.away === true, { timeout: 20000, polling: 20 });
    const away = await page.$eval('#pool-status', (e) => e.textContent);
    if (away !== 'the connection to the lobby was lost; offering again…')
      throw new Error(`the page's words while its lobby is away: ${JSON.stringify(away)}`);
    lobby2 = await lobbyServer(env.TABULA_BINARY, extra, at);
    await counts(page, [{ game: 'chessball', n: 1 }], 'the offer made again to the lobby started again');
    const back = await page.$eval('#pool-status', (e) => e.textContent);
    if (!/^In the pool: Chessball.*: 1 waiting$/.test(back))
      throw new Error(`the page's words once its lobby is back: ${JSON.stringify(back)}`);
    console.log(`netpool lobby restarted '${away}' then '${back}'`);
    await page.click('#pool-cancel');
  }, async () => {
    lobby2?.close();
    term.stop();
    await browser.close();
    lobby.close();
    if (other !== lobby) other.close();
    redis?.close();
    await rm(home, { recursive: true, force: true });
  });
}
