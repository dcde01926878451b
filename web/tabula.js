// tabula.js: loads Tabula's WebAssembly module (the C core and protocol,
// web/wasm/web_api.h) into a page or a Web Worker and wraps its exports
// for JavaScript: strings in and out as UTF-8 in the module's memory,
// positions as handles. Nothing here knows a rule, an encoding or a hash:
// every such answer comes from the module. WASI (the C library's few
// system calls: writing to the console, random bytes for keys) is served
// by @bjorn3/browser_wasi_shim (imported by path, since a Web Worker has
// no import map).
import { ConsoleStdout, OpenFile, File, WASI } from
  './node_modules/@bjorn3/browser_wasi_shim/dist/index.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

// The module's "game\tNAME\tOPTIONS" / "move\tNOTATION" lines as
// {name, options, moves}.
function parseGame(text) {
  const game = { name: null, options: '', moves: [] };
  for (const line of text.split('\n')) {
    const [key, a, b] = line.split('\t');
    if (key === 'game') { game.name = a; game.options = b ?? ''; }
    else if (key === 'move') game.moves.push(a);
    else if (key === 'result') game.result = { outcome: a, reason: b };
  }
  return game;
}

export class TabulaError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

// loadTabula(url): fetch, compile and start the module; resolves to a
// Tabula object.
export async function loadTabula(url = '/wasm/tabula_web.wasm') {
  const wasi = new WASI([], [], [
    new OpenFile(new File([])),
    ConsoleStdout.lineBuffered((line) => console.log(`[tabula] ${line}`)),
    ConsoleStdout.lineBuffered((line) => console.warn(`[tabula] ${line}`)),
  ]);
  const module = await WebAssembly.compileStreaming(fetch(url));
  const instance = await WebAssembly.instantiate(module, {
    wasi_snapshot_preview1: wasi.wasiImport,
  });
  wasi.initialize(instance);
  const tabula = new Tabula(instance.exports);
  const rc = tabula.x.web_init();
  if (rc !== 0) throw new TabulaError(rc, 'the crypto library failed to start');
  for (const line of tabula.str(tabula.x.web_codes()).split('\n')) {
    const [group, name, value] = line.split('\t');
    if (group === 'net') NET[name] = Number(value);
    else if (group === 'error') TB_E[name] = Number(value);
  }
  return tabula;
}

export class Tabula {
  constructor(exports) {
    this.x = exports;
  }

  // The module's memory may grow on any call: take a fresh view each time.
  bytes() { return new Uint8Array(this.x.memory.buffer); }

  // A NUL-terminated copy of s in the module's memory; free with free().
  cstr(s) {
    const b = enc.encode(s);
    const p = this.x.web_alloc(b.length + 1);
    if (p === 0) throw new TabulaError(-1, 'out of memory');
    const m = this.bytes();
    m.set(b, p);
    m[p + b.length] = 0;
    return p;
  }

  str(p) {
    if (p === 0) return null;
    const m = this.bytes();
    let end = p;
    while (m[end] !== 0) end++;
    return dec.decode(m.subarray(p, end));
  }

  // Calls fn with the strings copied in, frees them afterwards.
  withStrings(strings, fn) {
    const ps = strings.map((s) => this.cstr(s));
    try {
      return fn(...ps);
    } finally {
      ps.forEach((p) => this.x.web_free(p));
    }
  }

  // The bytes the last call that returns bytes left (web_out_len of them).
  outBytes(p) {
    if (p === 0) throw this.lastError();
    return this.bytes().slice(p, p + this.x.web_out_len());
  }

  // The host's match options with a clock typed as chess players write
  // it ("5+3", "30s+1", "5d3", "40/90+30", "3days"; '' for none) added,
  // read by the C core's one grammar (proto_clock_parse); throws with the
  // reason, in the page's language, when the clock is refused.
  clockOptions(options, clock) {
    const s = this.withStrings([options, clock],
      (o, c) => this.str(this.x.web_clock_options(o, c)));
    if (s === null) throw this.lastError();
    return s;
  }

  // Whether a line typed in the move box is a conduct command for the
  // session (resign, draw, accept, ..., or a malformed one it refuses
  // with its reason) rather than a move: match/match.h's one grammar.
  isConduct(line) { return this.withStrings([line], (p) => this.x.web_conduct_line(p)) === 1; }

  // How many of the last plies of a local game (its name, options and
  // moves' texts) a Take back undoes for the human sides (bit 0 White,
  // bit 1 Black): match/match.h's one rule, as the terminal's. 0: none.
  takebackPlies(name, options, moves, sides) {
    return this.withStrings([name, options, moves.join('\n')],
      (n, o, m) => this.x.web_takeback_plies(n, o, m, sides));
  }

  // A fresh key pair made by the module (libsodium), as the hex of its
  // secret key: the page keeps it in localStorage.
  keyNew() {
    const s = this.str(this.x.web_key_new());
    if (s === null) throw this.lastError();
    return s;
  }

  // The public key (hex) of a key from keyNew; throws if it is none.
  keyPublic(key) {
    const s = this.withStrings([key], (k) => this.str(this.x.web_key_public(k)));
    if (s === null) throw this.lastError();
    return s;
  }

  // A seat of a network game (web/wasm/web_match.h): role 0 host, 1
  // guest, 2 spectator. seek: {idKey, name} puts a host's room on the
  // lobby's public list (web_net_seek: its card signed by the seat's key,
  // the name by the player's identity key idKey; name '' for none).
  // expect: {game, options} holds a guest's host to the seek it takes
  // (web_net_take: the card's game and options, seeksList's).
  netSeat({ role, game = '', options = '', code = '', key, bot = false,
    started = Math.floor(Date.now() / 1000), seek = null, expect = null }) {
    const h = expect
      ? this.withStrings([code, key, expect.game, expect.options],
        (c, k, g, o) => this.x.web_net_take(c, k, bot ? 1 : 0, started, g, o))
      : seek
      ? this.withStrings([game, options, key, seek.idKey, seek.name],
        (g, o, k, i, n) => this.x.web_net_seek(g, o, k, bot ? 1 : 0, started, i, n, Date.now()))
      : this.withStrings([game, options, code, key],
        (g, o, c, k) => this.x.web_net_new(role, g, o, c, k, bot ? 1 : 0, started));
    if (h === 0) throw this.lastError();
    return new NetSeat(this, h);
  }

  // The SEEKS hello asking the lobby for its open seeks (of game, '' all).
  seeksHello(game = '') {
    return this.outBytes(this.withStrings([game], (g) => this.x.web_seeks_hello(g)));
  }

  // One message of the lobby's answer to SEEKS, every card checked by the
  // module (web/wasm/web_seek.h): {seeks: [{code, game, clock, options,
  // since, waited, shown, name, fingerprint, cardOptions}], last, forged};
  // throws on a
  // message that is no list (the lobby's refusal: TB_E_RATE, ...).
  seeksList(bytes, wallNow) {
    const p = this.x.web_alloc(bytes.length || 1);
    if (p === 0) throw new TabulaError(-1, 'out of memory');
    try {
      this.bytes().set(bytes, p);
      const text = this.str(this.x.web_seeks_list(p, bytes.length, wallNow));
      if (text === null) throw this.lastError();
      const out = { seeks: [], last: false, forged: 0 };
      for (const line of text.split('\n')) {
        const f = line.split('\t');
        if (f[0] === 'seek') {
          const [, code, game, clock, options, since, waited, shown, name, fingerprint, card] = f;
          out.seeks.push({ code, game, clock, options, since: Number(since), waited, shown, name,
            fingerprint, cardOptions: card });
        } else if (f[0] === 'end') {
          out.last = f[1] === '1';
          out.forged = Number(f[2]);
        }
      }
      return out;
    } finally {
      this.x.web_free(p);
    }
  }

  // A display name as typed, decided by the module (proto_name_check):
  // its canonical form; throws with the rule's words when refused.
  nameCheck(name) {
    const s = this.withStrings([name], (n) => this.str(this.x.web_name_check(n)));
    if (s === null) throw this.lastError();
    return s;
  }

  // An offer to the lobby's pool (web/wasm/web_pool.h), as `tabula pool
  // GAMES --clock RANGE` makes one: games [names], range as typed
  // ('3+2..10+5', '5+0', '' none: read by the module's one grammar),
  // options (no clock), idKey the player's identity key, which proves the
  // offer; throws with the reason in the page's language.
  poolOffer({ games, range = '', options = '', idKey = '', rating = '' }) {
    const h = this.withStrings([games.join(','), range, options, idKey, rating],
      (g, r, o, i, q) => this.x.web_pool_new(g, r, o, i, q));
    if (h === 0) throw this.lastError();
    return new PoolOffer(this, h);
  }

  // A host's options with a series of games games (web/wasm/web_series.h;
  // games 1: as they are); throws with the reason in the page's language.
  seriesOptions(options, games) {
    const s = this.withStrings([options], (o) => this.str(this.x.web_series_options(o, games)));
    if (s === null) throw this.lastError();
    return s;
  }

  // After seat's game ended (its DONE): series (a Series, or null for a
  // series' first game) with the game counted, or null when the game is
  // no series' (web_series_after); key: the seat's key.
  seriesAfter(series, seat, key) {
    const h = this.withStrings([key], (k) => this.x.web_series_after(series ? series.h : 0, seat.h, k));
    if (h === 0) {
      const e = this.lastError();
      if (e.code !== 0) throw e;
      return null;
    }
    return series ?? new Series(this, h);
  }

  // A series kept as Series.text() gave it, with its key; throws when the
  // text is damaged or not the key's.
  seriesRead(text, key) {
    const h = this.withStrings([text, key], (t, k) => this.x.web_series_read(t, k));
    if (h === 0) throw this.lastError();
    return new Series(this, h);
  }

  // The line a series' game shows on its screen ("Series: game 2 of 3;
  // score: you 1 - opponent 0"; series: the Series so far, or null), ''
  // when seat's game is no series' (or not started).
  seriesLine(seat, series) {
    return this.str(this.x.web_series_line(seat.h, series ? series.h : 0)) ?? '';
  }

  // The relay's answer to a seeking host's SEEK (a SEEKED output's
  // reason) as the terminal's line, in the page's language.
  seekedText(reason) { return this.str(this.x.web_seeked_text(reason)); }

  // A seat of a reloaded page taken back (web_net_resume): role 0 or 1,
  // seat the text NetSeat.seat() gave, log the bytes NetSeat.log() gave
  // (empty before the match start).
  // series: the Series the seat's game is the next game of (the module
  // then holds it to the series: web_series_resume).
  netResume({ role, game = '', options = '', key, bot = false, seat, log,
    started = Math.floor(Date.now() / 1000), seek = null, series = null }) {
    const p = log.length ? this.x.web_alloc(log.length) : 0;
    if (log.length && p === 0) throw new TabulaError(-1, 'out of memory');
    try {
      if (log.length) this.bytes().set(log, p);
      const h = series
        ? this.withStrings([seat], (s) => this.x.web_series_resume(series.h, role, bot ? 1 : 0,
          started, s, p, log.length))
        : this.withStrings([game, options, key, seat, seek?.idKey ?? '', seek?.name ?? ''],
          (g, o, k, s, i, n) => this.x.web_net_resume(role, g, o, k, bot ? 1 : 0,
            started, s, p, log.length, i, n, Date.now()));
      if (h === 0) throw this.lastError();
      return new NetSeat(this, h);
    } finally {
      if (p) this.x.web_free(p);
    }
  }

  lastError() {
    return new TabulaError(this.x.web_last_error(),
      this.str(this.x.web_last_why()));
  }

  // The language of the module's own texts (help, a board's status line
  // and cells, network notes, web_text): a catalogue {msgid: text or
  // [plural forms]} as web/i18n.js holds it, and its plural rule
  // pluralIndex(n) (null, {}: English). Handed in as the layout of
  // client/i18n.h: the rule's forms for n = 0..199, then per entry its
  // msgid, its forms and an empty string, each NUL-terminated. Throws
  // when the module refuses it (its language then stays).
  setCatalogue(cat, pluralIndex) {
    const parts = [];
    let len = 0;
    if (cat && Object.keys(cat).length) {
      const rule = new Uint8Array(200);
      for (let n = 0; n < 200; n++) rule[n] = pluralIndex(n);
      parts.push(rule);
      for (const [id, text] of Object.entries(cat)) {
        const forms = Array.isArray(text) ? text : [text];
        if (!id || !forms.length || forms.some((f) => !f)) continue;
        parts.push(enc.encode(`${[id, ...forms].join('\0')}\0\0`));
      }
      len = parts.reduce((a, b) => a + b.length, 0);
    }
    const p = len ? this.x.web_alloc(len) : 0;
    if (len && p === 0) throw new TabulaError(-1, 'out of memory');
    try {
      let at = p;
      for (const b of parts) { this.bytes().set(b, at); at += b.length; }
      const rc = this.x.web_catalogue(p, len);
      if (rc !== 0) throw this.lastError();
    } finally {
      if (p) this.x.web_free(p);
    }
  }

  // A text of the module's in its language: kind 'reason' (a game-end
  // token of status(), in words: 'resign' -> 'resignation') or 'note' (a
  // network note as the seat gave it: typed).
  text(kind, text) {
    const k = { note: 1, reason: 2 }[kind];
    const s = this.withStrings([text], (p) => this.str(this.x.web_text(k, p)));
    if (s === null) throw this.lastError();
    return s;
  }

  // [{name, title, hint}] of every compiled-in game.
  games() {
    return this.str(this.x.web_games()).split('\n').filter((l) => l)
      .map((l) => {
        const [name, title, hint] = l.split('\t');
        return { name, title, hint };
      });
  }

  // A new Position: the start of game `name` with match options, or the
  // position text `position`.
  position(name, options = '', position = '') {
    const h = this.withStrings([name, options, position],
      (n, o, p) => this.x.web_position_new(n, o, p));
    if (h === 0) throw this.lastError();
    return new Position(this, h);
  }

  // Chessball's solid: [{name, pentagon, verts: [[x, y, z], ...]}] in
  // the core's field order.
  ball() {
    return this.str(this.x.web_ball()).split('\n').map((l) => {
      const w = l.split(' ');
      const n = Number(w[2]);
      const verts = [];
      for (let k = 0; k < n; k++)
        verts.push(w.slice(3 + 3 * k, 6 + 3 * k).map(Number));
      return { name: w[0], pentagon: w[1] === '1', verts };
    });
  }

  // The bot's levels: {levels: [1, 2, ...] weakest first, as the
  // module's bot takes them (the terminal's `--bot LEVEL`), play: the
  // level `tabula play` plays by default}.
  botLevels() {
    const [min, max, play] = this.str(this.x.web_bot_levels()).split(' ').map(Number);
    return { levels: Array.from({ length: max - min + 1 }, (_, i) => min + i), play };
  }

  // A kept seat's log (bytes) at a glance for the player of side (0
  // white, 1 black) at wallNow (Date.now()), or null when it does not
  // verify (web_glance_log; parseGlance).
  glanceLog(bytes, side, wallNow) {
    if (!bytes.length) return null;
    const p = this.x.web_alloc(bytes.length);
    if (p === 0) return null;
    try {
      this.bytes().set(bytes, p);
      const r = this.x.web_glance_log(p, bytes.length, side, wallNow);
      return r === 0 ? null : parseGlance(this.str(r));
    } finally {
      this.x.web_free(p);
    }
  }

  // Verify a signed match log (bytes) as `tabula replay` does:
  // {ok, status: 'ok'|'torn'|'failed', ...} with the report's fields.
  verifyLog(bytes) {
    const p = this.x.web_alloc(bytes.length);
    if (p === 0) throw new TabulaError(-1, 'out of memory');
    try {
      this.bytes().set(bytes, p);
      const rc = this.x.web_log_verify(p, bytes.length);
      const why = this.str(this.x.web_last_why());
      const game = parseGame(this.str(this.x.web_out()));
      const [status, a, b, ...rest] = why.split(' ');
      if (status === 'failed') {
        return { ok: false, code: rc, status, frame: Number(a),
          ply: Number(b), why: rest.join(' '), game };
      }
      return { ok: rc === 0, code: rc, status, envelopes: Number(a),
        plies: Number(b), finalHash: rest[0], game };
    } finally {
      this.x.web_free(p);
    }
  }
}

// The club's published numbers (issue 38; web/wasm/web_club.h): a relay's
// ratings list recomputed from logs, a tournament folder's documents.
// The module makes every text; this only carries bytes in and out.
function withBytes(tabula, bytes, fn) {
  const p = tabula.x.web_alloc(bytes.length);
  if (p === 0) throw new TabulaError(-1, 'out of memory');
  try {
    tabula.bytes().set(bytes, p);
    return fn(p, bytes.length);
  } finally {
    tabula.x.web_free(p);
  }
}

// ratingsText(tabula, logs, relays): the text `tabula ratings --relay R...`
// prints for these logs (each a Uint8Array, or null for one that could
// not be downloaded), made by the same C (club/rating_list.c).
export function ratingsText(tabula, logs, relays = []) {
  const h = tabula.x.web_ratings_new();
  if (h === 0) throw tabula.lastError();
  try {
    for (const r of relays)
      if (tabula.withStrings([r], (p) => tabula.x.web_ratings_trust(h, p)) !== 0) throw tabula.lastError();
    for (const log of logs) {
      const rc = log === null ? tabula.x.web_ratings_unreadable(h)
        : withBytes(tabula, log, (p, n) => tabula.x.web_ratings_add(h, p, n));
      if (rc < 0) throw tabula.lastError();
    }
    const s = tabula.str(tabula.x.web_ratings_text(h));
    if (s === null) throw tabula.lastError();
    return s;
  } finally {
    tabula.x.web_ratings_free(h);
  }
}

// A tournament's documents read in the director's order by the
// director's reader (club/director.h), each signature checked.
export class Tourney {
  constructor(tabula) {
    this.t = tabula;
    this.h = tabula.x.web_tourney_new();
    if (this.h === 0) throw tabula.lastError();
  }

  free() { if (this.h) this.t.x.web_tourney_free(this.h); this.h = 0; }

  // kind 1 tournament.txt, 2 pairings, 3 results; throws with "LINE:
  // WHY" when the document is refused (it is then not taken).
  read(kind, bytes) {
    const rc = withBytes(this.t, bytes, (p, n) => this.t.x.web_tourney_read(this.h, kind, p, n));
    if (rc !== 0) throw this.t.lastError();
  }

  // web_tourney_view's lines as {tournament, players, boards, byes,
  // standings, crosstable (HTML made by club_crosstable_html)}.
  view() {
    const s = this.t.str(this.t.x.web_tourney_view(this.h));
    if (s === null) throw this.t.lastError();
    const cut = s.indexOf('crosstable\n');
    const v = { players: [], boards: [], byes: [], standings: null,
      crosstable: cut < 0 ? '' : s.slice(cut + 'crosstable\n'.length) };
    for (const line of (cut < 0 ? s : s.slice(0, cut)).split('\n')) {
      const [key, ...a] = line.split('\t');
      if (key === 'tournament') {
        v.tournament = { name: a[0], game: a[1], clock: a[2], system: a[3],
          rounds: Number(a[4]), director: a[5] };
      } else if (key === 'player') v.players.push({ rank: Number(a[0]), name: a[1], fingerprint: a[2] });
      else if (key === 'board') {
        v.boards.push({ round: Number(a[0]), board: Number(a[1]), white: a[2], black: a[3], result: a[4] });
      } else if (key === 'bye') v.byes.push({ round: Number(a[0]), board: Number(a[1]), player: a[2] });
      else if (key === 'standings') v.standings = { rounds: Number(a[0]), same: a[1] === '1' };
    }
    return v;
  }
}

// A line of web_glance_log / web_net_glance as {turn: 'waiting'|'you'|
// 'opponent'|'over', game, outcome, reason, leftMs (-1: no running
// clock), left (the page's language, '-' for none), lastPly, last,
// envelopes, caught}: a game at a glance, as `tabula games` reads it
// (client/game_glance.h).
function parseGlance(text) {
  const [turn, game, outcome, reason, leftMs, left, lastPly, last, envelopes, caught] = text.split('\t');
  return { turn, game, outcome, reason, leftMs: Number(leftMs), left, lastPly: Number(lastPly),
    last, envelopes: Number(envelopes), caught: caught === '1' };
}

export class Position {
  // borrowed: a position the module owns (a network game's): never
  // played on or freed here.
  constructor(tabula, handle, borrowed = false) {
    this.t = tabula;
    this.h = handle;
    this.borrowed = borrowed;
  }

  free() {
    if (!this.borrowed) this.t.x.web_position_free(this.h);
    this.h = 0;
  }

  // Legal moves in the core's canonical order, as notation strings.
  moves() {
    const s = this.t.str(this.t.x.web_moves(this.h));
    if (s === null) throw this.t.lastError();
    return s === '' ? [] : s.split('\n');
  }

  // Play a move given in any notation the game accepts; throws on a
  // malformed, ambiguous or illegal move (the position is then unchanged).
  // Returns the canonical text of the move played: a typed move may leave
  // out the action and piece letters when only one legal move fits.
  play(text) {
    const rc = this.t.withStrings([text],
      (p) => this.t.x.web_play(this.h, p));
    if (rc !== 0) throw this.t.lastError();
    return this.t.str(this.t.x.web_out());
  }

  // How this game's moves are written (examples legal now) and what the
  // board shows, as `tabula rules` says it.
  help() {
    const s = this.t.str(this.t.x.web_help(this.h));
    if (s === null) throw this.t.lastError();
    return s;
  }

  // The protocol state hash (64 hex digits), as peers compare it.
  stateHash() {
    const s = this.t.str(this.t.x.web_state_hash(this.h));
    if (s === null) throw this.t.lastError();
    return s;
  }

  // {side, ply, outcome, reason}
  status() {
    const [side, ply, outcome, reason] =
      this.t.str(this.t.x.web_status(this.h)).split(' ');
    return { side: Number(side), ply: Number(ply), outcome, reason };
  }

  text() { return this.t.str(this.t.x.web_position_text(this.h)); }

  // The drawable board: {rows, cols, status, rowLabels, colLabels,
  // cells[r][c] = {kind, owner, name, glyph, detail}}, row 0 at the top
  // as White sees it. Kinds: 0 blank, 1 light, 2 dark, 3 goal, 4 net.
  view() {
    const s = this.t.str(this.t.x.web_view(this.h));
    if (s === null) throw this.t.lastError();
    const lines = s.split('\n');
    const [rows, cols] = lines[0].split(' ').map(Number);
    const v = { rows, cols, status: lines[1].split('\t')[1] ?? '',
      rowLabels: lines[2].split('\t').slice(1),
      colLabels: lines[3].split('\t').slice(1), cells: [] };
    for (let r = 0; r < rows; r++) {
      const row = [];
      for (let c = 0; c < cols; c++) {
        const [kind, owner, name, glyph, detail, piece] =
          lines[4 + r * cols + c].split('\t');
        row.push({ kind: Number(kind), owner: Number(owner), name, glyph,
          detail, piece: piece ?? '' });
      }
      v.cells.push(row);
    }
    return v;
  }

  // [{text, squares: [name, ...]}] for every legal move, in order: the
  // cells its notation passes through, to match clicks to moves.
  moveSquares() {
    const s = this.t.str(this.t.x.web_move_squares(this.h));
    if (s === null) throw this.t.lastError();
    if (s === '') return [];
    return s.split('\n').map((l) => {
      const [text, sq] = l.split('\t');
      return { text, squares: sq ? sq.split(' ') : [] };
    });
  }

  // The bot's move (notation) at a level of botLevels(); the same seed and position
  // give the same move.
  botMove(level, seed) {
    const s = this.t.str(this.t.x.web_bot_move(this.h, level, seed >>> 0));
    if (s === null) throw this.t.lastError();
    return s;
  }

  // Leaf nodes to `depth` plies, as a BigInt.
  perft(depth) {
    const p = this.t.x.web_alloc(8);
    try {
      const rc = this.t.x.web_perft(this.h, depth, p);
      if (rc !== 0) throw this.t.lastError();
      return new DataView(this.t.x.memory.buffer).getBigUint64(p, true);
    } finally {
      this.t.x.web_free(p);
    }
  }
}

// The kinds web_net_poll answers by name (match/match.h's
// Match_Out_Kind: NET.SEND, NET.PLY, ...) and the TB_E_* codes of
// core/tb_error.h (TB_E.TB_E_CODE, ...): filled from the module's
// web_codes when it loads, never written here.
// An offer to the pool in the module: its hello, the relay's answers
// read, and once paired the game's seat.
export class PoolOffer {
  constructor(tabula, handle) {
    this.t = tabula;
    this.h = handle;
  }

  free() { if (this.h) this.t.x.web_pool_free(this.h); this.h = 0; }

  hello() { return this.t.outBytes(this.t.x.web_pool_hello(this.h)); }

  // A message of the relay's: {wait: [{game, n}]} (the offers waiting for
  // each game offered, this one counted) or {paired: {role, game, clock,
  // options}}; throws the relay's refusal (its words in the page's
  // language) or a message that is not the pool's.
  input(bytes) {
    const p = this.t.x.web_alloc(bytes.length || 1);
    if (p === 0) throw new TabulaError(-1, 'out of memory');
    try {
      this.t.bytes().set(bytes, p);
      const text = this.t.str(this.t.x.web_pool_input(this.h, p, bytes.length));
      if (text === null) throw this.t.lastError();
      const f = text.split('\t');
      if (f[0] === 'paired')
        return { paired: { role: Number(f[1]), game: f[2], clock: f[3], options: f[4] } };
      const wait = [];
      for (let i = 1; i + 1 < f.length; i += 2) wait.push({ game: f[i], n: Number(f[i + 1]) });
      return { wait };
    } finally {
      this.t.x.web_free(p);
    }
  }

  // The connection ended unpaired (status: the refusal input threw, its
  // code, or TB_E_TRUNCATED for a close): ms to wait before the hello
  // goes out again on a new connection, or 0 when the offer ends
  // (web_pool_lost, the seat layer's policy).
  lost(status) {
    return this.t.x.web_pool_lost(this.h, status, Math.floor(Date.now() / 1000)) >>> 0;
  }

  // The paired game's seat key (hex), kept with the seat as any seat's.
  key() { return this.t.str(this.t.x.web_pool_key(this.h)); }

  // The paired game's seat (web_pool_seat): host or guest as paired.
  seat({ bot = false, started = Math.floor(Date.now() / 1000) } = {}) {
    const h = this.t.x.web_pool_seat(this.h, bot ? 1 : 0, started);
    if (h === 0) throw this.t.lastError();
    return new NetSeat(this.t, h);
  }
}

// A series as the page's seat plays it (web/wasm/web_series.h).
export class Series {
  constructor(tabula, handle) {
    this.t = tabula;
    this.h = handle;
  }

  free() { if (this.h) this.t.x.web_series_free(this.h); this.h = 0; }

  // {games, played, you, opponent (the scores as read: '1.5'), stop (0
  // while it goes on), host (1: this seat hosts the next game), options
  // (the next game's match options)}.
  state() {
    const [games, played, you, opponent, stop, host, options] =
      this.t.str(this.t.x.web_series_state(this.h)).split('\t');
    return { games: Number(games), played: Number(played), you, opponent, stop: Number(stop),
      host: host === '1', options: options ?? '' };
  }

  // Why the series stopped, or that it is over, in the page's language.
  stopText() { return this.t.str(this.t.x.web_series_stop_text(this.h)); }

  // The seat of the next game (host or guest as the series says).
  next({ bot = false, started = Math.floor(Date.now() / 1000) } = {}) {
    const h = this.t.x.web_series_next(this.h, bot ? 1 : 0, started);
    if (h === 0) throw this.t.lastError();
    return new NetSeat(this.t, h);
  }

  // The series as text for the page's storage.
  text() { return this.t.str(this.t.x.web_series_text(this.h)) ?? ''; }
}

export const NET = {};
export const TB_E = {};

// One seat of a network game in the module: bytes and time in, outputs
// out. Times are ms on one steady clock (performance.now()).
export class NetSeat {
  constructor(tabula, handle) {
    this.t = tabula;
    this.h = handle;
  }

  free() { this.t.x.web_net_free(this.h); this.h = 0; }

  // Why the seat stopped (its FAILED output's failure, reason and
  // refused), in the page's words and the module's language (the
  // terminal's advice, client/advice.c, in the page's terms); lobby: the
  // lobby's address as the page shows it.
  advice(failure, reason, refused, lobby) {
    return this.t.withStrings([lobby],
      (p) => this.t.str(this.t.x.web_net_advice(this.h, failure, reason, refused, p)));
  }

  // {invite, watch} ('' where unknown).
  codes() {
    const [invite, watch] = this.t.str(this.t.x.web_net_codes(this.h)).split('\t');
    return { invite, watch };
  }

  // What a reload needs to take the seat back (web_net_seat): secret.
  seat() {
    const s = this.t.str(this.t.x.web_net_seat(this.h));
    if (s === null) throw this.t.lastError();
    return s;
  }

  // The signed match log so far, or an empty array before the start.
  logSoFar() {
    const p = this.t.x.web_net_log(this.h);
    return p === 0 ? new Uint8Array(0) : this.t.outBytes(p);
  }

  // The first message of a connection.
  hello(now) { return this.t.outBytes(this.t.x.web_net_hello(this.h, now)); }

  // A binary message from the lobby: 0, or a negative code (close the
  // socket; this.t.lastError() says why).
  input(now, bytes) {
    const p = this.t.x.web_alloc(bytes.length);
    if (p === 0) throw new TabulaError(-1, 'out of memory');
    try {
      this.t.bytes().set(bytes, p);
      return this.t.x.web_net_input(this.h, now, p, bytes.length);
    } finally {
      this.t.x.web_free(p);
    }
  }

  closed(now) { this.t.x.web_net_closed(this.h, now); }

  // A move as typed or clicked; throws with the reason when refused.
  move(now, text) {
    const rc = this.t.withStrings([text], (p) => this.t.x.web_net_move(this.h, now, p));
    if (rc !== 0) throw this.t.lastError();
  }

  // resign, draw, accept, decline, abort, takeback [N], claim win|draw.
  command(now, line) {
    const rc = this.t.withStrings([line], (p) => this.t.x.web_net_command(this.h, now, p));
    if (rc !== 0) throw new TabulaError(rc, this.t.str(this.t.x.web_error(rc)));
  }

  botMove(now, token, text) {
    return this.t.withStrings([text],
      (p) => this.t.x.web_net_bot_move(this.h, now, token, p));
  }

  tick(now) { this.t.x.web_net_tick(this.h, now); }

  // A resumed seat's turn in progress began at turnAt (Date.now() ms, 0
  // unknown) and the page is back at wallNow (Date.now()), clockNow on
  // its steady clock (web_net_resume_turn).
  resumeTurn(turnAt, wallNow, clockNow) {
    this.t.x.web_net_resume_turn(this.h, turnAt, wallNow, clockNow);
  }

  // ms the turn in progress has run at now, or -1 (web_net_turn).
  turn(now) { return this.t.x.web_net_turn(this.h, now); }

  deadline() { return this.t.x.web_net_deadline(this.h); }

  // The next output {kind, text, bytes, answer}, or null; answer: a note
  // that answers one of the seat's own lines (web_net_answer).
  poll() {
    const kind = this.t.x.web_net_poll(this.h);
    if (kind === 0) return null;
    if (kind === NET.SEND) return { kind, bytes: this.t.outBytes(this.t.x.web_out()) };
    return { kind, text: this.t.str(this.t.x.web_out()), answer: this.t.x.web_net_answer(this.h) === 1 };
  }

  // web_net_state's lines as {side, toMove, clock: [w, b], draw,
  // takeback: {side, plies}, absence, started, finished, desync, outcome,
  // reason, final, moves}.
  state(now) {
    const v = {};
    for (const line of this.t.str(this.t.x.web_net_state(this.h, now)).split('\n')) {
      const [key, ...a] = line.split('\t');
      v[key] = a;
    }
    const n = (x) => Number(x);
    return { side: n(v.side[0]), toMove: n(v.to_move[0]),
      clock: v.clock.map(n), draw: n(v.draw[0]),
      takeback: { side: n(v.takeback[0]), plies: n(v.takeback[1]) },
      absence: n(v.absence[0]), started: v.started[0] === '1',
      finished: v.finished[0] === '1', desync: v.finished[1] === '1',
      outcome: v.outcome[0], reason: v.outcome[1], final: v.final[0] ?? '',
      moves: n(v.moves[0]) };
  }

  // The match's position (read-only), or null before the start.
  position() {
    const h = this.t.x.web_net_position(this.h);
    return h === 0 ? null : new Position(this.t, h, true);
  }

  // {name, options, moves} of the game so far, or null before the start.
  game() {
    const p = this.t.x.web_net_game(this.h);
    if (p === 0) return null;
    return parseGame(this.t.str(p));
  }

  // The session's game at a glance for the player of side at wallNow
  // (Date.now()): parseGlance's fields (web_net_glance; caught: the
  // seat holds what its room held when it was let in).
  glance(side, wallNow) { return parseGlance(this.t.str(this.t.x.web_net_glance(this.h, side, wallNow))); }

  // The signed match log so far (bytes).
  log() { return this.t.outBytes(this.t.x.web_net_log(this.h)); }
}
