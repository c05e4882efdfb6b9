// bench_moves.mjs — move round-trip latency of `pips serve` on loopback
// under a steady open-loop load of human moves (each one a SQLite commit).
//   node tests/web/bench_moves.mjs [--rate 500] [--seconds 10] [--sync full|normal]
// Starts its own server on a free port with a throwaway database, creates
// hotseat Tic Tac Doh! games, then sends moves at a fixed rate over
// keep-alive connections and prints latency percentiles.
import http from 'node:http';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PIPS, SOURCE_DIR } from './helpers.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf('--' + name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const RATE = Number(arg('rate', 500)), SECONDS = Number(arg('seconds', 10)), SYNC = arg('sync', 'normal'), DB = arg('db', '');

const dir = mkdtempSync(join(tmpdir(), 'pips-bench-'));
const proc = spawn(PIPS, ['serve', '--port', '0', '--db', DB || join(dir, 'b.db'), '--sync', SYNC,
  '--web', join(SOURCE_DIR, 'web')], { stdio: ['ignore', 'pipe', 'inherit'] });
const base = await new Promise((ok) => {
  let out = '';
  proc.stdout.on('data', (d) => {
    out += d;
    const m = /listening on http:\/\/([^/]+)\//.exec(out);
    if (m) ok(m[1]);
  });
});
const [host, port] = [base.split(':')[0], Number(base.split(':')[1])];
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function request(method, path, body) {
  return new Promise((ok, fail) => {
    const data = body === undefined ? '' : JSON.stringify(body);
    const t0 = process.hrtime.bigint();
    const req = http.request({ host, port, method, path, agent,
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) } },
    (res) => {
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => ok({ status: res.statusCode, body: text,
        ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
    });
    req.on('error', fail);
    req.end(data);
  });
}

// A line of 10 legal, non-ending moves, found once by playing the listed moves.
const PLIES = 10;
const probe = JSON.parse((await request('POST', '/api/games', { game: 'tictacdoh', seats: ['human', 'human'] })).body);
const line = [];
for (let i = 0; i < PLIES; i++) {
  const v = JSON.parse((await request('GET', `/api/games/${probe.id}`)).body);
  const mv = v.legal[(i * 7 + 3) % v.legal.length];
  const r = JSON.parse((await request('POST', `/api/games/${probe.id}/moves`, { move: mv, token: probe.tokens[i % 2] })).body);
  if (r.over) { i = -1; line.length = 0; continue; }
  line.push(mv);
}
const total = RATE * SECONDS, nGames = Math.ceil(total / PLIES);
const games = [];
for (let i = 0; i < nGames; i++) {
  const r = JSON.parse((await request('POST', '/api/games', { game: 'tictacdoh', seats: ['human', 'human'] })).body);
  games.push({ id: r.id, tokens: r.tokens, ply: 0 });
}
// Round-robin over the games, one move every 1/RATE s (open loop).
const lat = [];
let errors = 0, sent = 0;
const start = process.hrtime.bigint();
await new Promise((done) => {
  let finished = 0;
  const tick = () => {
    const due = Math.min(total, Math.floor(Number(process.hrtime.bigint() - start) / 1e9 * RATE) + 1);
    while (sent < due) {
      const g = games[sent % nGames];
      const ply = g.ply++;
      sent++;
      request('POST', `/api/games/${g.id}/moves`, { move: line[ply], token: g.tokens[ply % 2] })
        .then((r) => { if (r.status !== 200) errors++; lat.push(r.ms); })
        .catch(() => { errors++; })
        .finally(() => { if (++finished === total) done(); });
    }
    if (sent < total) setTimeout(tick, 1);
  };
  tick();
});
const secs = Number(process.hrtime.bigint() - start) / 1e9;
lat.sort((a, b) => a - b);
const pct = (p) => lat[Math.min(lat.length - 1, Math.floor(p / 100 * lat.length))].toFixed(3);
console.log(`moves ${lat.length} in ${secs.toFixed(2)} s (${(lat.length / secs).toFixed(0)}/s), errors ${errors}, sync=${SYNC}`);
console.log(`latency ms: p50 ${pct(50)}  p90 ${pct(90)}  p99 ${pct(99)}  p99.9 ${pct(99.9)}  max ${lat[lat.length - 1].toFixed(3)}`);
agent.destroy();
proc.kill('SIGTERM');
await new Promise((r) => proc.on('exit', r));
rmSync(dir, { recursive: true, force: true });
