// seatstore.js: what a page keeps so that a seat comes back, as a terminal
// seat resumes from its log and seat file: the role, game, options, the
// bot's level and seed, the seat's own key, the module's seat text
// (web_net_seat: seat secret, codes, resume point) and the match log's
// bytes (web_net_log).
//
// Every host's and guest's seat is kept in localStorage under its own key,
// 'tabula-seat:ROLE:CODE' (its role and invite code), so a reload, a closed
// tab reopened from the same #join= link, or the start page's list of kept
// games takes it back (issue 39: a closed tab lost its seat and the link
// then said "seat already taken"). One key a seat: two tabs never write
// over each other's records. Each seat has a key pair of its own, made for
// it: two tabs of one browser are two players and can play each other
// (they had shared one key, and the match never started).
//
// A seat is run by one tab at a time: the tab holds it (a Web Lock named
// after it where the browser has them, which it does only in a secure
// context; elsewhere, as on a plain-http address on a LAN, a lease in the
// record's own 'tabula-run:ROLE:CODE' key, renewed every LEASE_MS / 3 and
// cleared when the tab goes). Only the tab that holds a seat writes or
// removes its record; another tab of the browser never takes a seat in
// use: it joins as a new player instead. The tab's sessionStorage names
// the seat it runs, for its reload. A spectator is not kept (it watches
// again from its #watch= link); a finished or refused game's record is
// removed; at most SEATS_MAX are kept (the oldest goes). Records are read
// as hostile: the module checks the seat text, the key and the log again.
// With the seat goes the wall time (Date.now()) at which the turn in
// progress began (the last move the seat took): a reload passes the time
// since to the module, so the side to move's clock goes on instead of
// restarting the turn (G-MC-6); a time in the future counts as now, one
// more than a day old as a day.
const PREFIX = 'tabula-seat:'; // localStorage: + id, a seat's record
const RUN = 'tabula-run:'; // localStorage: + id, a lease (no Web Locks)
const TAB = 'tabula-seat'; // sessionStorage: the id of this tab's seat
const SEATS_MAX = 16;
const LEASE_MS = 6000;
const TAB_ID = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

function toBase64(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(text) {
  const s = atob(text);
  const b = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
  return b;
}

// A code as typed, for comparing: its symbols only, upper case.
export const codeKey = (c) => String(c).toUpperCase().replace(/[^0-9A-Z]/g, '');

const seatId = (role, invite) => `${role}:${codeKey(invite)}`;

function get(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

function put(key, value) {
  try { localStorage.setItem(key, value); return true; } catch { return false; }
}

function drop(key) {
  try { localStorage.removeItem(key); } catch { /* no storage */ }
}

// The ids of every kept seat.
function ids() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k?.startsWith(PREFIX)) out.push(k.slice(PREFIX.length));
    }
  } catch { /* no storage */ }
  return out;
}

// A stored record checked and decoded, or null.
function decode(id, text) {
  try {
    const r = JSON.parse(text ?? 'null');
    if (!r || (r.role !== 0 && r.role !== 1) || typeof r.seat !== 'string' ||
        typeof r.key !== 'string') return null;
    return { id, role: r.role, name: String(r.name ?? ''), options: String(r.options ?? ''),
      bot: Number.isInteger(r.bot) ? r.bot : 0,
      seed: Number.isInteger(r.seed) ? r.seed >>> 0 : 0,
      key: r.key, seat: r.seat, log: fromBase64(String(r.log ?? '')),
      turnAt: Number.isFinite(r.turnAt) && r.turnAt > 0 ? r.turnAt : 0,
      saved: Number.isFinite(r.saved) ? r.saved : 0, seek: r.seek === 1,
      series: typeof r.series === 'string' ? r.series : '', stored: true };
  } catch {
    return null;
  }
}

// The invite code of a kept seat (its text's second field), or ''.
export function seatInvite(record) {
  return record?.seat.split('\t')[1] ?? '';
}

// ---- who runs a seat ------------------------------------------------------

const locks = typeof navigator !== 'undefined' && navigator.locks?.request ? navigator.locks : null;
let held = null; // {id, release} of the seat this tab holds
let asking = null; // {id, answer}: a hold on its way
let last = ''; // the seat text and log length saved last

// Another tab's lease on id, still running? (no Web Locks)
function leased(id) {
  const [tab, at] = String(get(RUN + id) ?? '').split(' ');
  return tab !== undefined && tab !== '' && tab !== TAB_ID &&
    Date.now() - Number(at) < LEASE_MS;
}

// Hold seat id for this tab while it runs it (released when the tab goes,
// or by seatRelease). Resolves to false when another tab holds it.
function hold(id) {
  if (held?.id === id) return Promise.resolve(true);
  if (asking?.id === id) return asking.answer;
  release();
  const answer = ask(id);
  asking = { id, answer };
  return answer.finally(() => { if (asking?.answer === answer) asking = null; });
}

function ask(id) {
  if (!locks) {
    if (leased(id)) return Promise.resolve(false);
    const renew = () => put(RUN + id, `${TAB_ID} ${Date.now()}`);
    renew();
    const timer = setInterval(renew, LEASE_MS / 3);
    held = { id, release: () => { clearInterval(timer); if (!leased(id)) drop(RUN + id); } };
    return Promise.resolve(true);
  }
  return new Promise((taken) => {
    // (the lock is free once gone settles: release() hands it on)
    const gone = locks.request(PREFIX + id, { ifAvailable: true }, (lock) => {
      if (lock === null) {
        taken(false);
        return null;
      }
      return new Promise((done) => {
        held = { id, release: () => { done(); return gone; } };
        taken(true);
      });
    }).catch(() => taken(false));
  });
}

// The last seat released, settled: a list asked right after leaving a
// seat waits for its lock to go (a query sooner found it still held, and
// the start page left the game just left out of its list).
let released = Promise.resolve();

function release() {
  const gone = held?.release();
  if (gone) released = gone;
  held = null;
}

// A lease goes with its tab.
if (typeof window !== 'undefined') window.addEventListener('pagehide', () => { if (!locks) release(); });

// The ids of seats another tab of this browser runs now.
async function inUse(all) {
  if (!locks) return new Set(all.filter(leased));
  try {
    const q = await locks.query();
    return new Set((q?.held ?? []).map((l) => l.name.slice(PREFIX.length)));
  } catch {
    return new Set(all);
  }
}

// ---- the records ----------------------------------------------------------

// Take a kept seat for this tab: false when another tab runs it.
export async function seatClaim(record) {
  if (!(await hold(record.id))) return false;
  try { sessionStorage.setItem(TAB, record.id); } catch { /* no storage */ }
  return true;
}

// Keep game's seat (a host's or guest's; game.seat a NetSeat), when this
// tab holds it (a new seat is held at its first save; one another tab
// runs is not this tab's to keep).
export async function seatSave(game) {
  if (game.role > 1) return;
  // the turn's start in wall time, as the session measures the turn
  const ran = game.seat.turn(Math.floor(performance.now()));
  if (ran >= 0) game.turnAt = Date.now() - ran;
  const seat = game.seat.seat();
  const log = game.seat.logSoFar();
  const mark = `${seat}\t${log.length}`;
  if (mark === last) return; // nothing new: the log only grows
  const id = seatId(game.role, seat.split('\t')[1] ?? '');
  if (held?.id !== id) {
    if (game.notKept || !(await hold(id))) {
      game.notKept = true; // another tab's seat of this code: never written
      return;
    }
    if (game.final) return; // (it ended while the hold was asked)
    try { sessionStorage.setItem(TAB, id); } catch { /* no storage */ }
  }
  const record = JSON.stringify({ role: game.role, name: game.role === 0 ? game.name : '',
    options: game.options, bot: game.bot, seed: game.seed, key: game.key, seat,
    log: toBase64(log), turnAt: game.turnAt ?? 0, saved: Date.now(), seek: game.seek ? 1 : 0,
    series: game.seriesText ?? '' });
  if (!put(PREFIX + id, record)) return; // full: a reload then loses the seat
  last = mark;
  const all = ids();
  if (all.length > SEATS_MAX) {
    const busy = await inUse(all);
    const old = all.filter((i) => i !== id && !busy.has(i))
      .map((i) => [i, decode(i, get(PREFIX + i))?.saved ?? 0])
      .sort((a, b) => a[1] - b[1]);
    for (const [i] of old.slice(0, all.length - SEATS_MAX)) drop(PREFIX + i);
  }
}

// The seat this tab ran before its reload, or null.
export function seatLoad() {
  let id = null;
  try { id = sessionStorage.getItem(TAB); } catch { /* no storage */ }
  return id ? decode(id, get(PREFIX + id)) : null;
}

// The kept seats no tab runs, newest first (for the start page's list,
// and for a #join= link: invite given, the seats of that code).
export async function seatsFree(invite = null) {
  await released;
  const all = ids().filter((id) => invite === null || id.slice(2) === codeKey(invite));
  const busy = await inUse(all);
  return all.filter((id) => !busy.has(id) && held?.id !== id)
    .map((id) => decode(id, get(PREFIX + id)))
    .filter((r) => r !== null)
    .sort((a, b) => b.saved - a.saved);
}

// Leave this tab's seat kept (the game goes on without it: the start
// page lists it, its link takes it back).
export function seatRelease() {
  last = '';
  try { sessionStorage.removeItem(TAB); } catch { /* no storage */ }
  release();
}

// Forget this tab's seat: its game is over, or the lobby refused it. Only
// the seat this tab holds is removed.
export function seatForget() {
  if (held) drop(PREFIX + held.id);
  seatRelease();
}

// ---- a series between two games (issue 38) --------------------------------

// A series' games as stored (their logs in base64), and back (stored
// text: hostile).
const gamesOut = (games) => games.map((g) => ({ outcome: g.outcome, reason: g.reason,
  side: g.side, log: toBase64(g.log) }));
const gamesIn = (games) => games.map((g) => ({ outcome: String(g.outcome),
  reason: String(g.reason), side: g.side === 1 ? 1 : 0, log: fromBase64(String(g.log ?? '')) }));

// This tab's series whose game ended and whose next game's seat is not
// made yet (the page waits a moment to show the end): kept in
// sessionStorage, so a reload in that moment goes on with the series
// instead of losing it. The record: {series (web_series_text), key, role,
// name, options, bot, seed, games: [{outcome, reason, side, log}]}, each
// game's signed log as bytes.
const SERIES_NEXT = 'tabula-series-next';
const SERIES_NEXT_MS = 600000; // older than this: the opponent has gone

export function seriesPendingSave(p) {
  try {
    sessionStorage.setItem(SERIES_NEXT, JSON.stringify({ ...p, at: Date.now(),
      games: gamesOut(p.games) }));
  } catch { /* no storage, or full: a reload then ends the series */ }
}

// The pending series, taken (removed): null when none, or damaged.
export function seriesPendingTake() {
  try {
    const text = sessionStorage.getItem(SERIES_NEXT);
    sessionStorage.removeItem(SERIES_NEXT);
    const p = JSON.parse(text ?? 'null');
    if (!p || typeof p.series !== 'string' || typeof p.key !== 'string' ||
        (p.role !== 0 && p.role !== 1) || !Array.isArray(p.games) ||
        !(Date.now() - p.at < SERIES_NEXT_MS)) return null;
    return { series: p.series, key: p.key, role: p.role, name: String(p.name ?? ''),
      options: String(p.options ?? ''), bot: Number.isInteger(p.bot) ? p.bot : 0,
      seed: Number.isInteger(p.seed) ? p.seed >>> 0 : 0,
      games: gamesIn(p.games) };
  } catch {
    return null;
  }
}

// The games a series played so far in this tab (their results and
// logs), for a page reloaded during a later game: {key (the series'
// seat key), games}. The last series only.
const SERIES_GAMES = 'tabula-series-games';

export function seriesGamesSave(key, games) {
  try {
    sessionStorage.setItem(SERIES_GAMES, JSON.stringify({ key, games: gamesOut(games) }));
  } catch { /* no storage, or full: a reload then lists no earlier game */ }
}

// The games kept for the series of key, or [] (none, another series', or
// damaged).
export function seriesGamesLoad(key) {
  try {
    const p = JSON.parse(sessionStorage.getItem(SERIES_GAMES) ?? 'null');
    if (!p || p.key !== key || !Array.isArray(p.games)) return [];
    return gamesIn(p.games);
  } catch {
    return [];
  }
}

// ---- the player's identity (issue 37) -------------------------------------

// The player's own key, as a terminal's identity file: one per browser,
// made by the module (keyNew) the first time a seek asks for it and kept
// as the hex of its secret key, as each seat's is. It signs the player's
// display name on the seeks the page puts up (the seats' keys are new
// each game, so a list tells a player by this key's fingerprint).
const IDENTITY = 'tabula-identity';
const NAME = 'tabula-name'; // localStorage: the display name, as typed

export function identityKey(keyNew) {
  let key = get(IDENTITY);
  if (!key) {
    key = keyNew();
    put(IDENTITY, key);
  }
  return key;
}

export function nameLoad() { return get(NAME) ?? ''; }

export function nameSave(name) { put(NAME, name); }
