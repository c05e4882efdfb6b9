/*
 * test_server_lua.c — `pips serve --rules-dir DIR` (docs/lua.md) through
 * pips_server_handle: the lobby's list of the folder's rule scripts and Lua
 * games, a rule script applied by file name (TTD-R2 narrowed by the
 * example), other files refused, and a broken Lua game beside a healthy
 * game: its failing move is refused with the script's message, the server
 * stays up, the other game plays on and the broken game keeps its moves.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "pips/server.h"

typedef struct reply {
    int status;
    json_t *json;
} reply;

static reply call(pips_server *s, const char *method, const char *path, const char *body)
{
    char p[1200];
    snprintf(p, sizeof p, "%s", path);
    char *q = strchr(p, '?');
    if (q)
        *q++ = '\0';
    pips_http_request req = {.method = method, .path = p, .query = q, .body = body ? body : "",
                             .body_len = body ? strlen(body) : 0};
    pips_http_response res;
    pips_server_handle(s, &req, &res);
    reply r = {res.status, NULL};
    json_error_t je;
    r.json = json_loadb(res.body ? res.body : "", res.body_len, 0, &je);
    pips_http_response_free(&res);
    return r;
}

static long long create(pips_server *s, const char *body, char tokens[2][64], int want)
{
    reply r = call(s, "POST", "/api/games", body);
    if (r.status != want)
        fail_msg("create %s: %d %s", body, r.status,
                 json_string_value(json_object_get(r.json, "error")));
    long long id = json_integer_value(json_object_get(r.json, "id"));
    json_t *t = json_object_get(r.json, "tokens");
    for (size_t i = 0; tokens && i < 2; i++) {
        const char *v = json_string_value(json_array_get(t, i));
        snprintf(tokens[i], 64, "%s", v ? v : "");
    }
    json_decref(r.json);
    return id;
}

static reply move(pips_server *s, long long id, const char *mv, const char *token)
{
    char path[64], body[256];
    snprintf(path, sizeof path, "/api/games/%lld/moves", id);
    snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\"}", mv, token);
    return call(s, "POST", path, body);
}

static void put_file(const char *dir, const char *name, const char *text)
{
    char path[300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static const char *const BROKEN_GAME =
    "local g = {name = 'broken', title = 'Broken', players = {2, 2}}\n"
    "function g.start(o) return {n = 0} end\n"
    "function g.to_move(s) return s.n % 2 end\n"
    "function g.moves(s) return {'a', 'b'} end\n"
    "function g.play(s, m)\n"
    "  if s.n == 1 then error('the second move breaks') end\n"
    "  return {n = s.n + 1}\n"
    "end\n"
    "function g.result(s) if s.n >= 6 then return {0.5, 0.5} end end\n"
    "function g.render(s) return 'n=' .. s.n end\n"
    "return g\n";

static void test_rules_dir(void **unused)
{
    (void)unused;
    char dir[] = "/tmp/pips_rules_dir_XXXXXX";
    assert_non_null(mkdtemp(dir));
    FILE *src = fopen(PIPS_SOURCE_DIR "/examples/rules/tictacdoh-small-first.lua", "r");
    char text[4096];
    size_t n = fread(text, 1, sizeof text - 1, src);
    text[n] = '\0';
    fclose(src);
    put_file(dir, "small-first.lua", text);
    put_file(dir, "broken.lua", BROKEN_GAME);
    put_file(dir, "syntax.lua", "function legal(");
    pips_server_config cfg = {0};
    cfg.db_path = ":memory:";
    cfg.rules_dir = dir;
    pips_error err;
    pips_server *s = pips_server_new(&cfg, &err);
    if (!s)
        fail_msg("%s", err.msg);

    /* the lobby's list */
    reply r = call(s, "GET", "/api/rules", NULL);
    assert_int_equal(r.status, 200);
    json_t *scripts = json_object_get(r.json, "scripts");
    assert_int_equal(json_array_size(scripts), 3); /* sorted by file name */
    assert_string_equal(json_string_value(json_object_get(json_array_get(scripts, 0), "kind")),
                        "game");
    assert_string_equal(json_string_value(json_object_get(json_array_get(scripts, 1), "kind")),
                        "rules");
    assert_non_null(strstr(json_string_value(json_object_get(json_array_get(scripts, 1),
                                                             "description")),
                           "first piece"));
    assert_string_equal(json_string_value(json_object_get(json_array_get(scripts, 2), "kind")),
                        "broken");
    json_t *games = json_object_get(r.json, "games");
    json_t *ttd = json_array_get(games, 0), *opts = json_object_get(ttd, "options");
    json_t *rules = json_array_get(opts, json_array_size(opts) - 1);
    assert_string_equal(json_string_value(json_object_get(rules, "key")), "rules");
    assert_string_equal(json_string_value(json_array_get(json_object_get(rules, "choices"), 1)),
                        "small-first.lua");
    char broken_name[300];
    snprintf(broken_name, sizeof broken_name, "%s/broken.lua", dir);
    json_t *last = json_array_get(games, json_array_size(games) - 1);
    assert_string_equal(json_string_value(json_object_get(last, "name")), broken_name);
    json_decref(r.json);

    /* a rule script by its file name; anything else is refused */
    char tok[2][64], body[600];
    long long id = create(s, "{\"game\":\"tictacdoh\",\"options\":{\"rules\":\"small-first.lua\"},"
                             "\"seats\":[\"human\",\"human\"]}", tok, 201);
    r = move(s, id, "L@0,0", tok[0]);
    assert_int_equal(r.status, 422);
    assert_non_null(strstr(json_string_value(json_object_get(r.json, "error")), "not allowed by"));
    json_decref(r.json);
    r = move(s, id, "S@0,0", tok[0]);
    assert_int_equal(r.status, 200);
    json_decref(r.json);
    create(s, "{\"game\":\"tictacdoh\",\"options\":{\"rules\":\"/etc/x.lua\"}}", NULL, 400);
    create(s, "{\"game\":\"tictacdoh\",\"options\":{\"rules\":\"syntax.lua\"}}", NULL, 400);
    create(s, "{\"game\":\"/tmp/elsewhere.lua\"}", NULL, 404);

    /* a broken Lua game beside a healthy game */
    char htok[2][64], btok[2][64];
    long long healthy = create(s, "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"human\"]}",
                               htok, 201);
    snprintf(body, sizeof body, "{\"game\":\"%s\",\"seats\":[\"human\",\"human\"]}", broken_name);
    long long broken = create(s, body, btok, 201);
    r = move(s, broken, "a", btok[0]);
    assert_int_equal(r.status, 200);
    json_decref(r.json);
    r = move(s, healthy, "L@0,0", htok[0]);
    assert_int_equal(r.status, 200);
    json_decref(r.json);
    r = move(s, broken, "b", btok[1]);
    if (r.status < 400 || r.status >= 500)
        fail_msg("status %d: %s", r.status, json_dumps(r.json, 0));
    const char *msg = json_string_value(json_object_get(r.json, "error"));
    assert_non_null(msg);
    if (!strstr(msg, "ply 2") || !strstr(msg, "broken.lua:6: in function 'play'") ||
        !strstr(msg, "the second move breaks"))
        fail_msg("message: %s", msg);
    json_decref(r.json);
    /* nothing else is touched: the healthy game plays on, the broken one
     * keeps its first move and still answers */
    r = move(s, healthy, "M@1,0", htok[1]);
    assert_int_equal(r.status, 200);
    json_decref(r.json);
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld", broken);
    r = call(s, "GET", path, NULL);
    assert_int_equal(r.status, 200);
    assert_int_equal(json_integer_value(json_object_get(r.json, "n_moves")), 1);
    assert_non_null(strstr(json_string_value(json_object_get(r.json, "render")), "n=1"));
    json_decref(r.json);
    pips_server_free(s);
    char cmd[100];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_rules_dir)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
