// games/ziggurat.js — the Ziggurat board in SVG, drawn from the server's
// structured view (view.view: squares with coordinates, levels, stations and
// piles; seats, mover, phase and dice; docs/architecture.md, "State views"):
// the 8x8 board (a1 lower left, north up) shaded by level (ZIG-R1: 1 outer
// ring .. 4 the centre),
// each colour's walls (small pyramids), Goal and off-board Start (ZIG-R2),
// the piles bottom to top as stacked pyramids (Queens taller, with a crown),
// the dice of the turn (movement value, action face, what is still unused)
// and the turn's legal steps. Steps with a from and a to square (Move, Aim,
// Hop, Queen moves, Leap, Dig, Swap A) are played by clicking the square
// then a highlighted target; the others (Swap B, Tip, RA, RB, end) are
// buttons. Every legal step is also in a list, for the keyboard. Dice are
// rolled by the server.

import { el, html, fillLegalList, pyramid, asButton, keepFocus, moveArrow } from './svg.js';
import { seatName } from '../ui.js';

const C = 56;                        // square size
const STEP = { M: 'Move', A: 'Aim move', H: 'Hop move', L: 'Leap', D: 'Dig', S: 'Swap' };
const ARROW = { N: '↑', NE: '↗', E: '→', SE: '↘', S: '↓', SW: '↙', W: '←', NW: '↖' };
const DIR = { N: [0, 1], NE: [1, 1], E: [1, 0], SE: [1, -1], S: [0, -1], SW: [-1, -1], W: [-1, 0], NW: [-1, 1] };
const DIR_NAME = { N: 'north', NE: 'north-east', E: 'east', SE: 'south-east', S: 'south', SW: 'south-west', W: 'west', NW: 'north-west' };
const SQ = '([a-i@][0-9])';


/* A step token -> { text, kind, from, to, ... }; kind 'move' for the steps
 * played by clicking two squares, 'button' for the rest. */
export function parseStep(text) {
  let m;
  if ((m = new RegExp(`^(Q?)([MAH])${SQ}-${SQ}$`).exec(text)))
    return { text, kind: 'move', from: m[3], to: m[4], label: `${m[1] ? 'Queen ' : ''}${STEP[m[2]].toLowerCase()}` };
  if ((m = new RegExp(`^([LDS])${SQ}-${SQ}$`).exec(text)))
    return { text, kind: 'move', from: m[2], to: m[3], label: STEP[m[1]].toLowerCase(), swap: m[1] === 'S' };
  if ((m = new RegExp(`^S${SQ}:(\\d+)-(\\d+)$`).exec(text)))
    return { text, kind: 'button', at: m[1], short: `${m[2]}↔${m[3]}`,
      label: `Swap on ${m[1]}: heights ${m[2]} and ${m[3]} (${text})` };
  if ((m = new RegExp(`^T${SQ}(NE|NW|SE|SW|N|E|S|W)$`).exec(text)))
    return { text, kind: 'button', at: m[1], dir: m[2], short: `${ARROW[m[2]]} ${m[2]}`,
      label: `Tip the pile on ${m[1]} to the ${DIR_NAME[m[2]]} (${text})` };
  if (text === 'RA') return { text, kind: 'button', label: 'RA: reroll the movement die' };
  if (text === 'RB') return { text, kind: 'button', label: 'RB: reroll the action die' };
  if (text === 'end') return { text, kind: 'button', label: 'End the turn' };
  return { text, kind: 'button', label: text };
}

/* A view pile [{colour, queen}] as tokens bottom first: ['R', 'BQ']. */
function pileTokens(pile) { return pile.map((p) => p.colour + (p.queen ? 'Q' : '')); }

function describePile(pile, names) {
  const pieceName = (p) => `${names[p[0]]}${p[1] === 'Q' ? ' Queen' : ''}`;
  if (!pile || !pile.length) return 'empty';
  return pile.length === 1 ? pieceName(pile[0]) : `pile of ${pile.length}, bottom first: ${pile.map(pieceName).join(', ')}`;
}

/* The corner of a square (x, y from the view; north up) in board pixels. */
function sqCorner(sq) {
  return [sq.x * C, (9 - sq.y) * C];
}

/* A pile bottom to top, each piece standing partly above the one below;
 * the rise shrinks so a tall pile still fits its square. */
function drawPile(g, x0, y0, pile) {
  // each piece stands 45% of its height above the one below; a tall pile is
  // scaled down so all of it fits below the square's name
  const full = pile.map((p) => (p[1] === 'Q' ? [31, 27] : [25, 21]));
  const room = C - 19;
  const need = full[full.length - 1][1] + full.slice(0, -1).reduce((t, d) => t + 0.45 * d[1], 0);
  const k = Math.min(1, room / need);
  const dims = full.map(([w, h]) => [w * k, h * k]);
  let base = y0 + C - 4;
  const cx = x0 + C / 2;
  pile.forEach((p, i) => {
    const [w, h] = dims[i];
    const isTop = i === pile.length - 1;
    const cls = `z${p[0]}${p[1] === 'Q' ? ' queen' : ''}${isTop ? ' top' : ''}`;
    const pg = pyramid(g, cx, base, w, h, cls);
    if (p[1] === 'Q' && isTop) // a crown on the apex; lower Queens show a gold rim
      el('polygon', { class: 'crown', points: `${cx - 5},${base - h + 6} ${cx - 5},${base - h - 2} ${cx - 2.5},${base - h + 2} ${cx},${base - h - 4} ${cx + 2.5},${base - h + 2} ${cx + 5},${base - h - 2} ${cx + 5},${base - h + 6}` }, pg);
    base -= 0.45 * h;
  });
  if (pile.length > 3) {
    el('circle', { class: 'badge', cx: x0 + 9, cy: y0 + C - 10, r: 7 }, g);
    el('text', { class: 'badge-n', x: x0 + 9, y: y0 + C - 6.5, 'text-anchor': 'middle' }, g).textContent = String(pile.length);
  }
}

/* The steps of the turn in progress up to the shown position; when it has
 * none yet, those of the turn before (so the opponent's last turn shows). */
export function recentSteps(view) {
  const out = [];
  let rolls = 0;
  for (let i = view.ply - 1; i >= 0 && rolls < 2; i--) {
    const m = view.moves[i];
    if (m.seat == null) { // chance: an opening roll closes a turn, rerolls do not
      if (/^\d[A-Z]$/.test(m.text) && (++rolls === 2 || out.length)) break;
      continue;
    }
    out.push(parseStep(m.text));
  }
  return out.reverse();
}

export function createBoard(container, ctx) {
  const root = html('div', { class: 'ziggurat' });
  const dice = html('div', { class: 'zg-dice', 'aria-live': 'polite' });
  const svg = el('svg', { role: 'group', 'aria-label': 'Ziggurat board' });
  const hint = html('p', { class: 'help zg-hint' });
  const choose = html('div', { class: 'row zg-choose' });
  const steps = html('div', { class: 'row zg-steps', role: 'group', 'aria-label': 'other steps' });
  const all = html('details', { class: 'legal-all' });
  root.append(dice, svg, hint, choose, steps, all);
  container.append(root);
  let view = null, live = false;
  let selected = null, chooseFor = null;
  let hoverAt = null;             // square of the Tip/Swap button under the pointer
  let squareOf = new Map();       // square name -> the view's square

  function draw() { keepFocus(root, render); }

  function render() {
    const pos = view.view;
    const names = Object.fromEntries(pos.colours.map((c) => [c.colour, c.name]));
    squareOf = new Map(pos.squares.map((q) => [q.name, q]));
    const legal = live ? view.legal.map(parseStep) : [];
    const moves = new Map();      // from -> Map(to -> [steps])
    const add = (a, b, st) => {
      if (!moves.has(a)) moves.set(a, new Map());
      const m = moves.get(a);
      if (!m.has(b)) m.set(b, []);
      m.get(b).push(st);
    };
    for (const st of legal) if (st.kind === 'move') {
      add(st.from, st.to, st);
      if (st.swap) add(st.to, st.from, st);
    }
    if (selected && !moves.has(selected)) selected = null;
    if (!selected) chooseFor = null;
    const targets = selected ? moves.get(selected) : new Map();
    const recent = recentSteps(view);
    const lastSquares = new Set(recent.flatMap((st) => (st.kind === 'move' ? [st.from, st.to] : st.at ? [st.at] : [])));

    drawDice(pos, names);
    svg.replaceChildren();
    svg.setAttribute('viewBox', `0 0 ${10 * C} ${10 * C}`);
    // the board from the north rank down (a tall pile overlaps the square above), then the Starts
    const squares = [...pos.squares].sort((a, b) => (a.level === 0) - (b.level === 0) || b.y - a.y || a.x - b.x);
    for (const q of squares) {
      const sq = q.name;
      const [x0, y0] = sqCorner(q);
      const lv = q.level;
      const station = q.start || q.goal;
      const wallOf = q.wall;
      const isStart = q.start != null;
      const cls = ['sq', `lv${lv}`];
      if (station) cls.push(isStart ? 'start' : 'goal', `st${station}`);
      if (selected === sq) cls.push('selected');
      if (moves.has(sq)) cls.push('source');
      if (targets.has(sq)) cls.push('legal');
      if (chooseFor === sq) cls.push('chosen');
      if (lastSquares.has(sq)) cls.push('last');
      if (hoverAt?.at === sq) cls.push('hover');
      const pile = pileTokens(q.pile);
      const g = el('g', { class: cls.join(' '), 'data-sq': sq, 'data-key': sq, 'data-pile': pile.join(',') }, svg);
      el('rect', { class: 'ground', x: x0 + 1, y: y0 + 1, width: C - 2, height: C - 2, rx: isStart ? 8 : 2 }, g);
      if (station && !isStart) // the Goal station: a large pyramid in outline
        el('polygon', { class: `station z${station}`, points: `${x0 + 5},${y0 + C - 4} ${x0 + C - 5},${y0 + C - 4} ${x0 + C / 2},${y0 + 5}` }, g);
      if (q.corner) // corners stop plain moves (ZIG-R4)
        el('circle', { class: 'corner', cx: x0 + C - 7, cy: y0 + 7, r: 2.5 }, g);
      if (wallOf) pyramid(g, x0 + C - 9, y0 + C - 3, 12, 11, `wall z${wallOf}`);
      el('text', { class: 'coord', x: x0 + 4, y: y0 + 11 }, g).textContent = sq;
      if (isStart) el('text', { class: 'start-label', x: x0 + C - 4, y: y0 + 11, 'text-anchor': 'end' }, g)
        .textContent = `${station} start`;
      if (pile.length) drawPile(g, x0, y0, pile);
      const label = `${sq}${isStart ? `, ${names[station]} Start` : station ? `, ${names[station]} Goal` : `, level ${lv}`}` +
        `${wallOf ? `, ${names[wallOf]} wall` : ''}: ${describePile(pile, names)}`;
      el('title', {}, g).textContent = label;   // a tooltip with the whole stack
      const options = targets.get(sq);
      if (options) { // the kinds of step ending here, e.g. "M", "M·L"
        el('text', { class: 'kinds', x: x0 + 4, y: y0 + C - 5 }, g).textContent =
          options.map((o) => o.text.replace(/[a-i@].*$/, '')).join('·');
        asButton(g, `${label}; ${options.map((o) => `${o.label} ${o.text}`).join(' or ')}`, () => {
          if (options.length === 1) ctx.play(options[0].text);
          else { chooseFor = sq; draw(); }
        });
      } else if (moves.has(sq)) {
        asButton(g, `${label}; choose this square to move from`, () => {
          selected = selected === sq ? null : sq;
          chooseFor = null;
          draw();
        });
        g.setAttribute('aria-pressed', String(selected === sq));
      } else {
        g.setAttribute('role', 'img');
        g.setAttribute('aria-label', label);
        // not a square to play: the library says why (ZIG-Rn)
        if (live && ctx.explain) g.addEventListener('click', () => explainAt(sq));
      }
    }

    // the recent steps' routes (Swap A: both ways is the same line)
    for (const st of recent) if (st.kind === 'move') {
      const [ax, ay] = sqCorner(squareOf.get(st.from)), [bx, by] = sqCorner(squareOf.get(st.to));
      moveArrow(svg, ax + C / 2, ay + C / 2, bx + C / 2, by + C / 2, C * 0.3);
    }

    // several steps between the same two squares: pick one
    choose.replaceChildren();
    if (chooseFor && targets.has(chooseFor)) {
      choose.append(html('span', { class: 'help' }, `${selected} → ${chooseFor}:`),
        ...targets.get(chooseFor).map((o) => html('button', { type: 'button', 'data-move': o.text, 'data-key': `choose-${o.text}`,
          onclick: () => ctx.play(o.text) }, `${o.label[0].toUpperCase()}${o.label.slice(1)} (${o.text})`)));
    }

    // Tips and Swap B grouped by square (arrows / height pairs), then RA, RB, end
    const groups = new Map();
    const plain = [];
    for (const st of legal) {
      if (st.kind !== 'button') continue;
      if (st.at) {
        const key = `${st.text[0]}${st.at}`;
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key).push(st);
      } else plain.push(st);
    }
    const stepButton = (st, text, cls) => {
      const b = html('button', { type: 'button', class: cls, 'data-move': st.text, 'data-key': `step-${st.text}`, 'aria-label': st.label,
        title: st.label, onclick: () => ctx.play(st.text) }, text);
      if (st.at) {
        const on = () => { hoverAt = st; mark(); };
        const off = () => { hoverAt = null; mark(); };
        b.addEventListener('mouseenter', on); b.addEventListener('focus', on);
        b.addEventListener('mouseleave', off); b.addEventListener('blur', off);
      }
      return b;
    };
    steps.replaceChildren(
      ...[...groups.values()].map((list) => html('span', { class: 'zg-group' },
        html('span', { class: 'zg-group-name' }, `${list[0].text[0] === 'T' ? 'Tip' : 'Swap'} ${list[0].at}`),
        list.map((st) => stepButton(st, st.short, 'secondary small')))),
      ...plain.map((st) => stepButton(st, st.label, st.text === 'end' ? '' : 'secondary')));
    if (!live) hint.textContent = '';
    else if (selected) hint.textContent = `From ${selected}: choose a highlighted square (${targets.size}).`;
    else if (moves.size) hint.textContent = 'Choose a highlighted square to move from, or a step below.';
    else hint.textContent = 'Choose a step below.';

    all.hidden = !live;
    fillLegalList(all, 'steps', view.legal.length, legal.map((st) => ({ text: st.text, title: st.label })), ctx.play);
  }

  // The step a click on sq most likely meant, for the library to explain:
  // from the chosen square, a Move while the movement die is unused (a
  // Queen's when she is on top), else the action die's Leap, Dig or Swap;
  // with no square chosen, a Move from sq.
  function explainAt(sq) {
    const d = view.view.dice || {};
    if (!selected) { ctx.explain(`M${sq}-${sq}`, `No step from ${sq}`); return; }
    const top = pileTokens(squareOf.get(selected).pile).at(-1) || '';
    const queen = top.endsWith('Q') && top[0] === view.view.mover;
    const kind = d.move_unused ? (queen ? 'QM' : 'M') : ({ L: 'L', D: 'D', S: 'S' }[d.action] || 'M');
    let [a, b] = [selected, sq];
    const at = (s) => squareOf.get(s);
    const order = (s) => (at(s).level === 0 ? 1000 : at(s).y * 8 + at(s).x);   // board squares first, a1..h8, then the Starts
    if (kind === 'S' && order(a) > order(b)) [a, b] = [b, a];   // a Swap names the earlier square first
    ctx.explain(`${kind}${a}-${b}`);
  }

  // the square a Tip/Swap button acts on, and a Tip's direction, without redrawing
  function mark() {
    for (const g of svg.querySelectorAll('.sq.hover')) g.classList.remove('hover');
    svg.querySelector('.tip-arrow')?.remove();
    if (!hoverAt) return;
    svg.querySelector(`.sq[data-sq="${hoverAt.at}"]`)?.classList.add('hover');
    if (hoverAt.dir) {
      const [x0, y0] = sqCorner(squareOf.get(hoverAt.at));
      const [dx, dy] = DIR[hoverAt.dir];
      const cx = x0 + C / 2, cy = y0 + C / 2;
      const ex = cx + dx * C * 1.5, ey = cy - dy * C * 1.5;  // north is up
      const a = el('g', { class: 'tip-arrow', 'pointer-events': 'none' }, svg);
      el('line', { x1: cx, y1: cy, x2: ex, y2: ey }, a);
      const ang = Math.atan2(ey - cy, ex - cx);
      const p = (t, r) => `${ex + r * Math.cos(ang + t)},${ey + r * Math.sin(ang + t)}`;
      el('polygon', { points: `${p(0, 4)} ${p(2.5, 12)} ${p(-2.5, 12)}` }, a);
    }
  }

  function drawDice(pos, names) {
    const mover = pos.mover;
    const d = pos.dice;
    const die = (cls, face, caption, used, label) => html('span', { class: `die ${cls}${used ? ' used' : ''}`,
      role: 'img', 'aria-label': label }, html('b', {}, face), html('small', {}, caption));
    const parts = [];
    if (mover) parts.push(html('span', { class: 'zg-mover' }, html('span', { class: `dot z${mover}` }),
      pos.phase === 'over' ? 'Game over' : `${names[mover]} to play`));
    if (d && (pos.phase === 'step' || pos.phase === 'ra' || pos.phase === 'rb')) {
      const mUsed = !d.move_unused, aUsed = !d.action_unused;
      parts.push(die('move', String(d.move), 'movement', mUsed,
        `movement ${d.move}${mUsed ? ', used' : ''}`));
      parts.push(die('action', d.action, d.action_name, aUsed,
        `action ${d.action_name}${aUsed ? ', used' : ''}`));
      const notes = [];
      if (d.plain_only) notes.push('plain Move only (after RA)');
      if (d.action_rerolled) notes.push('action rerolled');
      if (pos.phase !== 'step') notes.push('rolling…');
      if (notes.length) parts.push(html('span', { class: 'help' }, notes.join('; ')));
    } else if (pos.phase === 'roll') parts.push(html('span', { class: 'help' }, 'rolling the dice…'));
    parts.push(html('span', { class: 'help zg-seats' }, pos.seats.map((cs, i) => seatName(view, i)).join(' · ') +
      ` · turn ${pos.turns + 1}`));
    dice.replaceChildren(...parts);
    // the steps of the turn so far, from its opening roll
    const turn = [];
    for (let i = view.ply - 1; i >= 0; i--) {
      const m = view.moves[i];
      turn.unshift(m.seat == null ? `(${m.text})` : m.text);
      if (m.seat == null && /^\d[A-Z]$/.test(m.text)) break;
    }
    if (turn.length && pos.phase !== 'over')
      dice.append(html('span', { class: 'help zg-turn' }, `This turn: ${turn.join(' ')}`));
  }

  return {
    update(v, isLive) {
      // a new position (a move made, replay, undo) drops the choice in progress
      if (!view || v.ply !== view.ply || v.n_moves !== view.n_moves) { selected = null; chooseFor = null; }
      view = v; live = isLive; draw();
    },
    destroy() { root.remove(); },
  };
}
