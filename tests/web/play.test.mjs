// play.test.mjs — issue 27 in a real browser (Debian chromium, headless).
// Every item runs at both sizes, 1366x768 (mouse) and 390x844 (a phone:
// touch, mobile emulation): a take-back by consent between two browser
// contexts (one at each size), a clock chosen in the lobby and a flag
// falling, move feedback (an illegal click or tap explained by the library
// with its ruling in all five games, a double click sent once, the last move
// marked under the targets, no emoji), copy and watch links, a stale seat
// link and an unknown game reported, the hints headline, every game's board
// inside the window and opening at the top, the lobby in plain words (the
// rules without ruling ids, those in a fold), and the static files gzipped
// with ETags. Screenshots go to build/web-screenshots/play-*-{desktop,phone}.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, screenshotPath, apiCall, newPage, openGame } from './helpers.mjs';

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
// each size has its own browser; `touch` taps where a person would
const SIZES = [
  { name: 'desktop', viewport: DESKTOP, touch: false, options: { viewport: DESKTOP } },
  { name: 'phone', viewport: PHONE, touch: true, options: { viewport: PHONE, isMobile: true, hasTouch: true } },
];
const other = (size) => SIZES.find((s) => s !== size);

let server;
before(async () => {
  server = await startServer();
  for (const size of SIZES) size.browser = await launchBrowser(size.options);
});
after(async () => {
  for (const size of SIZES) if (size.browser) await size.browser.close();
  if (server) await server.stop();
});

const moveCount = (page) => page.$$eval('#moves li', (l) => l.length);
const press = (size, page, selector) => (size.touch ? page.tap(selector) : page.click(selector));
const statusIs = (page, re) => page.waitForFunction((src) => new RegExp(src).test(document.getElementById('status')?.textContent || ''), re.source);
const shot = (page, item, size) => page.screenshot({ path: screenshotPath(`play-${item}-${size.name}`) });

async function playCell(size, page, cell, sz) {
  await press(size, page, `.sizes button[data-size="${sz}"]`);
  await press(size, page, `.ttd .cell.legal[data-cell="${cell}"]`);
}

// waits for the move error to say what re matches (a previous one may still show)
async function moveError(page, re) {
  try {
    await page.waitForFunction(([src, flags]) => {
      const e = document.getElementById('move-error');
      return e && !e.hidden && new RegExp(src, flags).test(e.textContent);
    }, [re.source, re.flags], { timeout: 10000 });
  } catch {
    assert.match(await page.textContent('#move-error'), re);
  }
}

for (const size of SIZES) {
  const friend = other(size);

  test(`take-back by consent between two browsers: asked at ${size.name}, answered at ${friend.name}`, async () => {
    const r = await apiCall(server.url, 'POST', 'games', { game: 'tictacdoh', seats: ['human', 'human'] });
    const a = await newPage(size.browser);
    const b = await newPage(friend.browser);
    await openGame(a, server.url, r.json, [r.json.tokens[0], null]);
    await openGame(b, server.url, r.json, [null, r.json.tokens[1]]);
    await playCell(size, a, '0,0', 'L');
    await statusIs(b, /^Your move/);
    await playCell(friend, b, '1,0', 'M');
    await statusIs(a, /^Your move/);
    // Player 1 asks; Player 2 sees Accept / Decline, Player 1 sees that it waits
    await press(size, a, '#undo');
    await b.waitForSelector('#undo-accept');
    assert.match(await b.textContent('#undo-request'), /Player 1 asks to take back/);
    await a.waitForSelector('#undo-withdraw');
    await shot(b, 'undo-asked', friend);
    await shot(a, 'undo-waiting', size);
    // declined: the request goes on both pages, the moves stand
    await press(friend, b, '#undo-decline');
    await a.waitForSelector('#undo-request', { state: 'hidden' });
    assert.equal(await moveCount(a), 2);
    // asked again and accepted: both moves go and Player 1 is to move again
    await press(size, a, '#undo');
    await b.waitForSelector('#undo-accept');
    await press(friend, b, '#undo-accept');
    await a.waitForFunction(() => document.querySelectorAll('#moves li').length === 0);
    await statusIs(a, /^Your move, Player 1/);
    await statusIs(b, /^Waiting for Player 1/);
    const v = (await apiCall(server.url, 'GET', `games/${r.json.id}`)).json;
    assert.equal(v.n_moves, 0);
    assert.equal(v.undo_request, null);
    await a.close();
    await b.close();
  });

  test(`a clock from the lobby counts down; a flag falls on the server by itself (${size.name})`, async () => {
    const page = await newPage(size.browser);
    await page.goto(server.url);
    await page.selectOption('#game', 'tictacdoh');
    await page.selectOption('#seat-0', 'human');
    await page.selectOption('#seat-1', 'random');
    await page.selectOption('#clock', '3+2');
    await press(size, page, '#start');
    await page.waitForSelector('.seats .clock.running');
    assert.match(await page.textContent('.seats li[data-seat="0"] .clock-time'), /^(3:00|2:5\d)$/);
    await shot(page, 'clock', size);
    // custom clocks are checked by the server: its 400 names the field
    await page.goto(server.url);
    await page.selectOption('#clock', 'custom');
    await page.fill('#clock-minutes', '9999');
    await press(size, page, '#start');
    await page.waitForSelector('#start-error:not([hidden])');
    assert.match(await page.textContent('#start-error'), /clock\.initial/);

    // two seconds each: nobody moves, the server ends it on time
    const r = await apiCall(server.url, 'POST', 'games',
      { game: 'tictacdoh', seats: ['human', 'human'], clock: { initial: 2, increment: 0 } });
    assert.equal(r.status, 201);
    await openGame(page, server.url, r.json);
    await page.waitForSelector('.seats .clock.running');
    const t0 = Date.now();
    await page.waitForFunction(() => /^Game over/.test(document.getElementById('status')?.textContent || ''), null, { timeout: 6000 });
    assert.ok(Date.now() - t0 < 4000, 'the flag fell within a second of the time running out');
    assert.match(await page.textContent('#status'), /on time/);
    assert.match(await page.textContent('.seats li[data-seat="0"]'), /out of time/);
    assert.equal(await page.textContent('.seats li[data-seat="0"] .clock-time'), '0.0');
    await shot(page, 'flag', size);
    await page.close();
  });

  test(`move feedback in all five games: an illegal ${size.touch ? 'tap' : 'click'} says why, a double click sends one move, no emoji (${size.name})`, async () => {
    const r = await apiCall(server.url, 'POST', 'games', { game: 'tictacdoh', seats: ['human', 'human'] });
    const page = await newPage(size.browser);
    await openGame(page, server.url, r.json);
    await press(size, page, '.sizes button[data-size="L"]');
    await page.dblclick('.ttd .cell.legal[data-cell="0,0"]');
    await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 1);
    await page.waitForTimeout(300);
    assert.equal((await apiCall(server.url, 'GET', `games/${r.json.id}`)).json.n_moves, 1, 'one move for a double click');
    // Tic Tac Doh!: a large pyramid cannot go onto a large one
    await press(size, page, '.sizes button[data-size="L"]');
    await press(size, page, '.ttd .cell[data-cell="0,0"]');
    await moveError(page, /L@0,0 is not allowed: .*TTD-R\d/);
    // the last move stays framed where it is also a target (a medium one may go onto it)
    await press(size, page, '.sizes button[data-size="M"]');
    const frame = await page.$eval('.ttd .cell.legal.last rect', (e) => getComputedStyle(e).strokeDasharray);
    assert.notEqual(frame, 'none');
    await shot(page, 'feedback-tictacdoh', size);
    // Nimitz: a red piece onto the red one is refused with its ruling
    const n = await apiCall(server.url, 'POST', 'games', { game: 'nimitz', seats: ['human', 'human'] });
    await apiCall(server.url, 'POST', `games/${n.json.id}/moves`, { move: 'rM@b2:U', tokens: n.json.tokens });
    await openGame(page, server.url, n.json);
    await press(size, page, '.nimitz button[data-piece="rS"]');
    await press(size, page, '.nimitz .cell[data-cell="b2"]');
    await moveError(page, /rS@b2 is not allowed: .*same colour \(NIM-R2\)/);
    // IceFrogs: a large piece from the supply cannot reach e5
    const f = await apiCall(server.url, 'POST', 'games', { game: 'icefrogs', seats: ['human', 'human'] });
    await openGame(page, server.url, f.json);
    await press(size, page, '.if-supply[data-player="1"] button[data-size="L"]');
    await press(size, page, '.icefrogs .cell[data-cell="e5"]');
    await moveError(page, /L\+e5 is not allowed: .*ICF-R\d/);
    // Ziggurat (seed 4 rolls 5 and Leap for Red): an empty square, then a Move too far
    const z = await apiCall(server.url, 'POST', 'games',
      { game: 'ziggurat', options: { players: 2 }, seats: ['human', 'human'], seed: 4 });
    assert.deepEqual((await apiCall(server.url, 'GET', `games/${z.json.id}`)).json.legal, ['Mh0-h5', 'Lh0-h8', 'end']);
    await openGame(page, server.url, z.json);
    await press(size, page, '.ziggurat .sq[data-sq="c3"]');
    await moveError(page, /^No step from c3: there is no piece on c3$/);
    await press(size, page, '.ziggurat .sq[data-sq="h0"]');
    await page.waitForSelector('.ziggurat .sq.selected[data-sq="h0"]');
    await press(size, page, '.ziggurat .sq[data-sq="h3"]');
    await moveError(page, /^Mh0-h3 is not allowed: with 5 points the piece on h0 goes along your path to h5 \(ZIG-R2, R8\), not h3$/);
    await shot(page, 'feedback-ziggurat', size);
    // Noname: a placement over the red piece in the middle of the table; a
    // click places at once, a tap shows the preview and the reason first
    const nn = await apiCall(server.url, 'POST', 'games', { game: 'noname', seats: ['human', 'human'], seed: 4 });
    await apiCall(server.url, 'POST', `games/${nn.json.id}/moves`, { move: 'rM@300,300/U', tokens: nn.json.tokens });
    await openGame(page, server.url, nn.json);
    await page.waitForSelector('.noname svg.placing');
    await press(size, page, '.noname svg.placing');
    await moveError(page, /^b[SML]@\d+\.\d,\d+\.\d\/U is not allowed: the footprint overlaps #1 .*\(NON §4\)$/);
    if (size.touch) assert.ok(await page.isVisible('#nn-confirm'), 'a tap waits for Place');
    assert.equal((await apiCall(server.url, 'GET', `games/${nn.json.id}`)).json.n_moves, 1, 'nothing was placed');
    await shot(page, 'feedback-noname', size);
    const emoji = await page.evaluate(() => /[\u{1F300}-\u{1FAFF}\u{2300}-\u{23FF}\u{2600}-\u{27BF}]/u.test(document.body.innerText));
    assert.equal(emoji, false, 'no emoji or rare symbols in the page');
    await page.close();
  });

  test(`links: copy buttons, a watch link and its label, a stale seat, an unknown game (${size.name})`, async () => {
    const r = await apiCall(server.url, 'POST', 'games', { game: 'tictacdoh', seats: ['human', 'human'] });
    await size.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await newPage(size.browser);
    await openGame(page, server.url, r.json);
    assert.equal(await page.isHidden('#watching'), true);
    await press(size, page, '#copy-share-1');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, await page.inputValue('#share-1'));
    assert.match(copied, new RegExp(`#/game/${r.json.id}\\?seat=1&token=${r.json.tokens[1]}$`));
    await press(size, page, '#copy-watch');
    const watch = await page.evaluate(() => navigator.clipboard.readText());
    assert.ok(watch.endsWith(`#/game/${r.json.id}`));
    await shot(page, 'links', size);
    // the watch link gives no seat and says so (the other browser: this one holds the seats)
    const viewer = await newPage(friend.browser);
    await viewer.goto(watch);
    await viewer.waitForSelector('#watching:not([hidden])');
    await shot(viewer, 'watching', friend);
    // a seat link from another game is reported on load, not when a move fails
    const stale = await apiCall(server.url, 'POST', 'games', { game: 'tictacdoh', seats: ['human', 'human'] });
    await viewer.goto(`${server.url}#/game/${r.json.id}?seat=0&token=${stale.json.tokens[0]}`);
    await viewer.waitForSelector('#seat-notice:not([hidden])');
    assert.match(await viewer.textContent('#seat-notice'), /Player 1/);
    assert.ok(await viewer.isVisible('#watching'));
    assert.doesNotMatch(await viewer.textContent('#seat-list'), /you/);
    await viewer.close();
    // an unknown game: "no such game" with the way back
    await page.goto(`${server.url}#/game/99999`);
    await page.waitForSelector('#no-such-game');
    assert.match(await page.textContent('#no-such-game'), /No such game/);
    await shot(page, 'no-such-game', size);
    await press(size, page, '#no-such-game a');
    await page.waitForSelector('#new-game');
    await page.close();
  });

  test(`hints: a headline first; after the game no request and no error (${size.name})`, async () => {
    const r = await apiCall(server.url, 'POST', 'games', { game: 'tictacdoh', seats: ['human', 'human'] });
    const line = ['L@0,0', 'S@1,0', 'M@0,1', 'L@1,1', 'S@-1,1', 'M@-1,0', 'S@0,-1', 'L@1,-1'];
    for (const m of line) await apiCall(server.url, 'POST', `games/${r.json.id}/moves`, { move: m, tokens: r.json.tokens });
    const truth = (await apiCall(server.url, 'GET', `games/${r.json.id}/hints`)).json;
    const page = await newPage(size.browser);
    await openGame(page, server.url, r.json);
    await press(size, page, '#perfect-play');
    await page.waitForSelector(`#hints-value[data-value="${truth.value}"]`);
    const head = await page.textContent('#hints-value');
    const wins = truth.moves.filter((m) => m.value === 'win').length;
    if (truth.value === 'win') assert.equal(head, `You can win: ${wins} of ${truth.moves.length} move${truth.moves.length > 1 ? 's' : ''} win${wins === 1 ? 's' : ''}`);
    else if (truth.value === 'loss') assert.match(head, /loses/);
    else assert.match(head, /^Draw with best play/);
    await shot(page, 'hints', size);
    // play a winning line to the end: then the switch goes and nothing is asked
    const asked = [];
    page.on('request', (q) => { if (q.url().includes('/hints')) asked.push(q.url()); });
    let v = (await apiCall(server.url, 'GET', `games/${r.json.id}`)).json;
    for (let i = 0; i < 20 && !v.over; i++) {
      const h = (await apiCall(server.url, 'GET', `games/${r.json.id}/hints`)).json;
      const pick = h.status === 'solved' ? (h.moves.find((m) => m.value === h.value) || h.moves[0]).move : v.legal[0];
      v = (await apiCall(server.url, 'POST', `games/${r.json.id}/moves`, { move: pick, tokens: r.json.tokens })).json;
    }
    assert.ok(v.over);
    await statusIs(page, /^Game over/);
    const before = asked.length;
    await page.waitForTimeout(500);
    assert.equal(asked.length, before, 'no hints request after the game');
    assert.ok(await page.isHidden('#hints'));
    assert.ok(await page.isHidden('#perfect-play-row'));
    assert.equal(await page.$$eval('.error:not([hidden])', (l) => l.length), 0, 'no error shown');
    await page.close();
  });

  test(`every board fits the window and opens at the top; the text board's notation (${size.name})`, async () => {
    const page = await newPage(size.browser);
    // every game as the lobby starts it, and the most seats (the most rows above the board)
    const games = [['tictacdoh', {}], ['icefrogs', {}], ['ziggurat', {}], ['noname', {}], ['nimitz', {}],
      ['icefrogs', { players: 6 }], ['noname', { players: 6 }], ['ziggurat', { players: 4, queen: true }]];
    for (const [game, options] of games) {
      const info = (await apiCall(server.url, 'GET', `agents?game=${game}&options=${encodeURIComponent(JSON.stringify(options))}`)).json;
      const seats = Array.from({ length: info.players }, (_, i) => (i === 0 ? 'human' : 'random'));
      const r = await apiCall(server.url, 'POST', 'games', { game, options, seats, seed: 3 });
      assert.equal(r.status, 201);
      await openGame(page, server.url, r.json);
      await page.waitForSelector('#board svg');
      await page.waitForTimeout(100);
      const fit = await page.evaluate(() => {
        const svg = [...document.querySelectorAll('#board svg')].find((s) => !s.classList.contains('icon') && !s.classList.contains('ui-icon'));
        const b = svg.getBoundingClientRect();
        return { bottom: b.bottom, h: innerHeight, y: scrollY, overflow: document.documentElement.scrollWidth - innerWidth };
      });
      assert.equal(fit.y, 0, `${game} ${JSON.stringify(options)}: opens at the top`);
      assert.ok(fit.bottom <= fit.h + 1, `${game} ${JSON.stringify(options)}: the board ends at ${fit.bottom}px of ${fit.h}`);
      assert.ok(fit.overflow <= 1, `${game}: ${fit.overflow}px wider than the window`);
      await shot(page, `fit-${game}${Object.entries(options).map(([k, v]) => `-${k}${v}`).join('')}`, size);
    }
    // the text board names seats as the page does (not the library's X/O)
    const t = await apiCall(server.url, 'POST', 'games', { game: 'tictacdoh', seats: ['human', 'human'] });
    await apiCall(server.url, 'POST', `games/${t.json.id}/moves`, { move: 'L@0,0', tokens: t.json.tokens });
    await openGame(page, server.url, t.json);
    await press(size, page, '#text-board');
    const text = await page.textContent('pre.render');
    assert.match(text, /Player 2 to move/);
    assert.doesNotMatch(text, /\bO to move/);
    await press(size, page, '#text-board');   // the setting is kept: back to the game's own board
    await page.waitForSelector('.ttd svg');
    await page.close();
  });

  test(`the lobby in plain words: levels, options where they apply, rules without ids, the Nimitz board from drawings (${size.name})`, async () => {
    const page = await newPage(size.browser);
    await page.goto(server.url);
    await page.waitForSelector('#new-game');
    await page.selectOption('#game', 'ziggurat');
    // levels by name with a line each; the specs only in the fold
    const names = await page.$$eval('#seat-1 option', (l) => l.map((o) => o.textContent));
    assert.ok(names.includes('Computer — Easy') && names.includes('Computer — Strongest'), names.join());
    assert.ok(!names.some((n) => /[:=]/.test(n) && /Computer —/.test(n)), 'no specs in the level names');
    assert.match(await page.textContent('#levels-help'), /Strongest: /);
    assert.equal(await page.isVisible('#levels-spec'), false);
    // the colour left out applies at 3 players only; queen height only with Queens
    assert.ok(await page.isHidden('[data-opt="omit"]'));
    assert.ok(await page.isHidden('[data-opt="queen_height"]'));
    await page.fill('#opt-players', '3');
    await page.dispatchEvent('#opt-players', 'change');
    await page.waitForSelector('[data-opt="omit"]:not([hidden])');
    // at 3 players there is one mode; at 4, teams but not two colours each
    assert.ok(await page.isHidden('[data-opt="mode"]'));
    await page.fill('#opt-players', '4');
    await page.dispatchEvent('#opt-players', 'change');
    await page.waitForSelector('[data-opt="mode"]:not([hidden])');
    assert.deepEqual(await page.$$eval('#opt-mode option:not([disabled])', (l) => l.map((o) => o.value)), ['standard', 'teams']);
    await page.fill('#opt-players', '3');
    await page.dispatchEvent('#opt-players', 'change');
    await press(size, page, '#opt-queen');
    await page.waitForSelector('[data-opt="queen_height"]:not([hidden])');
    assert.doesNotMatch(await page.textContent('#help-turn_direction'), /ZIG-R3/);
    // the Rules card: every game's rules without a ruling id; the ids in the fold
    for (const game of ['tictacdoh', 'nimitz', 'icefrogs', 'noname', 'ziggurat']) {
      await page.selectOption('#game', game);
      const plain = await page.$eval('.rules-box > div > .rules', (e) => e.textContent);
      assert.doesNotMatch(plain, /\b[A-Z]{2,4}-R\d/, `${game}: a ruling id outside the fold`);
      assert.ok(await page.isHidden('#rules-ids .rules'));
      assert.match(await page.$eval('#rules-ids', (e) => e.textContent), /\b[A-Z]{3}-R1\b/);
    }
    await page.click('#rules-ids summary');
    assert.ok(await page.isVisible('#rules-ids .rules'));
    await page.screenshot({ path: screenshotPath(`play-lobby-${size.name}`), fullPage: true });
    // Nimitz: the volcano from its drawing, then a layout drawn on the grid
    await page.selectOption('#game', 'nimitz');
    await press(size, page, '.nb-choice[data-board="volcano"]');
    assert.equal(await page.inputValue('#opt-board'), 'volcano');
    await press(size, page, '.nb-choice[data-board="draw"]');
    await press(size, page, '.nb-sq[data-r="1"][data-c="1"]');   // a hole in the corner of the 4x4 drawn by default
    assert.equal(await page.inputValue('#opt-board'), '.###/####/####/####');
    await page.screenshot({ path: screenshotPath(`play-lobby-nimitz-${size.name}`), fullPage: true });
    await press(size, page, '#start');
    await page.waitForSelector('.nimitz svg, #start-error:not([hidden])');
    const refused = await page.$('#start-error:not([hidden])');
    assert.equal(refused, null, refused && await refused.textContent());
    const id = /game\/(\d+)/.exec(page.url())[1];
    const v = (await apiCall(server.url, 'GET', `games/${id}`)).json;
    assert.equal(v.options.board, '.###/####/####/####');
    await page.close();
  });
}

test('static files: gzip, ETag revalidation, hashed module URLs', async () => {
  const page = await newPage(SIZES[0].browser);
  const sizes = new Map();
  page.on('response', async (res) => {
    const u = new URL(res.url());
    if (!u.pathname.startsWith('/api/')) sizes.set(u.pathname, res.headers());
  });
  await page.goto(server.url);
  await page.waitForSelector('#new-game');
  const app = [...sizes.entries()].find(([p]) => p === '/app.js');
  assert.ok(app, 'app.js was loaded');
  assert.equal(app[1]['content-encoding'], 'gzip');
  assert.match(app[1]['cache-control'], /immutable/);
  const index = sizes.get('/');
  assert.equal(index['content-encoding'], 'gzip');
  assert.equal(index['cache-control'], 'no-cache');
  // revalidation: the same ETag gets 304
  const res = await fetch(server.url + 'style.css', { headers: { 'Accept-Encoding': 'gzip' } });
  const etag = res.headers.get('etag');
  assert.ok(etag);
  const again = await fetch(server.url + 'style.css', { headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': etag } });
  assert.equal(again.status, 304);
  await page.close();
});
