// po2json.mjs: a gettext catalogue as the page's JSON catalogue
// (web/i18n.js): {"msgid": "translation", "plural msgid": [forms...]},
// and under the key "" (the header's msgid, never a message) the
// language's plural rule as the header's Plural-Forms states it:
// {"rule": [the form of n for n = 0..199]}, so the page copies no plural
// rule of its own. Untranslated, fuzzy and obsolete entries are left out
// (the page shows the English msgid for them). Run by
// scripts/build-wasm.sh:  node scripts/po2json.mjs IN.po > OUT.json
import { readFileSync } from 'node:fs';

// The form of n = 0..199 by the header's "Plural-Forms: nplurals=N;
// plural=EXPR;" (EXPR is C; its operators ?:, %, comparisons, && and ||
// mean the same in JavaScript for whole numbers). The page takes a
// larger n as 100 + n % 100, as the module does (client/i18n.h).
function pluralRule(header) {
  const m = header.match(/Plural-Forms:\s*nplurals=(\d+);\s*plural=([^;\n]+);/);
  if (!m) throw new Error('po2json: no Plural-Forms in the header');
  if (!/^[\sn0-9%?:()<>=!&|]+$/.test(m[2])) throw new Error(`po2json: a plural rule to check by hand: ${m[2]}`);
  const form = new Function('n', `return Number(${m[2]});`);
  const rule = [];
  for (let n = 0; n < 200; n++) {
    const f = form(n);
    if (!Number.isInteger(f) || f < 0 || f >= Number(m[1])) throw new Error(`po2json: plural form ${f} of ${n}`);
    rule.push(f);
  }
  return rule;
}

const text = readFileSync(process.argv[2], 'utf8');
const out = {};
for (const block of text.split(/\n\s*\n/)) {
  const entry = {};
  let key = null;
  let fuzzy = false;
  for (const line of block.split('\n')) {
    if (line.startsWith('#,') && line.includes('fuzzy')) fuzzy = true;
    if (line.startsWith('#')) { key = null; continue; }
    const m = line.match(/^(msgid|msgid_plural|msgctxt|msgstr(?:\[\d+\])?) (".*")$/);
    if (m) {
      key = m[1];
      entry[key] = JSON.parse(m[2]);
    } else if (key && /^".*"$/.test(line)) {
      entry[key] += JSON.parse(line);
    }
  }
  if (entry.msgid === '' && entry.msgstr) out[''] = { rule: pluralRule(entry.msgstr) };
  if (fuzzy || !entry.msgid || 'msgctxt' in entry) continue;
  if ('msgid_plural' in entry) {
    const forms = Object.keys(entry).filter((k) => k.startsWith('msgstr['))
      .sort((a, b) => Number(a.slice(7, -1)) - Number(b.slice(7, -1))).map((k) => entry[k]);
    if (forms.length && forms.every((f) => f)) out[entry.msgid] = forms;
  } else if (entry.msgstr) {
    out[entry.msgid] = entry.msgstr;
  }
}
process.stdout.write(`${JSON.stringify(out)}\n`);
