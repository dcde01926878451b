// club.js: a club's published numbers on the page (issue 38; docs/web.md,
// "A club"): the relay's ratings list (/archive/ratings.txt, shown when
// the relay publishes one) with a Check that downloads every log of
// /archive/logs/index.txt and recomputes the list in the module, and a
// tournament folder's signed documents (#tournament=URL). Every text of
// the list, every signature check, standing and crosstable comes from
// the module's C (web/wasm/web_club.h); this file downloads, compares
// and draws.
import { ratingsText, Tourney } from './tabula.js';
import { t, tn, N_ } from './i18n.js';

const $ = (id) => document.getElementById(id);
const RATINGS = './archive/ratings.txt';
const INDEX = './archive/logs/index.txt';

let shown = null; // what the club view shows: {kind, ...} for the redraw

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

async function download(url, binary = false) {
  const r = await fetch(url, { cache: 'no-store' });
  if (!r.ok) {
    const e = new Error(t('{url}: {status}', { url, status: `${r.status} ${r.statusText}` }));
    e.status = r.status;
    throw e;
  }
  return binary ? new Uint8Array(await r.arrayBuffer()) : r.text();
}

// What the page's relay publishes: {archive} when it keeps an archive
// (its X-Tabula-Archive header), {ratings} when its ratings list is
// there too (a 404 before its first kept game).
export async function clubPublished() {
  try {
    // (only a lobby that says it keeps an archive is asked for its list:
    // the others would answer 404, an error in the console)
    const page = await fetch(location.pathname, { method: 'HEAD', cache: 'no-store' });
    if (!page.headers.get('x-tabula-archive')) return { archive: false, ratings: false };
    const r = await fetch(RATINGS, { method: 'HEAD', cache: 'no-store' });
    return { archive: true, ratings: r.ok };
  } catch {
    return { archive: false, ratings: false };
  }
}

// The time-control classes' words (club_class_name's tokens, which the
// list prints) in the page's language; a token not here is shown as is.
const CLASS_WORDS = { untimed: N_('untimed'), bullet: N_('bullet'), blitz: N_('blitz'),
  rapid: N_('rapid'), classical: N_('classical'), correspondence: N_('correspondence') };

// The game's title in the page's language (core/'s msgid), else its name.
function gameTitle(tabula, name) {
  const g = tabula.games().find((x) => x.name === name);
  return g ? t(g.title) : name;
}

// ---- ratings --------------------------------------------------------------

// The published list drawn: one table per game and class, in the list's
// order (club_ratings_run's: game, class, best first), then its relay:
// and ratings: lines as they are.
function drawRatings(tabula) {
  const { text, verdict } = shown;
  const box = $('ratings-tables');
  const parts = [];
  let table = null, group = '';
  const rest = [];
  for (const line of text.split('\n')) {
    const f = line.split(' ');
    if (f[0] !== 'rating:' || f.length !== 8) {
      if (line) rest.push(line);
      continue;
    }
    const [, game, klass, fp, rating, rd, , games] = f;
    if (`${game} ${klass}` !== group) {
      group = `${game} ${klass}`;
      parts.push(el('h3', `${gameTitle(tabula, game)}: ${CLASS_WORDS[klass] ? t(CLASS_WORDS[klass]) : klass}`));
      table = el('table', undefined, 'ratings');
      table.dataset.game = game;
      table.dataset.class = klass;
      const head = el('tr');
      for (const h of [t('Player'), t('Rating'), t('RD'), t('Games')]) head.append(el('th', h));
      table.append(head);
      parts.push(table);
    }
    const tr = el('tr');
    for (const v of [fp, rating, rd, games]) tr.append(el('td', v));
    table.append(tr);
  }
  if (!parts.length) parts.push(el('p', t('No rated games yet.')));
  parts.push(el('pre', rest.join('\n')));
  box.replaceChildren(...parts);
  $('ratings-verdict').textContent = verdict ? verdict() : '';
  $('ratings-verdict').className = shown.ok === false ? 'error' : '';
}

export async function openRatings(tabula) {
  const text = await download(RATINGS);
  shown = { kind: 'ratings', text, verdict: null, ok: null };
  $('tourney-view').hidden = true;
  $('ratings-view').hidden = false;
  drawRatings(tabula);
}

// Check: every log of the relay's index downloaded and the list made
// again by the module with the relays the published list names (it is
// made with --relay, the relay's own key: its relay: lines name it),
// compared byte for byte.
export async function checkRatings(tabula) {
  const published = shown.text;
  const say = (fn, ok = null) => { shown.verdict = fn; shown.ok = ok; drawRatings(tabula); };
  say(() => t('Downloading the logs...'));
  const index = await download(INDEX);
  // (each line read by the module: club_index_line, as collect --from)
  const ids = index.split('\n').filter((l) => l.trim())
    .map((l) => tabula.withStrings([l], (p) => tabula.str(tabula.x.web_index_log(p))));
  const logs = [];
  for (const id of ids) {
    if (id === null) { logs.push(null); continue; }
    try {
      logs.push(await download(`./archive/logs/${id}.log`, true));
    } catch {
      logs.push(null);
    }
  }
  const relays = published.split('\n').map((l) => l.split(' '))
    .filter((f) => f[0] === 'relay:' && f.length === 3 && f[1] !== 'none').map((f) => f[1]);
  const mine = ratingsText(tabula, logs, relays);
  if (mine === published) {
    say(() => tn('The list made again in this page from {n} log equals the published one, byte for byte.',
      'The list made again in this page from {n} logs equals the published one, byte for byte.',
      logs.length), true);
    return;
  }
  const a = published.split('\n'), b = mine.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  say(() => t('The published list differs from the one made again from the logs at line {line}: published "{published}", made again "{mine}".',
    { line: i + 1, published: a[i] ?? '', mine: b[i] ?? '' }), false);
}

// ---- a tournament -----------------------------------------------------------

const DOCS = { 1: 'tournament.txt', 2: 'pairings', 3: 'results' };

// The folder's documents in the director's order, read by the module:
// tournament.txt, then each round's pairings and results while they are
// there. A refused document is named and not taken; the rounds after a
// refused pairings cannot be read (each pairs on the one before).
export async function openTournament(tabula, url) {
  const base = new URL(url.endsWith('/') ? url : `${url}/`, location.href);
  const tr = new Tourney(tabula);
  const refused = [];
  try {
    const read = async (kind, name) => {
      let bytes;
      try {
        bytes = await download(new URL(name, base), true);
      } catch (e) {
        if (e.status === 404 && kind !== 1) return null;
        throw e;
      }
      try {
        tr.read(kind, bytes);
        return true;
      } catch (e) {
        refused.push({ name, why: e.message });
        return false;
      }
    };
    if (!await read(1, DOCS[1])) {
      const e = new Error(t('{name} refused: {why}', refused[0]));
      e.refused = refused;
      throw e;
    }
    for (let r = 1; r <= 64; r++) {
      if (await read(2, `round-${r}.${DOCS[2]}`) !== true) break;
      await read(3, `round-${r}.${DOCS[3]}`);
    }
    shown = { kind: 'tournament', url: base.href, view: tr.view(), refused };
  } finally {
    tr.free();
  }
  $('ratings-view').hidden = true;
  $('tourney-view').hidden = false;
  drawTournament(tabula);
}

function drawTournament(tabula) {
  const { view: v, refused } = shown;
  const to = v.tournament;
  $('tourney-name').textContent = to.name;
  const facts = [
    [t('Game'), gameTitle(tabula, to.game)],
    [t('Clock'), to.clock || t('none')],
    [t('System'), { rr: t('round robin'), drr: t('double round robin'), swiss: t('Swiss') }[to.system] ?? to.system],
    [t('Rounds'), String(to.rounds)],
    [t('Director'), to.director],
  ];
  $('tourney-facts').replaceChildren(...facts.flatMap(([k, val]) => [el('dt', k), el('dd', val)]));
  $('tourney-refused').replaceChildren(...refused.map((x) =>
    el('p', t('{name} refused: {why}', x))));
  const rounds = [];
  const last = Math.max(0, ...v.boards.map((b) => b.round), ...v.byes.map((b) => b.round));
  for (let r = 1; r <= last; r++) {
    rounds.push(el('h3', t('Round {n}', { n: r })));
    const table = el('table', undefined, 'pairings');
    table.dataset.round = String(r);
    const head = el('tr');
    for (const h of [t('Board'), t('White'), t('Black'), t('Result')]) head.append(el('th', h));
    table.append(head);
    const rows = [...v.boards.filter((b) => b.round === r).map((b) => [b.board, b.white, b.black, b.result]),
      ...v.byes.filter((b) => b.round === r).map((b) => [b.board, b.player, '', t('bye')])]
      .sort((x, y) => x[0] - y[0]);
    for (const row of rows) {
      const tr = el('tr');
      for (const c of row) tr.append(el('td', String(c)));
      table.append(tr);
    }
    rounds.push(table);
  }
  $('tourney-rounds').replaceChildren(...rounds);
  const st = v.standings;
  $('tourney-standings-title').textContent = st
    ? t('Standings after round {n}', { n: st.rounds }) : t('No results yet.');
  $('tourney-standings-check').textContent = !st ? '' : st.same
    ? t('They are the standings the director signed.')
    : t('They differ from the standings the director signed.');
  $('tourney-standings-check').className = st && !st.same ? 'error' : 'hint';
  // (the module's HTML: club_crosstable_html escapes every text)
  $('tourney-crosstable').innerHTML = v.crosstable;
}

// Drawn again in the page's language (the language switch).
export function clubRedraw(tabula) {
  if (shown?.kind === 'ratings') drawRatings(tabula);
  else if (shown?.kind === 'tournament') drawTournament(tabula);
}

// What the browser tests read.
export function clubShown() { return shown; }
