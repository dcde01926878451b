// pool.js: the start page's offer to the lobby's pool (issue 37,
// docs/pool.md), as `tabula pool GAMES --clock RANGE` makes one: a
// WebSocket to the lobby that served the page (subprotocol
// tabula-lobby), the module's POOL hello, then the relay's POOL_WAIT
// messages (how many wait for each game) until its PAIRED, after which
// the relay closes the connection and the page plays the paired game as
// a host or a guest. Every byte is built and read by the module
// (tabula.js PoolOffer, web/wasm/web_pool.h): this file only carries
// bytes. Closing the WebSocket withdraws the offer (the relay removes an
// offer with its connection).
import { t } from './i18n.js';

export class PoolDriver {
  // offer: a PoolOffer; url: the lobby's WebSocket address; hooks:
  // onWait([{game, n}]), onPaired(paired) (the offer's seat is then the
  // page's to make, offer.seat()), onFailed(error) (refused, or the
  // connection lost before a pairing; the offer is gone).
  constructor(offer, url, hooks) {
    this.offer = offer;
    this.hooks = hooks;
    this.done = false;
    const ws = new WebSocket(url, 'tabula-lobby');
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
      if (this.done || !(e.data instanceof ArrayBuffer)) return;
      let said;
      try {
        said = offer.input(new Uint8Array(e.data));
      } catch (err) {
        this.finish(() => hooks.onFailed(err));
        return;
      }
      if (said.paired) this.finish(() => hooks.onPaired(said.paired));
      else hooks.onWait(said.wait);
    };
    ws.onclose = () => this.finish(() => hooks.onFailed(new Error(t('the lobby is out of reach'))));
  }

  finish(then) {
    if (this.done) return;
    this.done = true;
    this.ws.close();
    then();
  }

  // Withdraw the offer (nothing is said).
  cancel() {
    if (this.done) return;
    this.done = true;
    this.ws.close();
  }
}
