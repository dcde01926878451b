// notices.js: "your move" notices while the page is open (issue 37,
// correspondence): when a game needs the player and the tab is hidden
// (document.visibilityState), the tab's title says so ("● Your move —
// Tabula", the page's own title back once the tab is visible again) and,
// if the player allowed it, a Notification names the game and the move
// ("Your move: Laska, 12.e5xc3"). Whose move it is, and the move, come
// from the module (client/game_glance.c, as `tabula games` reads them);
// this file only shows them.
//
// Permission is asked only from the player's click on the toggle ("Notify
// me of my moves"), as browsers require; the choice is kept in
// localStorage. Where the browser has no Notification, or the player
// blocked it for this page, the toggle's place says so instead.
import { t } from './i18n.js';

const PREF = 'tabula-notify'; // localStorage: '1' notify, else not

const supported = () => typeof Notification === 'function';

function prefOn() {
  try { return localStorage.getItem(PREF) === '1'; } catch { return false; }
}

function prefSet(on) {
  try { localStorage.setItem(PREF, on ? '1' : '0'); } catch { /* no storage */ }
}

// 'missing' (no Notification here), 'denied' (blocked for this page),
// 'on' (allowed and chosen) or 'off'.
export function notifyState() {
  if (!supported()) return 'missing';
  if (Notification.permission === 'denied') return 'denied';
  return Notification.permission === 'granted' && prefOn() ? 'on' : 'off';
}

// The toggle drawn into box (an element), in the page's language; its
// click asks the browser for permission the first time (a user gesture).
// redraw: called after a change, to draw every toggle again.
export function drawNotifyToggle(box, redraw) {
  const state = notifyState();
  if (state === 'missing' || state === 'denied') {
    const p = document.createElement('span');
    p.className = 'notify-off';
    p.textContent = state === 'missing'
      ? t('This browser cannot show notifications: the tab\'s title says when it is your move.')
      : t('Notifications are blocked for this page (the browser\'s site settings allow them): the tab\'s title says when it is your move.');
    box.replaceChildren(p);
    return;
  }
  const input = document.createElement('input');
  input.type = 'checkbox';
  input.checked = state === 'on';
  input.addEventListener('change', async () => {
    if (!input.checked) {
      prefSet(false);
      redraw();
      return;
    }
    let answer = Notification.permission;
    if (answer !== 'granted') {
      try { answer = await Notification.requestPermission(); } catch { answer = 'denied'; }
    }
    prefSet(answer === 'granted');
    redraw();
  });
  const label = document.createElement('label');
  label.append(input, ` ${t('Notify me of my moves')}`);
  box.replaceChildren(label);
}

// The page's own title, put back when the tab is seen again.
let plainTitle = typeof document !== 'undefined' ? document.title : 'Tabula';
let marked = false;

const hidden = () => document.visibilityState === 'hidden';

function unmark() {
  if (!marked) return;
  marked = false;
  document.title = plainTitle;
}

if (typeof document !== 'undefined')
  document.addEventListener('visibilitychange', () => { if (!hidden()) unmark(); });

// A game needs the player: title(), the game's title in the page's
// language, and move ("12.e5xc3", '' before any move); tag names the
// game (one notification a game: a newer one replaces it). Shown only
// while the tab is hidden: a visible page shows the board or the list.
// Returns true when the tab was told.
export function yourMove(gameTitle, move, tag) {
  if (!hidden()) return false;
  if (!marked) plainTitle = document.title;
  marked = true;
  document.title = `● ${t('Your move')} — ${plainTitle}`;
  if (notifyState() === 'on') {
    try {
      const body = move ? t('Your move: {game}, {move}', { game: gameTitle, move })
        : t('Your move: {game}', { game: gameTitle });
      const n = new Notification(body, { tag: `tabula-${tag}`, lang: document.documentElement.lang || undefined });
      n.onclick = () => { window.focus(); n.close(); };
    } catch { /* (a browser that takes Notification only from a service worker) */ }
  }
  return true;
}
