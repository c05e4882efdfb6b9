// games/nimitz.js — the Nimitz grid in SVG, drawn from the server's
// structured view (view.view: the layout's cells with their stacks, the
// store; docs/architecture.md, "State views"): cells named as in the notation
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
const COLOUR_NAME = { r: 'red', o: 'orange', y: 'yellow', g: 'green', b: 'blue', c: 'cyan', p: 'purple', w: 'white', k: 'black', x: 'clear' };
const SIZES = ['L', 'M', 'S'];
const SIZE_NAME = { S: 'small', M: 'medium', L: 'large' };
const ORIENT = { U: 'upright', N: 'north', E: 'east', S: 'south', W: 'west' };
const ARROW = { U: '●', N: '↑', E: '→', S: '↓', W: '←' };
const SIDE_W = { L: 52, M: 40, S: 28 }, SIDE_H = { L: 46, M: 36, S: 26 };   // upright, side view
const FLAT = { L: 34, M: 25, S: 16 };  // flat: arrowhead half-length from the cell centre

/* "rL@b2:N" -> { colour, size, cell, orient } */
export function parseMove(text) {
  const m = /^([a-z])([SML])@([a-z]\d+)(?::([UNESW]))?$/i.exec(text);
  return m ? { text, colour: m[1].toLowerCase(), size: m[2].toUpperCase(), cell: m[3].toLowerCase(),
    orient: (m[4] || '').toUpperCase() } : null;
}

const colourName = (c) => COLOUR_NAME[c] || c;

function describe(cell) {
  if (!cell.stack.length) return 'empty';
  return `${ORIENT[cell.orient]}, ${cell.stack.map((p) => `${colourName(p.colour)} ${SIZE_NAME[p.size]}`).join(', then ')}`;
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
    for (const p of st.stack) {
      pyramid(g, cx, base, SIDE_W[p.size], SIDE_H[p.size], `n${p.colour} ${p.size}`, { S: 1, M: 2, L: 3 }[p.size]);
      base -= SIDE_H[p.size] * 0.42;
    }
  } else { // from above: arrowheads, the upper (smaller) pieces on top
    const cy = y0 + C / 2 + 4;
    for (const p of st.stack) arrowhead(g, cx, cy, FLAT[p.size], st.orient, `n${p.colour} ${p.size}`);
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
    const pos = view.view;
    const sets = pos.sets;
    const left = new Map(pos.store.map((e) => [e.colour + e.size, e.left]));
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
    store.replaceChildren(...pos.colours.map((c) => html('div', { class: 'nm-colour' },
      html('span', { class: `dot n${c}` }),
      SIZES.map((s) => {
        const k = c + s, n = left.get(k) ?? 0, can = byPiece.has(k);
        const b = html('button', { type: 'button', class: 'secondary size', 'data-piece': k, 'data-key': `store-${k}`, disabled: !can,
          'aria-pressed': can ? String(pick === k) : false,
          'aria-label': `${colourName(c)} ${SIZE_NAME[s]}: ${n} in the store${can ? '; choose to place' : ''}` },
        html('span', { class: `sw n${c} ${s}` }), `${s}${sets > 1 ? `×${n}` : ''}`);
        if (n <= 0) b.classList.add('gone');
        if (can) b.addEventListener('click', () => { pick = pick === k ? null : k; chooseFor = null; draw(); });
        return b;
      }))));

    svg.replaceChildren();
    svg.setAttribute('viewBox', `-2 -2 ${pos.cols * C + 4} ${pos.rows * C + 4}`);
    // top rank first, so the drawing order matches the reading order
    for (const st of [...pos.cells].sort((a, b) => b.rank - a.rank || a.file - b.file)) {
      const name = st.name;
      const x0 = st.file * C, y0 = (pos.rows - 1 - st.rank) * C;
      const opts = targets.get(name);
      const cls = ['cell'];
      if (opts) cls.push('legal');
      if (chooseFor === name) cls.push('chosen');
      if (last && last.cell === name) cls.push('last');
      const g = el('g', { class: cls.join(' '), 'data-cell': name, 'data-key': name, 'data-stack': st.stack.length ? `${st.orient}:${st.stack.map((p) => p.colour + p.size).join('')}` : '' }, svg);
      el('rect', { x: x0 + 2, y: y0 + 2, width: C - 4, height: C - 4, rx: 6 }, g);
      el('text', { class: 'coord', x: x0 + 7, y: y0 + 15 }, g).textContent = name;
      if (st.stack.length) drawStack(g, x0, y0, st);
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
        // no orientation is legal here for the chosen piece: the server says why (NIM-Rn)
        if (live && pick && ctx.explain) g.addEventListener('click', () => ctx.explain(`${pick}@${name}${st.stack.length ? '' : ':U'}`));
      }
    }

    choose.replaceChildren();
    if (chooseFor && targets.has(chooseFor))
      choose.append(html('span', { class: 'help' }, `${pick} on ${chooseFor}:`),
        ...targets.get(chooseFor).map((m) => html('button', { type: 'button', 'data-move': m.text, 'data-key': `choose-${m.text}`,
          onclick: () => ctx.play(m.text) }, `${ARROW[m.orient]} ${ORIENT[m.orient]}`)));

    if (!live) hint.textContent = '';
    else if (pick) hint.textContent = `${colourName(pick[0])} ${SIZE_NAME[pick[1]]}: choose a highlighted cell (${targets.size}).`;
    else hint.textContent = byPiece.size ? 'Choose a piece from the store.' : '';

    all.hidden = !live;
    fillLegalList(all, 'moves', view.legal.length, (live ? view.legal : []).map((t) => ({ text: t })), ctx.play, ctx.hint);
  }

  return {
    update(v, isLive) {
      if (!view || v.ply !== view.ply || v.n_moves !== view.n_moves) { pick = null; chooseFor = null; }
      view = v; live = isLive; draw();
    },
    destroy() { root.remove(); },
  };
}
