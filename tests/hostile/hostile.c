/*
 * hostile.c — a hostile client for `pips serve`, run by tests/cli/hostile.sh.
 *
 *   pips_hostile run PORT SUMMARY_FILE [SECONDS=20]
 *   pips_hostile verify PORT SUMMARY_FILE [MAX_UNACKED=0]
 *   pips_hostile stream PORT SUMMARY_FILE SECONDS
 *
 * `run` attacks a running server on 127.0.0.1:PORT in three overlapping parts:
 *   1. refused requests, one at a time, on a hotseat game: oversized bodies,
 *      truncated and invalid JSON, wrong types, huge numbers, unknown games,
 *      options and agents, illegal and malformed moves, another seat's token
 *      or none, replays, bad paths and methods, and protocol-level garbage.
 *      Each API refusal must be a 4xx with a JSON {"error": string}, and the
 *      game's view fetched before and after must be byte-equal.
 *   2. many games played at once, two client threads per game (one per
 *      seat), each on its own keep-alive connection. On its turn a client
 *      sometimes first sends a bad request (only it may change the game on
 *      its turn, so the view must be unchanged after), then a legal move with
 *      the "ply" precondition, then replays it (409 or 403 expected). Off
 *      turn it sends its stray move with the ply it saw (403 or 409). Up
 *      to ROUNDS rounds of new games. Alongside the first round, creator
 *      threads make games, half of their requests invalid: the game count
 *      must grow by exactly the games made. Four games per round are also
 *      watched through their event streams (versions must rise, move counts
 *      never fall).
 *   3. slow clients that send their request one byte at a time (and one that
 *      gives up half-way) while parts 1 and 2 run: every other request's
 *      latency is measured and must stay far below the slow clients' time.
 * At the end every game's moves (chance outcomes aside) must equal the moves
 * acknowledged with 200, in order: every legal move acknowledged exactly
 * once. The acknowledged moves go to SUMMARY_FILE so `verify` can check them
 * again after the server is restarted on the same database.
 * `verify` checks a summary against a server; MAX_UNACKED stored moves per
 * game may lack an acknowledgement (in flight when the server was killed)
 * and are then adopted into the summary. `stream` (tests/cli/faults.sh)
 * plays moves on 4 new games at once as fast as it can until SECONDS pass
 * or the server goes away (killed), adding the acknowledged ones to the
 * summary; a failed connection is not an error there.
 * Bounded: a fixed number of games and moves, a deadline, 10 s socket
 * timeouts. Exit status 0 when every check held, 1 otherwise.
 */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define MAX_GAMES 1024
#define STREAMS 4
#define MAX_PLY 200
#define GAMES_PER_NAME 12
#define CREATORS 8
#define CREATES_EACH 12
#define MOVES_PER_GAME 40
#define SLOW_CLIENTS 4
#define ROUNDS 4
#define WATCHERS 4

static int port;
static double deadline;
static atomic_long n_requests, n_refused, n_failures, n_acked, n_transport;
static atomic_long max_latency_us;
static atomic_bool server_gone; /* stream mode: the server was killed */
static bool streaming;
static pthread_mutex_t out_mu = PTHREAD_MUTEX_INITIALIZER;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static void failf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&out_mu);
    fprintf(stderr, "FAIL: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    pthread_mutex_unlock(&out_mu);
    va_end(ap);
    atomic_fetch_add(&n_failures, 1);
}

/* ---- a minimal HTTP/1.1 client ---- */

typedef struct conn {
    int fd;
} conn;

typedef struct resp {
    int status;
    char *body;
    size_t len;
} resp;

static int open_socket(void)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
    if (fd < 0)
        return -1;
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct timeval tv = {10, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static void conn_close(conn *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
}

static bool send_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* Reads one response (Content-Length framing). False on a transport error. */
static bool read_response(int fd, resp *r, bool *server_closes)
{
    size_t cap = 8192, got = 0;
    char *buf = malloc(cap);
    size_t head = 0, need = 0;
    long clen = -1;
    *server_closes = false;
    for (;;) {
        if (head && got >= head + (size_t)clen)
            break;
        if (got + 4096 + 1 > cap) {
            cap = cap * 2 + (clen > 0 ? (size_t)clen : 0);
            char *nb = realloc(buf, cap);
            if (!nb)
                break;
            buf = nb;
        }
        ssize_t n = recv(fd, buf + got, cap - got - 1, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            free(buf);
            return false;
        }
        got += (size_t)n;
        buf[got] = '\0';
        if (!head) {
            char *end = strstr(buf, "\r\n\r\n");
            if (!end)
                continue;
            head = (size_t)(end - buf) + 4;
            r->status = 0;
            sscanf(buf, "HTTP/1.%*d %d", &r->status);
            clen = 0;
            for (char *line = strstr(buf, "\r\n"); line && line < end; line = strstr(line + 2, "\r\n")) {
                if (!strncasecmp(line + 2, "Content-Length:", 15))
                    clen = strtol(line + 17, NULL, 10);
                else if (!strncasecmp(line + 2, "Connection: close", 17))
                    *server_closes = true;
            }
            need = head + (size_t)clen;
            if (need + 1 > cap) {
                char *nb = realloc(buf, need + 1);
                if (!nb)
                    break;
                buf = nb;
                cap = need + 1;
            }
        }
    }
    r->len = (size_t)clen;
    r->body = malloc(r->len + 1);
    memcpy(r->body, buf + head, r->len);
    r->body[r->len] = '\0';
    free(buf);
    return true;
}

/* Sends one request (extra_headers end with "\r\n" or are ""). status -1 on
 * a transport error. Reconnects when the server closed the connection. */
static void request_raw(conn *c, const char *method, const char *path, const char *extra_headers,
                        const char *body, size_t blen, resp *r)
{
    r->status = -1;
    r->body = NULL;
    r->len = 0;
    double t0 = now();
    for (int attempt = 0; attempt < 2; attempt++) {
        if (c->fd < 0 && (c->fd = open_socket()) < 0)
            break;
        char head[1024];
        int hn = snprintf(head, sizeof head,
                          "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                          "Content-Length: %zu\r\n%s\r\n",
                          method, path, blen, extra_headers);
        bool sent = send_all(c->fd, head, (size_t)hn) && send_all(c->fd, body, blen);
        bool closes = false;
        if (sent && read_response(c->fd, r, &closes)) {
            if (closes)
                conn_close(c);
            break;
        }
        /* a kept-alive connection the server timed out: retry once, but only
         * when nothing was sent successfully, so a POST is never doubled */
        conn_close(c);
        if (sent)
            break;
    }
    atomic_fetch_add(&n_requests, 1);
    long us = (long)((now() - t0) * 1e6);
    long prev = atomic_load(&max_latency_us);
    while (us > prev && !atomic_compare_exchange_weak(&max_latency_us, &prev, us)) {
    }
    if (r->status < 0)
        atomic_fetch_add(&n_transport, 1);
}

static void request(conn *c, const char *method, const char *path, const char *body, resp *r)
{
    request_raw(c, method, path, "", body ? body : "", body ? strlen(body) : 0, r);
}

static void resp_free(resp *r)
{
    free(r->body);
    r->body = NULL;
}

/* A refusal must be 4xx (within [lo, hi]) with a JSON object holding an
 * "error" string. */
static bool check_refusal(const resp *r, int lo, int hi, const char *what)
{
    atomic_fetch_add(&n_refused, 1);
    if (r->status < lo || r->status > hi) {
        failf("%s: status %d, expected %d..%d: %.200s", what, r->status, lo, hi,
              r->body ? r->body : "");
        return false;
    }
    json_t *j = json_loadb(r->body, r->len, 0, NULL);
    bool ok = j && json_is_string(json_object_get(j, "error"));
    json_decref(j);
    if (!ok)
        failf("%s: status %d without a JSON error: %.200s", what, r->status, r->body);
    return ok;
}

/* ---- games ---- */

typedef struct game {
    long long id;
    char name[32];
    char tokens[2][40];
    pthread_mutex_t mu;
    /* acknowledged moves by ply ("" where a chance outcome or none) */
    char acked[MAX_PLY][32];
    int n_acked;
} game;

static game games[MAX_GAMES];
static int n_games;

static json_t *parse(const resp *r)
{
    return r->status >= 0 ? json_loadb(r->body, r->len, 0, NULL) : NULL;
}

/* Creates a hotseat game of `name`; false on failure. */
static bool create_game(conn *c, const char *name, long long seed, game *g)
{
    char body[256];
    snprintf(body, sizeof body, "{\"game\":\"%s\",\"seed\":%lld}", name, seed);
    resp r;
    request(c, "POST", "/api/games", body, &r);
    json_t *j = parse(&r);
    json_t *toks = json_object_get(j, "tokens");
    bool ok = r.status == 201 && json_is_integer(json_object_get(j, "id")) &&
              json_array_size(toks) == 2 && json_is_string(json_array_get(toks, 0)) &&
              json_is_string(json_array_get(toks, 1));
    if (ok) {
        memset(g, 0, sizeof *g);
        g->id = json_integer_value(json_object_get(j, "id"));
        snprintf(g->name, sizeof g->name, "%s", name);
        for (int i = 0; i < 2; i++)
            snprintf(g->tokens[i], sizeof g->tokens[i], "%s",
                     json_string_value(json_array_get(toks, (size_t)i)));
        pthread_mutex_init(&g->mu, NULL);
    } else if (streaming && r.status < 0) {
        atomic_store(&server_gone, true);
    } else {
        failf("create %s: %d %.200s", name, r.status, r.body ? r.body : "");
    }
    json_decref(j);
    resp_free(&r);
    return ok;
}

static char *view_text(conn *c, long long id)
{
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld", id);
    resp r;
    request(c, "GET", path, NULL, &r);
    if (r.status != 200) {
        failf("GET %s: %d", path, r.status);
        resp_free(&r);
        return NULL;
    }
    return r.body;
}

/* Sends a request that must be refused and checks the game is unchanged. */
static void refused(conn *c, game *g, const char *method, const char *path, const char *body,
                    size_t blen, const char *headers, int lo, int hi, const char *what)
{
    char *before = view_text(c, g->id);
    resp r;
    request_raw(c, method, path, headers ? headers : "", body, blen, &r);
    check_refusal(&r, lo, hi, what);
    resp_free(&r);
    char *after = view_text(c, g->id);
    if (before && after && strcmp(before, after) != 0)
        failf("%s: the refused request changed game %lld:\n  before %s\n  after  %s", what,
              g->id, before, after);
    free(before);
    free(after);
}

/* ---- part 1: refused requests on one game ---- */

static void part_refusals(void)
{
    conn c = {-1};
    game *g = &games[n_games];
    if (!create_game(&c, "tictacdoh", 7, g))
        return;
    n_games++;
    char path[96], body[1024];
    snprintf(path, sizeof path, "/api/games/%lld/moves", g->id);
    const char *t0 = g->tokens[0], *t1 = g->tokens[1];

    /* bodies: oversized (over the default 256 KiB), truncated, invalid */
    size_t big = 300 * 1024;
    char *huge = malloc(big + 1);
    memset(huge, ' ', big);
    memcpy(huge, "{\"move\":\"", 9);
    huge[big - 2] = '"';
    huge[big - 1] = '}';
    huge[big] = '\0';
    refused(&c, g, "POST", path, huge, big, NULL, 413, 413, "oversized move body");
    refused(&c, g, "POST", "/api/games", huge, big, NULL, 413, 413, "oversized create body");
    refused(&c, g, "POST", "/api/records", huge, big, NULL, 413, 413, "oversized record");
    free(huge);
    static const char *const bad_bodies[] = {
        "{\"move\":\"L@0,0\",\"token\":\"",
        "{\"move\":",
        "{",
        "not json",
        "[1,2,3]",
        "\"L@0,0\"",
        "null",
        "{\"move\":\"L@0,0\",\"move\":\"M@1,1\"}",
        "{\"move\":\"\xff\xfe\"}",
        "{\"move\":\"x\",\"se\\\xcf\x9c\":1}",
        "{\"move\":L@0,0}",
        "{\"move\":12,\"token\":\"%s\"}",
        "{\"move\":null,\"token\":\"%s\"}",
        "{\"move\":[\"L@0,0\"],\"token\":\"%s\"}",
        "{\"move\":{\"x\":1},\"token\":\"%s\"}",
        "{\"move\":\"L@0,0\",\"token\":12345}",
        "{\"move\":\"L@0,0\",\"tokens\":{\"a\":\"%s\"}}",
        "{\"move\":\"L@0,0\"}",
        "{\"move\":\"L@0,0\",\"token\":\"\"}",
        "{\"move\":\"L@0,0\",\"token\":\"%.31s\"}",
        "{\"move\":\"L@0,0\",\"token\":\"%s0\"}",
        "{\"move\":\"L@0,0\",\"token\":\"%s\",\"ply\":\"0\"}",
        "{\"move\":\"L@0,0\",\"token\":\"%s\",\"ply\":1e308}",
        "{\"move\":\"L@0,0\",\"token\":\"%s\",\"ply\":99999999999999999999999}",
        "{\"move\":\"L@0,0\",\"token\":\"%s\",\"ply\":-1}",
        "{\"move\":\"L@0,0\",\"token\":\"%s\",\"ply\":5}",
        "{\"move\":\"Q@9,9\",\"token\":\"%s\"}",
        "{\"move\":\"L@0,0,0,0,0,0\",\"token\":\"%s\"}",
        "{\"move\":\"\",\"token\":\"%s\"}",
        "{\"move\":\"L@99999999999999999999,0\",\"token\":\"%s\"}",
        "{\"move\":\"L@-1,-1\",\"token\":\"%s\"}",
        "{\"move\":\"L@0\\u00000\",\"token\":\"%s\"}",
        ("{\"move\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
         "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\",\"token\":\"%s\"}"),
    };
    for (size_t i = 0; i < sizeof bad_bodies / sizeof bad_bodies[0]; i++) {
        snprintf(body, sizeof body, bad_bodies[i], t0);
        char what[96];
        snprintf(what, sizeof what, "bad move body #%zu", i + 1);
        refused(&c, g, "POST", path, body, strlen(body), NULL, 400, 422, what);
    }
    /* a NUL byte inside the body */
    refused(&c, g, "POST", path, "{\"move\":\"L@0,0\"}\0xx", 19, NULL, 400, 403, "NUL in body");
    /* the other seat's token (seat 1 moves first), in the body or the header */
    snprintf(body, sizeof body, "{\"move\":\"L@0,0\",\"token\":\"%s\"}", t1);
    refused(&c, g, "POST", path, body, strlen(body), NULL, 403, 403, "other seat's token");
    char hdr[128];
    snprintf(hdr, sizeof hdr, "X-Pips-Token: %s\r\n", t1);
    refused(&c, g, "POST", path, "{\"move\":\"L@0,0\"}", 16, hdr, 403, 403,
            "other seat's token in header");
    /* undo and resign without a valid token; undo with nothing to take back */
    snprintf(path, sizeof path, "/api/games/%lld/undo", g->id);
    refused(&c, g, "POST", path, "{}", 2, NULL, 403, 403, "undo without token");
    snprintf(body, sizeof body, "{\"token\":\"%s\"}", t0);
    refused(&c, g, "POST", path, body, strlen(body), NULL, 409, 409, "undo at the start");
    snprintf(path, sizeof path, "/api/games/%lld/resign", g->id);
    const char *fake = "{\"token\":\"00000000000000000000000000000000\"}";
    refused(&c, g, "POST", path, fake, strlen(fake), NULL, 403, 403, "resign with a made-up token");

    /* a legal move, then its replays */
    snprintf(path, sizeof path, "/api/games/%lld/moves", g->id);
    char *v = view_text(&c, g->id);
    json_t *j = v ? json_loads(v, 0, NULL) : NULL;
    free(v);
    const char *mv = json_string_value(json_array_get(json_object_get(j, "legal"), 0));
    if (mv) {
        snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\",\"ply\":0}", mv, t0);
        resp r;
        request(&c, "POST", path, body, &r);
        if (r.status == 200) {
            snprintf(g->acked[0], sizeof g->acked[0], "%s", mv);
            g->n_acked = 1;
            atomic_fetch_add(&n_acked, 1);
        } else {
            failf("legal move %s: %d %s", mv, r.status, r.body ? r.body : "");
        }
        resp_free(&r);
        refused(&c, g, "POST", path, body, strlen(body), NULL, 403, 409, "replayed move");
        snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\"}", mv, t0);
        refused(&c, g, "POST", path, body, strlen(body), NULL, 403, 403,
                "replayed move without ply");
        snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\",\"ply\":0}", mv, t1);
        refused(&c, g, "POST", path, body, strlen(body), NULL, 409, 422, "stale ply, right seat");
    } else {
        failf("no legal move listed for game %lld", g->id);
    }
    json_decref(j);

    /* creation: unknown games, options, agents, wrong types, huge numbers */
    static const char *const bad_creates[] = {
        "{\"game\":\"chess\"}",
        "{\"game\":\"\"}",
        "{\"game\":12}",
        "{\"game\":null}",
        "{}",
        "{\"game\":\"tictacdoh\",\"options\":{\"no_such_option\":\"1\"}}",
        "{\"game\":\"tictacdoh\",\"options\":[1,2]}",
        "{\"game\":\"tictacdoh\",\"options\":\"x\"}",
        "{\"game\":\"tictacdoh\",\"options\":{\"a\":1.5}}",
        "{\"game\":\"tictacdoh\",\"options\":{\"a\":{\"b\":1}}}",
        "{\"game\":\"tictacdoh\",\"seed\":-1}",
        "{\"game\":\"tictacdoh\",\"seed\":1.5}",
        "{\"game\":\"tictacdoh\",\"seed\":\"7\"}",
        "{\"game\":\"tictacdoh\",\"seed\":1e400}",
        "{\"game\":\"tictacdoh\",\"seed\":184467440737095516150}",
        "{\"game\":\"tictacdoh\",\"seats\":\"human\"}",
        "{\"game\":\"tictacdoh\",\"seats\":[\"human\"]}",
        "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"human\",\"human\"]}",
        "{\"game\":\"tictacdoh\",\"seats\":[\"human\",7]}",
        "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"\"]}",
        "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"no_such_agent\"]}",
        "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"random:x=1\"]}",
        "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"mcts:iters=999999999999\"]}",
        "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"mcts:time=1e9\"]}",
        "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"alphabeta:depth=99\"]}",
        ("{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
         "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"]}"),
        "{\"game\":\"tictacdoh\"",
        "[\"tictacdoh\"]",
    };
    for (size_t i = 0; i < sizeof bad_creates / sizeof bad_creates[0]; i++) {
        char what[64];
        snprintf(what, sizeof what, "bad create #%zu", i + 1);
        refused(&c, g, "POST", "/api/games", bad_creates[i], strlen(bad_creates[i]), NULL, 400,
                404, what);
    }
    /* records that must not load */
    static const char *const bad_records[] = {
        "{}",
        "{\"game\":\"tictacdoh\",\"moves\":[\"Q@1,1\"]}",
        "{\"game\":\"tictacdoh\",\"moves\":[1]}",
        "{\"game\":\"tictacdoh\",\"moves\":\"x\"}",
        "{\"game\":\"tictacdoh\",\"moves\":[],\"result\":{\"over\":true}}",
        "{\"game\":\"tictacdoh\",\"moves\":[],\"seed\":-5}",
        "{\"game\":\"tictacdoh\",\"moves\":[],\"resigned\":99}",
        "{\"game\":\"tictacdoh\",\"moves\":[],\"seats\":[\"human\",\"nobody\"]}",
        "{\"format\":\"other\",\"game\":\"tictacdoh\",\"moves\":[]}",
        "{\"version\":2,\"game\":\"tictacdoh\",\"moves\":[]}",
        "{\"game\":\"tictacdoh\",\"moves\":[],\"started\":12}",
        "[]",
        "garbage",
    };
    for (size_t i = 0; i < sizeof bad_records / sizeof bad_records[0]; i++) {
        char what[64];
        snprintf(what, sizeof what, "bad record #%zu", i + 1);
        refused(&c, g, "POST", "/api/records", bad_records[i], strlen(bad_records[i]), NULL, 400,
                422, what);
    }
    /* paths, methods, queries */
    struct { const char *method, *path; int lo, hi; } bad_paths[] = {
        {"DELETE", "/api/games", 405, 405},
        {"PUT", "/api/rules", 405, 405},
        {"GET", "/api/nothing", 404, 404},
        {"GET", "/api/games/abc", 404, 404},
        {"GET", "/api/games/0", 404, 404},
        {"GET", "/api/games/-1", 404, 404},
        {"GET", "/api/games/99999999999999999999999", 404, 404},
        {"GET", "/api/games/123456789", 404, 404},
        {"POST", "/api/games/123456789/moves", 404, 404},
        {"GET", "/api/records", 405, 405},
        {"POST", "/static/../../etc/passwd", 405, 405},
        {"GET", "/../../../../etc/passwd", 404, 404},
        {"GET", "/%2e%2e/%2e%2e/etc/passwd", 404, 404},
    };
    for (size_t i = 0; i < sizeof bad_paths / sizeof bad_paths[0]; i++) {
        char what[160];
        snprintf(what, sizeof what, "%s %s", bad_paths[i].method, bad_paths[i].path);
        refused(&c, g, bad_paths[i].method, bad_paths[i].path, "", 0, NULL, bad_paths[i].lo,
                bad_paths[i].hi, what);
    }
    static const char *const bad_actions[] = {"/nope", "/moves/extra", "x", "/"};
    for (size_t i = 0; i < sizeof bad_actions / sizeof bad_actions[0]; i++) {
        snprintf(path, sizeof path, "/api/games/%lld%s", g->id, bad_actions[i]);
        refused(&c, g, "POST", path, "{}", 2, NULL, 404, 405, path);
    }
    static const char *const bad_plies[] = {"-1", "abc", "99999999999999999999", "1000", ""};
    for (size_t i = 0; i < sizeof bad_plies / sizeof bad_plies[0]; i++) {
        snprintf(path, sizeof path, "/api/games/%lld?ply=%s", g->id, bad_plies[i]);
        refused(&c, g, "GET", path, "", 0, NULL, 400, 400, path);
    }
    snprintf(path, sizeof path, "/api/games/%lld/moves", g->id);
    refused(&c, g, "GET", path, "", 0, NULL, 405, 405, "GET moves");

    /* protocol-level garbage: libmicrohttpd answers (or closes) on its own,
     * without JSON; the game must not change and the server must go on */
    static const char *const garbage[] = {
        "GARBAGE\r\n\r\n",
        "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n{}",
        "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n{}",
        "POST /api/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\n",
        "GET /api/rules HTTP/9.9\r\n\r\n",
        "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",
    };
    char *before = view_text(&c, g->id);
    for (size_t i = 0; i < sizeof garbage / sizeof garbage[0]; i++) {
        int fd = open_socket();
        if (fd < 0) {
            failf("cannot connect for garbage #%zu", i + 1);
            continue;
        }
        send_all(fd, garbage[i], strlen(garbage[i]));
        shutdown(fd, SHUT_WR);
        char sink[4096];
        while (recv(fd, sink, sizeof sink, 0) > 0) {
        }
        close(fd);
        atomic_fetch_add(&n_requests, 1);
    }
    {   /* a header far over any sane size */
        int fd = open_socket();
        if (fd >= 0) {
            const char *h = "GET /api/rules HTTP/1.1\r\nHost: x\r\nX-Big: ";
            send_all(fd, h, strlen(h));
            char pad[4096];
            memset(pad, 'a', sizeof pad);
            for (int i = 0; i < 64 && send_all(fd, pad, sizeof pad); i++) {
            }
            send_all(fd, "\r\n\r\n", 4);
            shutdown(fd, SHUT_WR);
            char sink[4096];
            while (recv(fd, sink, sizeof sink, 0) > 0) {
            }
            close(fd);
            atomic_fetch_add(&n_requests, 1);
        }
    }
    char *after = view_text(&c, g->id);
    if (before && after && strcmp(before, after))
        failf("protocol garbage changed game %lld", g->id);
    free(before);
    free(after);
    conn_close(&c);
}

/* ---- part 2: concurrent games, one client thread per seat ---- */

typedef struct seat_client {
    game *g;
    int seat;
    uint64_t rng;
    long moves, stray, bad;
} seat_client;

static uint64_t next_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A bad request on the client's own turn: the view must not change. */
static void send_bad_on_turn(conn *c, seat_client *sc, long long ply, const char *legal_move)
{
    game *g = sc->g;
    const char *mine = g->tokens[sc->seat], *theirs = g->tokens[1 - sc->seat];
    char path[96], body[512], what[160];
    snprintf(path, sizeof path, "/api/games/%lld/moves", g->id);
    int lo = 400, hi = 422;
    switch (next_rand(&sc->rng) % 8) {
    case 0:
        snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\",\"ply\":%lld}", legal_move,
                 theirs, ply);
        lo = hi = 403;
        break;
    case 1:
        snprintf(body, sizeof body, "{\"move\":\"%s\",\"ply\":%lld}", legal_move, ply);
        lo = hi = 403;
        break;
    case 2:
        snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\",\"ply\":%lld}", legal_move,
                 mine, ply + 1);
        lo = hi = 409;
        break;
    case 3:
        snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\",\"ply\":%lld",
                 legal_move, mine, ply);
        lo = hi = 400;
        break;
    case 4:
        snprintf(body, sizeof body, "{\"move\":\"zz%s\",\"token\":\"%s\",\"ply\":%lld}",
                 legal_move, mine, ply);
        break;
    case 5:
        snprintf(body, sizeof body, "{\"move\":%lld,\"token\":\"%s\"}", ply, mine);
        lo = hi = 400;
        break;
    case 6:
        snprintf(body, sizeof body, "{\"token\":\"%s\",\"ply\":%lld}", theirs, ply);
        snprintf(path, sizeof path, "/api/games/%lld/resign", g->id);
        /* their token holds a seat: a resignation would be accepted, so
         * send it to a game that does not exist instead */
        snprintf(path, sizeof path, "/api/games/%lld/resign", g->id + 100000);
        lo = hi = 404;
        break;
    default:
        snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\",\"ply\":-3}", legal_move,
                 mine);
        lo = hi = 409;
        break;
    }
    snprintf(what, sizeof what, "game %lld seat %d bad request %.60s", g->id, sc->seat, body);
    refused(c, g, "POST", path, body, strlen(body), NULL, lo, hi, what);
    sc->bad++;
}

static void *seat_main(void *arg)
{
    seat_client *sc = arg;
    game *g = sc->g;
    conn c = {-1};
    char path[96], body[512];
    snprintf(path, sizeof path, "/api/games/%lld/moves", g->id);
    while (now() < deadline && sc->moves < MOVES_PER_GAME) {
        char *v = view_text(&c, g->id);
        json_t *j = v ? json_loads(v, 0, NULL) : NULL;
        free(v);
        if (!j)
            break;
        json_t *to_move = json_object_get(j, "to_move");
        long long ply = json_integer_value(json_object_get(j, "n_moves"));
        json_t *legal = json_object_get(j, "legal");
        bool over = json_is_true(json_object_get(j, "over"));
        if (over || ply >= MAX_PLY - 8 || json_array_size(legal) == 0) {
            json_decref(j);
            break;
        }
        const char *mv =
            json_string_value(json_array_get(legal, next_rand(&sc->rng) % json_array_size(legal)));
        char move[32];
        snprintf(move, sizeof move, "%s", mv ? mv : "");
        bool mine = json_is_integer(to_move) && json_integer_value(to_move) == sc->seat;
        json_decref(j);
        if (!mine) {
            /* a stray move off turn, with the ply seen: 403, or 409 when the
             * other seat moved meanwhile */
            if (next_rand(&sc->rng) % 4 == 0) {
                snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\",\"ply\":%lld}",
                         move, g->tokens[sc->seat], ply);
                resp r;
                request(&c, "POST", path, body, &r);
                check_refusal(&r, 403, 409, "stray move off turn");
                resp_free(&r);
                sc->stray++;
            }
            usleep(2000);
            continue;
        }
        if (next_rand(&sc->rng) % 3 == 0)
            send_bad_on_turn(&c, sc, ply, move);
        snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\",\"ply\":%lld}", move,
                 g->tokens[sc->seat], ply);
        resp r;
        request(&c, "POST", path, body, &r);
        if (r.status == 200) {
            pthread_mutex_lock(&g->mu);
            if (ply >= 0 && ply < MAX_PLY) {
                if (g->acked[ply][0])
                    failf("game %lld: ply %lld acknowledged twice", g->id, ply);
                snprintf(g->acked[ply], sizeof g->acked[ply], "%s", move);
                g->n_acked++;
            }
            pthread_mutex_unlock(&g->mu);
            atomic_fetch_add(&n_acked, 1);
            sc->moves++;
        } else {
            failf("game %lld (%s) seat %d: legal move %s at ply %lld: %d %.200s", g->id, g->name,
                  sc->seat, move, ply, r.status, r.body ? r.body : "");
            resp_free(&r);
            break;
        }
        resp_free(&r);
        /* replayed: the same request again */
        request(&c, "POST", path, body, &r);
        check_refusal(&r, 403, 409, "replayed move");
        resp_free(&r);
    }
    conn_close(&c);
    return NULL;
}

/* ---- part 2c: event-stream readers on games being played ---- */

typedef struct watcher {
    long long id;
    long events;
} watcher;

static atomic_bool round_over; /* the seat clients of this round are done */

/* Reads GET /api/games/{id}/events (HTTP/1.0: no chunking, the server
 * closes at the end) until the game is over, its round ends or the
 * deadline: every event
 * must be a JSON view of that game, its version rising and its move count
 * never falling. */
static void *watch_main(void *arg)
{
    watcher *w = arg;
    int fd = open_socket();
    if (fd < 0) {
        failf("watcher of game %lld: cannot connect", w->id);
        return NULL;
    }
    struct timeval tv = {0, 200000}; /* wake up to see the round end */
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char req[128];
    int n = snprintf(req, sizeof req, "GET /api/games/%lld/events HTTP/1.0\r\n\r\n", w->id);
    send_all(fd, req, (size_t)n);
    atomic_fetch_add(&n_requests, 1);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    long long last_version = -1, last_moves = -1;
    bool over = false;
    while (!over && now() < deadline && !atomic_load(&round_over)) {
        if (len + 4096 > cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
        ssize_t r = recv(fd, buf + len, cap - len - 1, 0);
        if (r == 0)
            break;
        if (r < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
                continue;
            break;
        }
        len += (size_t)r;
        buf[len] = '\0';
        /* complete events end with a blank line */
        char *line;
        while ((line = strstr(buf, "data: ")) && strstr(line, "\n\n")) {
            char *end = strstr(line, "\n\n");
            *end = '\0';
            json_t *j = json_loads(line + 6, 0, NULL);
            long long version = json_integer_value(json_object_get(j, "version"));
            long long moves = json_integer_value(json_object_get(j, "n_moves"));
            if (!j || json_integer_value(json_object_get(j, "id")) != w->id)
                failf("watcher of game %lld: bad event %.100s", w->id, line + 6);
            else if (version <= last_version || moves < last_moves)
                failf("watcher of game %lld: version %lld after %lld, %lld moves after %lld",
                      w->id, version, last_version, moves, last_moves);
            last_version = version;
            last_moves = moves;
            over = json_is_true(json_object_get(j, "over"));
            json_decref(j);
            w->events++;
            size_t used = (size_t)(end + 2 - buf);
            memmove(buf, end + 2, len - used + 1);
            len -= used;
        }
    }
    free(buf);
    close(fd);
    if (w->events == 0)
        failf("watcher of game %lld: no event", w->id);
    return NULL;
}

/* ---- part 2b: concurrent creators, half of their requests refused ---- */

typedef struct creator {
    int index;
    long created;
} creator;

static void *creator_main(void *arg)
{
    creator *cr = arg;
    conn c = {-1};
    static const char *const bodies[] = {
        "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"random\"]}",
        "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"random\",\"random\"]}",
        "{\"game\":\"tictacdoh\",\"seed\":12}",
        "{\"game\":\"no-such-game\",\"seed\":12}",
    };
    for (int k = 0; k < CREATES_EACH; k++) {
        int which = (cr->index + k) % 4;
        resp r;
        request(&c, "POST", "/api/games", bodies[which], &r);
        if (which % 2 == 0) {
            if (r.status == 201)
                cr->created++;
            else
                failf("concurrent create: %d %.200s", r.status, r.body ? r.body : "");
        } else {
            check_refusal(&r, 400, 404, "concurrent bad create");
        }
        resp_free(&r);
    }
    conn_close(&c);
    return NULL;
}

static long games_total(conn *c)
{
    resp r;
    request(c, "GET", "/api/games", NULL, &r);
    json_t *j = parse(&r);
    long total = json_is_integer(json_object_get(j, "total"))
                     ? (long)json_integer_value(json_object_get(j, "total"))
                     : -1;
    json_decref(j);
    resp_free(&r);
    return total;
}

/* ---- part 3: slow clients ---- */

typedef struct slow_client {
    int index;
    double seconds;
    int status;
} slow_client;

static void *slow_main(void *arg)
{
    slow_client *sl = arg;
    double t0 = now();
    int fd = open_socket();
    if (fd < 0) {
        failf("slow client %d: cannot connect", sl->index);
        return NULL;
    }
    const char *body = sl->index % 2 ? "{\"game\":\"tictacdoh\",\"seed\":3}" : "{\"game\":";
    char req[512];
    int n = snprintf(req, sizeof req,
                     "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                     "application/json\r\nContent-Length: %zu\r\n\r\n%s",
                     strlen(body), body);
    bool give_up = sl->index == SLOW_CLIENTS - 1;
    int stop_at = give_up ? n / 2 : n;
    for (int i = 0; i < stop_at && now() < deadline + 5; i++) {
        if (!send_all(fd, req + i, 1)) {
            failf("slow client %d: send failed at byte %d", sl->index, i);
            close(fd);
            return NULL;
        }
        usleep(40000);
    }
    atomic_fetch_add(&n_requests, 1);
    if (give_up) {
        close(fd); /* half a request: nothing may come of it */
        sl->seconds = now() - t0;
        return NULL;
    }
    resp r;
    bool closes;
    if (!read_response(fd, &r, &closes)) {
        failf("slow client %d: no answer", sl->index);
    } else {
        sl->status = r.status;
        if (sl->index % 2 && r.status != 201)
            failf("slow client %d: create answered %d", sl->index, r.status);
        if (sl->index % 2 == 0)
            check_refusal(&r, 400, 400, "slow client with truncated JSON");
        resp_free(&r);
    }
    close(fd);
    sl->seconds = now() - t0;
    return NULL;
}

/* ---- stream mode: moves as fast as possible until the server dies ---- */

static pthread_mutex_t games_mu = PTHREAD_MUTEX_INITIALIZER;

static game *stream_new_game(conn *c, int k)
{
    pthread_mutex_lock(&games_mu);
    game *g = NULL;
    if (n_games < MAX_GAMES) {
        static const char *const names[] = {"tictacdoh", "tictacdoh", "icefrogs"};
        g = &games[n_games];
        if (create_game(c, names[k % 3], 500 + n_games, g))
            n_games++;
        else
            g = NULL;
    }
    pthread_mutex_unlock(&games_mu);
    return g;
}

static void *stream_main(void *arg)
{
    game *g = arg;
    int k = (int)(g - games);
    conn c = {-1};
    char path[96], body[512];
    while (now() < deadline && !atomic_load(&server_gone)) {
        resp r;
        snprintf(path, sizeof path, "/api/games/%lld", g->id);
        request(&c, "GET", path, NULL, &r);
        if (r.status < 0) {
            atomic_store(&server_gone, true);
            break;
        }
        json_t *j = parse(&r);
        resp_free(&r);
        json_t *legal = json_object_get(j, "legal");
        json_t *to_move = json_object_get(j, "to_move");
        long long ply = json_integer_value(json_object_get(j, "n_moves"));
        if (json_is_true(json_object_get(j, "over")) || ply >= MAX_PLY - 8 ||
            !json_array_size(legal) || !json_is_integer(to_move)) {
            json_decref(j);
            game *ng = stream_new_game(&c, k);
            if (!ng)
                break;
            g = ng;
            continue;
        }
        char move[32];
        snprintf(move, sizeof move, "%s",
                 json_string_value(json_array_get(legal, (size_t)(ply * 5 + k) % json_array_size(legal))));
        int seat = (int)json_integer_value(to_move) & 1;
        json_decref(j);
        snprintf(path, sizeof path, "/api/games/%lld/moves", g->id);
        snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\",\"ply\":%lld}", move,
                 g->tokens[seat], ply);
        request(&c, "POST", path, body, &r);
        if (r.status < 0) {
            atomic_store(&server_gone, true); /* outcome unknown: not acknowledged */
        } else if (r.status == 200) {
            pthread_mutex_lock(&games_mu);
            snprintf(g->acked[ply], sizeof g->acked[ply], "%s", move);
            g->n_acked++;
            pthread_mutex_unlock(&games_mu);
            atomic_fetch_add(&n_acked, 1);
        } else {
            failf("stream: game %lld move %s at ply %lld: %d %.200s", g->id, move, ply, r.status,
                  r.body);
        }
        resp_free(&r);
    }
    conn_close(&c);
    return NULL;
}

static bool write_summary(const char *file);
static bool read_summary(const char *file);

/* Streams moves on STREAMS games at once (continuing none: each round makes
 * new games) until the deadline or until the server goes away. */
static int stream_mode(const char *file)
{
    conn c = {-1};
    read_summary(file);
    streaming = true;
    pthread_t threads[STREAMS];
    int started = 0;
    for (int k = 0; k < STREAMS; k++) {
        game *g = stream_new_game(&c, k);
        if (g && pthread_create(&threads[started], NULL, stream_main, g) == 0)
            started++;
    }
    for (int k = 0; k < started; k++)
        pthread_join(threads[k], NULL);
    conn_close(&c);
    if (!write_summary(file))
        failf("cannot write %s", file);
    printf("stream: %d games so far, %ld moves acknowledged now%s, %ld failures\n", n_games,
           (long)atomic_load(&n_acked), atomic_load(&server_gone) ? " (server went away)" : "",
           (long)atomic_load(&n_failures));
    return atomic_load(&n_failures) ? 1 : 0;
}

/* ---- the summary and its verification ---- */

/* Compares a game's stored moves (decisions only) with the acknowledged
 * ones; up to max_unacked stored moves may lack an acknowledgement (a move
 * in flight when the server was killed); they are adopted as acknowledged
 * (they are durable now). Returns the unacknowledged count. */
static int verify_game(conn *c, game *g, int max_unacked)
{
    char *v = view_text(c, g->id);
    json_t *j = v ? json_loads(v, 0, NULL) : NULL;
    free(v);
    json_t *moves = json_object_get(j, "moves");
    if (!json_is_array(moves)) {
        failf("game %lld: no move list", g->id);
        json_decref(j);
        return 0;
    }
    int decisions = 0, unacked = 0;
    for (size_t i = 0; i < json_array_size(moves); i++) {
        json_t *m = json_array_get(moves, i);
        if (json_is_null(json_object_get(m, "seat")))
            continue; /* a chance outcome rolled by the server */
        decisions++;
        const char *text = json_string_value(json_object_get(m, "text"));
        if (i < MAX_PLY && !g->acked[i][0] && text && unacked < max_unacked) {
            unacked++;
            snprintf(g->acked[i], sizeof g->acked[i], "%s", text);
            continue;
        }
        if (i >= MAX_PLY || !text || strcmp(text, g->acked[i]) != 0)
            failf("game %lld ply %zu: stored '%s', acknowledged '%s'", g->id, i,
                  text ? text : "?", i < MAX_PLY ? g->acked[i] : "?");
    }
    if (decisions - unacked != g->n_acked)
        failf("game %lld: %d moves stored (%d never acknowledged), %d acknowledged", g->id,
              decisions, unacked, g->n_acked);
    g->n_acked += unacked;
    json_decref(j);
    return unacked;
}

static bool write_summary(const char *file)
{
    FILE *f = fopen(file, "w");
    if (!f)
        return false;
    for (int i = 0; i < n_games; i++) {
        fprintf(f, "%lld %s %s %d", games[i].id, games[i].tokens[0], games[i].tokens[1],
                games[i].n_acked);
        for (int p = 0; p < MAX_PLY; p++)
            if (games[i].acked[p][0])
                fprintf(f, " %d:%s", p, games[i].acked[p]);
        fputc('\n', f);
    }
    return fclose(f) == 0;
}

static bool read_summary(const char *file)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return false;
    char line[65536];
    while (n_games < MAX_GAMES && fgets(line, sizeof line, f)) {
        game *g = &games[n_games];
        memset(g, 0, sizeof *g);
        int off = 0;
        if (sscanf(line, "%lld %39s %39s %d%n", &g->id, g->tokens[0], g->tokens[1], &g->n_acked,
                   &off) != 4)
            continue;
        pthread_mutex_init(&g->mu, NULL);
        char *p = line + off;
        int ply, used;
        char text[32];
        while (sscanf(p, " %d:%31s%n", &ply, text, &used) == 2) {
            if (ply >= 0 && ply < MAX_PLY)
                snprintf(g->acked[ply], sizeof g->acked[ply], "%s", text);
            p += used;
        }
        n_games++;
    }
    fclose(f);
    return true;
}

int main(int argc, char **argv)
{
    if (argc < 4 || (strcmp(argv[1], "run") && strcmp(argv[1], "verify") &&
                     strcmp(argv[1], "stream"))) {
        fprintf(stderr,
                "usage: %s run|verify|stream PORT SUMMARY_FILE [SECONDS | MAX_UNACKED]\n"
                "  verify: MAX_UNACKED (default 0) stored moves per game may lack an ack\n",
                argv[0]);
        return 2;
    }
    port = atoi(argv[2]);
    double seconds = argc > 4 ? atof(argv[4]) : 20;
    double start = now();
    deadline = start + seconds;
    conn c = {-1};
    if (!strcmp(argv[1], "stream"))
        return stream_mode(argv[3]);
    if (!strcmp(argv[1], "verify")) {
        if (!read_summary(argv[3])) {
            fprintf(stderr, "cannot read %s\n", argv[3]);
            return 2;
        }
        int max_unacked = argc > 4 ? atoi(argv[4]) : 0, unacked = 0;
        for (int i = 0; i < n_games; i++)
            unacked += verify_game(&c, &games[i], max_unacked);
        printf("verify: %d stored moves never acknowledged\n", unacked);
        if (max_unacked && !write_summary(argv[3]))
            failf("cannot write %s", argv[3]);
        conn_close(&c);
        printf("verify: %d games, %ld failures\n", n_games, (long)atomic_load(&n_failures));
        return atomic_load(&n_failures) ? 1 : 0;
    }

    /* the two-player games the server offers */
    resp r;
    request(&c, "GET", "/api/rules", NULL, &r);
    json_t *rules = parse(&r);
    resp_free(&r);
    char names[16][32];
    int n_names = 0;
    size_t i;
    json_t *gj;
    json_array_foreach(json_object_get(rules, "games"), i, gj) {
        if (n_names < 16 && json_integer_value(json_object_get(gj, "players")) == 2)
            snprintf(names[n_names++], sizeof names[0], "%s",
                     json_string_value(json_object_get(gj, "name")));
    }
    json_decref(rules);
    if (!n_names) {
        fprintf(stderr, "FAIL: no two-player game offered\n");
        return 1;
    }

    long total_before = games_total(&c);
    slow_client slow[SLOW_CLIENTS];
    pthread_t slow_threads[SLOW_CLIENTS];
    for (int k = 0; k < SLOW_CLIENTS; k++) {
        memset(&slow[k], 0, sizeof slow[k]);
        slow[k].index = k;
        pthread_create(&slow_threads[k], NULL, slow_main, &slow[k]);
    }

    part_refusals();

    /* part 2b alongside the first round of part 2 */
    long created = 0;
    creator creators[CREATORS];
    pthread_t creator_threads[CREATORS];
    for (int k = 0; k < CREATORS; k++) {
        creators[k].index = k;
        creators[k].created = 0;
        pthread_create(&creator_threads[k], NULL, creator_main, &creators[k]);
    }
    /* part 2: rounds of games, created first, then played by two threads
     * each, until ROUNDS rounds or 40% of the time is gone */
    long stray = 0, bad = 0, events = 0;
    int n_play = 0, rounds = 0;
    for (; rounds < ROUNDS && (rounds == 0 || now() < start + 0.4 * seconds); rounds++) {
        int first = n_games;
        for (int k = 0; k < n_names * GAMES_PER_NAME && n_games < MAX_GAMES; k++)
            if (create_game(&c, names[k % n_names], 1000 * rounds + k, &games[n_games]))
                n_games++;
        int n_round = n_games - first;
        seat_client *clients = calloc((size_t)n_round * 2, sizeof *clients);
        pthread_t *threads = calloc((size_t)n_round * 2, sizeof *threads);
        for (int k = 0; k < n_round * 2; k++) {
            clients[k].g = &games[first + k / 2];
            clients[k].seat = k % 2;
            clients[k].rng = 0x40057 + (uint64_t)(k + 1000 * rounds);
            pthread_create(&threads[k], NULL, seat_main, &clients[k]);
        }
        watcher watchers[WATCHERS];
        pthread_t watch_threads[WATCHERS];
        int n_watch = n_round < WATCHERS ? n_round : WATCHERS;
        atomic_store(&round_over, false);
        for (int k = 0; k < n_watch; k++) {
            watchers[k].id = games[first + k].id;
            watchers[k].events = 0;
            pthread_create(&watch_threads[k], NULL, watch_main, &watchers[k]);
        }
        if (rounds == 0)
            for (int k = 0; k < CREATORS; k++) {
                pthread_join(creator_threads[k], NULL);
                created += creators[k].created;
            }
        for (int k = 0; k < n_round * 2; k++) {
            pthread_join(threads[k], NULL);
            stray += clients[k].stray;
            bad += clients[k].bad;
        }
        atomic_store(&round_over, true);
        for (int k = 0; k < n_watch; k++) {
            pthread_join(watch_threads[k], NULL);
            events += watchers[k].events;
        }
        free(clients);
        free(threads);
        n_play += n_round;
    }
    double played = now() - start;
    long max_lat_us = atomic_load(&max_latency_us);
    for (int k = 0; k < SLOW_CLIENTS; k++)
        pthread_join(slow_threads[k], NULL);
    double slowest = 0;
    for (int k = 0; k < SLOW_CLIENTS; k++)
        if (slow[k].seconds > slowest)
            slowest = slow[k].seconds;
    if (max_lat_us > 3000000)
        failf("a request took %.1f s while slow clients were connected", max_lat_us / 1e6);

    for (int k = 0; k < n_games; k++)
        verify_game(&c, &games[k], 0);
    /* every game made is counted once: part 1's, the played ones, the
     * concurrent creators', and the slow creator's (index 1) */
    long total_after = games_total(&c);
    if (total_after < 0 || total_after != total_before + 1 + n_play + created + 1)
        failf("games: %ld before, 1 + %d + %ld made concurrently + 1 slow, %ld after", total_before,
              n_play, created, total_after);
    conn_close(&c);
    if (!write_summary(argv[3]))
        failf("cannot write %s", argv[3]);
    printf("hostile: %ld requests (%ld refused, checked), %ld moves acknowledged, %d games "
           "(%d played in %d rounds by %d concurrent seat clients), %ld more made by %d concurrent creators, "
           "%ld events read by %d stream watchers per round, %d slow clients (slowest %.1f s), "
           "%ld stray and %ld bad on-turn requests, max latency %.0f ms, %.1f s, "
           "%ld transport errors, %ld failures\n",
           (long)atomic_load(&n_requests), (long)atomic_load(&n_refused),
           (long)atomic_load(&n_acked), n_games, n_play, rounds, n_play / rounds * 2, created, CREATORS, events, WATCHERS, SLOW_CLIENTS, slowest,
           stray, bad, max_lat_us / 1e3, played, (long)atomic_load(&n_transport),
           (long)atomic_load(&n_failures));
    if (atomic_load(&n_transport))
        fprintf(stderr, "FAIL: transport errors\n");
    return atomic_load(&n_failures) || atomic_load(&n_transport) ? 1 : 0;
}
