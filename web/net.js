// net.js: the page's side of a network game: a WebSocket to the lobby
// that served the page (subprotocol tabula-lobby, one lobby message per
// binary message) and the timer at the session's deadline. Every byte
// that goes out or comes in is built or read by the module's seat
// (tabula.js NetSeat, web/wasm/web_match.h): this file only carries
// bytes, tells the time and opens the socket when the seat asks.
import { NET } from './tabula.js';
import { t } from './i18n.js';

// When to connect, try again and give up (docs/web.md) is the seat's
// (seat/seat.h, the one the terminal drives): this file opens the
// WebSocket when the seat says CONNECT and tells it when it closed.
export const now = () => Math.floor(performance.now());

// hooks: onOutput(out) for every output the page draws (PLY, NOTE, WARN,
// THINK, DESYNC, DONE), onConnection(state, text) when the connection's
// state changes (state 'connected' or 'lost'; text() says it in the
// page's language), onFailed(text, {code, admitted, transient}) when the
// seat stops without the game over: the lobby refused us (code the
// TB_E_* reason; admitted: it had let this seat in before) or could not
// be reached (code 0; transient: only the transport failed, so a seat
// kept for a reload can still be taken back later), text() saying why;
// onPumped() after the outputs of each event are carried out (the time
// to keep the seat for a reload).
export class NetDriver {
  constructor(seat, url, hooks) {
    this.seat = seat;
    this.url = url;
    this.hooks = hooks;
    this.ws = null;
    this.timer = 0;
    this.done = false;
    this.stopped = false;
    this.pump(); // the seat's first output asks for the connection
  }

  connect() {
    const ws = new WebSocket(this.url, 'tabula-lobby');
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    ws.onopen = () => {
      ws.send(this.seat.hello(now()));
      this.pump(); // (the seat's deadline for the welcome)
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws || !(e.data instanceof ArrayBuffer)) return;
      if (this.seat.input(now(), new Uint8Array(e.data)) < 0) ws.close();
      this.pump();
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.seat.closed(now());
      this.pump();
    };
  }

  // The seat stopped (FAILED: "FAILURE\tREASON\tREFUSED"): the module
  // says why, in the page's words (client/advice.c), each time the text
  // is drawn (a language switch redraws it).
  failed(text) {
    const [failure, reason, refused] = text.split('\t').map(Number);
    const seat = this.seat;
    // (said again while the seat lives; once the page freed it, as last
    // said)
    let said = seat.advice(failure, reason, refused, location.host);
    const words = () => (seat.h ? (said = seat.advice(failure, reason, refused, location.host)) : said);
    this.stop();
    this.hooks.onFailed?.(words, {
      code: refused ? reason : 0,
      admitted: failure !== NET.FAIL_ADMISSION,
      transient: failure !== NET.FAIL_ENDED && !refused,
    });
  }

  // Carry out the seat's outputs, then wait for its next deadline.
  pump() {
    for (let out; !this.stopped && (out = this.seat.poll()) !== null;) {
      if (out.kind === NET.SEND) {
        if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(out.bytes);
      } else if (out.kind === NET.CONNECT) {
        this.connect();
      } else if (out.kind === NET.CLOSE) {
        this.ws?.close();
      } else if (out.kind === NET.UP) {
        this.hooks.onConnection?.('connected', null);
      } else if (out.kind === NET.LOST) {
        const [n, wait, , , beforeRoom] = out.text.split('\t').map(Number);
        // (a guest come before its host's room waits: no loss; seat.h)
        this.hooks.onConnection?.('lost', () => t(beforeRoom
          ? "the host's room is not there yet; trying again (attempt {n}, next in {s} s)"
          : 'the lobby is out of reach; reconnecting (attempt {n}, next in {s} s)',
        { n, s: (wait / 1000).toFixed(1) }));
      } else if (out.kind === NET.FAILED) {
        this.failed(out.text);
      } else {
        if (out.kind === NET.DONE) this.done = true;
        this.hooks.onOutput(out);
      }
    }
    clearTimeout(this.timer);
    this.timer = 0;
    if (this.stopped) return; // (the page may have left the game)
    this.hooks.onPumped?.();
    if (this.done) {
      this.ws?.close();
      return;
    }
    const at = this.seat.deadline();
    if (at >= 0) {
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
    const ws = this.ws;
    this.ws = null;
    ws?.close();
  }
}
