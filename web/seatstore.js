// seatstore.js: what a page keeps so that a reload in the middle of a
// network game takes its seat back, as a terminal seat resumes from its
// --log file and seat file: the role, game, options, the bot's level and
// seed, the key, the module's seat text (web_net_seat: seat secret,
// codes, resume point) and the match log's bytes (web_net_log), in
// sessionStorage: a reload keeps the tab in its game (as lichess does),
// and each tab keeps its own seat, so two tabs of one browser (a host and
// a spectator, or two games) never take each other's. Only a host's or a
// guest's seat is kept (a spectator watches again from its #watch= link);
// a finished or abandoned game's record is removed. The record is read as
// hostile: the module checks the seat text, the key and the log again.
// With the seat goes the wall time (Date.now()) at which the turn in
// progress began (the last move the seat took): a reload passes the time
// since to the module, so the side to move's clock goes on instead of
// restarting the turn (G-MC-6); a time in the future counts as now, one
// more than a day old as a day.
const STORE = 'tabula-seat';

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

let last = ''; // the seat text and log length saved last

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
  try {
    sessionStorage.setItem(STORE, JSON.stringify({ role: game.role,
      name: game.role === 0 ? game.name : '', options: game.options,
      bot: game.bot, seed: game.seed, key: game.key, seat,
      log: toBase64(log), turnAt: game.turnAt ?? 0 }));
    last = mark;
  } catch { /* no storage, or full: a reload then loses the seat */ }
}

// The kept record: {role, name, options, bot, seed, key, seat, log
// (bytes), turnAt (Date.now() ms; 0 unknown), stored: true}, or null.
export function seatLoad() {
  try {
    const r = JSON.parse(sessionStorage.getItem(STORE) ?? 'null');
    if (!r || (r.role !== 0 && r.role !== 1) || typeof r.seat !== 'string' ||
        typeof r.key !== 'string') return null;
    return { role: r.role, name: String(r.name ?? ''), options: String(r.options ?? ''),
      bot: Number.isInteger(r.bot) ? r.bot : 0,
      seed: Number.isInteger(r.seed) ? r.seed >>> 0 : 0,
      key: r.key, seat: r.seat, log: fromBase64(String(r.log ?? '')),
      turnAt: Number.isFinite(r.turnAt) && r.turnAt > 0 ? r.turnAt : 0, stored: true };
  } catch {
    return null;
  }
}

// The invite code of a kept seat (its text's second field), or ''.
export function seatInvite(record) {
  return record?.seat.split('\t')[1] ?? '';
}

export function seatForget() {
  last = '';
  try { sessionStorage.removeItem(STORE); } catch { /* no storage */ }
}
