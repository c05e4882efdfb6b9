// games/svg.js — small drawing helpers shared by the SVG boards (IceFrogs,
// Ziggurat): element creation, a pyramid seen from the side (a triangle with
// 1-3 pips for its size, so size never depends on colour alone), and the
// focus/click wiring that makes an SVG group act as a button.

export const SVG = 'http://www.w3.org/2000/svg';

export function el(name, attrs = {}, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) if (v != null) e.setAttribute(k, v);
  if (parent) parent.append(e);
  return e;
}

export function html(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v === true) e.setAttribute(k, '');
    else if (v !== false && v != null) e.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c != null) e.append(c);
  return e;
}

/* A pyramid with its base centred on (cx, base), w wide and h high; pips
 * (0-3) sit in a row near the base. cls goes on the group. */
export function pyramid(parent, cx, base, w, h, cls, pips = 0) {
  const g = el('g', { class: `pyr ${cls || ''}`.trim() }, parent);
  el('polygon', { points: `${cx - w / 2},${base} ${cx + w / 2},${base} ${cx},${base - h}` }, g);
  // the lit face: a lighter right half, so a pyramid reads as a solid
  el('polygon', { class: 'shade', points: `${cx},${base} ${cx + w / 2},${base} ${cx},${base - h}` }, g);
  const r = Math.max(1.6, w / 16);
  for (let i = 0; i < pips; i++)
    el('circle', { class: 'pip', cx: cx + (i - (pips - 1) / 2) * r * 2.8, cy: base - r * 2.2, r }, g);
  return g;
}

/* Makes an SVG element a keyboard-reachable button that calls fn. */
export function asButton(node, label, fn) {
  node.setAttribute('tabindex', '0');
  node.setAttribute('role', 'button');
  node.setAttribute('aria-label', label);
  node.addEventListener('click', fn);
  node.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); fn(); }
  });
}

/* Refills the <details> element `all` with a summary ("All legal moves (n)")
 * and one button per item ({ text, title }), keeping whether it was open.
 * hint (optional, the board's ctx.hint) gives a move's perfect-play value. */
export function fillLegalList(all, noun, total, items, play, hint) {
  const open = all.open;
  all.replaceChildren(html('summary', {}, `All legal ${noun} (${total})`),
    html('div', { class: 'legal-list', role: 'list' }, items.map((it) => {
      const v = hint && hint(it.text);
      return html('button', { type: 'button', class: `secondary${v ? ' hint-' + v : ''}`, role: 'listitem',
        'data-move': it.text, 'data-hint': v || null, 'data-key': `all-${it.text}`,
        title: v ? `${it.title ? it.title + ' — ' : ''}${v} with perfect play` : it.title,
        onclick: () => play(it.text) }, it.text);
    })));
  all.open = open;
}

/* A tiny inline SVG triangle for buttons and legends. */
export function icon(w, h, cls, pips = 0) {
  const s = el('svg', { viewBox: `0 0 ${w + 2} ${h + 2}`, width: w + 2, height: h + 2,
    class: 'icon', 'aria-hidden': 'true' });
  pyramid(s, w / 2 + 1, h + 1, w, h, cls, pips);
  return s;
}

/* Redraws and gives the focus back to the element with the same data-key,
 * so a keyboard user keeps their place when the board is rebuilt. */
export function keepFocus(root, redraw) {
  const a = document.activeElement;
  const key = a && root.contains(a) ? a.getAttribute('data-key') : null;
  redraw();
  if (key == null) return;
  const b = [...root.querySelectorAll('[data-key]')].find((e) => e.getAttribute('data-key') === key);
  if (b && b !== a && !b.disabled && (b.tabIndex >= 0)) b.focus({ preventScroll: true });
}

/* A faint arrow from (x1, y1) to (x2, y2), stopping short of both ends: the
 * last move's route. Not a control: pointer events pass through. */
export function moveArrow(parent, x1, y1, x2, y2, inset = 14) {
  const len = Math.hypot(x2 - x1, y2 - y1);
  if (len < 2 * inset + 4) return null;
  const ux = (x2 - x1) / len, uy = (y2 - y1) / len;
  const ax = x1 + ux * inset, ay = y1 + uy * inset, bx = x2 - ux * inset, by = y2 - uy * inset;
  const g = el('g', { class: 'last-arrow', 'pointer-events': 'none', 'aria-hidden': 'true' }, parent);
  el('line', { x1: ax, y1: ay, x2: bx - ux * 6, y2: by - uy * 6 }, g);
  el('polygon', { points: `${bx},${by} ${bx - ux * 11 - uy * 6},${by - uy * 11 + ux * 6} ${bx - ux * 11 + uy * 6},${by - uy * 11 - ux * 6}` }, g);
  return g;
}
