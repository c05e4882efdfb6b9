/*
 * test_lua.c — rule scripts and games written in Lua (src/lua/, docs/lua.md):
 * every sandbox escape (io, os, require, load, loadfile, dofile, string.dump,
 * collectgarbage, binary chunks, an endless loop, a memory bomb), an error in
 * each hook named with its file, line and function, every hook of a rule
 * script (legal, result, description) and of a Lua game, the IceFrogs example
 * on hand-checked positions, the Lua Tic Tac Doh! against the C engine's
 * perft (TTD-R1..R10), records carrying the script and replaying from it, and
 * Lua states used from two threads at once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pthread.h>

#include <cmocka.h>

#include "pips/match.h"
#include "pips/table.h"
#include "pips/view.h"
#include "core/unchecked.h"

#define EXAMPLES PIPS_SOURCE_DIR "/examples"
#define NO_JUMP EXAMPLES "/rules/icefrogs-no-jump-on-entry.lua"
#define TTD_LUA EXAMPLES "/games/tictacdoh.lua"

/* Writes text to a fresh .lua file; path receives its name. */
static void write_script(const char *text, char *path)
{
    char base[] = "/tmp/pips_test_lua_XXXXXX"; /* sized to the template: path (64) holds it + ".lua" */
    int fd = mkstemp(base);
    assert_true(fd >= 0);
    size_t n = strlen(text);
    assert_int_equal(write(fd, text, n), (ssize_t)n);
    close(fd);
    snprintf(path, 64, "%s.lua", base);
    assert_int_equal(rename(base, path), 0);
}

static pips_game *variant(const char *game, const char *path, const char *extra,
                          pips_error *err)
{
    char opt[300];
    snprintf(opt, sizeof opt, "rules=%s", path);
    const char *kv[2] = {opt, extra};
    return pips_game_new(game, kv, extra ? 2 : 1, NULL, err);
}

/* A rule script's failure while it runs: perft from the start trips it. */
static void expect_run_failure(const char *script, const char *extra, pips_status code,
                               const char *want)
{
    char path[64];
    write_script(script, path);
    pips_error err = {0};
    pips_game *g = variant("tictacdoh", path, extra, &err);
    if (!g)
        fail_msg("%s", err.msg);
    void *s = pips_state_new(g, &err);
    g->def->initial(g, s);
    pips_perft(g, s, 2);
    assert_true(pips_game_failed(g, &err));
    if (!strstr(err.msg, want))
        fail_msg("'%s' lacks '%s'", err.msg, want);
    assert_int_equal(err.code, code);
    assert_non_null(strstr(err.msg, path));
    /* every position reads as over until the failure is cleared */
    assert_int_equal(pips_to_move(g, s), PIPS_OVER);
    pips_game_clear_failure(g);
    assert_false(pips_game_failed(g, NULL));
    pips_state_free(g, s);
    pips_game_free(g);
    unlink(path);
}

/* A script that fails as it loads: the game is not made. */
static void expect_load_failure(const char *script, const char *want)
{
    char path[64];
    write_script(script, path);
    pips_error err = {0};
    pips_game *g = variant("tictacdoh", path, NULL, &err);
    assert_null(g);
    if (!strstr(err.msg, want))
        fail_msg("'%s' lacks '%s'", err.msg, want);
    unlink(path);
}

static void test_sandbox_escapes(void **unused)
{
    (void)unused;
    expect_load_failure("local f = io.open('/etc/passwd')\nfunction legal() return true end",
                        "global 'io'");
    expect_load_failure("os.execute('true')\nfunction legal() return true end", "global 'os'");
    expect_load_failure("require('os')\nfunction legal() return true end", "global 'require'");
    expect_load_failure("load('return 1')\nfunction legal() return true end", "global 'load'");
    expect_load_failure("loadfile('/etc/passwd')\nfunction legal() return true end",
                        "global 'loadfile'");
    expect_load_failure("dofile('/etc/passwd')\nfunction legal() return true end",
                        "global 'dofile'");
    expect_load_failure("collectgarbage()\nfunction legal() return true end",
                        "global 'collectgarbage'");
    expect_load_failure("string.dump(function() end)\nfunction legal() return true end",
                        "field 'dump'");
    expect_load_failure("(''):dump()\nfunction legal() return true end", "method 'dump'");
    expect_load_failure("math.random()\nfunction legal() return true end", "field 'random'");
    expect_load_failure("print('x')\nfunction legal() return true end", "global 'print'");
    /* a precompiled chunk is refused, text only */
    expect_load_failure("\x1bLua\x54\x00 binary", "binary");
    /* an endless loop meets the step limit; a memory bomb the memory cap */
    expect_run_failure("function legal(s, m) while true do end end", "lua_steps=100000",
                       PIPS_ERR_SCRIPT, "instruction limit");
    expect_run_failure("function legal(s, m) local t = {} for i = 1, 1e9 do t[i] = "
                       "string.rep('x', 100) .. i end end",
                       "lua_mb=4", PIPS_ERR_SCRIPT, "memory limit of 4 MiB");
    expect_run_failure("function legal(s, m) return ('x'):rep(1e9) end", "lua_mb=4",
                       PIPS_ERR_SCRIPT, "memory limit");
}

static void test_rule_hook_errors(void **unused)
{
    (void)unused;
    /* file, line and function: the helper and the hook that called it */
    expect_run_failure("local function helper(m)\n  error('boom in ' .. m)\nend\n"
                       "function legal(s, m)\n  local ok = helper(m)\n  return ok\nend",
                       NULL, PIPS_ERR_SCRIPT, ":2: in function 'helper' (called from legal): boom");
    expect_run_failure("function result(s)\n  return s.nothing.here\nend", NULL, PIPS_ERR_SCRIPT,
                       ":2: in function 'result'");
    expect_run_failure("function legal(s, m) return 1 end", NULL, PIPS_ERR_SCRIPT,
                       "legal must return a boolean, got a number");
    expect_run_failure("function result(s) return {2, 0} end", NULL, PIPS_ERR_SCRIPT,
                       "must be a number in 0..1");
    expect_run_failure("function result(s) return 'won' end", NULL, PIPS_ERR_SCRIPT,
                       "result must return nil or a sequence");
    /* every move removed and result() says nothing: the position is named */
    expect_run_failure("function legal(s, m) return false end", NULL, PIPS_ERR_SCRIPT,
                       "legal removed every move of position '-'");
    expect_load_failure("x = 1", "defines neither legal nor result");
    expect_load_failure("legal = 3", "'legal' must be a function");
    expect_load_failure("function legal(", "expected");
}

static bool has_move(const pips_game *g, const void *s, const char *text)
{
    pips_move m;
    return pips_parse_move(g, s, text, &m, NULL);
}

/* ICF-R3, ICF-R5 under the example: entering frogs step, others still jump. */
static void test_icefrogs_no_jump_on_entry(void **unused)
{
    (void)unused;
    pips_error err;
    pips_game *plain = pips_game_new("icefrogs", NULL, 0, NULL, &err);
    pips_game *g = variant("icefrogs", NO_JUMP, NULL, &err);
    if (!g)
        fail_msg("%s", err.msg);
    assert_non_null(pips_game_script(g)->description);
    void *s = pips_state_new(g, &err);
    /* start: every entry is a step to b1 or b2, so nothing changes */
    g->def->initial(g, s);
    assert_int_equal(pips_perft(g, s, 1), 6);
    /* P1 has a small on b1: a medium entering at a1 may jump it to c3 */
    assert_true(g->def->state_from_text(g, "b1:1S ply=2 passes=0", s, &err));
    assert_true(has_move(plain, s, "M+c3"));
    assert_false(has_move(g, s, "M+c3"));
    pips_move m;
    assert_true(g->def->move_from_text(g, s, "M+c3", &m, &err));
    assert_false(pips_check_move(g, s, m, &err));
    assert_non_null(strstr(err.msg, "not allowed by"));
    assert_true(has_move(g, s, "M+b2"));   /* an entering step stays */
    assert_true(has_move(g, s, "b1-c3"));  /* a frog on the board moves as before */
    size_t n_plain = pips_perft(plain, s, 1), n = pips_perft(g, s, 1);
    assert_true(n < n_plain);
    /* the playout shortcut draws every allowed move and nothing else */
    assert_non_null(g->def->random_move);
    pips_move list[512];
    size_t nl = g->def->legal_moves(g, s, list);
    assert_int_equal(nl, n);
    int seen[512] = {0};
    pips_rng rng;
    pips_rng_seed(&rng, 3);
    for (size_t k = 0; k < 40 * nl; k++) {
        pips_move drawn;
        assert_true(g->def->random_move(g, s, &rng, &drawn));
        size_t at = 0;
        while (at < nl && list[at] != drawn)
            at++;
        assert_true(at < nl);
        seen[at]++;
    }
    for (size_t k = 0; k < nl; k++)
        assert_true(seen[k] > 0);
    /* depth 3 from the start: the first entering jumps come at ply 3 */
    g->def->initial(g, s);
    assert_int_equal(pips_perft(g, s, 2), 36);
    assert_int_equal(pips_perft(g, s, 3), 288);
    assert_int_equal(pips_perft(plain, s, 3), 360);
    assert_false(pips_game_failed(g, NULL));
    pips_state_free(g, s);
    pips_game_free(g);
    pips_game_free(plain);
}

/* The other examples: the first piece small; no early win with 6 players. */
static void test_other_examples(void **unused)
{
    (void)unused;
    pips_error err;
    pips_game *g = variant("tictacdoh", EXAMPLES "/rules/tictacdoh-small-first.lua", NULL, &err);
    if (!g)
        fail_msg("%s", err.msg);
    void *s = pips_state_new(g, &err);
    g->def->initial(g, s);
    assert_int_equal(pips_perft(g, s, 1), 1);  /* S@0,0 only */
    assert_int_equal(pips_perft(g, s, 2), 25); /* its 25 replies (pips perft --divide) */
    assert_true(has_move(g, s, "S@0,0") && !has_move(g, s, "L@0,0"));
    pips_state_free(g, s);
    pips_game_free(g);

    /* ICF-R8, ICF-R11: with 6 players the plain game often ends in the first
     * two rounds (12 plies); under the script no game is won before that */
    const char *six = "players=6";
    pips_game *plain = pips_game_new("icefrogs", &six, 1, NULL, &err);
    g = variant("icefrogs", EXAMPLES "/rules/icefrogs-no-early-win.lua", six, &err);
    if (!g)
        fail_msg("%s", err.msg);
    s = pips_state_new(g, &err);
    pips_move *buf = calloc(pips_max_moves(g), sizeof *buf);
    int early_plain = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        pips_rng rng;
        pips_rng_seed(&rng, seed);
        g->def->initial(g, s);
        size_t plies = pips_random_playout(plain, s, &rng, buf, 1000);
        double r[6];
        plain->def->returns(plain, s, r);
        early_plain += plies < 12 && r[0] + r[1] + r[2] + r[3] + r[4] + r[5] > 0 && r[0] != r[1];
        pips_rng_seed(&rng, seed);
        g->def->initial(g, s);
        plies = pips_random_playout(g, s, &rng, buf, 1000);
        assert_true(plies >= 12);
    }
    assert_true(early_plain > 0);
    assert_false(pips_game_failed(g, NULL));
    free(buf);
    pips_state_free(g, s);
    pips_game_free(g);
    pips_game_free(plain);
}

/* result() ends the game; the state table is the JSON state object. */
static void test_result_and_state_object(void **unused)
{
    (void)unused;
    char path[64];
    write_script("description = 'three placements and the first player wins'\n"
                 "function result(state)\n"
                 "  assert(state.game == 'tictacdoh' and state.options.players == '2')\n"
                 "  assert(type(state.view.cells) == 'table' and state.over == false)\n"
                 "  if state.view.placed >= 3 then return {1, 0} end\n"
                 "end\n",
                 path);
    pips_error err;
    pips_game *g = variant("tictacdoh", path, NULL, &err);
    if (!g)
        fail_msg("%s", err.msg);
    assert_string_equal(pips_game_script(g)->description,
                        "three placements and the first player wins");
    void *s = pips_state_new(g, &err);
    g->def->initial(g, s);
    assert_int_equal(pips_perft(g, s, 3), 2666); /* the game goes on to ply 3 */
    assert_int_equal(pips_perft(g, s, 4), 0);    /* and ends there */
    assert_true(pips_play_text(g, s, "L@0,0", &err));
    assert_true(pips_play_text(g, s, "M@1,0", &err));
    assert_true(pips_play_text(g, s, "S@0,1", &err));
    assert_int_equal(pips_to_move(g, s), PIPS_OVER);
    double r[2];
    g->def->returns(g, s, r);
    assert_true(r[0] == 1.0 && r[1] == 0.0);
    pips_str text;
    pips_str_init(&text, NULL);
    g->def->result_text(g, s, &text);
    assert_non_null(strstr(pips_str_cstr(&text), "player 1 wins"));
    pips_str_free(&text);
    assert_false(pips_game_failed(g, NULL));
    pips_state_free(g, s);
    pips_game_free(g);
    unlink(path);
}

/* TTD-R1..R10: the Lua game counts what the C game counts. */
static void check_ttd_perft(const char *players, int depth)
{
    pips_error err;
    const char *kv[1] = {players};
    pips_game *c = pips_game_new("tictacdoh", kv, 1, NULL, &err);
    pips_game *lua = pips_game_new(TTD_LUA, kv, 1, NULL, &err);
    if (!lua)
        fail_msg("%s", err.msg);
    void *sc = pips_state_new(c, &err), *sl = pips_state_new(lua, &err);
    c->def->initial(c, sc);
    lua->def->initial(lua, sl);
    for (int d = 1; d <= depth; d++)
        assert_true(pips_perft(lua, sl, d) == pips_perft(c, sc, d));
    assert_false(pips_game_failed(lua, NULL));
    pips_state_free(c, sc);
    pips_state_free(lua, sl);
    pips_game_free(c);
    pips_game_free(lua);
}

/* A random move under a legal() script without result() is drawn from the
 * base game's random_move until legal() allows one: it is always an allowed
 * move (the filtered list holds it), every allowed move comes up about
 * equally often, and a position whose moves are all removed is still the
 * error it is with the list. */
static void test_random_move_under_script(void **unused)
{
    (void)unused;
    pips_error err = {0};
    /* IceFrogs without jumps on entry: the script reads the state for
     * entering moves only, so the reused state table must follow the position */
    pips_game *g = variant("icefrogs", NO_JUMP, NULL, &err);
    if (!g)
        fail_msg("%s", err.msg);
    assert_non_null(g->def->random_move);
    void *s = pips_state_new(g, &err);
    pips_move *list = calloc(pips_max_moves(g), sizeof *list);
    pips_rng rng;
    pips_rng_seed(&rng, 7);
    unsigned long plies = 0;
    pips_move played[400];
    for (int game = 0; game < 30; game++) {
        /* a game by random_move alone, then checked against the filtered lists */
        g->def->initial(g, s);
        int len = 0;
        while (len < 400 && pips_to_move(g, s) >= 0) {
            assert_true(g->def->random_move(g, s, &rng, &played[len]));
            g->def->apply(g, s, played[len++]);
        }
        g->def->initial(g, s);
        for (int ply = 0; ply < len; ply++, plies++) {
            size_t n = g->def->legal_moves(g, s, list), i = 0;
            while (i < n && list[i] != played[ply])
                i++;
            if (i == n) {
                char buf[PIPS_MOVE_TEXT_MAX];
                g->def->move_to_text(g, s, played[ply], buf);
                fail_msg("game %d ply %d: random_move gave %s, which the script removes", game,
                         ply, buf);
            }
            g->def->apply(g, s, played[ply]);
        }
    }
    assert_true(plies > 1000);
    assert_false(pips_game_failed(g, NULL));
    pips_state_free(g, s);
    pips_game_free(g);

    /* two of Tic Tac Doh!'s nine first moves allowed: each about half the time */
    char path[64];
    write_script("function legal(state, move) return move == 'S@0,0' or move == 'L@0,0' end\n",
                 path);
    g = variant("tictacdoh", path, NULL, &err);
    if (!g)
        fail_msg("%s", err.msg);
    s = pips_state_new(g, &err);
    g->def->initial(g, s);
    int small = 0, large = 0;
    for (int i = 0; i < 2000; i++) {
        pips_move m;
        assert_true(g->def->random_move(g, s, &rng, &m));
        char buf[PIPS_MOVE_TEXT_MAX];
        g->def->move_to_text(g, s, m, buf);
        if (!strcmp(buf, "S@0,0"))
            small++;
        else if (!strcmp(buf, "L@0,0"))
            large++;
        else
            fail_msg("random_move gave %s", buf);
    }
    assert_true(small > 900 && large > 900); /* 1000 each expected; sd 22 */
    pips_state_free(g, s);
    pips_game_free(g);
    unlink(path);

    /* every move removed, no result(): a random playout stops with the error */
    write_script("function legal(state, move) return false end\n", path);
    g = variant("tictacdoh", path, NULL, &err);
    if (!g)
        fail_msg("%s", err.msg);
    s = pips_state_new(g, &err);
    g->def->initial(g, s);
    assert_int_equal(pips_random_playout(g, s, &rng, list, 100), 0);
    assert_true(pips_game_failed(g, &err));
    assert_non_null(strstr(err.msg, "legal removed every move"));
    free(list);
    pips_state_free(g, s);
    pips_game_free(g);
    unlink(path);
}

static void test_lua_tictacdoh_perft(void **unused)
{
    (void)unused;
    check_ttd_perft("players=2", 5);
    check_ttd_perft("players=3", 5);
}

/* Every hook of a Lua game, through the interface: a game played to its
 * end, text round trips, the view, the key and the options. */
static void test_lua_game_hooks(void **unused)
{
    (void)unused;
    pips_error err;
    const char *kv[1] = {"stashes=2"};
    pips_game *g = pips_game_new(TTD_LUA, kv, 1, NULL, &err);
    if (!g)
        fail_msg("%s", err.msg);
    assert_string_equal(g->def->name, TTD_LUA); /* the file is the id */
    assert_non_null(pips_option_def_find(g->def, "players")); /* from players = {2, 4} */
    assert_int_equal(pips_num_players(g), 2);
    void *s = pips_state_new(g, &err), *t = pips_state_new(g, &err);
    pips_rng rng;
    pips_rng_seed(&rng, 7);
    pips_move *buf = calloc(pips_max_moves(g), sizeof *buf);
    g->def->initial(g, s);
    size_t plies = 0;
    while (pips_to_move(g, s) >= 0) {
        pips_str text;
        pips_str_init(&text, NULL);
        g->def->state_to_text(g, s, &text);
        assert_true(g->def->state_from_text(g, pips_str_cstr(&text), t, &err));
        assert_memory_equal(s, t, g->def->state_size); /* byte-equal */
        assert_true(g->def->hash(g, s) == g->def->hash(g, t));
        pips_str_free(&text);
        size_t n = g->def->legal_moves(g, s, buf);
        assert_true(n > 0);
        pips_move m = buf[pips_rng_below(&rng, n)];
        char mt[PIPS_MOVE_TEXT_MAX];
        g->def->move_to_text(g, s, m, mt);
        pips_move back;
        assert_true(g->def->move_from_text(g, s, mt, &back, &err));
        assert_true(back == m);
        g->def->apply(g, s, m);
        plies++;
    }
    assert_false(pips_game_failed(g, NULL));
    assert_true(plies >= 3);
    json_t *o = state_object_unchecked(g, s, &err);
    assert_non_null(o);
    json_t *view = json_object_get(o, "view");
    assert_string_equal(json_string_value(json_object_get(view, "kind")), "grid");
    assert_true(json_array_size(json_object_get(view, "cells")) > 0);
    json_decref(o);
    pips_str text;
    pips_str_init(&text, NULL);
    g->def->render(g, s, &(pips_render_opts){0}, &text);
    assert_non_null(strstr(pips_str_cstr(&text), "placed"));
    pips_str_free(&text);
    /* a malformed state text is an error that touches nothing */
    memcpy(t, s, g->def->state_size);
    assert_false(g->def->state_from_text(g, "{cells=", t, &err));
    assert_non_null(strstr(err.msg, "state text"));
    assert_memory_equal(s, t, g->def->state_size);
    assert_false(pips_game_failed(g, NULL));
    free(buf);
    pips_state_free(g, s);
    pips_state_free(g, t);
    pips_game_free(g);
}

/* A minimal Lua game, to break one hook at a time. */
static const char *const MINI =
    "local g = {name = 'mini', title = 'Mini', players = {2, 2}}\n"
    "function g.start(o) return {n = 0} end\n"
    "function g.to_move(s) return s.n % 2 end\n"
    "function g.moves(s) return {'a', 'b'} end\n"
    "function g.play(s, m) return {n = s.n + 1} end\n"
    "function g.result(s) if s.n >= 4 then return {0.5, 0.5} end end\n"
    "function g.render(s) return 'n=' .. s.n end\n";

static void expect_game_failure(const char *patch, const char *want)
{
    char text[2048], path[64];
    snprintf(text, sizeof text, "%s%s\nreturn g\n", MINI, patch);
    write_script(text, path);
    pips_error err = {0};
    pips_game *g = pips_game_new(path, NULL, 0, NULL, &err);
    if (!g)
        fail_msg("%s", err.msg);
    void *s = pips_state_new(g, &err);
    g->def->initial(g, s);
    pips_perft(g, s, 3);
    double v[2];
    if (g->def->evaluate)
        g->def->evaluate(g, s, v);
    pips_str out;
    pips_str_init(&out, NULL);
    g->def->render(g, s, &(pips_render_opts){0}, &out);
    pips_str_free(&out);
    g->def->hash(g, s);
    json_t *o = state_object_unchecked(g, s, NULL);
    json_decref(o);
    if (g->def->canonical) {
        void *c = pips_state_new(g, &err);
        g->def->canonical(g, s, c);
        assert_memory_equal(c, s, g->def->state_size); /* a failed hook: the state itself */
        pips_state_free(g, c);
    }
    assert_true(pips_game_failed(g, &err));
    if (!strstr(err.msg, want))
        fail_msg("'%s' lacks '%s'", err.msg, want);
    pips_state_free(g, s);
    pips_game_free(g);
    unlink(path);
}

static void test_lua_game_hook_errors(void **unused)
{
    (void)unused;
    expect_game_failure("function g.start(o) error('no start') end", "in function 'start'");
    expect_game_failure("function g.to_move(s) return 5 end", "to_move must return a seat");
    expect_game_failure("function g.moves(s) return {'a', 'a'} end", "lists 'a' twice");
    expect_game_failure("function g.moves(s) return {} end", "no move for seat 0");
    expect_game_failure("function g.moves(s) return {1} end", "not a string");
    expect_game_failure("function g.play(s, m) s.n = s.n + 1 return s end",
                        "play changed the state it was given");
    expect_game_failure("function g.play(s, m) return {f = function() end} end",
                        "holds a function");
    expect_game_failure("function g.result(s) error('no result') end", "in function 'result'");
    expect_game_failure("function g.render(s) return 3 end", "render must return a string");
    expect_game_failure("function g.key(s) return {} end", "key must return a string");
    expect_game_failure("function g.chance(s) error('no dice') end", "in function 'chance'");
    expect_game_failure("function g.evaluate(s) return {7} end", "evaluate must return");
    expect_game_failure("function g.view(s) return {f = function() end} end",
                        "holds a function");
    expect_game_failure("function g.canonical(s) return 3 end",
                        "canonical must return a table, got a number");
    expect_game_failure("function g.canonical(s) s.n = 1 return {n = 1} end",
                        "canonical changed the state it was given");
}

/* Overtop (examples/games/overtop.lua) read right to left is the same game,
 * so a canonical hook may fold the row's mirror image: the solver then
 * finds the same value over fewer positions, and a position and its mirror
 * have one canonical form. */
static const char *const OVERTOP_MIRROR =
    "function game.canonical(s) -- the row read backwards\n"
    "  local n, back = #s.cells, {}\n"
    "  for i = 1, n do back[i] = s.cells[n + 1 - i] end\n"
    "  if table.concat(back, '|') >= table.concat(s.cells, '|') then return s end\n"
    "  return {cells = back, hand = s.hand, turn = s.turn, passes = s.passes}\n"
    "end\n"
    "return game\n";

static void test_lua_game_canonical(void **unused)
{
    (void)unused;
    FILE *f = fopen(EXAMPLES "/games/overtop.lua", "r");
    assert_non_null(f);
    static char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char *ret = strstr(text, "\nreturn game");
    assert_non_null(ret);
    assert_true((size_t)(ret + 1 - text) + strlen(OVERTOP_MIRROR) < sizeof text);
    strcpy(ret + 1, OVERTOP_MIRROR);
    char path[64];
    write_script(text, path);
    const char *kv[1] = {"cells=3"};
    pips_error err;
    pips_game *plain = pips_game_new(EXAMPLES "/games/overtop.lua", kv, 1, NULL, &err);
    pips_game *mirror = pips_game_new(path, kv, 1, NULL, &err);
    if (!plain || !mirror)
        fail_msg("%s", err.msg);
    assert_null(plain->def->canonical);
    assert_non_null(mirror->def->canonical);
    void *s = pips_state_new(mirror, &err), *t = pips_state_new(mirror, &err);
    void *cs = pips_state_new(mirror, &err), *ct = pips_state_new(mirror, &err);
    /* the same position twice, mirrored: one canonical form, and it is one of them */
    const char *left = "{cells={\"1L\",\"\",\"2S\"},hand={{L=1,M=2,S=2},{L=2,M=2,S=1}},passes=0,turn=0}";
    const char *right = "{cells={\"2S\",\"\",\"1L\"},hand={{L=1,M=2,S=2},{L=2,M=2,S=1}},passes=0,turn=0}";
    if (!mirror->def->state_from_text(mirror, left, s, &err) ||
        !mirror->def->state_from_text(mirror, right, t, &err))
        fail_msg("%s", err.msg);
    assert_memory_not_equal(s, t, mirror->def->state_size);
    mirror->def->canonical(mirror, s, cs);
    mirror->def->canonical(mirror, t, ct);
    assert_memory_equal(cs, ct, mirror->def->state_size);
    assert_true(!memcmp(cs, s, mirror->def->state_size) || !memcmp(cs, t, mirror->def->state_size));
    /* the solve: the same value (the first player wins) over fewer positions */
    pips_solve_result with, without, base;
    mirror->def->initial(mirror, s);
    void *p = pips_state_new(plain, &err);
    plain->def->initial(plain, p);
    if (!pips_solve_from(mirror, s, true, NULL, &with, &err) ||
        !pips_solve_from(mirror, s, false, NULL, &without, &err) ||
        !pips_solve_from(plain, p, true, NULL, &base, &err))
        fail_msg("%s", err.msg);
    pips_state_free(plain, p);
    assert_int_equal(base.value, PIPS_WIN);
    assert_int_equal(with.value, PIPS_WIN);
    assert_int_equal(without.value, PIPS_WIN);
    assert_true(without.positions == base.positions);
    if (!(with.positions < base.positions * 3 / 4))
        fail_msg("canonical forms solved %llu positions, %llu without",
                 (unsigned long long)with.positions, (unsigned long long)base.positions);
    assert_false(pips_game_failed(mirror, NULL));
    pips_state_free(mirror, s);
    pips_state_free(mirror, t);
    pips_state_free(mirror, cs);
    pips_state_free(mirror, ct);
    pips_game_free(plain);
    pips_game_free(mirror);
    unlink(path);
}

/* examples/games/tictacdoh.lua's canonical hook (the grid's 8 symmetries and
 * a shift): on the first 6 random positions 6-8 placements in that are not
 * won at once, the solver gives the
 * same value with the hook and without it, and the C game (same move names)
 * agrees; a position and its mirror image share one canonical form; the hook
 * folds positions (fewer stored with it, summed over the positions). */
static void test_lua_tictacdoh_canonical(void **unused)
{
    (void)unused;
    pips_error err;
    pips_game *lua = pips_game_new(TTD_LUA, NULL, 0, NULL, &err);
    pips_game *c = pips_game_new("tictacdoh", NULL, 0, NULL, &err);
    if (!lua || !c)
        fail_msg("%s", err.msg);
    assert_non_null(lua->def->canonical);
    void *s = pips_state_new(lua, &err), *cs = pips_state_new(lua, &err);
    void *t = pips_state_new(lua, &err), *ct = pips_state_new(lua, &err);
    void *cstate = pips_state_new(c, &err);
    /* L@0,0 then M@1,0 and its mirror image M@-1,0: one class */
    lua->def->initial(lua, s);
    lua->def->initial(lua, t);
    assert_true(pips_play_text(lua, s, "L@0,0", &err) && pips_play_text(lua, s, "M@1,0", &err));
    assert_true(pips_play_text(lua, t, "L@0,0", &err) && pips_play_text(lua, t, "M@-1,0", &err));
    assert_memory_not_equal(s, t, lua->def->state_size);
    lua->def->canonical(lua, s, cs);
    lua->def->canonical(lua, t, ct);
    assert_memory_equal(cs, ct, lua->def->state_size);
    uint64_t with_sum = 0, without_sum = 0;
    int solved = 0;
    pips_move *moves = calloc(pips_max_moves(lua), sizeof *moves);
    for (uint64_t seed = 1; seed <= 200 && solved < 6; seed++) {
        pips_rng rng;
        pips_rng_seed(&rng, seed);
        lua->def->initial(lua, s);
        c->def->initial(c, cstate);
        int plies = 6 + (int)(seed % 3);
        for (int i = 0; i < plies && pips_to_move(lua, s) >= 0; i++) {
            size_t n = lua->def->legal_moves(lua, s, moves);
            char text[64];
            lua->def->move_to_text(lua, s, moves[pips_rng_below(&rng, n)], text);
            assert_true(pips_play_text(lua, s, text, &err));
            if (!pips_play_text(c, cstate, text, &err))
                fail_msg("C game refuses %s: %s", text, err.msg);
        }
        if (pips_to_move(lua, s) < 0)
            continue;
        pips_solve_result with, without, cres;
        if (!pips_solve_from(lua, s, true, NULL, &with, &err) ||
            !pips_solve_from(lua, s, false, NULL, &without, &err) ||
            !pips_solve_from(c, cstate, true, NULL, &cres, &err))
            fail_msg("seed %llu: %s", (unsigned long long)seed, err.msg);
        assert_int_equal(with.value, without.value);
        assert_int_equal(with.value, cres.value);
        if (without.positions < 2)
            continue; /* won at once: nothing for the table to fold */
        with_sum += with.positions;
        without_sum += without.positions;
        solved++;
    }
    assert_int_equal(solved, 6);
    print_message("solved %d positions: %llu stored with canonical forms, %llu without\n", solved,
                  (unsigned long long)with_sum, (unsigned long long)without_sum);
    if (!(with_sum < without_sum))
        fail_msg("canonical forms solved %llu positions, %llu without",
                 (unsigned long long)with_sum, (unsigned long long)without_sum);
    assert_false(pips_game_failed(lua, NULL));
    free(moves);
    pips_state_free(lua, s);
    pips_state_free(lua, cs);
    pips_state_free(lua, t);
    pips_state_free(lua, ct);
    pips_state_free(c, cstate);
    pips_game_free(lua);
    pips_game_free(c);
}

/* The record carries the script; replay uses that text, never the disk's. */
static void test_record_round_trip(void **unused)
{
    (void)unused;
    char path[64];
    write_script("description = 'no large piece first'\n"
                 "function legal(state, move) return move ~= 'L@0,0' end\n",
                 path);
    const char *seats[2] = {"random", "random"};
    char opt[100];
    snprintf(opt, sizeof opt, "rules=%s", path);
    const char *kv[1] = {opt};
    pips_error err;
    pips_match *m = pips_match_new("tictacdoh", kv, 1, 5, NULL, &err);
    assert_non_null(m);
    pips_table *t = pips_table_new(m, seats, 2, NULL, &err);
    assert_true(pips_table_run(t, 0, &err));
    char *rec = pips_match_to_record(pips_table_match(t), &err);
    assert_non_null(rec);
    assert_non_null(strstr(rec, "\"sha256\""));
    assert_non_null(strstr(rec, "no large piece first"));
    /* the file is gone: the record still replays, from its own copy */
    unlink(path);
    pips_match *back = pips_match_from_record(rec, NULL, &err);
    if (!back)
        fail_msg("%s", err.msg);
    assert_int_equal(back->n_moves, pips_table_match(t)->n_moves);
    assert_memory_equal(back->state, pips_table_match(t)->state, back->game->def->state_size);
    assert_string_equal(pips_game_script(back->game)->sha256,
                        pips_game_script(m->game)->sha256);
    pips_match_free(back);
    /* a changed text no longer matches its SHA-256 */
    char *bad = strdup(rec);
    char *at = strstr(bad, "no large piece first");
    at[0] = 'N';
    assert_null(pips_match_from_record(bad, NULL, &err));
    assert_non_null(strstr(err.msg, "sha256"));
    free(bad);
    free(rec);
    pips_table_free(t);

    /* a Lua game's record */
    m = pips_match_new(TTD_LUA, NULL, 0, 3, NULL, &err);
    assert_non_null(m);
    t = pips_table_new(m, seats, 2, NULL, &err);
    assert_true(pips_table_run(t, 0, &err));
    rec = pips_match_to_record(pips_table_match(t), &err);
    back = pips_match_from_record(rec, NULL, &err);
    if (!back)
        fail_msg("%s", err.msg);
    assert_int_equal(back->n_moves, pips_table_match(t)->n_moves);
    assert_true(pips_match_over(back));
    pips_match_free(back);
    free(rec);
    pips_table_free(t);
}

typedef struct perft_job {
    pips_game *g;
    uint64_t count;
} perft_job;

static void *perft_thread(void *arg)
{
    perft_job *j = arg;
    void *s = pips_state_new(j->g, NULL);
    j->g->def->initial(j->g, s);
    j->count = pips_perft(j->g, s, 4);
    pips_state_free(j->g, s);
    return NULL;
}

/* One game, two threads: each thread has its own Lua state. */
static void test_threads(void **unused)
{
    (void)unused;
    pips_error err;
    pips_game *g = pips_game_new(TTD_LUA, NULL, 0, NULL, &err);
    pips_game *v = variant("icefrogs", NO_JUMP, NULL, &err);
    perft_job jobs[4] = {{g, 0}, {g, 0}, {v, 0}, {v, 0}};
    pthread_t tid[4];
    for (int i = 0; i < 4; i++)
        assert_int_equal(pthread_create(&tid[i], NULL, perft_thread, &jobs[i]), 0);
    for (int i = 0; i < 4; i++)
        pthread_join(tid[i], NULL);
    assert_true(jobs[0].count == 82032 && jobs[1].count == 82032);
    assert_true(jobs[2].count == jobs[3].count && jobs[2].count > 0);
    assert_false(pips_game_failed(g, NULL) || pips_game_failed(v, NULL));
    pips_game_free(g);
    pips_game_free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sandbox_escapes),
        cmocka_unit_test(test_rule_hook_errors),
        cmocka_unit_test(test_icefrogs_no_jump_on_entry),
        cmocka_unit_test(test_result_and_state_object),
        cmocka_unit_test(test_other_examples),
        cmocka_unit_test(test_lua_game_hooks),
        cmocka_unit_test(test_lua_game_hook_errors),
        cmocka_unit_test(test_lua_game_canonical),
        cmocka_unit_test(test_lua_tictacdoh_canonical),
        cmocka_unit_test(test_record_round_trip),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_lua_tictacdoh_perft),
        cmocka_unit_test(test_random_move_under_script),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
