// helpers.mjs — shared by the browser tests: starts `pips serve` on a free
// port with a throwaway database and launches Debian's chromium (never a
// downloaded browser) through playwright-core with a fresh profile.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

export const SOURCE_DIR = resolve(new URL('../..', import.meta.url).pathname);
export const BUILD_DIR = process.env.PIPS_BUILD_DIR || join(SOURCE_DIR, 'build');
export const PIPS = process.env.PIPS_BINARY || join(BUILD_DIR, 'pips');
export const CHROMIUM = process.env.PIPS_CHROMIUM || '/usr/bin/chromium';

/* Starts `pips serve`. With { dir, port } it reuses a database directory and
 * a port (a restart); stop({ keep: true }) leaves the directory for that.
 * args: more arguments for pips serve (e.g. ['--rules-dir', DIR]). */
export async function startServer({ dir: reuse, port = 0, args = [] } = {}) {
  const dir = reuse || mkdtempSync(join(tmpdir(), 'pips-web-'));
  const proc = spawn(PIPS, ['serve', '--port', String(port), '--db', join(dir, 'pips.db'),
    '--web', join(SOURCE_DIR, 'web'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  proc.stderr.on('data', (d) => { err += d; });
  const url = await new Promise((ok, fail) => {
    let out = '';
    const t = setTimeout(() => fail(new Error('pips serve did not start: ' + err)), 5000);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/[^ ]+\/)/.exec(out);
      if (m) { clearTimeout(t); ok(m[1]); }
    });
    proc.on('exit', (code) => fail(new Error(`pips serve exited ${code}: ${err}`)));
  });
  return {
    url,
    dir,
    port: Number(new URL(url).port),
    // stops the server; throws when it did not exit cleanly (e.g. a sanitizer report)
    async stop({ keep = false } = {}) {
      const code = await new Promise((r) => { proc.on('exit', (c) => r(c)); proc.kill('SIGTERM'); });
      if (!keep) rmSync(dir, { recursive: true, force: true });
      if (code !== 0) throw new Error(`pips serve exited with ${code}: ${err}`);
    },
  };
}

/* A fresh browser; options such as { hasTouch, isMobile, viewport } go to the context. */
export async function launchBrowser(options = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'pips-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-quic'],
    viewport: { width: 1100, height: 800 },
    ...options,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export function screenshotPath(name) {
  const dir = join(BUILD_DIR, 'web-screenshots');
  mkdirSync(dir, { recursive: true });
  return join(dir, `${name}.png`);
}

export async function apiCall(base, method, path, body) {
  const res = await fetch(base + 'api/' + path, {
    method, headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

/* A new page in the browser's context; a page error fails the test. */
export async function newPage(browser) {
  const page = await browser.context.newPage();
  page.on('pageerror', (e) => { throw e; });
  return page;
}

/* Waits until it is this browser's turn (the agent has answered) or the game
 * is over; true when it is this browser's move. */
export async function myTurn(page) {
  await page.waitForFunction(() => {
    const s = document.getElementById('status');
    return s && (/^Your move/.test(s.textContent) || /^Game over/.test(s.textContent));
  }, null, { timeout: 10000 });
  return (await page.textContent('#status')).startsWith('Your move');
}

/* Opens game r ({ id, tokens }) on the server at base with this browser
 * holding `tokens` (by seat; null for a seat it does not hold), the game's
 * own board (not the text board). */
export async function openGame(page, base, r, tokens = r.tokens) {
  await page.goto(base);
  await page.evaluate(([id, t]) => {
    localStorage.setItem('pips-tokens-' + id, JSON.stringify(t));
    localStorage.setItem('pips-text-board', '0');
  }, [r.id, tokens]);
  await page.goto(`${base}#/game/${r.id}`);
}
