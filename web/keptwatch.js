// keptwatch.js: the start page's kept games watched on the lobby (issue
// 37, correspondence), as `tabula games --wait` watches them: while the
// start page is open, hidden or not (a "your move" notice matters most
// when the tab is hidden), each running game this browser keeps is
// watched as a spectator (the module's spectator seat, no key of the
// player's, no seat taken) over a WebSocket of its own, so a move the
// opponent makes while nobody's seat is online reaches the list at once.
// At most seatstore.js's SEATS_MAX games are kept, so a page opens at most
// that many connections, each once per showing of the start page (the
// lobby allows 64 connections an address, docs/protocol-lobby.md); a lost
// connection is retried by the seat's own policy, as every seat's is.
// Leaving the start page closes them all. The game at a glance (whose
// move, the time left, the last move) is the module's (web_net_glance).
import { NetDriver } from './net.js';
import { seatInvite } from './seatstore.js';

export class KeptWatch {
  // url: the lobby's WebSocket; onGlance(record, glance) for each news
  // of a watched game once its spectator holds what the room held.
  constructor(tabula, url, onGlance) {
    this.t = tabula;
    this.url = url;
    this.onGlance = onGlance;
    this.w = new Map(); // record id -> {seat, driver}
  }

  // Watch each of records (seatstore.js's) whose kept log says it runs
  // (glance.turn 'you', 'opponent' or 'waiting'); those watched already
  // go on, the others stop.
  watch(records) {
    const want = new Map(records.filter((r) => r.glance?.turn !== 'over' && seatInvite(r))
      .map((r) => [r.id, r]));
    for (const [id, w] of this.w) if (!want.has(id)) this.drop(id, w);
    for (const [id, r] of want) {
      if (this.w.has(id)) continue;
      let seat;
      try {
        seat = this.t.netSeat({ role: 2, code: seatInvite(r), key: this.t.keyNew() });
      } catch {
        continue; // (a code the module refuses: the list shows the kept state)
      }
      const w = { seat, driver: null };
      this.w.set(id, w);
      const told = () => {
        if (!w.seat.h) return;
        const g = w.seat.glance(r.role, Date.now());
        if (g.caught && g.game) this.onGlance(r, g);
      };
      w.driver = new NetDriver(seat, this.url, {
        onOutput: () => {},
        onPumped: told,
        onFailed: () => this.drop(id, w), // (the room is gone: the kept state stays)
      });
    }
  }

  // The watched game of record id at a glance now, for the player of
  // side, once its spectator caught up; else null.
  glance(id, side) {
    const w = this.w.get(id);
    if (!w?.seat.h) return null;
    const g = w.seat.glance(side, Date.now());
    return g.caught && g.game ? g : null;
  }

  drop(id, w) {
    w.driver?.stop();
    if (w.seat.h) w.seat.free();
    this.w.delete(id);
  }

  stop() {
    for (const [id, w] of this.w) this.drop(id, w);
  }
}
