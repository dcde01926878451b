// po2json.mjs: a gettext catalogue as the page's JSON catalogue
// (web/i18n.js): {"msgid": "translation", "plural msgid": [forms...]}.
// Untranslated, fuzzy and obsolete entries and the header are left out
// (the page shows the English msgid for them). Run by
// scripts/build-wasm.sh:  node scripts/po2json.mjs IN.po > OUT.json
import { readFileSync } from 'node:fs';

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
