/*
 * pips/server.h — the game server: a JSON API over HTTP for playing any
 * registered game against people and agents, with every game kept in an
 * SQLite database so a restarted server resumes every game where it was.
 *
 * The API is a plain function from a request (method, path, query, headers,
 * body) to a response (status, content type, body): pips_server_handle. It
 * touches no socket, so tests (and fuzzers) call it directly. The HTTP
 * listener (libmicrohttpd) is a thin adapter around it, plus the
 * Server-Sent Events stream, which waits on pips_server_wait_change.
 *
 * Invariants: a request either succeeds or changes nothing; every
 * acknowledged move is committed to the database before the reply; the
 * library never prints. Errors are JSON {"error": "..."} with a 4xx status.
 * Thread safety: every public function may be called from any thread.
 */
#ifndef PIPS_SERVER_H
#define PIPS_SERVER_H

#include "pips/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pips_server pips_server;

typedef struct pips_server_config {
    const char *db_path;      /* SQLite file; ":memory:" for a throwaway store */
    const char *web_root;     /* directory of the static UI; NULL serves none */
    size_t max_games;         /* games stored at once (0 = 10000) */
    size_t max_body;          /* request body bytes (0 = 256 KiB) */
    double max_think_seconds; /* wall-clock budget per agent move (0 = 10) */
    int ai_threads;           /* agent worker threads (0 = 2) */
    bool sync_full;           /* fsync every commit (PRAGMA synchronous=FULL) */
    const char *rules_dir;    /* Lua rule scripts and games offered by the lobby, or NULL */
    /* Heavy requests (docs/server.md, Limits): how many of each kind run at
     * once, past which the answer is 503 with Retry-After, and how many one
     * client address may have in flight, past which it is 429. */
    int max_hints;       /* hint solves at once (0 = 1) */
    int max_uploads;     /* record uploads at once (0 = 2) */
    int max_listings;    /* agent listings not yet cached, at once (0 = 2) */
    int per_client;      /* heavy requests in flight per client address (0 = 2) */
    double hint_seconds; /* the solver's budget per hint (0 = 1) */
    size_t hint_table_mb; /* the solver's table per hint, MiB (0 = 64) */
} pips_server_config;

/* What the server has done so far, for tests and monitoring. */
typedef struct pips_server_stats {
    unsigned long long cache_hits, cache_misses; /* /api/rules and /api/agents */
    size_t cache_entries;
    unsigned long long refused_busy;   /* 503: a kind at its limit */
    unsigned long long refused_client; /* 429: a client at its limit */
    int heavy_in_flight;               /* heavy requests admitted and not finished */
    unsigned long long checkpoints;    /* WAL checkpoints run by the checkpoint thread */
} pips_server_stats;
void pips_server_get_stats(pips_server *s, pips_server_stats *st);

/* Opens (creating or migrating) the database, reloads every stored game by
 * replaying its moves, and starts the agent workers. NULL with *err. */
pips_server *pips_server_new(const pips_server_config *cfg, pips_error *err);
/* Stops the listener and the workers, closes the database. */
void pips_server_free(pips_server *s);
/* Games that failed to replay at start-up (kept in the database, not served). */
size_t pips_server_broken_games(const pips_server *s);

/* ---- the request handler ---------------------------------------------------- */

typedef struct pips_http_header {
    const char *name, *value;
} pips_http_header;

typedef struct pips_http_request {
    const char *method;
    const char *path;  /* without the query string */
    const char *query; /* after '?', or NULL */
    const pips_http_header *headers;
    size_t n_headers;
    const char *body; /* may hold NUL bytes; body_len counts them */
    size_t body_len;
    const char *client; /* the peer's address, for per-client limits; NULL = not counted */
} pips_http_request;

typedef struct pips_http_response {
    int status;
    char content_type[64];
    char *body; /* malloc'ed; free with pips_http_response_free */
    size_t body_len;
    char content_disposition[128]; /* "" when none */
    /* Static files (issue 27) and cached API answers (issue 30): "" when
     * none; an empty cache_control means no-store. vary_encoding adds
     * "Vary: Accept-Encoding". */
    char etag[48];
    char cache_control[64];
    char content_encoding[16];
    bool vary_encoding;
    /* Set for GET /api/games/{id}/events: the listener streams this game. */
    long long stream_game;
    /* Cached API answers (issue 30) set etag and cache_control too; 304 has
     * no body. retry_after: seconds, sent as Retry-After with a 429 or 503
     * (0 = none). */
    int retry_after;
} pips_http_response;

/* Answers one request. Never fails: errors become 4xx/5xx responses. */
void pips_server_handle(pips_server *s, const pips_http_request *req, pips_http_response *res);
void pips_http_response_free(pips_http_response *res);

/* Waits until game `id` has a version newer than *version or timeout_ms
 * passes. Returns 1 on a change (the game's JSON view goes to *json,
 * malloc'ed, and *version is updated), 0 on timeout, -1 when the game is
 * gone or the server is stopping. */
int pips_server_wait_change(pips_server *s, long long id, unsigned long long *version,
                            int timeout_ms, char **json);

/* Blocks until no agent is thinking or queued (for tests), or timeout_ms. */
bool pips_server_idle(pips_server *s, int timeout_ms);

/* ---- the HTTP listener -------------------------------------------------------- */

/* Listens on bind_addr:port (port 0 picks a free port). */
bool pips_server_listen(pips_server *s, const char *bind_addr, int port, pips_error *err);
/* The port listened on, or 0. */
int pips_server_port(const pips_server *s);
/* Stops listening (pips_server_free does it too). */
void pips_server_stop(pips_server *s);

#ifdef __cplusplus
}
#endif
#endif
