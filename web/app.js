// app.js: Tabula's page: the start screen (a game against the bot or a
// friend on this device, a network game to host, join or watch, a match
// log to replay), the game screen and the replay viewer. It draws, takes
// clicks and keys, and keeps the list of moves played; every rule,
// notation, result, state hash and signature comes from the WebAssembly
// module (tabula.js); a network game's bytes and time go through net.js.
// The start page lists the lobby's open seeks (seeks.js) and puts one up
// from its form (issue 37).
// Links: #join=CODE[&bot=LEVEL[&seed=S]] and #watch=CODE open a network
// game; a reloaded tab takes its network seat back (seatstore.js), and
// its game on this device (playstore.js).
import { loadTabula, NET, TB_E } from './tabula.js';
import { Board } from './board.js';
import { NetDriver, now } from './net.js';
import { t, tn, N_, setLang, preferredLang, currentLang, catalogue, pluralIndex } from './i18n.js';
import { seatSave, seatLoad, seatInvite, seatForget, seatRelease, seatsFree, seatClaim, codeKey,
  seriesPendingSave, seriesPendingTake, seriesGamesSave, seriesGamesLoad,
  identityKey, nameLoad, nameSave } from './seatstore.js';
import { SeekPoller } from './seeks.js';
import { PoolDriver } from './pool.js';
import { KeptWatch } from './keptwatch.js';
import { drawNotifyToggle, yourMove } from './notices.js';
import { playSave, playLoad, playForget } from './playstore.js';
import { clubPublished, openRatings, checkRatings, openTournament, clubRedraw, clubShown } from './club.js';

const $ = (id) => document.getElementById(id);
// The side words, in the page's language (the result: and final-hash:
// lines, notation and codes stay as the terminal prints them).
const sideName = (i) => [t('White'), t('Black')][i];

let tabula = null;
let game = null; // the game on screen; see newGame / openReplay
let botWorker = null;
let botRequest = 0;
let ball = null; // the Chessball ball (ball3d.js), made on first use

// The message line. text: a string, or a function giving it in the
// page's language, which the language switch calls again.
let said = null;
function say(text) {
  said = typeof text === 'function' ? text : null;
  $('message').textContent = said ? said() : text;
}

// The bot's tie-breaking seed: 32 random bits from the browser's CSPRNG
// (shown beside the players, and taken by #join=...&seed=, so a game can
// be played again move for move).
const randomSeed = () => crypto.getRandomValues(new Uint32Array(1))[0];

// The bot's levels the module plays (the start page's choices,
// #join=...&bot=), as the terminal's `--bot LEVEL` takes them.
const botLevels = () => tabula.botLevels().levels;

// Keep item in view inside its scrolling list, moving the list's own
// scrollTop only (scrollIntoView would scroll the whole window too).
function keepInView(list, item) {
  if (!item) return;
  const l = list.getBoundingClientRect();
  const r = item.getBoundingClientRect();
  if (r.bottom > l.bottom) list.scrollTop += r.bottom - l.bottom;
  if (r.top < l.top) list.scrollTop -= l.top - r.top;
}

// An error from the module in the page's language: its tb_error.h name
// is looked up in the catalogue as the terminal's _(tb_strerror(rc)) is;
// the rest (a move's text, a frame number) stays.
function errText(e) {
  if (!tabula || !Object.values(TB_E).includes(e?.code)) return e?.message ?? String(e);
  const name = tabula.str(tabula.x.web_error(e.code));
  return name && e.message.includes(name) ? e.message.replace(name, t(name)) : e.message;
}

const board = new Board($('board'), {
  onMove: (text) => humanMove(text),
  say,
  onChoices: (texts) => {
    const box = $('choices');
    box.replaceChildren(...texts.map((t) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = t;
      b.addEventListener('click', () => humanMove(t));
      return b;
    }));
  },
  onDraw: (v, marks) => {
    if (ball && game?.name === 'chessball') ball.show(v, marks);
  },
});

// Chessball is shown on the ball as well as on the flat map of its
// fields (the map stays: it is the fallback where WebGL is missing).
// (Side by side with the map on a wide screen: style.css .with-ball. The
// hover line is there for the ball only.)
async function showBall(on) {
  const drawn = (yes) => {
    $('ball').hidden = !yes;
    $('board-wrap').classList.toggle('with-ball', yes);
  };
  drawn(on);
  $('hover').hidden = !on;
  $('hover').textContent = '';
  if (!on || ball) {
    window.tabulaPage.boardReady = true;
    return;
  }
  window.tabulaPage.boardReady = false;
  try {
    const { Ball3D } = await import('./ball3d.js');
    ball = new Ball3D($('ball'), tabula.ball(), {
      onSelect: (name) => board.select(name),
      onHover: (text) => { $('hover').textContent = text; },
    });
    board.draw();
  } catch (e) {
    drawn(false);
    $('hover').textContent = t('the ball cannot be drawn here ({why}): the map below has every field', { why: e.message });
  }
  window.tabulaPage.boardReady = true;
}

// The game's title (core/'s, translated by its msgid as the terminal's
// client/core_text.c does), and a replayed log's file name.
function drawTitle() {
  const info = game.name && tabula.games().find((g) => g.name === game.name);
  const title = info ? t(info.title) : t('Network game');
  $('game-title').textContent = game.fileName ? `${title}: ${game.fileName}` : title;
}

function show(section) {
  for (const id of ['loading', 'start', 'game', 'club']) $(id).hidden = id !== section;
  if (section === 'start' && tabula) void drawKept();
  else keptWatch?.stop(); // (watched only while the start page is open)
  seekPoller?.show(section === 'start');
  if (section !== 'start') poolCancel(); // (an offer is made from the start page, for it)
  // (a network game's board waits for its position: netRefresh)
  if (section === 'game') $('board-wrap').hidden = game?.mode === 'net' && !game.pos;
}

// Leaving a replay goes back in the browser's history to the entry it
// came from (openReplay added one), so the browser's Back leaves it too.
function home() {
  if (game?.mode === 'replay' && history.state?.replay) { history.back(); return; }
  disarmResign();
  stopBot();
  if (game?.mode === 'net') netClose();
  else if (game?.pos) game.pos.free();
  seatRelease(); // a seat left stays kept: the start page lists it
  playForget(); // a game on this device left is gone
  game = null;
  location.hash = '';
  show('start');
}

// New game (or the logo) in a game on this device under way asks once,
// as the terminal's q does: the game is not kept once left, so a
// misclick lost it. A second click within LEAVE_ARMED_MS leaves; a
// network seat is kept (the start page lists it) and a finished game
// has nothing to lose, so they leave at once.
const LEAVE_ARMED_MS = 3000;
let leaveArmed = 0; // the timer of an armed leave, or 0
const leaveQuestion = () => t('Click New game again to leave this game: it is not kept');
function leave() {
  // (armed, and still asking: a move since then asks again)
  const asked = leaveArmed && said === leaveQuestion;
  if (!asked && game?.mode === 'play' && game.moves.length > 0 && !over()) {
    clearTimeout(leaveArmed);
    leaveArmed = setTimeout(() => {
      leaveArmed = 0;
      if (said === leaveQuestion) say('');
    }, LEAVE_ARMED_MS);
    say(leaveQuestion);
    return;
  }
  clearTimeout(leaveArmed);
  leaveArmed = 0;
  home();
}

function stopBot() {
  botRequest++;
  if (botWorker) { botWorker.terminate(); botWorker = null; }
}

// ---- a game on this device ---------------------------------------------

// options: match options as `tabula play --options` takes them (the
// start page gives none; the browser tests do, for a long game).
function newGame(name, opponent, side, options = '') {
  const bot = opponent.startsWith('bot:') ? Number(opponent.slice(4)) : 0;
  // players[side]: 'human' or a bot level
  openGame({ name, options, players: bot ? (side === 0 ? ['human', bot] : [bot, 'human'])
    : ['human', 'human'], seed: randomSeed() });
  say(() => t('type {hint}; or click the squares (? explains)', { hint: t(game.info.hint) }));
  refresh();
}

// The game this tab kept before its reload (playstore.js), its moves
// replayed by the module: true when it is back on screen. A record the
// module refuses (an unknown game or level, bad options, a move it does
// not take) is dropped. A finished game comes back finished.
function resumePlay() {
  const kept = playLoad();
  if (!kept) return false;
  try {
    // (as the page makes them: a person at one side at least, a bot at
    // most at one, and only a person resigns)
    if (!tabula.games().some((g) => g.name === kept.name) ||
        !kept.players.every((p) => p === 'human' || botLevels().includes(p)) ||
        !kept.players.includes('human') ||
        (kept.resigned >= 0 && kept.players[kept.resigned] !== 'human'))
      throw new Error('not a game of this page');
    openGame(kept);
  } catch (e) {
    console.warn(`the kept game is dropped: ${e.message}`);
    playForget();
    game?.pos?.free();
    game = null;
    return false;
  }
  const n = game.moves.length;
  say(() => tn('resumed: {n} move from this browser\'s storage',
    'resumed: {n} moves from this browser\'s storage', n));
  refresh(); // (the bot goes on when it is its turn)
  return true;
}

// Put a game on this device on screen: name, options, players, the bot's
// seed, and the moves played so far (replayed here: throws when the
// module refuses one) and a resignation (-1 none).
function openGame({ name, options, players, seed, moves = [], resigned = -1 }) {
  disarmResign();
  stopBot();
  const info = tabula.games().find((g) => g.name === name);
  game = { mode: 'play', name, options, info, moves: [], squares: [],
    pos: tabula.position(name, options), players, seed, resigned: -1 };
  // (a record holds each move's own text, as play() gives it back)
  for (const text of moves)
    if (play(text) !== text) throw new Error(`'${text}' is not as the module writes it`);
  // (a resignation ends a game still running: one the board ended stays)
  if (resigned >= 0 && !over()) game.resigned = resigned;
  board.flipped = players[0] !== 'human' && players[1] === 'human';
  drawTitle();
  drawPlayers();
  $('controls').hidden = false;
  $('takeback').hidden = false;
  $('resign').hidden = false;
  $('replay-controls').hidden = true;
  $('net-panel').hidden = true;
  $('move-form').hidden = false;
  $('final').textContent = '';
  show('game');
  showBall(name === 'chessball');
}

// Who plays a game on this device, and the bot's seed.
function drawPlayers() {
  const bot = game.players.some((p) => p !== 'human');
  $('players').textContent = game.players.map((p, i) =>
    `${sideName(i)}: ${p === 'human' ? t('you') : t('bot level {level}', { level: p })}`).join(' · ') +
    (bot ? ` · ${t('bot seed {seed}', { seed: game.seed })}` : '');
}

function over() {
  return game.resigned >= 0 || game.pos.status().outcome !== '*';
}

function humanToMove() {
  return !over() && game.players[game.pos.status().side] === 'human';
}

function refresh() {
  if (game.mode === 'net') { netRefresh(); return; }
  if (game.mode === 'play') playSave(game); // what a reload brings back
  const st = game.pos.status();
  const mine = game.mode === 'play' && humanToMove();
  const moves = mine ? game.pos.moveSquares() : [];
  board.enabled = mine;
  board.show(game.pos.view(), moves, game.squares[game.squares.length - 1] ?? []);
  $('legal-moves').replaceChildren(...moves.map((m) => {
    const o = document.createElement('option');
    o.value = m.text;
    return o;
  }));
  $('move-input').disabled = !mine;
  $('view-status').textContent = game.pos.view().status;
  drawMoveList();
  if (game.mode === 'play' && game.resigned >= 0) {
    $('status').textContent =
      `${game.resigned ? '1-0' : '0-1'}: ${game.resigned ? t('Black resigned') : t('White resigned')}`;
  } else if (game.mode === 'replay' && game.at === game.all.length && game.result) {
    // The log's own result (a resignation is not on the board).
    $('status').textContent = `result: ${game.result.outcome} (${game.result.reason})`;
  } else if (st.outcome !== '*') {
    $('status').textContent = `${st.outcome} (${tabula.text('reason', st.reason)})`;
  } else {
    $('status').textContent = (st.side ? t('Black to move, ply {n}', { n: st.ply + 1 })
      : t('White to move, ply {n}', { n: st.ply + 1 }));
  }
  if (game.mode === 'play' && over()) {
    $('final').textContent = `final-hash: ${game.pos.stateHash()}`;
    board.enabled = false;
  }
  // A finished game cannot be resigned; taking moves back stays (against
  // a bot, to try another line).
  $('resign').disabled = game.mode === 'play' && over();
  $('takeback').disabled = false;
  drawHelp();
  if (game.mode === 'play' && !over() && !mine) botTurn();
}

function drawMoveList() {
  const list = $('move-list');
  // The ply numbers are text of their own (not list markers, which a
  // narrow list clips at three digits).
  list.replaceChildren(...game.moves.map((m, i) => {
    const li = document.createElement('li');
    const n = document.createElement('span');
    n.className = 'ply';
    n.textContent = `${i + 1}.`;
    li.append(n, ` ${sideName(m.side)[0]} ${m.text}`);
    if (game.mode === 'replay' && i === game.at - 1) li.className = 'current';
    if (game.mode === 'replay') li.addEventListener('click', () => replayTo(i + 1));
    return li;
  }));
  keepInView(list, list.querySelector('.current') ?? list.lastElementChild);
}

// Play a move; returns its canonical text (a typed move may leave out
// letters). Throws on a bad move; nothing changed then.
function play(text) {
  const side = game.pos.status().side;
  const before = game.pos.moveSquares();
  const played = game.pos.play(text);
  const mv = before.find((m) => m.text === played);
  game.moves.push({ side, text: played });
  game.squares.push(mv ? mv.squares : []);
  return played;
}

function humanMove(text) {
  if (game.mode === 'net') { netMove(text); return; }
  if (!humanToMove()) { say(() => t('it is not your move')); return; }
  try {
    const played = play(text);
    say(() => played === text ? t('played {move}', { move: played })
      : t('{typed}: played {move}', { typed: text, move: played }));
  } catch (e) {
    say(() => errText(e)); // names the move: "'e5-e4': illegal move"
    return;
  }
  refresh();
}

// The game's own help (`tabula rules`'s, in its page form: the module's
// web_help, client/game_help.c GAME_HELP_PAGE) with examples legal now,
// in the page's language. The text is wrapped for a terminal: its
// paragraphs are joined again (indented lines, the examples and the line
// that leads them, and one-word headings such as "Moves" stay lines of
// their own).
function helpText() {
  const heading = /^\p{Lu}\p{Ll}+$/u;
  const lines = game.pos.help().split('\n');
  const own = (line, next) => line === '' || line.startsWith('  ') || heading.test(line) ||
    (line.endsWith(':') && next?.startsWith('  '));
  return lines.reduce((acc, line, i) => {
    const keep = own(line, lines[i + 1]) || acc.endsWith('\n') || acc === '';
    return acc + (keep ? (acc && !acc.endsWith('\n') ? '\n' : '') : ' ') + line +
      (line === '' || heading.test(line) ? '\n' : '');
  }, '');
}

function toggleHelp() {
  const box = $('help');
  if (!box.hidden) { box.hidden = true; return; }
  if (!game.pos) return; // a network game before its start: no game yet
  box.hidden = false;
  drawHelp();
}

// An open help is always of the game on screen and its examples legal
// now: drawn again with the board (a new game, a move, a takeback).
function drawHelp() {
  const box = $('help');
  if (box.hidden) return;
  if (!game?.pos) { box.hidden = true; return; }
  box.textContent = helpText();
}

function botTurn() {
  const side = game.pos.status().side;
  const level = game.players[side];
  const id = ++botRequest;
  botWorker ??= new Worker(new URL('./bot-worker.js', import.meta.url),
    { type: 'module' });
  botWorker.onmessage = (e) => {
    if (e.data.id !== botRequest || !game || game.mode !== 'play') return;
    if (e.data.error) { say(() => t('the bot failed: {why}', { why: e.data.error })); return; }
    play(e.data.move);
    say(() => t('the bot played {move}', { move: e.data.move }));
    refresh();
  };
  say(() => `${t('the bot is thinking')}…`);
  botWorker.postMessage({ id, game: game.name, options: game.options,
    moves: game.moves.map((m) => m.text), level,
    seed: (game.seed + game.moves.length) >>> 0 });
}

// Take back the last ply; against the bot, on to where you are to move
// again (a side may act several times running in Chess volleyball): the
// module says how far, by the terminal's rule.
function takeBack() {
  if (game.mode !== 'play') return;
  if (game.resigned >= 0) {
    // A takeback after resigning withdraws the resignation alone: the
    // moves stay, and the page says so.
    game.resigned = -1;
    $('final').textContent = '';
    say(() => t('the resignation is withdrawn'));
    refresh();
    return;
  }
  // the terminal's rule (match_takeback_plies): the human side's last ply
  // and what followed; with two players here, the last ply
  const human = game.players.reduce((m, p, side) => (p === 'human' ? m | (side ? 2 : 1) : m), 0);
  const n = tabula.takebackPlies(game.name, game.options, game.moves.map((m) => m.text), human);
  if (n === 0) { say(() => t('nothing to take back')); return; }
  stopBot();
  replayMoves(game.moves.slice(0, game.moves.length - n));
  game.resigned = -1;
  $('final').textContent = '';
  say(() => t('taken back'));
  refresh();
}

function replayMoves(moves) {
  game.pos.free();
  game.pos = tabula.position(game.name, game.options);
  game.moves = [];
  game.squares = [];
  for (const m of moves) play(m.text);
}

// ---- replaying a match log ---------------------------------------------

async function openReplay(file) {
  $('replay-error').textContent = '';
  const bytes = new Uint8Array(await file.arrayBuffer());
  const r = tabula.verifyLog(bytes);
  // Refused as `tabula replay` refuses it: a log cut short (torn) too.
  if (!r.ok) {
    $('replay-error').textContent = r.status === 'torn'
      ? `${file.name}: FAILED: ${tn('the log is cut short inside a frame, after {n} signed message',
        'the log is cut short inside a frame, after {n} signed messages', r.envelopes)}`
      : `${file.name}: FAILED at frame ${r.frame} (ply ${r.ply}): ${r.why}`;
    return r;
  }
  stopBot();
  playForget(); // (this tab shows a log now)
  const info = tabula.games().find((g) => g.name === r.game.name);
  game = { mode: 'replay', name: r.game.name, options: r.game.options, info,
    all: r.game.moves, result: r.game.result, moves: [], squares: [], at: 0,
    pos: tabula.position(r.game.name, r.game.options) };
  game.fileName = file.name;
  drawTitle();
  $('players').textContent =
    `verified: ${tn('{n} signed message', '{n} signed messages', r.envelopes)}, ${
      tn('{n} ply', '{n} plies', r.plies)}`;
  // New game leaves the log (so does the browser's Back: the history
  // entry below); a log has nothing to take back or resign.
  $('controls').hidden = false;
  $('takeback').hidden = true;
  $('resign').hidden = true;
  $('net-panel').hidden = true;
  $('replay-controls').hidden = false;
  $('move-form').hidden = true;
  $('final').textContent = `final-hash: ${r.finalHash}`;
  board.flipped = false;
  if (history.state?.replay) history.replaceState({ replay: true }, '');
  else history.pushState({ replay: true }, '');
  show('game');
  replayTo(r.game.moves.length);
  showBall(r.game.name === 'chessball');
  say(() => t('step through the game with the arrows or the {keys} keys', { keys: '← →' }));
  return r;
}

function replayTo(n) {
  n = Math.max(0, Math.min(n, game.all.length));
  replayMoves(game.all.slice(0, n).map((text) => ({ text })));
  game.at = n;
  refresh();
}

// ---- a network game (net.js, web/wasm/web_match.h) ---------------------

// What the page's seat is, with and without its bot (msgids for t()).
const ROLES = [
  [N_('you: host'), N_('you: host, the bot (level {level}) plays for you')],
  [N_('you: guest'), N_('you: guest, the bot (level {level}) plays for you')],
  [N_('you: spectator'), N_('you: spectator')],
];

function lobbyUrl() {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/`;
}

// The lobby's framed TCP address (HOST:PORT), for the terminal commands
// a host shows: the server that serves the page says it in the header
// X-Tabula-Lobby of its responses (lobby/http.c); null when it does not.
// A wildcard address (0.0.0.0, [::]) is reached by this page's host name.
let lobbyTcp;
function lobbyTcpAddress() {
  lobbyTcp ??= fetch(location.pathname, { method: 'HEAD', cache: 'no-store' })
    .then((r) => {
      const a = r.headers.get('x-tabula-lobby');
      const m = a?.match(/^(.*):(\d+)$/);
      if (!m) return null;
      const wild = m[1] === '0.0.0.0' || m[1] === '[::]';
      const host = location.hostname.includes(':') ? `[${location.hostname}]` : location.hostname;
      return wild ? `${host}:${m[2]}` : a;
    }).catch(() => null);
  return lobbyTcp;
}

function link(kind, code) {
  return `${location.origin}${location.pathname}#${kind}=${code}`;
}

// The moves of a resumed seat's game ({name, options, moves}) with the
// side that played each, as the module's position says.
function movesOf(g) {
  const p = tabula.position(g.name, g.options);
  try {
    return g.moves.map((text) => {
      const side = p.status().side;
      p.play(text);
      return { side, text };
    });
  } finally {
    p.free();
  }
}

// role 0 host (game, options), 1 guest, 2 spectator (code); bot: the
// level of the core's bot that plays the seat (0: you); kept: a record
// of seatstore.js whose seat a reloaded page takes back.
// seek: {name} puts a host's room on the lobby's public list, with the
// player's display name (name '' for none) signed by this browser's
// identity key (web_net_seek); a kept seeking host seeks again.
// expect: {game, options} a seek's card promised, which a guest that
// took it from the list holds its host to (web_net_take).
// pool: a PoolOffer the lobby paired: its seat key and seat (host or
// guest as the pairing says, web_pool_seat), freed here.
// series: {series, key, games} a series' next game (web_series.h): its
// seat from the Series, under the series' key; games: what the page
// shows of the games played.
function netGame({ role, name = '', options = '', code = '', bot = 0, seed = null, kept = null,
  seek = null, expect = null, pool = null, series = null }) {
  disarmResign();
  stopBot();
  if (game?.mode === 'net') netClose();
  playForget(); // (this tab's game is a network game now)
  // each seat its own key (seatstore.js): two tabs are two players
  const key = kept ? kept.key : pool ? pool.key() : series ? series.key : tabula.keyNew();
  if (kept?.seek) seek = { name: nameLoad() };
  const seekBy = seek && { idKey: identityKey(() => tabula.keyNew()), name: seek.name };
  // a kept seat of a series' game: the series first, which holds it
  let keptSeries = null;
  if (kept?.series) {
    try {
      keptSeries = tabula.seriesRead(kept.series, key);
    } catch (e) {
      console.warn(`the kept series is dropped: ${e.message}`);
    }
  }
  let seat;
  try {
    seat = kept
      ? tabula.netResume({ role, game: name, options, key, bot: bot > 0, seat: kept.seat, log: kept.log,
        seek: seekBy, series: keptSeries })
      : pool ? pool.seat({ bot: bot > 0 })
        : series ? series.series.next({ bot: bot > 0 })
        : tabula.netSeat({ role, game: name, options, code, key, bot: bot > 0, seek: seekBy, expect });
  } finally {
    pool?.free(); // (its seat key is the seat's now, or the offer is over)
  }
  // the turn in progress goes on for the time the page was away
  if (kept) seat.resumeTurn(kept.turnAt, Date.now(), now());
  const soFar = kept ? seat.game() : null;
  game = { mode: 'net', role, name, options, bot, seat, key, moves: soFar ? movesOf(soFar) : [],
    turnAt: kept?.turnAt ?? 0, seek: Boolean(seek),
    squares: [], notes: [], final: '', pos: null, failed: null, link: '',
    seed: seed ?? randomSeed(), series: series?.series ?? null, seriesGames: series?.games ?? [] };
  if (keptSeries) {
    game.series = keptSeries;
    game.seriesGames = seriesGamesLoad(key).map(seriesGame);
  }
  game.seriesText = game.series?.text() ?? '';
  board.flipped = role === 1;
  drawTitle();
  drawNetPlayers();
  $('controls').hidden = false;
  $('replay-controls').hidden = true;
  $('net-panel').hidden = false;
  $('move-form').hidden = role === 2 || bot > 0;
  $('final').textContent = '';
  $('notes').replaceChildren();
  const codes = seat.codes();
  $('net-room').replaceChildren();
  // The codes are shown once the lobby has the room (its first answer),
  // as the terminal prints invite: only when the room exists: a code
  // given out sooner can be refused as unknown.
  // (not a series' next game: its guest finds the room with no code
  // typed, and a code shown would read as one to send: a trial)
  const showRoom = () => {
    if (role !== 0 || game.room || series) return;
    game.room = codes;
    drawRoom();
    lobbyTcpAddress().then((a) => {
      if (game?.room !== codes || !a) return;
      game.lobbyTcp = a;
      drawRoom();
    });
  };
  say(() => role === 0 ? t('waiting for the opponent to join') : `${t('connecting to the lobby')}…`);
  show('game');
  game.driver = new NetDriver(seat, lobbyUrl(), {
    onOutput: netOutput,
    onConnection: (state, text) => {
      if (state === 'connected') showRoom();
      // one note a change (the retries' countdown is the message line's)
      // (as the terminal's lines: "reconnected" after a loss)
      if (state !== game.link) {
        netNote(state !== 'connected' ? () => `lobby: ${text()}`
          : game.link === 'lost' ? 'lobby: reconnected' : 'lobby: connected');
      }
      game.link = state;
      say(state === 'connected' ? () => (role === 2 ? t('watching the game')
        : bot ? t('the bot plays your seat') : t('click or type your moves on your turn')) : text);
      netRefresh();
    },
    onFailed: (text, why) => netFailed(text, why, role === 1 ? codes.invite : codes.watch),
    onPumped: () => { if (!game.final) seatSave(game); },
  });
  if (kept?.stored) {
    const n = game.moves.length;
    netNote(() => tn('resumed: {n} move from this browser\'s storage',
      'resumed: {n} moves from this browser\'s storage', n));
  }
  game.clockTimer = setInterval(() => { if (game?.mode === 'net') netClocks(); }, 250);
  window.tabulaPage.boardReady = false;
  netRefresh();
}

// A host's room: the codes with the links for a browser and, once the
// lobby's TCP address is known, the commands a terminal player or
// spectator types (as the terminal host's waiting screen shows them), in
// the page's language.
function drawRoom() {
  const room = $('net-room');
  const codes = game?.room;
  if (!codes) { room.replaceChildren(); return; }
  const part = (label, href) => {
    const a = document.createElement('a');
    a.href = href;
    a.target = '_blank'; // this page keeps its own seat
    a.textContent = href;
    const p = document.createElement('div');
    p.append(`${label} `, a);
    return p;
  };
  const command = (label, text) => {
    const c = document.createElement('code');
    c.textContent = text;
    const p = document.createElement('div');
    p.className = 'terminal';
    p.append(`${label} `, c);
    return p;
  };
  const tcp = game.lobbyTcp;
  room.replaceChildren(part(`invite: ${codes.invite}, ${t("opponent's link:")}`, link('join', codes.invite)),
    ...(tcp ? [command(t('Your opponent types, on their terminal:'), `tabula join ${codes.invite} --lobby ${tcp}`)] : []),
    part(`watch: ${codes.watch}, ${t("spectators' link:")}`, link('watch', codes.watch)),
    ...(tcp ? [command(t('A spectator types:'), `tabula spectate ${codes.watch} --lobby ${tcp}`)] : []));
}

// What the page's seat is (and its bot's seed), in the page's language.
function drawNetPlayers() {
  const { role, bot } = game;
  $('players').textContent = (bot ? t(ROLES[role][1], { level: bot }) : t(ROLES[role][0])) +
    (bot ? ` · ${t('bot seed {seed}', { seed: game.seed })}` : '');
}

// Leave the network game for the start page, saying why in the line
// where (a start page form's error line).
function netLeave(where, why) {
  stopBot();
  netClose();
  game = null;
  history.replaceState(null, '', location.pathname + location.search);
  show('start');
  $(where).textContent = why;
}

// The lobby refused the seat, or is lost; text() says why. A joiner or
// spectator refused before it was let in (a wrong code) is back on the
// start page with the reason and the code to correct; otherwise the game
// screen says why. A seat kept for a reload is given up when the lobby
// refused it, not when only the connection failed (why.transient): a
// reload once the lobby is back takes it again.
function netFailed(text, why, code) {
  if (!(why?.transient && why.admitted)) seatForget();
  if (why && !why.admitted && game.role !== 0) {
    netLeave('net-error', text());
    $('net-code').value = code;
    return;
  }
  game.failed = text;
  netNote(text);
  say(text);
  netRefresh();
}

// ---- a series (issue 38; web/wasm/web_series.h) ------------------------
// After a game of a series ends, its end stays on the screen this long
// (ms) before the next game's seat is made, as the terminal goes on to
// the next game itself once one ends.
const SERIES_PAUSE_MS = 3000;

// The game that ended was a series' (the module says): counted, listed
// with its signed log, and the next one begun after a pause (host or
// guest, the code both players compute, the series' key), or the series'
// end said.
function seriesGameOver() {
  if (game.role === 2) return;
  let series;
  try {
    series = tabula.seriesAfter(game.series, game.seat, game.key);
  } catch (e) {
    netNote(() => errText(e));
    return;
  }
  if (!series) return;
  game.series = series;
  const st = game.seat.state(now());
  const log = game.seat.log();
  game.seriesGames.push(seriesGame({ outcome: st.outcome, reason: st.reason, side: st.side, log }));
  seriesGamesSave(game.key, game.seriesGames);
  game.seriesText = series.text();
  const s = series.state();
  drawSeries();
  if (s.stop) {
    netNote(() => series.stopText());
    return;
  }
  const g = game;
  // (its options kept with the seat, so a host's reload before its
  // guest came starts the game the series says: a trial)
  const next = { series: game.seriesText, key: g.key, role: s.host ? 0 : 1,
    name: g.seat.game()?.name ?? g.name, options: s.options, bot: g.bot, seed: (g.seed + 1) >>> 0,
    games: g.seriesGames };
  seriesPendingSave(next); // (a reload in the pause goes on: seriesResume)
  say(() => t('the next game of the series begins in a moment'));
  setTimeout(() => {
    if (game !== g) return; // (the player left the game)
    seriesPendingTake();
    netStart(() => seriesNext(next, series), 'net-host-error');
  }, SERIES_PAUSE_MS);
}

// A game of a series as the page lists it, with a link to its log.
function seriesGame(g) {
  return { ...g, url: URL.createObjectURL(new Blob([g.log], { type: 'application/octet-stream' })) };
}

// The next game of a series: next as seriesGameOver kept it, series its
// Series (the module's).
function seriesNext(next, series) {
  netGame({ role: next.role, name: next.name, options: next.options, bot: next.bot,
    seed: next.seed, series: { series, key: next.key, games: next.games } });
}

// A reload in the pause between two games of a series: the series goes
// on (its next game's seat made as it would have been); false when this
// tab has no such series.
function seriesResume() {
  const next = seriesPendingTake();
  if (!next) return false;
  let series;
  try {
    series = tabula.seriesRead(next.series, next.key);
  } catch (e) {
    console.warn(`the kept series is dropped: ${e.message}`);
    return false;
  }
  next.games = next.games.map(seriesGame);
  netStart(() => seriesNext(next, series), 'net-host-error');
  return true;
}

// The series' line (game K of N and the score) and its games so far,
// each with its signed log.
function drawSeries() {
  const line = game?.mode === 'net' && game.seat.h ? tabula.seriesLine(game.seat, game.series) : '';
  $('series-line').hidden = !line;
  $('series-line').textContent = line;
  const games = game?.seriesGames ?? [];
  $('series-games').hidden = games.length === 0;
  $('series-games').replaceChildren(...games.map((g, i) => {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = g.url;
    a.download = `tabula-series-game-${i + 1}.log`;
    a.textContent = t('Download the log');
    // (with the side the page played: "0-1" alone says not who won)
    li.append(`${g.outcome} (${tabula.text('reason', g.reason)}) ` +
      `${g.side ? t('(you are Black)') : t('(you are White)')} `, a);
    return li;
  }));
}

function netClose() {
  clearInterval(game.clockTimer);
  game.driver.stop();
  game.seat.free();
  game.pos = null;
}

// A note of the session's (text: a string, or a function giving it in
// the page's language, called again when the language changes).
function netNote(text) {
  const note = typeof text === 'function' ? text : () => text;
  game.notes.push(note);
  const li = document.createElement('li');
  li.textContent = note();
  $('notes').append(li);
  keepInView($('notes'), li);
}

function drawNotes() {
  $('notes').replaceChildren(...game.notes.map((note) => {
    const li = document.createElement('li');
    li.textContent = note();
    return li;
  }));
  const last = $('notes').lastElementChild;
  if (last) keepInView($('notes'), last);
}

function netOutput(out) {
  if (out.kind === NET.PLY) {
    const [ply, side, text, hash] = out.text.split('\t');
    const fresh = Number(ply) > game.moves.length; // (not a rebuild's)
    game.moves.length = Math.min(game.moves.length, Number(ply) - 1);
    game.moves.push({ side: Number(side), text, hash });
    // The opponent's move, as it comes, takes the message line (as the
    // terminal's 'opponent played'), where the player's own 'sent ...'
    // stayed (a new-user trial). Not the plies a reload replays from
    // the kept log before the lobby is reached, nor a spectator's.
    if (fresh && game.link === 'connected' && game.role !== 2 &&
        Number(side) !== game.seat.state(now()).side)
      say(() => t('the opponent played {move}', { move: text }));
  } else if (out.kind === NET.THINK) {
    netBot(Number(out.text));
  } else if (out.kind === NET.SEEKED) {
    // "seek: listed", or why not (TB_E_SEEKS: the limit's words)
    const reason = Number(out.text);
    const words = () => tabula.seekedText(reason);
    if (reason && !game.pos) {
      // A room no list shows is one nobody finds: the seek ends before
      // its game, as the terminal's does, and the form says why.
      seatForget();
      netLeave('seek-error', words());
      return;
    }
    netNote(words);
  } else if (out.kind === NET.DONE) {
    game.final = out.text;
    seatForget(); // nothing to take back
    say(() => t('the game is over: Download the log keeps its signed record'));
    seriesGameOver();
  } else {
    // The session's note, typed (code, arguments, English line: the
    // module says it in the page's language each time it is drawn).
    const typed = out.text;
    const english = typed.slice(typed.lastIndexOf('\x1f') + 1);
    netNote(() => tabula.text('note', typed));
    if (english.startsWith('final-hash: ')) $('final').textContent = english;
    // The session's answer to the player's own line (a command's result
    // or refusal, that it waits for the turn, and what a waiting line
    // did once the turn came; a move's refusal) takes the message line,
    // where an older error, "sent" or waiting line would otherwise stay.
    else if (out.answer) say(() => tabula.text('note', typed));
  }
  netRefresh();
}

// The bot's move for the seat, from the Web Worker, handed to the module.
function netBot(token) {
  const g = game.seat.game();
  const id = ++botRequest;
  botWorker ??= new Worker(new URL('./bot-worker.js', import.meta.url),
    { type: 'module' });
  botWorker.onmessage = (e) => {
    if (e.data.id !== botRequest || game?.mode !== 'net') return;
    if (e.data.error) { say(() => t('the bot failed: {why}', { why: e.data.error })); return; }
    const rc = game.seat.botMove(now(), token, e.data.move);
    if (rc !== 0) {
      const err = tabula.lastError();
      netNote(() => t("the bot's move {move} was refused: {why}", { move: e.data.move, why: errText(err) }));
    }
    game.driver.pump();
  };
  botWorker.postMessage({ id, game: g.name, options: g.options, moves: g.moves,
    level: game.bot, seed: (game.seed + g.moves.length) >>> 0 });
}

// The conduct commands the terminal takes on its move line
// (docs/usage.md; the session's one grammar, match_conduct_line): typed
// in the page's move box they go to the session as commands, which
// refuses a malformed one (`takeback x`) with its reason.
function netMove(text) {
  // (a seat that stopped sends nothing: say why, not "sent")
  if (game.failed) { say(game.failed); return; }
  if (tabula.isConduct(text)) { netCommand(text); return; }
  try {
    game.seat.move(now(), text);
    say(() => t('sent {move}', { move: text }));
  } catch (e) {
    say(() => errText(e));
  }
  game.driver.pump();
}

// A button's command for the session; out of turn the session keeps it
// for the turn (a draw offer is answered on your turn) and says so in a
// note (match/note.c), which the message line shows, as the terminal's;
// the line's own answer follows there once the turn came.
function netCommand(line) {
  if (game?.mode !== 'net') return;
  if (game.failed) { say(game.failed); return; }
  try {
    game.seat.command(now(), line);
  } catch (e) {
    say(() => `${line}: ${errText(e)}`);
    game.driver.pump();
    return;
  }
  // (the session's notes that answer it take the message line: netOutput)
  game.driver.pump();
}


// Resign asks once: the first click turns the button into "Resign? Click
// again" for RESIGN_ARMED_MS, and only a second click within that time
// resigns (a misclick loses no game).
const RESIGN_ARMED_MS = 3000;
let resignArmed = 0; // the timer of an armed Resign, or 0
const resignQuestion = () => t('Click Resign again to resign');
function resignAsked() {
  const again = Boolean(resignArmed);
  if (again) disarmResign();
  else {
    resignArmed = setTimeout(disarmResign, RESIGN_ARMED_MS);
    $('resign').classList.add('armed');
    drawResign();
    say(resignQuestion);
  }
  return again;
}

function disarmResign() {
  clearTimeout(resignArmed);
  resignArmed = 0;
  $('resign').classList.remove('armed');
  drawResign();
  if (said === resignQuestion) say('');
}

function drawResign() {
  $('resign').textContent = resignArmed ? t('Resign? Click again') : t(PAGE_TEXTS.resign);
}

function clockText(ms) {
  // whole seconds left, rounded down as the terminal and lichess do; an
  // hour or more as h:mm:ss, as the terminal's board (a period or days
  // clock: 40/90 starts at 1:30:00, 3days at 72:00:00)
  const s = Math.max(0, Math.floor(ms / 1000));
  const mmss = `${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mmss}` : `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function netClocks() {
  const st = game.seat.state(now());
  $('clocks').textContent = st.clock[0] < 0 ? ''
    : [0, 1].map((i) => `${sideName(i)} ${clockText(st.clock[i])}${st.toMove === i && !st.finished ? ' ◀' : ''}`).join('   ');
  return st;
}

function netRefresh() {
  drawSeries();
  const st = netClocks();
  const pos = game.seat.position();
  game.pos = pos;
  // No board before the match starts (not the last game's, left drawn).
  $('board-wrap').hidden = !pos;
  const mine = pos !== null && !game.bot && st.side >= 0 && !st.finished &&
    st.outcome === '*' && st.toMove === st.side;
  if (pos && !game.shownBall) {
    // The game is known once the match start came (a guest, a spectator).
    game.shownBall = true;
    game.name = game.seat.game().name;
    drawTitle();
    showBall(game.name === 'chessball');
  }
  if (pos) {
    const moves = mine ? pos.moveSquares() : [];
    board.enabled = mine;
    board.show(pos.view(), moves, []);
    $('legal-moves').replaceChildren(...moves.map((m) => {
      const o = document.createElement('option');
      o.value = m.text;
      return o;
    }));
    $('view-status').textContent = pos.view().status;
  }
  $('move-input').disabled = !mine;
  // It became the player's move while the tab is hidden: the title and a
  // notification say so (notices.js); not for the moves a kept seat's
  // log replays before the lobby is reached.
  if (mine && !game.wasMine && game.link === 'connected') {
    const g = game.seat.glance(st.side, Date.now());
    yourMove(gameTitle(g.game), lastMove(g), game.seat.codes().invite);
  }
  game.wasMine = mine;
  // The list is the moves on the session's board: a takeback shortens it
  // at once, not at the next move's PLY.
  game.moves.length = Math.min(game.moves.length, Math.max(0, st.moves));
  drawMoveList();
  drawHelp();
  const you = st.side >= 0 ? ` ${st.side ? t('(you are Black)') : t('(you are White)')}` : '';
  if (game.failed) $('status').textContent = game.failed();
  else if (!pos) $('status').textContent = game.role === 0 ? t('waiting for the opponent') : t('waiting for the match to start');
  else if (st.finished || st.outcome !== '*')
    $('status').textContent = `${st.outcome} (${tabula.text('reason', st.reason)})`;
  else $('status').textContent = (st.toMove
    ? t('Black to move, ply {n}', { n: st.moves + 1 }) : t('White to move, ply {n}', { n: st.moves + 1 })) + you;
  const other = st.side >= 0 ? 1 - st.side : -1;
  const offer = st.draw >= 0 ? (st.draw ? t('Black offers a draw') : t('White offers a draw'))
    : st.takeback.side >= 0 ? (st.takeback.side
      ? tn('Black asks to take back {n} ply', 'Black asks to take back {n} plies', st.takeback.plies)
      : tn('White asks to take back {n} ply', 'White asks to take back {n} plies', st.takeback.plies)) : '';
  $('offer').textContent = offer;
  // After the end there is nothing to offer, answer or resign: the
  // buttons stay in place (the layout does not jump) but cannot be used.
  const ended = Boolean(game.final) || st.finished || st.outcome !== '*';
  const answer = !ended && st.side >= 0 && !game.bot && (st.draw === other || st.takeback.side === other);
  $('accept').hidden = !answer;
  $('decline').hidden = !answer;
  for (const id of ['draw', 'resign', 'takeback']) {
    $(id).hidden = st.side < 0 || game.bot > 0;
    $(id).disabled = ended || !pos;
  }
  // The opponent away past the countdown (G-MC-9): the claims, as the
  // note says ('type claim win or claim draw'); a bot's seat too, since
  // its bot makes no claim.
  for (const id of ['claim-win', 'claim-draw']) $(id).hidden = ended || st.side < 0 || st.absence !== 0;
  $('download-log').disabled = !pos;
}

function downloadLog() {
  if (game?.mode !== 'net') return;
  let bytes;
  try {
    bytes = game.seat.log();
  } catch (e) {
    say(() => errText(e));
    return;
  }
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
  a.download = `tabula-${game.name}-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}.log`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60000);
}

// A seat of this invite code kept in this browser and run by no tab (a
// guest's first: the link is the guest's), taken for this tab; or null.
async function keptSeat(code) {
  if (!codeKey(code)) return null;
  const free = await seatsFree(code);
  free.sort((a, b) => b.role - a.role);
  for (const r of free)
    if (await seatClaim(r)) return r;
  return null;
}

// Take back a kept seat this tab has claimed; one the module cannot take
// back (a damaged record) is forgotten, and the error goes on.
function resume(kept) {
  try {
    netGame({ role: kept.role, name: kept.name, options: kept.options, bot: kept.bot,
      seed: kept.seed, kept });
  } catch (e) {
    seatForget();
    throw e;
  }
}

// Start a network game from the start page with fn (its result may be a
// promise): a refusal goes back to the start page, said in where.
function netStart(fn, where = 'net-error') {
  const failed = (e) => { $(where).textContent = errText(e); show('start'); };
  $('net-error').textContent = '';
  $('net-host-error').textContent = '';
  $('seek-error').textContent = '';
  try { Promise.resolve(fn()).catch(failed); } catch (e) { failed(e); }
}

// The start page's list of the games this browser keeps and no tab runs,
// each with whose move it is, the time left on the running clock and the
// last move (the module reads the kept log as `tabula games` reads a
// seat's: web_glance_log), your moves first, and a button that takes it
// back. While the list is shown each running game is watched on the
// lobby (keptwatch.js): an opponent's move turns its row to "your move"
// and, the tab hidden, tells the player (notices.js).
let keptWatch = null;
let keptShown = []; // the records listed, each with its glance
const keptSeen = new Map(); // record id -> the latest glance its watch gave
const KEPT_REDRAW_MS = 30000; // the time left drawn again while shown
let keptTimer = 0;

async function drawKept() {
  const list = await seatsFree();
  if ($('start').hidden) return; // (left meanwhile)
  for (const r of list) {
    const kept = tabula.glanceLog(r.log, r.role, Date.now());
    const seen = keptWatch?.glance(r.id, r.role);
    r.glance = seen && seen.envelopes >= (kept?.envelopes ?? -1) ? seen : kept;
  }
  keptShown = list;
  drawKeptRows();
  keptWatch ??= new KeptWatch(tabula, lobbyUrl(), keptNews);
  keptWatch.watch(list);
  clearTimeout(keptTimer);
  keptTimer = setTimeout(() => { if (!$('start').hidden) drawKept(); }, KEPT_REDRAW_MS);
}

// A game's title in the page's language, by its name.
function gameTitle(name) {
  const g = tabula.games().find((x) => x.name === name);
  return g ? t(g.title) : name;
}

// A glance's last move as the terminal's games line writes it (12.e5xc3).
const lastMove = (g) => (g?.lastPly > 0 ? `${g.lastPly}.${g.last}` : '');

function keptState(g) {
  if (!g || g.turn === 'waiting') return t('waiting for the opponent');
  if (g.turn === 'you') return t('your move');
  if (g.turn === 'opponent') return t("opponent's move");
  return `${g.outcome} (${tabula.text('reason', g.reason)})`;
}

function drawKeptRows() {
  const rank = (r) => (r.glance?.turn === 'you' ? 0 : 1);
  const list = [...keptShown].sort((a, b) => rank(a) - rank(b)); // (stable: newest first within)
  const items = list.map((r) => {
    const li = document.createElement('li');
    const g = r.glance;
    li.dataset.turn = g?.turn ?? 'unread';
    li.dataset.code = seatInvite(r);
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = t('Resume');
    b.addEventListener('click', async () => {
      if (await seatClaim(r)) netStart(() => resume(r));
      else drawKept(); // another tab took it meanwhile
    });
    const what = [gameTitle(g?.game || r.name), t(ROLES[r.role][0]), seatInvite(r)].filter((x) => x);
    const state = document.createElement('strong');
    state.className = 'kept-turn';
    state.textContent = keptState(g);
    const more = [g && g.turn !== 'over' && g.leftMs >= 0 ? t('{left} left', { left: g.left }) : '',
      lastMove(g) ? t('last move {move}', { move: lastMove(g) }) : ''].filter((x) => x);
    li.append(`${what.join(' · ')}: `, state, more.length ? ` · ${more.join(' · ')} ` : ' ', b);
    return li;
  });
  $('kept-list').replaceChildren(...items);
  $('kept-seats').hidden = items.length === 0;
}

// News of a kept game from its watch: its row drawn again and, when it
// became the player's move, the player told (the tab hidden).
function keptNews(r, g) {
  const old = keptSeen.get(r.id) ?? r.glance;
  keptSeen.set(r.id, g);
  if (old && old.envelopes === g.envelopes && old.turn === g.turn) return;
  // (the list may have been read again since the watch began)
  for (const x of keptShown) if (x.id === r.id) x.glance = g;
  if (!$('start').hidden) drawKeptRows();
  if (g.turn === 'you') yourMove(gameTitle(g.game), lastMove(g), seatInvite(r));
}

// The "Notify me of my moves" toggles (start page, network game).
function drawNotify() {
  for (const id of ['notify-start', 'notify-game']) drawNotifyToggle($(id), drawNotify);
}

// Join with code, or take back this browser's kept seat of that code.
async function joinOrResume({ code, bot = 0, seed = null, expect = null }) {
  const kept = await keptSeat(code);
  if (kept) resume(kept);
  else netGame({ role: 1, code, bot, seed, expect });
}

// #join=CODE[&bot=LEVEL[&seed=S]] and #watch=CODE; false when the hash is
// neither. loading: the page was (re)loaded: a seat this tab kept is
// taken back when the link is its own or there is none. A #join= link of
// a seat this browser keeps and no tab runs takes that seat back (a tab
// closed in the middle of a game and opened again from its link).
async function openLink(loading = false) {
  const p = new URLSearchParams(location.hash.slice(1));
  // A link copied out of a sentence may carry its punctuation ("...#join=
  // CODE," on the host's screen): a code never ends in one.
  const bare = (v) => (v === null ? null : v.replace(/[.,;:!?)\]'"]+$/, ''));
  const join = bare(p.get('join'));
  const watch = bare(p.get('watch'));
  const tournament = p.get('tournament');
  if (tournament !== null || p.has('ratings')) {
    await clubOpen(() => (tournament !== null ? openTournament(tabula, tournament) : openRatings(tabula)));
    return true;
  }
  const kept = loading ? seatLoad() : null;
  if (loading && !kept && !join && !watch && seriesResume()) return true;
  try {
    if (kept && (join ? codeKey(join) === codeKey(seatInvite(kept)) : !watch) &&
        await seatClaim(kept)) {
      resume(kept);
      return true;
    }
    if (join) {
      const level = p.get('bot');
      const seedText = p.get('seed');
      const levels = botLevels();
      if (level !== null && !levels.map(String).includes(level)) {
        $('net-code').value = join;
        throw new Error(t("bad bot level '{level}' in the link: the page's bot plays levels {levels}",
          { level, levels: `${levels[0]}..${levels[levels.length - 1]}` }));
      }
      // seed: the bot's tie-breaking seed (as `tabula join --seed`), so a
      // game can be played again move for move; random otherwise.
      if (seedText !== null && !(/^\d{1,10}$/.test(seedText) && Number(seedText) <= 0xffffffff)) {
        $('net-code').value = join;
        throw new Error(t("bad seed '{seed}' in the link: expected a whole number 0..4294967295",
          { seed: seedText }));
      }
      await joinOrResume({ code: join, bot: level === null ? 0 : Number(level),
        seed: seedText === null ? null : Number(seedText) });
    } else if (watch) netGame({ role: 2, code: watch });
    else return false;
  } catch (e) {
    $('net-error').textContent = errText(e);
    show('start');
  }
  return true;
}

// ---- the club: the relay's ratings, a tournament (club.js, issue 38) -----

// Open the club view with what open() draws (a promise); its failure is
// said on the start page.
async function clubOpen(open) {
  $('club-error').textContent = '';
  $('club-view-error').textContent = '';
  try {
    await open();
    show('club');
  } catch (e) {
    $('club-error').textContent = errText(e);
    show('start');
  }
}

// The start page's Club box and its Ratings button, shown when the relay
// publishes an archive and a list.
async function clubProbe() {
  // (the Club box only on a relay with an archive, as docs/web.md says:
  // a trial found its tournament field on one without)
  const { archive, ratings } = await clubPublished();
  $('club-panel').hidden = !archive;
  $('ratings-open-p').hidden = !ratings;
}

function clubWire() {
  $('ratings-open').addEventListener('click', () => { location.hash = 'ratings'; });
  $('tourney-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const url = $('tourney-url').value.trim();
    if (url) location.hash = `tournament=${url}`;
  });
  $('club-back').addEventListener('click', () => { location.hash = ''; show('start'); });
  $('ratings-check').addEventListener('click', async () => {
    $('club-view-error').textContent = '';
    try {
      await checkRatings(tabula);
    } catch (e) {
      $('club-view-error').textContent = errText(e);
    }
  });
  void clubProbe();
}

// ---- the lobby's open seeks (issue 37) ----------------------------------

// The last list drawn (seeks.js's, each seek checked by the module), or
// the error of the last refresh.
let seekPoller = null;
let seeksShown = { list: null, error: null };

// Each open seek a row: Play, which joins with its code as the join form
// does (holding the host to the seek's game and options), the player as the module shows one (the name, or nothing, and
// the fingerprint of the key that signed it: two players of one name
// read differently), the game, clock, options and how long it has
// waited.
// Every field goes in as text (textContent): a name is hostile, though
// the module refused control and bidi characters already.
function drawSeeks() {
  const { list, error } = seeksShown;
  const seeks = list?.seeks ?? [];
  const title = (name) => {
    const g = tabula.games().find((x) => x.name === name);
    return g ? t(g.title) : name;
  };
  $('seeks-list').replaceChildren(...seeks.map((s) => {
    const tr = document.createElement('tr');
    tr.dataset.code = s.code;
    // (Play first: on a phone the row scrolls sideways, the button stays)
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = t('Play');
    // (as Join with the code, the join form's You play; and the host
    // held to the game and options the list showed, as tabula join does)
    b.addEventListener('click', () => {
      $('net-code').value = s.code;
      netStart(() => joinOrResume({ code: s.code, bot: Number($('net-join-bot').value),
        expect: { game: s.game, options: s.cardOptions } }));
    });
    const play = document.createElement('td');
    play.append(b);
    tr.append(play);
    for (const [text, cls] of [[s.shown, 'who'], [title(s.game), 'game'], [s.clock || '-', 'clock'],
      [s.options || '-', 'options'], [s.waited, 'waited']]) {
      const td = document.createElement('td');
      td.className = cls;
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  }));
  $('seeks-table').hidden = seeks.length === 0;
  $('seeks-none').className = error ? 'error' : '';
  $('seeks-none').textContent = error
    ? t('the list of seeks could not be read: {why}', { why: errText(error) })
    : list && !seeks.length ? t('No seek is open on this lobby: put one up with the form Create a seek.')
      : '';
}

// ---- the pool (issue 37) -------------------------------------------------

// The offer waiting ({driver, offer, bot, counts}), or null.
let pool = null;

// The games of the pool form: a box per game of the module's catalogue.
function drawPoolGames() {
  const box = $('pool-games');
  const legend = box.querySelector('legend');
  const checked = new Set([...box.querySelectorAll('input:checked')].map((i) => i.value));
  box.replaceChildren(legend, ...tabula.games().map((g) => {
    const label = document.createElement('label');
    const input = document.createElement('input');
    input.type = 'checkbox';
    input.value = g.name;
    input.checked = checked.has(g.name);
    label.append(input, ` ${t(g.title)}`);
    return label;
  }));
}

// How many wait for each game offered, as the relay last said it, in
// the page's language.
function drawPool() {
  const waiting = pool !== null;
  $('pool-offer').hidden = waiting;
  $('pool-cancel').hidden = !waiting;
  for (const el of $('pool-form').querySelectorAll('input, select')) el.disabled = waiting;
  if (!waiting) return;
  const title = (name) => {
    const g = tabula.games().find((x) => x.name === name);
    return g ? t(g.title) : name;
  };
  $('pool-status').textContent = pool.away
    ? `${t('the connection to the lobby was lost; offering again')}…`
    : pool.counts
      ? t('In the pool: {counts}', { counts: pool.counts.map(({ game: g, n }) =>
        tn('{game}: {n} waiting', '{game}: {n} waiting', n, { game: title(g) })).join(', ') })
      : `${t('offering to the lobby')}…`;
}

// Withdraw the waiting offer, if any (its connection closed).
function poolCancel(said = '') {
  if (!pool) return;
  pool.driver.cancel();
  pool.offer.free();
  pool = null;
  drawPool();
  $('pool-status').textContent = said;
}

function poolOffer() {
  const games = [...$('pool-games').querySelectorAll('input:checked')].map((i) => i.value);
  if (!games.length) throw new Error(t('Choose at least one game.'));
  // (the player's key proves the offer, as the terminal's identity does)
  const offer = tabula.poolOffer({ games, range: $('pool-clock').value.trim(),
    rating: $('pool-rating').value.trim(), idKey: identityKey(() => tabula.keyNew()) });
  const bot = Number($('pool-bot').value);
  pool = { offer, bot, counts: null, away: false };
  pool.driver = new PoolDriver(offer, lobbyUrl(), {
    onWait: (counts) => { pool.counts = counts; pool.away = false; drawPool(); },
    // (taken, then lost: the same offer goes out again, seat_pool_lost)
    onAway: () => { pool.away = true; pool.counts = null; drawPool(); },
    onPaired: (paired) => {
      const mine = pool;
      pool = null;
      drawPool();
      $('pool-status').textContent = '';
      // (the game as a host or guest plays it: the seat is the offer's)
      netStart(() => netGame({ role: paired.role, name: paired.game, options: paired.options,
        bot: mine.bot, pool: mine.offer }), 'pool-error');
    },
    onFailed: (e) => {
      poolCancel();
      $('pool-error').textContent = t('the lobby did not take the offer: {why}', { why: errText(e) });
    },
  });
  drawPool();
}

// ---- the page's languages (i18n.js) -------------------------------------

// index.html's texts: data-i18n="KEY" (text), data-i18n-html (a text with
// <code> marks), data-i18n-placeholder, data-i18n-aria (aria-label).
const PAGE_TEXTS = {
  tagline: N_('Laska, Chessball, Football chess, Chess volleyball'),
  loading: N_('Loading the rules engine...'),
  'new-game': N_('New game'),
  game: N_('Game'),
  opponent: N_('Opponent'),
  friend: N_('A friend on this device'),
  'play-as': N_('Play as'),
  white: N_('White'),
  black: N_('Black'),
  start: N_('Start'),
  'host-game': N_('Host a network game'),
  options: N_('Options'),
  defaults: N_("the game's defaults"),
  clock: N_('Clock'),
  'no-clock': N_('none, or 5+3, 5d3, 40/90+30, 3days'),
  'you-play': N_('You play'),
  host: N_('Host'),
  'host-hint': N_('You play White; the page shows the invite code and a link for your opponent, and a watch link for spectators.'),
  'series-games': N_('Games (a series)'),
  'join-game': N_('Join or watch a game'),
  'open-seeks': N_('Open seeks'),
  'seeks-hint': N_('Players waiting for an opponent on this lobby. Play takes the seat, as joining with the code does.'),
  player: N_('Player'),
  waiting: N_('Waiting'),
  'create-seek': N_('Create a seek'),
  'your-name': N_('Your name'),
  'no-name': N_('no name'),
  'put-up-seek': N_('Put up the seek'),
  'seek-hint': N_('You play White in a room on the lobby\'s public list; the first player who takes it plays you. Your name is signed by this browser\'s key.'),
  'play-anyone': N_('Play anyone'),
  games: N_('Games'),
  clocks: N_('Clocks'),
  'clock-range': N_('none, or 5+0, or 3+2..10+5'),
  'ratings-range': N_('Ratings'),
  'rating-range': N_('any, or 1400..1800'),
  offer: N_('Offer'),
  cancel: N_('Cancel'),
  'pool-hint': N_('The lobby pairs you with the player who has waited longest among those who share a game and a clock with you; the one who waited longer plays White.'),
  'kept-games': N_('Your games in this browser'),
  code: N_('Code'),
  join: N_('Join (invite code)'),
  watch: N_('Watch (watch code)'),
  replay: N_('Replay a match log'),
  'replay-hint': N_('Drop a <code>.log</code> file written by <code>tabula host</code>, <code>join</code> or <code>spectate</code> with <code>--log</code> here. It is verified in this page with the same checks as <code>tabula replay</code>: signatures, hash chain, every move\'s legality and state hash.'),
  'choose-log': N_('Or choose a log:'),
  'offer-draw': N_('Offer a draw'),
  accept: N_('Accept'),
  decline: N_('Decline'),
  'claim-win': N_('Claim the win'),
  'claim-draw': N_('Claim a draw'),
  download: N_('Download the log'),
  move: N_('Move'),
  play: N_('Play'),
  flip: N_('Flip board'),
  takeback: N_('Take back'),
  resign: N_('Resign'),
  'how-to-play': N_('How to play (?)'),
  'first-ply': N_('first ply'),
  'prev-ply': N_('previous ply'),
  'next-ply': N_('next ply'),
  'last-ply': N_('last ply'),
  board: N_('board'),
  club: N_('Club'),
  ratings: N_('Ratings'),
  'ratings-open-hint': N_("this relay's ratings, which this page can recompute from its logs"),
  tournament: N_('Tournament'),
  show: N_('Show'),
  back: N_('Back'),
  'ratings-hint': N_('Glicko-2 ratings the relay publishes, made by tabula ratings from the logs it kept. Check downloads every log and makes the list again in this page with the same code.'),
  check: N_('Check'),
};

function applyTexts() {
  const each = (attr, fn) => {
    for (const el of document.querySelectorAll(`[${attr}]`)) {
      const msgid = PAGE_TEXTS[el.getAttribute(attr)];
      if (msgid) fn(el, t(msgid));
    }
  };
  each('data-i18n', (el, text) => { el.textContent = text; });
  // (our own catalogues: the translations keep the <code> marks)
  each('data-i18n-html', (el, text) => { el.innerHTML = text; });
  each('data-i18n-placeholder', (el, text) => { el.placeholder = text; });
  each('data-i18n-aria', (el, text) => { el.setAttribute('aria-label', text); });
  if (tabula) clubRedraw(tabula);
  for (const b of document.querySelectorAll('#lang button')) {
    b.setAttribute('aria-pressed', String(b.dataset.lang === currentLang()));
  }
  if (tabula) {
    for (const sel of [$('game-name'), $('net-game'), $('seek-game')]) {
      for (const o of sel.options) o.textContent = t(tabula.games().find((g) => g.name === o.value).title);
    }
  }
  if (tabula) drawLevels();
  if (tabula) drawSeeks();
  if (tabula) { drawPoolGames(); drawPool(); }
  if (tabula) drawNotify();
  if (tabula && !$('start').hidden) drawKeptRows();
}

// The opponents and players the start page offers: the module's bot at
// each of its levels (the one `tabula play` plays first), a friend, you.
function drawLevels() {
  const { levels, play } = tabula.botLevels();
  const option = (value, text) => {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = text;
    return o;
  };
  const opponent = $('opponent');
  const chosen = opponent.value || `bot:${play}`;
  opponent.replaceChildren(...levels.map((l) => option(`bot:${l}`, t('Bot, level {level}', { level: l }))),
    option('human', t(PAGE_TEXTS.friend)));
  opponent.value = chosen;
  for (const b of document.querySelectorAll('.net-bot')) {
    const keep = b.value;
    b.replaceChildren(option('0', t('yourself')),
      ...levels.map((l) => option(String(l), t('the bot, level {level}', { level: l }))));
    if (keep) b.value = keep;
  }
}

// The module's own texts (help, the board's status line and cells,
// network notes, end reasons) in the page's language: the same
// catalogue, handed in. A refusal leaves them as they were.
function moduleLang() {
  if (!tabula) return;
  try {
    tabula.setCatalogue(catalogue(), pluralIndex);
  } catch (e) {
    console.warn(`the module's texts stay as they were: ${e.message}`);
  }
}

// The switch: the new language's texts, and the screen drawn again (the
// status, the players, the message line, a host's room line and the
// session's notes).
async function switchLang(to) {
  if (await setLang(to, true) === null) return; // a later click decides
  moduleLang();
  drawHelp();
  applyTexts();
  drawResign();
  if (game) drawTitle();
  if (game && game.mode === 'net') {
    drawNetPlayers();
    drawRoom();
    drawNotes();
    netRefresh();
  }
  else if (game && game.mode === 'play') {
    drawPlayers();
    refresh();
  } else if (game) refresh();
  if (game && said) $('message').textContent = said();
  window.tabulaPage.lang = currentLang();
}

// ---- wiring --------------------------------------------------------------

function wire() {
  const sel = $('game-name');
  sel.replaceChildren(...tabula.games().map((g) => {
    const o = document.createElement('option');
    o.value = g.name;
    o.textContent = t(g.title);
    return o;
  }));
  $('new-game').addEventListener('submit', (e) => {
    e.preventDefault();
    newGame(sel.value, $('opponent').value, Number($('play-as').value));
  });
  $('move-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = $('move-input').value.trim();
    if (!text) {
      const moves = `${game.pos.moves().slice(0, 12).join(', ')}…`;
      say(() => t('legal moves: {moves}', { moves }));
      return;
    }
    $('move-input').value = '';
    humanMove(text);
  });
  $('flip').addEventListener('click', () => { board.flipped = !board.flipped; board.draw(); });
  $('takeback').addEventListener('click', () => (game.mode === 'net' ? netCommand('takeback') : takeBack()));
  $('draw').addEventListener('click', () => netCommand('draw'));
  $('accept').addEventListener('click', () => netCommand('accept'));
  $('decline').addEventListener('click', () => netCommand('decline'));
  $('claim-win').addEventListener('click', () => netCommand('claim win'));
  $('claim-draw').addEventListener('click', () => netCommand('claim draw'));
  $('download-log').addEventListener('click', downloadLog);
  const netSel = $('net-game');
  netSel.replaceChildren(...[...sel.options].map((o) => o.cloneNode(true)));
  const seekSel = $('seek-game');
  seekSel.replaceChildren(...[...sel.options].map((o) => o.cloneNode(true)));
  $('seek-name').value = nameLoad();
  for (const b of document.querySelectorAll('#lang button')) {
    b.addEventListener('click', () => switchLang(b.dataset.lang));
  }
  applyTexts();
  // (a form's refusal is shown in that form: the host's under Host)
  $('net-host').addEventListener('submit', (e) => {
    e.preventDefault();
    netStart(() => {
      // the clock as `tabula host --clock` reads it (seat/seat.h)
      const opts = tabula.seriesOptions(
        tabula.clockOptions($('net-options').value.trim(), $('net-clock').value.trim()),
        Number($('net-series').value || 1));
      netGame({ role: 0, name: netSel.value, options: opts,
        bot: Number($('net-host-bot').value) });
    }, 'net-host-error');
  });
  // A seek: a host's game as above, put on the lobby's public list with
  // the display name checked by the module (proto_name_check) and kept.
  $('seek-form').addEventListener('submit', (e) => {
    e.preventDefault();
    netStart(() => {
      const typed = $('seek-name').value;
      let name = '';
      if (typed.trim()) {
        try {
          name = tabula.nameCheck(typed);
        } catch (err) {
          throw new Error(t('name refused: {why}', { why: err.message }));
        }
      }
      nameSave(name);
      $('seek-name').value = name;
      const opts = tabula.clockOptions($('seek-options').value.trim(), $('seek-clock').value.trim());
      netGame({ role: 0, name: seekSel.value, options: opts, bot: Number($('seek-bot').value),
        seek: { name } });
    }, 'seek-error');
  });
  // The pool: several games at a range of clocks (the module reads the
  // range, proto_clock_range_parse); the counts until paired.
  $('pool-form').addEventListener('submit', (e) => {
    e.preventDefault();
    $('pool-error').textContent = '';
    if (pool) return;
    try {
      poolOffer();
    } catch (err) {
      $('pool-error').textContent = errText(err);
    }
  });
  $('pool-cancel').addEventListener('click', () => poolCancel(t('You withdrew your offer.')));
  seekPoller = new SeekPoller(tabula, lobbyUrl(), (list, error) => {
    seeksShown = { list: list ?? seeksShown.list, error };
    drawSeeks();
  });
  $('net-join').addEventListener('submit', (e) => {
    e.preventDefault();
    netStart(() => joinOrResume({ code: $('net-code').value,
      bot: Number($('net-join-bot').value) }));
  });
  $('net-watch').addEventListener('click', () =>
    netStart(() => netGame({ role: 2, code: $('net-code').value })));
  clubWire();
  window.addEventListener('hashchange', () => { if (location.hash.length > 1) openLink(); });
  // The browser's Back out of a replay (a link typed meanwhile opens).
  window.addEventListener('popstate', () => {
    if (game?.mode === 'replay' && !history.state?.replay && location.hash.length <= 1) home();
  });
  // A seat in a running game asks before its tab closes (it can come back
  // from its link or the start page's list, but the opponent waits).
  window.addEventListener('beforeunload', (e) => {
    if (game?.mode === 'net' && game.role < 2 && game.pos && !game.final) e.preventDefault();
  });
  $('help-button').addEventListener('click', toggleHelp);
  $('resign').addEventListener('click', () => {
    if (game.mode === 'net' ? game.final || !game.pos : game.mode !== 'play' || over()) return;
    if (!resignAsked()) return;
    if (game.mode === 'net') { netCommand('resign'); return; }
    stopBot();
    game.resigned = game.players[0] === 'human' && game.players[1] !== 'human'
      ? 0 : game.players[1] === 'human' && game.players[0] !== 'human'
        ? 1 : game.pos.status().side;
    refresh();
  });
  $('new').addEventListener('click', leave);
  $('home').addEventListener('click', (e) => { e.preventDefault(); leave(); });
  $('first').addEventListener('click', () => replayTo(0));
  $('prev').addEventListener('click', () => replayTo(game.at - 1));
  $('next').addEventListener('click', () => replayTo(game.at + 1));
  $('last').addEventListener('click', () => replayTo(game.all.length));
  document.addEventListener('keydown', (e) => {
    if (!game || e.target.tagName === 'INPUT') return;
    if (e.key === '?') toggleHelp();
    // (the board's arrow keys move between its squares and are its own)
    if (game.mode !== 'replay' || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const to = { ArrowLeft: game.at - 1, ArrowRight: game.at + 1, Home: 0, End: game.all.length }[e.key];
    if (to === undefined) return;
    e.preventDefault(); // Home and End would scroll the page too
    replayTo(to);
  });
  const drop = $('replay-drop');
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    if (e.dataTransfer.files[0]) openReplay(e.dataTransfer.files[0]);
  });
  $('replay-file').addEventListener('change', (e) => {
    if (e.target.files[0]) openReplay(e.target.files[0]);
    // (so the same log chosen again, after New game, opens again)
    e.target.value = '';
  });
}

// For the browser tests (tests/web/browser.mjs) and the curious.
window.tabulaPage = { newGame, openReplay, netGame, humanMove, get game() { return game; },
  get seeks() { return seeksShown.list?.seeks ?? []; },
  get pool() { return pool && { counts: pool.counts, away: pool.away }; },
  get tabula() { return tabula; }, get club() { return clubShown(); } };

setLang(preferredLang()).then(() => {
  applyTexts();
  window.tabulaPage.lang = currentLang();
  return loadTabula(new URL('./wasm/tabula_web.wasm', import.meta.url));
}).then((tb) => {
  tabula = tb;
  moduleLang();
  wire();
  return openLink(true);
}).then((linked) => {
  if (!linked && !resumePlay()) show('start');
  window.tabulaPage.ready = true;
}).catch((e) => {
  $('loading').textContent = t('The rules engine did not load: {why}', { why: e.message });
});
