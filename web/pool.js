// pool.js: the start page's offer to the lobby's pool (issue 37,
// docs/pool.md), as `tabula pool GAMES --clock RANGE` makes one: a
// WebSocket to the lobby that served the page (subprotocol
// tabula-lobby), the module's POOL hello, then the relay's POOL_WAIT
// messages (how many wait for each game) until its PAIRED, after which
// the relay closes the connection and the page plays the paired game as
// a host or a guest. Every byte is built and read by the module
// (tabula.js PoolOffer, web/wasm/web_pool.h): this file only carries
// bytes. Closing the WebSocket withdraws the offer (the relay removes an
// offer with its connection); a connection lost after the lobby took the
// offer is opened again with the same offer, by the seat layer's waits
// (PoolOffer.lost, seat_pool_lost).
import { t } from './i18n.js';
import { TB_E } from './tabula.js';

export class PoolDriver {
  // offer: a PoolOffer; url: the lobby's WebSocket address; hooks:
  // onWait([{game, n}]), onPaired(paired) (the offer's seat is then the
  // page's to make, offer.seat()), onAway(error) (the connection was lost
  // after the lobby took the offer: the same offer goes out again, by
  // the seat layer's waits, until onWait), onFailed(error) (refused, or
  // lost before the lobby took it; the offer is gone).
  constructor(offer, url, hooks) {
    this.offer = offer;
    this.url = url;
    this.hooks = hooks;
    this.done = false;
    this.timer = 0;
    this.connect();
  }

  connect() {
    const { offer, hooks } = this;
    const ws = new WebSocket(this.url, 'tabula-lobby');
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    ws.onopen = () => {
      try {
        ws.send(offer.hello());
      } catch (e) {
        this.finish(() => hooks.onFailed(e));
      }
    };
    ws.onmessage = (e) => {
      if (this.done || this.ws !== ws || !(e.data instanceof ArrayBuffer)) return;
      let said;
      try {
        said = offer.input(new Uint8Array(e.data));
      } catch (err) {
        this.lost(ws, err, err?.code);
        return;
      }
      if (said.paired) this.finish(() => hooks.onPaired(said.paired));
      else hooks.onWait(said.wait);
    };
    ws.onclose = () => {
      if (this.ws === ws)
        this.lost(ws, new Error(t('the lobby is out of reach')), TB_E.TB_E_TRUNCATED);
    };
  }

  // ws ended unpaired with status: offered again after the seat layer's
  // wait, or the offer ends.
  lost(ws, err, status) {
    if (this.done) return;
    this.ws = null;
    ws.onclose = null;
    ws.close();
    const wait = typeof status === 'number' ? this.offer.lost(status) : 0;
    if (wait === 0) {
      this.finish(() => this.hooks.onFailed(err));
      return;
    }
    this.hooks.onAway?.(err);
    this.timer = setTimeout(() => {
      this.timer = 0;
      if (!this.done) this.connect();
    }, wait);
  }

  finish(then) {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    this.ws?.close();
    then();
  }

  // Withdraw the offer (nothing is said).
  cancel() {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    this.ws?.close();
  }
}
