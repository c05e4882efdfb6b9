// lua.test.mjs — games written in Lua in a real browser (issue 26,
// docs/lua.md): `pips serve --rules-dir DIR` offers the folder's Lua games in
// the lobby and its rule scripts as the `rules` option. A Lua game with a
// `view` hook is drawn as pyramids on a grid (svg.grid-view) above its text;
// one without shows its `render` text and a clickable list of legal moves.
// Both at 1366x768 and at 390x844 (a phone, by touch), every board inside the
// window; a rule script chosen in the lobby filters the first moves.
// Screenshots go to build/web-screenshots/lua-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, launchBrowser, screenshotPath, apiCall, newPage, myTurn, SOURCE_DIR } from './helpers.mjs';

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
const SIZES = [['desktop', DESKTOP, {}], ['phone', PHONE, { isMobile: true, hasTouch: true }]];

let server, dir, overtop, plain;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pips-lua-web-'));
  const text = readFileSync(join(SOURCE_DIR, 'examples/games/overtop.lua'), 'utf8');
  overtop = join(dir, 'overtop.lua');
  writeFileSync(overtop, text);
  // the same game without its view hook: the page falls back to the text
  plain = join(dir, 'plain.lua');
  const noView = text.replace('name = "overtop", title = "Overtop"', 'name = "plain", title = "Overtop, text only"')
    .replace('function game.view(s)', 'local function unused_view(s)');
  assert.notEqual(noView, text);
  writeFileSync(plain, noView);
  writeFileSync(join(dir, 'tictacdoh-small-first.lua'),
    readFileSync(join(SOURCE_DIR, 'examples/rules/tictacdoh-small-first.lua'), 'utf8'));
  server = await startServer({ args: ['--rules-dir', dir] });
});
after(async () => {
  if (server) await server.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/* Starts game `name` from the lobby, this browser on seat 0 against random. */
async function startFromLobby(page, name, options = {}) {
  await page.goto(server.url);
  await page.selectOption('#game', name);
  for (const [key, value] of Object.entries(options)) await page.selectOption(`#opt-${key}`, value);
  await page.selectOption('#seat-0', 'human');
  await page.selectOption('#seat-1', 'random');
  await page.click('#start');
  await page.waitForSelector('#board');
  assert.equal(await myTurn(page), true);
}

/* The element's box lies inside the window (no sideways scrolling needed). */
async function insideWindow(page, selector, size) {
  const box = await page.locator(selector).first().boundingBox();
  assert.ok(box, `${selector} is shown`);
  assert.ok(box.x >= 0 && box.x + box.width <= size.width + 0.5,
    `${selector} spans ${box.x}..${box.x + box.width}, wider than ${size.width}`);
}

/* Plays move by its button, then waits for the random seat's reply. */
async function clickMove(page, move, touch) {
  const before = await page.locator('#moves li').count();
  const b = page.locator(`.legal-list button[data-move="${move}"]`);
  if (touch) await b.tap(); else await b.click();
  await page.waitForFunction((n) => document.querySelectorAll('#moves li').length >= n, before + 2);
  assert.equal(await myTurn(page), true);
}

for (const [label, size, extra] of SIZES) {
  test(`a Lua game's grid view drawn as pyramids (${label})`, async () => {
    const browser = await launchBrowser({ viewport: size, ...extra });
    try {
      const page = await newPage(browser);
      await startFromLobby(page, overtop);
      // the empty row: five cells, no pyramid yet, the text below it
      assert.equal(await page.locator('svg.grid-view rect').count(), 5);
      assert.equal(await page.locator('svg.grid-view polygon').count(), 0);
      assert.match(await page.textContent('pre.render'), /owned: 0 to 0/);
      assert.equal(await page.locator('.legal-list button').count(), 15);   // 3 sizes x 5 cells
      await clickMove(page, 'L@3', extra.hasTouch);
      // my large pyramid on the third cell (x = 2), and the random seat's reply;
      // each pyramid coloured by the owner of its cell (the top piece's seat)
      const OWNER = ['#c0392b', '#2e6fb7'];
      const view = (await apiCall(server.url, 'GET', `games/${page.url().split('/').pop()}`)).json;
      const cells = view.view.cells;
      assert.ok(cells.some((c) => c.x === 2 && c.stack[0] === 'L'));
      let pieces = 0;
      for (const c of cells) {
        for (const piece of c.stack) {
          const p = page.locator('svg.grid-view polygon', { has: page.locator('title', { hasText: `${piece} at ${c.x},0` }) });
          assert.ok(await p.count() >= 1, `${piece} at ${c.x} drawn`);
          assert.equal(await p.first().getAttribute('fill'), OWNER[c.owner]);
          pieces++;
        }
      }
      assert.equal(pieces, 2);
      assert.equal(await page.locator('svg.grid-view polygon').count(), pieces);
      assert.equal(await page.locator('#moves li').count(), 2);
      await insideWindow(page, 'svg.grid-view', size);
      await insideWindow(page, '.legal-list', size);
      await page.screenshot({ path: screenshotPath(`lua-grid-${label}`), fullPage: true });
    } finally { await browser.close(); }
  });

  test(`a Lua game without a view: its text and a clickable move list (${label})`, async () => {
    const browser = await launchBrowser({ viewport: size, ...extra });
    try {
      const page = await newPage(browser);
      await startFromLobby(page, plain);
      assert.equal(await page.locator('svg.grid-view').count(), 0);
      assert.match(await page.textContent('.legal-title'), /^Legal moves \(15\)/);
      await clickMove(page, 'S@1', extra.hasTouch);
      assert.match(await page.textContent('pre.render'), /^1S \|/);   // my small pyramid, first cell
      assert.equal(await page.locator('#moves li').count(), 2);
      // a typed move goes through the same path
      const legal = await page.$$eval('.legal-list button', (l) => l.map((b) => b.dataset.move));
      await page.fill('#typed-move', legal[0]);
      await page.press('#typed-move', 'Enter');
      // my typed move and the random seat's reply: only then is the move list back
      await page.waitForFunction(() => document.querySelectorAll('#moves li').length >= 4);
      await page.waitForSelector('.legal-list', { state: 'visible' });
      await insideWindow(page, 'pre.render', size);
      await insideWindow(page, '.legal-list', size);
      await page.screenshot({ path: screenshotPath(`lua-text-${label}`), fullPage: true });
    } finally { await browser.close(); }
  });
}

test('a rule script chosen in the lobby filters the moves', async () => {
  const browser = await launchBrowser({ viewport: DESKTOP });
  try {
    const page = await newPage(browser);
    await startFromLobby(page, 'tictacdoh', { rules: 'tictacdoh-small-first.lua' });
    const id = page.url().split('/').pop();
    const view = (await apiCall(server.url, 'GET', `games/${id}`)).json;
    assert.deepEqual(view.legal, ['S@0,0']);   // the first piece must be small
    assert.equal(await page.locator('.ttd .cell.legal').count(), 1);
    await page.screenshot({ path: screenshotPath('lua-rules-desktop') });
  } finally { await browser.close(); }
});
