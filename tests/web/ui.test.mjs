// ui.test.mjs — the web UI in a real browser (Debian chromium, headless):
// Tic Tac Doh! against the `random` agent by clicking sizes and cells, the
// generic text board, reload restores the game, a wrong token is refused,
// phone width, and one screenshot per registered game under
// build/web-screenshots/ as an artefact.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, screenshotPath, apiCall, newPage, myTurn } from './helpers.mjs';

let server, browser;
before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

test('Tic Tac Doh!: lobby, play by clicking against random, reload restores', async () => {
  const page = await newPage(browser);
  await page.goto(server.url);
  await page.selectOption('#game', 'tictacdoh');
  await page.selectOption('#seat-0', 'human');
  await page.selectOption('#seat-1', 'random');
  await page.fill('#seed', '12');
  await page.click('#new-game button[type=submit]');
  await page.waitForSelector('.ttd svg .cell');
  await page.evaluate(() => localStorage.setItem('pips-text-board', '0'));
  let played = 0;
  for (let i = 0; i < 4; i++) {
    if (!(await myTurn(page))) break;
    // choose a size that has targets, then click a highlighted cell
    const sizes = await page.$$('.sizes button:not([disabled])');
    assert.ok(sizes.length > 0, 'some size is playable');
    await sizes[i % sizes.length].click();
    const cells = await page.$$('.ttd .cell.legal');
    assert.ok(cells.length > 0, 'legal cells are highlighted');
    const before = await page.$$eval('#moves li', (l) => l.length);
    await cells[(i * 3) % cells.length].click();
    await page.waitForFunction((n) => document.querySelectorAll('#moves li').length > n, before);
    played++;
  }
  assert.ok(played >= 2, `played ${played} moves`);
  await myTurn(page);
  const moves = await page.$$eval('#moves li .move-text', (l) => l.map((x) => x.textContent));
  assert.ok(moves.length >= 2 * played - 1);
  for (const m of moves) assert.match(m, /^[SML]@-?\d,-?\d$/);
  // every move is on the board: the pieces drawn equal the moves made
  const pieces = await page.$$eval('.ttd .piece', (l) => l.length);
  assert.equal(pieces, moves.length);
  await page.screenshot({ path: screenshotPath('tictacdoh-play'), fullPage: true });

  // replay: step back shows an earlier position
  await page.click('#replay-prev');
  await page.waitForFunction(() => /^Replay/.test(document.getElementById('status').textContent));
  assert.equal(await page.$$eval('.ttd .piece', (l) => l.length), moves.length - 1);
  await page.click('#replay-last');

  // reload: the game and this browser's seat come back
  const url = page.url();
  await page.reload();
  await page.waitForSelector('.ttd svg .cell');
  assert.equal(page.url(), url);
  const again = await page.$$eval('#moves li .move-text', (l) => l.map((x) => x.textContent));
  assert.deepEqual(again, moves);
  assert.equal(await page.$$eval('.ttd .piece', (l) => l.length), moves.length);
  if (!(await page.textContent('#status')).startsWith('Game over'))
    assert.match(await page.textContent('#status'), /^Your move/);

  // a move with a wrong token is refused and changes nothing
  const id = Number(/game\/(\d+)/.exec(url)[1]);
  const legal = (await apiCall(server.url, 'GET', `games/${id}`)).json.legal;
  if (legal.length) {
    const r = await page.evaluate(async ([gid, mv]) => {
      const res = await fetch(`/api/games/${gid}/moves`, { method: 'POST',
        body: JSON.stringify({ move: mv, token: '0123456789abcdef0123456789abcdef' }) });
      return { status: res.status, body: await res.json() };
    }, [id, legal[0]]);
    assert.equal(r.status, 403);
    assert.ok(r.body.error);
    assert.equal((await apiCall(server.url, 'GET', `games/${id}`)).json.n_moves, moves.length);
  }

  // phone width: the board fits without horizontal scrolling
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `page overflows by ${overflow}px`);
  await page.screenshot({ path: screenshotPath('tictacdoh-phone'), fullPage: true });
  await page.setViewportSize({ width: 1100, height: 800 });

  // undo takes back this browser's last move and the agent's reply
  if (!(await page.textContent('#status')).startsWith('Game over')) {
    await page.click('#undo');
    await page.waitForFunction((n) => document.querySelectorAll('#moves li').length === n - 2,
      moves.length);
    assert.equal(await page.$$eval('.ttd .piece', (l) => l.length), moves.length - 2);
    // resigning ends the game
    page.once('dialog', (d) => d.accept());
    await page.click('#resign');
    await page.waitForFunction(() => /^Game over: Player 1 resigns/.test(document.getElementById('status').textContent));
    assert.ok(await page.isDisabled('#resign'));
  }
  await page.close();
});

test('generic text board: legal move buttons and typed moves; phone width; polling', async () => {
  const page = await newPage(browser);
  // no EventSource: the page falls back to polling for the agent's replies
  await page.addInitScript(() => { delete window.EventSource; });
  await page.setViewportSize({ width: 390, height: 844 });
  const r = await apiCall(server.url, 'POST', 'games',
    { game: 'tictacdoh', seats: ['human', 'random'], seed: 4 });
  assert.equal(r.status, 201);
  await page.goto(server.url);
  await page.evaluate(([id, tokens]) => {
    localStorage.setItem('pips-tokens-' + id, JSON.stringify(tokens));
    localStorage.setItem('pips-text-board', '1');
  }, [r.json.id, r.json.tokens]);
  await page.goto(`${server.url}#/game/${r.json.id}`);
  await page.waitForSelector('.generic pre.render');
  await myTurn(page);
  await page.click('.legal-list button[data-move="M@0,0"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length >= 1);
  await myTurn(page);
  // a typed illegal move shows the server's reason and changes nothing
  await page.fill('#typed-move', 'M@0,0');
  await page.click('.typed button');
  await page.waitForSelector('#move-error:not([hidden])');
  assert.match(await page.textContent('#move-error'), /TTD-R3|sizes|differ|illegal/i);
  const n = await page.$$eval('#moves li', (l) => l.length);
  const legal = await page.$$eval('.legal-list button', (l) => l.map((b) => b.dataset.move));
  await page.fill('#typed-move', legal[legal.length - 1]);
  await page.click('.typed button');
  await page.waitForFunction((k) => document.querySelectorAll('#moves li').length > k, n);
  assert.match(await page.textContent('pre.render'), /stash/);
  // fits a phone: no horizontal scrolling of the page
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `page overflows by ${overflow}px`);
  await page.screenshot({ path: screenshotPath('generic-phone'), fullPage: true });
  await page.close();
});

test('every registered game opens and plays against random; one screenshot each', async () => {
  const rules = (await apiCall(server.url, 'GET', 'rules')).json;
  for (const g of rules.games) {
    const seats = Array.from({ length: g.players }, (_, i) => (i === 0 ? 'human' : 'random'));
    const r = await apiCall(server.url, 'POST', 'games', { game: g.name, seats, seed: 1 });
    assert.equal(r.status, 201, `${g.name}: ${JSON.stringify(r.json)}`);
    const page = await newPage(browser);
    await page.goto(server.url);
    await page.evaluate(([id, tokens]) => {
      localStorage.setItem('pips-tokens-' + id, JSON.stringify(tokens));
      localStorage.setItem('pips-text-board', '1');
    }, [r.json.id, r.json.tokens]);
    await page.goto(`${server.url}#/game/${r.json.id}`);
    await page.waitForSelector('.generic pre.render');
    for (let i = 0; i < 3; i++) {
      if (!(await myTurn(page))) break;
      const n = await page.$$eval('#moves li', (l) => l.length);
      await page.click('.legal-list button >> nth=0');
      await page.waitForFunction((k) => document.querySelectorAll('#moves li').length > k, n);
    }
    // the game's own board, when it has one
    await page.uncheck('#text-board');
    await page.screenshot({ path: screenshotPath(g.name), fullPage: true });
    await page.close();
  }
});

test('share link gives a seat to another browser; both see moves live (SSE)', async () => {
  const r = await apiCall(server.url, 'POST', 'games',
    { game: 'tictacdoh', seats: ['human', 'human'], seed: 9 });
  assert.equal(r.status, 201);
  const id = r.json.id;
  const a = await newPage(browser);
  await a.goto(server.url);
  await a.evaluate(([gid, t0]) => {
    localStorage.setItem('pips-tokens-' + gid, JSON.stringify([t0, null]));
    localStorage.setItem('pips-text-board', '0');
  }, [id, r.json.tokens[0]]);
  await a.goto(`${server.url}#/game/${id}`);
  await a.waitForSelector('.ttd svg .cell');
  const link = await a.inputValue('#share-0');
  assert.match(link, new RegExp(`#/game/${id}\\?seat=0&token=[0-9a-f]{32}$`));
  // player 2 opens its own share link in a separate browser (own storage)
  const other = await launchBrowser();
  try {
    const b = await other.context.newPage();
    await b.goto(`${server.url}#/game/${id}?seat=1&token=${r.json.tokens[1]}`);
    await b.waitForSelector('.ttd svg .cell');
    assert.doesNotMatch(b.url(), /token=/, 'the token leaves the address bar');
    assert.match(await b.textContent('#status'), /^Waiting for Player 1/);
    await a.click('.sizes button[data-size="L"]');
    await a.click('.ttd .cell.legal');
    // B sees A's move without reloading, and it is B's turn
    await b.waitForFunction(() => document.querySelectorAll('#moves li').length === 1);
    await b.waitForFunction(() => /^Your move, Player 2/.test(document.getElementById('status').textContent));
    await b.click('.sizes button[data-size="M"]');
    await b.click('.ttd .cell.legal >> nth=0');
    await a.waitForFunction(() => document.querySelectorAll('#moves li').length === 2);
    assert.match(await a.textContent('#status'), /^Your move, Player 1/);
    const v = (await apiCall(server.url, 'GET', `games/${id}`)).json;
    assert.deepEqual(v.moves.map((m) => m.seat), [0, 1]);
  } finally {
    await other.close();
  }
  await a.close();
});
