// net.js: the page's side of a network game: a WebSocket to the lobby
// that served the page (subprotocol tabula-lobby, one lobby message per
// binary message) and the timer at the session's deadline. Every byte
// that goes out or comes in is built or read by the module's seat
// (tabula.js NetSeat, web/wasm/web_match.h): this file only carries
// bytes, tells the time and reconnects after a lost connection.
import { NET } from './tabula.js';
import { t } from './i18n.js';

// Reconnecting (docs/web.md): the waits between attempts and when to
// give up are the seat layer's (seat/seat.h, as the terminal and the
// simulator wait), asked of the module.
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
// seat for a reload). role: 0 host, 1 guest, 2 spectator; resumed: the
// seat is one the lobby had let in before (taken back after a reload): a
// lobby out of reach is then retried as a lost connection is, not given
// up at once.
export class NetDriver {
  constructor(seat, url, hooks, { role = 2, resumed = false } = {}) {
    this.seat = seat;
    this.url = url;
    this.hooks = hooks;
    this.ws = null;
    this.timer = 0;
    this.retry = 0;
    this.done = false;
    this.stopped = false;
    this.welcomed = false;
    this.role = role;
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
      // (seat/seat.h: the refusals after which a seat let in keeps trying)
      const passing = !this.refused || !this.seat.t.refusalEnds(code);
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
      if (now() - this.lostAt > this.seat.t.giveUpMs()) {
        this.stop();
        this.hooks.onFailed?.(code ? () => t('the connection to the lobby is lost: gave up after a minute')
          : () => `${t('the connection to the lobby is lost: gave up after a minute')}; ${
            t('this tab keeps the seat: reload the page to try again')}`,
        { code, admitted: true, transient: !code });
        return;
      }
      const wait = this.seat.t.retryMs(this.role, code, this.attempts++);
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
