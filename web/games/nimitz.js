// games/nimitz.js — the Nimitz grid in SVG: cells named as in the notation
// (files a.. from the left, ranks 1.. from the bottom; holes of a layout
// left blank), each stack of up to three pieces (NIM-R2: L, M, S from the
// bottom) in its colour. An upright stack (U) is drawn from the side, the
// pieces standing on each other; a flat one (N, E, S, W) from above, as
// nested arrowheads pointing its way (NIM-R3: one orientation per stack).
// The shared store is shown per colour and size. Placing: choose a piece
// from the store; the cells where it may go light up; click one (and pick
// the orientation when several are legal there). Every legal move is also a
// button in a list, for the keyboard.

import { el, html, fillLegalList, pyramid, asButton, keepFocus } from './svg.js';

const C = 90;                          // cell size
const COLOURS = ['r', 'o', 'y', 'g', 'b'];
const COLOUR_NAME = { r: 'red', o: 'orange', y: 'yellow', g: 'green', b: 'blue' };
const SIZES = ['L', 'M', 'S'];
const SIZE_NAME = { S: 'small', M: 'medium', L: 'large' };
const ORIENT = { U: 'upright', N: 'north', E: 'east', S: 'south', W: 'west' };
const ARROW = { U: '●', N: '↑', E: '→', S: '↓', W: '←' };
const SIDE_W = { L: 52, M: 40, S: 28 }, SIDE_H = { L: 46, M: 36, S: 26 };   // upright, side view
const FLAT = { L: 34, M: 25, S: 16 };  // flat: arrowhead half-length from the cell centre

/* The board option -> { rows, cols, cells: Set of names } (layouts list rows top first). */
export function boardShape(option) {
  const v = String(option || 'coaster');
  let rows = 3, cols = 3, grid = null;
  if (v === 'volcano') rows = cols = 5;
  else if (/^\d+x\d+$/.test(v)) [rows, cols] = v.split('x').map(Number);
  else if (/^[#.]+(\/[#.]+)*$/.test(v)) {
    grid = v.split('/');
    rows = grid.length; cols = grid[0].length;
  }
  const cells = new Set();
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++)
      if (!grid || grid[rows - 1 - r][c] === '#') cells.add(String.fromCharCode(97 + c) + (r + 1));
  return { rows, cols, cells };
}

/* "a1:U:rL b2:N:gLoMrS" -> Map cell -> { orient, pieces: [{colour, size}] bottom first } */
export function parseState(text) {
  const cells = new Map();
  for (const part of (text || '').trim().split(/\s+/)) {
    const m = /^([a-z]\d+):([UNESW]):((?:[roygb][SML])+)$/i.exec(part);
    if (m) cells.set(m[1].toLowerCase(), { orient: m[2].toUpperCase(),
      pieces: [...m[3].matchAll(/([roygb])([SML])/gi)].map((x) => ({ colour: x[1].toLowerCase(), size: x[2].toUpperCase() })) });
  }
  return cells;
}

/* "rL@b2:N" -> { colour, size, cell, orient } */
export function parseMove(text) {
  const m = /^([roygb])([SML])@([a-z]\d+)(?::([UNESW]))?$/i.exec(text);
  return m ? { text, colour: m[1].toLowerCase(), size: m[2].toUpperCase(), cell: m[3].toLowerCase(),
    orient: (m[4] || '').toUpperCase() } : null;
}

function describe(stack) {
  if (!stack) return 'empty';
  return `${ORIENT[stack.orient]}, ${stack.pieces.map((p) => `${COLOUR_NAME[p.colour]} ${SIZE_NAME[p.size]}`).join(' under ')}`
    .replace(/ under /g, ', then ');
}

/* An arrowhead pointing `orient`, centred on (cx, cy), half-length a. */
function arrowhead(g, cx, cy, a, orient, cls) {
  const rot = { N: 0, E: 90, S: 180, W: 270 }[orient];
  const pts = [[0, -a], [a * 0.8, a * 0.75], [0, a * 0.35], [-a * 0.8, a * 0.75]];
  const r = rot * Math.PI / 180, c = Math.cos(r), s = Math.sin(r);
  const p = el('g', { class: `pyr flat ${cls}` }, g);
  el('polygon', { points: pts.map(([x, y]) => `${(cx + x * c - y * s).toFixed(1)},${(cy + x * s + y * c).toFixed(1)}`).join(' ') }, p);
  return p;
}

function drawStack(g, x0, y0, st) {
  const cx = x0 + C / 2;
  if (st.orient === 'U') { // from the side: each piece standing on the one below
    let base = y0 + C - 10;
    for (const p of st.pieces) {
      pyramid(g, cx, base, SIDE_W[p.size], SIDE_H[p.size], `n${p.colour} ${p.size}`, { S: 1, M: 2, L: 3 }[p.size]);
      base -= SIDE_H[p.size] * 0.42;
    }
  } else { // from above: arrowheads, the upper (smaller) pieces on top
    const cy = y0 + C / 2 + 4;
    for (const p of st.pieces) arrowhead(g, cx, cy, FLAT[p.size], st.orient, `n${p.colour} ${p.size}`);
  }
  el('text', { class: 'orient', x: x0 + C - 6, y: y0 + 14, 'text-anchor': 'end' }, g).textContent = ARROW[st.orient];
}

export function createBoard(container, ctx) {
  const root = html('div', { class: 'nimitz' });
  const store = html('div', { class: 'nm-store', role: 'group', 'aria-label': 'store: choose a piece to place' });
  const svg = el('svg', { role: 'group', 'aria-label': 'Nimitz board' });
  const hint = html('p', { class: 'help nm-hint', 'aria-live': 'polite' });
  const choose = html('div', { class: 'row nm-choose' });
  const all = html('details', { class: 'legal-all' });
  root.append(store, svg, hint, choose, all);
  container.append(root);
  let view = null, live = false;
  let pick = null, chooseFor = null;   // pick: colour + size, e.g. 'rL'

  function draw() { keepFocus(root, render); }

  function render() {
    const shape = boardShape(view.options?.board);
    const cells = parseState(view.state);
    const sets = Number(view.options?.sets) || 1;
    const colours = COLOURS.slice(0, Number(view.options?.colors) || 5);
    const legal = live ? view.legal.map(parseMove).filter(Boolean) : [];
    const byPiece = new Map();           // 'rL' -> Map cell -> [moves]
    for (const m of legal) {
      const k = m.colour + m.size;
      if (!byPiece.has(k)) byPiece.set(k, new Map());
      const t = byPiece.get(k);
      t.set(m.cell, [...(t.get(m.cell) || []), m]);
    }
    if (pick && !byPiece.has(pick)) pick = null;
    if (!pick) chooseFor = null;
    const targets = pick ? byPiece.get(pick) : new Map();
    const last = view.ply > 0 ? parseMove(view.moves[view.ply - 1]?.text || '') : null;

    // the store: what is left of each colour and size
    const used = {};
    for (const st of cells.values()) for (const p of st.pieces) used[p.colour + p.size] = (used[p.colour + p.size] || 0) + 1;
    store.replaceChildren(...colours.map((c) => html('div', { class: 'nm-colour' },
      html('span', { class: `dot n${c}` }),
      SIZES.map((s) => {
        const k = c + s, left = sets - (used[k] || 0), can = byPiece.has(k);
        const b = html('button', { type: 'button', class: 'secondary size', 'data-piece': k, 'data-key': `store-${k}`, disabled: !can,
          'aria-pressed': can ? String(pick === k) : false,
          'aria-label': `${COLOUR_NAME[c]} ${SIZE_NAME[s]}: ${left} in the store${can ? '; choose to place' : ''}` },
        html('span', { class: `sw n${c} ${s}` }), `${s}${sets > 1 ? `×${left}` : ''}`);
        if (left <= 0) b.classList.add('gone');
        if (can) b.addEventListener('click', () => { pick = pick === k ? null : k; chooseFor = null; draw(); });
        return b;
      }))));

    svg.replaceChildren();
    svg.setAttribute('viewBox', `-2 -2 ${shape.cols * C + 4} ${shape.rows * C + 4}`);
    for (let r = shape.rows - 1; r >= 0; r--) {
      for (let c = 0; c < shape.cols; c++) {
        const name = String.fromCharCode(97 + c) + (r + 1);
        if (!shape.cells.has(name)) continue;
        const x0 = c * C, y0 = (shape.rows - 1 - r) * C;
        const st = cells.get(name);
        const opts = targets.get(name);
        const cls = ['cell'];
        if (opts) cls.push('legal');
        if (chooseFor === name) cls.push('chosen');
        if (last && last.cell === name) cls.push('last');
        const g = el('g', { class: cls.join(' '), 'data-cell': name, 'data-key': name, 'data-stack': st ? `${st.orient}:${st.pieces.map((p) => p.colour + p.size).join('')}` : '' }, svg);
        el('rect', { x: x0 + 2, y: y0 + 2, width: C - 4, height: C - 4, rx: 6 }, g);
        el('text', { class: 'coord', x: x0 + 7, y: y0 + 15 }, g).textContent = name;
        if (st) drawStack(g, x0, y0, st);
        const label = `${name}: ${describe(st)}`;
        el('title', {}, g).textContent = label;   // a tooltip with the whole stack
        if (opts) {
          el('text', { class: 'kinds', x: x0 + 7, y: y0 + C - 8 }, g).textContent = opts.map((m) => ARROW[m.orient]).join(' ');
          asButton(g, `${label}; place here (${opts.map((m) => m.text).join(' or ')})`, () => {
            if (opts.length === 1) ctx.play(opts[0].text);
            else { chooseFor = name; draw(); }
          });
        } else {
          g.setAttribute('role', 'img');
          g.setAttribute('aria-label', label);
        }
      }
    }

    choose.replaceChildren();
    if (chooseFor && targets.has(chooseFor))
      choose.append(html('span', { class: 'help' }, `${pick} on ${chooseFor}:`),
        ...targets.get(chooseFor).map((m) => html('button', { type: 'button', 'data-move': m.text, 'data-key': `choose-${m.text}`,
          onclick: () => ctx.play(m.text) }, `${ARROW[m.orient]} ${ORIENT[m.orient]}`)));

    if (!live) hint.textContent = '';
    else if (pick) hint.textContent = `${COLOUR_NAME[pick[0]]} ${SIZE_NAME[pick[1]]}: choose a highlighted cell (${targets.size}).`;
    else hint.textContent = byPiece.size ? 'Choose a piece from the store.' : '';

    all.hidden = !live;
    fillLegalList(all, 'moves', view.legal.length, (live ? view.legal : []).map((t) => ({ text: t })), ctx.play);
  }

  return {
    update(v, isLive) {
      if (!view || v.ply !== view.ply || v.n_moves !== view.n_moves) { pick = null; chooseFor = null; }
      view = v; live = isLive; draw();
    },
    destroy() { root.remove(); },
  };
}
