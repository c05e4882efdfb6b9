// games/generic.js — the board for any game: the server's text rendering,
// a clickable list of legal moves (or suggestions, for games whose moves
// cannot be listed) and a text box for typed moves.
//
// Board module contract (every games/<name>.js):
//   createBoard(container, { play(text), hint(text) }) -> { update(view, live), destroy() }
// describe(text) (optional) names seats in a library text the way the page does;
// explain(text) (optional) asks why a move the board does not offer is illegal.
// hint(text) is 'win', 'loss', 'draw' (the mover's value with perfect play,
// when the page's Perfect play switch is on and the position is solved) or
// null; boards mark the moves they offer with the class hint-<value>.
// view is the game JSON from the API; live is true when this browser may move
// now (its seat is to move and the latest position is shown). Boards draw the
// position from view.view, the structured view (docs/architecture.md, "State
// views"), never from the state text or the rendering; this generic board
// shows the rendering as text, for games without a board of their own.

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
