// game.js — the game page (#/game/<id>): the board module of the game, the
// seats (named as everywhere by ui.js), the status and the tab title, the
// move list (who moved, the last move marked) with replay and a paced
// play-through for games between computers, undo, resign, rematch, record
// download, this browser's share links and the links it hands out, and the
// rules. Live updates come by Server-Sent Events; when the stream breaks the
// page says whether the server can be reached, catches up with one request
// and takes the first state of every new stream as the truth (so a restarted
// server is followed without a reload); polling is the fallback.
// The Perfect play switch (off by default, only where the view says `hints`
// apply) asks GET /api/games/{id}/hints for every position shown and marks
// each legal move win/loss/draw, or says the solver could not settle it.
// Take-backs are by consent (issue 27): the asker's request shows Accept /
// Decline to every other human seat held here. Clocks count down from the
// view's `clock` (the server is the authority: it charges the time and lets
// a flag fall by itself). Tokens are checked on load (`held`), so a stale or
// foreign seat link is reported at once and the page says "watching".
// Invariant: `latest` is the newest view this page has; `shown` is the ply
// being replayed, or null for the live position.

import { api, addToken, dropToken, heldTokens, loadTokens } from './api.js';
import { loadBoard } from './games/index.js';
import { html as h } from './games/svg.js';
import { clockText, copyButton, errorSlot, nameSeatsIn, rulesWithDetail, seatBadge, seatName, svgIcon } from './ui.js';
import { startGame } from './lobby.js';

const SPEEDS = [['slow', 2000], ['normal', 800], ['fast', 250]]; // ms per move when playing through

export async function gameView(app, id, params, current = () => true) {
  const seatParam = Number(params.get('seat'));
  if (params.get('token') && Number.isInteger(seatParam) && seatParam >= 0 && seatParam < 8) {
    addToken(id, seatParam, params.get('token'));
    history.replaceState(null, '', `#/game/${id}`);
  }
  // with the tokens this browser keeps: "held" says which still hold a seat
  const kept = heldTokens(id);
  const rulesAsked = api('GET', 'rules').catch(() => null);
  let first;
  try {
    first = await api('GET', `games/${id}`, undefined, kept.length ? { 'X-Pips-Token': kept.join(',') } : {});
  } catch (e) {
    if (e.status === 404) e.notFound = true;
    throw e;
  }
  const rules = await rulesAsked;
  const stale = [];
  if (Array.isArray(first.held))
    loadTokens(id).forEach((t, i) => {
      if (typeof t === 'string' && t && !first.held.includes(i)) { stale.push(i); dropToken(id, i); }
    });
  let latest = first;
  let shown = null;          // ply shown when replaying, null = live
  const cache = new Map();   // ply -> view
  const mod = await loadBoard(latest.game);
  const boardBox = h('div', { class: 'board', tabindex: '-1', id: 'board' });
  const connection = h('p', { class: 'connection', id: 'connection', role: 'status', hidden: true });
  const notice = h('p', { class: 'notice', id: 'seat-notice', role: 'status', hidden: stale.length === 0 },
    stale.length ? `The link for ${stale.map((i) => `Player ${i + 1}`).join(', ')} does not hold that seat in this game (it is stale or from another game), so this browser is watching.` : '');
  const watching = h('span', { class: 'watching', id: 'watching', hidden: true }, svgIcon('eye'), ' Watching');
  const undoBox = h('div', { class: 'undo-request', id: 'undo-request', role: 'alert', hidden: true });
  const status = h('p', { class: 'status', id: 'status', 'aria-live': 'polite' });
  const seatsList = h('ul', { class: 'seats', id: 'seat-list' });
  const movesList = h('ol', { class: 'moves', id: 'moves', start: '1' });
  const btn = (label, attrs, fn) => h('button', { type: 'button', class: 'secondary', ...attrs, onclick: fn }, label);
  const firstB = btn('«', { 'aria-label': 'first position', id: 'replay-first' }, () => { stopPlaying(); goto(0); });
  const prev = btn('‹', { 'aria-label': 'previous move', id: 'replay-prev' }, () => { stopPlaying(); goto((shown ?? latest.n_moves) - 1); });
  const next = btn('›', { 'aria-label': 'next move', id: 'replay-next' }, () => { stopPlaying(); goto((shown ?? latest.n_moves) + 1); });
  const last = btn('»', { 'aria-label': 'latest position', id: 'replay-last' }, () => { stopPlaying(); goto(latest.n_moves); });
  const playB = btn(svgIcon('play'), { 'aria-label': 'play the moves through', id: 'replay-play' }, () => (playing ? stopPlaying() : startPlaying()));
  const speed = h('select', { id: 'speed', 'aria-label': 'play-through speed' },
    SPEEDS.map(([name, ms]) => h('option', { value: String(ms) }, `${name} (${ms >= 1000 ? ms / 1000 + ' s' : ms + ' ms'} a move)`)));
  speed.value = localStorage.getItem('pips-speed') || '800';
  speed.addEventListener('change', () => localStorage.setItem('pips-speed', speed.value));
  const undo = btn('Take back', { id: 'undo', title: 'Ask to take back your last move' }, () => doUndo(false));
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
  // perfect-play hints by position (ply and state text): the answer, or null while asked
  const hintsOn = h('input', { type: 'checkbox', id: 'perfect-play' });
  const hintsRow = h('p', { class: 'row', id: 'perfect-play-row' }, hintsOn,
    h('label', { for: 'perfect-play', style: 'margin:0' }, 'Perfect play'));
  const hintsBox = h('div', { class: 'hints', id: 'hints', 'aria-live': 'polite', hidden: true });
  const hintCache = new Map();
  let hintsShown = null;    // the answer for the position on screen, if any
  const hint = (text) => {
    const m = hintsShown && hintsShown.status === 'solved' && hintsShown.moves.find((x) => x.move === text);
    return m ? m.value : null;
  };
  hintsOn.addEventListener('change', () => render());
  const ctx = { play, hint, explain, describe: (text) => nameSeatsIn(latest, text) };
  let board = (textToggle.checked ? generic : mod).createBoard(boardBox, ctx);
  textToggle.addEventListener('change', () => {
    localStorage.setItem('pips-text-board', textToggle.checked ? '1' : '0');
    board.destroy();
    board = (textToggle.checked ? generic : mod).createBoard(boardBox, ctx);
    render();
  });
  const rulesBox = g ? h('details', { class: 'card', id: 'game-rules' }, h('summary', {}, `Rules of ${g.title}`),
    rulesWithDetail(`${g.rules}\n\n${g.notation}`, 'game-rules-ids')) : null;
  const rulesLink = g ? h('button', { type: 'button', class: 'secondary small', id: 'show-rules',
    onclick: () => { rulesBox.open = true; rulesBox.scrollIntoView({ block: 'start' }); } }, 'Rules') : null;
  if (!current()) { board.destroy(); return () => {}; }   // the address changed while this page loaded
  app.replaceChildren(
    h('div', { class: 'row title-row' }, h('h1', {}, `${latest.title} — game #${id}`), watching, rulesLink),
    h('div', { class: 'play' },
      h('div', { class: 'card board-card' }, connection, notice, seatsList, status, undoBox, boardBox, hintsBox),
      h('div', {},
        h('div', { class: 'card' }, h('h2', {}, 'Moves'), movesList, replayRow),
        h('div', { class: 'card' }, actions,
          h('p', { class: 'row' }, textToggle, h('label', { for: 'text-board', style: 'margin:0' }, 'Text board')),
          hintsRow,
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

  // the board's drawing is as tall as the window allows below what is above it
  // (and the board's own controls under it), so it fits without scrolling
  function fitBoard() {
    const svgs = [...boardBox.querySelectorAll('svg')].filter((e) => !e.classList.contains('icon') && !e.classList.contains('ui-icon'));
    const area = (e) => { const b = e.getBoundingClientRect(); return b.width * b.height; };
    const svg = svgs.sort((x, y) => area(y) - area(x))[0];
    if (!svg) return;
    svg.style.maxHeight = '';
    const box = svg.getBoundingClientRect();
    const below = Math.min(90, Math.max(0, boardBox.getBoundingClientRect().bottom - box.bottom));   // its own controls, not long lists
    svg.style.maxHeight = `${Math.max(180, Math.floor(innerHeight - (box.top + scrollY) - below - 12))}px`;
  }
  window.addEventListener('resize', fitBoard);

  // the hints answer for view v: cached, or asked for (render() again when it comes)
  function hintsFor(v) {
    if (!hintsOn.checked || !latest.hints || v.over || v.to_move == null) return null;
    const key = `${v.ply}|${v.state}`;
    if (hintCache.has(key)) return hintCache.get(key);
    hintCache.set(key, null);
    api('GET', `games/${id}/hints${v.ply < latest.n_moves ? `?ply=${v.ply}` : ''}`)
      .then((a) => a, (e) => ({ status: 'error', reason: e.message, busy: e.status === 503, over: e.status === 409 }))
      .then((a) => {
        if (a.over && latest.over) { hintCache.delete(key); return; }   // the game ended meanwhile: nothing to say
        if (a.busy) { hintCache.delete(key); setTimeout(() => { if (!closed) render(); }, 1500); return; }   // another solve running
        hintCache.set(key, a);
        if (!closed) render();
      });
    return null;
  }

  // a headline first ("You can win: 3 of 18 moves win"), then the moves grouped by value
  function drawHints(v) {
    const ended = latest.over && shown == null;
    hintsRow.hidden = !latest.hints || ended;
    hintsBox.hidden = !hintsOn.checked || !latest.hints || ended || v.over || v.to_move == null;
    if (hintsBox.hidden) return;
    const a = hintsShown;
    const mover = v.to_move == null ? '' : seatName(latest, v.to_move);
    const you = shown == null && mySeats(latest)[v.to_move];
    const who = you ? 'You' : mover;
    const headline = (value, text, title) => h('p', { class: `hints-headline hint-${value}`, id: 'hints-value', 'data-value': value, title }, text);
    if (!a) hintsBox.replaceChildren(headline('solving', 'Solving…'));
    else if (a.status === 'solved') {
      const groups = { win: [], draw: [], loss: [] };
      for (const m of a.moves) groups[m.value].push(m);
      const n = a.moves.length;
      const text = a.value === 'win' ? `${who} can win: ${groups.win.length} of ${n} move${n === 1 ? '' : 's'} win${groups.win.length === 1 ? 's' : ''}`
        : a.value === 'draw' ? `Draw with best play: ${groups.draw.length} of ${n} move${n === 1 ? '' : 's'} hold${groups.draw.length === 1 ? 's' : ''} the draw`
          : n === 1 ? 'The only move loses' : 'Every move loses';
      const names = { win: 'Winning moves', draw: 'Drawing moves', loss: 'Losing moves' };
      hintsBox.replaceChildren(headline(a.value, text),
        ...['win', 'draw', 'loss'].filter((k) => groups[k].length).map((k) =>
          h('details', { class: `hints-group hints-${k}`, open: k === a.value || null },
            h('summary', {}, `${names[k]} (${groups[k].length})`),
            h('ul', { class: 'hints-list', 'aria-label': names[k] },
              groups[k].map((m) => h('li', { class: `hint hint-${m.value}`, 'data-move': m.move, 'data-hint': m.value }, m.move))))));
    } else if (a.status === 'unknown')
      hintsBox.replaceChildren(headline('unknown', 'Too many positions to settle in a second; try again a few moves later.', a.reason));
    else hintsBox.replaceChildren(headline('error', `Perfect play is not available here (${a.reason})`));
  }

  function render() {
    const v = shown == null ? latest : cache.get(shown) || latest;
    hintsShown = hintsFor(v);
    const mine = mySeats(latest);
    const live = shown == null && !latest.over && latest.to_move != null && mine[latest.to_move];
    const hadFocus = boardBox.contains(document.activeElement);
    board.update(v, live);
    fitBoard();
    if (hadFocus) keepBoardFocus();   // a redrawn board keeps the keyboard's place on it
    const resigned = latest.result.resigned || [];
    const onTime = latest.result.on_time || [];
    seatsList.replaceChildren(...latest.seats.map((s, i) => h('li',
      { class: `${latest.to_move === i && !latest.over ? 'to-move' : ''}${resigned.includes(i) ? ' resigned' : ''}`, 'data-seat': i },
      seatBadge(latest, i), `: ${s === 'human' ? 'human' : 'computer ' + s}${mine[i] ? ' (you)' : ''}${onTime.includes(i) ? ' — out of time' : resigned.includes(i) ? ' — resigned' : ''}`,
      latest.clock ? h('span', { class: 'clock', 'data-clock': i }, svgIcon('clock'), h('span', { class: 'clock-time' })) : null)));
    drawClocks();
    watching.hidden = mine.some(Boolean);
    drawUndo(mine);
    const mover = latest.to_move == null ? '' : seatName(latest, latest.to_move);
    let text, title;
    if (shown != null) { text = `${playing ? 'Playing through' : 'Replay'}: position after move ${shown} of ${latest.n_moves}`; title = 'Replay'; }
    else if (latest.over) { text = `Game over: ${nameSeatsIn(latest, latest.result.text)}`; title = 'Game over'; }
    else if (latest.ai_error) { text = `The computer failed: ${latest.ai_error}`; title = 'Error'; }
    else if (latest.thinking) { text = `${mover} (computer) is thinking`; title = `${mover} to move`; }
    else if (live) { text = `Your move, ${mover}`; title = `Your move (${mover})`; }
    else if (latest.to_move == null) { text = 'Rolling…'; title = 'Rolling'; }
    else { text = `Waiting for ${mover}`; title = `${mover} to move`; }
    status.replaceChildren(text, shown == null && latest.thinking && !latest.over ? svgIcon('hourglass', 'thinking') : '');
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
    playB.replaceChildren(svgIcon(playing ? 'pause' : 'play'));
    playB.setAttribute('aria-label', playing ? 'pause' : 'play the moves through');
    playB.disabled = !playing && latest.n_moves === 0;
    undo.disabled = !mine.some(Boolean) || latest.n_moves === 0 || (latest.over && resigned.length > 0) || !!latest.undo_request;
    resign.disabled = !mine.some(Boolean) || latest.over;
    rematch.hidden = !latest.over;
    drawHints(v);
    drawLinks();
  }

  // the clocks: the server's remaining time at as_of, counted down here. A
  // view may be older than its arrival (event streams share one rendering per
  // change), so the page keeps the smallest gap seen between its clock and the
  // server's as_of (the offset plus the fastest delivery) and counts from as_of.
  let clockOffset = null, clockTimer = null;
  function noteClock(v) {
    if (!v.clock) return;
    const d = Date.now() - v.clock.as_of;
    clockOffset = clockOffset == null ? d : Math.min(clockOffset, d);
  }
  noteClock(latest);
  function drawClocks() {
    const c = latest.clock;
    clearTimeout(clockTimer);
    if (!c) return;
    const gone = Math.max(0, Date.now() - clockOffset - c.as_of);
    for (const span of seatsList.querySelectorAll('[data-clock]')) {
      const i = Number(span.dataset.clock);
      const left = c.remaining_ms[i] - (c.running === i ? gone : 0);
      span.querySelector('.clock-time').textContent = clockText(left);
      span.classList.toggle('running', c.running === i);
      span.classList.toggle('low', left < 10000);
      span.setAttribute('aria-label', `${seatName(latest, i)}: ${clockText(left)} left`);
    }
    if (c.running != null && !latest.over) clockTimer = setTimeout(drawClocks, 100);
  }

  // a take-back request: Accept / Decline for the seats asked, "waiting" for the asker
  function drawUndo(mine) {
    const u = latest.undo_request;
    undoBox.hidden = !u || shown != null;
    if (undoBox.hidden) return;
    const asker = seatName(latest, u.by);
    const waitingMine = u.waiting.filter((i) => mine[i]);
    const waitNames = u.waiting.map((i) => seatName(latest, i)).join(' and ');
    if (waitingMine.length)
      undoBox.replaceChildren(h('p', {}, `${asker} asks to take back their last move (and every move after it).`),
        h('div', { class: 'row' }, btn('Accept', { id: 'undo-accept', class: '' }, () => doUndo(false)),
          btn('Decline', { id: 'undo-decline' }, () => doUndo(true))));
    else if (mine[u.by])
      undoBox.replaceChildren(h('p', {}, `You asked to take back your last move; waiting for ${waitNames}.`),
        h('div', { class: 'row' }, btn('Withdraw', { id: 'undo-withdraw' }, () => doUndo(true))));
    else undoBox.replaceChildren(h('p', {}, `${asker} asks to take back their last move; waiting for ${waitNames}.`));
  }

  function linkRow(i, t, what) {
    const url = `${location.origin}/#/game/${id}?seat=${i}&token=${t}`;
    return [h('label', { for: `${what}-${i}` }, `Link for ${seatName(latest, i)} (gives that seat)`),
      h('div', { class: 'row link-row' },
        h('input', { id: `${what}-${i}`, type: 'text', readonly: true, value: url, onfocus: (e) => e.target.select() }),
        copyButton(`copy-${what}-${i}`, () => url, `the link for ${seatName(latest, i)}`))];
  }

  function drawLinks() {
    const watchUrl = `${location.origin}/#/game/${id}`;
    share.replaceChildren(...latest.seats.flatMap((s, i) => {
      const t = loadTokens(id)[i];
      return s === 'human' && t ? linkRow(i, t, 'share') : [];
    }), h('label', { for: 'watch-link' }, 'Link to watch (gives no seat)'),
    h('div', { class: 'row link-row' },
      h('input', { id: 'watch-link', type: 'text', readonly: true, value: watchUrl, onfocus: (e) => e.target.select() }),
      copyButton('copy-watch', () => watchUrl, 'the link to watch')));
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
    noteClock(v);
    if (shown != null && shown >= latest.n_moves) shown = null;
    render();
  }

  // one move at a time: a double click (or a second tap before the answer) sends one move
  let sending = false;
  async function play(text) {
    if (sending) return false;
    sending = true;
    moveError('');
    const fromBoard = boardBox.contains(document.activeElement) || document.activeElement === document.body;
    try {
      const v = await api('POST', `games/${id}/moves`, { move: text, tokens: heldTokens(id), ply: latest.n_moves });
      accept(v);
      if (fromBoard) keepBoardFocus();
      return true;
    } catch (e) {   // an illegal move (422) says what was tried, then the library's reason
      moveError(e.status === 422 ? `${text} is not allowed: ${e.message}` : e.message);
      return false;
    } finally { sending = false; }
  }

  // a click on something that is not a legal move: the library says why (and
  // cites its ruling); `what` names the attempt ("Mh0-b3 is not allowed")
  async function explain(text, what = `${text} is not allowed`) {
    if (sending || shown != null || latest.over) return;
    try {
      await api('POST', `games/${id}/moves`, { move: text, tokens: heldTokens(id), ply: latest.n_moves, check: true });
      moveError('');
    } catch (e) { moveError(`${what}: ${e.message}`); }
  }

  async function doUndo(decline) {
    actionError('');
    try { accept(await api('POST', `games/${id}/undo`, { tokens: heldTokens(id), ...(decline ? { decline: true } : {}) })); } catch (e) { actionError(e.message); }
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
    const clock = latest.clock ? { initial: latest.clock.initial, increment: latest.clock.increment } : undefined;
    try { await startGame({ game: latest.game, options: latest.options, seats: latest.seats, clock }, only); } catch (e) { actionError(e.message); }
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
    if (ok && !connection.hidden) {   // back: what failed while it was away no longer applies
      moveError('');
      actionError('');
      const top = document.getElementById('error');
      if (top) { top.textContent = ''; top.hidden = true; }
    }
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
  window.scrollTo(0, 0);   // a new game opens at the board, not where the lobby was scrolled
  return () => {
    closed = true;
    clearTimeout(clockTimer);
    window.removeEventListener('resize', fitBoard);
    document.removeEventListener('keydown', onKey);
    if (source) source.close();
    clearTimeout(timer);
    clearTimeout(retry);
    clearTimeout(playTimer);
    board.destroy();
  };
}
