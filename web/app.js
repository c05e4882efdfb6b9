// app.js — the pips web UI's entry: routes the URL hash to the lobby
// (#/, lobby.js) or a game (#/game/<id>[?seat=<i>&token=<t>], game.js) and
// shows what stopped a page from opening at the top of the page.

import { lobby } from './lobby.js';
import { gameView } from './game.js';
import { html as h } from './games/svg.js';

const app = document.getElementById('app');
const errorBox = document.getElementById('error');
let cleanup = () => {};

function showError(msg) {
  errorBox.textContent = msg;
  errorBox.hidden = !msg;
}

let routed = 0;   // a page that finishes loading after the address changed draws nothing

async function route() {
  cleanup();
  cleanup = () => {};
  const mine = ++routed, current = () => mine === routed;
  showError('');
  const [path, query] = location.hash.replace(/^#/, '').split('?');
  const params = new URLSearchParams(query || '');
  const m = /^\/game\/(\d+)$/.exec(path || '');
  if (!m && path && path !== '/' && path !== '') {   // a route that means nothing here: say so
    document.title = 'Not found · pips';
    app.replaceChildren(h('div', { class: 'card', id: 'no-such-game' }, h('h1', {}, 'No such page'),
      h('p', {}, `This address (#${path}) is not a page of pips.`), h('p', {}, h('a', { href: '#/' }, 'Go to the lobby'))));
    return;
  }
  try {
    if (m) {
      const done = await gameView(app, Number(m[1]), params, current);
      if (current()) cleanup = done; else done();
    } else { document.title = 'pips — Looney Pyramid games'; await lobby(app, current); }
  } catch (e) {
    if (!current()) return;
    if (e.notFound) {   // an unknown (or deleted) game id
      document.title = 'No such game · pips';
      app.replaceChildren(h('div', { class: 'card', id: 'no-such-game' }, h('h1', {}, 'No such game'),
        h('p', {}, `There is no game #${m[1]} on this server.`), h('p', {}, h('a', { href: '#/' }, 'Go to the lobby'))));
      return;
    }
    app.replaceChildren(h('p', {}, h('a', { href: '#/' }, 'Back to the lobby')));
    showError(e.message);
  }
}

window.addEventListener('hashchange', route);
route();
