// net.js: the page's side of a network game: a WebSocket to the lobby
// that served the page (subprotocol tabula-lobby, one lobby message per
// binary message) and the timer at the session's deadline. Every byte
// that goes out or comes in is built or read by the module's seat
// (tabula.js NetSeat, web/wasm/web_match.h): this file only carries
// bytes, tells the time and reconnects after a lost connection.
import { NET } from './tabula.js';
import { t } from './i18n.js';

const RECONNECT_MS = 1000;
const GIVE_UP_MS = 60000;

export const now = () => Math.floor(performance.now());

// hooks: onOutput(out) for every output but SEND and REFETCH,
// onConnection(text) for the connection's state, onFailed(text, {code,
// admitted}) when the lobby refused us (code the TB_E_* reason; admitted:
// it had let us in before) or could not be reached again (code 0),
// onPumped() after the outputs of each event are carried out (the time
// to keep the seat for a reload).
export class NetDriver {
  constructor(seat, url, hooks) {
    this.seat = seat;
    this.url = url;
    this.hooks = hooks;
    this.ws = null;
    this.timer = 0;
    this.retry = 0;
    this.done = false;
    this.stopped = false;
    this.welcomed = false;
    this.lostAt = 0;
    this.refused = null;
    this.connect();
  }

  connect() {
    const ws = new WebSocket(this.url, 'tabula-lobby');
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    ws.onopen = () => ws.send(this.seat.hello());
    ws.onmessage = (e) => {
      if (this.ws !== ws || !(e.data instanceof ArrayBuffer)) return;
      const rc = this.seat.input(now(), new Uint8Array(e.data));
      if (rc < 0) {
        this.refused = this.seat.t.lastError();
        ws.close();
      } else if (!this.welcomed || this.lostAt) {
        this.welcomed = true;
        this.lostAt = 0;
        this.hooks.onConnection?.('connected');
      }
      this.pump();
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.seat.closed(now());
      this.pump();
      if (this.done || this.stopped) return;
      if (this.refused || !this.welcomed) {
        this.stop();
        // (the lobby's reason is a tb_error.h message: the catalogue has it)
        this.hooks.onFailed?.(this.refused
          ? t('the lobby refused: {why}', { why: t(this.refused.message) })
          : t('cannot reach the lobby at {url}', { url: this.url }),
        { code: this.refused?.code ?? 0, admitted: this.welcomed });
        return;
      }
      this.lostAt ||= now();
      if (now() - this.lostAt > GIVE_UP_MS) {
        this.stop();
        this.hooks.onFailed?.(t('the connection to the lobby is lost: gave up after a minute'),
          { code: 0, admitted: true });
        return;
      }
      this.hooks.onConnection?.(t('connection lost; reconnecting'));
      this.retry = setTimeout(() => this.connect(), RECONNECT_MS);
    };
  }

  // Carry out the session's outputs, then wait for its next deadline.
  pump() {
    for (let out; (out = this.seat.poll()) !== null;) {
      if (out.kind === NET.SEND) {
        if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(out.bytes);
      } else if (out.kind === NET.REFETCH) {
        this.ws?.close(); // reconnect: the hello asks for what was lost
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
