// games/icefrogs.js — the IceFrogs board in SVG, drawn from the server's
// structured view (view.view: cells with coordinates, starts and stacks,
// supplies; docs/architecture.md, "State views"): the 37-cell star (ICF-R1)
// drawn as pointy-topped hexagons named as in the notation (rows a..i from
// the bottom tip, cells numbered from the left), start spaces tinted in their
// owner's colour (ICF-R2), each stack drawn bottom first as pyramids of its
// owners' colours (the top piece whole, at most three shown, the height in a
// badge), and each player's supply. Moving: click one of your top pieces, or
// a size in your supply, then one of the highlighted cells where a legal move
// ends (ICF-R7 names a move by source and final cell only); `pass` is a
// button when it is the only move (ICF-R9). Every legal move is also a
// button in a list, for the keyboard.

import { el, html, fillLegalList, pyramid, asButton, icon, keepFocus, moveArrow } from './svg.js';
import { seatName } from '../ui.js';

const R = 32;                       // hexagon circumradius
const W = Math.sqrt(3) * R;         // hexagon width
const PAD = 6;
const SIZES = ['S', 'M', 'L'];
const SIZE_NAME = { S: 'small', M: 'medium', L: 'large' };
const PIPS = { S: 1, M: 2, L: 3 };
const PW = { S: 19, M: 26, L: 33 }; // pyramid width and height by size
const PH = { S: 18, M: 25, L: 32 };
const SHOWN = 3;                    // pieces of a stack drawn (the top ones)

/* Centre of a view cell: x counts half cell widths, rows go up from a. */
function centre(cell, rows) {
  return [PAD + W / 2 + cell.x * W / 2, PAD + R + (rows - 1 - cell.row) * 1.5 * R];
}

/* "M+b1" -> {from: 'M', supply: true, to}; "c3-f6" -> {from: 'c3', to}; "pass" -> {pass} */
export function parseMove(text) {
  let m;
  if ((m = /^([SML])\+([a-i]\d)$/i.exec(text)))
    return { text, supply: true, from: m[1].toUpperCase(), to: m[2].toLowerCase() };
  if ((m = /^([a-i]\d)-([a-i]\d)$/i.exec(text)))
    return { text, supply: false, from: m[1].toLowerCase(), to: m[2].toLowerCase() };
  if (/^pass$/i.test(text)) return { text, pass: true };
  return null;
}

function describeStack(v, st) {
  if (!st || !st.length) return 'empty';
  const top = st[st.length - 1];
  const one = (pc) => `${seatName(v, pc.seat)} ${SIZE_NAME[pc.size]}`;
  return st.length === 1 ? one(top)
    : `stack of ${st.length}, top ${one(top)}; bottom first: ${st.map(one).join(', ')}`;
}

function hexPoints(cx, cy, r) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = Math.PI / 180 * (60 * k - 90);
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(' ');
}

/* The stack bottom first, each piece standing a little above the one below;
 * only the top SHOWN pieces are drawn, the height goes in a badge. */
function drawStack(g, cx, cy, st) {
  const shown = st.slice(-SHOWN);
  let base = cy + R * 0.62;
  for (let i = 0; i < shown.length; i++) {
    const pc = shown[i];
    pyramid(g, cx, base, PW[pc.size], PH[pc.size], `p${pc.seat + 1} ${pc.size}${i === shown.length - 1 ? ' top' : ''}`,
      i === shown.length - 1 ? PIPS[pc.size] : 0);
    base -= PH[pc.size] * (shown.length > 2 ? 0.26 : 0.34);
  }
  if (st.length > 1) {
    const bx = cx + R * 0.56, by = cy - R * 0.12;
    el('circle', { class: 'badge', cx: bx, cy: by, r: 8 }, g);
    el('text', { class: 'badge-n', x: bx, y: by + 3.5, 'text-anchor': 'middle' }, g)
      .textContent = String(st.length);
  }
}

export function createBoard(container, ctx) {
  const root = html('div', { class: 'icefrogs' });
  const svg = el('svg', { role: 'group', 'aria-label': 'IceFrogs board' });
  const supplyBox = html('div', { class: 'if-supplies' });
  const bar = html('div', { class: 'row if-bar' });
  const hint = html('p', { class: 'help if-hint', 'aria-live': 'polite' });
  const all = html('details', { class: 'legal-all' });
  root.append(supplyBox, svg, hint, bar, all);
  container.append(root);
  let view = null, live = false;
  let selected = null;      // a cell name, or a size letter for the supply

  function draw() { keepFocus(root, render); }

  function render() {
    const pos = view.view;
    const byName = new Map(pos.cells.map((c) => [c.name, c]));
    const rows = Math.max(...pos.cells.map((c) => c.row)) + 1;
    const cols = Math.max(...pos.cells.map((c) => c.x)) + 2;   // half widths, the outer halves included
    const at = (name) => centre(byName.get(name), rows);
    const starts = [];                 // start space of each seat (ICF-R2)
    for (const c of pos.cells) if (c.start != null) starts[c.start] = c.name;
    const legal = live ? view.legal.map(parseMove).filter(Boolean) : [];
    const bySource = new Map();  // source key -> Map(final cell -> move text)
    for (const m of legal) {
      if (m.pass) continue;
      if (!bySource.has(m.from)) bySource.set(m.from, new Map());
      bySource.get(m.from).set(m.to, m.text);
    }
    if (selected && !bySource.has(selected)) selected = null;
    const targets = selected ? bySource.get(selected) : new Map();
    const mover = view.to_move == null ? -1 : view.to_move + 1;
    const last = view.moves && view.ply > 0 ? parseMove(view.moves[view.ply - 1]?.text || '') : null;
    const lastFrom = last && !last.pass ? (last.supply ? null : last.from) : null;
    const lastTo = last && !last.pass ? last.to : null;

    svg.replaceChildren();
    svg.setAttribute('viewBox', `0 0 ${(cols * W / 2 + 2 * PAD).toFixed(1)} ${((rows - 1) * 1.5 + 2) * R + 2 * PAD}`);
    for (const cell of pos.cells) {
      const name = cell.name;
      const [cx, cy] = centre(cell, rows);
      const st = cell.stack;
      const owner = cell.start == null ? 0 : cell.start + 1;
      const isSource = bySource.has(name);
      const target = targets.get(name);
      const cls = ['cell'];
      if (owner) cls.push('start', `start-p${owner}`);
      if (isSource) cls.push('source');
      if (selected === name) cls.push('selected');
      if (target) cls.push('legal');
      if (name === lastFrom || name === lastTo) cls.push('last');
      const g = el('g', { class: cls.join(' '), 'data-cell': name, 'data-key': name, 'data-height': st.length }, svg);
      el('polygon', { class: 'hex', points: hexPoints(cx, cy, R - 1.2) }, g);
      el('text', { class: 'name', x: cx, y: cy - R * 0.5, 'text-anchor': 'middle' }, g).textContent = name;
      if (owner && !st.length)
        el('text', { class: 'start-label', x: cx, y: cy + R * 0.3, 'text-anchor': 'middle' }, g)
          .textContent = `P${owner}`;
      if (st.length) drawStack(g, cx, cy, st);
      const label = `${name}${owner ? ` (start of ${seatName(view, owner - 1)})` : ''}: ${describeStack(view, st)}`;
      el('title', {}, g).textContent = label;   // a tooltip with the whole stack
      if (target) {
        const text = target;
        asButton(g, `${label}; move here (${text})`, () => ctx.play(text));
      } else if (isSource) {
        asButton(g, `${label}; choose this piece`, () => { selected = selected === name ? null : name; draw(); });
        g.setAttribute('aria-pressed', String(selected === name));
      } else {
        g.setAttribute('role', 'img');
        g.setAttribute('aria-label', label);
        // not a target of the chosen piece or size: the server says why (ICF-Rn)
        if (live && selected && ctx.explain)
          g.addEventListener('click', () => ctx.explain(/^[SML]$/.test(selected) ? `${selected}+${name}` : `${selected}-${name}`));
      }
    }

    // the last move's route: from its cell, or from its player's start space
    const lastSeat = view.ply > 0 ? view.moves[view.ply - 1]?.seat : null;
    const routeFrom = lastFrom || (last?.supply && lastSeat != null ? starts[lastSeat] : null);
    if (routeFrom && lastTo && routeFrom !== lastTo)
      moveArrow(svg, ...at(routeFrom), ...at(lastTo), R * 0.5);

    // supplies: one row per player; the mover's sizes are buttons when live.
    // With three or more players the others' rows are counts in small type,
    // so the rows above the board stay short and the board keeps its room.
    const compact = pos.supply.length >= 3;
    supplyBox.replaceChildren(...pos.supply.map((sup, i) => {
      const p = i + 1;
      const row = html('div', { class: `if-supply p${p}${p === mover ? ' to-move' : ''}`, 'data-player': p },
        html('span', { class: 'who' }, html('span', { class: `dot p${p}` }), seatName(view, i)));
      if (compact && p !== mover) {
        row.classList.add('compact');
        row.append(...SIZES.map((s) => html('span', { class: 'count', 'aria-label': `${sup[s]} ${SIZE_NAME[s]}` }, `${s}×${sup[s]}`)));
        return row;
      }
      for (const s of SIZES) {
        const can = p === mover && bySource.has(s);
        const b = html('button', {
          type: 'button', class: 'secondary size', 'data-size': s, 'data-key': `supply-${p}-${s}`,
          'aria-label': `${seatName(view, i)} supply: ${sup[s]} ${SIZE_NAME[s]}${can ? '; choose to enter one' : ''}`,
          'aria-pressed': can ? String(selected === s) : false,
          disabled: !can,
        }, icon(PW[s] * 0.55, PH[s] * 0.55, `p${p} ${s}`, PIPS[s]), html('span', {}, `${s}×${sup[s]}`));
        if (can) b.addEventListener('click', () => { selected = selected === s ? null : s; draw(); });
        row.append(b);
      }
      return row;
    }));

    bar.replaceChildren();
    if (view.legal.includes('pass') && live)
      bar.append(html('button', { type: 'button', class: 'pass', 'data-key': 'pass', onclick: () => ctx.play('pass') },
        'Pass (no other move)'));
    if (!live) hint.textContent = '';
    else if (selected && SIZES.includes(selected))
      hint.textContent = `Entering a ${SIZE_NAME[selected]} pyramid from your start space: choose where it ends (${targets.size} cells).`;
    else if (selected) hint.textContent = `Moving the piece on ${selected}: choose where it ends (${targets.size} cells).`;
    else if (bySource.size) hint.textContent = `${seatName(view, mover - 1)}: choose one of your top pieces or a size from your supply.`;
    else hint.textContent = '';

    all.hidden = !live;
    fillLegalList(all, 'moves', view.legal.length, (live ? view.legal : []).map((t) => ({ text: t })), ctx.play, ctx.hint);
  }

  return {
    update(v, isLive) {
      // a new position (a move made, replay, undo) drops the choice in progress
      if (!view || v.ply !== view.ply || v.n_moves !== view.n_moves) { selected = null; }
      view = v; live = isLive; draw();
    },
    destroy() { root.remove(); },
  };
}
