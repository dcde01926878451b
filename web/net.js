// net.js: the page's side of a network game: a WebSocket to the lobby
// that served the page (subprotocol tabula-lobby, one lobby message per
// binary message) and the timer at the session's deadline. Every byte
// that goes out or comes in is built or read by the module's seat
// (tabula.js NetSeat, web/wasm/web_match.h): this file only carries
// bytes, tells the time and reconnects after a lost connection.
import { NET } from './tabula.js';
import { t } from './i18n.js';

// Reconnecting (docs/web.md): the first attempt after the terminal's
// delays (client/netgame.c retry_delay: a host comes back first, so that
// after a lobby restart its room exists when the others ask for it; a
// refusal for too many wrong codes waits longest), each further failed
// attempt waiting twice as long, up to RETRY_MAX_MS; after GIVE_UP_MS
// without the lobby the driver stops.
const RETRY_MS = { host: 100, other: 1000, code: 2000, rate: 6000 };
const RETRY_MAX_MS = 8000;
const GIVE_UP_MS = 60000;
// core/tb_error.h: refusals that may pass for a seat the lobby had let
// in (a room not yet made again by its host after a lobby restart; too
// many wrong codes from this address).
const TB_E_CODE = -1026;
const TB_E_RATE = -1027;

export const now = () => Math.floor(performance.now());

// hooks: onOutput(out) for every output but SEND and REFETCH,
// onConnection(state, text) when the connection's state changes (state
// 'connected' or 'lost'; text() says it in the page's language),
// onFailed(text, {code, admitted, transient}) when the driver stops
// without the game over: the lobby refused us (code the TB_E_* reason;
// admitted: it had let this seat in before) or could not be reached
// (code 0; transient: only the transport failed, so a seat kept for a
// reload can still be taken back later), text() saying why; onPumped()
// after the outputs of each event are carried out (the time to keep the
// seat for a reload). host: the seat is the room's host; resumed: the
// seat is one the lobby had let in before (taken back after a reload): a
// lobby out of reach is then retried as a lost connection is, not given
// up at once.
export class NetDriver {
  constructor(seat, url, hooks, { host = false, resumed = false } = {}) {
    this.seat = seat;
    this.url = url;
    this.hooks = hooks;
    this.ws = null;
    this.timer = 0;
    this.retry = 0;
    this.done = false;
    this.stopped = false;
    this.welcomed = false;
    this.host = host;
    this.admitted = resumed;
    this.attempts = 0; // failed attempts since the connection was lost
    this.refetch = false; // our own close, to ask again for lost frames
    this.lostAt = 0;
    this.refused = null;
    this.connect();
  }

  connect() {
    const ws = new WebSocket(this.url, 'tabula-lobby');
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    this.refused = null;
    ws.onopen = () => ws.send(this.seat.hello());
    ws.onmessage = (e) => {
      if (this.ws !== ws || !(e.data instanceof ArrayBuffer)) return;
      const rc = this.seat.input(now(), new Uint8Array(e.data));
      if (rc < 0) {
        this.refused = this.seat.t.lastError();
        ws.close();
      } else if (!this.welcomed || this.lostAt) {
        this.welcomed = true;
        this.admitted = true;
        this.lostAt = 0;
        this.attempts = 0;
        this.hooks.onConnection?.('connected', null);
      }
      this.pump();
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.seat.closed(now());
      this.pump();
      if (this.done || this.stopped) return;
      if (this.refetch && !this.refused) {
        this.refetch = false;
        this.connect();
        return;
      }
      this.refetch = false;
      const code = this.refused?.code ?? 0;
      const passing = !this.refused || code === TB_E_CODE || code === TB_E_RATE;
      if (!this.admitted || !passing) {
        this.stop();
        // (the lobby's reason is a tb_error.h message: the catalogue has it)
        const why = this.refused?.message;
        this.hooks.onFailed?.(why
          ? () => t('the lobby refused: {why}', { why: t(why) })
          : () => t('cannot reach the lobby at {url}', { url: this.url }),
        { code, admitted: this.admitted, transient: !why });
        return;
      }
      this.lostAt ||= now();
      if (now() - this.lostAt > GIVE_UP_MS) {
        this.stop();
        this.hooks.onFailed?.(code ? () => t('the connection to the lobby is lost: gave up after a minute')
          : () => `${t('the connection to the lobby is lost: gave up after a minute')}; ${
            t('this tab keeps the seat: reload the page to try again')}`,
        { code, admitted: true, transient: !code });
        return;
      }
      const first = code === TB_E_RATE ? RETRY_MS.rate : code === TB_E_CODE ? RETRY_MS.code
        : this.host ? RETRY_MS.host : RETRY_MS.other;
      const wait = Math.min(RETRY_MAX_MS, first * 2 ** this.attempts++);
      const n = this.attempts;
      this.hooks.onConnection?.('lost', () => t('the lobby is out of reach; reconnecting (attempt {n}, next in {s} s)',
        { n, s: (wait / 1000).toFixed(1) }));
      this.retry = setTimeout(() => this.connect(), wait);
    };
  }

  // Carry out the session's outputs, then wait for its next deadline.
  pump() {
    for (let out; (out = this.seat.poll()) !== null;) {
      if (out.kind === NET.SEND) {
        if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(out.bytes);
      } else if (out.kind === NET.REFETCH) {
        // reconnect at once: the hello asks for what was lost
        this.refetch = Boolean(this.ws);
        this.ws?.close();
      } else {
        if (out.kind === NET.DONE) this.done = true;
        this.hooks.onOutput(out);
      }
    }
    this.hooks.onPumped?.();
    clearTimeout(this.timer);
    this.timer = 0;
    if (this.done) {
      this.ws?.close();
      return;
    }
    const at = this.seat.deadline();
    if (at >= 0 && !this.stopped) {
      this.timer = setTimeout(() => {
        this.seat.tick(now());
        this.pump();
      }, Math.max(0, at - now()));
    }
  }

  // Stop talking to the lobby (the seat stays for the page to read).
  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.retry);
    const ws = this.ws;
    this.ws = null;
    ws?.close();
  }
}
