// i18n.js: the page's languages (docs/languages.md): English, Czech and
// Russian from the program's own gettext catalogues (po/cs.po, po/ru.po,
// turned into locale/LL.json by scripts/po2json.py at build time). t()
// translates a message by its English msgid (xgettext reads web/*.js with
// --keyword=t, and tn:1,2 for plurals), filling {name} placeholders;
// English is the msgid itself. The language is the one stored by the
// page's switch, else the first of navigator.languages that is en, cs or
// ru, else English.
export const LANGS = ['en', 'cs', 'ru'];
const STORE = 'tabula-lang';
let lang = 'en';
let cat = {};

// "3 plies": the form for n by the catalogue's plural rule, the one its
// .po header states (scripts/po2json.mjs tabulates it for n = 0..199; a
// larger n takes the form of 100 + n % 100, as the module's catalogue
// does); English: the msgid for one, msgid_plural otherwise.
export function pluralIndex(n) {
  const rule = cat['']?.rule;
  if (!rule) return n === 1 ? 0 : 1;
  return rule[n < rule.length ? n : rule.length / 2 + (n % (rule.length / 2))] ?? 0;
}

function fill(text, args) {
  return args ? text.replace(/\{(\w+)\}/g, (m, k) => (k in args ? String(args[k]) : m)) : text;
}

export function t(msgid, args) {
  const s = cat[msgid];
  return fill(typeof s === 'string' && s ? s : msgid, args);
}

// Plural: the form for n; args.n is n unless given.
export function tn(one, many, n, args) {
  const s = cat[one];
  const forms = Array.isArray(s) ? s : null;
  const text = forms && forms[pluralIndex(n)] ? forms[pluralIndex(n)] : n === 1 ? one : many;
  return fill(text, { n, ...args });
}

export function currentLang() { return lang; }

// The catalogue in use ({} for English), for the module's own texts.
export function catalogue() { return cat; }

export function preferredLang() {
  let stored = null;
  try { stored = localStorage.getItem(STORE); } catch { /* no storage */ }
  if (LANGS.includes(stored)) return stored;
  for (const l of navigator.languages ?? [navigator.language]) {
    const base = String(l).toLowerCase().split('-')[0];
    if (LANGS.includes(base)) return base;
  }
  return 'en';
}

// Loads the catalogue of `to` (English needs none); remember: the switch
// stores the choice. Unknown or unloadable: English. Calls that overlap
// (two clicks on the switch while a catalogue loads) take effect in the
// order they were made: one overtaken by a later call changes nothing
// and returns null.
let asked = 0;
export async function setLang(to, remember = false) {
  const mine = ++asked;
  let next = {};
  if (to !== 'en') {
    try {
      const r = await fetch(new URL(`./locale/${to}.json`, import.meta.url));
      if (!r.ok) throw new Error(r.statusText);
      next = await r.json();
    } catch {
      to = 'en';
    }
  }
  if (mine !== asked) return null;
  lang = to;
  cat = next;
  document.documentElement.lang = lang;
  if (remember) {
    try { localStorage.setItem(STORE, lang); } catch { /* no storage */ }
  }
  return lang;
}

// Marks a msgid for xgettext where it is translated later by t().
export const N_ = (msgid) => msgid;
