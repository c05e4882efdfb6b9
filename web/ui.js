// ui.js — pieces the lobby and the game page share: one way to name a seat
// ("Player N", with the seat's colour where the game gives seats colours),
// error messages placed beside the control that caused them, and the rules
// text rendered as paragraphs and rule items instead of fixed-width lines.
// Invariant: every seat name shown anywhere on the page comes from seatName.

import { html as h } from './games/svg.js';

// IceFrogs seat colours (style.css .p1..p6), Ziggurat colour letters, Noname letters
const SEAT_COLOURS = ['red', 'blue', 'green', 'yellow', 'purple', 'orange'];
const ZIG_COLOURS = { R: 'red', G: 'green', Y: 'yellow', B: 'blue' };
const NONAME_COLOURS = { r: 'red', y: 'yellow', g: 'green', b: 'blue', k: 'black', w: 'white',
  p: 'purple', o: 'orange', c: 'cyan', x: 'clear' };

/* The colours of seat i in game view v: [{ name, cls }] (empty when the
 * game's seats have no colours: Tic Tac Doh! and Nimitz share their pieces). */
export function seatColours(v, i) {
  const pos = v && v.view;
  if (!pos) return [];
  if (v.game === 'icefrogs') return [{ name: SEAT_COLOURS[i], cls: `p${i + 1}` }];
  if (v.game === 'ziggurat' && Array.isArray(pos.seats) && Array.isArray(pos.seats[i]))
    return pos.seats[i].map((c) => ({ name: ZIG_COLOURS[c] || c, cls: `z${c}` }));
  if (v.game === 'noname' && Array.isArray(pos.seats) && pos.seats[i])
    return [{ name: NONAME_COLOURS[pos.seats[i].colour], cls: `c-${pos.seats[i].colour}` }];
  return [];
}

/* "Player 2 (blue)" as text. */
export function seatName(v, i) {
  const cs = seatColours(v, i);
  return `Player ${i + 1}${cs.length ? ` (${cs.map((c) => c.name).join('+')})` : ''}`;
}

/* The seat's name as an element: colour dots, then the name. */
export function seatBadge(v, i) {
  return h('span', { class: 'seat-name' },
    seatColours(v, i).map((c) => h('span', { class: `dot ${c.cls}`, 'aria-hidden': 'true' })),
    seatName(v, i));
}

/* The library's result and status texts say "seat N" / "player N"; the page
 * says "Player N (colour)" everywhere. */
export function nameSeatsIn(v, text) {
  let t = String(text || '');
  if (v.game === 'tictacdoh' && v.seats.length === 2)   // the library's X and O (TTD seats)
    t = t.replace(/\b([XO])\b/g, (all, s) => `seat ${s === 'X' ? 1 : 2}`);
  const nn = v.game === 'noname' && v.view && Array.isArray(v.view.seats) ? v.view.seats.map((s) => s.colour) : null;
  if (nn) {   // Noname's "r+b share the win (r 20, b -10)": the winners by seat, the scores by colour
    t = t.replace(/^([a-z](?:\+[a-z])*) (wins|share the win)/, (all, who, verb) =>
      `${who.split('+').map((c) => (nn.includes(c) ? `seat ${nn.indexOf(c) + 1}` : c)).join(' and ')} ${verb}`);
    t = t.replace(/\b([a-z]) (-?\d+)\b/g, (all, c, n) => (nn.includes(c) ? `${NONAME_COLOURS[c]} ${n}` : all));
  }
  return t.replace(/\b[Ss]eat (\d)\b|\b[Pp]layer (\d)\b/g,
    (all, a, b) => seatName(v, Number(a || b) - 1));
}

/* An error line for one control: call it with a message to show it (and
 * bring it into view) or with '' to hide it. The element goes after `anchor`. */
export function errorSlot(anchor, id) {
  const box = h('p', { class: 'error inline-error', role: 'alert', hidden: true, id });
  anchor.after(box);
  return (msg) => {
    const same = !box.hidden && box.textContent === (msg || '');
    box.textContent = msg || '';
    box.hidden = !msg;
    if (msg && !same) box.scrollIntoView({ block: 'nearest' });   // the same error again does not move the page
  };
}

const RULE_ID = /^([A-Z]{2,4}-[A-Z]?\d+[a-z]?|[A-Z]\d+|§\s?\d+)\b/;

// ruling ids in running text: "ZIG-R4", "NON-R1, R4", "TTD-R1..R6"
const PREFIXED_ID = /\b[A-Z]{2,4}-R\d+[a-z]?/;
const ID_TEXT = '(?:[A-Z]{2,4}-)?R\\d+[a-z]?(?:\\.\\.R?\\d+[a-z]?)?';
const ID_PART = new RegExp(`^(?:(?:as|see|by)\\s+)?${ID_TEXT}(?:\\s+|$)`);
const PREFIXED_TEXT = ID_TEXT.replace("(?:[A-Z]{2,4}-)?", "[A-Z]{2,4}-");
const LEAD_ID = new RegExp(`^${PREFIXED_TEXT}\\s+`);

/* Rule titles by id, from items like "TTD-R9 Stuck, any count. ...". */
function ruleTitles(text) {
  const titles = new Map();
  for (const m of String(text || '').matchAll(/^([A-Z]{2,4}-R\d+[a-z]?)(?:\.\.R\d+)? ([^.:\n]+)[.:]/gm)) titles.set(m[1], m[2]);
  return titles;
}

/* A rules paragraph in plain words: ids dropped from parentheses ("(NON-R1,
 * R4)" goes, "(option capture_to; NON-R11)" keeps its option), a rule named
 * in a sentence by its title, a range of earlier rules as "the rules above". */
function withoutIds(t, titles, seen) {
  t = t.replace(/\s?\(([^()]*)\)/g, (all, inner) => {
    if (!PREFIXED_ID.test(inner)) return all;
    const bits = inner.split(/(\s*[;,]\s*)/);
    const out = [];
    for (let i = 0; i < bits.length; i += 2) {
      const part = bits[i].replace(ID_PART, '').trim();
      if (!part) continue;
      if (out.length) out.push(bits[i - 1]);
      out.push(part);
    }
    return out.length ? ` (${out.join('')})` : '';
  });
  t = t.replace(new RegExp(`\\s+(?:as|see)\\s+${PREFIXED_TEXT}(?=[:.,;])`, 'g'), '');
  t = t.replace(new RegExp(`\\b${PREFIXED_TEXT}\\s+(?=[A-Z])`, 'g'), '');   // an item run into the previous line
  return t.replace(new RegExp(`\\b${PREFIXED_TEXT}`, 'g'), (id) => {
    const [first] = id.split('..');
    if (id.includes('..') && seen.has(first)) return 'the rules above';
    return titles.has(id) ? `the "${titles.get(id)}" rule` : 'a rule in the rules detail';
  });
}

/* The rules for the lobby and the game page: in plain words first, the full
 * text with its ruling ids in a "Rules detail" fold. */
export function rulesWithDetail(text, id) {
  return h('div', {}, renderRules(text, { plain: true }),
    h('details', { class: 'rules-detail', id }, h('summary', {}, 'Rules detail (with the ruling ids)'), renderRules(text)));
}

/* The rules text (hard-wrapped, rule items like "TTD-R2 Placement. ..." with
 * indented continuation lines) as readable HTML: paragraphs re-flowed, each
 * rule item its own paragraph with its id in bold, lists kept as lists.
 * plain: without the ruling ids (the title of each item in bold instead). */
export function renderRules(text, { plain = false } = {}) {
  const titles = plain ? ruleTitles(text) : null;
  const seen = new Set();   // rule ids met so far (plain)
  const words = (t) => (plain ? withoutIds(t, titles, seen) : t);
  const out = h('div', { class: 'rules' });
  for (const block of String(text || '').split(/\n\s*\n/)) {
    const items = [];           // [{ kind: 'rule'|'li'|'p', lines }]
    for (const raw of block.split('\n')) {
      const line = raw.trimEnd();
      if (!line.trim()) continue;
      const indented = /^\s/.test(line);
      const t = line.trim();
      const bullet = /^[-*•]\s+/.test(t);
      if (items.length && indented && !bullet) items[items.length - 1].lines.push(t);
      else if (RULE_ID.test(t) && !indented) items.push({ kind: 'rule', lines: [t] });
      else if (bullet) items.push({ kind: 'li', lines: [t.replace(/^[-*•]\s+/, '')] });
      else if (items.length && items[items.length - 1].kind !== 'li') items[items.length - 1].lines.push(t);
      else items.push({ kind: 'p', lines: [t] });
    }
    let list = null;
    for (const it of items) {
      const txt = it.lines.join(' ');
      if (it.kind === 'li') {
        if (!list) { list = h('ul'); out.append(list); }
        list.append(h('li', {}, words(txt)));
        continue;
      }
      list = null;
      if (it.kind === 'rule' && plain) {
        const lead = LEAD_ID.exec(txt);
        if (lead) seen.add(lead[0].trim().split('..')[0]);
        const rest = words(lead ? txt.slice(lead[0].length) : txt);
        const t = /^([^.:]{1,60}[.:])\s/.exec(rest);
        out.append(t ? h('p', { class: 'rule' }, h('strong', {}, t[1]), rest.slice(t[1].length)) : h('p', { class: 'rule' }, rest));
      } else if (it.kind === 'rule') {
        const m = RULE_ID.exec(txt);
        out.append(h('p', { class: 'rule' }, h('strong', {}, m[1]), txt.slice(m[1].length)));
      } else out.append(h('p', {}, words(txt)));
    }
  }
  return out;
}

// Icons drawn as SVG paths (emoji and rare symbols show as missing glyphs
// on some systems): 24x24 view boxes, stroked in the current colour.
const ICONS = {
  hourglass: 'M6 3h12M6 21h12M7 3c0 5 10 6 10 9s-10 4-10 9M17 3c0 5-10 6-10 9s10 4 10 9',
  play: 'M7 4l13 8-13 8z',
  pause: 'M7 4v16M17 4v16',
  copy: 'M9 9h11v11H9zM5 15H4V4h11v1',
  clock: 'M12 3a9 9 0 1 0 0.01 0M12 7v5l3 3',
  eye: 'M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12zM12 9a3 3 0 1 0 0.01 0',
  upright: 'M12 4l8 15H4z',
  lying: 'M4 6l16 6-16 6z',
  pan: 'M12 3v18M3 12h18M9 6l3-3 3 3M9 18l3 3 3-3M6 9l-3 3 3 3M18 9l3 3-3 3',
  'turn-left': 'M4 4v6h6M4.6 10A8 8 0 1 1 6.3 17.7',
  'turn-right': 'M20 4v6h-6M19.4 10A8 8 0 1 0 17.7 17.7',
};

/* An inline SVG icon (a name of ICONS: 'hourglass', 'play', 'clock', ...). */
export function svgIcon(name, label) {
  const NS = 'http://www.w3.org/2000/svg';
  const s = document.createElementNS(NS, 'svg');
  s.setAttribute('viewBox', '0 0 24 24');
  s.setAttribute('class', `ui-icon icon-${name}`);
  if (label) { s.setAttribute('role', 'img'); s.setAttribute('aria-label', label); } else s.setAttribute('aria-hidden', 'true');
  const p = document.createElementNS(NS, 'path');
  p.setAttribute('d', ICONS[name]);
  if (name === 'play') p.setAttribute('fill', 'currentColor');
  s.append(p);
  return s;
}

/* Milliseconds as a clock reads: "4:59", "1:02:03", "9.4" under ten seconds. */
export function clockText(ms) {
  if (ms <= 0) return '0.0';
  if (ms < 10000) return (Math.floor(ms / 100) / 10).toFixed(1);
  const s = Math.ceil(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  return `${h ? h + ':' + String(m).padStart(2, '0') : m}:${String(sec).padStart(2, '0')}`;
}

/* A "Copy" button for text(); says "Copied" for a moment (or asks to copy
 * by hand where the clipboard is refused). */
export function copyButton(id, text, what) {
  const word = h('span', {}, 'Copy');
  const b = h('button', { type: 'button', class: 'secondary small copy', id, 'aria-label': `Copy ${what}` },
    svgIcon('copy'), word);
  b.addEventListener('click', async () => {
    try { await navigator.clipboard.writeText(text()); word.textContent = 'Copied'; } catch { word.textContent = 'Select it to copy'; }
    setTimeout(() => { word.textContent = 'Copy'; }, 1500);
  });
  return b;
}
