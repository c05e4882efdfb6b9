// boards.test.mjs — the SVG boards of IceFrogs, Ziggurat, Noname and Nimitz in
// a real browser (Debian chromium, headless) against the `random` agent: moves
// made by clicking pieces, supplies and highlighted cells, by buttons, by
// press-and-drag (Noname) and by keyboard; each board checked against the
// state text (or the server's rendering), reload restores the game, phone
// width fits; the boards drawing from the structured view alone (given a
// nonsense state text and rendering); the modules' move parsers on the
// documented examples. Screenshots go under build/web-screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { startServer, launchBrowser, screenshotPath, apiCall, newPage, myTurn, PIPS, openGame as openGameAs } from './helpers.mjs';

let server, browser;
before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

const moveTexts = (page) => page.$$eval('#moves li .move-text', (l) => l.map((x) => x.textContent));

const openGame = (page, r) => openGameAs(page, server.url, r);

async function phoneFits(page, name) {
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `page overflows by ${overflow}px`);
  await page.screenshot({ path: screenshotPath(name), fullPage: true });
  await page.setViewportSize({ width: 1100, height: 800 });
}

/* IceFrogs pieces only enter from supply (ICF-R3) and never leave the board. */
async function icefrogsPieces(page) {
  return page.$$eval('.icefrogs .cell', (l) => l.reduce((n, g) => n + Number(g.dataset.height), 0));
}

test('IceFrogs: lobby, moves by clicking supply, pieces and cells, keyboard, reload', async () => {
  const page = await newPage(browser);
  await page.goto(server.url);
  await page.selectOption('#game', 'icefrogs');
  await page.selectOption('#seat-0', 'human');
  await page.selectOption('#seat-1', 'random');
  await page.fill('#seed', '21');
  await page.click('#new-game button[type=submit]');
  await page.waitForSelector('.icefrogs svg .cell');
  assert.equal(await page.$$eval('.icefrogs .cell', (l) => l.length), 37, 'ICF-R1: 37 cells');
  assert.deepEqual(await page.$$eval('.icefrogs .cell.start', (l) => l.map((g) => g.dataset.cell)),
    ['a1', 'i1'], 'ICF-R2: start spaces');
  assert.equal(await page.textContent('.if-supply[data-player="1"]'), 'Player 1 (red)S×5M×5L×5');
  let played = 0;
  for (let i = 0; i < 5; i++) {
    if (!(await myTurn(page))) break;
    const before = (await moveTexts(page)).length;
    const pass = await page.$('.icefrogs button.pass');
    if (pass) await pass.click();
    else if (i === 3) {
      // by keyboard: a source cell (or supply size), Enter, then a target, Enter
      const src = (await page.$('.icefrogs .cell.source')) || (await page.$('.if-supply button.size:not([disabled])'));
      await src.focus();
      await page.keyboard.press('Enter');
      await page.focus('.icefrogs .cell.legal');
      await page.keyboard.press('Enter');
    } else {
      // alternate: a supply size on even turns, a piece on the board otherwise
      const sources = await page.$$('.icefrogs .cell.source');
      const sizes = await page.$$('.if-supply button.size:not([disabled])');
      const src = (i % 2 === 1 && sources.length) ? sources[0] : sizes[i % sizes.length];
      await src.click();
      const targets = await page.$$('.icefrogs .cell.legal');
      assert.ok(targets.length > 0, 'final cells are highlighted');
      const name = await targets[targets.length - 1].getAttribute('data-cell');
      await targets[targets.length - 1].click();
      await page.waitForFunction((n) => document.querySelectorAll('#moves li').length > n, before);
      const mine = (await moveTexts(page))[before];
      assert.match(mine, new RegExp(`^([SML]\\+|[a-i]\\d-)${name}$`), 'the move ends on the clicked cell (ICF-R7)');
    }
    await page.waitForFunction((n) => document.querySelectorAll('#moves li').length > n, before);
    played++;
  }
  assert.ok(played >= 4, `played ${played} moves`);
  await myTurn(page);
  const moves = await moveTexts(page);
  for (const m of moves) assert.match(m, /^([SML]\+[a-i]\d|[a-i]\d-[a-i]\d|pass)$/);
  const entered = moves.filter((m) => m.includes('+')).length;
  assert.equal(await icefrogsPieces(page), entered, 'every piece entered is on the board');
  // supplies: 5 of each size minus what each player entered
  const p1 = moves.filter((m, k) => k % 2 === 0 && m.includes('+')).length;
  const left = await page.$$eval('.if-supply[data-player="1"] button.size', (l) =>
    l.reduce((n, b) => n + Number(b.textContent.split('×')[1]), 0));
  assert.equal(left, 15 - p1);
  await page.screenshot({ path: screenshotPath('icefrogs-play'), fullPage: true });

  // replay one move back: one piece fewer if that move entered one
  await page.click('#replay-prev');
  await page.waitForFunction(() => /^Replay/.test(document.getElementById('status').textContent));
  assert.equal(await icefrogsPieces(page), entered - (moves[moves.length - 1].includes('+') ? 1 : 0));
  assert.equal(await page.$$eval('.icefrogs .cell.source, .icefrogs .cell.legal', (l) => l.length), 0,
    'nothing to click while replaying');
  await page.click('#replay-last');

  await page.reload();
  await page.waitForSelector('.icefrogs svg .cell');
  assert.deepEqual(await moveTexts(page), moves);
  assert.equal(await icefrogsPieces(page), entered);
  if (await myTurn(page)) assert.ok((await page.$$('.icefrogs .cell.source, .if-supply button.size:not([disabled])')).length > 0);
  await phoneFits(page, 'icefrogs-phone');
  await page.close();
});

test('IceFrogs with three players: three start spaces and supplies', async () => {
  const r = await apiCall(server.url, 'POST', 'games',
    { game: 'icefrogs', options: { players: 3 }, seats: ['human', 'random', 'random'], seed: 5 });
  assert.equal(r.status, 201);
  const page = await newPage(browser);
  await openGame(page, r.json);
  await page.waitForSelector('.icefrogs svg .cell');
  assert.deepEqual(await page.$$eval('.icefrogs .cell.start', (l) => l.map((g) => g.dataset.cell)),
    ['a1', 'g1', 'g7'], 'ICF-R2: three start spaces');
  assert.equal(await page.$$eval('.if-supply', (l) => l.length), 3);
  await myTurn(page);
  await page.click('.if-supply[data-player="1"] button[data-size="L"]');
  await page.click('.icefrogs .cell.legal >> nth=0');
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length >= 3);
  await myTurn(page);
  assert.equal(await icefrogsPieces(page), (await moveTexts(page)).filter((m) => m.includes('+')).length);
  // resigning ends the game: the result shows and nothing is clickable any more
  page.once('dialog', (d) => d.accept());
  await page.click('#resign');
  await page.waitForFunction(() => /^Game over/.test(document.getElementById('status').textContent));
  assert.equal(await page.$$eval('.icefrogs .cell.source, .icefrogs .cell.legal, .if-supply button.size:not([disabled])',
    (l) => l.length), 0);
  assert.ok(await page.$eval('.icefrogs details.legal-all', (d) => d.hidden));
  await page.close();
});

/* Ziggurat: the pieces drawn, by square (data-pile), as the state text says. */
async function zigPiles(page) {
  return page.$$eval('.ziggurat .sq', (l) => l.filter((g) => g.dataset.pile)
    .map((g) => `${g.dataset.sq}:${g.dataset.pile}`).sort().join(' '));
}
const statePiles = (state) => state.split('|')[1].trim().split(/\s+/).sort().join(' ');

test('Ziggurat: steps by clicking squares and buttons against random, dice, reload', async () => {
  const r = await apiCall(server.url, 'POST', 'games',
    { game: 'ziggurat', options: { players: 2 }, seats: ['human', 'random'], seed: 3 });
  assert.equal(r.status, 201);
  const id = r.json.id;
  const page = await newPage(browser);
  await openGame(page, r.json);
  await page.waitForSelector('.ziggurat svg .sq');
  // ZIG-R1, R2: 64 squares and 4 Starts; three Drones per colour on its Start
  assert.equal(await page.$$eval('.ziggurat .sq', (l) => l.length), 68);
  assert.equal(await zigPiles(page), 'a9:Y,Y,Y h0:R,R,R');
  assert.equal(await page.$$eval('.ziggurat .pyr.wall', (l) => l.length), 12);
  let clicked = 0, buttons = 0;
  for (let i = 0; i < 14 && (clicked < 4 || buttons < 2); i++) {
    if (!(await myTurn(page))) break;
    const v = (await apiCall(server.url, 'GET', `games/${id}`)).json;
    const state = /move=(\d+) action=(\S)/.exec(v.state);
    // the dice shown are the state's
    assert.equal(await page.textContent('.zg-dice .die.move b'), state[1]);
    assert.equal(await page.textContent('.zg-dice .die.action b'), state[2]);
    const before = (await moveTexts(page)).length;
    const sources = await page.$$('.ziggurat .sq.source');
    let expect;
    if (sources.length && (i % 3 !== 2 || buttons >= 2)) {
      const src = sources[i % sources.length];
      const from = await src.getAttribute('data-sq');
      await src.click();
      const targets = await page.$$('.ziggurat .sq.legal');
      assert.ok(targets.length > 0, 'targets are highlighted');
      const to = await targets[0].getAttribute('data-sq');
      await targets[0].click();
      const choice = await page.$('.zg-choose button');
      if (choice) await choice.click();   // several steps between the same squares
      expect = (m) => m.endsWith(`${from}-${to}`) || m === `S${to}-${from}`;
      clicked++;
    } else {
      // a step button: prefer a Tip/Swap/RA/RB to `end`
      const all = await page.$$('.zg-steps button');
      assert.ok(all.length > 0, 'step buttons');
      const b = all.length > 1 && i % 2 ? all[0] : all[all.length - 1];
      const text = await b.getAttribute('data-move');
      assert.ok(v.legal.includes(text), `${text} is legal`);
      await b.click();
      expect = (m) => m === text;
      buttons++;
    }
    await page.waitForFunction((n) => document.querySelectorAll('#moves li').length > n, before);
    const mine = (await moveTexts(page))[before];
    assert.ok(expect(mine), `played ${mine}`);
  }
  assert.ok(clicked >= 3, `steps by clicking: ${clicked}`);
  assert.ok(buttons >= 1, `steps by buttons: ${buttons}`);
  await myTurn(page);
  // the board shows the state's piles: 6 Drones in all, wherever they are
  const v = (await apiCall(server.url, 'GET', `games/${id}`)).json;
  const piles = await zigPiles(page);
  assert.equal(piles, statePiles(v.state));
  assert.equal(await page.$$eval('.ziggurat .pyr:not(.wall)', (l) => l.length), 6);
  const moves = await moveTexts(page);
  assert.deepEqual(moves, v.moves.map((m) => (m.seat == null ? `(${m.text})` : m.text)));
  await page.screenshot({ path: screenshotPath('ziggurat-play'), fullPage: true });

  // the fallback list holds every legal step as a focusable button
  await page.click('.ziggurat details.legal-all summary');
  assert.deepEqual(await page.$$eval('.ziggurat .legal-list button', (l) => l.map((b) => b.dataset.move)), v.legal);

  await page.reload();
  await page.waitForSelector('.ziggurat svg .sq');
  assert.deepEqual(await moveTexts(page), moves);
  assert.equal(await zigPiles(page), piles);
  await phoneFits(page, 'ziggurat-phone');

  // undo takes back this browser's steps since the agent's last one
  await myTurn(page);
  await page.click('#undo');
  await page.waitForFunction((n) => document.querySelectorAll('#moves li').length < n, moves.length);
  const after = (await apiCall(server.url, 'GET', `games/${id}`)).json;
  assert.equal(await zigPiles(page), statePiles(after.state));
  await page.close();
});

test('Ziggurat with Queens, four players: Queens drawn distinct', async () => {
  const r = await apiCall(server.url, 'POST', 'games',
    { game: 'ziggurat', options: { queen: true, queen_height: 2 }, seats: ['human', 'random', 'random', 'random'], seed: 8 });
  assert.equal(r.status, 201);
  const page = await newPage(browser);
  await openGame(page, r.json);
  await page.waitForSelector('.ziggurat svg .sq');
  await myTurn(page);
  // ZIG-R27: each Start pile holds a Queen (second from the bottom here)
  assert.equal(await page.$$eval('.ziggurat .pyr.queen', (l) => l.length), 4);
  assert.equal(await page.getAttribute('.ziggurat .sq[data-sq="h0"]', 'data-pile'), 'R,RQ,R,R');
  assert.match(await page.textContent('.zg-seats'), /Player 1 \(red\) · Player 2 \(blue\) · Player 3 \(yellow\) · Player 4 \(green\)/);
  await page.screenshot({ path: screenshotPath('ziggurat-queens'), fullPage: true });
  await page.close();
});

/* The spot of the Noname table nearest its centre that is at least `gap` mm
 * from every piece's reference point. */
function freeSpot(state, gap = 70) {
  const pts = [...state.matchAll(/@([\d.]+),([\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
  const spots = [];
  for (let y = 90; y <= 510; y += 30) for (let x = 90; x <= 510; x += 30) spots.push([x, y]);
  spots.sort((a, b) => Math.hypot(a[0] - 300, a[1] - 300) - Math.hypot(b[0] - 300, b[1] - 300));
  const spot = spots.find(([x, y]) => pts.every(([px, py]) => Math.hypot(px - x, py - y) > gap));
  if (!spot) throw new Error('no free spot');
  return spot;
}

/* Screen point of table coordinates (mm, y up) on the Noname board. */
async function tablePoint(page, x, y) {
  await page.locator('.noname > svg').scrollIntoViewIfNeeded();
  return page.evaluate(([mx, my]) => {
    const svg = document.querySelector('.noname > svg');
    const pt = svg.createSVGPoint();
    pt.x = mx; pt.y = Number(svg.dataset.height) - my;
    const p = pt.matrixTransform(svg.getScreenCTM());
    return [p.x, p.y];
  }, [x, y]);
}
const viewBox = (page) => page.$eval('.noname > svg', (s) => s.getAttribute('viewBox').split(' ').map(Number));

test('Noname: place by press-and-drag (lying, heading) and by click (upright), suggestions, reload', async () => {
  const r = await apiCall(server.url, 'POST', 'games', { game: 'noname', seats: ['human', 'random'], seed: 2 });
  assert.equal(r.status, 201);
  const id = r.json.id;
  const page = await newPage(browser);
  await openGame(page, r.json);
  await page.waitForSelector('.noname svg .nn-table');
  const played = [];
  for (let i = 0; i < 3; i++) {
    assert.ok(await myTurn(page));
    const v = (await apiCall(server.url, 'GET', `games/${id}`)).json;
    const before = (await moveTexts(page)).length;
    if (i === 2) {
      // a suggestion button plays its text
      const text = await page.getAttribute('.nn-suggest button >> nth=0', 'data-move');
      await page.click('.nn-suggest button >> nth=0');
      played.push((m) => m === text);
    } else {
      await page.click('.nn-pad.to-move button.size:not([disabled]) >> nth=0');
      await page.click(`.nn-controls button[data-pose="${i === 0 ? 'lying' : 'upright'}"]`);
      const [x, y] = freeSpot(v.state);
      if (i === 1) { // zoomed in twice round the last pointer position: a quarter of the width shows
        await page.mouse.move(...(await tablePoint(page, x, y)));
        await page.click('.nn-zoom button[data-key="zoom-in"]');
        await page.click('.nn-zoom button[data-key="zoom-in"]');
        const [vx, , vw] = await viewBox(page);
        assert.equal(vw, 152);
        assert.ok(Math.abs(vx + vw / 2 - x) < 3, `view ${vx}+${vw} centred on ${x}`);
      }
      const [sx, sy] = await tablePoint(page, x, y);
      await page.mouse.move(sx, sy);
      await page.mouse.down();
      if (i === 0) {
        // drag north-east: heading about 45 degrees; the preview shows the ray
        await page.mouse.move(sx + 20, sy - 20, { steps: 4 });
        assert.equal(await page.$$eval('.nn-ghost .nn-piece.lying', (l) => l.length), 1);
        assert.match(await page.textContent('.nn-info'), /^r[SML]@[\d.]+,[\d.]+>4[3-7]\.\d/);
        await page.mouse.move(sx + 40, sy - 40, { steps: 4 });
      }
      await page.mouse.up();
      played.push(i === 0
        ? (m) => { const p = /^r[SML]@([\d.]+),([\d.]+)>([\d.]+)$/.exec(m); return p && Math.abs(p[1] - x) < 2 && Math.abs(p[2] - y) < 2 && Math.abs(p[3] - 45) < 3; }
        : (m) => { const p = /^r[SML]@([\d.]+),([\d.]+)\/U([\d.]+)?$/.exec(m); return p && Math.abs(p[1] - x) < 2 && Math.abs(p[2] - y) < 2; });
    }
    await page.waitForFunction((n) => document.querySelectorAll('#moves li').length > n, before);
    const mine = (await moveTexts(page))[before];
    assert.ok(played[i](mine), `move ${i}: ${mine}`);
  }
  await myTurn(page);
  // pan mode: dragging moves the view, placing nothing; zooming out shows the whole table
  await page.click('.nn-zoom button[data-key="pan"]');
  const box = await page.locator('.noname > svg').boundingBox();
  const [px, py] = [box.x + box.width / 2, box.y + box.height / 2];
  const [x0] = await viewBox(page);
  await page.mouse.move(px, py);
  await page.mouse.down();
  await page.mouse.move(px + 200, py, { steps: 4 });
  await page.mouse.up();
  assert.ok((await viewBox(page))[0] < x0 - 20, 'the view moved west');
  assert.equal((await moveTexts(page)).length, 6, 'panning placed nothing');
  await page.click('.nn-zoom button[data-key="zoom-out"]');
  await page.click('.nn-zoom button[data-key="zoom-out"]');
  assert.deepEqual(await viewBox(page), [-4, -4, 608, 608]);
  assert.equal(await page.textContent('.nn-zoom'), '−1×+', 'no pan button at 1×');
  const v = (await apiCall(server.url, 'GET', `games/${id}`)).json;
  const onTable = (v.state.match(/#\d+ /g) || []).length;
  assert.equal(await page.$$eval('.noname .nn-piece[data-id]', (l) => l.length), onTable);
  assert.equal(await page.$$eval('.noname .nn-piece.lying[data-id]', (l) => l.length),
    (v.state.match(/>[\d.]+/g) || []).length);
  // rays, subdued and own-linked pieces as the server's rendering says (NON-R5, R14)
  assert.equal(await page.$$eval('.noname .nn-pieces .nn-ray.hit', (l) => l.length), (v.render.match(/-> #\d+/g) || []).length);
  assert.equal(await page.$$eval('.noname .nn-piece.subdued[data-id]', (l) => l.length), (v.render.match(/subdued by/g) || []).length);
  assert.equal(await page.$$eval('.noname .nn-piece.own-linked[data-id]', (l) => l.length), (v.render.match(/own-linked/g) || []).length);
  const score = Number(/^r pad:.*score ([+-]?\d+)$/m.exec(v.render)[1]);
  assert.match(await page.textContent('.nn-pad[data-colour="r"] .who'), new RegExp(`score ${score}$`));
  await page.screenshot({ path: screenshotPath('noname-play'), fullPage: true });
  await page.reload();
  await page.waitForSelector('.noname svg .nn-table');
  assert.equal(await page.$$eval('.noname .nn-piece[data-id]', (l) => l.length), onTable);
  await phoneFits(page, 'noname-phone');
  await page.close();
});

test('Ziggurat: two steps between the same squares are offered as a choice', async () => {
  // play hotseat steps through the API until a from-to pair has two steps (e.g. M and L)
  const r = await apiCall(server.url, 'POST', 'games', { game: 'ziggurat', seats: ['human', 'human', 'human', 'human'], seed: 0 });
  assert.equal(r.status, 201);
  const id = r.json.id;
  let v = r.json.game, pair = null;
  for (let i = 0; i < 600 && !pair && !v.over; i++) {
    const by = new Map();
    for (const t of v.legal) {
      const m = /^Q?[MAHLD]([a-i@]\d)-([a-i@]\d)$/.exec(t);
      if (m) by.set(m[1] + m[2], [...(by.get(m[1] + m[2]) || []), t]);
    }
    pair = [...by.values()].find((l) => l.length > 1);
    if (!pair) v = (await apiCall(server.url, 'POST', `games/${id}/moves`, { move: v.legal[(i * 7) % v.legal.length], tokens: r.json.tokens })).json;
  }
  assert.ok(pair, 'found a square pair with two steps');
  const [, from, to] = /([a-i@]\d)-([a-i@]\d)$/.exec(pair[0]);
  const page = await newPage(browser);
  await openGame(page, r.json);
  await page.waitForSelector('.ziggurat svg .sq');
  await myTurn(page);
  // by keyboard: Enter on the source keeps the focus there; Enter on the target
  await page.focus(`.ziggurat .sq[data-sq="${from}"]`);
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.key), from, 'the focus stays on the square');
  assert.equal(await page.getAttribute(`.ziggurat .sq[data-sq="${from}"]`, 'aria-pressed'), 'true');
  assert.match(await page.textContent(`.ziggurat .sq[data-sq="${to}"] .kinds`), /·/);
  await page.focus(`.ziggurat .sq[data-sq="${to}"]`);
  await page.keyboard.press('Enter');
  const offered = await page.$$eval('.zg-choose button', (l) => l.map((b) => b.dataset.move));
  assert.deepEqual(offered.sort(), [...pair].sort());
  await page.locator('.ziggurat').screenshot({ path: screenshotPath('ziggurat-choice') });
  const n = (await moveTexts(page)).length;
  await page.click(`.zg-choose button[data-move="${pair[1]}"]`);
  await page.waitForFunction((k) => document.querySelectorAll('#moves li').length > k, n);
  assert.equal((await moveTexts(page))[n], pair[1]);
  await page.close();
});

test('Nimitz: choose a piece from the store, then a cell (and an orientation); reload', async () => {
  const r = await apiCall(server.url, 'POST', 'games', { game: 'nimitz', options: { board: 'volcano' }, seats: ['human', 'random'], seed: 4 });
  assert.equal(r.status, 201);
  const id = r.json.id;
  const page = await newPage(browser);
  await openGame(page, r.json);
  await page.waitForSelector('.nimitz svg .cell');
  assert.equal(await page.$$eval('.nimitz .cell', (l) => l.length), 25);
  for (let i = 0; i < 3; i++) {
    if (!(await myTurn(page))) break;
    const before = (await moveTexts(page)).length;
    const pieces = await page.$$('.nm-store button.size:not([disabled])');
    const piece = await pieces[(i * 5) % pieces.length].getAttribute('data-piece');
    await pieces[(i * 5) % pieces.length].click();
    const cells = await page.$$('.nimitz .cell.legal');
    assert.ok(cells.length > 0, 'cells are highlighted');
    const cell = await cells[i % cells.length].getAttribute('data-cell');
    await cells[i % cells.length].click();
    const choice = await page.$$('.nm-choose button');
    if (choice.length) await choice[choice.length - 1].click();
    await page.waitForFunction((n) => document.querySelectorAll('#moves li').length > n, before);
    assert.match((await moveTexts(page))[before], new RegExp(`^${piece}@${cell}:[UNESW]$`));
  }
  await myTurn(page);
  // every stack drawn is the state's (NIM-R2, R3)
  const v = (await apiCall(server.url, 'GET', `games/${id}`)).json;
  const stacks = await page.$$eval('.nimitz .cell', (l) => l.filter((g) => g.dataset.stack)
    .map((g) => `${g.dataset.cell}:${g.dataset.stack}`).sort().join(' '));
  assert.equal(stacks, v.state === '-' ? '' : v.state.split(' ').sort().join(' '));
  await page.screenshot({ path: screenshotPath('nimitz-play'), fullPage: true });
  await page.reload();
  await page.waitForSelector('.nimitz svg .cell');
  assert.equal(await page.$$eval('.nimitz .cell[data-stack]:not([data-stack=""])', (l) => l.length),
    v.state === '-' ? 0 : v.state.split(' ').length);
  await phoneFits(page, 'nimitz-phone');
  await page.close();
});

test('board modules: move parsers on the documented examples; Noname geometry from the view', async () => {
  const page = await newPage(browser);
  await page.goto(server.url);
  const layout = stateObject('noname').view.layout;
  const out = await page.evaluate(async (lay) => {
    const [ice, zig, non, nim] = await Promise.all(['icefrogs', 'ziggurat', 'noname', 'nimitz']
      .map((g) => import(`/games/${g}.js`)));
    const fp = (p) => non.footprint(p, lay).map(([x, y]) => [Math.round(x * 100) / 100, Math.round(y * 100) / 100]);
    const sq = (x, y, size = 'L') => non.footprint({ size, x, y, upright: true, angle: 0 }, lay);
    return {
      iceMoves: ['M+b1', 'c3-f6', 'pass', 's+B2', 'x'].map(ice.parseMove),
      zigSteps: ['Mh0-h4', 'QHe3-e4', 'Sd2-c3', 'Sf1:1-2', 'Tf1SE', 'Th0N', 'RA', 'end'].map((t) => {
        const s = zig.parseStep(t); return [s.kind, s.from || s.at || '', s.to || s.dir || ''];
      }),
      zigRecent: (() => {
        const moves = [['3R', null], ['RB', 0], ['RB:L', null], ['Lh0-h8', 0], ['8A', null], ['A@1-h2', 1]]
          .map(([text, seat]) => ({ text, seat }));
        return [6, 5, 1, 0].map((ply) => zig.recentSteps({ ply, moves }).map((st) => st.text));
      })(),
      nonText: ['rM@312.5,140.0/U15.0', 'gL@100.0,100.0>45.0', 'rM@300.0,300.0/U'].map((t) => non.moveText(non.parseMove(t))),
      nonUpright: fp({ size: 'S', x: 100, y: 100, upright: true, angle: 0 }),
      nonLying: fp({ size: 'L', x: 100, y: 100, upright: false, angle: 90 }),
      touching: non.overlaps(sq(100, 100), sq(125.4, 100)),
      overlapping: non.overlaps(sq(100, 100), sq(125, 100)),
      nimMove: nim.parseMove('oM@b2'),
    };
  }, layout);
  assert.deepEqual(out.iceMoves.map((m) => m && (m.pass ? 'pass' : `${m.supply ? '+' : ''}${m.from}>${m.to}`)),
    ['+M>b1', 'c3>f6', 'pass', '+S>b2', null]);
  assert.deepEqual(out.zigSteps, [['move', 'h0', 'h4'], ['move', 'e3', 'e4'], ['move', 'd2', 'c3'],
    ['button', 'f1', ''], ['button', 'f1', 'SE'], ['button', 'h0', 'N'], ['button', '', ''], ['button', '', '']]);
  // the steps marked on the board: the turn so far, else the turn before
  assert.deepEqual(out.zigRecent, [['A@1-h2'], ['RB', 'Lh0-h8'], [], []]);
  assert.deepEqual(out.nonText, ['rM@312.5,140.0/U15.0', 'gL@100.0,100.0>45.0', 'rM@300.0,300.0/U']);
  // NON §4, R17 (sizes from the view's layout): an upright S is a 14.3 mm square; a lying L
  // pointing north has its base 46.3 mm behind the tip
  assert.deepEqual(out.nonUpright, [[92.85, 92.85], [107.15, 92.85], [107.15, 107.15], [92.85, 107.15]]);
  assert.deepEqual(out.nonLying, [[100, 100], [87.3, 53.7], [112.7, 53.7]]);
  assert.equal(out.touching, false, 'touching footprints do not overlap');
  assert.equal(out.overlapping, true);
  assert.deepEqual(out.nimMove, { text: 'oM@b2', colour: 'o', size: 'M', cell: 'b2', orient: '' });
  await page.close();
});

/* `pips state GAME --json` (the library's state object, the same the server
 * puts in a game's `view`). */
function stateObject(game, opts = [], state = null) {
  const args = ['state', game, ...opts.flatMap((o) => ['--opt', o]), ...(state ? ['--state', state] : []), '--json'];
  return JSON.parse(execFileSync(PIPS, args, { encoding: 'utf8' }));
}

test('boards draw from the view alone: no state text, no rendering', async () => {
  // Each board gets a game object whose `state` and `render` are nonsense, so
  // whatever it draws comes from `view`; what it draws is checked against the
  // view (and, through the CLI tests, the view against the state).
  const cases = [
    ['tictacdoh', [], '0,0:LM 1,0:M 2,0:SM'],
    ['icefrogs', ['players=3'], 'b1:2S e3:1L2M2S ply=12 passes=0'],
    ['ziggurat', ['queen=true'], 'mover=B phase=step move=4 action=W flags=MA turns=9 result=- | f1:R,BQ h2:G h0:RQ,R i8:G,GQ,G a9:Y,YQ,Y @1:B'],
    ['noname', ['table=600x400'], 'players=2 capture_to=colour multi_attacker=colour turn_cap=300 table=600.0x400.0 first_player=1 seats r,b turn 3 to r passes 0 pads r:rS5,rM5,rL4 b:bS5,bM5,bL4 table #1 rL@300.0,300.0/U #2 bL@100.0,300.0>0.0'],
    ['nimitz', ['board=###/#.#', 'colors=3', 'sets=2'], 'a1:N:rLoM c2:U:yS'],
  ];
  const page = await newPage(browser);
  await page.goto(server.url);
  for (const [game, opts, state] of cases) {
    const o = stateObject(game, opts, state);
    const fake = { ...o, state: 'not a state', render: 'not a rendering', legal: [], moves: [], ply: 0,
      n_moves: 0, enumerable: game !== 'noname', seats: [], result: { text: o.view.result } };
    const drawn = await page.evaluate(async ([name, v]) => {
      const mod = await import(`/games/${name}.js`);
      const box = document.createElement('div');
      document.body.append(box);
      const board = mod.createBoard(box, { play: async () => false });
      board.update(v, false);
      const data = (sel, key) => [...box.querySelectorAll(sel)].map((g) => [g.dataset[key.split(':')[0]], g.dataset[key.split(':')[1]]])
        .filter(([, d]) => d && d !== '0').map((p) => p.join('=')).sort();
      const res = {
        ttd: data('.ttd .cell', 'cell:stack'), ttdLine: [...box.querySelectorAll('.ttd .cell.line')].map((g) => g.dataset.cell).sort(),
        ttdStash: [...box.querySelectorAll('.ttd .sizes button')].map((b) => b.textContent),
        ice: data('.icefrogs .cell', 'cell:height'), iceStarts: [...box.querySelectorAll('.icefrogs .cell.start')].map((g) => g.dataset.cell),
        iceSupply: [...box.querySelectorAll('.if-supply')].map((r) => r.textContent),
        zig: data('.ziggurat .sq', 'sq:pile'), zigWalls: box.querySelectorAll('.ziggurat .pyr.wall').length,
        zigDice: [...box.querySelectorAll('.zg-dice .die b')].map((b) => b.textContent),
        non: [...box.querySelectorAll('.noname .nn-piece[data-id]')].map((g) => `${g.dataset.id}:${g.getAttribute('class')}`).sort(),
        nonHits: box.querySelectorAll('.noname .nn-pieces .nn-ray.hit').length,
        nonPads: [...box.querySelectorAll('.nn-pad .who')].map((w) => w.textContent),
        nonTable: box.querySelector('.noname .nn-table') && [box.querySelector('.noname .nn-table').getAttribute('width'), box.querySelector('.noname .nn-table').getAttribute('height')],
        nim: data('.nimitz .cell', 'cell:stack'), nimCells: box.querySelectorAll('.nimitz .cell').length,
        nimStore: [...box.querySelectorAll('.nm-store button.size')].map((b) => `${b.dataset.piece}:${b.textContent}`),
      };
      board.destroy();
      box.remove();
      return res;
    }, [game, fake]);
    const v = o.view;
    if (game === 'tictacdoh') {
      assert.deepEqual(drawn.ttd, v.cells.map((c) => `${c.x},${c.y}=${c.stack.join('')}`).sort());
      assert.deepEqual(drawn.ttdLine, v.line.map(([x, y]) => `${x},${y}`).sort(), 'TTD-R5: the line is marked');
      assert.deepEqual(drawn.ttdStash, ['S', 'M', 'L'].map((z) => `${z} ×${v.stash[z]}`));
    } else if (game === 'icefrogs') {
      assert.deepEqual(drawn.ice, v.cells.filter((c) => c.stack.length).map((c) => `${c.name}=${c.stack.length}`).sort());
      assert.deepEqual(drawn.iceStarts, ['a1', 'g1', 'g7']);
      assert.deepEqual(drawn.iceSupply, v.supply.map((s, i) => `Player ${i + 1} (${['red', 'blue', 'green'][i]})S×${s.S}M×${s.M}L×${s.L}`));
    } else if (game === 'ziggurat') {
      assert.deepEqual(drawn.zig, v.squares.filter((q) => q.pile.length)
        .map((q) => `${q.name}=${q.pile.map((p) => p.colour + (p.queen ? 'Q' : '')).join(',')}`).sort());
      assert.equal(drawn.zigWalls, v.squares.filter((q) => q.wall).length);
      assert.deepEqual(drawn.zigDice, [String(v.dice.move), v.dice.action]);
    } else if (game === 'noname') {
      assert.deepEqual(drawn.nonTable, [String(v.table.width), String(v.table.height)]);
      assert.deepEqual(drawn.non, ['1:nn-piece c-r up subdued', '2:nn-piece c-b lying last']);
      assert.equal(drawn.nonHits, v.pieces.filter((p) => p.target != null).length);
      assert.deepEqual(drawn.nonPads, v.seats.map((s, i) => `Player ${i + 1} (${s.colour === 'r' ? 'red' : 'blue'}) · score ${s.score}`));
    } else {
      assert.equal(drawn.nimCells, v.cells.length);
      assert.deepEqual(drawn.nim, v.cells.filter((c) => c.stack.length)
        .map((c) => `${c.name}=${c.orient}:${c.stack.map((p) => p.colour + p.size).join('')}`).sort());
      assert.deepEqual(drawn.nimStore.sort(), v.store.map((e) => `${e.colour}${e.size}:${e.size}×${e.left}`).sort());
    }
  }
  // the server's game JSON carries the same view as `pips state --json`
  const r = await apiCall(server.url, 'POST', 'games', { game: 'icefrogs', options: { players: 3 }, seats: ['human', 'human', 'human'] });
  assert.equal(r.status, 201);
  assert.deepEqual(r.json.game.view, stateObject('icefrogs', ['players=3']).view);
  await page.close();
});
