// playstore.js: what a tab keeps of its game on this device (against the
// bot, or a friend at the same screen) so that a reload brings it back,
// as a network seat comes back (seatstore.js): the game, its options, who
// plays each side (a person or a bot level), the bot's seed, every move
// played so far and a resignation (which is not on the board).
//
// The record lives in the tab's own sessionStorage under 'tabula-play':
// a reload keeps it, another tab never sees it (two tabs, two games, no
// record written over another's; a duplicated tab gets a copy of its
// own), and a closed tab takes it along. Only the moves are kept, never
// a position: the page replays them through the module on its way back
// (app.js), and a record the module refuses, or one that is malformed,
// is dropped. Leaving the game (New game, another game) forgets it.
const KEY = 'tabula-play';
const MOVES_MAX = 100000; // a sane bound on what is replayed

// Keep game ({name, options, players, seed, moves: [{text}], resigned}).
export function playSave(game) {
  const record = JSON.stringify({ name: game.name, options: game.options,
    players: game.players, seed: game.seed, moves: game.moves.map((m) => m.text),
    resigned: game.resigned });
  try { sessionStorage.setItem(KEY, record); } catch { /* no storage: not kept */ }
}

// The game this tab kept, its fields checked for type and range (its
// moves are the module's to judge), or null; a malformed record is
// forgotten.
export function playLoad() {
  let text = null;
  try { text = sessionStorage.getItem(KEY); } catch { return null; }
  if (text === null) return null;
  const player = (p) => p === 'human' || (Number.isInteger(p) && p > 0);
  try {
    const r = JSON.parse(text);
    if (r && typeof r.name === 'string' && typeof r.options === 'string' &&
        Array.isArray(r.players) && r.players.length === 2 && r.players.every(player) &&
        Number.isInteger(r.seed) && r.seed >= 0 && r.seed <= 0xffffffff &&
        Array.isArray(r.moves) && r.moves.length <= MOVES_MAX &&
        r.moves.every((m) => typeof m === 'string') &&
        [-1, 0, 1].includes(r.resigned)) {
      return { name: r.name, options: r.options, players: r.players, seed: r.seed,
        moves: r.moves, resigned: r.resigned };
    }
  } catch { /* not JSON */ }
  playForget();
  return null;
}

// Forget this tab's game: it was left, or its record was refused.
export function playForget() {
  try { sessionStorage.removeItem(KEY); } catch { /* no storage */ }
}
