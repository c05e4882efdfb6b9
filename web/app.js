// app.js — the pips web UI: a lobby (new game with options and seats, saved
// games, rules, record upload) and a game view (board module per game, move
// list with replay, undo, resign, record download, share links), routed by
// the URL hash: #/ and #/game/<id>[?token=<seat token>].
// Live updates come from Server-Sent Events, with polling as the fallback.

import { api, addToken, heldTokens, loadTokens, saveTokens } from './api.js';
import { loadBoard } from './games/index.js';
import { html as h } from './games/svg.js';

const app = document.getElementById('app');
const errorBox = document.getElementById('error');
let cleanup = () => {};

function showError(msg) {
  errorBox.textContent = msg;
  errorBox.hidden = !msg;
}

function seatName(i) { return `Player ${i + 1}`; }

/* ---- lobby ---- */

async function lobby() {
  const [rules, saved] = await Promise.all([api('GET', 'rules'), api('GET', 'games')]);
  const agents = [...new Set([...rules.agents, ...rules.levels])];
  const gameSel = h('select', { id: 'game' },
    rules.games.map((g) => h('option', { value: g.name }, g.title)));
  const optsBox = h('div', { id: 'options' });
  const seatsBox = h('div', { id: 'seats' });
  const rulesBox = h('pre', { class: 'rules' });
  const seed = h('input', { id: 'seed', type: 'number', min: '0', step: '1', placeholder: 'random' });
  const form = h('form', { class: 'card', id: 'new-game' },
    h('h2', {}, 'New game'),
    h('label', { for: 'game' }, 'Game'), gameSel,
    optsBox, seatsBox,
    h('label', { for: 'seed' }, 'Seed (dice and agents; optional)'), seed,
    h('p', { class: 'row', style: 'margin-top:1rem' }, h('button', { type: 'submit' }, 'Start')));

  function fill() {
    const g = rules.games.find((x) => x.name === gameSel.value);
    optsBox.replaceChildren(...g.options.map((o) => h('div', {},
      h('label', { for: 'opt-' + o.key }, o.key),
      h('input', { id: 'opt-' + o.key, type: 'text', value: o.default, required: true,
        'data-key': o.key, 'aria-describedby': 'help-' + o.key }),
      h('p', { class: 'help', id: 'help-' + o.key }, `${o.help} (default ${o.default})`))));
    const seats = [];
    for (let i = 0; i < (g.players || 2); i++) {
      const sel = h('select', { id: 'seat-' + i, 'data-seat': i },
        h('option', { value: 'human' }, 'Human'),
        agents.map((a) => h('option', { value: a }, `Computer: ${a}`)));
      if (i > 0) sel.value = agents[0] || 'human';
      seats.push(h('div', {}, h('label', { for: 'seat-' + i }, seatName(i)), sel));
    }
    seatsBox.replaceChildren(h('h2', {}, 'Seats'), ...seats);
    rulesBox.textContent = `${g.rules}\n\n${g.notation}`;
  }
  gameSel.addEventListener('change', fill);
  fill();

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!form.reportValidity()) return;
    const options = {};
    for (const inp of optsBox.querySelectorAll('input')) options[inp.dataset.key] = inp.value.trim();
    const seats = [...seatsBox.querySelectorAll('select')].map((s) => s.value);
    const body = { game: gameSel.value, options, seats };
    if (seed.value !== '') body.seed = Number(seed.value);
    try {
      const r = await api('POST', 'games', body);
      saveTokens(r.id, r.tokens);
      location.hash = `#/game/${r.id}`;
    } catch (err) { showError(err.message); }
  });

  const upload = h('input', { type: 'file', id: 'record-file', accept: '.json,application/json' });
  upload.addEventListener('change', async () => {
    const file = upload.files[0];
    if (!file) return;
    try {
      const r = await api('POST', 'records', await file.text());
      saveTokens(r.id, r.tokens);
      location.hash = `#/game/${r.id}`;
    } catch (err) { showError(err.message); }
  });

  const rows = saved.games.map((g) => h('tr', {},
    h('td', {}, h('a', { href: `#/game/${g.id}` }, `#${g.id}`)),
    h('td', {}, g.title),
    h('td', {}, g.seats.join(' vs ')),
    h('td', {}, String(g.n_moves)),
    h('td', {}, g.over ? g.result : (heldTokens(g.id).length ? 'in play (yours)' : 'in play')),
    h('td', {}, g.updated.replace('T', ' ').replace('Z', ''))));
  app.replaceChildren(
    h('h1', {}, 'Lobby'),
    h('div', { class: 'grid2' },
      h('div', {}, form,
        h('div', { class: 'card' }, h('h2', {}, 'Load a record'),
          h('label', { for: 'record-file' }, 'Game record (.json)'), upload)),
      h('div', {},
        h('details', { class: 'card', open: true }, h('summary', {}, 'Rules'), rulesBox),
        h('div', { class: 'card' }, h('h2', {}, `Saved games (${saved.total})`),
          rows.length ? h('table', { class: 'games' },
            h('thead', {}, h('tr', {}, ['Game', 'Kind', 'Seats', 'Moves', 'Status', 'Updated']
              .map((t) => h('th', {}, t)))),
            h('tbody', {}, rows)) : h('p', {}, 'No games yet.')))));
}

/* ---- game view ---- */

async function gameView(id, params) {
  const seatParam = Number(params.get('seat'));
  if (params.get('token') && Number.isInteger(seatParam) && seatParam >= 0 && seatParam < 8) {
    addToken(id, seatParam, params.get('token'));
    history.replaceState(null, '', `#/game/${id}`);
  }
  let latest = await api('GET', `games/${id}`);
  let shown = null;          // ply shown when replaying, null = live
  const cache = new Map();   // ply -> view
  const mod = await loadBoard(latest.game);
  const boardBox = h('div', { class: 'board' });
  const status = h('p', { class: 'status', id: 'status', 'aria-live': 'polite' });
  const seatsList = h('ul', { class: 'seats', id: 'seat-list' });
  const movesList = h('ol', { class: 'moves', id: 'moves', start: '1' });
  const btn = (label, attrs, fn) => h('button', { type: 'button', class: 'secondary', ...attrs, onclick: fn }, label);
  const first = btn('«', { 'aria-label': 'first position', id: 'replay-first' }, () => goto(0));
  const prev = btn('‹', { 'aria-label': 'previous move', id: 'replay-prev' }, () => goto((shown ?? latest.n_moves) - 1));
  const next = btn('›', { 'aria-label': 'next move', id: 'replay-next' }, () => goto((shown ?? latest.n_moves) + 1));
  const last = btn('»', { 'aria-label': 'latest position', id: 'replay-last' }, () => goto(latest.n_moves));
  const undo = btn('Undo', { id: 'undo' }, doUndo);
  const resign = btn('Resign', { id: 'resign' }, doResign);
  const record = h('a', { href: `/api/games/${id}/record`, download: `pips-${latest.game}-${id}.json`, id: 'record' }, 'Download record');
  const share = h('div', { class: 'share' });

  // "Text board": the generic view for any game (typed moves, move list)
  const generic = await loadBoard('');
  const textToggle = h('input', { type: 'checkbox', id: 'text-board' });
  textToggle.checked = localStorage.getItem('pips-text-board') === '1';
  let board = (textToggle.checked ? generic : mod).createBoard(boardBox, { play });
  textToggle.addEventListener('change', () => {
    localStorage.setItem('pips-text-board', textToggle.checked ? '1' : '0');
    board.destroy();
    board = (textToggle.checked ? generic : mod).createBoard(boardBox, { play });
    render();
  });
  app.replaceChildren(
    h('h1', {}, `${latest.title} — game #${id}`),
    h('div', { class: 'play' },
      h('div', { class: 'card' }, seatsList, status, boardBox),
      h('div', {},
        h('div', { class: 'card' }, h('h2', {}, 'Moves'), movesList,
          h('div', { class: 'row replay' }, first, prev, next, last)),
        h('div', { class: 'card' }, h('div', { class: 'row' }, undo, resign, record),
          h('p', { class: 'row' }, textToggle, h('label', { for: 'text-board', style: 'margin:0' }, 'Text board')),
          share))));

  // the seats this browser holds: tokens are saved by seat index
  function mySeats(v) {
    const saved = loadTokens(id);
    return v.seats.map((s, i) => s === 'human' && typeof saved[i] === 'string' && saved[i].length > 0);
  }

  function render() {
    const v = shown == null ? latest : cache.get(shown) || latest;
    const mine = mySeats(latest);
    const holdsAny = heldTokens(id).length > 0;
    const live = shown == null && !latest.over && latest.to_move != null && mine[latest.to_move];
    board.update(v, live);
    seatsList.replaceChildren(...latest.seats.map((s, i) => h('li',
      { class: latest.to_move === i ? 'to-move' : '' },
      `${seatName(i)}: ${s === 'human' ? 'human' : 'computer ' + s}${mine[i] ? ' (you)' : ''}`)));
    let text;
    if (shown != null) text = `Replay: position after move ${shown} of ${latest.n_moves}`;
    else if (latest.over) text = `Game over: ${latest.result.text}`;
    else if (latest.ai_error) text = `The computer failed: ${latest.ai_error}`;
    else if (latest.thinking) text = `${seatName(latest.to_move)} (computer) is thinking…`;
    else if (live) text = `Your move, ${seatName(latest.to_move)}`;
    else text = `Waiting for ${seatName(latest.to_move)}`;
    status.textContent = text;
    status.classList.toggle('thinking', shown == null && !!latest.thinking && !latest.over);
    movesList.replaceChildren(...latest.moves.map((m, i) => h('li',
      { class: (shown ?? latest.n_moves) === i + 1 ? 'current' : '' },
      h('button', { type: 'button', 'aria-label': `position after move ${i + 1}, ${m.text}`,
        onclick: () => goto(i + 1) }, m.seat == null ? `(${m.text})` : m.text))));
    // keep the current move in sight inside the scrolling list (not the page)
    const cur = movesList.querySelector('li.current');
    if (cur) movesList.scrollTop = Math.max(0, cur.offsetTop - movesList.clientHeight / 2);
    const at = shown ?? latest.n_moves;
    first.disabled = prev.disabled = at === 0;
    next.disabled = last.disabled = shown == null;
    undo.disabled = !holdsAny || latest.n_moves === 0 || latest.result.resigned.length > 0;
    resign.disabled = !holdsAny || latest.over;
    share.replaceChildren(...latest.seats.flatMap((s, i) => {
      const t = loadTokens(id)[i];
      if (s !== 'human' || !t) return [];
      const url = `${location.origin}/#/game/${id}?seat=${i}&token=${t}`;
      return [h('label', { for: 'share-' + i }, `Link for ${seatName(i)} (gives that seat)`),
        h('input', { id: 'share-' + i, type: 'text', readonly: true, value: url, onfocus: (e) => e.target.select() })];
    }));
    if (latest.undo_votes.length && !latest.over)
      share.prepend(h('p', { class: 'help' }, `Take-back asked by ${latest.undo_votes.map(seatName).join(', ')}`));
  }

  async function goto(ply) {
    if (ply < 0) ply = 0;
    if (ply >= latest.n_moves) { shown = null; render(); return; }
    if (!cache.has(ply)) {
      try { cache.set(ply, await api('GET', `games/${id}?ply=${ply}`)); } catch (e) { showError(e.message); return; }
    }
    shown = ply;
    render();
  }

  function accept(v) {
    if (v.version < latest.version) return;
    if (v.n_moves < latest.n_moves) cache.clear(); // an undo rewrote history
    latest = v;
    if (shown != null && shown >= latest.n_moves) shown = null;
    render();
  }

  async function play(text) {
    showError('');
    try {
      accept(await api('POST', `games/${id}/moves`, { move: text, tokens: heldTokens(id), ply: latest.n_moves }));
      return true;
    } catch (e) { showError(e.message); return false; }
  }

  async function doUndo() {
    showError('');
    try { accept(await api('POST', `games/${id}/undo`, { tokens: heldTokens(id) })); } catch (e) { showError(e.message); }
  }

  async function doResign() {
    if (!confirm('Resign this game?')) return;
    try { accept(await api('POST', `games/${id}/resign`, { tokens: heldTokens(id) })); } catch (e) { showError(e.message); }
  }

  function onKey(e) {
    if (e.target.closest('input, textarea, select')) return;
    if (e.key === 'ArrowLeft') prev.click();
    else if (e.key === 'ArrowRight' && !next.disabled) next.click();
  }
  document.addEventListener('keydown', onKey);

  // live updates: SSE, else poll every 2 s
  let source = null, timer = null;
  const poll = () => {
    timer = setTimeout(async () => {
      try { accept(await api('GET', `games/${id}`)); } catch { /* keep polling */ }
      poll();
    }, 2000);
  };
  if ('EventSource' in window) {
    source = new EventSource(`/api/games/${id}/events`);
    let failures = 0;
    source.addEventListener('state', (e) => { failures = 0; accept(JSON.parse(e.data)); });
    source.onerror = () => {
      if (++failures >= 3 && source) { source.close(); source = null; poll(); }
    };
  } else poll();

  render();
  cleanup = () => {
    document.removeEventListener('keydown', onKey);
    if (source) source.close();
    clearTimeout(timer);
    board.destroy();
  };
}

async function route() {
  cleanup();
  cleanup = () => {};
  showError('');
  const [path, query] = location.hash.replace(/^#/, '').split('?');
  const params = new URLSearchParams(query || '');
  const m = /^\/game\/(\d+)$/.exec(path || '');
  try {
    if (m) await gameView(Number(m[1]), params);
    else await lobby();
  } catch (e) {
    app.replaceChildren(h('p', {}, h('a', { href: '#/' }, 'Back to the lobby')));
    showError(e.message);
  }
}

window.addEventListener('hashchange', route);
route();
