// games/noname.js — the Noname table seen from above, in SVG (mm, y up),
// drawn from the server's structured view (view.view: the table and the
// piece model's sizes, every piece with its footprint, target, score and
// who subdues it, the pads; docs/architecture.md, "State views").
// Upright pieces (defenders) are their square base with the ridges to the
// apex; lying pieces (attackers) are their triangular footprint with the
// ridge to the tip, and a line along their ray to what they point at (the
// view says which piece and how far, NON-R5). Pads list each seat's pieces
// and score. Placing: choose a piece from the mover's pad and
// upright or lying, then press on the table and drag: the press sets the
// centre (upright) or the tip (lying), the drag the rotation or heading; a
// preview shows the footprint (red when it leaves the table or overlaps,
// NON §4) and a lying piece's ray; releasing plays the move. Zoom (up to 8×,
// round the last pointer position) and a pan mode help on small screens. On
// a touch screen swipes scroll the page (they never place): a tap puts a
// preview where it landed (the library says at once why it may not go there)
// and a confirm bar turns it and places it. Pieces a
// move captured stay drawn, crossed out, until the next move, and the line
// under the table names them. Piece numbers keep a readable size at every
// zoom. The server's suggestions are buttons (focusing one previews it) and
// any move may be typed, for the keyboard.

import { el, html, keepFocus } from './svg.js';
import { svgIcon } from '../ui.js';

const SIZE_NAME = { S: 'small', M: 'medium', L: 'large' };
export const COLOUR_NAME = { r: 'red', y: 'yellow', g: 'green', b: 'blue', k: 'black', w: 'white',
  p: 'purple', o: 'orange', c: 'cyan', x: 'clear' };
const NUM = '(\\d+(?:\\.\\d)?)';
const MOVE_RE = new RegExp(`^([a-z])([SML])@${NUM},${NUM}(?:/U${NUM}?|>${NUM})$`);

/* "rM@312.5,140.0/U15.0" -> { colour, size, x, y, upright, angle }; null if not a placement */
export function parseMove(text) {
  const m = MOVE_RE.exec(text);
  if (!m) return null;
  const upright = m[6] === undefined;
  return { text, colour: m[1], size: m[2], x: Number(m[3]), y: Number(m[4]), upright,
    angle: Number(upright ? (m[5] || 0) : m[6]) };
}

export function moveText(p) {
  const f = (v) => (Math.round(v * 10) / 10).toFixed(1);
  const a = ((Math.round(p.angle * 10) / 10) % 360 + 360) % 360;
  if (p.upright) {
    const t = Math.round((a % 90) * 10) / 10 % 90;
    return `${p.colour}${p.size}@${f(p.x)},${f(p.y)}/U${t ? f(t) : ''}`;
  }
  return `${p.colour}${p.size}@${f(p.x)},${f(p.y)}>${f(a)}`;
}

/* The view's pieces with what drawing needs: upright, the move text and
 * the footprint (poly) as the server computed it. */
export function tablePieces(pos) {
  return pos.pieces.map((p) => {
    const q = { ...p, upright: !p.lying, poly: p.corners };
    q.text = moveText(q);
    return q;
  });
}

/* Footprint corners in mm, counter-clockwise (NON §4), of a placement p
 * ({size, x, y, upright, angle}); layout is the view's {base, face} sizes
 * (NON-R17: base side w, lying length l from tip to base edge). */
export function footprint(p, layout) {
  const w = layout.base[p.size];
  const a = p.angle * Math.PI / 180, c = Math.cos(a), s = Math.sin(a);
  if (p.upright) {
    const h = w / 2;
    return [[-h, -h], [h, -h], [h, h], [-h, h]].map(([u, v]) => [p.x + u * c - v * s, p.y + u * s + v * c]);
  }
  const l = layout.face[p.size];
  const bx = p.x - l * c, by = p.y - l * s;        // base midpoint, behind the tip
  const nx = -s * w / 2, ny = c * w / 2;
  return [[p.x, p.y], [bx + nx, by + ny], [bx - nx, by - ny]];
}

function project(poly, ax, ay) {
  let lo = Infinity, hi = -Infinity;
  for (const [x, y] of poly) { const d = x * ax + y * ay; lo = Math.min(lo, d); hi = Math.max(hi, d); }
  return [lo, hi];
}

/* Separating-axis test: true when the interiors overlap by more than eps. */
export function overlaps(a, b, eps = 1e-6) {
  for (const poly of [a, b]) {
    for (let i = 0; i < poly.length; i++) {
      const [x1, y1] = poly[i], [x2, y2] = poly[(i + 1) % poly.length];
      const nx = y2 - y1, ny = x1 - x2, len = Math.hypot(nx, ny);
      const [alo, ahi] = project(a, nx / len, ny / len), [blo, bhi] = project(b, nx / len, ny / len);
      if (ahi <= blo + eps || bhi <= alo + eps) return false;
    }
  }
  return true;
}

/* Distance along the ray from (x, y) heading deg to the polygon, or Infinity. */
function rayHit(x, y, deg, poly) {
  const dx = Math.cos(deg * Math.PI / 180), dy = Math.sin(deg * Math.PI / 180);
  let best = Infinity;
  for (let i = 0; i < poly.length; i++) {
    const [x1, y1] = poly[i], [x2, y2] = poly[(i + 1) % poly.length];
    const ex = x2 - x1, ey = y2 - y1;
    const den = dx * ey - dy * ex;
    if (Math.abs(den) < 1e-12) continue;
    const t = ((x1 - x) * ey - (y1 - y) * ex) / den;
    const u = ((x1 - x) * dy - (y1 - y) * dx) / den;
    if (t >= -1e-6 && u >= -1e-6 && u <= 1 + 1e-6) best = Math.min(best, Math.max(0, t));
  }
  return best;
}

/* How far a ray runs before leaving the table. */
function toEdge(x, y, deg, W, H) {
  const dx = Math.cos(deg * Math.PI / 180), dy = Math.sin(deg * Math.PI / 180);
  let t = Infinity;
  if (dx > 1e-9) t = Math.min(t, (W - x) / dx); else if (dx < -1e-9) t = Math.min(t, -x / dx);
  if (dy > 1e-9) t = Math.min(t, (H - y) / dy); else if (dy < -1e-9) t = Math.min(t, -y / dy);
  return t;
}

export function createBoard(container, ctx) {
  const root = html('div', { class: 'noname' });
  const pads = html('div', { class: 'nn-pads' });
  const controls = html('div', { class: 'row nn-controls' });
  const zoomBar = html('div', { class: 'row nn-zoom', role: 'group', 'aria-label': 'zoom' });
  const svg = el('svg', { role: 'img', 'aria-label': 'Noname table' });
  const info = html('p', { class: 'help nn-info', 'aria-live': 'polite' });
  const sugg = html('div', { class: 'nn-suggest' });
  const form = html('form', { class: 'row typed' },
    html('label', { class: 'sr', for: 'nn-typed', style: 'margin:0' }, 'Move'),
    html('input', { id: 'nn-typed', type: 'text', autocomplete: 'off', spellcheck: 'false',
      placeholder: 'type a move, e.g. rM@300,300/U', style: 'flex:1;min-width:8rem' }),
    html('button', { type: 'submit' }, 'Place'));
  const confirmBar = html('div', { class: 'row nn-confirm', id: 'nn-confirm', hidden: true });
  root.append(pads, controls, zoomBar, svg, confirmBar, info, sugg, form);
  container.append(root);
  const input = form.querySelector('input');
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (text) ctx.play(text).then((ok) => { if (ok) input.value = ''; });
  });
  input.addEventListener('input', () => { preview = parseMove(input.value.trim()); drawPreview(); });

  let view = null, live = false, st = null;
  let pick = null;               // { colour, size } from the mover's pad
  let upright = true, angle = 0; // pose for the next placement
  let preview = null;            // a placement shown as a ghost
  let drag = null;               // { x, y } where the pointer went down
  let zoom = 1, centre = null;   // magnification and the view's centre (mm), null = the table's
  let panning = false, pan = null; // pan mode; { clientX, clientY, cx, cy } while dragging the view
  let hover = null;              // the last pointer position on the table (mm)
  let tap = null;                // a touch that may become a tap: { x, y } in screen pixels
  let pending = null;            // a tapped placement waiting for its confirmation
  let captured = [];             // pieces the shown move captured (drawn crossed out)
  const layer = { pieces: null, ghost: null };

  function mm(evt) {
    const pt = svg.createSVGPoint();
    pt.x = evt.clientX; pt.y = evt.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    return { x: Math.min(Math.max(p.x, 0), st.width), y: Math.min(Math.max(st.height - p.y, 0), st.height) };
  }

  // a press beside the drawing (the free space round a table narrower than
  // the board's box) places nothing; its 4 mm frame counts as the edge
  function onTable(evt) {
    const pt = svg.createSVGPoint();
    pt.x = evt.clientX; pt.y = evt.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    return p.x >= -4 && p.x <= st.width + 4 && p.y >= -4 && p.y <= st.height + 4;
  }

  // the visible part of the table: all of it, or 1/zoom of it round `centre`
  function applyView() {
    const W = st.width + 8, H = st.height + 8;
    const vw = W / zoom, vh = H / zoom;
    const [cx, cy] = centre || [st.width / 2, st.height / 2];
    const x0 = Math.min(Math.max(cx - vw / 2, -4), W - 4 - vw);
    const y0 = Math.min(Math.max(st.height - cy - vh / 2, -4), H - 4 - vh);
    svg.setAttribute('viewBox', `${x0.toFixed(2)} ${y0.toFixed(2)} ${vw.toFixed(2)} ${vh.toFixed(2)}`);
    svg.classList.toggle('panning', panning);
    // piece numbers about 12 screen pixels high whatever the zoom and the width
    const px = svg.getBoundingClientRect().width;
    if (px > 0) svg.style.setProperty('--nn-id-size', `${(12 * vw / px).toFixed(2)}px`);
  }

  function drawZoom() {
    const b = (label, aria, key, fn, extra = {}) => html('button', { type: 'button', class: 'secondary small',
      'aria-label': aria, 'data-key': key, onclick: fn, ...extra }, label);
    zoomBar.replaceChildren(...[
      b('−', 'zoom out', 'zoom-out', () => setZoom(zoom / 2), { disabled: zoom <= 1 }),
      html('span', { class: 'help nn-zoom-level' }, `${zoom}×`),
      b('+', 'zoom in', 'zoom-in', () => setZoom(zoom * 2), { disabled: zoom >= 8 }),
      zoom > 1 && b([svgIcon('pan'), ' Pan'], 'pan the view by dragging', 'pan', () => { panning = !panning; drawZoom(); applyView(); },
        { 'aria-pressed': String(panning) }),
    ].filter(Boolean));
  }

  function setZoom(z) {
    zoom = Math.min(8, Math.max(1, z));
    if (zoom === 1) { centre = null; panning = false; }
    else if (!centre) centre = hover ? [hover.x, hover.y] : null;
    keepFocus(zoomBar, drawZoom);
    applyView();
  }

  function pointsAttr(poly) { return poly.map(([x, y]) => `${x.toFixed(2)},${(st.height - y).toFixed(2)}`).join(' '); }

  function drawPiece(g, p, cls) {
    const poly = p.poly || footprint(p, st.layout);
    const pg = el('g', { class: `nn-piece c-${p.colour} ${p.upright ? 'up' : 'lying'} ${cls || ''}`.trim() }, g);
    el('polygon', { points: pointsAttr(poly) }, pg);
    if (p.upright) { // ridges from each corner to the apex above the centre
      for (const [x, y] of poly)
        el('line', { class: 'ridge', x1: x, y1: st.height - y, x2: p.x, y2: st.height - p.y }, pg);
    } else { // the ridge from the base midpoint to the tip
      const [, b1, b2] = poly;
      el('line', { class: 'ridge', x1: (b1[0] + b2[0]) / 2, y1: st.height - (b1[1] + b2[1]) / 2,
        x2: p.x, y2: st.height - p.y }, pg);
    }
    return pg;
  }

  function ray(g, x, y, deg, len, cls) {
    const dx = Math.cos(deg * Math.PI / 180), dy = Math.sin(deg * Math.PI / 180);
    el('line', { class: `nn-ray ${cls}`, x1: x, y1: st.height - y, x2: x + dx * len, y2: st.height - (y + dy * len) }, g);
  }

  function draw() { keepFocus(root, render); }

  function render() {
    const pos = view.view;
    st = { width: pos.table.width, height: pos.table.height, layout: pos.layout, pieces: tablePieces(pos),
      seats: pos.seats.map((s) => s.colour), toMove: pos.to_move_colour,
      pads: Object.fromEntries(pos.seats.map((s) => [s.colour, s.pad])),
      scores: Object.fromEntries(pos.seats.map((s) => [s.colour, s.score])) };
    const mover = live ? st.toMove : null;
    const pad = mover ? st.pads[mover] || [] : [];
    if (pick && !pad.some((e) => e.colour === pick.colour && e.size === pick.size)) pick = null;
    if (live && !pick && pad.length) pick = { colour: pad[0].colour, size: pad[0].size };

    // pads and scores, one block per seat; with three or more seats the pads
    // of those not to move are counts in small type (the board keeps its room)
    pads.replaceChildren(...st.seats.map((c, i) => {
      const box = html('div', { class: `nn-pad${c === st.toMove ? ' to-move' : ''}`, 'data-colour': c },
        html('span', { class: 'who' }, html('span', { class: `dot c-${c}` }),
          `Player ${i + 1} (${COLOUR_NAME[c]}) · score ${st.scores[c]}`));
      const list = st.pads[c] || [];
      if (!list.length) box.append(html('span', { class: 'help' }, 'pad empty'));
      if (st.seats.length >= 3 && c !== st.toMove) {
        box.classList.add('compact');
        box.append(...list.map((e) => html('span', { class: 'count', 'data-piece': e.colour + e.size,
          'aria-label': `${e.n} ${COLOUR_NAME[e.colour]} ${SIZE_NAME[e.size]}` }, html('span', { class: `sw c-${e.colour}` }), `${e.size}×${e.n}`)));
        return box;
      }
      for (const e of list) {
        const mine = c === mover;
        const on = mine && pick && pick.colour === e.colour && pick.size === e.size;
        const b = html('button', { type: 'button', class: 'secondary size', disabled: !mine, 'data-key': `pad-${c}-${e.colour}${e.size}`,
          'data-piece': e.colour + e.size, 'aria-pressed': mine ? String(!!on) : false,
          'aria-label': `${e.n} ${COLOUR_NAME[e.colour]} ${SIZE_NAME[e.size]}${mine ? '; place one' : ''}` },
        html('span', { class: `sw c-${e.colour}` }), `${e.size}×${e.n}`);
        if (mine) b.addEventListener('click', () => { pick = { colour: e.colour, size: e.size }; draw(); });
        box.append(b);
      }
      return box;
    }));

    controls.replaceChildren();
    controls.hidden = !live;
    if (live) {
      const pose = (up, label) => html('button', { type: 'button', class: 'secondary', 'data-pose': up ? 'upright' : 'lying', 'data-key': up ? 'upright' : 'lying',
        'aria-pressed': String(upright === up), onclick: () => { upright = up; draw(); } }, label);
      controls.append(pose(true, [svgIcon('upright'), ' Upright (defend)']), pose(false, [svgIcon('lying'), ' Lying (attack)']));
      if (view.legal.includes('--'))
        controls.append(html('button', { type: 'button', 'data-move': '--', onclick: () => ctx.play('--') }, 'Skip (--)'));
    }

    // the table
    svg.replaceChildren();
    svg.setAttribute('data-height', st.height);
    applyView();
    drawZoom();
    el('rect', { class: 'nn-table', x: 0, y: 0, width: st.width, height: st.height, rx: 4 }, svg);
    for (let g = 100; g < Math.max(st.width, st.height); g += 100) {
      if (g < st.width) el('line', { class: 'nn-grid', x1: g, y1: 0, x2: g, y2: st.height }, svg);
      if (g < st.height) el('line', { class: 'nn-grid', x1: 0, y1: st.height - g, x2: st.width, y2: st.height - g }, svg);
    }
    layer.pieces = el('g', { class: 'nn-pieces' }, svg);
    const byId = new Map(st.pieces.map((p) => [p.id, p]));
    for (const p of st.pieces) {
      if (!p.upright) {
        const len = p.target != null ? p.hit_mm : toEdge(p.x, p.y, p.angle, st.width, st.height);
        ray(layer.pieces, p.x, p.y, p.angle, len, p.target != null ? `hit c-${p.colour}` : 'miss');
      }
    }
    for (const p of st.pieces) {
      const cls = [p.subdued_by ? 'subdued' : '', p.own_linked ? 'own-linked' : '', p.id === pos.last_id ? 'last' : '']
        .filter(Boolean).join(' ');
      const pg = drawPiece(layer.pieces, p, cls);
      pg.setAttribute('data-id', p.id);
      const target = p.target != null ? byId.get(p.target) : null;
      const t = el('title', {}, pg);
      t.textContent = `#${p.id} ${p.text}${target ? ` → #${target.id}` : ''}${p.subdued_by ? `, subdued by ${p.subdued_by}` : ''}` +
        `${p.own_linked ? ', own-linked' : ''}; scores ${p.score}`;
      const [cx, cy] = p.upright ? [p.x, p.y] : p.poly.reduce((a, q) => [a[0] + q[0] / 3, a[1] + q[1] / 3], [0, 0]);
      el('text', { class: 'nn-id', x: cx, y: st.height - cy + 3, 'text-anchor': 'middle' }, layer.pieces).textContent = p.id;
    }
    for (const p of captured) {
      const pg = drawPiece(layer.pieces, p, 'captured');
      pg.setAttribute('data-captured', p.id);
      // an X over the footprint's centre, as wide as the footprint
      const cx = p.poly.reduce((t, q) => t + q[0], 0) / p.poly.length, cy = p.poly.reduce((t, q) => t + q[1], 0) / p.poly.length;
      const r = Math.max(...p.poly.map((q) => Math.hypot(q[0] - cx, q[1] - cy))) * 0.7;
      for (const sgn of [1, -1])
        el('line', { class: 'nn-cross', x1: cx - r, y1: st.height - cy + sgn * r, x2: cx + r, y2: st.height - cy - sgn * r }, pg);
      el('title', {}, pg).textContent = `#${p.id} ${p.text}: captured by the last move`;
    }
    layer.ghost = el('g', { class: 'nn-ghost', 'pointer-events': 'none' }, svg);
    svg.classList.toggle('placing', live && !!pick);
    svg.setAttribute('aria-label', `Noname table, ${st.width} by ${st.height} mm, ${st.pieces.length} pieces` +
      (live ? '; press to place, drag to turn' : ''));

    // the suggestions (enumerable: false) as buttons; focus or hover previews
    const placements = live ? view.legal : [];
    sugg.replaceChildren();
    if (placements.length) {
      sugg.append(html('p', { class: 'help' }, `Suggested placements (${placements.length}); any legal placement may be made:`));
      const list = html('div', { class: 'legal-list', role: 'list' });
      for (const text of placements) {
        const show = () => { preview = parseMove(text); drawPreview(); };
        const hide = () => { preview = null; drawPreview(); };
        list.append(html('button', { type: 'button', class: 'secondary', role: 'listitem', 'data-move': text, 'data-key': `sugg-${text}`,
          onclick: () => ctx.play(text), onmouseenter: show, onfocus: show, onmouseleave: hide, onblur: hide }, text));
      }
      sugg.append(list);
    }
    form.hidden = !live;
    describe();
    drawPreview();
  }

  // the ghost: footprint, legality, ray and its first hit
  function drawPreview() {
    if (!layer.ghost) return;
    layer.ghost.replaceChildren();
    if (!preview && pending) preview = pending;
    if (!preview || !st) return;
    const poly = footprint(preview, st.layout);
    const off = poly.some(([x, y]) => x < -1e-6 || y < -1e-6 || x > st.width + 1e-6 || y > st.height + 1e-6);
    const hitBy = st.pieces.find((q) => overlaps(poly, q.poly));
    const bad = off || !!hitBy;
    drawPiece(layer.ghost, preview, bad ? 'bad' : 'ok');
    let note = preview.text || moveText(preview);
    if (!preview.upright) {
      let best = Infinity, target = null;
      for (const q of st.pieces) {
        const t = rayHit(preview.x, preview.y, preview.angle, q.poly);
        if (t < best - 1e-6) { best = t; target = q; }
      }
      const len = target ? best : toEdge(preview.x, preview.y, preview.angle, st.width, st.height);
      ray(layer.ghost, preview.x, preview.y, preview.angle, len, target ? 'hit preview' : 'miss preview');
      note += target ? ` — points at #${target.id} (${target.text}, ${best.toFixed(1)} mm)` : ' — points at nothing';
    }
    if (off) note += ' — off the table';
    else if (hitBy) note += ` — overlaps #${hitBy.id}`;
    info.textContent = note;
  }

  function capturedNote() {
    return captured.length ? `Captured by the last move: ${captured.map((p) => `#${p.id} ${COLOUR_NAME[p.colour]} ${SIZE_NAME[p.size]}`).join(', ')}.` : '';
  }

  function drawConfirm() {
    confirmBar.hidden = !pending;
    if (!pending) { confirmBar.replaceChildren(); return; }
    const turn = (d) => () => { pending = { ...pending, angle: ((pending.angle + d) % 360 + 360) % 360 }; angle = pending.angle; pending.text = moveText(pending); preview = pending; drawPreview(); drawConfirm(); ctx.explain?.(pending.text); };
    confirmBar.replaceChildren(
      html('span', { class: 'nn-pending' }, pending.text),
      html('button', { type: 'button', class: 'secondary small', 'aria-label': 'turn left 15 degrees', 'data-key': 'turn-left', onclick: turn(15) }, svgIcon('turn-left')),
      html('button', { type: 'button', class: 'secondary small', 'aria-label': 'turn right 15 degrees', 'data-key': 'turn-right', onclick: turn(-15) }, svgIcon('turn-right')),
      html('button', { type: 'button', id: 'nn-place', 'data-key': 'place', onclick: () => { const t = pending.text; pending = null; preview = null; drawConfirm(); ctx.play(t); } }, 'Place'),
      html('button', { type: 'button', class: 'secondary', id: 'nn-cancel', 'data-key': 'cancel', onclick: () => { pending = null; preview = null; drawPreview(); drawConfirm(); describe(); } }, 'Cancel'));
  }

  function describe() {
    if (!live) { info.textContent = capturedNote(); return; }
    if (pending) { info.textContent = `${pending.text}: turn it if needed, then Place or Cancel.`; return; }
    if (captured.length) { info.textContent = capturedNote(); return; }
    info.textContent = pick
      ? `Place a ${COLOUR_NAME[pick.colour]} ${SIZE_NAME[pick.size]} ${upright ? 'upright' : 'lying'}: press on the table and drag to ${upright ? 'turn it' : 'aim it'} (on a touch screen: tap, then confirm).`
      : 'Nothing to place.';
  }

  function ghostAt(evt) {
    const p = mm(evt);
    if (drag) {
      const dx = p.x - drag.x, dy = p.y - drag.y;
      if (Math.hypot(dx, dy) > 2) angle = ((Math.atan2(dy, dx) * 180 / Math.PI) + 360) % 360;
      return { colour: pick.colour, size: pick.size, x: drag.x, y: drag.y, upright, angle };
    }
    return { colour: pick.colour, size: pick.size, x: p.x, y: p.y, upright, angle };
  }

  svg.addEventListener('pointerdown', (evt) => {
    if (panning && evt.button === 0) {
      evt.preventDefault();
      svg.setPointerCapture?.(evt.pointerId);
      const [cx, cy] = centre || [st.width / 2, st.height / 2];
      pan = { clientX: evt.clientX, clientY: evt.clientY, cx, cy };
      return;
    }
    if (!live || !pick || evt.button !== 0 || !onTable(evt)) return;
    if (evt.pointerType === 'touch') {   // maybe a tap, maybe a swipe that scrolls: decide on release
      tap = { x: evt.clientX, y: evt.clientY };
      return;
    }
    evt.preventDefault();
    svg.setPointerCapture?.(evt.pointerId);
    drag = mm(evt);
    preview = ghostAt(evt);
    preview.text = moveText(preview);
    drawPreview();
  });
  svg.addEventListener('pointermove', (evt) => {
    if (pan) { // screen pixels to mm at the current scale
      const k = (st.width + 8) / zoom / svg.getBoundingClientRect().width;
      centre = [Math.min(Math.max(pan.cx - (evt.clientX - pan.clientX) * k, 0), st.width),
        Math.min(Math.max(pan.cy + (evt.clientY - pan.clientY) * k, 0), st.height)];
      applyView();
      return;
    }
    if (st) hover = mm(evt);
    if (evt.pointerType === 'touch') {
      if (tap && Math.hypot(evt.clientX - tap.x, evt.clientY - tap.y) > 10) tap = null;
      return;
    }
    if (panning || !live || !pick || pending) return;
    preview = ghostAt(evt);
    preview.text = moveText(preview);
    drawPreview();
  });
  svg.addEventListener('pointerup', (evt) => {
    if (pan) { pan = null; return; }
    if (evt.pointerType === 'touch') {   // a tap: a preview to confirm, never a move at once
      const was = tap;
      tap = null;
      if (!was || !live || !pick || Math.hypot(evt.clientX - was.x, evt.clientY - was.y) > 10) return;
      const p = mm(evt);
      pending = { colour: pick.colour, size: pick.size, x: p.x, y: p.y, upright, angle };
      pending.text = moveText(pending);
      preview = pending;
      drawPreview();
      drawConfirm();
      describe();
      ctx.explain?.(pending.text);   // the library says at once whether it may go there, and why not
      return;
    }
    if (!drag) return;
    preview = ghostAt(evt);
    drag = null;
    const text = moveText(preview);
    preview = null;
    ctx.play(text);
  });
  svg.addEventListener('pointerleave', (evt) => {
    if (evt.pointerType !== 'touch' && !drag && !pending) { preview = null; drawPreview(); describe(); }
  });
  svg.addEventListener('pointercancel', () => { drag = null; pan = null; tap = null; preview = null; drawPreview(); });

  return {
    update(v, isLive) {
      if (!view || v.ply !== view.ply || v.n_moves !== view.n_moves) {
        preview = null;
        pending = null;
        // one move forward: the pieces it took off the table are shown as captured
        captured = [];
        if (view && v.ply === view.ply + 1 && view.view && v.view) {
          const now = new Set(v.view.pieces.map((p) => p.id));
          captured = tablePieces(view.view).filter((p) => !now.has(p.id));
        }
        drawConfirm();
      }
      view = v; live = isLive; draw();
    },
    destroy() { root.remove(); },
  };
}
