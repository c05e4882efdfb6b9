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

/* The rules text (hard-wrapped, rule items like "TTD-R2 Placement. ..." with
 * indented continuation lines) as readable HTML: paragraphs re-flowed, each
 * rule item its own paragraph with its id in bold, lists kept as lists. */
export function renderRules(text) {
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
        list.append(h('li', {}, txt));
        continue;
      }
      list = null;
      if (it.kind === 'rule') {
        const m = RULE_ID.exec(txt);
        out.append(h('p', { class: 'rule' }, h('strong', {}, m[1]), txt.slice(m[1].length)));
      } else out.append(h('p', {}, txt));
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
};

/* An inline SVG icon ('hourglass', 'play', 'pause', 'copy', 'clock', 'eye'). */
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
