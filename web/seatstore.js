// seatstore.js: what a page keeps so that a seat comes back, as a terminal
// seat resumes from its log and seat file: the role, game, options, the
// bot's level and seed, the seat's own key, the module's seat text
// (web_net_seat: seat secret, codes, resume point) and the match log's
// bytes (web_net_log).
//
// Every host's and guest's seat is kept in localStorage under its role and
// invite code, so a reload, a closed tab reopened from the same #join= link,
// or the start page's list of kept games takes it back (issue 39: a closed
// tab lost its seat and the link then said "seat already taken"). Each seat
// has a key of its own, made for it: two tabs of one browser are two
// players and can play each other (they had shared one key, and the match
// never started). A tab running a seat holds a Web Lock named after it, so
// another tab of the browser never takes a seat that is in use: it joins
// as a new player instead. The tab's sessionStorage names the seat it runs,
// for its reload. A spectator is not kept (it watches again from its
// #watch= link); a finished or abandoned game's record is removed, and at
// most SEATS_MAX are kept (the oldest goes). Records are read as hostile:
// the module checks the seat text, the key and the log again.
// With the seat goes the wall time (Date.now()) at which the turn in
// progress began (the last move the seat took): a reload passes the time
// since to the module, so the side to move's clock goes on instead of
// restarting the turn (G-MC-6); a time in the future counts as now, one
// more than a day old as a day.
const SEATS = 'tabula-seats'; // localStorage: {id: record}
const TAB = 'tabula-seat'; // sessionStorage: the id of this tab's seat
const SEATS_MAX = 16;
const LOCK = 'tabula-seat:'; // + id: held by the tab that runs the seat

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

function readAll() {
  try {
    const all = JSON.parse(localStorage.getItem(SEATS) ?? '{}');
    return all && typeof all === 'object' && !Array.isArray(all) ? all : {};
  } catch {
    return {};
  }
}

function writeAll(all) {
  try {
    localStorage.setItem(SEATS, JSON.stringify(all));
  } catch { /* no storage, or full: the seat is then not kept */ }
}

// A stored record checked and decoded, or null.
function decode(r) {
  try {
    if (!r || (r.role !== 0 && r.role !== 1) || typeof r.seat !== 'string' ||
        typeof r.key !== 'string') return null;
    return { role: r.role, name: String(r.name ?? ''), options: String(r.options ?? ''),
      bot: Number.isInteger(r.bot) ? r.bot : 0,
      seed: Number.isInteger(r.seed) ? r.seed >>> 0 : 0,
      key: r.key, seat: r.seat, log: fromBase64(String(r.log ?? '')),
      turnAt: Number.isFinite(r.turnAt) && r.turnAt > 0 ? r.turnAt : 0,
      saved: Number.isFinite(r.saved) ? r.saved : 0, stored: true };
  } catch {
    return null;
  }
}

// The invite code of a kept seat (its text's second field), or ''.
export function seatInvite(record) {
  return record?.seat.split('\t')[1] ?? '';
}

let held = null; // {id, release} of the seat this tab runs
let last = ''; // the seat text and log length saved last

// Hold the lock of seat id while this tab runs it (released when the tab
// closes, or by seatForget). Resolves to false when another tab holds it.
function hold(id) {
  if (held?.id === id) return Promise.resolve(true);
  held?.release();
  const mine = { id, release: () => {} };
  held = mine;
  if (!navigator.locks) return Promise.resolve(true);
  return new Promise((taken) => {
    navigator.locks.request(LOCK + id, { ifAvailable: true }, (lock) => {
      taken(lock !== null);
      if (lock === null) {
        if (held === mine) held = null;
        return null;
      }
      return new Promise((release) => { mine.release = release; });
    }).catch(() => taken(true));
  });
}

// Take a kept seat for this tab: false when another tab runs it.
export async function seatClaim(record) {
  const id = seatId(record.role, seatInvite(record));
  if (!(await hold(id))) return false;
  try { sessionStorage.setItem(TAB, id); } catch { /* no storage */ }
  return true;
}

// Keep game's seat (a host's or guest's; game.seat a NetSeat).
export function seatSave(game) {
  if (game.role > 1) return;
  // the turn's start in wall time, as the session measures the turn
  const ran = game.seat.turn(Math.floor(performance.now()));
  if (ran >= 0) game.turnAt = Date.now() - ran;
  const seat = game.seat.seat();
  const log = game.seat.logSoFar();
  const mark = `${seat}\t${log.length}`;
  if (mark === last) return; // nothing new: the log only grows
  const id = seatId(game.role, seat.split('\t')[1] ?? '');
  void hold(id);
  try { sessionStorage.setItem(TAB, id); } catch { /* no storage */ }
  const all = readAll();
  all[id] = { role: game.role, name: game.role === 0 ? game.name : '',
    options: game.options, bot: game.bot, seed: game.seed, key: game.key, seat,
    log: toBase64(log), turnAt: game.turnAt ?? 0, saved: Date.now() };
  const ids = Object.keys(all).sort((a, b) => (all[b].saved ?? 0) - (all[a].saved ?? 0));
  for (const old of ids.slice(SEATS_MAX)) delete all[old];
  writeAll(all);
  last = mark;
}

// The seat this tab ran before its reload, or null.
export function seatLoad() {
  let id = null;
  try { id = sessionStorage.getItem(TAB); } catch { /* no storage */ }
  return id ? decode(readAll()[id]) : null;
}

// The ids of seats another tab of this browser runs now.
async function inUse() {
  try {
    const q = await navigator.locks?.query();
    return new Set((q?.held ?? []).map((l) => l.name));
  } catch {
    return new Set();
  }
}

// The kept seats no tab runs, newest first (for the start page's list,
// and for a #join= link: invite given, the seats of that code).
export async function seatsFree(invite = null) {
  const busy = await inUse();
  const all = readAll();
  return Object.keys(all)
    .filter((id) => !busy.has(LOCK + id) && held?.id !== id &&
      (invite === null || id.slice(2) === codeKey(invite)))
    .map((id) => decode(all[id]))
    .filter((r) => r !== null)
    .sort((a, b) => b.saved - a.saved);
}

// Forget this tab's seat: its game is over or left.
export function seatForget() {
  last = '';
  let id = held?.id ?? null;
  try {
    id ??= sessionStorage.getItem(TAB);
    sessionStorage.removeItem(TAB);
  } catch { /* no storage */ }
  held?.release();
  held = null;
  if (id === null) return;
  const all = readAll();
  delete all[id];
  writeAll(all);
}
