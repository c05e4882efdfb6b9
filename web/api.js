// api.js — the JSON API client and the tokens this browser holds.
// Tokens live in localStorage under "pips-tokens-<id>" as an array indexed
// by seat (null where this browser holds no seat), so a reload restores them.

export class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

export async function api(method, path, body, headers = {}) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch('/api/' + path, init);
  } catch {
    throw new ApiError(0, 'The server cannot be reached (stopped or restarting); try again in a moment.');
  }
  let data = null;
  try { data = await res.json(); } catch { /* not JSON */ }
  if (!res.ok) throw new ApiError(res.status, (data && data.error) || res.statusText);
  return data;
}

export function loadTokens(id) {
  try {
    const t = JSON.parse(localStorage.getItem('pips-tokens-' + id) || '[]');
    return Array.isArray(t) ? t : [];
  } catch { return []; }
}

export function saveTokens(id, tokens) {
  localStorage.setItem('pips-tokens-' + id, JSON.stringify(tokens));
}

/* Forgets the token of one seat (a stale or foreign link). */
export function dropToken(id, seat) {
  const t = loadTokens(id);
  if (seat < t.length) t[seat] = null;
  saveTokens(id, t);
}

/* Adds the token of one seat (from a share link). */
export function addToken(id, seat, token) {
  const t = loadTokens(id);
  while (t.length <= seat) t.push(null);
  t[seat] = token;
  saveTokens(id, t);
}

export function heldTokens(id) {
  return loadTokens(id).filter((t) => typeof t === 'string' && t.length > 0);
}
