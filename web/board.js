// board.js: draws a core view (Position.view()) as an HTML grid and turns
// clicks on its cells into legal moves, the way the terminal board does
// (client/tui/tui.c): squares are selected one after another, the squares
// that can come next are marked, and a move is played once the selected
// squares name exactly one legal move. Which squares a move passes
// through comes from the module (Position.moveSquares()); nothing here
// knows a rule. From the keyboard the board is one stop of the Tab order:
// the arrow keys move between its squares, Enter or Space selects one.
import { t } from './i18n.js';

// The figurine each piece the module names (its view's PIECE: web_view)
// is drawn as: the solid chess figurines U+265A..U+265F for both sides,
// the colours (style.css) telling the sides, as on the terminal
// (client/core_text.c cli_piece_figurine); the ball U+25CF. Pieces chess
// has none for (vizier, moor, jack, cat) and Laska's columns keep their
// letters. Presentation only: which piece stands where is the module's.
const FIGURINES = { king: '\u265A', queen: '\u265B', rook: '\u265C',
  bishop: '\u265D', knight: '\u265E', pawn: '\u265F', ball: '\u25CF' };

export class Board {
  // el: the grid element; onMove(text): called with a chosen move's
  // notation; say(text): a message for the player (a function giving it
  // in the page's language).
  // onDraw(view, marks), when given, is called after each drawing (the
  // Chessball ball draws the same view and marks).
  constructor(el, { onMove, say, onChoices, onDraw }) {
    this.el = el;
    this.onMove = onMove;
    this.say = say;
    this.onChoices = onChoices ?? (() => {});
    this.onDraw = onDraw ?? null;
    this.flipped = false;
    this.moves = [];
    this.clicked = [];
    this.lastSquares = [];
    this.enabled = false;
    this.grid = []; // the squares' buttons as drawn, row by row (null: none)
    this.focusName = null; // the square the keyboard is on
    el.addEventListener('keydown', (e) => this.key(e));
  }

  // Draw view v; moves: [{text, squares}] the player may choose from
  // (empty when it is not their turn); last: squares of the last ply.
  show(v, moves, last = []) {
    this.view = v;
    this.moves = moves;
    this.lastSquares = last;
    this.clicked = [];
    this.onChoices([]);
    this.draw();
  }

  draw() {
    const v = this.view;
    if (!v) return;
    const rows = [...Array(v.rows).keys()];
    const cols = [...Array(v.cols).keys()];
    if (this.flipped) { rows.reverse(); cols.reverse(); }
    const marks = this.marks();
    const focused = this.el.contains(document.activeElement);
    this.el.replaceChildren();
    this.grid = [];
    this.el.style.gridTemplateColumns = `1.5em repeat(${v.cols}, 1fr)`;
    for (const r of rows) {
      const label = document.createElement('div');
      label.className = 'label';
      label.textContent = v.rowLabels[r] ?? '';
      this.el.append(label);
      const line = [];
      for (const c of cols) {
        const node = this.cell(v.cells[r][c], marks);
        line.push(node.dataset.name ? node : null);
        this.el.append(node);
      }
      this.grid.push(line);
    }
    // (no row of column labels where the module gives none: Chessball's
    // map, whose cells name their fields)
    if (v.colLabels.some((l) => l)) {
      this.el.append(document.createElement('div'));
      for (const c of cols) {
        const label = document.createElement('div');
        label.className = 'label';
        label.textContent = v.colLabels[c] ?? '';
        this.el.append(label);
      }
    }
    // One square takes part in the Tab order: the keyboard's, else the first.
    const squares = this.grid.flat().filter((b) => b);
    const stop = squares.find((b) => b.dataset.name === this.focusName) ?? squares[0];
    if (stop) {
      stop.tabIndex = 0;
      if (focused) stop.focus();
    }
    if (this.onDraw) this.onDraw(v, marks);
  }

  cell(cell, marks) {
    const b = document.createElement(cell.name ? 'button' : 'div');
    b.className = `cell k${cell.kind} o${cell.owner}`;
    if (cell.name) {
      b.type = 'button';
      b.tabIndex = -1;
      b.dataset.name = cell.name;
      b.title = [cell.name, cell.detail].filter((x) => x).join(': ');
      b.setAttribute('aria-label', b.title || cell.name);
      const name = document.createElement('span');
      name.className = 'name';
      name.textContent = cell.name;
      b.append(name);
      const m = marks.get(cell.name);
      if (m) b.classList.add(m);
      b.addEventListener('click', () => this.select(cell.name));
      b.addEventListener('focus', () => { this.focusName = cell.name; });
    }
    const glyph = document.createElement('span');
    const figurine = FIGURINES[cell.piece];
    glyph.className = figurine ? 'glyph figurine' : 'glyph';
    glyph.textContent = figurine ?? cell.glyph;
    // (the square's title names the piece, e.g. "a1: White rook")
    if (figurine) glyph.setAttribute('aria-hidden', 'true');
    b.append(glyph);
    return b;
  }

  // Arrow keys: to the next square that way on the drawn board (gaps and
  // the Chessball map's empty cells skipped), taking the Tab stop along.
  key(e) {
    const d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1],
      ArrowRight: [0, 1] }[e.key];
    let r = this.grid.findIndex((line) => line.includes(e.target));
    if (!d || r < 0) return;
    let c = this.grid[r].indexOf(e.target);
    for (;;) {
      r += d[0];
      c += d[1];
      const line = this.grid[r];
      if (!line || c < 0 || c >= line.length) return;
      if (line[c]) {
        e.preventDefault();
        e.target.tabIndex = -1;
        line[c].tabIndex = 0;
        line[c].focus();
        return;
      }
    }
  }

  // name -> 'path' | 'target' | 'last'
  marks() {
    const m = new Map();
    for (const s of this.lastSquares) m.set(s, 'last');
    for (const s of this.clicked) m.set(s, 'path');
    if (this.clicked.length) {
      for (const mv of this.continuing()) {
        const next = mv.squares[this.clicked.length];
        if (next && !m.has(next)) m.set(next, 'target');
      }
    }
    return m;
  }

  continuing() {
    const k = this.clicked;
    return this.moves.filter((mv) => mv.squares.length >= k.length &&
      k.every((s, i) => mv.squares[i] === s));
  }

  select(name) {
    if (!this.enabled || this.moves.length === 0) {
      this.say(() => this.enabled ? t('no moves here') : t('it is not your move'));
      return;
    }
    const k = this.clicked;
    if (k.length && k[k.length - 1] === name) {
      this.clicked = [];
      this.onChoices([]);
      this.say(() => t('selection cleared'));
      this.draw();
      return;
    }
    k.push(name);
    let cont = this.continuing();
    if (cont.length === 0 && k.length > 1) {
      this.clicked = [name];
      cont = this.continuing();
    }
    if (cont.length === 0) {
      this.clicked = [];
      this.say(() => t('no legal move from {square}', { square: name }));
      this.draw();
      return;
    }
    const n = this.clicked.length;
    const exact = cont.filter((mv) => mv.squares.length === n);
    const longer = cont.some((mv) => mv.squares.length > n);
    this.onChoices([]);
    if (exact.length === 1 && !longer) {
      this.clicked = [];
      this.draw();
      this.onMove(exact[0].text);
      return;
    }
    if (exact.length >= 1) {
      this.onChoices(exact.map((mv) => mv.text));
      this.say(() => exact.length === 1
        ? t('choose {move}, or select the next square', { move: exact[0].text })
        : t('several moves fit: choose one'));
    } else {
      this.say(() => t('select the next square (click the last one again to cancel)'));
    }
    this.draw();
  }
}
