// browser.mjs: runs Tabula's WebAssembly core inside a real headless
// Chromium (Debian's chromium, driven by puppeteer-core) for the tests and
// benchmarks of issue 14. It serves web/, the built module and the golden
// files from a server of its own on a free loopback port (the page as
// build-wasm/site holds it), opens tests/web/check.html, and then:
//   node tests/web/browser.mjs golden [DIR]
//       replays every vector of DIR/GAME.txt (default tests/golden) in the
//       page: each move played by the module, each state hash compared
//       with the file's. Prints one line per file; exit 1 on a mismatch.
//   node tests/web/browser.mjs play GAME PLIES [SCREENSHOT.png]
//       a game on web/index.html against the bot, moves clicked on the
//       board; prints the game as a plain record, then page-final-hash.
//       With TABULA_BINARY set, the page comes from `tabula lobby --http`.
//   node tests/web/browser.mjs playreload GAME
//       a game of GAME against the bot, reloaded on the bot's turn (it
//       answers), on ours (the same game, players, seed and moves), with a
//       second tab's game beside it, once resigned (it comes back
//       finished), after New game (the start page) and with a kept move
//       the module refuses (dropped). Prints "playreload GAME ok plies N".
//   node tests/web/browser.mjs replay FILE
//       FILE dropped on the page's replay box; prints "page-replay: ok
//       PLIES FINAL-HASH" or "page-replay: FAILED ..." as the page says,
//       and for a verified log "page-status: TEXT" (its status line at
//       the last ply), before it "page-back: ok" when both New game and
//       the browser's Back leave the replay for the start page.
//   node tests/web/browser.mjs net OUTDIR GAME...
//       network games, terminal against browser (TABULA_BINARY needed):
//       for each GAME `tabula host GAME --bot=3 --http 127.0.0.1:0` hosts
//       with its embedded lobby serving the page; one browser opens the
//       #join=CODE&bot=1 link it prints, a second page opens its #watch=
//       link two plies in (the host's bot waits 200 ms a move, so the
//       game is under way); the game is played out and the
//       page's log is downloaded into OUTDIR/net-GAME.log. Prints per game
//       "net GAME host HEX page HEX spectator HEX plies N" (the final
//       hashes as each shows them); screenshots in OUTDIR/web-net-GAME.png.
//   node tests/web/browser.mjs nethost GAME
//       the other way round: `tabula lobby --http` serves the page, the
//       page hosts GAME from its start page's form (the bot at level 3
//       plays its seat), `tabula join CODE --lobby ADDR --bot=1` joins
//       with the command the page's room line shows. Prints "nethost GAME page HEX
//       terminal HEX plies N".
//   node tests/web/browser.mjs nethost GAME tls
//       the same over TLS: `tabula lobby --tls-cert --tls-key` with a
//       self-signed certificate the browser is told to trust (its SPKI
//       hash), the page over https://, its seat over wss://.
//   node tests/web/browser.mjs nettabs
//       two tabs of one browser: the page hosts laska from its start page,
//       its #join= link opens in a second tab, both type moves; the
//       guest's tab is closed (asked first) and its link opened again
//       takes the seat back; the host's tab closed, a third tab's start
//       page lists its game and Resume takes it back. Prints "nettabs ...".
//   node tests/web/browser.mjs netresign
//       a person's seat: `tabula host laska --bot=3 --clock 5+3 --http`
//       hosts, the page opens the #join= link without a bot, shows both
//       clocks (rounded down to the second), types a refused move, then a
//       move and at once Take back (its message line says the takeback
//       waits, then that it went), is reloaded
//       (its seat comes back), waits 1.5 s on its turn and is reloaded
//       again (its clock went on: lower by at least the wait), then
//       presses Resign twice (it asks once). Prints "netresign page HEX terminal HEX result R
//       ... turn-clock BEFORE -> AFTER ms ... clocks C".
//   node tests/web/browser.mjs perft GAME DEPTH [ROUNDS]
//       perft from the start in the page at every depth 1..DEPTH, as
//       `tabula perft GAME DEPTH` counts its total, after the same count
//       once untimed (V8's tier-up): one line per round,
//       "wasm-chromium-GAME depth D nodes N seconds S nps R cpu-seconds C
//       cpu-nps R main-cpu-seconds C main-cpu-nps R" (C: processor time of
//       the page's renderer processes, all threads, then their main thread
//       alone, which a loaded machine does not inflate as it does wall
//       time). CHROMIUM_FLAGS adds switches to every browser started here.
//   node tests/web/browser.mjs bot GAME LEVEL PLIES [SEED]
//       the page's bot (web/bot-worker.js, a Web Worker) plays both sides
//       for PLIES plies from the start at LEVEL with SEED (default 1) for
//       every move: one line per move, "web-bot GAME ply I seconds S
//       cpu-seconds C move MOVE" (C: the renderer processes' processor
//       time, so the worker's), after the first move searched once
//       untimed to warm the worker up.
//   node tests/web/browser.mjs figurines
//       a game of Football chess and one of Chess volleyball 10x10 against
//       the bot: the board's rank 1 shows the solid chess figurines of
//       the Unicode standard (U+265A BLACK CHESS KING .. U+265E BLACK
//       CHESS KNIGHT) where the rules put each piece, the ball U+25CF on
//       e5, the 10x10 jack and cat as letters, each square's title naming
//       its piece, the sides told by colour, and the help's Board part
//       naming the figurines. Prints "figurines ok" or throws.
//   node tests/web/browser.mjs ballmap
//       Chessball's flat map: its 32 fields named as players name them
//       (docs/rules/chessball.md: the poles a and h, rows b to g with
//       fields 1 to 5), one cell each, its rows labelled a..h and no
//       column labels (the columns are longitudes, once labelled in
//       degrees). Prints "ballmap ok" or throws.
//   node tests/web/browser.mjs vball
//       a game of Chess volleyball between two people on the page: once
//       the ball is served, one cell shows the ball as U+25CF, titled
//       "SQUARE: the ball", and no cell the letter o; the help's Board
//       part says "● is the ball". Prints "vball ok" or throws.
//   node tests/web/browser.mjs load GAME
//       a fresh browser (empty cache) opens the start page, then a game of
//       GAME against the bot: "page-load GAME start-ms T start-bytes B
//       board-ms T board-bytes B files N": ms from navigation to the start
//       page ready (module compiled), then from the game asked for to its
//       board drawn; bytes over the wire (the browser's transferSize:
//       headers and bodies as served) for each step.
//   WEB_PHONE=1 WEB_WIDTH=390 WEB_HEIGHT=844 node tests/web/browser.mjs phone GAME [PNG]
//       a game against the bot on a phone-sized screen: nothing wider than
//       the screen, one move tapped on the board, then one played from the
//       keyboard alone (Tab to the move box, type, Enter), its help free
//       of the terminal's keys; with WEB_PHONE_LONG=1 then a long game
//       (longGameLayout); prints "phone GAME ok width W board B tabs T
//       [long ...]" or throws.
//   WEB_LANGS=cs-CZ,cs WEB_EXPECT=JSON node tests/web/browser.mjs lang LANG
//       the page's languages: the browser's languages set to WEB_LANGS
//       (navigator.languages and Accept-Language), the start page must
//       show WEB_EXPECT's texts (msgid -> the catalogue's translation, as
//       tests/web/web_lang.sh takes them from po/LANG.po); a game's status,
//       an illegal move's error name, a resignation's final-hash line;
//       then the switch: EN shows the English texts with the same
//       final-hash line, the choice survives a reload. Prints "lang LANG
//       ok final-hash HEX" or throws.
//   WEB_BOT_LEVELS='MIN MAX PLAY' node tests/web/browser.mjs levels
//       the start page's opponents: the bot at exactly the levels MIN..MAX
//       (engine/engine.h, as web_policy.sh reads them), level PLAY chosen
//       at first, then a friend; the network forms' players: you, then
//       the bot at MIN..MAX. Prints "levels ok MIN..MAX" or throws.
//   node tests/web/browser.mjs policy | stale
//       the page asking the seat layer as the terminal does, and the page
//       findings of its old copies (tests/web/web_policy.sh).
//   node tests/web/browser.mjs offer
//       a draw offered on the page's turn: the page says it goes with its
//       move, the terminal's accept waits for its turn (browser_net.mjs).
// The site is $WASM_DIR/site (default build-wasm), made by
// scripts/build-wasm.sh. What the checks share is in page_util.mjs, the
// network checks (net, nethost, netclaim, netresign, policy, stale) in
// browser_net.mjs; this file holds the rest and picks the check.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { readFile, readdir, rename } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { argv, env, exit } from 'node:process';
import { root, puppeteer, wasmDir, serve, lobbyServer, withPage, launchBrowser, terminalHost } from './page_util.mjs';
import { netCorr } from './browser_corr.mjs';
import { clubPages } from './browser_club.mjs';
import { netSeries } from './browser_series.mjs';
import { netPool } from './browser_pool.mjs';
import { netPages, netHost, netClaim, netWatch, storyPage, netResign, netTabs, policyPage, stalePage, offerPage, netSeek, netSeekRedis } from './browser_net.mjs';

// Golden files parsed here (test data, not rules); hashes come from the
// module in the page.
async function golden(dir) {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.txt')).sort();
  let failed = 0, checked = 0;
  await withPage(async (page, games) => {
    for (const f of files) {
      const text = await readFile(join(dir, f), 'utf8');
      const lines = text.split('\n').map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'));
      if (!lines.length || !lines[0].startsWith('game ')) continue;
      const game = lines[0].slice(5);
      if (!games.includes(game)) {
        console.log(`${f}: game ${game} not compiled in`);
        failed++;
        continue;
      }
      const r = await page.evaluate((g, ls) => {
        const t = window.tabula;
        let vectors = 0, plies = 0, pos = null, options = '', position = '';
        const bad = [];
        for (const l of ls.slice(1)) {
          const sp = l.indexOf(' ');
          const key = l.slice(0, sp), rest = l.slice(sp + 1);
          if (key === 'vector') {
            if (pos) pos.free();
            pos = null; options = ''; position = ''; vectors++;
          } else if (key === 'options') options = rest;
          else if (key === 'position') position = rest;
          else if (key === 'start') {
            pos = t.position(g, options, position);
            if (pos.stateHash() !== rest) bad.push(`vector ${vectors} start`);
          } else if (key === 'move') {
            const at = rest.lastIndexOf(' ');
            try {
              pos.play(rest.slice(0, at));
              plies++;
              if (pos.stateHash() !== rest.slice(at + 1))
                bad.push(`vector ${vectors} ${rest.slice(0, at)}: hash`);
            } catch (e) {
              bad.push(`vector ${vectors} ${rest.slice(0, at)}: ${e.message}`);
            }
          } else if (key === 'result') {
            const s = pos.status();
            if (`${s.outcome} ${s.reason}` !== rest)
              bad.push(`vector ${vectors} result ${s.outcome} ${s.reason}`);
          }
        }
        if (pos) pos.free();
        return { vectors, plies, bad };
      }, game, lines);
      checked++;
      if (r.bad.length) {
        failed++;
        console.log(`${f}: ${game}: FAILED: ${r.bad.slice(0, 5).join('; ')}`);
      } else {
        console.log(`${f}: ${game}, ${r.vectors} vectors, ${r.plies} plies ok in ${env.WEB_BROWSER === 'firefox' ? 'Firefox' : 'Chromium'}`);
      }
    }
  });
  if (checked === 0) {
    console.log('browser golden: no golden file read');
    return 1;
  }
  return failed ? 1 : 0;
}

// Processor seconds used so far by the renderer processes of the page's
// browser (Linux /proc): all their threads (user + system, clock ticks of
// 1/100 s, so V8's background compilers and the rest too), and their main
// threads alone (the thread whose id is the process's, where the page's
// JavaScript and WebAssembly run; its scheduler run time, in ns).
async function rendererCpu(page) {
  const top = page.browser().process()?.pid;
  const procs = new Map();
  for (const pid of (await readdir('/proc')).filter((x) => /^\d+$/.test(x))) {
    try {
      const st = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
      const cmd = await readFile(`/proc/${pid}/cmdline`, 'utf8');
      const renderer = cmd.includes('--type=renderer');
      const main = renderer
        ? Number((await readFile(`/proc/${pid}/task/${pid}/schedstat`, 'utf8')).split(' ')[0])
        : 0;
      procs.set(Number(pid), { ppid: Number(st[1]), ticks: Number(st[11]) + Number(st[12]),
        renderer, main });
    } catch { /* gone meanwhile */ }
  }
  const under = (pid) => {
    for (let p = procs.get(pid); p; p = procs.get(p.ppid))
      if (p.ppid === top) return true;
    return false;
  };
  let ticks = 0;
  let mainNs = 0;
  for (const [pid, p] of procs)
    if (p.renderer && under(pid)) {
      ticks += p.ticks;
      mainNs += p.main;
    }
  return { all: ticks / 100, main: mainNs / 1e9 };
}

async function perft(game, depth, rounds) {
  await withPage(async (page) => {
    // Warm up first, untimed, with the whole count once: V8 compiles
    // WebAssembly with its baseline compiler (Liftoff) and tiers hot
    // functions up to TurboFan in the background as they run, so what
    // the rounds time is the optimised code, not the compilation.
    await page.evaluate((g, d) => {
      const pos = window.tabula.position(g);
      for (let k = 1; k <= d; k++) pos.perft(k);
      pos.free();
    }, game, depth);
    for (let i = 0; i < rounds; i++) {
      const c0 = await rendererCpu(page);
      const r = await page.evaluate((g, d) => {
        const pos = window.tabula.position(g);
        const t0 = performance.now();
        let n = 0n;
        for (let k = 1; k <= d; k++) n += pos.perft(k);
        const t1 = performance.now();
        pos.free();
        return { nodes: n.toString(), ms: t1 - t0 };
      }, game, depth);
      const s = r.ms / 1000;
      const c1 = await rendererCpu(page);
      const cpu = c1.all - c0.all;
      const main = c1.main - c0.main;
      console.log(`wasm-chromium-${game} depth ${depth} nodes ${r.nodes} ` +
        `seconds ${s.toFixed(3)} nps ${Math.round(Number(r.nodes) / s)} ` +
        `cpu-seconds ${cpu.toFixed(2)} cpu-nps ${Math.round(Number(r.nodes) / cpu)} ` +
        `main-cpu-seconds ${main.toFixed(3)} main-cpu-nps ${Math.round(Number(r.nodes) / main)}`);
    }
  });
  return 0;
}

// A game on the page itself (web/index.html): you against the bot at
// level 1, your moves entered by clicking their squares on the board one
// after another (typed into the move box every third turn), the bot's from its Web
// Worker, until the game ends or PLIES plies. Prints the moves as a plain
// game record (for `tabula replay`) and then "page-final-hash: HEX".
async function playPage(game, plies, shot) {
  await withPage(async (page) => {
    await page.evaluate((g) => window.tabulaPage.newGame(g, 'bot:1', 0), game);
    // Chessball's ball loads three.js first; the board is redrawn then.
    await page.waitForFunction(() => window.tabulaPage.boardReady, { timeout: 60000 });
    for (;;) {
      const st = await page.evaluate(() => {
        const gm = window.tabulaPage.game;
        return { n: gm.moves.length, outcome: gm.pos.status().outcome,
          side: gm.pos.status().side };
      });
      if (st.outcome !== '*' || st.n >= plies) break;
      if (st.side === 0) {
        // Every third turn typed into the move box; the others clicked
        // (the first legal move that has squares: Football chess's 'pass'
        // has none and can only be typed).
        const typed = st.n % 6 === 4;
        const mv = await page.evaluate((t) => {
          const ms = window.tabulaPage.game.pos.moveSquares();
          return t ? ms[0] : ms.find((m) => m.squares.length) ?? ms[0];
        }, typed);
        const before = st.n;
        if (typed || mv.squares.length === 0) {
          // Typed as a player would, without Chess volleyball's action
          // letter ("Qd8-b6>a5"); in full where that fits several moves.
          const loose = mv.text.replace(/^[A-Z] /, '');
          for (const t of loose === mv.text ? [mv.text] : [loose, mv.text]) {
            await page.type('#move-input', t);
            await page.keyboard.press('Enter');
            const n = await page.evaluate(() => window.tabulaPage.game.moves.length);
            if (n > before) break;
          }
        }
        // Click until the page played it (a square may be shared).
        for (const sq of typed ? [] : mv.squares) {
          await page.click(`#board [data-name="${sq}"]`);
          const n = await page.evaluate(() => window.tabulaPage.game.moves.length);
          if (n > before) break;
        }
        const after = await page.evaluate(() => window.tabulaPage.game.moves);
        if (after.length === before && !typed) {
          // Several moves share the squares: the page offers a choice.
          await page.evaluate((t) => [...document.querySelectorAll('#choices button')]
            .find((b) => b.textContent === t).click(), mv.text);
        }
        const played = await page.evaluate((n) =>
          window.tabulaPage.game.moves[n]?.text, before);
        if (played !== mv.text) throw new Error(`clicked ${mv.text}, played ${played}`);
      } else {
        await page.waitForFunction((n) => window.tabulaPage.game.moves.length > n,
          { timeout: 60000 }, st.n);
      }
    }
    const r = await page.evaluate(() => {
      const gm = window.tabulaPage.game;
      return { moves: gm.moves.map((m) => m.text), hash: gm.pos.stateHash(),
        final: document.getElementById('final').textContent };
    });
    if (shot) {
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: shot });
    }
    console.log(`[Game "${game}"]\n`);
    console.log(r.moves.map((m, i) => `${i + 1}. ${m}`).join('\n'));
    console.log('*');
    console.log(`page-final-hash: ${r.hash}`);
    if (r.final && r.final !== `final-hash: ${r.hash}`)
      throw new Error(`the page shows '${r.final}'`);
  }, '/index.html');
  return 0;
}

// A game on this device comes back after its tab's reload (as a network
// seat does): the same game, players, bot seed and moves, replayed by the
// module; the bot answers when it was its turn; a second tab's game is
// its own; a resigned game comes back finished; New game forgets it; a
// kept record with a move the module refuses is dropped. Prints
// "playreload GAME ok plies N" or throws.
async function playReload(game) {
  return withPage(async (page) => {
    const ready = (p = page) => p.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 });
    const state = (p = page) => p.evaluate(() => {
      const g = window.tabulaPage.game;
      const text = (id) => document.getElementById(id).textContent;
      return { start: !document.getElementById('start').hidden, mode: g?.mode ?? null,
        name: g?.name, options: g?.options, players: g?.players, seed: g?.seed,
        moves: g?.moves.map((m) => m.text) ?? [], hash: g?.pos?.stateHash(),
        list: [...document.querySelectorAll('#move-list li')].map((li) => li.textContent),
        shown: text('players'), status: text('status'), final: text('final'),
        resign: document.getElementById('resign').disabled,
        human: g?.mode === 'play' && g.players[g.pos.status().side] === 'human' &&
          g.pos.status().outcome === '*' };
    });
    // (a tab behind another is hidden: its page may not finish loading
    // until shown, as a CI run found when the first tab reloaded behind
    // the second)
    const reload = async (p = page) => { await p.bringToFront(); await p.reload(); await ready(p); };
    const same = (what, a, b, keys) => {
      for (const k of keys) {
        if (JSON.stringify(a[k]) !== JSON.stringify(b[k]))
          throw new Error(`${what}: ${k} ${JSON.stringify(b[k])}, before the reload ${JSON.stringify(a[k])}`);
      }
    };
    const whole = ['mode', 'name', 'options', 'players', 'seed', 'moves', 'hash', 'list', 'shown',
      'status', 'final', 'resign'];
    const ourTurn = (p = page) => p.waitForFunction(() => {
      const g = window.tabulaPage.game;
      return g.players[g.pos.status().side] === 'human' || g.pos.status().outcome !== '*';
    }, { timeout: 60000, polling: 50 });
    // Typed as a player does: the first legal move.
    const typeMove = async (p = page) => {
      const mv = await p.evaluate(() => window.tabulaPage.game.pos.moves()[0]);
      await p.type('#move-input', mv);
      await p.keyboard.press('Enter');
    };
    // Black against the bot (level 2), whose worker never answers in this
    // document: the game is kept on the bot's turn, with no move.
    await page.evaluate((g) => {
      window.Worker = class { postMessage() {} terminate() {} };
      window.tabulaPage.newGame(g, 'bot:2', 1);
    }, game);
    const first = await state();
    if (first.moves.length !== 0 || first.human) throw new Error(`a new game as Black: ${JSON.stringify(first)}`);
    await reload();
    if ((await state()).mode !== 'play') throw new Error('a reload lost the game against the bot');
    await ourTurn();
    let s = await state();
    // the bot of the same level and seed moved after the reload
    same('the bot\'s turn across a reload', first, s, ['mode', 'name', 'players', 'seed']);
    if (s.moves.length === 0 || !s.human) throw new Error(`the bot did not answer after the reload: ${JSON.stringify(s)}`);
    // A few moves each, then a reload on our turn: the same game on screen.
    while (s.moves.length < 6 && s.human) {
      const n = s.moves.length;
      await typeMove();
      await page.waitForFunction((k) => window.tabulaPage.game.moves.length > k, { timeout: 60000 }, n);
      await ourTurn();
      s = await state();
    }
    const before = s;
    if (before.list.length !== before.moves.length) throw new Error(`the move list: ${before.list}`);
    await reload();
    const after = await state();
    same('a reload on our turn', before, after, whole);
    if (after.start || !after.human) throw new Error(`after the reload: ${JSON.stringify(after)}`);
    // Play goes on: a move, the bot's answer.
    await typeMove();
    await page.waitForFunction((k) => window.tabulaPage.game.moves.length > k + 1,
      { timeout: 60000 }, after.moves.length);
    await ourTurn();
    const on = await state();
    if (on.moves.slice(0, after.moves.length).join(' ') !== after.moves.join(' '))
      throw new Error(`the game after the reload went on from elsewhere: ${on.moves}`);
    // A second tab of the browser: a game of its own, which a reload of
    // either tab leaves as it was.
    const other = await page.browser().newPage();
    const errors = [];
    other.on('pageerror', (e) => errors.push(String(e)));
    await other.goto(page.url());
    await ready(other);
    if (!(await state(other)).start) throw new Error('a new tab opened on a game, not the start page');
    await other.evaluate(() => window.tabulaPage.newGame('laska', 'bot:1', 0));
    await typeMove(other);
    await other.waitForFunction(() => window.tabulaPage.game.moves.length >= 2, { timeout: 60000 });
    await ourTurn(other);
    const otherBefore = await state(other);
    await reload(other);
    same('the second tab\'s reload', otherBefore, await state(other), whole);
    const mine = await state();
    await reload();
    same('the first tab after the second one played', mine, await state(), whole);
    await other.close();
    if (errors.length) throw new Error(`errors in the second tab: ${errors.join('; ')}`);
    // Resigned (Resign asks once): back finished, the bot silent.
    await page.click('#resign');
    await page.click('#resign');
    const resigned = await state();
    if (resigned.status !== '1-0: Black resigned' || !/^final-hash: [0-9a-f]+$/.test(resigned.final))
      throw new Error(`resigned: ${JSON.stringify(resigned)}`);
    await reload();
    await new Promise((r) => setTimeout(r, 1000)); // (a bot that moved would have by now)
    same('a resigned game\'s reload', resigned, await state(), whole);
    // New game: the game is left, and a reload opens the start page.
    await page.click('#new');
    await reload();
    let left = await state();
    if (!left.start || left.mode !== null) throw new Error(`a reload after New game: ${JSON.stringify(left)}`);
    // A kept game with a move the module refuses is dropped, not shown.
    await page.evaluate(() => window.tabulaPage.newGame('laska', 'friend', 0));
    await typeMove();
    const kept = await page.evaluate(() => JSON.parse(sessionStorage.getItem('tabula-play')));
    if (kept?.moves?.length !== 1) throw new Error(`the kept game: ${JSON.stringify(kept)}`);
    await page.evaluate((r) => sessionStorage.setItem('tabula-play', JSON.stringify(r)),
      { ...kept, moves: [...kept.moves, kept.moves[0]] }); // White's move again, on Black's turn
    await reload();
    left = await state();
    const dropped = await page.evaluate(() => sessionStorage.getItem('tabula-play'));
    if (!left.start || left.mode !== null || dropped !== null)
      throw new Error(`a kept game with a refused move: ${JSON.stringify(left)}, kept ${dropped}`);
    // Records the page never makes are dropped too (a trial's tampered
    // record showed "1-0: Black resigned" at ply 0 for the bot, and a
    // game of bot against bot): only a person resigns, and a person
    // plays at least one side.
    for (const forged of [{ ...kept, moves: [], players: ['human', 3], resigned: 1 },
      { ...kept, moves: [], players: [5, 5], resigned: -1 }]) {
      await page.evaluate((r) => sessionStorage.setItem('tabula-play', JSON.stringify(r)), forged);
      await reload();
      left = await state();
      const gone = await page.evaluate(() => sessionStorage.getItem('tabula-play'));
      if (!left.start || left.mode !== null || gone !== null)
        throw new Error(`a forged record ${JSON.stringify(forged)}: ${JSON.stringify(left)}, kept ${gone}`);
    }
    console.log(`playreload ${game} ok plies ${on.moves.length}`);
    return 0;
  }, '/index.html');
}

// A match log dropped on the page (its file input), verified there:
// prints "page-replay: ok PLIES FINAL-HASH" or "page-replay: FAILED
// TEXT" (the page's own words).
async function replayPage(file) {
  await withPage(async (page) => {
    const input = await page.$('#replay-file');
    await input.uploadFile(file);
    await page.waitForFunction(() =>
      document.getElementById('replay-error').textContent !== '' ||
      window.tabulaPage.game?.mode === 'replay', { timeout: 60000 });
    const r = await page.evaluate(() => ({
      error: document.getElementById('replay-error').textContent,
      final: document.getElementById('final').textContent,
      plies: window.tabulaPage.game?.all?.length ?? 0,
      status: document.getElementById('status').textContent,
    }));
    console.log(r.error ? `page-replay: FAILED ${r.error}`
      : `page-replay: ok ${r.plies} ${r.final.replace('final-hash: ', '')}`);
    if (!r.error) {
      console.log(`page-controls: ${await replayControls(page)}`);
      console.log(`page-back: ${await replayBack(page, file)}`);
      console.log(`page-status: ${r.status}`);
    }
  }, '/index.html');
  return 0;
}

// The replay viewer's buttons: drawn (an SVG each, no text: the media
// glyphs U+23EE and U+23ED are missing from Debian's and phones' default
// fonts), named for screen readers, and the keys: Home, End, the arrows,
// Enter on a focused button. "ok" or what is wrong.
async function replayControls(page) {
  const buttons = await page.evaluate(() => [...document.querySelectorAll('#replay-controls button')]
    .map((b) => ({ id: b.id, text: b.textContent.trim(), label: b.getAttribute('aria-label') ?? '',
      svg: Math.round(b.querySelector('svg path') ? b.querySelector('svg').getBoundingClientRect().width : 0) })));
  const wrong = buttons.filter((b) => b.text !== '' || b.svg < 8 || !b.label);
  if (buttons.length !== 4 || wrong.length) return `FAILED buttons ${JSON.stringify(buttons)}`;
  const at = () => page.evaluate(() => window.tabulaPage.game.at);
  const all = await page.evaluate(() => window.tabulaPage.game.all.length);
  const steps = [];
  const key = async (k, want) => {
    await page.keyboard.press(k);
    const got = await at();
    steps.push(`${k}:${got}`);
    return got === want;
  };
  await page.focus('#next');
  const keys = await key('Home', 0) && await key('ArrowRight', 1) && await key('End', all) &&
    await key('ArrowLeft', all - 1);
  await page.focus('#first');
  const enter = await key('Enter', 0);
  await page.focus('#last');
  const space = await key('Space', all);
  const labels = buttons.map((b) => b.label).join(',');
  return keys && enter && space ? `ok ${labels}` : `FAILED keys ${steps.join(' ')} of ${all}`;
}

// The ways out of the replay viewer to the start page: a visible New game
// button, then (the log opened again) the browser's Back. "ok" or what
// is wrong.
async function replayBack(page, file) {
  const where = () => page.evaluate(() => ({ start: !document.getElementById('start').hidden,
    game: !document.getElementById('game').hidden, mode: window.tabulaPage.game?.mode ?? null }));
  const onStart = () => page.waitForFunction(() => !document.getElementById('start').hidden &&
    document.getElementById('game').hidden && !window.tabulaPage.game, { timeout: 5000, polling: 50 })
    .then(() => true, () => false);
  const button = await page.evaluate(() => {
    const b = document.getElementById('new');
    return { shown: b.checkVisibility(), text: b.textContent };
  });
  if (!button.shown) return `FAILED no New game button in the viewer: ${JSON.stringify(await where())}`;
  await page.click('#new');
  if (!await onStart()) return `FAILED New game left ${JSON.stringify(await where())}`;
  await (await page.$('#replay-file')).uploadFile(file);
  await page.waitForFunction(() => window.tabulaPage.game?.mode === 'replay', { timeout: 60000 });
  await page.goBack();
  if (!await onStart()) return `FAILED the browser's Back left ${JSON.stringify(await where())}`;
  return 'ok';
}

async function botSpeed(game, level, plies, seed) {
  await withPage(async (page) => {
    await page.evaluate(() => {
      const w = new Worker('/bot-worker.js', { type: 'module' });
      let next = 0;
      const waiting = new Map();
      w.onmessage = (e) => {
        waiting.get(e.data.id)(e.data);
        waiting.delete(e.data.id);
      };
      window.askBot = (req) => new Promise((ok) => {
        const id = ++next;
        const t0 = performance.now();
        waiting.set(id, (r) => ok({ ...r, ms: performance.now() - t0 }));
        w.postMessage({ id, ...req });
      });
    });
    // Warm up (untimed): the first search at the level, from the start,
    // compiles and tiers up the worker's module.
    const warm = await page.evaluate((g, l, s) =>
      window.askBot({ game: g, options: '', moves: [], level: l, seed: s }), game, level, seed);
    if (warm.error) throw new Error(`bot: ${warm.error}`);
    // V8 tiers the hot functions up on background threads of the same
    // process: let that finish before the processor time is read.
    await new Promise((ok) => setTimeout(ok, 2000));
    const moves = [];
    for (let i = 0; i < plies; i++) {
      const c0 = await rendererCpu(page);
      const r = await page.evaluate((g, m, l, s) =>
        window.askBot({ game: g, options: '', moves: m, level: l, seed: s }),
      game, moves, level, seed);
      const cpu = (await rendererCpu(page)) - c0;
      if (r.error) {
        if (/over/i.test(r.error)) break;
        throw new Error(`bot: ${r.error}`);
      }
      console.log(`web-bot ${game} ply ${i} seconds ${(r.ms / 1000).toFixed(3)} ` +
        `cpu-seconds ${cpu.toFixed(2)} move ${r.move}`);
      moves.push(r.move);
    }
  });
  return 0;
}

// The figurines, written from the Unicode code charts (Miscellaneous
// Symbols), not taken from web/board.js.
const FIG = { K: String.fromCodePoint(0x265a), Q: String.fromCodePoint(0x265b),
  R: String.fromCodePoint(0x265c), B: String.fromCodePoint(0x265d),
  N: String.fromCodePoint(0x265e), ball: String.fromCodePoint(0x25cf) };

async function figurinesPage() {
  await withPage(async (page) => {
    const squares = async (game, names) => {
      await page.evaluate((g) => window.tabulaPage.newGame(g, 'bot:1', 0), game);
      await page.waitForFunction(() => window.tabulaPage.boardReady, { timeout: 60000 });
      return page.evaluate((ns) => ns.map((n) => {
        const b = document.querySelector(`#board [data-name="${n}"]`);
        const g = b?.querySelector('.glyph');
        return { name: n, glyph: g?.textContent ?? null, title: b?.title ?? '',
          color: g ? getComputedStyle(g).color : '' };
      }), names);
    };
    const expect = (got, want, what) => {
      if (got !== want) throw new Error(`${what}: '${got}', expected '${want}'`);
    };
    // docs/rules/football.md: White K f1, Q d1, R a1 i1, N b1 h1, B c1
    // g1; the goal e1 empty; Black the same on rank 9; the ball on e5.
    const rank1 = { a1: FIG.R, b1: FIG.N, c1: FIG.B, d1: FIG.Q, e1: '', f1: FIG.K,
      g1: FIG.B, h1: FIG.N, i1: FIG.R };
    const fc = await squares('football', [...Object.keys(rank1), 'f9', 'e5']);
    for (const s of fc.slice(0, 9)) expect(s.glyph, rank1[s.name], s.name);
    expect(fc[9].glyph, FIG.K, 'f9');
    expect(fc[10].glyph, FIG.ball, 'e5');
    expect(fc[5].title, 'f1: White king', 'f1 title');
    expect(fc[9].title, 'f9: Black king', 'f9 title');
    expect(fc[10].title, 'e5: the ball', 'e5 title');
    if (fc[5].color === fc[9].color)
      throw new Error(`both kings drawn ${fc[5].color}`);
    const help = await page.evaluate(() => window.tabulaPage.game.pos.help());
    if (!help.includes(`${FIG.K} king, ${FIG.Q} queen`))
      throw new Error(`the help names no figurines:\n${help}`);
    // docs/rules/volleyball.md P-09: White Qe1 Jf1 Mg1 Ci1 Vd1.
    const vb = await squares('volleyball10', ['d1', 'e1', 'f1', 'g1', 'i1']);
    expect(vb.map((s) => s.glyph).join(' '), `V ${FIG.Q} J M C`, 'volleyball10 rank 1');
    console.log('figurines ok');
  }, '/index.html');
  return 0;
}

async function levelsPage() {
  const [min, max, play] = (env.WEB_BOT_LEVELS ?? '').split(' ').map(Number);
  if (!(min >= 1 && max >= min && play >= min && play <= max))
    throw new Error(`WEB_BOT_LEVELS: '${env.WEB_BOT_LEVELS}'`);
  const levels = Array.from({ length: max - min + 1 }, (_, i) => min + i);
  await withPage(async (page) => {
    const got = await page.evaluate(() => ({
      opponent: [...document.querySelectorAll('#opponent option')].map((o) => `${o.value}=${o.textContent}`),
      chosen: document.getElementById('opponent').value,
      host: [...document.querySelectorAll('#net-host-bot option')].map((o) => o.value),
      join: [...document.querySelectorAll('#net-join-bot option')].map((o) => o.value),
    }));
    const want = [...levels.map((l) => `bot:${l}=Bot, level ${l}`), 'human=A friend on this device'];
    const expect = (what, g, w) => {
      if (JSON.stringify(g) !== JSON.stringify(w))
        throw new Error(`${what}: ${JSON.stringify(g)}, expected ${JSON.stringify(w)}`);
    };
    expect('the opponents', got.opponent, want);
    expect('the opponent chosen first', got.chosen, `bot:${play}`);
    const players = ['0', ...levels.map(String)];
    expect("the host form's players", got.host, players);
    expect("the join form's players", got.join, players);
    // The strongest level plays on the page (its own search).
    await page.select('#opponent', `bot:${max}`);
    await page.select('#play-as', '1');
    await page.click('#new-game button[type=submit]');
    await page.waitForFunction(() => window.tabulaPage.game?.moves.length === 1, { timeout: 120000, polling: 100 });
    const players2 = await page.$eval('#players', (e) => e.textContent);
    if (!players2.includes(`bot level ${max}`)) throw new Error(`the players: '${players2}'`);
    console.log(`levels ok ${min}..${max}`);
  }, '/index.html');
  return 0;
}

async function ballMapPage() {
  await withPage(async (page) => {
    await page.evaluate(() => window.tabulaPage.newGame('chessball', 'human', 0));
    const got = await page.evaluate(() => ({
      labels: [...document.querySelectorAll('#board > .label')].map((e) => e.textContent),
      names: [...document.querySelectorAll('#board .cell .name')].map((e) => e.textContent),
    }));
    const fields = ['a', ...'bcdefg'.split('').flatMap((r) => [1, 2, 3, 4, 5].map((k) => `${r}${k}`)), 'h'];
    const names = [...got.names].sort();
    if (JSON.stringify(names) !== JSON.stringify([...fields].sort()))
      throw new Error(`the map's field names: ${JSON.stringify(got.names)}`);
    if (got.labels.join(' ') !== 'a b c d e f g h')
      throw new Error(`the map's labels: ${JSON.stringify(got.labels)}, expected the rows a..h alone`);
    console.log('ballmap ok');
  }, '/index.html');
  return 0;
}

async function vballPage() {
  await withPage(async (page) => {
    await page.evaluate(() => window.tabulaPage.newGame('volleyball', 'human', 0));
    // The first legal action, a serve, puts the ball on the board.
    await page.evaluate(() => window.tabulaPage.humanMove(window.tabulaPage.game.pos.moves()[0]));
    const cells = await page.evaluate(() => [...document.querySelectorAll('#board .cell')].map((b) => ({
      name: b.dataset.name ?? '', glyph: b.querySelector('.glyph')?.textContent ?? '', title: b.title ?? '' })));
    const balls = cells.filter((c) => c.glyph === FIG.ball);
    if (balls.length !== 1 || balls[0].title !== `${balls[0].name}: the ball`)
      throw new Error(`the ball's cells: ${JSON.stringify(balls)}`);
    const letters = cells.filter((c) => c.glyph === 'o');
    if (letters.length) throw new Error(`cells drawn 'o': ${JSON.stringify(letters)}`);
    await page.click('#help-button');
    const help = await page.$eval('#help', (e) => e.textContent);
    if (!help.includes(`${FIG.ball} is the ball`)) throw new Error(`the help names no ball:\n${help}`);
    console.log('vball ok');
  }, '/index.html');
  return 0;
}

async function pageLoad(game) {
  await withPage(async (page) => {
    const bytes = () => page.evaluate(() => {
      const all = [...performance.getEntriesByType('navigation'),
        ...performance.getEntriesByType('resource')];
      return { bytes: all.reduce((n, e) => n + e.transferSize, 0), files: all.length };
    });
    const start = await page.evaluate(() => performance.now());
    const before = await bytes();
    const board = await page.evaluate(async (g) => {
      const t0 = performance.now();
      window.tabulaPage.newGame(g, 'bot:1', 0);
      while (!window.tabulaPage.boardReady)
        await new Promise((ok) => setTimeout(ok, 1));
      // Drawn: the frame after the board is in the document.
      await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
      return performance.now() - t0;
    }, game);
    const after = await bytes();
    console.log(`page-load ${game} start-ms ${Math.round(start)} start-bytes ${before.bytes} ` +
      `board-ms ${Math.round(board)} board-bytes ${after.bytes - before.bytes} files ${after.files}`);
  }, '/index.html');
  return 0;
}

// A long game on the phone (two players on the device) past ply 100:
// every ply number shown whole inside the move list, the list scrolled to
// its last ply by its own scrollbar while the window stays where it is,
// and after Resign the final-hash line (76 characters) wrapped inside the
// panel and the screen. The plies are found first (below, with the
// module's positions, not the page's), depth first: from a rotating
// offset, the first move that does not end the game, going back a ply
// where every move would (a Laska side left with one capture that wins;
// Football chess's 100 plies without a goal; a Chess volleyball match's
// last point), so the check plays as long a game as it claims in every
// game. Football chess plays to 20 goals and takes any goal it can (a
// goal ends the default match, and its quiet plies end at 100), Chess
// volleyball's sets last 60 minutes (along these moves the default
// match was over by ply 62, 55 on 10x10).
const LONG_OPTIONS = { football: 'goals=20', volleyball: 'set1=60,set2=60,set3=60',
  volleyball10: 'set1=60,set2=60,set3=60' };
const LONG_PLIES = 111;

async function longGameLayout(page, game) {
  const options = LONG_OPTIONS[game] ?? '';
  const found = await page.evaluate((g, o, want) => {
    const tb = window.tabulaPage.tabula;
    const seq = [];
    let p = tb.position(g, o);
    const rebuild = () => {
      p.free();
      p = tb.position(g, o);
      for (const m of seq) p.play(m);
    };
    // Football chess's score is the text's third field.
    const scores = (from, mv) => {
      if (g !== 'football') return false;
      const q = tb.position(g, o, from.text());
      try {
        const before = q.text().split(' ')[2];
        q.play(mv);
        return q.text().split(' ')[2] !== before;
      } finally {
        q.free();
      }
    };
    const order = () => {
      const ms = p.moves();
      const turned = ms.map((_, j) => ms[(seq.length * 5 + j) % ms.length]);
      const goals = turned.filter((m) => scores(p, m));
      return [...goals, ...turned.filter((m) => !goals.includes(m))];
    };
    const frames = [{ ms: order(), j: 0 }];
    let steps = 0, back = 0;
    while (seq.length < want && frames.length && steps++ < 50000) {
      const f = frames[frames.length - 1];
      if (f.j >= f.ms.length) {
        frames.pop();
        seq.pop();
        back++;
        rebuild();
        continue;
      }
      const mv = f.ms[f.j++];
      p.play(mv);
      if (p.status().outcome !== '*') {
        rebuild();
        continue;
      }
      seq.push(mv);
      frames.push({ ms: order(), j: 0 });
    }
    p.free();
    return { seq, steps, back };
  }, game, options, LONG_PLIES);
  if (found.seq.length < LONG_PLIES)
    throw new Error(`no ${LONG_PLIES}-ply ${game} game found (${options}): ${JSON.stringify(found)}`);
  await page.evaluate((g, o) => window.tabulaPage.newGame(g, 'friend', 0, o), game, options);
  const plies = await page.evaluate((seq) => {
    const pg = window.tabulaPage;
    for (const mv of seq) pg.humanMove(mv);
    return pg.game.moves.length;
  }, found.seq.slice(0, -1));
  if (plies !== LONG_PLIES - 1)
    throw new Error(`the long ${game} game stopped at ply ${plies}: ${await page.evaluate(() => document.getElementById('message').textContent)}`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.evaluate((mv) => window.tabulaPage.humanMove(mv), found.seq[LONG_PLIES - 1]);
  const lay = await page.evaluate(() => {
    const list = document.getElementById('move-list');
    const lr = list.getBoundingClientRect();
    const items = [...list.children];
    const last = items[items.length - 1].getBoundingClientRect();
    const cut = items.filter((li) => {
      const n = li.querySelector('.ply')?.getBoundingClientRect();
      return !n || n.left < lr.left - 0.5 || n.right > lr.right + 0.5;
    }).length;
    return { windowY: window.scrollY, items: items.length, cut,
      n101: items[100]?.querySelector('.ply')?.textContent,
      listY: list.scrollTop, lastShown: last.bottom <= lr.bottom + 1 && last.top >= lr.top - 1 };
  });
  if (lay.windowY !== 0 || lay.cut || lay.items !== LONG_PLIES || lay.n101 !== '101.' ||
      !(lay.listY > 0) || !lay.lastShown)
    throw new Error(`the move list of a long game: ${JSON.stringify(lay)}`);
  await page.click('#resign'); // (Resign asks once)
  await page.click('#resign');
  const fin = await page.evaluate(() => {
    const f = document.getElementById('final');
    const r = f.getBoundingClientRect();
    return { text: f.textContent, right: r.right,
      panel: document.getElementById('panel').getBoundingClientRect().right,
      width: window.innerWidth, scroll: f.scrollWidth, client: f.clientWidth,
      page: document.documentElement.scrollWidth,
      resignAfterEnd: document.getElementById('resign').disabled };
  });
  if (!/^final-hash: [0-9a-f]{64}$/.test(fin.text) || fin.right > fin.panel + 0.5 || !fin.resignAfterEnd ||
      fin.right > fin.width || fin.scroll > fin.client || fin.page > fin.width)
    throw new Error(`the final-hash line: ${JSON.stringify(fin)}`);
  // Take back after the resignation withdraws it alone, and says so (a
  // trial saw only 'taken back', then a move pair gone with it).
  const before = await page.evaluate(() => window.tabulaPage.game.moves.length);
  await page.click('#takeback');
  const back = await page.evaluate(() => ({ message: document.getElementById('message').textContent,
    resign: document.getElementById('resign').disabled, final: document.getElementById('final').textContent,
    plies: window.tabulaPage.game.moves.length }));
  if (back.message !== 'the resignation is withdrawn' || back.resign || back.final || back.plies !== before)
    throw new Error(`a takeback after resigning: ${JSON.stringify(back)}`);
  return ` long ${lay.items} plies (${options || 'defaults'}; ${found.back} back), list scrolled ${Math.round(lay.listY)} px, final-hash within ${Math.round(fin.right)}/${Math.round(fin.panel)} px`;
}

async function phonePage(game, shot) {
  await withPage(async (page) => {
    await page.evaluate((g) => window.tabulaPage.newGame(g, 'bot:1', 0), game);
    await page.waitForFunction(() => window.tabulaPage.boardReady, { timeout: 60000 });
    const fit = await page.evaluate(() => ({
      width: window.innerWidth,
      scroll: document.documentElement.scrollWidth,
      board: document.getElementById('board').getBoundingClientRect().right,
    }));
    if (fit.scroll > fit.width || fit.board > fit.width)
      throw new Error(`wider than the screen: page ${fit.scroll}, board ${fit.board}, screen ${fit.width}`);
    const moves = () => page.evaluate(() => window.tabulaPage.game.moves.length);
    const played = (n) => page.evaluate((k) => window.tabulaPage.game.moves[k]?.text, n);
    // A move by tapping its squares (the first that has squares).
    const mv = await page.evaluate(() => window.tabulaPage.game.pos.moveSquares()
      .find((m) => m.squares.length));
    for (const sq of mv.squares) {
      const cell = await page.$(`#board [data-name="${sq}"]`);
      await cell.tap();
      if (await moves() > 0) break;
    }
    if (await moves() === 0) {
      await page.evaluate((t) => [...document.querySelectorAll('#choices button')]
        .find((b) => b.textContent === t).click(), mv.text);
    }
    if (await played(0) !== mv.text) throw new Error(`tapping ${mv.squares} did not play ${mv.text}`);
    // Until it is the player's turn again (Chess volleyball's sides may
    // act several times running).
    await page.waitForFunction(() => !document.getElementById('move-input').disabled,
      { timeout: 60000 });
    // The keyboard alone: from the top of the page, Tab to the move box.
    const before = await moves();
    let tabs = 0;
    await page.evaluate(() => document.activeElement?.blur());
    while (await page.evaluate(() => document.activeElement?.id) !== 'move-input') {
      if (++tabs > 12) throw new Error('the move box is not within 12 Tab presses');
      await page.keyboard.press('Tab');
    }
    const text = await page.evaluate(() => window.tabulaPage.game.pos.moveSquares()[0].text);
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
    if (await played(before) !== text) {
      const why = await page.evaluate(() => [document.getElementById('move-input').value,
        document.getElementById('message').textContent, document.activeElement?.id]);
      throw new Error(`typing ${text} and Enter did not play it: ${why}`);
    }
    // The help speaks of the page, not of the terminal's Tab completion
    // or board screen and its cell line.
    await page.click('#help-button');
    const help = await page.evaluate(() => document.getElementById('help').textContent);
    if (!help || /\bTab\b|board screen|cell's line/.test(help)) throw new Error(`the help: ${help}`);
    await page.click('#help-button');
    if (shot) {
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: shot });
    }
    const lay = env.WEB_PHONE_LONG ? await longGameLayout(page, game) : '';
    console.log(`phone ${game} ok width ${fit.width} board ${Math.round(fit.board)} tabs ${tabs}${lay}`);
  }, '/index.html');
  return 0;
}

// The module's own texts in LANG (the page switched to it): a game's
// help, the Football chess status line (and back in English when the
// switch says so), a network note and an end reason; then a few moves of
// each board game, with no English word of the module's on the board.
async function moduleTexts(page, lang, tr) {
  const expect = (what, got, text) => {
    if (got !== text) throw new Error(`${what} in ${lang}: '${got}', expected '${text}'`);
  };
  const norm = (s) => s.replace(/\s+/g, ' ').trim();
  // The catalogue's "%u" and "%s" filled in order, as the module does.
  const fillIn = (text, args) => { let i = 0; return text.replace(/%[us]/g, () => String(args[i++])); };
  const text = (sel) => page.$eval(sel, (e) => e.textContent);
  const setLang = async (l) => {
    await page.click(`#lang button[data-lang=${l}]`);
    await page.waitForFunction((x) => window.tabulaPage.lang === x, {}, l);
  };
  await setLang(lang);
  await page.evaluate(() => window.tabulaPage.newGame('laska', 'human', 0));
  await page.click('#help-button');
  const help = norm(await text('#help'));
  const moves = Object.keys(tr.want).find((k) => k.startsWith('A move goes from square'));
  const parts = [fillIn(tr('%s\n\nMoves\n'), [tr('Laska (Lasker 1911)')]), tr('\nBoard\n'),
    tr('Now, for example:\n'), tr(moves)];
  // the board's symbols as the page shows them, not the terminal's cell line
  const board = Object.keys(tr.want).filter((k) => k.startsWith('w, b: a White or Black soldier'));
  const pageBoard = board.find((k) => k.includes("a square's description"));
  const termBoard = board.find((k) => k.includes("the cell's line"));
  parts.push(tr(pageBoard));
  for (const part of parts) {
    if (!help.includes(norm(part))) throw new Error(`the help in ${lang} lacks '${norm(part)}': '${help}'`);
  }
  if (help.includes(norm(tr(termBoard))))
    throw new Error(`the help in ${lang} names the terminal's cell line: '${help}'`);
  await page.click('#help-button');
  // Chess volleyball's help: the page's move box, not the terminal's Tab.
  await page.evaluate(() => window.tabulaPage.newGame('volleyball', 'human', 0));
  await page.click('#help-button');
  const vbHelp = await text('#help');
  const box = tr('In the move box the page offers the legal moves that fit what you type (type d8, then pick one).');
  if (!vbHelp.includes(box) || /\bTab\b/.test(vbHelp))
    throw new Error(`Chess volleyball's help in ${lang}: '${vbHelp}', expected '${box}' and no Tab`);
  await page.click('#help-button');
  await page.evaluate(() => window.tabulaPage.newGame('football', 'human', 0));
  const fcStatus = fillIn(tr('goals %u-%u, first to %u wins; '), [0, 0, 1]) +
    fillIn(tr('N|%u ply since the last goal|%u plies since the last goal|0'), [0]);
  expect('the Football chess status line', await text('#view-status'), fcStatus);
  await setLang('en');
  expect('the Football chess status line in English', await text('#view-status'),
    'goals 0-0, first to 1 wins; 0 plies since the last goal');
  await setLang(lang);
  expect('the Football chess status line again', await text('#view-status'), fcStatus);
  const moduleText = (kind, t) => page.evaluate((k, x) => window.tabulaPage.tabula.text(k, x), kind, t);
  // a note without a code (0) is its English line; a typed one is in
  // LANG (the game below shows it)
  expect('an untyped network note', await moduleText('note', '0\x1f\x1f\x1f\x1f\x1ffinal-hash: 00ff'),
    'final-hash: 00ff');
  expect('an end reason', await moduleText('reason', 'resign'), tr('resignation'));
  // The English words core/ and match/ write for people (status lines,
  // cells' descriptions): none may be left on a board in LANG.
  const english = /\b(ply|plies|goals?|wins|[Ww]hite|[Bb]lack|king|queen|rook|bishop|knight|pawn|vizier|moor|jack|cat|ball|serves|touch|touched|points|sets|check|attacker|stage|capture|must|shoot|next to)\b/;
  for (const name of ['football', 'volleyball', 'chessball']) {
    await page.evaluate((g) => window.tabulaPage.newGame(g, 'human', 0), name);
    for (let ply = 0; ply <= 6; ply++) {
      const shown = await page.evaluate(() => [document.getElementById('view-status').textContent,
        document.getElementById('status').textContent,
        ...[...document.querySelectorAll('#board [title]')].map((e) => e.title)]);
      for (const s of shown) {
        const m = s.match(english);
        if (m) throw new Error(`${name} in ${lang}, ply ${ply}: English '${m[0]}' in '${s}'`);
      }
      const over = await page.evaluate(() => {
        const g = window.tabulaPage.game;
        const mv = g.pos.moves()[0];
        if (!mv) return true;
        document.getElementById('move-input').value = mv;
        document.getElementById('move-form').requestSubmit();
        return false;
      });
      if (over) break;
    }
  }
}

// A network game's players and message lines follow the switch (the
// page hosts a game in the lobby that served it and waits for the
// opponent, showing no board yet, not the last game's): in LANG, in
// English, in LANG again.
async function netLang(page, lang, tr) {
  const lines = () => page.evaluate(() => [document.getElementById('players').textContent,
    document.getElementById('message').textContent]);
  // (the button is pressed in the page: a mouse click at coordinates
  // taken before the notes above it grew could land beside it)
  const setLang = async (l) => {
    await page.evaluate((x) => document.querySelector(`#lang button[data-lang=${x}]`).click(), l);
    await page.waitForFunction((x) => window.tabulaPage.lang === x, { timeout: 30000, polling: 50 }, l);
  };
  await setLang(lang);
  await page.evaluate(() => window.tabulaPage.netGame({ role: 0, name: 'laska' }));
  await page.waitForFunction(() => [...document.querySelectorAll('#notes li')]
    .some((li) => li.textContent === 'lobby: connected'), { timeout: 30000, polling: 100 });
  // Waiting for the opponent: no board yet (not the last game's).
  const waiting = await page.evaluate(() => ({ hidden: document.getElementById('board-wrap').hidden,
    shown: document.getElementById('board').getBoundingClientRect().height }));
  if (!waiting.hidden || waiting.shown !== 0)
    throw new Error(`a hosted game waiting for its opponent shows a board: ${JSON.stringify(waiting)}`);
  const en = ['you: host', 'click or type your moves on your turn'];
  for (const [l, want] of [[lang, en.map(tr)], ['en', en], [lang, en.map(tr)]]) {
    await setLang(l);
    // (the page may redraw after it took the language: its catalogue is
    // fetched first)
    await page.waitForFunction((w) => [document.getElementById('players').textContent,
      document.getElementById('message').textContent].join('|') === w,
    { timeout: 10000, polling: 50 }, want.join('|')).catch(() => {});
    const got = await lines();
    if (got.join('|') !== want.join('|'))
      throw new Error(`a network game's players and message lines in ${l}: ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
    // The room line too: its labels and the terminal's command.
    await page.waitForFunction(() => document.querySelector('#net-room code'), { timeout: 10000, polling: 50 });
    const room = await page.$eval('#net-room', (e) => e.textContent);
    const tl = l === 'en' ? (m) => m : tr;
    for (const label of ["opponent's link:", 'Your opponent types, on their terminal:'].map(tl)) {
      if (!room.includes(label)) throw new Error(`the room line in ${l} lacks '${label}': '${room}'`);
    }
  }
  // A terminal player joins with the command the room line shows and
  // offers a draw on its turn; Accept pressed then says why nothing
  // happens yet, and is sent on the page's turn.
  const shown = await page.$eval('#net-room code', (e) => e.textContent);
  const cmd = shown.match(/^tabula join (\S+) --lobby (\S+)$/);
  if (!cmd) throw new Error(`the room's terminal command: '${shown}'`);
  const term = spawn(env.TABULA_BINARY, ['join', cmd[1], '--lobby', cmd[2]],
    { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  term.stdout.on('data', (d) => { out += d; });
  try {
    const turnOf = (side) => page.waitForFunction((x) => {
      const g = window.tabulaPage.game;
      const st = g.seat.state(Math.floor(performance.now()));
      return g.pos && st.toMove === x && st.outcome === '*';
    }, { timeout: 30000, polling: 50 }, side);
    await turnOf(0);
    await page.evaluate(() => window.tabulaPage.humanMove(window.tabulaPage.game.pos.moves()[0]));
    await turnOf(1);
    term.stdin.write('draw\n');
    await page.waitForFunction(() => !document.getElementById('accept').hidden, { timeout: 30000, polling: 50 });
    await page.evaluate(() => document.getElementById('accept').click());
    const waitMsg = await page.$eval('#message', (e) => e.textContent);
    const wantWait = tr('a draw offer is answered on your turn: your answer is sent when it comes');
    if (waitMsg !== wantWait) throw new Error(`Accept out of turn in ${lang}: '${waitMsg}', expected '${wantWait}'`);
    // The offer's note, written in LANG, follows the switch; the page
    // drops the terminal's ": type accept or decline" (its buttons are
    // how the page answers: a trial found it telling a page user to type).
    const offerNote = (l) => (l === 'en' ? 'black offers a draw'
      : fillIn(tr('{w1} offers a draw'), [tr('black')]));
    const fillIn = (text, args) => { let i = 0; return text.replace(/%[us]|\{w?\d\}/g, () => String(args[i++])); };
    for (const l of [lang, 'en', lang]) {
      await setLang(l);
      const notes = await page.$$eval('#notes li', (li) => li.map((e) => e.textContent));
      if (!notes.includes(offerNote(l)))
        throw new Error(`the notes in ${l} lack '${offerNote(l)}': ${JSON.stringify(notes)}`);
    }
    const black = await page.evaluate(() => window.tabulaPage.game.pos.moves()[0]);
    term.stdin.write(`${black}\n`);
    await page.waitForFunction(() => window.tabulaPage.game.final, { timeout: 30000, polling: 100 });
    const status = await page.$eval('#status', (e) => e.textContent);
    if (status !== `1/2-1/2 (${tr('draw agreed')})`)
      throw new Error(`the accepted draw in ${lang}: '${status}'; the terminal: ${out}`);
  } finally {
    term.kill();
  }
  await page.evaluate(() => document.getElementById('new').click());
}

// The start page and a game in LANG (see the header), then the switch.
async function langPage(lang) {
  const want = JSON.parse(env.WEB_EXPECT ?? '{}');
  const tr = (id) => {
    if (!(id in want)) throw new Error(`WEB_EXPECT lacks '${id}'`);
    return want[id];
  };
  tr.want = want;
  const fill = (text, args) => text.replace(/\{(\w+)\}/g, (m, k) => args[k] ?? m);
  const expect = (what, got, text) => {
    if (got !== text) throw new Error(`${what}: '${got}', expected '${text}'`);
  };
  return withPage(async (page) => {
    const texts = () => page.evaluate(() => ({
      lang: document.documentElement.lang,
      newGame: document.querySelector('#new-game h2').textContent,
      host: document.querySelector('#net-host h2').textContent,
      replay: document.querySelector('#replay-drop h2').textContent,
      start: document.querySelector('#new-game button[type=submit]').textContent,
      seeks: document.querySelector('#seeks h2').textContent,
      seekForm: document.querySelector('#seek-form h2').textContent,
      pool: document.querySelector('#pool-form h2').textContent,
      seeksNone: document.getElementById('seeks-none').textContent,
      pressed: document.querySelector('#lang button[aria-pressed=true]')?.dataset.lang,
      status: document.getElementById('status').textContent,
      message: document.getElementById('message').textContent,
      final: document.getElementById('final').textContent,
      resign: document.getElementById('resign').textContent,
    }));
    const startPage = async (l, t, tr2) => {
      const x = await texts();
      expect('the page language', x.lang, l);
      expect('the switch', x.pressed, l);
      expect('New game', x.newGame, tr2('New game'));
      expect('Host a network game', x.host, tr2('Host a network game'));
      expect('Replay a match log', x.replay, tr2('Replay a match log'));
      expect('Start', x.start, tr2('Start'));
      expect('Open seeks', x.seeks, tr2('Open seeks'));
      expect('Create a seek', x.seekForm, tr2('Create a seek'));
      expect('Play anyone', x.pool, tr2('Play anyone'));
      return x;
    };
    await startPage(lang, null, tr);
    // The lobby's list of seeks (none open), and a name the seek form
    // refuses, in LANG: the rule's words, as `tabula identity --name`.
    await page.waitForFunction(() => document.getElementById('seeks-none').textContent !== '',
      { timeout: 20000, polling: 100 });
    expect('no seek open', (await texts()).seeksNone,
      tr('No seek is open on this lobby: put one up with the form Create a seek.'));
    await page.$eval('#seek-name', (e) => { e.value = 'a\tb'; });
    await page.click('#seek-form button[type=submit]');
    await page.waitForFunction(() => document.getElementById('seek-error').textContent !== '',
      { timeout: 10000, polling: 50 });
    const nameError = await page.$eval('#seek-error', (e) => e.textContent);
    const refusedAs = fill(tr('name refused: {why}'), { why: tr('a control character') });
    if (!nameError.startsWith(refusedAs))
      throw new Error(`the refused name: '${nameError}', expected it to start '${refusedAs}'`);
    // The pool: an offer of chessball waits alone, its count in LANG's
    // plural form for 1; Cancel withdraws it.
    await page.$eval('#pool-games input[value=chessball]', (e) => { e.checked = true; });
    await page.click('#pool-offer');
    await page.waitForFunction(() => window.tabulaPage.pool?.counts, { timeout: 20000, polling: 100 });
    expect('the pool\'s counts', await page.$eval('#pool-status', (e) => e.textContent),
      fill(tr('In the pool: {counts}'), { counts: fill(tr('N|{game}: {n} waiting|{game}: {n} waiting|1'),
        { game: tr('Chessball (chess on a football, 1998)'), n: 1 }) }));
    await page.click('#pool-cancel');
    expect('the offer withdrawn', await page.$eval('#pool-status', (e) => e.textContent),
      tr('You withdrew your offer.'));
    // A game between two people on this device: the status in LANG.
    await page.evaluate(() => window.tabulaPage.newGame('laska', 'human', 0));
    let x = await texts();
    expect('the status', x.status, fill(tr('White to move, ply {n}'), { n: 1 }));
    expect('Resign', x.resign, tr('Resign'));
    // A move the rules refuse: the error's name from the catalogue.
    await page.type('#move-input', 'a1-h8');
    await page.keyboard.press('Enter');
    x = await texts();
    const named = ['illegal move', 'malformed move notation',
      'no such square on this board'].map(tr);
    if (!named.some((n) => x.message.includes(n)))
      throw new Error(`the refused move: '${x.message}', expected one of ${named.join(' | ')}`);
    await page.evaluate(() => {
      const g = window.tabulaPage.game;
      for (let i = 0; i < 4; i++) {
        const mv = g.pos.moves()[0];
        document.getElementById('move-input').value = mv;
        document.getElementById('move-form').requestSubmit();
      }
    });
    // Resign asks once: the first click only asks (in LANG), and the
    // question goes after 3 s; a second click in time resigns.
    const playing = (await texts()).status;
    await page.click('#resign');
    x = await texts();
    expect('Resign asking', x.resign, tr('Resign? Click again'));
    expect('the message after one click on Resign', x.message, tr('Click Resign again to resign'));
    expect('the status after one click on Resign', x.status, playing);
    await new Promise((r) => setTimeout(r, 3300));
    x = await texts();
    expect('Resign after the question went', x.resign, tr('Resign'));
    await page.click('#resign');
    await page.click('#resign');
    x = await texts();
    const final = x.final;
    if (!/^final-hash: [0-9a-f]{16,}$/.test(final)) throw new Error(`final line in ${lang}: '${final}'`);
    expect('the resignation', x.status, `0-1: ${tr('White resigned')}`);
    // The switch: English, the same machine line; the choice is kept.
    await page.click('#lang button[data-lang=en]');
    await page.waitForFunction(() => window.tabulaPage.lang === 'en');
    x = await texts();
    expect('final-hash in English', x.final, final);
    expect('the resignation in English', x.status, '0-1: White resigned');
    expect('Resign in English', x.resign, 'Resign');
    await startPage('en', null, (m) => m);
    await page.click(`#lang button[data-lang=${lang}]`);
    await page.waitForFunction((l) => window.tabulaPage.lang === l, {}, lang);
    x = await texts();
    expect('final-hash back in LANG', x.final, final);
    expect('the resignation again', x.status, `0-1: ${tr('White resigned')}`);
    await page.click('#lang button[data-lang=en]');
    await page.waitForFunction(() => window.tabulaPage.lang === 'en');
    await page.reload();
    await page.waitForFunction(() => window.tabulaPage?.ready, { timeout: 60000 });
    await startPage('en', null, (m) => m);
    await moduleTexts(page, lang, tr);
    await netLang(page, lang, tr);
    console.log(`lang ${lang} ok ${final}`);
    return 0;
  }, '/index.html');
}

const [cmd, ...rest] = argv.slice(2);
let status = 2;
if (cmd === 'golden') status = await golden(resolve(rest[0] ?? join(root, 'tests/golden')));
else if (cmd === 'perft' && rest.length >= 2)
  status = await perft(rest[0], Number(rest[1]), Number(rest[2] ?? 1));
else if (cmd === 'replay' && rest.length >= 1)
  status = await replayPage(resolve(rest[0]));
else if (cmd === 'netresign' && env.TABULA_BINARY)
  status = await netResign();
else if (cmd === 'netclaim' && env.TABULA_BINARY)
  status = await netClaim();
else if (cmd === 'netcorr' && env.TABULA_BINARY)
  status = await netCorr();
else if (cmd === 'club' && env.TABULA_BINARY)
  status = await clubPages();
else if (cmd === 'netseries' && env.TABULA_BINARY)
  status = await netSeries();
else if (cmd === 'netwatch' && env.TABULA_BINARY)
  status = await netWatch();
else if (cmd === 'story' && rest.length === 1 && env.TABULA_BINARY)
  status = await storyPage(resolve(rest[0]));
else if (cmd === 'netseek' && env.TABULA_BINARY)
  status = await (rest[0] === 'redis' ? netSeekRedis() : netSeek());
else if (cmd === 'netpool' && env.TABULA_BINARY)
  status = await netPool(rest[0] === 'redis');
else if (cmd === 'nettabs' && env.TABULA_BINARY)
  status = await netTabs(rest[0] === 'nolocks');
else if (cmd === 'nethost' && (rest.length === 1 || rest[1] === 'tls') && env.TABULA_BINARY)
  status = await netHost(rest[0], rest[1] === 'tls');
else if (cmd === 'net' && rest.length >= 2 && env.TABULA_BINARY)
  status = await netPages(resolve(rest[0]), rest.slice(1));
else if (cmd === 'play' && rest.length >= 2)
  status = await playPage(rest[0], Number(rest[1]), rest[2]);
else if (cmd === 'playreload' && rest.length === 1)
  status = await playReload(rest[0]);
else if (cmd === 'bot' && rest.length >= 3)
  status = await botSpeed(rest[0], Number(rest[1]), Number(rest[2]), Number(rest[3] ?? 1));
else if (cmd === 'load' && rest.length >= 1) status = await pageLoad(rest[0]);
else if (cmd === 'figurines') status = await figurinesPage();
else if (cmd === 'levels') status = await levelsPage();
else if (cmd === 'ballmap') status = await ballMapPage();
else if (cmd === 'vball') status = await vballPage();
else if (cmd === 'phone' && rest.length >= 1) status = await phonePage(rest[0], rest[1]);
else if (cmd === 'lang' && rest.length === 1) status = await langPage(rest[0]);
else if (cmd === 'policy' && env.TABULA_BINARY) status = await policyPage();
else if (cmd === 'stale' && env.TABULA_BINARY) status = await stalePage();
else if (cmd === 'offer' && env.TABULA_BINARY) status = await offerPage();
else console.error('usage: node tests/web/browser.mjs golden [DIR] | play GAME PLIES [PNG] | playreload GAME | perft GAME DEPTH [ROUNDS] | bot GAME LEVEL PLIES [SEED] | load GAME | figurines | levels | ballmap | vball | phone GAME [PNG] | lang LANG | replay FILE | net OUTDIR GAME... | nethost GAME [tls] | netresign | netclaim | netwatch | story OUTDIR | netseek [redis] | netpool [redis] | nettabs [nolocks] | policy | stale | offer');
exit(status);
