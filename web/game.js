// game.js — the game page (#/game/<id>): the board module of the game, the
// seats (named as everywhere by ui.js), the status and the tab title, the
// move list (who moved, the last move marked) with replay and a paced
// play-through for games between computers, undo, resign, rematch, record
// download, this browser's share links and the links it hands out, and the
// rules. Live updates come by Server-Sent Events; when the stream breaks the
// page says whether the server can be reached, catches up with one request
// and takes the first state of every new stream as the truth (so a restarted
// server is followed without a reload); polling is the fallback.
// Invariant: `latest` is the newest view this page has; `shown` is the ply
// being replayed, or null for the live position.

import { api, addToken, heldTokens, loadTokens } from './api.js';
import { loadBoard } from './games/index.js';
import { html as h } from './games/svg.js';
import { errorSlot, nameSeatsIn, renderRules, seatBadge, seatName } from './ui.js';
import { startGame } from './lobby.js';

const SPEEDS = [['slow', 2000], ['normal', 800], ['fast', 250]]; // ms per move when playing through

export async function gameView(app, id, params) {
  const seatParam = Number(params.get('seat'));
  if (params.get('token') && Number.isInteger(seatParam) && seatParam >= 0 && seatParam < 8) {
    addToken(id, seatParam, params.get('token'));
    history.replaceState(null, '', `#/game/${id}`);
  }
  const [first, rules] = await Promise.all([api('GET', `games/${id}`), api('GET', 'rules').catch(() => null)]);
  let latest = first;
  let shown = null;          // ply shown when replaying, null = live
  const cache = new Map();   // ply -> view
  const mod = await loadBoard(latest.game);
  const boardBox = h('div', { class: 'board', tabindex: '-1', id: 'board' });
  const connection = h('p', { class: 'connection', id: 'connection', role: 'status', hidden: true });
  const status = h('p', { class: 'status', id: 'status', 'aria-live': 'polite' });
  const seatsList = h('ul', { class: 'seats', id: 'seat-list' });
  const movesList = h('ol', { class: 'moves', id: 'moves', start: '1' });
  const btn = (label, attrs, fn) => h('button', { type: 'button', class: 'secondary', ...attrs, onclick: fn }, label);
  const firstB = btn('«', { 'aria-label': 'first position', id: 'replay-first' }, () => { stopPlaying(); goto(0); });
  const prev = btn('‹', { 'aria-label': 'previous move', id: 'replay-prev' }, () => { stopPlaying(); goto((shown ?? latest.n_moves) - 1); });
  const next = btn('›', { 'aria-label': 'next move', id: 'replay-next' }, () => { stopPlaying(); goto((shown ?? latest.n_moves) + 1); });
  const last = btn('»', { 'aria-label': 'latest position', id: 'replay-last' }, () => { stopPlaying(); goto(latest.n_moves); });
  const playB = btn('▶', { 'aria-label': 'play the moves through', id: 'replay-play' }, () => (playing ? stopPlaying() : startPlaying()));
  const speed = h('select', { id: 'speed', 'aria-label': 'play-through speed' },
    SPEEDS.map(([name, ms]) => h('option', { value: String(ms) }, `${name} (${ms >= 1000 ? ms / 1000 + ' s' : ms + ' ms'} a move)`)));
  speed.value = localStorage.getItem('pips-speed') || '800';
  speed.addEventListener('change', () => localStorage.setItem('pips-speed', speed.value));
  const undo = btn('Undo', { id: 'undo' }, doUndo);
  const resign = btn('Resign', { id: 'resign' }, doResign);
  const rematch = btn('Rematch', { id: 'rematch', hidden: true }, doRematch);
  const record = h('a', { href: `/api/games/${id}/record`, download: `pips-${latest.game}-${id}.json`, id: 'record' }, 'Download record');
  const share = h('div', { class: 'share' });
  const handOut = h('div', { class: 'share handout', id: 'handout' });
  const replayRow = h('div', { class: 'row replay' }, firstB, prev, playB, next, last, speed);
  const actions = h('div', { class: 'row' }, undo, resign, rematch, record);
  const g = rules && rules.games.find((x) => x.name === latest.game);

  // "Text board": the generic view for any game (typed moves, move list)
  const generic = await loadBoard('');
  const textToggle = h('input', { type: 'checkbox', id: 'text-board' });
  textToggle.checked = localStorage.getItem('pips-text-board') === '1';
  const ctx = { play };
  let board = (textToggle.checked ? generic : mod).createBoard(boardBox, ctx);
  textToggle.addEventListener('change', () => {
    localStorage.setItem('pips-text-board', textToggle.checked ? '1' : '0');
    board.destroy();
    board = (textToggle.checked ? generic : mod).createBoard(boardBox, ctx);
    render();
  });
  const rulesBox = g ? h('details', { class: 'card', id: 'game-rules' }, h('summary', {}, `Rules of ${g.title}`),
    renderRules(`${g.rules}\n\n${g.notation}`)) : null;
  const rulesLink = g ? h('button', { type: 'button', class: 'secondary small', id: 'show-rules',
    onclick: () => { rulesBox.open = true; rulesBox.scrollIntoView({ block: 'start' }); } }, 'Rules') : null;
  app.replaceChildren(
    h('div', { class: 'row title-row' }, h('h1', {}, `${latest.title} — game #${id}`), rulesLink),
    h('div', { class: 'play' },
      h('div', { class: 'card' }, connection, seatsList, status, boardBox),
      h('div', {},
        h('div', { class: 'card' }, h('h2', {}, 'Moves'), movesList, replayRow),
        h('div', { class: 'card' }, actions,
          h('p', { class: 'row' }, textToggle, h('label', { for: 'text-board', style: 'margin:0' }, 'Text board')),
          handOut, share),
        rulesBox)));
  const moveError = errorSlot(status, 'move-error');
  const actionError = errorSlot(actions, 'action-error');
  const replayError = errorSlot(replayRow, 'replay-error');

  // the seats this browser holds (tokens are saved by seat index), less resigned ones
  function mySeats(v) {
    const saved = loadTokens(id);
    return v.seats.map((s, i) => s === 'human' && typeof saved[i] === 'string' && saved[i].length > 0
      && !v.result.resigned.includes(i));
  }

  // after a move made on the board the focus stays there (the cell clicked may be gone)
  function keepBoardFocus() {
    if (boardBox.contains(document.activeElement)) return;
    const target = boardBox.querySelector('[tabindex="0"], button:not([disabled]):not([hidden])');
    (target || boardBox).focus({ preventScroll: true });
  }

  function render() {
    const v = shown == null ? latest : cache.get(shown) || latest;
    const mine = mySeats(latest);
    const holdsAny = heldTokens(id).length > 0;
    const live = shown == null && !latest.over && latest.to_move != null && mine[latest.to_move];
    const hadFocus = boardBox.contains(document.activeElement);
    board.update(v, live);
    if (hadFocus) keepBoardFocus();   // a redrawn board keeps the keyboard's place on it
    const resigned = latest.result.resigned || [];
    seatsList.replaceChildren(...latest.seats.map((s, i) => h('li',
      { class: `${latest.to_move === i && !latest.over ? 'to-move' : ''}${resigned.includes(i) ? ' resigned' : ''}`, 'data-seat': i },
      seatBadge(latest, i), `: ${s === 'human' ? 'human' : 'computer ' + s}${mine[i] ? ' (you)' : ''}${resigned.includes(i) ? ' — resigned' : ''}`)));
    const mover = latest.to_move == null ? '' : seatName(latest, latest.to_move);
    let text, title;
    if (shown != null) { text = `${playing ? 'Playing through' : 'Replay'}: position after move ${shown} of ${latest.n_moves}`; title = 'Replay'; }
    else if (latest.over) { text = `Game over: ${nameSeatsIn(latest, latest.result.text)}`; title = 'Game over'; }
    else if (latest.ai_error) { text = `The computer failed: ${latest.ai_error}`; title = 'Error'; }
    else if (latest.thinking) { text = `${mover} (computer) is thinking…`; title = `${mover} to move`; }
    else if (live) { text = `Your move, ${mover}`; title = `Your move (${mover})`; }
    else if (latest.to_move == null) { text = 'Rolling…'; title = 'Rolling'; }
    else { text = `Waiting for ${mover}`; title = `${mover} to move`; }
    status.textContent = text;
    document.title = `${title} — ${latest.title} #${id} · pips`;
    status.classList.toggle('thinking', shown == null && !!latest.thinking && !latest.over);
    const at = shown ?? latest.n_moves;
    movesList.replaceChildren(...latest.moves.map((m, i) => h('li',
      { class: `${at === i + 1 ? 'current' : ''}${i + 1 === latest.n_moves ? ' last' : ''}`, 'data-seat': m.seat ?? '' },
      h('button', { type: 'button', 'aria-label': `position after move ${i + 1}: ${m.seat == null ? 'chance' : seatName(latest, m.seat)}, ${m.text}`,
        onclick: () => { stopPlaying(); goto(i + 1); } },
      m.seat == null ? h('span', { class: 'seat-name chance' }, 'dice') : seatBadge(latest, m.seat),
      h('span', { class: 'move-text' }, m.seat == null ? `(${m.text})` : m.text)))));
    // keep the current move in sight inside the scrolling list (not the page)
    const cur = movesList.querySelector('li.current');
    if (cur) movesList.scrollTop = Math.max(0, cur.offsetTop - movesList.clientHeight / 2);
    firstB.disabled = prev.disabled = at === 0;
    next.disabled = last.disabled = shown == null;
    playB.textContent = playing ? '⏸' : '▶';
    playB.setAttribute('aria-label', playing ? 'pause' : 'play the moves through');
    playB.disabled = !playing && latest.n_moves === 0;
    undo.disabled = !holdsAny || latest.n_moves === 0 || resigned.length > 0;
    resign.disabled = !mine.some(Boolean) || latest.over;
    rematch.hidden = !latest.over;
    drawLinks();
  }

  function linkRow(i, t, what) {
    const url = `${location.origin}/#/game/${id}?seat=${i}&token=${t}`;
    return [h('label', { for: `${what}-${i}` }, `Link for ${seatName(latest, i)} (gives that seat)`),
      h('input', { id: `${what}-${i}`, type: 'text', readonly: true, value: url, onfocus: (e) => e.target.select() })];
  }

  function drawLinks() {
    share.replaceChildren(...latest.seats.flatMap((s, i) => {
      const t = loadTokens(id)[i];
      return s === 'human' && t ? linkRow(i, t, 'share') : [];
    }));
    if (latest.undo_votes.length && !latest.over)
      share.prepend(h('p', { class: 'help' }, `Take-back asked by ${latest.undo_votes.map((i) => seatName(latest, i)).join(', ')}`));
    // links this browser made but does not keep (I play seat N): hand them out
    let out = [];
    try { out = JSON.parse(sessionStorage.getItem('pips-handout-' + id) || '[]'); } catch { out = []; }
    const rows = out.flatMap((t, i) => (t ? linkRow(i, t, 'handout') : []));
    handOut.hidden = rows.length === 0;
    if (rows.length)
      handOut.replaceChildren(h('h2', {}, 'Links to hand out'),
        h('p', { class: 'help' }, 'This browser does not hold these seats. Send each link to its player; then forget them here.'),
        ...rows, btn('Forget these links', { id: 'forget-handout' }, () => { sessionStorage.removeItem('pips-handout-' + id); drawLinks(); }));
  }

  async function goto(ply) {
    if (ply < 0) ply = 0;
    if (ply >= latest.n_moves) { shown = null; render(); return; }
    if (!cache.has(ply)) {
      try { cache.set(ply, await api('GET', `games/${id}?ply=${ply}`)); } catch (e) { replayError(e.message); return; }
    }
    replayError('');
    shown = ply;
    render();
  }

  // playing through: one move every `speed` ms; moves that arrive meanwhile
  // (computers playing) wait their turn
  let playing = false, playTimer = null, paceAt = 0;
  function startPlaying() {
    playing = true;
    paceAt = shown ?? 0;
    step();
  }
  function stopPlaying() {
    playing = false;
    clearTimeout(playTimer);
    render();
  }
  async function step() {
    if (!playing) return;
    await goto(paceAt);
    if (paceAt >= latest.n_moves && latest.over) { stopPlaying(); return; }
    playTimer = setTimeout(() => {
      if (!playing) return;
      paceAt = Math.min(paceAt + 1, latest.n_moves);
      step();
    }, Number(speed.value));
  }

  function accept(v, fresh = false) {
    // a fresh stream's first state is the truth (a restarted server may count versions anew)
    if (!fresh && v.version < latest.version) return;
    // an undo (or a restart with a different history) rewrote the moves: replayed positions are stale
    if (v.n_moves < latest.n_moves || v.moves.some((m, i) => i < latest.moves.length && latest.moves[i].text !== m.text))
      cache.clear();
    if (playing && shown == null && v.n_moves > paceAt) { cache.set(paceAt, latest); shown = paceAt; }
    latest = v;
    if (shown != null && shown >= latest.n_moves) shown = null;
    render();
  }

  async function play(text) {
    moveError('');
    const fromBoard = boardBox.contains(document.activeElement) || document.activeElement === document.body;
    try {
      const v = await api('POST', `games/${id}/moves`, { move: text, tokens: heldTokens(id), ply: latest.n_moves });
      accept(v);
      if (fromBoard) keepBoardFocus();
      return true;
    } catch (e) { moveError(e.message); return false; }
  }

  async function doUndo() {
    actionError('');
    try { accept(await api('POST', `games/${id}/undo`, { tokens: heldTokens(id) })); } catch (e) { actionError(e.message); }
  }

  async function doResign() {
    const others = latest.seats.length - (latest.result.resigned || []).length - 1;
    if (!confirm(others >= 2 ? 'Resign? The others play on without you.' : 'Resign this game?')) return;
    actionError('');
    try { accept(await api('POST', `games/${id}/resign`, { tokens: heldTokens(id) })); } catch (e) { actionError(e.message); }
  }

  // the same game, options and seats; this browser keeps the seats it held
  async function doRematch() {
    actionError('');
    const saved = loadTokens(id);
    const humans = latest.seats.map((s, i) => (s === 'human' ? i : -1)).filter((i) => i >= 0);
    const held = humans.filter((i) => saved[i]);
    const only = held.length === 1 && humans.length > 1 ? held[0] : null;
    try { await startGame({ game: latest.game, options: latest.options, seats: latest.seats }, only); } catch (e) { actionError(e.message); }
  }

  function onKey(e) {
    if (e.target.closest('input, textarea, select')) return;
    if (e.key === 'ArrowLeft') prev.click();
    else if (e.key === 'ArrowRight' && !next.disabled) next.click();
  }
  document.addEventListener('keydown', onKey);

  // live updates: SSE; when it breaks, one GET catches up and tells whether
  // the server is there; polling every 2 s when streams keep failing
  let source = null, timer = null, retry = null, streamErrors = 0, fresh = false, closed = false;
  const online = (ok) => {
    connection.hidden = ok;
    connection.textContent = ok ? '' : 'The server cannot be reached: waiting for it to come back…';
  };
  const catchUp = async () => {
    try { accept(await api('GET', `games/${id}`), true); online(true); return true; } catch { online(false); return false; }
  };
  const poll = () => {
    timer = setTimeout(async () => { await catchUp(); if (!closed) poll(); }, 2000);
  };
  function openStream() {
    source = new EventSource(`/api/games/${id}/events`);
    source.addEventListener('open', () => { fresh = true; });
    source.addEventListener('state', (e) => {
      streamErrors = 0;
      online(true);
      accept(JSON.parse(e.data), fresh);
      fresh = false;
    });
    source.onerror = async () => {
      const s = source;
      const up = await catchUp();
      if (closed || s !== source) return;
      if (up && ++streamErrors >= 3) { s.close(); source = null; poll(); return; }
      // a stream the browser gave up on (not retrying by itself): open a new one
      if (s.readyState === EventSource.CLOSED) { source = null; retry = setTimeout(openStream, 2000); }
    };
  }
  if ('EventSource' in window) openStream(); else poll();

  if (sessionStorage.getItem('pips-watch-' + id)) {   // computers only, just started: watch from the start
    sessionStorage.removeItem('pips-watch-' + id);
    shown = latest.n_moves > 0 ? 0 : null;
    startPlaying();
  }
  render();
  return () => {
    closed = true;
    document.removeEventListener('keydown', onKey);
    if (source) source.close();
    clearTimeout(timer);
    clearTimeout(retry);
    clearTimeout(playTimer);
    board.destroy();
  };
}
