// seeks.js: the start page's live list of the lobby's open public seeks
// (issue 37), as `tabula seeks` reads it: a new WebSocket to the lobby
// that served the page (subprotocol tabula-lobby) per refresh, the
// module's SEEKS hello, then the lobby's LIST messages until the last
// (it closes the connection then). Every byte is built and every card
// checked by the module (tabula.js seeksHello, seeksList;
// web/wasm/web_seek.h): this file only carries bytes and keeps time.
//
// The lobby answers each address's SEEKS at a rate (LOBBY_LIST_BURST at
// once, then one per LOBBY_LIST_REFILL_MS): the page asks every
// POLL_MS, and not at all while its tab is hidden or the start page is
// not shown; a refusal (TB_E_RATE, when several tabs ask) doubles the
// wait, up to POLL_MAX_MS.
import { t } from './i18n.js';

const POLL_MS = 5000;
const POLL_MAX_MS = 60000;

export class SeekPoller {
  // tabula: the module; url: the lobby's WebSocket address; onList(list,
  // error): each refresh's seeks (tabula.js seeksList's, every message's
  // together), or null and the error when it failed (the last list stays
  // the page's to keep).
  constructor(tabula, url, onList) {
    this.tabula = tabula;
    this.url = url;
    this.onList = onList;
    this.wait = POLL_MS;
    this.timer = 0;
    this.ws = null;
    this.on = false;
    document.addEventListener('visibilitychange', () => this.schedule(0));
  }

  // Poll while shown is true (the start page is on screen).
  show(shown) {
    if (shown === this.on) return;
    this.on = shown;
    this.schedule(0);
  }

  schedule(after) {
    clearTimeout(this.timer);
    this.timer = 0;
    if (!this.on || document.hidden || this.ws) return;
    this.timer = setTimeout(() => this.poll(), after);
  }

  poll() {
    this.timer = 0;
    const ws = new WebSocket(this.url, 'tabula-lobby');
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    const seeks = [];
    let forged = 0;
    let done = false;
    const finish = (error) => {
      if (done) return;
      done = true;
      if (this.ws === ws) this.ws = null;
      ws.close();
      this.wait = error ? Math.min(this.wait * 2, POLL_MAX_MS) : POLL_MS;
      this.onList(error ? null : { seeks, forged }, error);
      this.schedule(this.wait);
    };
    ws.onopen = () => {
      try {
        ws.send(this.tabula.seeksHello());
      } catch (e) {
        finish(e);
      }
    };
    ws.onmessage = (e) => {
      if (done || !(e.data instanceof ArrayBuffer)) return;
      try {
        const part = this.tabula.seeksList(new Uint8Array(e.data), Date.now());
        seeks.push(...part.seeks);
        forged += part.forged;
        if (part.last) finish(null);
      } catch (err) {
        finish(err);
      }
    };
    ws.onclose = () => finish(new Error(t('the lobby is out of reach')));
  }
}
