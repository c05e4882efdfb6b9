/*
 * test_server_limits.c — the server under load, structurally (issue 30):
 * /api/rules and /api/agents computed once and served with an ETag, heavy
 * requests refused with 503 past their kind's limit and 429 past the
 * client's, and WAL checkpoints on their own thread so that a move commits
 * while a checkpoint is held in the middle of its fsync. No timing is
 * asserted: a slow request is made slow by the solver's budget, and the
 * test waits for the server's own counters.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <jansson.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "pips/server.h"
#include "server/server_impl.h"

typedef struct reply {
    int status;
    json_t *json;
    char *raw;
    char etag[48];
    int retry_after;
} reply;

static reply call_as(pips_server *s, const char *method, const char *path, const char *body,
                     const char *client, const char *if_none_match)
{
    char p[512];
    snprintf(p, sizeof p, "%s", path);
    char *q = strchr(p, '?');
    if (q)
        *q++ = '\0';
    pips_http_header h = {"If-None-Match", if_none_match};
    pips_http_request req = {method, p, q, if_none_match ? &h : NULL, if_none_match ? 1 : 0,
                             body ? body : "", body ? strlen(body) : 0, client};
    pips_http_response res;
    pips_server_handle(s, &req, &res);
    reply r = {res.status, NULL, NULL, "", res.retry_after};
    snprintf(r.etag, sizeof r.etag, "%s", res.etag);
    r.raw = malloc(res.body_len + 1);
    memcpy(r.raw, res.body ? res.body : "", res.body_len);
    r.raw[res.body_len] = '\0';
    json_error_t je;
    r.json = json_loads(r.raw, 0, &je);
    pips_http_response_free(&res);
    return r;
}

static void reply_free(reply *r)
{
    json_decref(r->json);
    free(r->raw);
}

static pips_server *server_with(const char *db, int max_hints, int per_client)
{
    pips_server_config cfg = {0};
    cfg.db_path = db;
    cfg.max_hints = max_hints;
    cfg.per_client = per_client;
    cfg.hint_seconds = 2; /* the slow request: long enough to be seen in flight */
    pips_error err;
    pips_server *s = pips_server_new(&cfg, &err);
    if (!s)
        fail_msg("server: %s", err.msg);
    return s;
}

static long long create(pips_server *s, const char *body, char tokens[2][64])
{
    reply r = call_as(s, "POST", "/api/games", body, NULL, NULL);
    assert_int_equal(r.status, 201);
    long long id = json_integer_value(json_object_get(r.json, "id"));
    for (size_t i = 0; tokens && i < 2; i++) {
        const char *t = json_string_value(json_array_get(json_object_get(r.json, "tokens"), i));
        snprintf(tokens[i], 64, "%s", t ? t : "");
    }
    reply_free(&r);
    return id;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void test_rules_computed_once_with_etag(void **st)
{
    (void)st;
    pips_server *s = server_with(":memory:", 0, 0);
    pips_server_stats before, after;
    pips_server_get_stats(s, &before);
    reply a = call_as(s, "GET", "/api/rules", NULL, NULL, NULL);
    reply b = call_as(s, "GET", "/api/rules", NULL, NULL, NULL);
    assert_int_equal(a.status, 200);
    assert_int_equal(b.status, 200);
    assert_string_equal(a.raw, b.raw);
    assert_true(json_array_size(json_object_get(a.json, "games")) > 0);
    assert_true(strlen(a.etag) > 2 && a.etag[0] == '"');
    assert_string_equal(a.etag, b.etag);
    pips_server_get_stats(s, &after);
    /* built once (the first request), then copied */
    assert_int_equal(after.cache_entries, before.cache_entries + 1);
    assert_true(after.cache_hits >= before.cache_hits + 1);

    /* the client's copy is current: 304 and no body */
    reply c = call_as(s, "GET", "/api/rules", NULL, NULL, a.etag);
    assert_int_equal(c.status, 304);
    assert_string_equal(c.raw, "");
    assert_string_equal(c.etag, a.etag);
    /* a list holding it, and a stale one */
    char list[64];
    snprintf(list, sizeof list, "\"0\", %s", a.etag);
    reply d = call_as(s, "GET", "/api/rules", NULL, NULL, list);
    assert_int_equal(d.status, 304);
    reply e = call_as(s, "GET", "/api/rules", NULL, NULL, "\"0123456789abcdef\"");
    assert_int_equal(e.status, 200);
    assert_string_equal(e.raw, a.raw);
    reply_free(&a);
    reply_free(&b);
    reply_free(&c);
    reply_free(&d);
    reply_free(&e);
    pips_server_free(s);
}

static void test_agents_cached_per_game_and_options(void **st)
{
    (void)st;
    pips_server *s = server_with(":memory:", 0, 0);
    reply two = call_as(s, "GET", "/api/agents?game=icefrogs", NULL, NULL, NULL);
    reply three = call_as(s, "GET", "/api/agents?game=icefrogs&options={\"players\":3}", NULL,
                          NULL, NULL);
    assert_int_equal(two.status, 200);
    assert_int_equal(three.status, 200);
    /* the options are part of the key: three seats list other agents */
    assert_int_equal(json_integer_value(json_object_get(two.json, "players")), 2);
    assert_int_equal(json_integer_value(json_object_get(three.json, "players")), 3);
    assert_string_not_equal(two.etag, three.etag);
    pips_server_stats before, after;
    pips_server_get_stats(s, &before);
    /* the same options spelt otherwise reach the same entry */
    reply same = call_as(s, "GET", "/api/agents?game=icefrogs&options={\"players\":\"3\"}", NULL,
                         NULL, NULL);
    assert_int_equal(same.status, 200);
    assert_string_equal(same.raw, three.raw);
    assert_string_equal(same.etag, three.etag);
    reply again = call_as(s, "GET", "/api/agents?game=icefrogs", NULL, NULL, two.etag);
    assert_int_equal(again.status, 304);
    pips_server_get_stats(s, &after);
    assert_true(after.cache_hits >= before.cache_hits + 2);
    /* a bad option is still a 400 naming it, and is not kept */
    reply bad = call_as(s, "GET", "/api/agents?game=icefrogs&options={\"players\":99}", NULL, NULL,
                        NULL);
    assert_int_equal(bad.status, 400);
    assert_non_null(strstr(json_string_value(json_object_get(bad.json, "error")), "players"));
    reply_free(&two);
    reply_free(&three);
    reply_free(&same);
    reply_free(&again);
    reply_free(&bad);
    pips_server_free(s);
}

/* A hint request on another thread that stays in flight for the solver's
 * budget (the Martian Coaster's start is not settled in 2 s). */
typedef struct slow_hint {
    pips_server *s;
    long long id;
    const char *client;
    int status;
} slow_hint;

static void *slow_hint_main(void *arg)
{
    slow_hint *h = arg;
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld/hints", h->id);
    reply r = call_as(h->s, "GET", path, NULL, h->client, NULL);
    h->status = r.status;
    reply_free(&r);
    return NULL;
}

/* Waits until the server counts n heavy requests in flight. */
static void wait_heavy(pips_server *s, int n)
{
    for (int i = 0; i < 2000; i++) {
        pips_server_stats stats;
        pips_server_get_stats(s, &stats);
        if (stats.heavy_in_flight == n)
            return;
        sleep_ms(1);
    }
    fail_msg("the slow request never started");
}

static void test_hints_past_the_limit_get_503(void **st)
{
    (void)st;
    pips_server *s = server_with(":memory:", 1, 4);
    long long id = create(s, "{\"game\":\"nimitz\",\"seats\":[\"human\",\"human\"]}", NULL);
    slow_hint h = {s, id, "10.0.0.1", 0};
    pthread_t t;
    pthread_create(&t, NULL, slow_hint_main, &h);
    wait_heavy(s, 1);
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld/hints", id);
    reply r = call_as(s, "GET", path, NULL, "10.0.0.2", NULL);
    assert_int_equal(r.status, 503);
    assert_int_equal(r.retry_after, 1);
    assert_non_null(strstr(json_string_value(json_object_get(r.json, "error")), "hints"));
    reply_free(&r);
    /* moves and views are not heavy: never refused */
    char tok[2][64];
    long long ttd = create(s, "{\"game\":\"tictacdoh\"}", tok);
    snprintf(path, sizeof path, "/api/games/%lld", ttd);
    reply v = call_as(s, "GET", path, NULL, NULL, NULL);
    char body[256];
    snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\"}",
             json_string_value(json_array_get(json_object_get(v.json, "legal"), 0)), tok[0]);
    reply_free(&v);
    snprintf(path, sizeof path, "/api/games/%lld/moves", ttd);
    r = call_as(s, "POST", path, body, "10.0.0.2", NULL);
    assert_int_equal(r.status, 200);
    reply_free(&r);
    pips_server_stats stats;
    pips_server_get_stats(s, &stats);
    assert_true(stats.refused_busy >= 1);
    pthread_join(t, NULL);
    assert_int_equal(h.status, 200);
    wait_heavy(s, 0);
    pips_server_free(s);
}

static void test_one_client_past_its_limit_gets_429(void **st)
{
    (void)st;
    pips_server *s = server_with(":memory:", 2, 1);
    long long id = create(s, "{\"game\":\"nimitz\",\"seats\":[\"human\",\"human\"]}", NULL);
    slow_hint h = {s, id, "10.0.0.1", 0};
    pthread_t t;
    pthread_create(&t, NULL, slow_hint_main, &h);
    wait_heavy(s, 1);
    /* the same client again: over its one heavy request */
    const char *rec = "{\"format\":\"pips-record\",\"game\":\"tictacdoh\",\"moves\":[]}";
    reply r = call_as(s, "POST", "/api/records", rec, "10.0.0.1", NULL);
    assert_int_equal(r.status, 429);
    assert_true(r.retry_after > 0);
    assert_non_null(json_string_value(json_object_get(r.json, "error")));
    reply_free(&r);
    /* another client is served meanwhile (its upload is judged on its own) */
    r = call_as(s, "POST", "/api/records", rec, "10.0.0.2", NULL);
    assert_int_not_equal(r.status, 429);
    assert_int_not_equal(r.status, 503);
    reply_free(&r);
    pips_server_stats stats;
    pips_server_get_stats(s, &stats);
    assert_int_equal(stats.refused_client, 1);
    pthread_join(t, NULL);
    assert_int_equal(h.status, 200);
    /* the client's slot was given back */
    wait_heavy(s, 0);
    r = call_as(s, "POST", "/api/records", rec, "10.0.0.1", NULL);
    assert_int_not_equal(r.status, 429);
    reply_free(&r);
    pips_server_free(s);
}

/* ---- over a socket: the listener's headers and its worker hand-off ---- */

static int connect_to(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    return fd;
}

static void http_get(int port, const char *path, const char *extra, char *buf, size_t size)
{
    int fd = connect_to(port);
    char req[512];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: x\r\n%sConnection: close\r\n\r\n",
                     path, extra);
    assert_int_equal(write(fd, req, (size_t)n), n);
    size_t got = 0;
    ssize_t r;
    while (got < size - 1 && (r = read(fd, buf + got, size - 1 - got)) > 0)
        got += (size_t)r;
    buf[got] = '\0';
    close(fd);
}

static void test_limits_over_a_socket(void **st)
{
    (void)st;
    pips_server *s = server_with(":memory:", 1, 2);
    pips_error err;
    assert_true(pips_server_listen(s, "127.0.0.1", 0, &err));
    int port = pips_server_port(s);
    char *buf = malloc(1 << 17);
    http_get(port, "/api/rules", "", buf, 1 << 17);
    assert_non_null(strstr(buf, "HTTP/1.1 200"));
    char *etag = strstr(buf, "ETag: ");
    assert_non_null(etag);
    char tag[48], hdr[80];
    sscanf(etag + 6, "%47s", tag);
    snprintf(hdr, sizeof hdr, "If-None-Match: %s\r\n", tag);
    http_get(port, "/api/rules", hdr, buf, 1 << 17);
    assert_non_null(strstr(buf, "HTTP/1.1 304"));

    /* a hint solving on a worker; a second one is refused with Retry-After */
    long long id = create(s, "{\"game\":\"nimitz\",\"seats\":[\"human\",\"human\"]}", NULL);
    slow_hint h = {s, id, "10.0.0.9", 0};
    pthread_t t;
    pthread_create(&t, NULL, slow_hint_main, &h);
    wait_heavy(s, 1);
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld/hints", id);
    http_get(port, path, "", buf, 1 << 17);
    assert_non_null(strstr(buf, "HTTP/1.1 503"));
    assert_non_null(strstr(buf, "Retry-After: 1"));
    assert_non_null(strstr(buf, "\"error\""));
    pthread_join(t, NULL);
    /* the listener's own worker hand-off answers a hint too */
    wait_heavy(s, 0);
    http_get(port, path, "", buf, 1 << 17);
    assert_non_null(strstr(buf, "HTTP/1.1 200"));
    free(buf);
    pips_server_free(s);
}

/* ---- the checkpoint thread ---- */

typedef struct gate {
    pthread_mutex_t mu;
    pthread_cond_t cond;
    bool inside, open;
} gate;

/* The checkpoint connection's fsync: says it is inside, then waits for the
 * test to open the gate. */
static void hold_sync(void *ud)
{
    gate *g = ud;
    pthread_mutex_lock(&g->mu);
    g->inside = true;
    pthread_cond_broadcast(&g->cond);
    while (!g->open)
        pthread_cond_wait(&g->cond, &g->mu);
    pthread_mutex_unlock(&g->mu);
}

static void test_move_commits_during_a_checkpoint(void **st)
{
    (void)st;
    char dir[] = "/tmp/pips-ckpt-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char db[128];
    snprintf(db, sizeof db, "%s/pips.db", dir);
    pips_server *s = server_with(db, 0, 0);
    /* the writer connection checkpoints nothing itself */
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(s->db, "PRAGMA wal_autocheckpoint", -1, &q, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(q, 0), 0);
    sqlite3_finalize(q);

    char tok[2][64];
    long long id = create(s, "{\"game\":\"tictacdoh\"}", tok);
    gate g = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, false};
    srv_ckpt_set_sync_hook(s, hold_sync, &g);
    unsigned long long done_before = srv_ckpt_count(s);
    srv_ckpt_request(s);
    pthread_mutex_lock(&g.mu);
    while (!g.inside)
        pthread_cond_wait(&g.cond, &g.mu);
    pthread_mutex_unlock(&g.mu);

    /* the checkpoint is held inside its fsync: moves still commit */
    char path[64], game_path[64], body[256];
    snprintf(path, sizeof path, "/api/games/%lld/moves", id);
    snprintf(game_path, sizeof game_path, "/api/games/%lld", id);
    for (size_t i = 0; i < 3; i++) {
        reply view = call_as(s, "GET", game_path, NULL, NULL, NULL);
        const char *mv = json_string_value(json_array_get(json_object_get(view.json, "legal"), 0));
        snprintf(body, sizeof body, "{\"move\":\"%s\",\"tokens\":[\"%s\",\"%s\"]}", mv,
                 tok[0], tok[1]);
        reply_free(&view);
        reply r = call_as(s, "POST", path, body, NULL, NULL);
        assert_int_equal(r.status, 200);
        assert_int_equal(json_array_size(json_object_get(r.json, "moves")), i + 1);
        reply_free(&r);
    }
    pthread_mutex_lock(&g.mu);
    assert_true(g.inside && !g.open); /* still held: the moves did not wait for it */
    assert_int_equal(srv_ckpt_count(s), done_before);
    g.open = true;
    pthread_cond_broadcast(&g.cond);
    pthread_mutex_unlock(&g.mu);
    for (int i = 0; i < 5000 && srv_ckpt_count(s) == done_before; i++)
        sleep_ms(1);
    assert_true(srv_ckpt_count(s) > done_before);
    srv_ckpt_set_sync_hook(s, NULL, NULL);
    pips_server_free(s);

    /* every acknowledged move is there after a restart */
    s = server_with(db, 0, 0);
    reply view = call_as(s, "GET", game_path, NULL, NULL, NULL);
    assert_int_equal(view.status, 200);
    assert_int_equal(json_array_size(json_object_get(view.json, "moves")), 3);
    reply_free(&view);
    pips_server_free(s);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules_computed_once_with_etag),
        cmocka_unit_test(test_agents_cached_per_game_and_options),
        cmocka_unit_test(test_hints_past_the_limit_get_503),
        cmocka_unit_test(test_one_client_past_its_limit_gets_429),
        cmocka_unit_test(test_limits_over_a_socket),
        cmocka_unit_test(test_move_commits_during_a_checkpoint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
