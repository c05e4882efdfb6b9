/*
 * test_hardening_server.c — regression tests for server bugs found by the
 * hostile client (tests/hostile/hostile.c) and the fault scripts
 * (tests/cli/faults.sh), through pips_server_handle: a view never shows a
 * change whose commit is still in flight; "?ply=" with no number and an
 * out-of-range "resigned" in an uploaded record are refused with 400; a
 * database that refuses writes gives 500 with a JSON error and leaves the
 * game as it was. The game is Tic Tac Doh! (its rules are not under test).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pips/server.h"

typedef struct reply {
    int status;
    json_t *json;
} reply;

static reply call(pips_server *s, const char *method, const char *path, const char *body)
{
    char p[256];
    snprintf(p, sizeof p, "%s", path);
    char *q = strchr(p, '?');
    if (q)
        *q++ = '\0';
    pips_http_request req = {method, p, q, NULL, 0, body ? body : "", body ? strlen(body) : 0, NULL};
    pips_http_response res;
    pips_server_handle(s, &req, &res);
    reply r = {res.status, json_loadb(res.body ? res.body : "", res.body_len, 0, NULL)};
    pips_http_response_free(&res);
    return r;
}

static bool is_json_error(const reply *r)
{
    return json_is_string(json_object_get(r->json, "error"));
}

static pips_server *new_server(const char *db)
{
    pips_server_config cfg = {0};
    cfg.db_path = db;
    pips_error err;
    pips_server *s = pips_server_new(&cfg, &err);
    if (!s)
        fail_msg("server: %s", err.msg);
    return s;
}

/* Creates a hotseat game; *version (may be NULL) gets its first version. */
static long long create(pips_server *s, char tokens[2][64], long long *version)
{
    reply r = call(s, "POST", "/api/games", "{\"game\":\"tictacdoh\",\"seed\":5}");
    assert_int_equal(r.status, 201);
    long long id = json_integer_value(json_object_get(r.json, "id"));
    if (version)
        *version = json_integer_value(json_object_get(json_object_get(r.json, "game"), "version"));
    for (size_t i = 0; i < 2; i++)
        snprintf(tokens[i], 64, "%s",
                 json_string_value(json_array_get(json_object_get(r.json, "tokens"), i)));
    json_decref(r.json);
    return id;
}

/* ---- a view never shows an uncommitted move ---- */

typedef struct race {
    pips_server *s;
    atomic_bool stop;
    atomic_long views, bad_views;
    atomic_llong id;
    atomic_llong first_version; /* the game's version at creation */
} race;

static void *reader_main(void *arg)
{
    race *rc = arg;
    char path[64];
    while (!atomic_load(&rc->stop)) {
        snprintf(path, sizeof path, "/api/games/%lld", (long long)atomic_load(&rc->id));
        reply r = call(rc->s, "GET", path, NULL);
        if (r.status == 200) {
            /* hotseat, no dice: each committed move adds one to the version
             * it had at creation, so a move shown before its commit breaks
             * this (the id and its first version are stored together below,
             * so a view of a newer game is checked against its own) */
            json_int_t version = json_integer_value(json_object_get(r.json, "version"));
            json_int_t n = json_integer_value(json_object_get(r.json, "n_moves"));
            long long id = json_integer_value(json_object_get(r.json, "id"));
            long long id1 = atomic_load(&rc->id);
            long long first = atomic_load(&rc->first_version);
            long long id2 = atomic_load(&rc->id);
            if (id == id1 && id == id2 && version != first + n)
                atomic_fetch_add(&rc->bad_views, 1);
            atomic_fetch_add(&rc->views, 1);
        }
        json_decref(r.json);
    }
    return NULL;
}

static void test_view_waits_for_commit(void **st)
{
    (void)st;
    char dir[] = "/tmp/pips-hardening-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char db[128];
    snprintf(db, sizeof db, "%s/race.db", dir);
    race rc;
    memset(&rc, 0, sizeof rc);
    rc.s = new_server(db);
    char tokens[2][64];
    long long first;
    long long id0 = create(rc.s, tokens, &first);
    atomic_store(&rc.first_version, first);
    atomic_store(&rc.id, id0);
    pthread_t reader;
    assert_int_equal(pthread_create(&reader, NULL, reader_main, &rc), 0);
    long moves = 0;
    for (int games = 0; games < 40 && moves < 300; games++) {
        long long id = atomic_load(&rc.id);
        char path[64], body[256];
        snprintf(path, sizeof path, "/api/games/%lld/moves", id);
        for (int ply = 0; ply < 30; ply++) {
            snprintf(body, sizeof body, "/api/games/%lld", id);
            reply v = call(rc.s, "GET", body, NULL);
            json_t *legal = json_object_get(v.json, "legal");
            const char *mv = json_string_value(
                json_array_get(legal, (size_t)(ply * 7 + games) % (json_array_size(legal) + 1)));
            if (!mv || json_is_true(json_object_get(v.json, "over"))) {
                json_decref(v.json);
                break;
            }
            snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\"}", mv, tokens[ply % 2]);
            json_decref(v.json);
            reply r = call(rc.s, "POST", path, body);
            assert_int_equal(r.status, 200);
            json_decref(r.json);
            moves++;
        }
        long long next = create(rc.s, tokens, &first);
        atomic_store(&rc.id, -1); /* no view is checked while the pair changes */
        atomic_store(&rc.first_version, first);
        atomic_store(&rc.id, next);
    }
    atomic_store(&rc.stop, true);
    pthread_join(reader, NULL);
    pips_server_free(rc.s);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    assert_true(moves > 50);
    assert_true(atomic_load(&rc.views) > 0);
    assert_int_equal(atomic_load(&rc.bad_views), 0);
}

/* ---- refused queries and records ---- */

static void test_empty_ply_query_refused(void **st)
{
    (void)st;
    pips_server *s = new_server(":memory:");
    char tokens[2][64];
    long long id = create(s, tokens, NULL);
    static const char *const bad[] = {"", "-1", "x", "1x", "99999999999999999999999", "2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char path[96];
        snprintf(path, sizeof path, "/api/games/%lld?ply=%s", id, bad[i]);
        reply r = call(s, "GET", path, NULL);
        assert_int_equal(r.status, 400);
        assert_true(is_json_error(&r));
        json_decref(r.json);
    }
    char path[96];
    snprintf(path, sizeof path, "/api/games/%lld?ply=0", id);
    reply r = call(s, "GET", path, NULL);
    assert_int_equal(r.status, 200);
    json_decref(r.json);
    pips_server_free(s);
}

static void test_record_resigned_checked(void **st)
{
    (void)st;
    pips_server *s = new_server(":memory:");
    static const char *const bad[] = {
        "{\"game\":\"tictacdoh\",\"moves\":[],\"resigned\":99}",
        "{\"game\":\"tictacdoh\",\"moves\":[],\"resigned\":2}",
        "{\"game\":\"tictacdoh\",\"moves\":[],\"resigned\":-1}",
        "{\"game\":\"tictacdoh\",\"moves\":[],\"resigned\":\"0\"}",
        "{\"game\":\"tictacdoh\",\"moves\":[],\"resigned\":1.0}",
    };
    reply list = call(s, "GET", "/api/games", NULL);
    json_int_t before = json_integer_value(json_object_get(list.json, "total"));
    json_decref(list.json);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        reply r = call(s, "POST", "/api/records", bad[i]);
        assert_int_equal(r.status, 400);
        assert_true(is_json_error(&r));
        json_decref(r.json);
    }
    list = call(s, "GET", "/api/games", NULL);
    assert_int_equal(json_integer_value(json_object_get(list.json, "total")), before);
    json_decref(list.json);
    /* a seat that exists is a resignation, as before */
    reply r = call(s, "POST", "/api/records", "{\"game\":\"tictacdoh\",\"moves\":[],\"resigned\":1}");
    assert_int_equal(r.status, 201);
    json_t *result = json_object_get(json_object_get(r.json, "game"), "result");
    assert_int_equal(json_integer_value(json_array_get(json_object_get(result, "resigned"), 0)), 1);
    json_decref(r.json);
    r = call(s, "POST", "/api/records", "{\"game\":\"tictacdoh\",\"moves\":[],\"resigned\":null}");
    assert_int_equal(r.status, 201);
    json_decref(r.json);
    pips_server_free(s);
}

/* An agent budget of "nan" compares false with every limit: refused up front. */
static void test_agent_budget_nan_refused(void **st)
{
    (void)st;
    pips_server *s = new_server(":memory:");
    static const char *const specs[] = {"random:time=nan", "random:iters=NAN", "random:depth=nan"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        char body[256];
        snprintf(body, sizeof body, "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"%s\"]}",
                 specs[i]);
        reply r = call(s, "POST", "/api/games", body);
        assert_int_equal(r.status, 400);
        assert_non_null(strstr(json_string_value(json_object_get(r.json, "error")),
                               "not a number"));
        json_decref(r.json);
    }
    pips_server_free(s);
}

/* Found by fuzz_http: an error message quoting raw input that is not UTF-8
 * (jansson's parse error quotes the bad token; "%.64s" can cut a character
 * in two) made json_string fail, and the answer was a bare {} with no
 * "error". Every 4xx must carry its message. */
static void test_error_message_not_utf8(void **st)
{
    (void)st;
    pips_server *s = new_server(":memory:");
    char long_name[128];
    memset(long_name, 'a', 63);
    strcpy(long_name + 63, "\xc3\xa9-game"); /* the 64-byte cut falls inside the é */
    char body[256];
    snprintf(body, sizeof body, "{\"game\":\"%s\"}", long_name);
    const char *bodies[] = {
        "{\"game\":\"tictacdoh\",\"se\\\xcf\x9c\":1}", /* invalid escape before bad UTF-8 */
        "{\"game\":\xff\xfe}",
        body,
    };
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        reply r = call(s, "POST", "/api/games", bodies[i]);
        assert_true(r.status >= 400 && r.status < 500);
        assert_true(is_json_error(&r));
        json_decref(r.json);
    }
    pips_server_free(s);
}

/* ---- a database that refuses the write ---- */

static void test_locked_database_refuses_cleanly(void **st)
{
    (void)st;
    char dir[] = "/tmp/pips-hardening-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char db[128];
    snprintf(db, sizeof db, "%s/locked.db", dir);
    pips_server *s = new_server(db);
    char tokens[2][64];
    long long id = create(s, tokens, NULL);
    char path[64], body[256];
    snprintf(path, sizeof path, "/api/games/%lld", id);
    reply v = call(s, "GET", path, NULL);
    char *before = json_dumps(v.json, JSON_COMPACT | JSON_SORT_KEYS);
    const char *mv = json_string_value(json_array_get(json_object_get(v.json, "legal"), 0));
    snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\"}", mv, tokens[0]);
    json_decref(v.json);

    /* another process-like connection holds the write lock past the
     * server's 5 s busy timeout */
    sqlite3 *other;
    assert_int_equal(sqlite3_open(db, &other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    snprintf(path, sizeof path, "/api/games/%lld/moves", id);
    reply r = call(s, "POST", path, body);
    assert_int_equal(r.status, 500);
    assert_true(is_json_error(&r));
    json_decref(r.json);
    snprintf(path, sizeof path, "/api/games/%lld", id);
    v = call(s, "GET", path, NULL);
    char *after = json_dumps(v.json, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(v.json);
    assert_string_equal(before, after); /* rolled back in memory too */
    free(before);
    free(after);

    /* the lock goes away: the same move is accepted and stored */
    assert_int_equal(sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
    snprintf(path, sizeof path, "/api/games/%lld/moves", id);
    r = call(s, "POST", path, body);
    assert_int_equal(r.status, 200);
    json_decref(r.json);
    pips_server_free(s);
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(other, "SELECT count(*) FROM moves WHERE game_id=?1", -1,
                                        &q, NULL), SQLITE_OK);
    sqlite3_bind_int64(q, 1, id);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(q, 0), 1);
    sqlite3_finalize(q);
    sqlite3_close(other);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* A database path that is a device or a directory is refused before SQLite
 * touches it (it used to leave /dev/null-journal behind). */
static void test_database_not_a_file(void **st)
{
    (void)st;
    static const char *const paths[] = {"/dev/null", "/tmp"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        pips_server_config cfg = {0};
        cfg.db_path = paths[i];
        pips_error err;
        pips_error_clear(&err);
        pips_server *s = pips_server_new(&cfg, &err);
        assert_null(s);
        assert_non_null(strstr(err.msg, "not a regular file"));
    }
    assert_int_equal(access("/dev/null-journal", F_OK), -1);
}

/* ---- a corrupt database ---- */

/* Overwrites the middle leaf page of `table` with garbage; false when the
 * SQLite library has no dbstat table to find it with. */
static bool corrupt_page_of(const char *db, const char *table)
{
    sqlite3 *h;
    assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(h, "SELECT pageno FROM dbstat WHERE name=?1 AND pagetype='leaf' "
                              "ORDER BY pageno", -1, &q, NULL) != SQLITE_OK) {
        sqlite3_close(h);
        return false;
    }
    sqlite3_bind_text(q, 1, table, -1, SQLITE_STATIC);
    long pages[4096];
    size_t n = 0;
    while (n < 4096 && sqlite3_step(q) == SQLITE_ROW)
        pages[n++] = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    sqlite3_close(h);
    assert_true(n >= 3);
    FILE *f = fopen(db, "r+b");
    assert_non_null(f);
    unsigned char junk[4096];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (unsigned char)(i * 37 + 11);
    assert_int_equal(fseek(f, (pages[n / 2] - 1) * 4096L, SEEK_SET), 0);
    assert_int_equal(fwrite(junk, 1, sizeof junk, f), sizeof junk);
    assert_int_equal(fclose(f), 0);
    return true;
}

#define CORRUPT_GAMES 120

/* Makes CORRUPT_GAMES finished hotseat games in db; n_moves[i] for game i+1. */
static void fill_database(const char *db, long n_moves[CORRUPT_GAMES])
{
    pips_server *s = new_server(db);
    for (int i = 0; i < CORRUPT_GAMES; i++) {
        char tokens[2][64];
        long long id = create(s, tokens, NULL);
        assert_int_equal(id, i + 1);
        n_moves[i] = 0;
        for (int ply = 0; ply < 12; ply++) {
            char path[64], body[256];
            snprintf(path, sizeof path, "/api/games/%lld", id);
            reply v = call(s, "GET", path, NULL);
            json_t *legal = json_object_get(v.json, "legal");
            const char *mv = json_string_value(
                json_array_get(legal, (size_t)(ply * 5 + i) % (json_array_size(legal) + 1)));
            if (!mv) {
                json_decref(v.json);
                break;
            }
            snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\"}", mv,
                     tokens[ply % 2]);
            json_decref(v.json);
            snprintf(path, sizeof path, "/api/games/%lld/moves", id);
            reply r = call(s, "POST", path, body);
            assert_int_equal(r.status, 200);
            json_decref(r.json);
            n_moves[i]++;
        }
    }
    pips_server_free(s); /* checkpoints: everything is in the main file */
}

/* A corrupt page of moves: the games it holds are counted broken and not
 * served; every other game is served with all its moves. Before, a read
 * error ended the replay early and the game was served with moves missing. */
static void test_corrupt_moves_page(void **st)
{
    (void)st;
    char dir[] = "/tmp/pips-hardening-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char db[128];
    snprintf(db, sizeof db, "%s/corrupt.db", dir);
    long n_moves[CORRUPT_GAMES];
    fill_database(db, n_moves);
    if (!corrupt_page_of(db, "moves"))
        skip();
    pips_server *s = new_server(db);
    size_t broken = pips_server_broken_games(s), missing = 0;
    assert_true(broken > 0 && broken < CORRUPT_GAMES);
    for (int i = 0; i < CORRUPT_GAMES; i++) {
        char path[64];
        snprintf(path, sizeof path, "/api/games/%d", i + 1);
        reply v = call(s, "GET", path, NULL);
        if (v.status == 404)
            missing++;
        else
            assert_int_equal(json_integer_value(json_object_get(v.json, "n_moves")), n_moves[i]);
        json_decref(v.json);
    }
    assert_int_equal(missing, broken);
    pips_server_free(s);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* A corrupt page of the games table: the server refuses to start and says
 * why, rather than serving the games before the bad page only. */
static void test_corrupt_games_page(void **st)
{
    (void)st;
    char dir[] = "/tmp/pips-hardening-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char db[128];
    snprintf(db, sizeof db, "%s/corrupt.db", dir);
    long n_moves[CORRUPT_GAMES];
    fill_database(db, n_moves);
    if (!corrupt_page_of(db, "games"))
        skip();
    pips_server_config cfg = {0};
    cfg.db_path = db;
    pips_error err;
    pips_error_clear(&err);
    pips_server *s = pips_server_new(&cfg, &err);
    assert_null(s);
    assert_int_equal(err.code, PIPS_ERR_IO);
    assert_non_null(strstr(err.msg, "reading the games"));
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_view_waits_for_commit),
        cmocka_unit_test(test_empty_ply_query_refused),
        cmocka_unit_test(test_record_resigned_checked),
        cmocka_unit_test(test_agent_budget_nan_refused),
        cmocka_unit_test(test_error_message_not_utf8),
        cmocka_unit_test(test_locked_database_refuses_cleanly),
        cmocka_unit_test(test_database_not_a_file),
        cmocka_unit_test(test_corrupt_moves_page),
        cmocka_unit_test(test_corrupt_games_page),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
