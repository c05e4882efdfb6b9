// games/generic.js — the board for any game: the server's text rendering,
// a clickable list of legal moves (or suggestions, for games whose moves
// cannot be listed) and a text box for typed moves.
//
// Board module contract (every games/<name>.js):
//   createBoard(container, { play(text), hint(text) }) -> { update(view, live), destroy() }
// describe(text) (optional) names seats in a library text the way the page does;
// explain(text, what) (optional) asks why a move the board does not offer is
// illegal and shows the library's reason after `what` (default "TEXT is not allowed").
// hint(text) is 'win', 'loss', 'draw' (the mover's value with perfect play,
// when the page's Perfect play switch is on and the position is solved) or
// null; boards mark the moves they offer with the class hint-<value>.
// view is the game JSON from the API; live is true when this browser may move
// now (its seat is to move and the latest position is shown). Boards draw the
// position from view.view, the structured view (docs/architecture.md, "State
// views"), never from the state text or the rendering; this generic board
// shows the rendering as text, for games without a board of their own, and a
// Lua game's "grid" view above it (drawGrid).

// A game written in Lua (docs/lua.md) may describe its position as
// {kind: "grid", width, height, cells: [{x, y, stack: ["L", "M"], owner}]}:
// drawn above the text as pyramids seen from the side, bottom piece first,
// coloured by owner (seat from 0). Other views draw nothing here.
const SVG = 'http://www.w3.org/2000/svg';
const SIZE = { S: 0.45, M: 0.65, L: 0.85 };
const OWNER = ['#c0392b', '#2e6fb7', '#2f8f46', '#8e44ad', '#d68910', '#17808a'];

function drawGrid(root, v) {
  let svg = root.querySelector('svg.grid-view');
  if (!v || v.kind !== 'grid' || !(v.width > 0) || !(v.height > 0) || v.width * v.height > 400) {
    if (svg) svg.remove();
    return;
  }
  if (!svg) {
    svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('class', 'grid-view');
    svg.setAttribute('role', 'img');
    root.prepend(svg);
  }
  const cell = 60;
  svg.setAttribute('viewBox', `0 0 ${v.width * cell} ${v.height * cell}`);
  svg.setAttribute('width', String(Math.min(480, v.width * cell)));
  svg.setAttribute('aria-label', 'board');
  svg.replaceChildren();
  for (let y = 0; y < v.height; y++) {
    for (let x = 0; x < v.width; x++) {
      const r = document.createElementNS(SVG, 'rect');
      r.setAttribute('x', String(x * cell)); r.setAttribute('y', String(y * cell));
      r.setAttribute('width', String(cell)); r.setAttribute('height', String(cell));
      r.setAttribute('fill', 'none'); r.setAttribute('stroke', '#999');
      svg.append(r);
    }
  }
  for (const c of Array.isArray(v.cells) ? v.cells : []) {
    if (!(c.x >= 0 && c.x < v.width && c.y >= 0 && c.y < v.height)) continue;
    const stack = Array.isArray(c.stack) ? c.stack : [];
    const left = c.x * cell, base = (v.height - c.y) * cell - 4;   // y upward
    const step = (cell - 8) / Math.max(3, stack.length + 1);
    stack.forEach((size, i) => {
      const w = (SIZE[size] || 0.5) * cell, top = base - i * step;
      const p = document.createElementNS(SVG, 'polygon');
      const mid = left + cell / 2;
      p.setAttribute('points', `${mid - w / 2},${top} ${mid + w / 2},${top} ${mid},${top - w * 0.9}`);
      const owner = Number.isInteger(c.owner) ? c.owner : null;
      p.setAttribute('fill', owner === null ? '#e8e2c8' : OWNER[owner % OWNER.length]);
      p.setAttribute('stroke', '#333');
      const t = document.createElementNS(SVG, 'title');
      t.textContent = `${size} at ${c.x},${c.y}`;
      p.append(t);
      svg.append(p);
    });
  }
}

export function createBoard(container, ctx) {
  const root = document.createElement('div');
  root.className = 'generic';
  root.innerHTML = `
    <pre class="render" aria-label="board"></pre>
    <div class="moves-panel">
      <p class="help legal-title"></p>
      <div class="legal-list" role="list"></div>
      <form class="row typed">
        <label class="sr" for="typed-move" style="margin:0">Move</label>
        <input id="typed-move" type="text" autocomplete="off" spellcheck="false"
               style="flex:1;min-width:8rem" placeholder="type a move">
        <button type="submit">Play</button>
      </form>
    </div>`;
  container.append(root);
  const pre = root.querySelector('pre');
  const list = root.querySelector('.legal-list');
  const title = root.querySelector('.legal-title');
  const form = root.querySelector('form');
  const input = form.querySelector('input');
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (text) ctx.play(text).then((ok) => { if (ok) input.value = ''; });
  });
  return {
    update(view, live) {
      pre.textContent = ctx.describe ? ctx.describe(view.render) : view.render;   // seats named as on the page
      drawGrid(root, view.view);
      list.replaceChildren();
      const panel = root.querySelector('.moves-panel');
      panel.hidden = !live;
      if (!live) return;
      title.textContent = view.enumerable
        ? `Legal moves (${view.legal.length}):`
        : `Suggested moves (${view.legal.length}); any legal move may be typed:`;
      for (const text of view.legal.slice(0, 400)) {
        const b = document.createElement('button');
        b.type = 'button';
        const hint = ctx.hint && ctx.hint(text);   // perfect play (game.js), when asked for
        b.className = `secondary${hint ? ' hint-' + hint : ''}`;
        if (hint) { b.dataset.hint = hint; b.title = `${hint} with perfect play`; }
        b.setAttribute('role', 'listitem');
        b.dataset.move = text;
        b.textContent = text;
        b.addEventListener('click', () => ctx.play(text));
        list.append(b);
      }
    },
    destroy() { root.remove(); },
  };
}
