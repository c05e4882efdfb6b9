// players.test.mjs — the page as players meet it (issue 17): the lobby built
// from the option schema (player counts, only playable agents, levels), every
// player count starting and rendering, pages following a server restart on
// the same database, errors beside their control and inside the viewport,
// Noname on a touch phone (swipes scroll, a tap asks to confirm; captures
// shown, piece numbers readable), resignation with four players, "I play seat
// N" with links to hand out, who moved and the last move, the winning line,
// rules on the game page, the tab title, focus after a keyboard move, paced
// computer games and rematch.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, screenshotPath, apiCall, newPage, myTurn, openGame as openGameAs } from './helpers.mjs';

let server, browser;
before(async () => {
  server = await startServer();
  browser = await launchBrowser({ viewport: { width: 1280, height: 800 } });
});
after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

const nMoves = (page) => page.$$eval('#moves li', (l) => l.length);

async function openGame(page, base, r, tokens) {
  await openGameAs(page, base, r, tokens);
  await page.waitForSelector('#board');
}

/* True when the element's box lies inside the viewport. */
async function inViewport(page, sel) {
  return page.$eval(sel, (e) => {
    const b = e.getBoundingClientRect();
    return b.top >= 0 && b.left >= 0 && b.bottom <= innerHeight && b.right <= innerWidth && b.height > 0;
  });
}

test('lobby from the schema: fields, seats follow the player count, only playable agents, every count starts', async () => {
  const page = await newPage(browser);
  await page.goto(server.url);
  await page.waitForSelector('#new-game');
  await page.selectOption('#game', 'icefrogs');
  // an int option is a number field with its range; its description is shown
  assert.equal(await page.getAttribute('#opt-players', 'type'), 'number');
  assert.equal(await page.getAttribute('#opt-players', 'max'), '6');
  // in plain words: the ruling ids wait in a "Rules detail" fold
  assert.doesNotMatch(await page.textContent('#help-players'), /ICF-R10/);
  assert.match(await page.textContent('#rules-players'), /ICF-R10/);
  assert.equal(await page.$$eval('#seats select', (l) => l.length), 2);
  await page.fill('#opt-players', '5');
  await page.waitForFunction(() => document.querySelectorAll('#seats select').length === 5);
  // Ziggurat: a choice is a select, a bool a checkbox; alphabeta is not offered (two players and no dice)
  await page.selectOption('#game', 'ziggurat');
  assert.equal(await page.$eval('#opt-mode', (e) => e.tagName), 'SELECT');
  assert.equal(await page.getAttribute('#opt-queen', 'type'), 'checkbox');
  const offered = await page.$$eval('#seat-0 option', (l) => l.map((o) => o.value));
  assert.ok(!offered.includes('alphabeta') && offered.includes('mcts') && offered.includes('easy'), offered.join());
  assert.match(await page.textContent('#levels-spec'), /Easy = random/);
  assert.equal(await page.textContent('#seat-1 option[value="max"]'), 'Computer — Strongest');

  const starts = [['icefrogs', 3], ['icefrogs', 4], ['icefrogs', 6], ['ziggurat', 2], ['noname', 3], ['noname', 8],
    ['nimitz', 3], ['nimitz', 6], ['tictacdoh', 3], ['tictacdoh', 4]];
  for (const [game, n] of starts) {
    // a fresh lobby (a new hash every time, so the page always routes)
    await page.evaluate((k) => { document.getElementById('app').replaceChildren(); location.hash = `#/?n=${k}`; }, n);
    await page.waitForSelector('#new-game');
    await page.selectOption('#game', game);
    await page.fill('#opt-players', String(n));
    await page.waitForFunction((k) => document.querySelectorAll('#seats select').length === k, n);
    // the other seats keep the lobby's default, the easiest level; player 1 opens, so they wait
    await page.click('#start');
    await page.waitForSelector('#seat-list li');
    assert.equal(await page.$$eval('#seat-list li', (l) => l.length), n, `${game} with ${n}`);
    await page.waitForSelector('#board svg');
    if (game === 'icefrogs') // ICF-R10: one start tip per seat, taken from the view
      assert.equal(await page.$$eval('.icefrogs .cell.start', (l) => l.length), n);
    const v = (await apiCall(server.url, 'GET', `games/${/game\/(\d+)/.exec(page.url())[1]}`)).json;
    assert.equal(v.seats.length, n);
    if (n === 6) await page.screenshot({ path: screenshotPath(`${game}-${n}p`), fullPage: true });
  }
  // the phone lobby does not scroll sideways
  await page.goto(server.url);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForSelector('#new-game');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth) <= 1);
  await page.screenshot({ path: screenshotPath('lobby-phone'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.close();
});

test('errors show beside their control, inside the viewport', async () => {
  const page = await newPage(browser);
  await page.goto(server.url);
  await page.waitForSelector('#new-game');
  await page.selectOption('#game', 'noname');
  await page.fill('#opt-table', 'abc');
  // the lobby checks options as they are typed: let that answer land first
  await page.waitForSelector('#error-table:not([hidden])');
  await page.click('#start');
  await page.waitForSelector('#start-error:not([hidden])');
  assert.match(await page.textContent('#start-error'), /table/);
  assert.ok(await inViewport(page, '#start-error'), 'the Start error is in sight');
  const gap = await page.evaluate(() => document.getElementById('start-error').getBoundingClientRect().top
    - document.getElementById('start').getBoundingClientRect().bottom);
  assert.ok(gap >= 0 && gap < 80, `the error sits under Start (${gap}px)`);
  // a bad option is named next to its field as soon as the server says so
  await page.selectOption('#game', 'icefrogs');
  await page.fill('#opt-players', '9');
  await page.waitForSelector('#error-players:not([hidden])');
  assert.match(await page.textContent('#error-players'), /players/);
  assert.ok(await inViewport(page, '#error-players'));
  await page.close();
});

test('pages follow a server restart on the same database, and say when it is down', async () => {
  const first = await startServer();
  let srv = first;
  const page = await newPage(browser);
  const watcher = await newPage(browser);
  try {
    const r = await apiCall(srv.url, 'POST', 'games', { game: 'tictacdoh', seats: ['human', 'human'], seed: 3 });
    await openGame(page, srv.url, r.json);
    await watcher.goto(`${srv.url}#/game/${r.json.id}`);
    await watcher.waitForSelector('#board svg');
    await page.bringToFront();   // a background tab's animation frames are throttled, slowing every click
    await page.click('.sizes button[data-size="L"]');
    await page.click('.ttd .cell.legal');
    await watcher.waitForFunction(() => document.querySelectorAll('#moves li').length === 1);
    await srv.stop({ keep: true });
    await page.waitForSelector('#connection:not([hidden])', { timeout: 10000 });
    assert.match(await page.textContent('#connection'), /cannot be reached/);
    await watcher.waitForSelector('#connection:not([hidden])', { timeout: 10000 });
    srv = await startServer({ dir: first.dir, port: first.port });
    await page.waitForSelector('#connection[hidden]', { state: 'attached', timeout: 10000 });
    await myTurn(page);
    await page.click('.sizes button[data-size="M"]');
    await page.click('.ttd .cell.legal >> nth=0');
    await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 2);
    // the other page catches up without a reload
    await watcher.waitForFunction(() => document.querySelectorAll('#moves li').length === 2, null, { timeout: 10000 });
    assert.ok(await watcher.isHidden('#connection'));
  } finally {
    await page.close();
    await watcher.close();
    await srv.stop();
  }
});

test('Noname on a touch phone: a swipe scrolls and places nothing, a tap asks to confirm; captures shown', async () => {
  const phone = await launchBrowser({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  try {
    const r = await apiCall(server.url, 'POST', 'games', { game: 'noname', seats: ['human', 'human'], seed: 5 });
    const page = await phone.context.newPage();
    page.on('pageerror', (e) => { throw e; });
    await openGame(page, server.url, r.json);
    await page.waitForSelector('.noname svg .nn-table');
    // piece numbers need a piece: the first is placed by the API
    const box = await page.locator('.noname > svg').boundingBox();
    // a swipe up over the table: the page scrolls, nothing is placed
    const cdp = await phone.context.newCDPSession(page);
    const x = box.x + box.width / 2, y0 = box.y + box.height * 0.8;
    const touch = (type, y) => cdp.send('Input.dispatchTouchEvent',
      { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
    const scrollable = await page.evaluate(() => document.documentElement.scrollHeight > innerHeight + 60);
    const before = await page.evaluate(() => scrollY);
    await touch('touchStart', y0);
    for (let k = 1; k <= 8; k++) await touch('touchMove', y0 - k * 25);
    await touch('touchEnd', y0 - 200);
    await page.waitForTimeout(400);
    assert.equal(await nMoves(page), 0, 'a swipe places nothing');
    assert.ok(await page.isHidden('#nn-confirm'));
    if (scrollable) assert.ok(await page.evaluate(() => scrollY) > before, 'the swipe scrolled the page');
    // a tap shows the placement and waits for Place
    await page.evaluate(() => scrollTo(0, 0));
    const b2 = await page.locator('.noname > svg').boundingBox();
    await page.touchscreen.tap(b2.x + b2.width / 2, b2.y + b2.height / 2);
    await page.waitForSelector('#nn-confirm:not([hidden])');
    assert.equal(await nMoves(page), 0, 'a tap alone places nothing');
    assert.equal(await page.$$eval('.nn-ghost .nn-piece', (l) => l.length), 1);
    await page.tap('#nn-place');
    await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 1);
    const placed = (await apiCall(server.url, 'GET', `games/${r.json.id}`)).json;
    const p = placed.view.pieces[0];
    assert.equal(p.lying, false);
    // piece numbers are readable at 1x on a phone
    const idSize = () => page.$eval('.nn-id', (e) => ({ h: e.getBoundingClientRect().height,
      font: getComputedStyle(e).fontSize, svg: e.ownerSVGElement.getBoundingClientRect().width, text: e.textContent }));
    await page.waitForFunction(() => document.querySelector('.nn-id')?.getBoundingClientRect().height >= 9,
      null, { timeout: 3000 }).catch(async () => assert.fail(`piece number too small: ${JSON.stringify(await idSize())}`));
    // blue attacks the red small piece: it is captured, and the page shows it (NON-R6)
    const attack = `b${p.size === 'S' ? 'S' : 'L'}@${(p.x - 45).toFixed(1)},${p.y.toFixed(1)}>0.0`;
    await page.fill('#nn-typed', attack);
    await page.tap('.noname form button');
    await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 2);
    const after = (await apiCall(server.url, 'GET', `games/${r.json.id}`)).json;
    if (after.view.pieces.length === 1) {       // captured
      await page.waitForSelector('.nn-piece.captured');
      assert.match(await page.textContent('.nn-info'), /Captured by the last move: #1/);
    } else assert.fail(`no capture: ${after.render}`);
    await page.screenshot({ path: screenshotPath('noname-touch'), fullPage: true });
  } finally {
    await phone.close();
  }
});

test('four players: a resignation lets the others play on; the result names the winner', async () => {
  const r = await apiCall(server.url, 'POST', 'games',
    { game: 'tictacdoh', options: { players: 4 }, seats: ['human', 'human', 'human', 'human'], seed: 2 });
  const page = await newPage(browser);
  await openGame(page, server.url, r.json);
  page.on('dialog', (d) => d.accept());
  await page.click('#resign');
  await page.waitForSelector('#seat-list li.resigned[data-seat="0"]');
  assert.doesNotMatch(await page.textContent('#status'), /Game over/);
  // the resigned seat's turn is played for it; the others go on
  await page.waitForFunction(() => document.querySelector('#moves li[data-seat="0"]'));
  await page.click('#resign');
  await page.waitForFunction(() => document.querySelectorAll('#seat-list li.resigned').length === 2);
  await page.click('#resign');
  await page.waitForFunction(() => /^Game over/.test(document.getElementById('status').textContent));
  assert.match(await page.textContent('#status'), /Player 4 wins/);
  assert.equal(await page.$$eval('#seat-list li.resigned', (l) => l.length), 3);
  await page.close();
});

test('"I play seat 1": only that token is kept, the other link is handed out', async () => {
  const page = await newPage(browser);
  await page.goto(server.url);
  await page.selectOption('#game', 'tictacdoh');
  await page.selectOption('#seat-0', 'human');
  await page.selectOption('#seat-1', 'human');
  await page.selectOption('#my-seat', '0');
  await page.click('#start');
  await page.waitForSelector('#handout-1');
  const id = Number(/game\/(\d+)/.exec(page.url())[1]);
  const kept = await page.evaluate((gid) => JSON.parse(localStorage.getItem('pips-tokens-' + gid)), id);
  assert.ok(kept[0] && !kept[1], 'only seat 1 is kept');
  assert.equal(await page.$$eval('[id^="share-"]', (l) => l.length), 1);
  const link = await page.inputValue('#handout-1');
  assert.match(link, new RegExp(`#/game/${id}\\?seat=1&token=[0-9a-f]{32}$`));
  assert.match(await page.textContent('#status'), /^Your move, Player 1/);
  await page.click('.sizes button[data-size="L"]');
  await page.click('.ttd .cell.legal');
  await page.waitForFunction(() => /^Waiting for Player 2/.test(document.getElementById('status').textContent));
  assert.equal(await page.$$eval('.ttd .cell.legal', (l) => l.length), 0, 'the creator cannot move for player 2');
  const friend = await launchBrowser();
  try {
    const b = await friend.context.newPage();
    await b.goto(link);
    await b.waitForFunction(() => /^Your move, Player 2/.test(document.getElementById('status')?.textContent || ''));
  } finally { await friend.close(); }
  await page.click('#forget-handout');
  assert.ok(await page.isHidden('#handout'));
  await page.close();
});

test('move list names the mover; last move and winning line marked; rules, title, keyboard focus', async () => {
  const r = await apiCall(server.url, 'POST', 'games', { game: 'tictacdoh', seats: ['human', 'human'], seed: 1 });
  const page = await newPage(browser);
  await openGame(page, server.url, r.json);
  assert.match(await page.title(), /^Your move \(Player 1\) — Tic Tac Doh!/);
  // a move by keyboard: focus stays on the board
  await page.click('.sizes button[data-size="L"]');
  await page.focus('.ttd .cell.legal');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 1);
  // (the live update may draw the move a moment before the move's own answer returns the focus)
  await page.waitForFunction(() => document.getElementById('board').contains(document.activeElement),
    null, { timeout: 3000 });
  assert.match(await page.title(), /Player 2/);
  // the rest of a line of large pyramids along y = 0 (TTD-R5), by the API
  for (const m of ['M@0,1', 'L@1,0', 'M@1,1', 'L@2,0'])
    assert.equal((await apiCall(server.url, 'POST', `games/${r.json.id}/moves`, { move: m, tokens: r.json.tokens })).status, 200);
  await page.waitForFunction(() => /^Game over/.test(document.getElementById('status').textContent));
  assert.match(await page.textContent('#status'), /Player 1/);
  const who = await page.$$eval('#moves li .seat-name', (l) => l.map((x) => x.textContent));
  assert.deepEqual(who, ['Player 1', 'Player 2', 'Player 1', 'Player 2', 'Player 1']);
  assert.equal(await page.$$eval('#moves li.last', (l) => l.length), 1);
  assert.equal(await page.getAttribute('.ttd .cell.last', 'data-cell'), '2,0');
  assert.equal(await page.$$eval('.ttd .cell.line', (l) => l.length), 3);
  assert.equal(await page.$$eval('.ttd .win-line', (l) => l.length), 1);
  assert.match(await page.title(), /^Game over/);
  // the rules, rendered, on the game page
  await page.click('#show-rules');
  assert.ok(await page.$eval('#game-rules', (d) => d.open));
  // in plain words (each rule's title in bold), the ruling ids in the "Rules detail" fold
  assert.equal(await page.textContent('#game-rules p.rule strong >> nth=0'), 'Grid.');
  assert.equal(await page.textContent('#game-rules-ids p.rule strong >> nth=0'), 'TTD-R1');
  assert.equal(await page.$$eval('#game-rules pre', (l) => l.length), 0);
  await page.screenshot({ path: screenshotPath('tictacdoh-line'), fullPage: true });
  // colours in the names where the game has them
  const ice = await apiCall(server.url, 'POST', 'games', { game: 'icefrogs', seats: ['human', 'random'], seed: 1 });
  await openGame(page, server.url, ice.json);
  await page.click('.if-supply.to-move button.size:not([disabled]) >> nth=0');
  await page.click('.icefrogs .cell.legal >> nth=0');
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length >= 2);
  assert.equal(await page.textContent('#moves li >> nth=0 >> .seat-name'), 'Player 1 (red)');
  assert.equal(await page.textContent('#moves li >> nth=1 >> .seat-name'), 'Player 2 (blue)');
  assert.equal(await page.$$eval('#moves li >> nth=0 >> .dot.p1', (l) => l.length), 1);
  await page.close();
});

test('computers only: moves replay at a chosen pace; rematch repeats the settings', async () => {
  const page = await newPage(browser);
  await page.goto(server.url);
  await page.selectOption('#game', 'tictacdoh');
  await page.selectOption('#seat-0', 'random');
  await page.selectOption('#seat-1', 'random');
  await page.click('#start');
  await page.waitForSelector('#board svg');
  await page.waitForFunction(() => /^Playing through/.test(document.getElementById('status').textContent));
  const id = Number(/game\/(\d+)/.exec(page.url())[1]);
  const total = (await apiCall(server.url, 'GET', `games/${id}`)).json.n_moves;
  // not all at once: after a moment the page is still early in the game
  await page.waitForTimeout(300);
  const at = Number(/after move (\d+)/.exec(await page.textContent('#status'))[1]);
  assert.ok(at < total, `shown ${at} of ${total}`);
  await page.selectOption('#speed', '250');
  await page.waitForFunction(() => /^Game over/.test(document.getElementById('status').textContent),
    null, { timeout: 15000 });
  await page.click('#rematch');
  await page.waitForFunction((old) => !location.hash.endsWith(`/game/${old}`) && /game\/\d+/.test(location.hash), id);
  const id2 = Number(/game\/(\d+)/.exec(page.url())[1]);
  const [a, b] = [(await apiCall(server.url, 'GET', `games/${id}`)).json, (await apiCall(server.url, 'GET', `games/${id2}`)).json];
  assert.deepEqual([b.game, b.seats, b.options], [a.game, a.seats, a.options]);
  await page.close();
});
