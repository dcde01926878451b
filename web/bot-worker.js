// bot-worker.js: the bot in a Web Worker, so the page stays responsive
// while it thinks. It runs its own instance of the module: given the
// game, its options and the moves so far, it replays them and answers
// with the bot's move (the same one the terminal bot picks for the same
// position, level and seed).
import { loadTabula } from './tabula.js';

const ready = loadTabula(new URL('./wasm/tabula_web.wasm', import.meta.url));

self.onmessage = async (e) => {
  const { id, game, options, moves, level, seed } = e.data;
  try {
    const t = await ready;
    const pos = t.position(game, options);
    try {
      for (const m of moves) pos.play(m);
      self.postMessage({ id, move: pos.botMove(level, seed) });
    } finally {
      pos.free();
    }
  } catch (err) {
    self.postMessage({ id, error: String(err.message ?? err) });
  }
};
