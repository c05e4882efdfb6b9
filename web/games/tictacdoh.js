// games/tictacdoh.js — the Tic Tac Doh! board in SVG, drawn from the
// server's structured view (view.view: cells with stacks, stash, the line;
// docs/architecture.md, "State views"). Pyramids are drawn as triangles of
// three sizes (S red, M amber, L blue, with 1-3 pips). A tree (each piece
// smaller than the one below, TTD-R3) is drawn as triangles stacked upward;
// a nest (each piece larger) as triangles sharing a base, the outer one
// filled and the hidden ones dashed. The grid shows the occupied cells and
// every cell a piece may go to (y grows upward, as in the notation
// "M@1,-1"); a completed line (TTD-R5) is marked. Placing: choose a size,
// then a highlighted cell. With perfect-play hints on, each target cell is
// tinted by the value of placing the chosen size there (ctx.hint).

const SVG = 'http://www.w3.org/2000/svg';
const CELL = 100;
const SIZES = ['S', 'M', 'L'];
const WIDTH = { S: 34, M: 52, L: 70 };
const HEIGHT = { S: 34, M: 50, L: 66 };
const PIPS = { S: 1, M: 2, L: 3 };

/* "S@1,-1" -> { size: 'S', x: 1, y: -1 } or null */
export function parseMove(text) {
  const m = /^([SML])@(-?\d+),(-?\d+)$/.exec(text);
  return m ? { size: m[1], x: Number(m[2]), y: Number(m[3]) } : null;
}

function el(name, attrs = {}, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.append(e);
  return e;
}

function triangle(g, cx, base, size, cls) {
  const w = WIDTH[size], h = HEIGHT[size];
  return el('polygon', {
    points: `${cx - w / 2},${base} ${cx + w / 2},${base} ${cx},${base - h}`,
    class: `piece ${size} ${cls || ''}`.trim(),
  }, g);
}

function pips(g, cx, base, size) {
  const n = PIPS[size];
  for (let i = 0; i < n; i++)
    el('circle', { cx: cx + (i - (n - 1) / 2) * 8, cy: base - 7, r: 2.6, class: 'pip' }, g);
}

/* 'tree' or 'nest' (TTD-R3) from the view's kind; '' for a single piece. */
function stackKind(cell) {
  return cell && cell.kind !== 'single' ? cell.kind : '';
}

function describe(cell) {
  if (!cell) return 'empty';
  const names = cell.stack.map((s) => ({ S: 'small', M: 'medium', L: 'large' })[s]);
  const kind = stackKind(cell);
  return kind ? `${kind} of ${names.join(', ')} (bottom first)` : `${names[0]} pyramid`;
}

function drawStack(g, x0, y0, cell) {
  const stack = cell.stack;
  const cx = x0 + CELL / 2, base = y0 + CELL - 10;
  const kind = stackKind(cell);
  const group = el('g', { class: `stack ${kind}` }, g);
  if (kind === 'nest') {
    const top = stack[stack.length - 1];
    triangle(group, cx, base, top);
    pips(group, cx, base, top);
    for (const s of stack.slice(0, -1)) triangle(group, cx, base, s, 'inner');
  } else {
    let b = base;
    for (const s of stack) {
      triangle(group, cx, b, s);
      pips(group, cx, b, s);
      b -= HEIGHT[s] * 0.4;
    }
  }
  if (kind) el('text', { x: x0 + 5, y: y0 + 14, class: 'kind' }, g).textContent = kind;
}

export function createBoard(container, ctx) {
  const root = document.createElement('div');
  root.className = 'ttd';
  const sizesBar = document.createElement('div');
  sizesBar.className = 'sizes';
  sizesBar.setAttribute('role', 'group');
  sizesBar.setAttribute('aria-label', 'size to place (keys S, M, L)');
  const svg = el('svg', { role: 'group', 'aria-label': 'Tic Tac Doh! board' });
  root.append(svg, sizesBar);
  container.append(root);
  let selected = null;
  let view = null, live = false;
  const buttons = {};
  for (const s of SIZES) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.size = s;
    b.setAttribute('aria-pressed', 'false');
    b.addEventListener('click', () => { selected = s; draw(); });
    buttons[s] = b;
    sizesBar.append(b);
  }
  const onKey = (e) => {
    if (!live || e.target.closest('input, textarea, select')) return;
    const s = e.key.toUpperCase();
    if (SIZES.includes(s) && !buttons[s].disabled) { selected = s; draw(); }
  };
  document.addEventListener('keydown', onKey);

  function draw() {
    const pos = view.view;
    const cells = new Map(pos.cells.map((c) => [`${c.x},${c.y}`, c]));
    const line = new Set((pos.line || []).map(([x, y]) => `${x},${y}`));
    const legal = live ? view.legal.map(parseMove).filter(Boolean) : [];
    const bySize = { S: new Set(), M: new Set(), L: new Set() };
    for (const m of legal) bySize[m.size].add(`${m.x},${m.y}`);
    if (live && (!selected || bySize[selected].size === 0))
      selected = SIZES.find((s) => bySize[s].size > 0) || null;
    // the shared stash: what is left of each size
    for (const s of SIZES) {
      const b = buttons[s];
      b.innerHTML = `<span class="sw" style="background:var(--${s.toLowerCase()})"></span>${s} ×${pos.stash[s]}`;
      b.disabled = !live || bySize[s].size === 0;
      b.setAttribute('aria-pressed', String(live && selected === s));
    }
    sizesBar.hidden = !live;
    // the area: occupied cells and every possible target
    const pts = [...cells.keys(), ...legal.map((m) => `${m.x},${m.y}`)]
      .map((k) => k.split(',').map(Number));
    if (pts.length === 0) pts.push([0, 0]);
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    const minx = Math.min(...xs), maxx = Math.max(...xs), miny = Math.min(...ys), maxy = Math.max(...ys);
    const cols = maxx - minx + 1, rows = maxy - miny + 1;
    svg.replaceChildren();
    svg.setAttribute('viewBox', `-4 -4 ${cols * CELL + 8} ${rows * CELL + 8}`);
    const targets = selected ? bySize[selected] : new Set();
    const lastMove = view.ply > 0 ? parseMove(view.moves[view.ply - 1]?.text || '') : null;
    const lastKey = lastMove ? `${lastMove.x},${lastMove.y}` : null;
    for (let y = maxy; y >= miny; y--) {
      for (let x = minx; x <= maxx; x++) {
        const key = `${x},${y}`;
        const x0 = (x - minx) * CELL, y0 = (maxy - y) * CELL;
        const isTarget = targets.has(key);
        const hint = isTarget && ctx.hint ? ctx.hint(`${selected}@${key}`) : null;
        const g = el('g', { class: `cell${isTarget ? ' legal' : ''}${hint ? ' hint-' + hint : ''}${line.has(key) ? ' line' : ''}${key === lastKey ? ' last' : ''}`, 'data-cell': key,
          'data-stack': (cells.get(key)?.stack || []).join('') }, svg);
        el('rect', { x: x0 + 2, y: y0 + 2, width: CELL - 4, height: CELL - 4, rx: 6 }, g);
        el('text', { x: x0 + CELL - 6, y: y0 + 14, 'text-anchor': 'end', class: 'coord' }, g)
          .textContent = key;
        const cell = cells.get(key);
        if (cell) drawStack(g, x0, y0, cell);
        const label = `cell ${key}: ${describe(cell)}${line.has(key) ? ', in the winning line' : ''}${key === lastKey ? ', the last move' : ''}`;
        if (isTarget) {
          g.setAttribute('tabindex', '0');
          g.setAttribute('role', 'button');
          g.setAttribute('aria-label', `${label}; place ${selected} here${hint ? ` (${hint} with perfect play)` : ''}`);
          if (hint) g.dataset.hint = hint;
          const play = () => ctx.play(`${selected}@${key}`);
          g.addEventListener('click', play);
          g.addEventListener('keydown', (e) => {
            if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); play(); }
          });
        } else {
          g.setAttribute('role', 'img');
          g.setAttribute('aria-label', label);
          // a click on a cell that takes no piece of this size: the server says why (TTD-Rn)
          if (live && selected && ctx.explain) g.addEventListener('click', () => ctx.explain(`${selected}@${key}`));
        }
      }
    }

    // the winning line (TTD-R5) as a stroke through its three cells
    if (pos.line && pos.line.length >= 2) {
      const c = ([x, y]) => [(x - minx) * CELL + CELL / 2, (maxy - y) * CELL + CELL / 2];
      const pts = pos.line.map(c);
      let a = pts[0], b = pts[1];       // the two cells farthest apart are the ends
      for (const p of pts) for (const q of pts)
        if (Math.hypot(p[0] - q[0], p[1] - q[1]) > Math.hypot(a[0] - b[0], a[1] - b[1])) { a = p; b = q; }
      el('line', { class: 'win-line', x1: a[0], y1: a[1], x2: b[0], y2: b[1], 'pointer-events': 'none' }, svg);
    }
  }

  return {
    update(v, isLive) { view = v; live = isLive; draw(); },
    destroy() { document.removeEventListener('keydown', onKey); root.remove(); },
  };
}
