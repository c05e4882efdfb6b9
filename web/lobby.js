// lobby.js — the lobby (#/): a new game built from the option schema of
// GET /api/rules (a number field, checkbox or select per option, with its
// description), seats that follow the chosen options (GET /api/agents says
// how many players and which agents can play them, so nothing offered is
// refused), "I play seat N" (this browser keeps only that seat's token and
// hands the other links out), a record upload, the rules and saved games.
// Each error shows beside the control that caused it.
// In plain words (issue 27): options are named for people, shown only where
// they apply, their ruling ids in a "Rules detail" fold; levels are Easy,
// Medium, Hard and Strongest with a line each (the resolved specs in a fold);
// the Nimitz board is chosen from drawings or drawn on a grid.

import { api, heldTokens, saveTokens } from './api.js';
import { html as h } from './games/svg.js';
import { errorSlot, rulesWithDetail } from './ui.js';

const LEVEL_ORDER = ['easy', 'medium', 'hard', 'max'];
const CLOCKS = [['none', 'No clock'], ['3+2', '3 minutes + 2 seconds a move'], ['5+3', '5 minutes + 3 seconds a move'],
  ['15+10', '15 minutes + 10 seconds a move'], ['custom', 'Custom…']];

const LEVELS = {
  easy: ['Easy', 'plays fast and makes plain mistakes: for learning the rules'],
  medium: ['Medium', 'a fair game for a casual player'],
  hard: ['Hard', 'searches well ahead: strong for most people'],
  max: ['Strongest', 'the strongest player pips has for this game; may think a few seconds a move'],
};
const KINDS = { random: 'Random moves', greedy: 'Greedy (best next move only)' };

// option names for people; keys not listed are spelled out from the key
const LABELS = {
  players: 'Players', stashes: 'Stashes', max_plies: 'Moves before a draw', mode: 'Mode',
  omit: 'Colour left out', pair: 'Colours', move_die: 'Movement die', action_die: 'Action die',
  queen: 'Queens', queen_height: "Queen's place in the Start pile", first: 'First colour',
  turn_direction: 'Turn order', max_turns: 'Colour-turns before a draw', capture_to: 'Captured pieces go to',
  multi_attacker: 'Attackers a medium or large needs', turn_cap: 'Turns before the end', table: 'Table size (mm)',
  first_player: 'First player', candidates: "Computer's candidate moves", board: 'Board', sets: 'Treehouse sets',
  colors: 'Colours in play', misere: 'Misère: the last placement loses', tree_orientation: 'Pieces on a stack',
};

/* Where an option applies, given the options' current values (the others
 * are hidden and not sent, so the game's default stands). */
const APPLIES = {
  ziggurat: {
    omit: (o) => Number(o.players) === 3 && o.mode === 'standard',
    pair: (o) => Number(o.players) === 2 && o.mode === 'standard',
    mode: (o) => Number(o.players) !== 3,
    queen_height: (o) => o.queen === true,
  },
};

/* Choices that apply only with some options (the others are not offered). */
const CHOICE_APPLIES = {
  ziggurat: { mode: { two_colour: (o) => Number(o.players) === 2, teams: (o) => Number(o.players) === 4 } },
};

/* "max_plies" -> "Max plies" */
function optionLabel(key) {
  if (LABELS[key]) return LABELS[key];
  const s = key.replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

const RULING = /\b[A-Z]{2,4}-R\d+[a-z]?\b/g;

/* A description without its ruling ids, and the ids: "players (ICF-R2; 4-6
 * experimental, ICF-R10)" -> ["players (4-6 experimental)", ["ICF-R2", "ICF-R10"]] */
export function plainDescription(text) {
  const ids = String(text || '').match(RULING) || [];
  const plain = String(text || '').replace(/\(([^()]*)\)/g, (all, inner) => {
    const rest = inner.replace(RULING, '').replace(/^[\s;,]+|[\s;,]+$/g, '').replace(/\s*[;,]\s*[;,]\s*/g, '; ');
    return rest ? `(${rest})` : '';
  }).replace(RULING, '').replace(/\s+([.,;)])/g, '$1').replace(/\s{2,}/g, ' ').trim();
  return [plain, ids];
}

/* One form field for an option of the schema. Its value() is what goes into
 * the options object (a number, a boolean or a string). */
function optionField(o) {
  const id = 'opt-' + o.key;
  const common = { id, 'data-key': o.key, 'aria-describedby': 'help-' + o.key };
  let input, value, extra = null;
  if (o.type === 'bool') {
    input = h('input', { ...common, type: 'checkbox' });
    input.checked = o.default === 'true';
    value = () => input.checked;
  } else if (o.type === 'choice') {
    input = h('select', common, o.choices.map((c) => h('option', { value: c }, c)));
    input.value = o.default;
    value = () => input.value;
  } else if (o.type === 'int' && !(o.words && o.words.length)) {
    input = h('input', { ...common, type: 'number', step: '1', min: o.min, max: o.max, value: o.default, required: true });
    value = () => Number(input.value);
  } else {  // text, or a number that may also be a word such as "auto"
    const list = o.words && o.words.length ? `words-${o.key}` : null;
    input = h('input', { ...common, type: 'text', value: o.default, required: true, list,
      inputmode: o.type === 'int' ? 'numeric' : null });
    value = () => {
      const t = input.value.trim();
      return o.type === 'int' && /^-?\d+$/.test(t) ? Number(t) : t;
    };
    if (list) extra = h('datalist', { id: list }, o.words.map((w) => h('option', { value: w })));
  }
  const range = o.type === 'int' ? ` (${o.min}–${o.max}${o.words && o.words.length ? ` or ${o.words.join(', ')}` : ''})` : '';
  const [plain, ids] = plainDescription(o.description);
  const help = h('p', { class: 'help', id: 'help-' + o.key },
    `${plain.charAt(0).toUpperCase()}${plain.slice(1)}${range}${o.type === 'text' && o.pattern && o.key !== 'board' ? `; ${o.pattern}` : ''}. Default ${o.default}.`);
  const detail = ids.length ? h('details', { class: 'rules-detail', id: 'rules-' + o.key },
    h('summary', {}, 'Rules detail'), h('p', { class: 'help' }, `${o.description} — see ${ids.join(', ')} in the rules.`)) : null;
  const picker = o.key === 'board' && o.type === 'text' ? boardPicker(input) : null;
  const box = o.type === 'bool'
    ? h('div', { class: 'opt', 'data-opt': o.key }, h('p', { class: 'row check' }, input, h('label', { for: id }, optionLabel(o.key))), help, detail)
    : h('div', { class: 'opt', 'data-opt': o.key }, h('label', { for: id }, optionLabel(o.key)), picker, input, extra, help, detail);
  return { box, input, value, key: o.key, isDefault: () => String(value()) === o.default };
}

/* A small drawing of a Nimitz board: rows of '#' (cell) and '.' (hole). */
function boardDrawing(rows, size = 54) {
  const NS = 'http://www.w3.org/2000/svg';
  const n = Math.max(rows.length, rows[0].length), c = size / n;
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
  svg.setAttribute('width', size);
  svg.setAttribute('height', size);
  svg.setAttribute('aria-hidden', 'true');
  rows.forEach((row, r) => [...row].forEach((ch, k) => {
    if (ch !== '#') return;
    const q = document.createElementNS(NS, 'rect');
    q.setAttribute('x', k * c + 1); q.setAttribute('y', r * c + 1);
    q.setAttribute('width', c - 2); q.setAttribute('height', c - 2); q.setAttribute('rx', 1.5);
    q.setAttribute('class', 'nb-cell');
    svg.append(q);
  }));
  return svg;
}

const full = (r, c) => Array.from({ length: r }, () => '#'.repeat(c));

/* The Nimitz board as drawings to choose from: the coaster, the volcano, a
 * rectangle (rows x columns) or a layout drawn on a 6x6 grid. It writes the
 * option's text field (still there to type any board) and fires 'change'. */
function boardPicker(input) {
  const set = (v) => { input.value = v; input.dispatchEvent(new Event('change')); mark(); };
  const rows = h('input', { type: 'number', min: '1', max: '8', value: '4', id: 'board-rows', 'aria-label': 'rows' });
  const cols = h('input', { type: 'number', min: '1', max: '8', value: '4', id: 'board-cols', 'aria-label': 'columns' });
  const N = 6;
  const drawn = Array.from({ length: N }, (_, r) => Array.from({ length: N }, (_, c) => r > 0 && r < 5 && c > 0 && c < 5));
  const layout = () => {   // the drawn cells' bounding box as rows joined by '/'
    const rs = drawn.map((row, r) => (row.some(Boolean) ? r : -1)).filter((r) => r >= 0);
    const cs = [...Array(N).keys()].filter((c) => drawn.some((row) => row[c]));
    if (!rs.length) return '#';
    return rs.length && Array.from({ length: rs[rs.length - 1] - rs[0] + 1 }, (_, i) =>
      cs.length ? Array.from({ length: cs[cs.length - 1] - cs[0] + 1 }, (_, j) => (drawn[rs[0] + i][cs[0] + j] ? '#' : '.')).join('') : '').join('/');
  };
  const grid = h('div', { class: 'nb-grid', id: 'board-grid', role: 'group', 'aria-label': 'draw the board: each square a cell or a hole' },
    drawn.flatMap((row, r) => row.map((on, c) => {
      const b = h('button', { type: 'button', class: 'nb-sq', 'data-r': r, 'data-c': c, 'aria-pressed': String(on), 'aria-label': `row ${r + 1} column ${c + 1}` });
      b.addEventListener('click', () => { drawn[r][c] = !drawn[r][c]; b.setAttribute('aria-pressed', String(drawn[r][c])); set(layout()); });
      return b;
    })));
  const choice = (value, label, rowsOf, extra) => {
    const b = h('button', { type: 'button', class: 'nb-choice', 'data-board': value, 'aria-pressed': 'false' },
      boardDrawing(rowsOf), h('span', {}, label));
    b.addEventListener('click', () => { kind = value; set(value === 'rect' ? `${rows.value}x${cols.value}` : value === 'draw' ? layout() : value); });
    return [b, extra];
  };
  let kind = 'coaster';
  const choices = h('div', { class: 'nb-choices', role: 'group', 'aria-label': 'board' },
    choice('coaster', 'Martian Coaster (3×3)', full(3, 3)), choice('volcano', 'Volcano (5×5)', full(5, 5)),
    choice('rect', 'Rectangle', full(3, 4)), choice('draw', 'Draw your own', ['.##.', '####', '##..']));
  const rectBox = h('div', { class: 'row nb-rect', hidden: true }, rows, h('span', {}, '×'), cols);
  for (const f of [rows, cols]) f.addEventListener('input', () => { if (kind === 'rect') set(`${rows.value}x${cols.value}`); });
  function mark() {
    const v = input.value.trim();
    kind = v === 'coaster' || v === 'volcano' ? v : /^\d+x\d+$/.test(v) ? 'rect' : /^[#.]/.test(v) ? 'draw' : kind;
    for (const b of choices.querySelectorAll('.nb-choice')) b.setAttribute('aria-pressed', String(b.dataset.board === kind));
    rectBox.hidden = kind !== 'rect';
    grid.hidden = kind !== 'draw';
  }
  input.addEventListener('input', mark);
  setTimeout(mark);
  return h('div', { class: 'nb-picker' }, choices, rectBox, grid);
}

/* ["human", "random", "random"] -> "human, random ×2" (short enough for a phone) */
function seatSummary(seats) {
  const n = new Map();
  for (const s of seats) n.set(s, (n.get(s) || 0) + 1);
  return [...n].map(([s, k]) => (k > 1 ? `${s} ×${k}` : s)).join(', ');
}

export async function lobby(app, current = () => true) {
  const [rules, saved] = await Promise.all([api('GET', 'rules'), api('GET', 'games')]);
  if (!current()) return;   // the address changed while the lobby loaded: draw nothing
  const gameSel = h('select', { id: 'game' }, rules.games.map((g) => h('option', { value: g.name }, g.title)));
  const optsBox = h('div', { id: 'options' });
  const seatsBox = h('div', { id: 'seats' });
  const levelsHelp = h('div', { class: 'help', id: 'levels-help' });
  const mine = h('select', { id: 'my-seat', 'aria-describedby': 'my-seat-help' });
  const rulesBox = h('div', { class: 'rules-box' });
  const seed = h('input', { id: 'seed', type: 'number', min: '0', step: '1', placeholder: 'random' });
  // clocks (issue 27): none, a preset (minutes + seconds added per move) or custom
  const clockSel = h('select', { id: 'clock', 'aria-describedby': 'clock-help' },
    CLOCKS.map(([v, label]) => h('option', { value: v }, label)));
  const clockMin = h('input', { id: 'clock-minutes', type: 'number', min: '0.1', max: '600', step: 'any', value: '10' });
  const clockInc = h('input', { id: 'clock-increment', type: 'number', min: '0', max: '600', step: 'any', value: '5' });
  const clockCustom = h('div', { class: 'row clock-custom', hidden: true },
    h('div', {}, h('label', { for: 'clock-minutes' }, 'Minutes each'), clockMin),
    h('div', {}, h('label', { for: 'clock-increment' }, 'Seconds added per move'), clockInc));
  clockSel.addEventListener('change', () => { clockCustom.hidden = clockSel.value !== 'custom'; });
  const chosenClock = () => {
    if (clockSel.value === 'none') return undefined;
    if (clockSel.value === 'custom') return { initial: Math.round(Number(clockMin.value) * 60), increment: Number(clockInc.value) };
    const [m, inc] = clockSel.value.split('+').map(Number);
    return { initial: m * 60, increment: inc };
  };
  const start = h('button', { type: 'submit', id: 'start' }, 'Start');
  const form = h('form', { class: 'card', id: 'new-game', novalidate: true },
    h('h2', {}, 'New game'),
    h('label', { for: 'game' }, 'Game'), gameSel,
    optsBox, seatsBox, levelsHelp,
    h('label', { for: 'my-seat' }, 'This browser plays'), mine,
    h('p', { class: 'help', id: 'my-seat-help' },
      'Choose one seat to keep only its token; the links for the other seats are shown on the game page to hand out.'),
    h('label', { for: 'clock' }, 'Clock'), clockSel, clockCustom,
    h('p', { class: 'help', id: 'clock-help' }, 'Each player\'s time for the whole game, plus seconds added after each move. Whoever runs out loses (with three or more players, drops out).'),
    h('label', { for: 'seed' }, 'Seed (dice and agents; optional)'), seed,
    h('p', { class: 'row', style: 'margin-top:1rem' }, start));
  const startError = errorSlot(start.parentElement, 'start-error');
  let fields = [];
  let asked = 0;                // drops answers to older questions

  const game = () => rules.games.find((x) => x.name === gameSel.value);
  const applies = (f) => {
    const rule = (APPLIES[gameSel.value] || {})[f.key];
    if (!rule) return true;
    const all = {};
    for (const x of fields) all[x.key] = x.value();
    return rule(all);
  };
  const chosenOptions = () => {
    const o = {};
    for (const f of fields) if (!f.isDefault() && applies(f)) o[f.key] = f.value();
    return o;
  };
  const showApplicable = () => {
    const all = {};
    for (const x of fields) all[x.key] = x.value();
    for (const f of fields) {
      f.box.hidden = !applies(f);
      const rules = (CHOICE_APPLIES[gameSel.value] || {})[f.key];
      if (!rules || f.input.tagName !== 'SELECT') continue;
      for (const opt of f.input.options) opt.disabled = opt.hidden = rules[opt.value] ? !rules[opt.value](all) : false;
      if (f.input.selectedOptions[0]?.disabled) f.input.value = [...f.input.options].find((o) => !o.disabled).value;
    }
  };

  function drawSeats(info) {
    const before = [...seatsBox.querySelectorAll('select')].map((s) => s.value);
    const levels = LEVEL_ORDER.filter((l) => info.levels[l]);
    const choices = [h('option', { value: 'human' }, 'Human'),
      ...levels.map((l) => h('option', { value: l, title: LEVELS[l][1] }, `Computer — ${LEVELS[l][0]}`)),
      ...(info.agents.length ? [h('optgroup', { label: 'Other computer players' },
        info.agents.map((a) => h('option', { value: a }, KINDS[a] || `Engine: ${a}`)))] : [])];
    const allowed = new Set(['human', ...levels, ...info.agents]);
    const seats = [];
    for (let i = 0; i < info.players; i++) {
      const sel = h('select', { id: 'seat-' + i, 'data-seat': i }, choices.map((c) => c.cloneNode(true)));
      sel.value = allowed.has(before[i]) ? before[i] : (i === 0 ? 'human' : (levels[0] || info.agents[0] || 'human'));
      sel.addEventListener('change', drawMine);
      seats.push(h('div', {}, h('label', { for: 'seat-' + i }, `Player ${i + 1}`), sel));
    }
    seatsBox.replaceChildren(h('h2', {}, 'Seats'), ...seats);
    levelsHelp.replaceChildren(...(levels.length ? [
      h('ul', { class: 'levels' }, levels.map((l) => h('li', {}, h('strong', {}, LEVELS[l][0]), `: ${LEVELS[l][1]}.`))),
      h('details', { class: 'rules-detail', id: 'levels-detail' }, h('summary', {}, 'What each level runs'),
        h('p', { class: 'help', id: 'levels-spec' }, `${levels.map((l) => `${LEVELS[l][0]} = ${info.levels[l]}`).join('; ')}. Only computer players that can play these options are offered.`))] : []));
    drawMine();
  }

  function drawMine() {
    const was = mine.value;
    const humans = [...seatsBox.querySelectorAll('select')].filter((s) => s.value === 'human').map((s) => Number(s.dataset.seat));
    mine.replaceChildren(h('option', { value: 'all' }, humans.length > 1 ? 'Every human seat (hotseat)' : 'Every human seat'),
      ...humans.map((i) => h('option', { value: String(i) }, `Only Player ${i + 1}`)));
    mine.value = [...mine.options].some((o) => o.value === was) ? was : 'all';
  }

  // seats follow the options: ask the server for this choice of options
  async function refreshSeats(field) {
    const n = ++asked;
    const g = game();
    try {
      const info = await api('GET', `agents?game=${encodeURIComponent(g.name)}&options=${encodeURIComponent(JSON.stringify(chosenOptions()))}`);
      if (n !== asked) return;
      for (const f of fields) f.error('');
      drawSeats(info);
    } catch (err) {
      if (n !== asked) return;
      const bad = fields.find((f) => err.message.includes(`'${f.key}'`)) || field || fields[0];
      if (bad) bad.error(err.message); else startError(err.message);
    }
  }

  function fill() {
    const g = game();
    fields = g.options.map(optionField);
    optsBox.replaceChildren(...fields.map((f) => f.box));
    for (const f of fields) {
      f.error = errorSlot(f.box.lastChild, 'error-' + f.key);
      f.input.addEventListener('change', () => { showApplicable(); refreshSeats(f); });
      if (f.input.type === 'number' || f.input.type === 'text') {
        let t = null;
        f.input.addEventListener('input', () => { clearTimeout(t); t = setTimeout(() => refreshSeats(f), 250); });
      }
    }
    showApplicable();
    asked++;                    // an answer for the previous game is stale
    drawSeats({ players: g.players, agents: g.agents, levels: g.levels });
    rulesBox.replaceChildren(rulesWithDetail(`${g.rules}\n\n${g.notation}`, 'rules-ids'));
    startError('');
  }
  gameSel.addEventListener('change', fill);
  fill();

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    startError('');
    const seats = [...seatsBox.querySelectorAll('select')].map((s) => s.value);
    const body = { game: gameSel.value, options: chosenOptions(), seats };
    if (seed.value !== '') body.seed = Number(seed.value);
    const clock = chosenClock();
    if (clock) body.clock = clock;
    start.disabled = true;
    try {
      await startGame(body, mine.value === 'all' ? null : Number(mine.value));
    } catch (err) { startError(err.message); }
    start.disabled = false;
  });

  const upload = h('input', { type: 'file', id: 'record-file', accept: '.json,application/json' });
  const uploadBox = h('div', { class: 'card' }, h('h2', {}, 'Load a record'),
    h('label', { for: 'record-file' }, 'Game record (.json)'), upload);
  const uploadError = errorSlot(upload, 'upload-error');
  upload.addEventListener('change', async () => {
    const file = upload.files[0];
    if (!file) return;
    uploadError('');
    try {
      const r = await api('POST', 'records', await file.text());
      saveTokens(r.id, r.tokens);
      location.hash = `#/game/${r.id}`;
    } catch (err) { uploadError(err.message); }
  });

  const rows = saved.games.map((g) => h('tr', {},
    h('td', {}, h('a', { href: `#/game/${g.id}` }, `#${g.id}`)),
    h('td', {}, g.title),
    h('td', {}, seatSummary(g.seats)),
    h('td', {}, String(g.n_moves)),
    h('td', {}, g.over ? g.result : (heldTokens(g.id).length ? 'in play (yours)' : 'in play')),
    h('td', {}, g.updated.replace('T', ' ').replace('Z', ''))));
  app.replaceChildren(
    h('h1', {}, 'Lobby'),
    h('div', { class: 'grid2' },
      h('div', {}, form,
        uploadBox),
      h('div', {},
        h('details', { class: 'card', open: true }, h('summary', {}, 'Rules'), rulesBox),
        h('div', { class: 'card saved' }, h('h2', {}, `Saved games (${saved.total})`),
          rows.length ? h('div', { class: 'table-scroll' }, h('table', { class: 'games' },
            h('thead', {}, h('tr', {}, ['Game', 'Kind', 'Seats', 'Moves', 'Status', 'Updated']
              .map((t) => h('th', {}, t)))),
            h('tbody', {}, rows))) : h('p', {}, 'No games yet.')))));
}

/* Creates a game and opens it. With `only` a seat number, this browser keeps
 * only that seat's token; the others go to the page's hand-out list (kept for
 * this tab only). A game without human seats is watched from its start. */
export async function startGame(body, only) {
  const r = await api('POST', 'games', body);
  const keep = r.tokens.map((t, i) => (only == null || i === only ? t : null));
  saveTokens(r.id, keep);
  const handOut = r.tokens.map((t, i) => (keep[i] ? null : t));
  if (handOut.some(Boolean)) sessionStorage.setItem('pips-handout-' + r.id, JSON.stringify(handOut));
  if (!body.seats.includes('human')) sessionStorage.setItem('pips-watch-' + r.id, '1');
  location.hash = `#/game/${r.id}`;
  return r;
}
