// play.test.mjs — issue 27 in a real browser (Debian chromium, headless), at
// 1366x768 and 390x844: a take-back by consent between two browser contexts,
// a clock chosen in the lobby and a flag falling, move feedback (an illegal
// click explained with its ruling, a double click sent once, the last move
// marked under the targets, no emoji), copy and watch links, a stale seat
// link and an unknown game reported, the hints headline, every game's board
// inside the window at both sizes, and the static files gzipped with ETags.
// Screenshots go to build/web-screenshots/play-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, screenshotPath, apiCall, newPage, openGame } from './helpers.mjs';

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

let server, browser;
before(async () => {
  server = await startServer();
  browser = await launchBrowser({ viewport: DESKTOP });
});
after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

const moveCount = (page) => page.$$eval('#moves li', (l) => l.length);

async function playCell(page, size, cell) {
  await page.click(`.sizes button[data-size="${size}"]`);
  await page.click(`.ttd .cell.legal[data-cell="${cell}"]`);
}

test('take-back by consent between two browsers (desktop and phone)', async () => {
  const r = await apiCall(server.url, 'POST', 'games', { game: 'tictacdoh', seats: ['human', 'human'] });
  const a = await newPage(browser);
  await openGame(a, server.url, r.json, [r.json.tokens[0], null]);
  const friend = await launchBrowser({ viewport: PHONE, isMobile: true, hasTouch: true });
  try {
    const b = await friend.context.newPage();
    b.on('pageerror', (e) => { throw e; });
    await openGame(b, server.url, r.json, [null, r.json.tokens[1]]);
    await playCell(a, 'L', '0,0');
    await b.waitForFunction(() => /^Your move/.test((document.getElementById('status')?.textContent || '')));
    await b.click('.sizes button[data-size="M"]');
    await b.tap('.ttd .cell.legal[data-cell="1,0"]');
    await a.waitForFunction(() => /^Your move/.test((document.getElementById('status')?.textContent || '')));
    // Player 1 asks; Player 2 sees Accept / Decline, Player 1 sees that it waits
    await a.click('#undo');
    await b.waitForSelector('#undo-accept');
    assert.match(await b.textContent('#undo-request'), /Player 1 asks to take back/);
    await a.waitForSelector('#undo-withdraw');
    await b.screenshot({ path: screenshotPath('play-undo-asked-phone') });
    await a.screenshot({ path: screenshotPath('play-undo-waiting') });
    // declined: the request goes on both pages, the moves stand
    await b.tap('#undo-decline');
    await a.waitForSelector('#undo-request', { state: 'hidden' });
    assert.equal(await moveCount(a), 2);
    // asked again and accepted: both moves go and Player 1 is to move again
    await a.click('#undo');
    await b.waitForSelector('#undo-accept');
    await b.tap('#undo-accept');
    await a.waitForFunction(() => document.querySelectorAll('#moves li').length === 0);
    await a.waitForFunction(() => /^Your move, Player 1/.test((document.getElementById('status')?.textContent || '')));
    await b.waitForFunction(() => /^Waiting for Player 1/.test((document.getElementById('status')?.textContent || '')));
    const v = (await apiCall(server.url, 'GET', `games/${r.json.id}`)).json;
    assert.equal(v.n_moves, 0);
    assert.equal(v.undo_request, null);
  } finally { await friend.close(); }
  await a.close();
});

test('a clock from the lobby counts down; a flag falls on the server by itself', async () => {
  const page = await newPage(browser);
  await page.setViewportSize(PHONE);
  await page.goto(server.url);
  await page.selectOption('#game', 'tictacdoh');
  await page.selectOption('#seat-0', 'human');
  await page.selectOption('#seat-1', 'random');
  await page.selectOption('#clock', '3+2');
  await page.click('#start');
  await page.waitForSelector('.seats .clock.running');
  const shown = await page.textContent('.seats li[data-seat="0"] .clock-time');
  assert.match(shown, /^(3:00|2:5\d)$/);
  await page.screenshot({ path: screenshotPath('play-clock-phone') });
  // custom clocks are checked by the server: its 400 names the field
  await page.goto(server.url);
  await page.selectOption('#clock', 'custom');
  await page.fill('#clock-minutes', '9999');
  await page.click('#start');
  await page.waitForSelector('#start-error:not([hidden])');
  assert.match(await page.textContent('#start-error'), /clock\.initial/);

  // two seconds each: nobody moves, the server ends it on time
  const r = await apiCall(server.url, 'POST', 'games',
    { game: 'tictacdoh', seats: ['human', 'human'], clock: { initial: 2, increment: 0 } });
  assert.equal(r.status, 201);
  await page.setViewportSize(DESKTOP);
  await openGame(page, server.url, r.json);
  await page.waitForSelector('.seats .clock.running');
  const t0 = Date.now();
  await page.waitForFunction(() => /^Game over/.test((document.getElementById('status')?.textContent || '')), null, { timeout: 6000 });
  assert.ok(Date.now() - t0 < 4000, 'the flag fell within a second of the time running out');
  assert.match(await page.textContent('#status'), /on time/);
  assert.match(await page.textContent('.seats li[data-seat="0"]'), /out of time/);
  assert.equal(await page.textContent('.seats li[data-seat="0"] .clock-time'), '0.0');
  await page.screenshot({ path: screenshotPath('play-flag') });
  await page.close();
});

test('move feedback: an illegal click says why, a double click sends one move, no emoji', async () => {
  const r = await apiCall(server.url, 'POST', 'games', { game: 'tictacdoh', seats: ['human', 'human'] });
  const page = await newPage(browser);
  await openGame(page, server.url, r.json);
  await page.click('.sizes button[data-size="L"]');
  await page.dblclick('.ttd .cell.legal[data-cell="0,0"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 1);
  await page.waitForTimeout(300);
  assert.equal((await apiCall(server.url, 'GET', `games/${r.json.id}`)).json.n_moves, 1, 'one move for a double click');
  // a large pyramid cannot go onto a large one: the reason and the ruling
  await page.click('.sizes button[data-size="L"]');
  await page.click('.ttd .cell[data-cell="0,0"]');
  await page.waitForSelector('#move-error:not([hidden])');
  assert.match(await page.textContent('#move-error'), /L@0,0 is not allowed: .*TTD-R\d/);
  // the last move stays framed where it is also a target (a medium one may go onto it)
  await page.click('.sizes button[data-size="M"]');
  const frame = await page.$eval('.ttd .cell.legal.last rect', (e) => getComputedStyle(e).strokeDasharray);
  assert.notEqual(frame, 'none');
  await page.screenshot({ path: screenshotPath('play-feedback') });
  // Nimitz: a red piece onto the red one is refused with its ruling
  const n = await apiCall(server.url, 'POST', 'games', { game: 'nimitz', seats: ['human', 'human'] });
  await apiCall(server.url, 'POST', `games/${n.json.id}/moves`, { move: 'rM@b2:U', tokens: n.json.tokens });
  await openGame(page, server.url, n.json);
  await page.click('.nimitz button[data-piece="rS"]');
  await page.click('.nimitz .cell[data-cell="b2"]');
  await page.waitForSelector('#move-error:not([hidden])');
  assert.match(await page.textContent('#move-error'), /rS@b2 is not allowed: .*same colour \(NIM-R2\)/);
  // IceFrogs: a large piece from the supply cannot reach e5
  const f = await apiCall(server.url, 'POST', 'games', { game: 'icefrogs', seats: ['human', 'human'] });
  await openGame(page, server.url, f.json);
  await page.click('.if-supply[data-player="1"] button[data-size="L"]');
  await page.click('.icefrogs .cell[data-cell="e5"]');
  await page.waitForSelector('#move-error:not([hidden])');
  assert.match(await page.textContent('#move-error'), /L\+e5 is not allowed: .*ICF-R\d/);
  const emoji = await page.evaluate(() => /[\u{1F300}-\u{1FAFF}\u{2300}-\u{23FF}\u{2600}-\u{27BF}]/u.test(document.body.innerText));
  assert.equal(emoji, false, 'no emoji or rare symbols in the page');
  await page.close();
});

test('links: copy buttons, a watch link and its label, a stale seat, an unknown game', async () => {
  const r = await apiCall(server.url, 'POST', 'games', { game: 'tictacdoh', seats: ['human', 'human'] });
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const page = await newPage(browser);
  await openGame(page, server.url, r.json);
  assert.equal(await page.isHidden('#watching'), true);
  await page.click('#copy-share-1');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, await page.inputValue('#share-1'));
  assert.match(copied, new RegExp(`#/game/${r.json.id}\\?seat=1&token=${r.json.tokens[1]}$`));
  await page.click('#copy-watch');
  const watch = await page.evaluate(() => navigator.clipboard.readText());
  assert.ok(watch.endsWith(`#/game/${r.json.id}`));
  // the watch link gives no seat and says so (another browser: this one holds the seats)
  const other_browser = await launchBrowser({ viewport: PHONE });
  const viewer = await newPage(other_browser);
  await viewer.goto(watch);
  await viewer.waitForSelector('#watching:not([hidden])');
  await viewer.screenshot({ path: screenshotPath('play-watching-phone') });
  // a seat link from another game is reported on load, not when a move fails
  const other = await apiCall(server.url, 'POST', 'games', { game: 'tictacdoh', seats: ['human', 'human'] });
  await viewer.goto(`${server.url}#/game/${r.json.id}?seat=0&token=${other.json.tokens[0]}`);
  await viewer.waitForSelector('#seat-notice:not([hidden])');
  assert.match(await viewer.textContent('#seat-notice'), /Player 1/);
  assert.ok(await viewer.isVisible('#watching'));
  assert.doesNotMatch(await viewer.textContent('#seat-list'), /you/);
  // an unknown game: "no such game" with the way back
  await viewer.goto(`${server.url}#/game/99999`);
  await viewer.waitForSelector('#no-such-game');
  assert.match(await viewer.textContent('#no-such-game'), /No such game/);
  await viewer.click('#no-such-game a');
  await viewer.waitForSelector('#new-game');
  await other_browser.close();
  await page.close();
});

test('hints: a headline first; after the game no request and no error', async () => {
  const r = await apiCall(server.url, 'POST', 'games', { game: 'tictacdoh', seats: ['human', 'human'] });
  const line = ['L@0,0', 'S@1,0', 'M@0,1', 'L@1,1', 'S@-1,1', 'M@-1,0', 'S@0,-1', 'L@1,-1'];
  for (const m of line) await apiCall(server.url, 'POST', `games/${r.json.id}/moves`, { move: m, tokens: r.json.tokens });
  const truth = (await apiCall(server.url, 'GET', `games/${r.json.id}/hints`)).json;
  const page = await newPage(browser);
  await page.setViewportSize(PHONE);
  await openGame(page, server.url, r.json);
  await page.check('#perfect-play');
  await page.waitForSelector(`#hints-value[data-value="${truth.value}"]`);
  const head = await page.textContent('#hints-value');
  const wins = truth.moves.filter((m) => m.value === 'win').length;
  if (truth.value === 'win') assert.equal(head, `You can win: ${wins} of ${truth.moves.length} move${truth.moves.length > 1 ? 's' : ''} win${wins === 1 ? 's' : ''}`);
  else if (truth.value === 'loss') assert.match(head, /loses/);
  else assert.match(head, /^Draw with best play/);
  await page.screenshot({ path: screenshotPath('play-hints-phone') });
  // play a winning line to the end: then the switch goes and nothing is asked
  const asked = [];
  page.on('request', (q) => { if (q.url().includes('/hints')) asked.push(q.url()); });
  const w = (await apiCall(server.url, 'GET', `games/${r.json.id}`)).json;
  let v = w;
  for (let i = 0; i < 20 && !v.over; i++) {
    const h = (await apiCall(server.url, 'GET', `games/${r.json.id}/hints`)).json;
    const pick = h.status === 'solved' ? (h.moves.find((m) => m.value === h.value) || h.moves[0]).move : v.legal[0];
    v = (await apiCall(server.url, 'POST', `games/${r.json.id}/moves`, { move: pick, tokens: r.json.tokens })).json;
  }
  assert.ok(v.over);
  await page.waitForFunction(() => /^Game over/.test((document.getElementById('status')?.textContent || '')));
  const before = asked.length;
  await page.waitForTimeout(500);
  assert.equal(asked.length, before, 'no hints request after the game');
  assert.ok(await page.isHidden('#hints'));
  assert.ok(await page.isHidden('#perfect-play-row'));
  assert.equal(await page.$$eval('.error:not([hidden])', (l) => l.length), 0, 'no error shown');
  await page.close();
});

test('every board fits the window at 1366x768 and 390x844 and opens at the top', async () => {
  const games = [['tictacdoh', {}], ['icefrogs', {}], ['ziggurat', {}], ['noname', {}], ['nimitz', {}]];
  const page = await newPage(browser);
  for (const [game, options] of games) {
    const info = (await apiCall(server.url, 'GET', `agents?game=${game}&options=${encodeURIComponent(JSON.stringify(options))}`)).json;
    const seats = Array.from({ length: info.players }, (_, i) => (i === 0 ? 'human' : 'random'));
    const r = await apiCall(server.url, 'POST', 'games', { game, options, seats, seed: 3 });
    assert.equal(r.status, 201);
    for (const [size, vp] of [['desktop', DESKTOP], ['phone', PHONE]]) {
      await page.setViewportSize(vp);
      await openGame(page, server.url, r.json);
      await page.waitForSelector('#board svg');
      await page.waitForTimeout(100);
      const fit = await page.evaluate(() => {
        const svg = [...document.querySelectorAll('#board svg')].find((s) => !s.classList.contains('icon') && !s.classList.contains('ui-icon'));
        const b = svg.getBoundingClientRect();
        return { top: b.top, bottom: b.bottom, right: b.right, h: innerHeight, w: innerWidth, y: scrollY,
          overflow: document.documentElement.scrollWidth - innerWidth };
      });
      assert.equal(fit.y, 0, `${game} ${size}: opens at the top`);
      assert.ok(fit.bottom <= fit.h + 1, `${game} ${size}: the board ends at ${fit.bottom}px of ${fit.h}`);
      assert.ok(fit.overflow <= 1, `${game} ${size}: ${fit.overflow}px wider than the window`);
      await page.screenshot({ path: screenshotPath(`play-fit-${game}-${size}`) });
    }
  }
  // the text board names seats as the page does (not the library's X/O)
  const t = await apiCall(server.url, 'POST', 'games', { game: 'tictacdoh', seats: ['human', 'human'] });
  await apiCall(server.url, 'POST', `games/${t.json.id}/moves`, { move: 'L@0,0', tokens: t.json.tokens });
  await openGame(page, server.url, t.json);
  await page.check('#text-board');
  const text = await page.textContent('pre.render');
  assert.match(text, /Player 2 to move/);
  assert.doesNotMatch(text, /\bO to move/);
  await page.uncheck('#text-board');
  await page.close();
});

test('static files: gzip, ETag revalidation, hashed module URLs', async () => {
  const page = await newPage(browser);
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

test('the lobby in plain words: levels, options where they apply, the Nimitz board from drawings', async () => {
  const page = await newPage(browser);
  for (const vp of [DESKTOP, PHONE]) {
    await page.setViewportSize(vp);
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
    await page.check('#opt-queen');
    await page.waitForSelector('[data-opt="queen_height"]:not([hidden])');
    assert.doesNotMatch(await page.textContent('#help-turn_direction'), /ZIG-R3/);
    await page.screenshot({ path: screenshotPath(`play-lobby-ziggurat-${vp.width}`), fullPage: true });
  }
  // Nimitz: the volcano from its drawing, then a layout drawn on the grid
  await page.setViewportSize(DESKTOP);
  await page.selectOption('#game', 'nimitz');
  await page.click('.nb-choice[data-board="volcano"]');
  assert.equal(await page.inputValue('#opt-board'), 'volcano');
  await page.click('.nb-choice[data-board="draw"]');
  await page.click('.nb-sq[data-r="1"][data-c="1"]');   // a hole in the corner of the 4x4 drawn by default
  assert.equal(await page.inputValue('#opt-board'), '.###/####/####/####');
  await page.screenshot({ path: screenshotPath('play-lobby-nimitz'), fullPage: true });
  await page.click('#start');
  await page.waitForSelector('.nimitz svg');
  const id = /game\/(\d+)/.exec(page.url())[1];
  const v = (await apiCall(server.url, 'GET', `games/${id}`)).json;
  assert.equal(v.options.board, '.###/####/####/####');
  await page.close();
});
