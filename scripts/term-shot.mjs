// term-shot.mjs: a terminal screen (tmux capture-pane -e output on
// standard input, COLSxROWS) drawn by xterm.js with xterm's standard
// colours (XTerm-col.ad, as tests/client/test_tui_colours.c reads them)
// in headless Chromium, saved as a PNG: the terminal screenshots in
// docs/img (scripts/screenshots.sh).
//   node scripts/term-shot.mjs OUT.png COLS ROWS < screen.ansi
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../tests/web/page_util.mjs';

const [out, cols, rows] = process.argv.slice(2);
if (!out || !(Number(cols) > 0) || !(Number(rows) > 0)) {
  console.error('usage: node scripts/term-shot.mjs OUT.png COLS ROWS < screen.ansi');
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const xterm = join(root, 'web/node_modules/@xterm/xterm');
const screen = readFileSync(0, 'utf8').replace(/\n$/, '').replace(/\n/g, '\r\n');
const theme = {
  background: '#000000', foreground: '#e5e5e5', cursor: '#e5e5e5',
  black: '#000000', red: '#cd0000', green: '#00cd00', yellow: '#cdcd00',
  blue: '#0000ee', magenta: '#cd00cd', cyan: '#00cdcd', white: '#e5e5e5',
  brightBlack: '#7f7f7f', brightRed: '#ff0000', brightGreen: '#00ff00',
  brightYellow: '#ffff00', brightBlue: '#5c5cff', brightMagenta: '#ff00ff',
  brightCyan: '#00ffff', brightWhite: '#ffffff',
};
const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1600, height: 1200 });
  await page.setContent('<!doctype html><meta charset="utf-8"><body style="margin:0;background:#000"><div id="t"></div></body>');
  await page.addStyleTag({ path: join(xterm, 'css/xterm.css') });
  await page.addScriptTag({ path: join(xterm, 'lib/xterm.js') });
  await page.evaluate(async (c, r, th, s) => {
    const term = new window.Terminal({ cols: c, rows: r, theme: th,
      fontFamily: '"DejaVu Sans Mono", monospace', fontSize: 16,
      drawBoldTextInBrightColors: false, cursorInactiveStyle: 'none' });
    term.open(document.getElementById('t'));
    await new Promise((ok) => term.write(s, ok));
    await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
  }, Number(cols), Number(rows), theme, screen);
  const el = await page.$('#t .xterm-screen');
  await el.screenshot({ path: out });
} finally {
  await browser.close();
}
