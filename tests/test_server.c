/*
 * test_server.c — the game server's API through pips_server_handle (no
 * sockets), its SQLite persistence across restarts, and one round trip
 * over a real socket on 127.0.0.1. Uses Tic Tac Doh! (TTD-Rn rulings) as
 * the game in main; the API is generic over the game interface.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <jansson.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "pips/agent.h"
#include "pips/game.h"
#include "pips/server.h"
#include "core/unchecked.h"

typedef struct reply {
    int status;
    json_t *json;
    char *raw;
} reply;

static reply call_h(pips_server *s, const char *method, const char *path, const char *body,
                    const char *token_header)
{
    char p[256];
    snprintf(p, sizeof p, "%s", path);
    char *q = strchr(p, '?');
    if (q)
        *q++ = '\0';
    pips_http_header h = {"X-Pips-Token", token_header};
    pips_http_request req = {method, p, q, token_header ? &h : NULL, token_header ? 1 : 0,
                             body ? body : "", body ? strlen(body) : 0, NULL};
    pips_http_response res;
    pips_server_handle(s, &req, &res);
    reply r = {res.status, NULL, NULL};
    r.raw = malloc(res.body_len + 1);
    memcpy(r.raw, res.body ? res.body : "", res.body_len);
    r.raw[res.body_len] = '\0';
    json_error_t je;
    if (!strncmp(res.content_type, "application/json", 16))
        r.json = json_loads(r.raw, 0, &je);
    pips_http_response_free(&res);
    return r;
}

static reply call(pips_server *s, const char *method, const char *path, const char *body)
{
    return call_h(s, method, path, body, NULL);
}

static void reply_free(reply *r)
{
    json_decref(r->json);
    free(r->raw);
}

static pips_server *new_server(const char *db, size_t max_games)
{
    pips_server_config cfg = {0};
    cfg.db_path = db;
    cfg.max_games = max_games;
    cfg.max_body = 4096;
    pips_error err;
    pips_server *s = pips_server_new(&cfg, &err);
    if (!s)
        fail_msg("server: %s", err.msg);
    return s;
}

/* Creates a game; fills n tokens and returns its id. */
static long long create_n(pips_server *s, const char *body, char tokens[][64], size_t n)
{
    reply r = call(s, "POST", "/api/games", body);
    assert_int_equal(r.status, 201);
    long long id = json_integer_value(json_object_get(r.json, "id"));
    json_t *t = json_object_get(r.json, "tokens");
    for (size_t i = 0; i < n; i++) {
        const char *v = json_string_value(json_array_get(t, i));
        snprintf(tokens[i], 64, "%s", v ? v : "");
    }
    reply_free(&r);
    return id;
}

static long long create(pips_server *s, const char *body, char tokens[2][64])
{
    return create_n(s, body, tokens, 2);
}

static reply move(pips_server *s, long long id, const char *mv, const char *token)
{
    char path[64], body[256];
    snprintf(path, sizeof path, "/api/games/%lld/moves", id);
    snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\"}", mv, token);
    return call(s, "POST", path, body);
}

static json_t *view(pips_server *s, long long id)
{
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld", id);
    reply r = call(s, "GET", path, NULL);
    assert_int_equal(r.status, 200);
    free(r.raw);
    return r.json;
}

static size_t n_moves(pips_server *s, long long id)
{
    json_t *v = view(s, id);
    size_t n = json_array_size(json_object_get(v, "moves"));
    json_decref(v);
    return n;
}

static void test_rules_list_games(void **st)
{
    (void)st;
    pips_server *s = new_server(":memory:", 0);
    reply r = call(s, "GET", "/api/rules", NULL);
    assert_int_equal(r.status, 200);
    json_t *games = json_object_get(r.json, "games");
    assert_true(json_array_size(games) >= 1);
    bool found = false;
    for (size_t i = 0; i < json_array_size(games); i++) {
        json_t *g = json_array_get(games, i);
        if (!strcmp(json_string_value(json_object_get(g, "name")), "tictacdoh")) {
            found = true;
            assert_int_equal(json_integer_value(json_object_get(g, "players")), 2);
            assert_non_null(strstr(json_string_value(json_object_get(g, "rules")), "TTD-R1"));
        }
    }
    assert_true(found);
    reply_free(&r);
    pips_server_free(s);
}

static void expect_error(pips_server *s, const char *method, const char *path, const char *body,
                         int status)
{
    reply r = call(s, method, path, body);
    if (r.status != status)
        fail_msg("%s %s %s: got %d, want %d (%s)", method, path, body ? body : "", r.status,
                 status, r.raw);
    assert_non_null(r.json);
    assert_true(json_is_string(json_object_get(r.json, "error")));
    reply_free(&r);
}

static void test_bad_requests_are_4xx_json(void **st)
{
    (void)st;
    pips_server *s = new_server(":memory:", 0);
    expect_error(s, "POST", "/api/games", "{not json", 400);
    expect_error(s, "POST", "/api/games", "[1,2]", 400);
    expect_error(s, "POST", "/api/games", "{\"game\":\"chess\"}", 404);
    expect_error(s, "POST", "/api/games", "{\"game\":\"tictacdoh\",\"options\":{\"size\":\"9\"}}",
                 400); /* Tic Tac Doh! has no options */
    expect_error(s, "POST", "/api/games", "{\"game\":\"tictacdoh\",\"seats\":[\"human\"]}", 400);
    expect_error(s, "POST", "/api/games",
                 "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"nosuchagent\"]}", 400);
    expect_error(s, "POST", "/api/games",
                 "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"mcts:time=100000\"]}", 400);
    /* threads and memory have ceilings a move's time cap cannot give */
    expect_error(s, "POST", "/api/games",
                 "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"mcts:iters=10,threads=3\"]}", 400);
    expect_error(s, "POST", "/api/games",
                 "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"alphabeta:tt=4096\"]}", 400);
    expect_error(s, "POST", "/api/games", "{\"game\":\"tictacdoh\",\"seed\":-4}", 400);
    expect_error(s, "GET", "/api/games/99", NULL, 404);
    expect_error(s, "GET", "/api/games/abc", NULL, 404);
    expect_error(s, "DELETE", "/api/games", NULL, 405);
    expect_error(s, "GET", "/api/nothing", NULL, 404);
    expect_error(s, "POST", "/api/records", "{\"format\":\"pips-record\"}", 400);
    char big[5000];
    memset(big, ' ', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    expect_error(s, "POST", "/api/games", big, 413);
    /* no game was made by any of these */
    reply r = call(s, "GET", "/api/games", NULL);
    assert_int_equal(json_integer_value(json_object_get(r.json, "total")), 0);
    reply_free(&r);
    pips_server_free(s);
}

/* TTD-R3: a move needs the token of the seat to move; a wrong token, an
 * illegal or malformed move is refused and changes nothing. */
static void test_moves_need_the_seat_token(void **st)
{
    (void)st;
    pips_server *s = new_server(":memory:", 0);
    char tok[2][64];
    long long id = create(s, "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"human\"]}", tok);
    assert_int_equal(strlen(tok[0]), 32);
    assert_string_not_equal(tok[0], tok[1]);
    reply r = move(s, id, "L@0,0", tok[1]); /* seat 2's token, seat 1 to move */
    assert_int_equal(r.status, 403);
    reply_free(&r);
    r = move(s, id, "L@0,0", "");
    assert_int_equal(r.status, 403);
    reply_free(&r);
    assert_int_equal(n_moves(s, id), 0);
    r = move(s, id, "L@0,0", tok[0]);
    assert_int_equal(r.status, 200);
    assert_int_equal(json_integer_value(json_object_get(r.json, "to_move")), 1);
    reply_free(&r);
    r = move(s, id, "L@0,0", tok[1]); /* TTD-R3: L on L is illegal */
    assert_int_equal(r.status, 422);
    assert_non_null(strstr(json_string_value(json_object_get(r.json, "error")), "TTD-R3"));
    reply_free(&r);
    r = move(s, id, "Q@0,0", tok[1]);
    assert_int_equal(r.status, 400);
    reply_free(&r);
    /* a stale view is refused with 409 */
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld/moves", id);
    char body[200];
    snprintf(body, sizeof body, "{\"move\":\"M@0,0\",\"token\":\"%s\",\"ply\":0}", tok[1]);
    r = call(s, "POST", path, body);
    assert_int_equal(r.status, 409);
    reply_free(&r);
    assert_int_equal(n_moves(s, id), 1);
    /* the header carries a token too */
    r = call_h(s, "POST", path, "{\"move\":\"M@0,0\",\"ply\":1}", tok[1]);
    assert_int_equal(r.status, 200);
    reply_free(&r);
    json_t *v = view(s, id);
    assert_string_equal(json_string_value(json_object_get(v, "state")), "0,0:LM");
    json_decref(v);
    pips_server_free(s);
}

static void test_agent_replies(void **st)
{
    (void)st;
    pips_server *s = new_server(":memory:", 0);
    char tok[2][64];
    long long id = create(s, "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"random\"],\"seed\":5}",
                          tok);
    assert_string_equal(tok[1], "");
    reply r = move(s, id, "M@0,0", tok[0]);
    assert_int_equal(r.status, 200);
    reply_free(&r);
    assert_true(pips_server_idle(s, 5000));
    json_t *v = view(s, id);
    json_t *moves = json_object_get(v, "moves");
    assert_int_equal(json_array_size(moves), 2);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(moves, 1), "seat")), 1);
    assert_int_equal(json_integer_value(json_object_get(v, "to_move")), 0);
    assert_false(json_is_true(json_object_get(v, "thinking")));
    json_decref(v);
    /* an agent plays first when it holds seat 1 */
    long long id2 = create(s, "{\"game\":\"tictacdoh\",\"seats\":[\"random\",\"human\"]}", tok);
    assert_true(pips_server_idle(s, 5000));
    assert_int_equal(n_moves(s, id2), 1);
    /* a move for the agent's seat is refused */
    long long id3 = create(s, "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"random\"]}", tok);
    pips_server_idle(s, 5000);
    r = move(s, id3, "L@0,0", "00000000000000000000000000000000");
    assert_int_equal(r.status, 403);
    reply_free(&r);
    pips_server_free(s);
}

/* POST /api/games/{id}/undo with one token, declining or not. */
static reply take_back(pips_server *s, long long id, const char *token, bool decline)
{
    char path[64], body[200];
    snprintf(path, sizeof path, "/api/games/%lld/undo", id);
    snprintf(body, sizeof body, "{\"token\":\"%s\"%s}", token, decline ? ",\"decline\":true" : "");
    return call(s, "POST", path, body);
}

/* The view's undo_request: by and to_ply, and the waiting seats as a mask;
 * false when there is none. */
static bool undo_request(const json_t *v, int *by, long *to, unsigned *waiting)
{
    json_t *u = json_object_get(v, "undo_request");
    assert_non_null(u);
    if (json_is_null(u))
        return false;
    *by = (int)json_integer_value(json_object_get(u, "by"));
    *to = (long)json_integer_value(json_object_get(u, "to_ply"));
    *waiting = 0;
    size_t i;
    json_t *w;
    json_array_foreach(json_object_get(u, "waiting"), i, w) *waiting |= 1u << json_integer_value(w);
    return true;
}

/* Issue 27: a take-back by consent returns to just before the asker's last
 * move, so the asker is to move again; declining or a move clears it. */
static void test_take_back_by_consent(void **st)
{
    (void)st;
    pips_server *s = new_server(":memory:", 0);
    char tok[3][64];
    long long id = create(s, "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"human\"]}", tok);
    reply r = move(s, id, "L@0,0", tok[0]);
    reply_free(&r);
    r = move(s, id, "M@0,0", tok[1]);
    reply_free(&r);
    r = take_back(s, id, "nope", false);
    assert_int_equal(r.status, 403);
    reply_free(&r);
    r = take_back(s, id, tok[1], true); /* nothing to decline */
    assert_int_equal(r.status, 409);
    reply_free(&r);
    /* seat 1 asks: the request waits for seat 2, nothing is taken back yet */
    r = take_back(s, id, tok[0], false);
    assert_int_equal(r.status, 200);
    int by;
    long to;
    unsigned waiting;
    assert_true(undo_request(r.json, &by, &to, &waiting));
    assert_int_equal(by, 0);
    assert_int_equal(to, 0);
    assert_int_equal(waiting, 2u);
    assert_int_equal(json_integer_value(json_object_get(r.json, "n_moves")), 2);
    reply_free(&r);
    /* seat 2 declines: the request is gone, the moves stand */
    r = take_back(s, id, tok[1], true);
    assert_int_equal(r.status, 200);
    assert_false(undo_request(r.json, &by, &to, &waiting));
    assert_int_equal(json_integer_value(json_object_get(r.json, "n_moves")), 2);
    reply_free(&r);
    /* asked again and accepted: both moves go, seat 1 is to move again */
    r = take_back(s, id, tok[0], false);
    reply_free(&r);
    r = take_back(s, id, tok[1], false);
    assert_int_equal(r.status, 200);
    assert_false(undo_request(r.json, &by, &to, &waiting));
    assert_int_equal(json_integer_value(json_object_get(r.json, "n_moves")), 0);
    assert_int_equal(json_integer_value(json_object_get(r.json, "to_move")), 0);
    reply_free(&r);
    /* nothing of seat 2's to take back */
    r = take_back(s, id, tok[1], false);
    assert_int_equal(r.status, 409);
    reply_free(&r);
    /* a move clears a request: seat 2 asks, seat 1 plays on */
    const char *line[] = {"L@0,0", "M@0,0", "S@1,1"};
    for (size_t i = 0; i < 3; i++) {
        r = move(s, id, line[i], tok[i % 2]);
        assert_int_equal(r.status, 200);
        reply_free(&r);
    }
    r = take_back(s, id, tok[1], false);
    assert_true(undo_request(r.json, &by, &to, &waiting));
    assert_int_equal(by, 1);
    assert_int_equal(to, 1);
    reply_free(&r);
    r = move(s, id, "S@2,2", tok[1]);
    assert_int_equal(r.status, 200);
    assert_false(undo_request(r.json, &by, &to, &waiting));
    reply_free(&r);
    /* hotseat: one request holding both tokens takes back the last move at once */
    char path[64], body[200];
    snprintf(path, sizeof path, "/api/games/%lld/undo", id);
    snprintf(body, sizeof body, "{\"tokens\":[\"%s\",\"%s\"]}", tok[0], tok[1]);
    r = call(s, "POST", path, body);
    assert_int_equal(r.status, 200);
    assert_int_equal(json_integer_value(json_object_get(r.json, "n_moves")), 3);
    reply_free(&r);
    /* the record keeps only the moves that stand */
    snprintf(path, sizeof path, "/api/games/%lld/record", id);
    r = call(s, "GET", path, NULL);
    assert_int_equal(json_array_size(json_object_get(r.json, "moves")), 3);
    assert_int_equal(json_array_size(json_object_get(r.json, "move_ms")), 3);
    reply_free(&r);

    /* three seats: every other human seat must agree */
    long long id3 = create_n(
        s, "{\"game\":\"tictacdoh\",\"options\":{\"players\":3},\"seats\":[\"human\",\"human\",\"human\"]}",
        tok, 3);
    const char *line3[] = {"L@0,0", "L@1,1", "L@2,2"};
    for (size_t i = 0; i < 3; i++) {
        r = move(s, id3, line3[i], tok[i]);
        assert_int_equal(r.status, 200);
        reply_free(&r);
    }
    r = take_back(s, id3, tok[1], false);
    assert_true(undo_request(r.json, &by, &to, &waiting));
    assert_int_equal(by, 1);
    assert_int_equal(to, 1);
    assert_int_equal(waiting, 5u);
    reply_free(&r);
    r = take_back(s, id3, tok[0], false);
    assert_true(undo_request(r.json, &by, &to, &waiting));
    assert_int_equal(waiting, 4u);
    assert_int_equal(json_integer_value(json_object_get(r.json, "n_moves")), 3);
    reply_free(&r);
    r = take_back(s, id3, tok[2], false);
    assert_false(undo_request(r.json, &by, &to, &waiting));
    assert_int_equal(json_integer_value(json_object_get(r.json, "n_moves")), 1);
    assert_int_equal(json_integer_value(json_object_get(r.json, "to_move")), 1);
    reply_free(&r);
    /* a decline at three seats clears it too */
    r = move(s, id3, "L@1,1", tok[1]);
    reply_free(&r);
    r = take_back(s, id3, tok[1], false);
    reply_free(&r);
    r = take_back(s, id3, tok[2], true);
    assert_int_equal(r.status, 200);
    assert_false(undo_request(r.json, &by, &to, &waiting));
    assert_int_equal(json_integer_value(json_object_get(r.json, "n_moves")), 2);
    reply_free(&r);

    /* against an agent one request takes back the person's move and the reply */
    long long id2 = create(s, "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"random\"]}", tok);
    r = move(s, id2, "S@0,0", tok[0]);
    reply_free(&r);
    pips_server_idle(s, 5000);
    assert_int_equal(n_moves(s, id2), 2);
    r = take_back(s, id2, tok[0], false);
    assert_int_equal(r.status, 200);
    assert_false(undo_request(r.json, &by, &to, &waiting));
    reply_free(&r);
    pips_server_idle(s, 5000);
    assert_int_equal(n_moves(s, id2), 0);
    pips_server_free(s);
}

static long long remaining(const json_t *v, int seat)
{
    return json_integer_value(json_array_get(json_object_get(json_object_get(v, "clock"), "remaining_ms"), (size_t)seat));
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

/* Polls the view until the game is over (or timeout_ms): its view, or NULL. */
static json_t *wait_over(pips_server *s, long long id, int timeout_ms)
{
    double t0 = now_ms();
    while (now_ms() - t0 < timeout_ms) {
        json_t *v = view(s, id);
        if (json_is_true(json_object_get(v, "over")))
            return v;
        json_decref(v);
        sleep_ms(20);
    }
    return NULL;
}

/* Issue 27: clocks. The server charges the time between moves, adds the
 * increment, refuses bad settings naming the field, and lets a flag fall by
 * itself within a second (2 seats: the other wins on time; 3: the seat
 * drops out). */
static void test_clocks(void **st)
{
    (void)st;
    pips_server *s = new_server(":memory:", 0);
    static const char *const bad[][2] = {
        {"{\"game\":\"tictacdoh\",\"clock\":{\"initial\":0}}", "clock.initial"},
        {"{\"game\":\"tictacdoh\",\"clock\":{\"initial\":99999}}", "clock.initial"},
        {"{\"game\":\"tictacdoh\",\"clock\":{\"initial\":60,\"increment\":-1}}", "clock.increment"},
        {"{\"game\":\"tictacdoh\",\"clock\":{\"initial\":\"5\"}}", "clock.initial"},
        {"{\"game\":\"tictacdoh\",\"clock\":{\"initial\":60,\"bonus\":1}}", "clock.bonus"},
        {"{\"game\":\"tictacdoh\",\"clock\":300}", "clock"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        reply r = call(s, "POST", "/api/games", bad[i][0]);
        assert_int_equal(r.status, 400);
        const char *msg = json_string_value(json_object_get(r.json, "error"));
        if (!msg || strncmp(msg, bad[i][1], strlen(bad[i][1])))
            fail_msg("%s: %s", bad[i][0], msg ? msg : "(none)");
        reply_free(&r);
    }
    /* no clock: null */
    char tok[3][64];
    long long id0 = create(s, "{\"game\":\"tictacdoh\"}", tok);
    json_t *v = view(s, id0);
    assert_true(json_is_null(json_object_get(v, "clock")));
    json_decref(v);

    /* the increment: the mover is charged its time and gets 2 s back */
    long long id = create(s, "{\"game\":\"tictacdoh\",\"clock\":{\"initial\":60,\"increment\":2}}", tok);
    v = view(s, id);
    json_t *c = json_object_get(v, "clock");
    assert_int_equal(json_integer_value(json_object_get(c, "initial")), 60);
    assert_int_equal(json_integer_value(json_object_get(c, "running")), 0);
    assert_true(remaining(v, 0) <= 60000 && remaining(v, 0) > 55000);
    assert_int_equal(remaining(v, 1), 60000);
    json_decref(v);
    sleep_ms(150);
    reply r = move(s, id, "L@0,0", tok[0]);
    assert_int_equal(r.status, 200);
    long long spent = json_integer_value(
        json_object_get(json_array_get(json_object_get(r.json, "moves"), 0), "ms"));
    assert_true(spent >= 150);
    assert_int_equal(remaining(r.json, 0), 60000 + 2000 - spent);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(r.json, "clock"), "running")), 1);
    reply_free(&r);
    /* the record keeps the settings and every move's time; an upload restores them */
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld/record", id);
    r = call(s, "GET", path, NULL);
    c = json_object_get(r.json, "clock");
    assert_int_equal(json_integer_value(json_object_get(c, "increment")), 2);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(r.json, "move_ms"), 0)), spent);
    reply up = call(s, "POST", "/api/records", r.raw);
    assert_int_equal(up.status, 201);
    json_t *uv = json_object_get(up.json, "game");
    assert_int_equal(remaining(uv, 0), 60000 + 2000 - spent);
    reply_free(&up);
    reply_free(&r);

    /* two seats: the flag falls by itself within a second; the other wins on time */
    double t0 = now_ms();
    long long idf = create(s, "{\"game\":\"tictacdoh\",\"clock\":{\"initial\":1}}", tok);
    v = wait_over(s, idf, 5000);
    assert_non_null(v);
    double took = now_ms() - t0;
    if (took > 2000)
        fail_msg("the flag fell %.0f ms after the game was made (1 s clock)", took);
    json_t *res = json_object_get(v, "result");
    assert_non_null(strstr(json_string_value(json_object_get(res, "text")), "on time"));
    assert_int_equal(json_integer_value(json_array_get(json_object_get(res, "on_time"), 0)), 0);
    assert_true(json_real_value(json_array_get(json_object_get(res, "returns"), 1)) == 1.0);
    assert_int_equal(remaining(v, 0), 0);
    json_decref(v);
    r = move(s, idf, "L@0,0", tok[0]);
    assert_int_equal(r.status, 409);
    reply_free(&r);
    r = take_back(s, idf, tok[0], false);
    assert_int_equal(r.status, 409);
    reply_free(&r);

    /* three seats: a fallen seat drops out (its autopilot moves), the others play on */
    long long id3 = create_n(
        s, "{\"game\":\"tictacdoh\",\"options\":{\"players\":3},\"clock\":{\"initial\":1}}", tok, 3);
    sleep_ms(1300);
    v = view(s, id3);
    assert_false(json_is_true(json_object_get(v, "over")));
    assert_int_equal(json_array_size(json_object_get(json_object_get(v, "result"), "on_time")), 1);
    json_decref(v);
    v = wait_over(s, id3, 5000); /* seat 2 runs out next; seat 3 is left */
    assert_non_null(v);
    res = json_object_get(v, "result");
    assert_int_equal(json_array_size(json_object_get(res, "on_time")), 2);
    assert_non_null(strstr(json_string_value(json_object_get(res, "text")), "seat 3 wins"));
    json_decref(v);
    pips_server_free(s);
}

/* Issue 27: agents think within their remaining time. An MCTS of 200000
 * iterations takes about a second a move on IceFrogs here; on a 3-second
 * clock it would lose on time within a few moves, so it searches for its
 * share of what is left (a twentieth) instead. */
static void test_clock_agents_hurry(void **st)
{
    (void)st;
    pips_server *s = new_server(":memory:", 0);
    char tok[2][64];
    long long id = create(s, "{\"game\":\"icefrogs\",\"seats\":[\"mcts:iters=200000\",\"random\"],"
                             "\"seed\":5,\"clock\":{\"initial\":3}}", tok);
    json_t *v = NULL;
    double t0 = now_ms();
    for (;;) { /* until the agent has made 8 moves or the game ended */
        v = view(s, id);
        if (json_is_true(json_object_get(v, "over")) ||
            json_array_size(json_object_get(v, "moves")) >= 16 || now_ms() - t0 > 20000)
            break;
        json_decref(v);
        sleep_ms(50);
    }
    json_t *res = json_object_get(v, "result");
    if (json_array_size(json_object_get(res, "on_time")))
        fail_msg("the agent ran out of time: %s", json_string_value(json_object_get(res, "text")));
    long long spent = 0;
    size_t i;
    json_t *mv;
    json_array_foreach(json_object_get(v, "moves"), i, mv) if (json_integer_value(json_object_get(mv, "seat")) == 0)
        spent += json_integer_value(json_object_get(mv, "ms"));
    assert_true(json_array_size(json_object_get(v, "moves")) >= 16 || json_is_true(json_object_get(v, "over")));
    assert_true(spent < 3000);
    json_decref(v);
    pips_server_free(s);
}

/* Issue 27: a clock survives a restart, and the time the server was down
 * is not charged. */
static void test_clock_restart(void **st)
{
    (void)st;
    char db[] = "/tmp/pips-test-clock-XXXXXX";
    int fd = mkstemp(db);
    assert_true(fd >= 0);
    close(fd);
    unlink(db);
    pips_server *s = new_server(db, 0);
    char tok[2][64];
    long long id = create(s, "{\"game\":\"tictacdoh\",\"clock\":{\"initial\":30}}", tok);
    reply r = move(s, id, "L@0,0", tok[0]);
    assert_int_equal(r.status, 200);
    long long before = remaining(r.json, 1);
    reply_free(&r);
    double t0 = now_ms();
    sleep_ms(300);
    double t1 = now_ms();
    pips_server_free(s);
    sleep_ms(1200); /* the server is down */
    s = new_server(db, 0);
    double t2 = now_ms();
    json_t *v = view(s, id);
    double t3 = now_ms();
    long long after = remaining(v, 1);
    /* charged what passed while it ran: (t0, t1 + stop) and (start, t3) */
    assert_int_equal(json_integer_value(json_object_get(json_object_get(v, "clock"), "running")), 1);
    if (after > before - (long long)(t1 - t0) + 20 || after < before - (long long)(t3 - t0 - 1200) - 50)
        fail_msg("after the restart seat 2 has %lld ms of %lld; ran %.0f ms, down 1200 ms",
                 after, before, t3 - t0);
    (void)t2;
    json_decref(v);
    pips_server_free(s);
    char aux[300];
    unlink(db);
    snprintf(aux, sizeof aux, "%s-wal", db);
    unlink(aux);
    snprintf(aux, sizeof aux, "%s-shm", db);
    unlink(aux);
}

/* Plays the first legal move of game id with token; returns the status. */
static int play_first_legal(pips_server *s, long long id, const char *token)
{
    json_t *v = view(s, id);
    char mv[64];
    snprintf(mv, sizeof mv, "%s", json_string_value(json_array_get(json_object_get(v, "legal"), 0)));
    json_decref(v);
    reply r = move(s, id, mv, token);
    int status = r.status;
    reply_free(&r);
    return status;
}

static long long to_move(pips_server *s, long long id)
{
    json_t *v = view(s, id);
    long long who = json_is_integer(json_object_get(v, "to_move"))
                        ? json_integer_value(json_object_get(v, "to_move")) : -1;
    json_decref(v);
    return who;
}

/* --max-think caps every agent move, clock or not: a work budget (here a
 * depth-12 alpha-beta on Noname, hours of search) says nothing of time, so
 * without the cap one seat could hold a worker for hours. */
static void test_max_think_caps_agents_without_a_clock(void **st)
{
    (void)st;
    pips_server_config cfg = {0};
    cfg.db_path = ":memory:";
    cfg.max_think_seconds = 0.3;
    pips_error err;
    pips_server *s = pips_server_new(&cfg, &err);
    assert_non_null(s);
    char tok[2][64];
    long long id = create(s, "{\"game\":\"noname\",\"seats\":[\"alphabeta:depth=12\",\"human\"],"
                             "\"seed\":3}", tok);
    json_t *v = NULL;
    double t0 = now_ms();
    for (;;) { /* until the agent has moved */
        v = view(s, id);
        if (json_array_size(json_object_get(v, "moves")) >= 1 || now_ms() - t0 > 30000)
            break;
        json_decref(v);
        sleep_ms(20);
    }
    json_t *moves = json_object_get(v, "moves");
    assert_int_equal(json_array_size(moves), 1);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(moves, 0), "seat")), 0);
    assert_int_equal(to_move(s, id), 1);
    json_decref(v);
    pips_server_free(s);
}

/* Issue 27: an agent whose flag fell stays out after a restart: its
 * autopilot (a random mover, at once) plays its turns, not its own agent
 * (here a two-second search). Its flag falls while it waits for the one
 * worker, which another game's agent keeps busy. */
static void test_flagged_agent_stays_out_after_restart(void **st)
{
    (void)st;
    char db[] = "/tmp/pips-test-flagged-XXXXXX";
    int fd = mkstemp(db);
    assert_true(fd >= 0);
    close(fd);
    unlink(db);
    pips_server_config cfg = {0};
    cfg.db_path = db;
    cfg.ai_threads = 1;
    pips_error err;
    pips_server *s = pips_server_new(&cfg, &err);
    assert_non_null(s);
    char busy_tok[2][64], tok[3][64];
    long long busy = create(s, "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"mcts:time=3\"]}", busy_tok);
    assert_int_equal(play_first_legal(s, busy, busy_tok[0]), 200);
    sleep_ms(100); /* the worker is thinking for `busy` */
    long long id = create_n(s, "{\"game\":\"tictacdoh\",\"options\":{\"players\":3},"
                               "\"seats\":[\"human\",\"human\",\"mcts:time=2\"],"
                               "\"clock\":{\"initial\":1}}", tok, 3);
    /* after a small and a medium piece side by side no third piece ends the
     * game (checked over all 3rd moves), so seat 3's autopilot, a random
     * mover, cannot win at once and end the game this test watches */
    reply first = move(s, id, "S@0,0", tok[0]);
    assert_int_equal(first.status, 200);
    reply_free(&first);
    reply second = move(s, id, "M@1,0", tok[1]);
    assert_int_equal(second.status, 200);
    reply_free(&second);
    double t0 = now_ms();
    json_t *v = NULL;
    for (;;) { /* seat 3 waits for the worker; its flag falls */
        v = view(s, id);
        if (json_array_size(json_object_get(json_object_get(v, "result"), "on_time")) || now_ms() - t0 > 4000)
            break;
        json_decref(v);
        sleep_ms(10);
    }
    json_t *on_time = json_object_get(json_object_get(v, "result"), "on_time");
    assert_int_equal(json_array_size(on_time), 1);
    assert_int_equal(json_integer_value(json_array_get(on_time, 0)), 2);
    json_decref(v);
    assert_int_equal(to_move(s, id), 2); /* its autopilot waits for the worker too */
    /* `busy` ends: nothing is left to think for after the restart */
    char path[64], body[160];
    snprintf(path, sizeof path, "/api/games/%lld/resign", busy);
    snprintf(body, sizeof body, "{\"token\":\"%s\"}", busy_tok[0]);
    reply r = call(s, "POST", path, body);
    assert_int_equal(r.status, 200);
    reply_free(&r);
    pips_server_free(s); /* waits for the worker's search */
    s = new_server(db, 0);
    t0 = now_ms();
    while (to_move(s, id) == 2 && now_ms() - t0 < 5000)
        sleep_ms(10);
    double took = now_ms() - t0;
    if (took > 1000)
        fail_msg("seat 3 (out of time) took %.0f ms to move after the restart: its own agent played", took);
    assert_int_equal(to_move(s, id), 0);
    v = view(s, id);
    assert_int_equal(json_array_size(json_object_get(json_object_get(v, "result"), "on_time")), 1);
    json_decref(v);
    pips_server_free(s);
    char aux[300];
    unlink(db);
    snprintf(aux, sizeof aux, "%s-wal", db);
    unlink(aux);
    snprintf(aux, sizeof aux, "%s-shm", db);
    unlink(aux);
}

/* Every level the lobby offers, at every seat count a game takes up to six,
 * is within the server's own limits: a level is never refused. */
static void test_every_level_within_the_limits(void **st)
{
    (void)st;
    pips_server *s = new_server(":memory:", 0);
    reply rules = call(s, "GET", "/api/rules", NULL);
    assert_int_equal(rules.status, 200);
    static const char *const levels[] = {"easy", "medium", "hard", "max"};
    size_t i, made = 0;
    json_t *gj;
    json_array_foreach(json_object_get(rules.json, "games"), i, gj) {
        const char *game = json_string_value(json_object_get(gj, "name"));
        for (int n = 2; n <= 6; n++) {
            char path[160], body[512];
            snprintf(path, sizeof path, "/api/agents?game=%s&options={\"players\":%d}", game, n);
            reply a = call(s, "GET", path, NULL);
            int status = a.status;
            reply_free(&a);
            if (status != 200)
                continue; /* the game does not seat n */
            for (size_t l = 0; l < sizeof levels / sizeof *levels; l++) {
                int len = snprintf(body, sizeof body,
                                   "{\"game\":\"%s\",\"options\":{\"players\":%d},\"seats\":[",
                                   game, n);
                for (int k = 0; k < n; k++)
                    len += snprintf(body + len, sizeof body - (size_t)len, "%s\"%s\"",
                                    k ? "," : "", levels[l]);
                snprintf(body + len, sizeof body - (size_t)len, "]}");
                reply r = call(s, "POST", "/api/games", body);
                if (r.status != 201)
                    fail_msg("%s, %d seats, %s: %d %s", game, n, levels[l], r.status, r.raw);
                reply_free(&r);
                made++;
            }
        }
    }
    /* five games at two seats, and 3-6 where they seat them (84 today) */
    assert_true(made >= 5 * 4 + 4 * 4 * 3);
    reply_free(&rules);
    pips_server_free(s);
}

/* GET /api/rules is the lobby's option schema; /api/agents says what can
 * play a game under given options (issue 17: alphabeta is not offered for
 * Ziggurat, nor for three-player IceFrogs). */
static void test_rules_schema_and_agents(void **st)
{
    (void)st;
    pips_server *s = new_server(":memory:", 0);
    reply r = call(s, "GET", "/api/rules", NULL);
    assert_int_equal(r.status, 200);
    size_t i;
    json_t *gj;
    bool saw_zig = false;
    json_array_foreach(json_object_get(r.json, "games"), i, gj) {
        json_t *opts = json_object_get(gj, "options"), *o;
        size_t k;
        json_array_foreach(opts, k, o) {
            assert_true(json_is_string(json_object_get(o, "type")));
            assert_true(json_is_string(json_object_get(o, "description")));
            assert_non_null(json_object_get(o, "default"));
        }
        assert_true(json_array_size(json_object_get(gj, "agents")) >= 3);
        assert_true(json_is_string(json_object_get(json_object_get(gj, "levels"), "easy")));
        if (!strcmp(json_string_value(json_object_get(gj, "name")), "ziggurat")) {
            saw_zig = true;
            json_t *a;
            json_array_foreach(json_object_get(gj, "agents"), k, a)
                assert_string_not_equal(json_string_value(a), "alphabeta");
        }
    }
    assert_true(saw_zig);
    reply_free(&r);
    r = call(s, "GET", "/api/agents?game=icefrogs&options={\"players\":3}", NULL);
    assert_int_equal(r.status, 200);
    assert_int_equal(json_integer_value(json_object_get(r.json, "players")), 3);
    json_t *a;
    json_array_foreach(json_object_get(r.json, "agents"), i, a)
        assert_string_not_equal(json_string_value(a), "alphabeta");
    /* the levels are those resolved for three seats (issue 24) */
    const char *hard3 = json_string_value(json_object_get(json_object_get(r.json, "levels"), "hard"));
    assert_non_null(hard3);
    {
        const char *three[] = {"players=3"};
        pips_error gerr;
        pips_game *g3 = pips_game_new("icefrogs", three, 1, NULL, &gerr);
        assert_non_null(g3);
        assert_string_equal(hard3, pips_agent_level_spec(g3, "hard"));
        pips_game_free(g3);
    }
    reply_free(&r);
    r = call(s, "GET", "/api/agents?game=icefrogs&options={\"players\":2}", NULL);
    bool alphabeta = false;
    json_array_foreach(json_object_get(r.json, "agents"), i, a)
        alphabeta |= !strcmp(json_string_value(a), "alphabeta");
    assert_true(alphabeta);
    reply_free(&r);
    r = call(s, "GET", "/api/agents?game=icefrogs&options={\"players\":9}", NULL);
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(json_string_value(json_object_get(r.json, "error")), "players"));
    reply_free(&r);
    r = call(s, "GET", "/api/agents?game=icefrogs&options={\"players\":[3]}", NULL);
    assert_int_equal(r.status, 400);
    reply_free(&r);
    pips_server_free(s);
}

static void test_resign_and_records(void **st)
{
    (void)st;
    pips_server *s = new_server(":memory:", 0);
    char tok[2][64];
    long long id = create(s, "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"human\"],\"seed\":3}",
                          tok);
    reply r = move(s, id, "L@0,0", tok[0]);
    reply_free(&r);
    char path[64], body[200];
    snprintf(path, sizeof path, "/api/games/%lld/resign", id);
    r = call(s, "POST", path, "{}");
    assert_int_equal(r.status, 403);
    reply_free(&r);
    snprintf(body, sizeof body, "{\"token\":\"%s\"}", tok[1]);
    r = call(s, "POST", path, body);
    assert_int_equal(r.status, 200);
    assert_true(json_is_true(json_object_get(r.json, "over")));
    /* result.resigned lists the seats that resigned */
    json_t *resigned = json_object_get(json_object_get(r.json, "result"), "resigned");
    assert_int_equal(json_array_size(resigned), 1);
    assert_int_equal(json_integer_value(json_array_get(resigned, 0)), 1);
    reply_free(&r);
    r = move(s, id, "M@0,0", tok[1]);
    assert_int_equal(r.status, 409);
    reply_free(&r);
    /* the record carries the moves and the resignation; uploading it
     * makes a new game with the same position and fresh tokens */
    snprintf(path, sizeof path, "/api/games/%lld/record", id);
    r = call(s, "GET", path, NULL);
    assert_int_equal(r.status, 200);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(r.json, "resigned"), 0)), 1);
    reply up = call(s, "POST", "/api/records", r.raw);
    if (up.status != 201)
        fail_msg("upload: %d %s", up.status, up.raw);
    json_t *g = json_object_get(up.json, "game");
    assert_string_equal(json_string_value(json_object_get(g, "state")), "0,0:L");
    assert_true(json_is_true(json_object_get(g, "over")));
    reply_free(&up);
    reply_free(&r);
    /* a record with a bad move is refused, naming the move */
    r = call(s, "POST", "/api/records",
             "{\"format\":\"pips-record\",\"version\":1,\"game\":\"tictacdoh\",\"options\":{},"
             "\"seats\":[\"human\",\"human\"],\"seed\":1,\"moves\":[\"L@0,0\",\"L@0,0\"]}");
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(json_string_value(json_object_get(r.json, "error")), "move 2"));
    reply_free(&r);
    pips_server_free(s);
}

static void test_games_survive_a_restart(void **st)
{
    (void)st;
    char db[] = "/tmp/pips-test-server-XXXXXX";
    int fd = mkstemp(db);
    assert_true(fd >= 0);
    close(fd);
    unlink(db);
    pips_server *s = new_server(db, 0);
    char tok[2][64];
    long long id = create(s, "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"human\"]}", tok);
    const char *moves[] = {"L@0,0", "M@0,0", "S@1,1", "M@1,1"};
    for (size_t i = 0; i < 4; i++) {
        reply r = move(s, id, moves[i], tok[i % 2]);
        assert_int_equal(r.status, 200);
        reply_free(&r);
    }
    json_t *before = view(s, id);
    pips_server_free(s);

    s = new_server(db, 0);
    assert_int_equal(pips_server_broken_games(s), 0);
    json_t *after = view(s, id);
    assert_string_equal(json_string_value(json_object_get(before, "state")),
                         json_string_value(json_object_get(after, "state")));
    assert_true(json_equal(json_object_get(before, "moves"), json_object_get(after, "moves")));
    /* versions never go back across a restart, so open pages keep updating */
    assert_true(json_integer_value(json_object_get(after, "version")) >
                json_integer_value(json_object_get(before, "version")));
    json_decref(before);
    json_decref(after);
    /* the tokens still hold their seats; undo is persisted too */
    reply r = move(s, id, "S@0,1", tok[1]);
    assert_int_equal(r.status, 403);
    reply_free(&r);
    r = move(s, id, "S@0,1", tok[0]);
    assert_int_equal(r.status, 200);
    reply_free(&r);
    char path[64], body[200];
    snprintf(path, sizeof path, "/api/games/%lld/undo", id);
    snprintf(body, sizeof body, "{\"tokens\":[\"%s\",\"%s\"]}", tok[0], tok[1]);
    r = call(s, "POST", path, body);
    reply_free(&r);
    pips_server_free(s);
    s = new_server(db, 0);
    assert_int_equal(n_moves(s, id), 4);
    pips_server_free(s);
    char aux[300];
    unlink(db);
    snprintf(aux, sizeof aux, "%s-wal", db);
    unlink(aux);
    snprintf(aux, sizeof aux, "%s-shm", db);
    unlink(aux);
}

static void test_game_limit(void **st)
{
    (void)st;
    pips_server *s = new_server(":memory:", 2);
    char tok[2][64];
    create(s, "{\"game\":\"tictacdoh\"}", tok);
    create(s, "{\"game\":\"tictacdoh\"}", tok);
    expect_error(s, "POST", "/api/games", "{\"game\":\"tictacdoh\"}", 503);
    pips_server_free(s);
}

/* Random and mutated requests: every answer is a status with a body; the
 * server keeps working. */
static void test_garbage_never_crashes(void **st)
{
    (void)st;
    pips_server *s = new_server(":memory:", 50);
    char tok[2][64];
    long long id = create(s, "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"human\"]}", tok);
    static const char *const paths[] = {"/api/games", "/api/games/1", "/api/games/1/moves",
                                        "/api/games/1/undo", "/api/games/1/resign",
                                        "/api/records", "/api/rules", "/api/games/1/record",
                                        "/api/games/1?ply=-1", "/api/games/1?ply=99999999999",
                                        "/../etc/passwd", "/api/games/1/events"};
    static const char *const methods[] = {"GET", "POST", "PUT", "", "HEAD"};
    static const char *const bodies[] = {
        "", "{}", "null", "{\"game\":1}", "{\"game\":\"tictacdoh\",\"seats\":null}",
        "{\"move\":null}", "{\"move\":\"L@9,9\",\"token\":1}", "{\"tokens\":[1,2,3]}",
        "{\"game\":\"tictacdoh\",\"options\":[]}", "{\"format\":\"pips-record\",\"moves\":7}",
        "\"\\u0000\"", "{\"move\":\"L@0,0\\u0000x\"}"};
    pips_rng rng;
    pips_rng_seed(&rng, 11);
    char body[512];
    for (int i = 0; i < 3000; i++) {
        const char *p = paths[pips_rng_below(&rng, sizeof paths / sizeof paths[0])];
        const char *m = methods[pips_rng_below(&rng, sizeof methods / sizeof methods[0])];
        snprintf(body, sizeof body, "%s", bodies[pips_rng_below(&rng, sizeof bodies / sizeof bodies[0])]);
        size_t len = strlen(body);
        for (int k = (int)pips_rng_below(&rng, 3); k > 0 && len; k--)
            body[pips_rng_below(&rng, len)] = (char)pips_rng_below(&rng, 256);
        pips_http_request req = {m, p, NULL, NULL, 0, body, len, NULL};
        pips_http_response res;
        pips_server_handle(s, &req, &res);
        assert_true(res.status >= 200 && res.status < 600);
        pips_http_response_free(&res);
    }
    /* random bytes as paths, queries and bodies */
    char path[64], query[32];
    for (int i = 0; i < 2000; i++) {
        size_t pl = pips_rng_below(&rng, sizeof path - 1), ql = pips_rng_below(&rng, sizeof query);
        static const char prefix[] = "/api/games/1/";
        for (size_t k = 0; k < pl; k++)
            path[k] = k < sizeof prefix - 1 && pips_rng_below(&rng, 4)
                          ? prefix[k]
                          : (char)(1 + pips_rng_below(&rng, 255));
        path[pl] = '\0';
        for (size_t k = 0; k < ql; k++)
            query[k] = (char)(1 + pips_rng_below(&rng, 255));
        query[ql] = '\0';
        size_t bl = pips_rng_below(&rng, sizeof body);
        for (size_t k = 0; k < bl; k++)
            body[k] = (char)pips_rng_below(&rng, 256);
        pips_http_request req = {pips_rng_below(&rng, 2) ? "POST" : "GET", path,
                                 ql ? query : NULL, NULL, 0, body, bl, NULL};
        pips_http_response res;
        pips_server_handle(s, &req, &res);
        assert_true(res.status >= 200 && res.status < 600);
        pips_http_response_free(&res);
    }
    assert_true(pips_server_idle(s, 5000));
    reply r = move(s, id, "L@0,0", tok[0]);
    assert_true(r.status == 200 || r.status == 409 || r.status == 422);
    reply_free(&r);
    pips_server_free(s);
}

static void test_change_notification(void **st)
{
    (void)st;
    pips_server *s = new_server(":memory:", 0);
    char tok[2][64];
    long long id = create(s, "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"human\"]}", tok);
    unsigned long long version = 0;
    char *json = NULL;
    assert_int_equal(pips_server_wait_change(s, id, &version, 0, &json), 1);
    free(json);
    json = NULL;
    assert_int_equal(pips_server_wait_change(s, id, &version, 10, &json), 0);
    reply r = move(s, id, "L@0,0", tok[0]);
    reply_free(&r);
    assert_int_equal(pips_server_wait_change(s, id, &version, 10, &json), 1);
    assert_non_null(strstr(json, "L@0,0"));
    free(json);
    assert_int_equal(pips_server_wait_change(s, 12345, &version, 10, &json), -1);
    pips_server_free(s);
}

static void test_real_socket_round_trip(void **st)
{
    (void)st;
    pips_server *s = new_server(":memory:", 0);
    pips_error err;
    assert_true(pips_server_listen(s, "127.0.0.1", 0, &err));
    int port = pips_server_port(s);
    assert_true(port > 0);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    const char *req = "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      "Content-Length: 20\r\nConnection: close\r\n\r\n{\"game\":\"tictacdoh\"}";
    assert_int_equal(write(fd, req, strlen(req)), (ssize_t)strlen(req));
    char buf[8192];
    size_t got = 0;
    ssize_t n;
    while (got < sizeof buf - 1 && (n = read(fd, buf + got, sizeof buf - 1 - got)) > 0)
        got += (size_t)n;
    buf[got] = '\0';
    close(fd);
    assert_non_null(strstr(buf, "HTTP/1.1 201"));
    assert_non_null(strstr(buf, "\"tokens\""));

    /* the event stream sends the game's view at once */
    fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    const char *ev = "GET /api/games/1/events HTTP/1.1\r\nHost: x\r\n\r\n";
    assert_int_equal(write(fd, ev, strlen(ev)), (ssize_t)strlen(ev));
    got = 0;
    buf[0] = '\0';
    while (got < sizeof buf - 1 && (n = read(fd, buf + got, sizeof buf - 1 - got)) > 0) {
        got += (size_t)n;
        buf[got] = '\0';
        if (strstr(buf, "event: state\ndata: {"))
            break;
    }
    assert_non_null(strstr(buf, "text/event-stream"));
    assert_non_null(strstr(buf, "event: state\ndata: {\"id\":1"));

    /* a body over the limit is refused while reading (server limit 4096) */
    int fd2 = socket(AF_INET, SOCK_STREAM, 0);
    assert_int_equal(connect(fd2, (struct sockaddr *)&a, sizeof a), 0);
    const char *big = "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 10000\r\n"
                      "Connection: close\r\n\r\n";
    assert_int_equal(write(fd2, big, strlen(big)), (ssize_t)strlen(big));
    char pad[10000];
    memset(pad, ' ', sizeof pad);
    assert_int_equal(write(fd2, pad, sizeof pad), (ssize_t)sizeof pad);
    got = 0;
    while (got < sizeof buf - 1 && (n = read(fd2, buf + got, sizeof buf - 1 - got)) > 0)
        got += (size_t)n;
    buf[got] = '\0';
    close(fd2);
    assert_non_null(strstr(buf, "HTTP/1.1 413"));
    /* stopping ends the open event stream */
    pips_server_free(s);
    close(fd);
}

/* GET /api/games/{id}/hints (issue 14 item 6): perfect-play values of
 * every legal move, agreeing with the library's solver; refused where the
 * solver cannot apply; "unknown" when its one-second budget runs out. */
static reply hints(pips_server *s, long long id, const char *query)
{
    char path[96];
    snprintf(path, sizeof path, "/api/games/%lld/hints%s", id, query);
    return call(s, "GET", path, NULL);
}

static void test_perfect_play_hints(void **st)
{
    (void)st;
    pips_server *s = new_server(":memory:", 100);
    char tok[2][64];
    long long id = create(s, "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"human\"]}", tok);
    /* near the end: eight of the fifteen pieces placed, no line yet (TTD-R5) */
    static const char *const line[] = {"L@0,0", "S@1,0",  "M@0,1", "L@1,1",
                                       "S@-1,1", "M@-1,0", "S@0,-1", "L@1,-1"};
    for (size_t i = 0; i < sizeof line / sizeof line[0]; i++) {
        reply r = move(s, id, line[i], tok[i % 2]);
        assert_int_equal(r.status, 200);
        assert_false(json_is_true(json_object_get(r.json, "over")));
        reply_free(&r);
    }
    json_t *v = view(s, id);
    assert_true(json_is_true(json_object_get(v, "hints")));
    pips_error err;
    pips_game *g = pips_game_new("tictacdoh", NULL, 0, NULL, &err);
    assert_non_null(g);
    void *state = pips_state_new(g, &err);
    assert_true(g->def->state_from_text(g, json_string_value(json_object_get(v, "state")), state,
                                        &err));
    size_t cap = pips_max_moves(g);
    pips_move *moves = calloc(cap, sizeof *moves);
    pips_value *values = calloc(cap, sizeof *values);
    pips_solve_opts so = {1, 64, NULL, NULL, 0, 0, moves, values};
    pips_solve_result sr;
    assert_true(solve_moves_unchecked(g, state, &so, &sr, &err));
    reply r = hints(s, id, "");
    assert_int_equal(r.status, 200);
    assert_string_equal(json_string_value(json_object_get(r.json, "status")), "solved");
    assert_int_equal(json_integer_value(json_object_get(r.json, "ply")), 8);
    assert_string_equal(json_string_value(json_object_get(r.json, "value")),
                        pips_value_name(sr.value));
    json_t *list = json_object_get(r.json, "moves");
    assert_int_equal(json_array_size(list), sr.n_moves);
    assert_int_equal(json_array_size(json_object_get(v, "legal")), sr.n_moves);
    for (size_t i = 0; i < sr.n_moves; i++) {
        char text[PIPS_MOVE_TEXT_MAX];
        g->def->move_to_text(g, state, moves[i], text);
        json_t *h = json_array_get(list, i);
        assert_string_equal(json_string_value(json_object_get(h, "move")), text);
        assert_string_equal(json_string_value(json_object_get(h, "value")),
                            pips_value_name(values[i]));
    }
    reply_free(&r);
    /* a position of the history (replay), and bad plies */
    r = hints(s, id, "?ply=7");
    assert_int_equal(r.status, 200);
    assert_int_equal(json_integer_value(json_object_get(r.json, "ply")), 7);
    assert_string_equal(json_string_value(json_object_get(r.json, "status")), "solved");
    reply_free(&r);
    r = hints(s, id, "?ply=99");
    assert_int_equal(r.status, 400);
    reply_free(&r);
    r = call(s, "POST", "/api/games/1/hints", "{}");
    assert_int_equal(r.status, 405);
    reply_free(&r);
    free(moves);
    free(values);
    pips_state_free(g, state);
    pips_game_free(g);
    json_decref(v);

    /* a game over has nothing to solve */
    long long over = create(s, "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"human\"]}", tok);
    char body[256];
    snprintf(body, sizeof body, "{\"token\":\"%s\"}", tok[0]);
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld/resign", over);
    reply rr = call(s, "POST", path, body);
    assert_int_equal(rr.status, 200);
    reply_free(&rr);
    r = hints(s, over, "");
    assert_int_equal(r.status, 409);
    assert_non_null(strstr(json_string_value(json_object_get(r.json, "error")), "over"));
    reply_free(&r);

    /* Ziggurat rolls dice: refused, and its view says hints do not apply */
    long long zig = create(
        s, "{\"game\":\"ziggurat\",\"options\":{\"players\":2},\"seats\":[\"human\",\"human\"]}",
        tok);
    json_t *zv = view(s, zig);
    assert_true(json_is_false(json_object_get(zv, "hints")));
    json_decref(zv);
    r = hints(s, zig, "");
    assert_int_equal(r.status, 409);
    assert_non_null(strstr(json_string_value(json_object_get(r.json, "error")), "chance"));
    reply_free(&r);

    /* the Martian Coaster from the start is not settled within a second */
    long long nim = create(s, "{\"game\":\"nimitz\",\"seats\":[\"human\",\"human\"]}", tok);
    r = hints(s, nim, "");
    assert_int_equal(r.status, 200);
    assert_string_equal(json_string_value(json_object_get(r.json, "status")), "unknown");
    assert_non_null(json_string_value(json_object_get(r.json, "reason")));
    assert_null(json_object_get(r.json, "moves"));
    reply_free(&r);
    pips_server_free(s);
}

static void test_static_files_stay_in_web_root(void **st)
{
    (void)st;
    pips_server_config cfg = {0};
    cfg.db_path = ":memory:";
    cfg.web_root = PIPS_SOURCE_DIR "/web";
    pips_error err;
    pips_server *s = pips_server_new(&cfg, &err);
    assert_non_null(s);
    static const struct { const char *path; int status; const char *type; } cases[] = {
        {"/", 200, "text/html"}, {"/app.js", 200, "text/javascript"},
        {"/games/tictacdoh.js", 200, "text/javascript"}, {"/style.css", 200, "text/css"},
        {"/../CMakeLists.txt", 404, NULL}, {"/games/../../CMakeLists.txt", 404, NULL},
        {"//etc/passwd", 404, NULL}, {"/nothing.html", 404, NULL}, {"/games", 404, NULL},
        {"/app.js\\..", 404, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pips_http_request req = {"GET", cases[i].path, NULL, NULL, 0, "", 0, NULL};
        pips_http_response res;
        pips_server_handle(s, &req, &res);
        if (res.status != cases[i].status)
            fail_msg("%s: %d, want %d", cases[i].path, res.status, cases[i].status);
        if (cases[i].type)
            assert_non_null(strstr(res.content_type, cases[i].type));
        pips_http_response_free(&res);
    }
    pips_server_free(s);
}

/* GET path with these headers (name, value pairs, NULL-terminated). */
static void get_static(pips_server *s, const char *path, const char *query, const char *const *hdrs,
                       pips_http_response *res)
{
    pips_http_header h[4];
    size_t n = 0;
    for (; hdrs && hdrs[2 * n]; n++)
        h[n] = (pips_http_header){hdrs[2 * n], hdrs[2 * n + 1]};
    pips_http_request req = {"GET", path, query, h, n, "", 0, NULL};
    pips_server_handle(s, &req, res);
}

/* Issue 27: static files are gzipped when the client accepts it, carry an
 * ETag (304 on a match) and are cached for long only under their content
 * hash, which index.html's import map hands out. */
static void test_static_gzip_and_etag(void **st)
{
    (void)st;
    pips_server_config cfg = {0};
    cfg.db_path = ":memory:";
    cfg.web_root = PIPS_SOURCE_DIR "/web";
    pips_error err;
    pips_server *s = pips_server_new(&cfg, &err);
    assert_non_null(s);
    FILE *f = fopen(PIPS_SOURCE_DIR "/web/game.js", "rb");
    assert_non_null(f);
    static char plain[1 << 20], inflated[1 << 20];
    size_t plain_len = fread(plain, 1, sizeof plain, f);
    fclose(f);

    pips_http_response res;
    get_static(s, "/game.js", NULL, NULL, &res);
    assert_int_equal(res.status, 200);
    assert_string_equal(res.content_encoding, "");
    assert_int_equal(res.body_len, plain_len);
    assert_string_equal(res.cache_control, "no-cache");
    char etag_plain[48];
    snprintf(etag_plain, sizeof etag_plain, "%s", res.etag);
    assert_true(strlen(etag_plain) > 4);
    pips_http_response_free(&res);

    const char *const gz[] = {"Accept-Encoding", "gzip, deflate, br", NULL};
    get_static(s, "/game.js", NULL, gz, &res);
    assert_int_equal(res.status, 200);
    assert_string_equal(res.content_encoding, "gzip");
    assert_true(res.vary_encoding);
    assert_true(res.body_len < plain_len / 2);
    uLongf out_len = sizeof inflated;
    z_stream z;
    memset(&z, 0, sizeof z);
    assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
    z.next_in = (Bytef *)res.body;
    z.avail_in = (uInt)res.body_len;
    z.next_out = (Bytef *)inflated;
    z.avail_out = (uInt)out_len;
    assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
    assert_int_equal(z.total_out, plain_len);
    inflateEnd(&z);
    assert_memory_equal(inflated, plain, plain_len);
    char etag_gz[48];
    snprintf(etag_gz, sizeof etag_gz, "%s", res.etag);
    assert_string_not_equal(etag_gz, etag_plain);
    pips_http_response_free(&res);

    /* "gzip;q=0" refuses it */
    const char *const no_gz[] = {"Accept-Encoding", "gzip;q=0, identity", NULL};
    get_static(s, "/game.js", NULL, no_gz, &res);
    assert_string_equal(res.content_encoding, "");
    pips_http_response_free(&res);

    /* revalidation: the same ETag gets 304 and no body */
    const char *const inm[] = {"Accept-Encoding", "gzip", "If-None-Match", etag_gz, NULL};
    get_static(s, "/game.js", NULL, inm, &res);
    assert_int_equal(res.status, 304);
    assert_int_equal(res.body_len, 0);
    pips_http_response_free(&res);
    const char *const stale[] = {"If-None-Match", "\"0123456789ab\"", NULL};
    get_static(s, "/game.js", NULL, stale, &res);
    assert_int_equal(res.status, 200);
    pips_http_response_free(&res);

    /* index.html maps every module to its content hash; that URL is immutable */
    get_static(s, "/", NULL, NULL, &res);
    assert_int_equal(res.status, 200);
    assert_string_equal(res.cache_control, "no-cache");
    char *page = strndup(res.body, res.body_len);
    pips_http_response_free(&res);
    assert_non_null(strstr(page, "<script type=\"importmap\">"));
    const char *at = strstr(page, "\"/game.js\":\"/game.js?v=");
    assert_non_null(at);
    char v[32];
    snprintf(v, sizeof v, "%.14s", at + strlen("\"/game.js\":\"/game.js?"));
    assert_non_null(strstr(etag_plain, v + 2));
    free(page);
    get_static(s, "/game.js", v, NULL, &res);
    assert_string_equal(res.cache_control, "public, max-age=31536000, immutable");
    pips_http_response_free(&res);
    get_static(s, "/game.js", "v=000000000000", NULL, &res);
    assert_string_equal(res.cache_control, "no-cache");
    pips_http_response_free(&res);
    pips_server_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules_list_games),
        cmocka_unit_test(test_bad_requests_are_4xx_json),
        cmocka_unit_test(test_moves_need_the_seat_token),
        cmocka_unit_test(test_agent_replies),
        cmocka_unit_test(test_take_back_by_consent),
        cmocka_unit_test(test_clocks),
        cmocka_unit_test(test_clock_restart),
        cmocka_unit_test(test_flagged_agent_stays_out_after_restart),
        cmocka_unit_test(test_clock_agents_hurry),
        cmocka_unit_test(test_max_think_caps_agents_without_a_clock),
        cmocka_unit_test(test_rules_schema_and_agents),
        cmocka_unit_test(test_every_level_within_the_limits),
        cmocka_unit_test(test_resign_and_records),
        cmocka_unit_test(test_games_survive_a_restart),
        cmocka_unit_test(test_game_limit),
        cmocka_unit_test(test_garbage_never_crashes),
        cmocka_unit_test(test_change_notification),
        cmocka_unit_test(test_real_socket_round_trip),
        cmocka_unit_test(test_static_files_stay_in_web_root),
        cmocka_unit_test(test_static_gzip_and_etag),
        cmocka_unit_test(test_perfect_play_hints),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
