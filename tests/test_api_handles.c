/*
 * test_api_handles.c — the public API given NULL handles, states of another
 * game and bad requests (issue #28): every call answers with an error code
 * and a message, never a crash (this test runs under ASan and UBSan too),
 * and a refused call leaves its state as it was. Also pips/ffi.h, the
 * calls other languages make, against the plain C calls they wrap.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pips/agent.h"
#include "pips/ffi.h"
#include "pips/ladder.h"
#include "pips/match.h"
#include "pips/view.h"

static void assert_refused(bool ok, const pips_error *err, pips_status code, const char *part)
{
    assert_false(ok);
    assert_int_equal(err->code, code);
    if (!strstr(err->msg, part))
        fail_msg("message '%s' lacks '%s'", err->msg, part);
}

static void test_null_games_and_states(void **unused)
{
    (void)unused;
    pips_error err;
    assert_refused(pips_game_new(NULL, NULL, 0, NULL, &err) != NULL, &err, PIPS_ERR_ARG,
                   "no game name");
    assert_refused(pips_match_new(NULL, NULL, 0, 1, NULL, &err) != NULL, &err, PIPS_ERR_ARG,
                   "no game name");
    assert_refused(pips_state_new(NULL, &err) != NULL, &err, PIPS_ERR_ARG, "no game");
    pips_game_free(NULL);
    pips_state_free(NULL, NULL);
    pips_agent_free(NULL);

    pips_game *g = pips_game_new("tictacdoh", NULL, 0, NULL, &err);
    assert_non_null(g);
    pips_state_free(g, NULL);
    uint64_t count = 7;
    assert_refused(pips_perft_count(NULL, NULL, 2, &count, &err), &err, PIPS_ERR_ARG, "no game");
    assert_int_equal(count, 0);
    assert_refused(pips_perft_count(g, NULL, 2, &count, &err), &err, PIPS_ERR_ARG,
                   "no tictacdoh state");
    assert_int_equal(pips_perft(g, NULL, 3), 0);
    assert_refused(pips_play_text(g, NULL, "L@0,0", &err), &err, PIPS_ERR_ARG, "no tictacdoh state");
    assert_refused(pips_play_text(NULL, NULL, "L@0,0", &err), &err, PIPS_ERR_ARG, "no game");
    assert_refused(pips_check_move(g, NULL, 0, &err), &err, PIPS_ERR_ARG, "state");
    void *s = pips_state_new(g, &err);
    pips_move m;
    assert_refused(pips_parse_move(g, s, NULL, &m, &err), &err, PIPS_ERR_ARG, "no move text");
    assert_refused(pips_state_view(g, NULL, &err) != NULL, &err, PIPS_ERR_ARG,
                   "no tictacdoh state");
    assert_refused(pips_state_json(NULL, s, &err) != NULL, &err, PIPS_ERR_ARG, "no game");
    pips_solve_result res;
    assert_refused(pips_solve_position(NULL, s, NULL, &res, &err), &err, PIPS_ERR_ARG, "no game");
    assert_refused(pips_solve_position(g, NULL, NULL, &res, &err), &err, PIPS_ERR_ARG,
                   "no tictacdoh state");
    assert_refused(pips_solve_moves(g, NULL, NULL, &res, &err), &err, PIPS_ERR_ARG,
                   "no tictacdoh state");
    assert_refused(pips_solve_from(g, NULL, true, NULL, &res, &err), &err, PIPS_ERR_ARG,
                   "no tictacdoh state");
    assert_refused(pips_solver_new(NULL, NULL, true, &err) != NULL, &err, PIPS_ERR_ARG, "no game");
    assert_refused(pips_solver_moves(NULL, s, NULL, NULL, &res, &err), &err, PIPS_ERR_ARG,
                   "no solver");
    assert_refused(pips_playtest_run(NULL, &err) != NULL, &err, PIPS_ERR_ARG, "no options");
    assert_refused(pips_ladder_run(NULL, &err) != NULL, &err, PIPS_ERR_ARG, "no options");
    assert_refused(pips_match_from_game(NULL, 1, &err) != NULL, &err, PIPS_ERR_ARG, "no game");
    assert_refused(pips_match_play(NULL, 0, &err), &err, PIPS_ERR_ARG, "no match");
    assert_refused(pips_match_play_text(NULL, "L@0,0", &err), &err, PIPS_ERR_ARG, "no match");
    assert_refused(pips_match_undo(NULL, &err), &err, PIPS_ERR_ARG, "no match");
    assert_refused(pips_match_draw(NULL, &m, &err), &err, PIPS_ERR_ARG, "no match");
    assert_refused(pips_match_set_seats(NULL, NULL, 2, &err), &err, PIPS_ERR_ARG, "no match");
    assert_refused(pips_match_to_record(NULL, &err) != NULL, &err, PIPS_ERR_ARG, "no match");
    assert_refused(pips_match_from_record(NULL, NULL, &err) != NULL, &err, PIPS_ERR_ARG,
                   "no record text");
    assert_refused(pips_match_load(NULL, NULL, &err) != NULL, &err, PIPS_ERR_ARG, "no record path");
    assert_true(pips_match_over(NULL));
    pips_match_free(NULL);
    /* a NULL error pointer is fine too */
    assert_null(pips_state_new(NULL, NULL));
    assert_false(pips_play_text(g, NULL, "L@0,0", NULL));
    pips_state_free(g, s);
    pips_game_free(g);
}

static void test_null_agents(void **unused)
{
    (void)unused;
    pips_error err;
    assert_refused(pips_agent_new(NULL, "random", 1, &err) != NULL, &err, PIPS_ERR_ARG, "no game");
    pips_game *g = pips_game_new("nimitz", NULL, 0, NULL, &err);
    void *s = pips_state_new(g, &err);
    assert_refused(pips_agent_new(g, NULL, 1, &err) != NULL, &err, PIPS_ERR_ARG, "empty spec");
    pips_move m;
    assert_refused(pips_agent_choose(NULL, s, &m, &err), &err, PIPS_ERR_ARG, "no agent");
    pips_agent *a = pips_agent_new(g, "random", 1, &err);
    assert_non_null(a);
    assert_refused(pips_agent_choose(a, NULL, &m, &err), &err, PIPS_ERR_ARG, "no nimitz state");
    pips_move_eval ev[4];
    assert_int_equal(pips_agent_analyze(NULL, s, ev, 4, &err), 0);
    assert_refused(false, &err, PIPS_ERR_ARG, "no agent");
    assert_int_equal(pips_agent_analyze(a, NULL, ev, 4, &err), 0);
    assert_refused(false, &err, PIPS_ERR_ARG, "no nimitz state");
    assert_int_equal(pips_agent_analyze(a, s, NULL, 4, &err), 0);
    assert_refused(false, &err, PIPS_ERR_ARG, "nowhere");
    pips_agent_observe(NULL, s, 0); /* nothing to tell: ignored */
    pips_agent_observe(a, NULL, 0);
    assert_refused(pips_agent_choose(a, s, NULL, &err), &err, PIPS_ERR_ARG, "nowhere");
    assert_true(pips_agent_choose(a, s, &m, &err));
    pips_agent_free(a);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* pips_state_new gives the start position, and pips_state_check tells a
 * state of another game (or other options) from one of this game. */
static void test_states_know_their_game(void **unused)
{
    (void)unused;
    pips_error err;
    const char *three[] = {"players=3"};
    pips_game *ttd = pips_game_new("tictacdoh", NULL, 0, NULL, &err);
    pips_game *ttd3 = pips_game_new("tictacdoh", three, 1, NULL, &err);
    pips_game *ttd_again = pips_game_new("tictacdoh", NULL, 0, NULL, &err);
    pips_game *nim = pips_game_new("nimitz", NULL, 0, NULL, &err);
    void *s = pips_state_new(ttd, &err), *n = pips_state_new(nim, &err);
    void *start = pips_state_new(ttd, &err);
    ttd->def->initial(ttd, start);
    assert_memory_equal(s, start, ttd->def->state_size);
    assert_int_equal(pips_perft(ttd, s, 3), 2666);

    assert_true(pips_state_check(ttd, s, &err));
    assert_true(pips_state_check(ttd_again, s, &err)); /* same game, same options */
    assert_refused(pips_state_check(ttd, n, &err), &err, PIPS_ERR_ARG,
                   "a state of nimitz given to tictacdoh");
    assert_refused(pips_state_check(nim, s, &err), &err, PIPS_ERR_ARG,
                   "a state of tictacdoh given to nimitz");
    assert_refused(pips_state_check(ttd3, s, &err), &err, PIPS_ERR_ARG, "other options");
    assert_refused(pips_state_check(ttd, NULL, &err), &err, PIPS_ERR_ARG, "no tictacdoh state");
    assert_refused(pips_state_check(NULL, s, &err), &err, PIPS_ERR_ARG, "no game");
    pips_state_free(ttd, s);
    pips_state_free(ttd, start);
    pips_state_free(nim, n);
    pips_game_free(ttd);
    pips_game_free(ttd3);
    pips_game_free(ttd_again);
    pips_game_free(nim);

    /* a state outlives its game (a garbage collector frees in any order) */
    pips_game *g = pips_game_new("noname", NULL, 0, NULL, &err);
    void *orphan = pips_state_new(g, &err);
    const pips_game *freed = g;
    pips_game_free(g);
    pips_state_free(freed, orphan);
}

static void test_ffi_calls(void **unused)
{
    (void)unused;
    pips_error err;
    pips_str out;
    pips_str_init(&out, NULL);
    assert_string_equal(pips_game_name(NULL), "");
    assert_int_equal(pips_state_to_move(NULL, NULL), PIPS_OVER);
    assert_int_equal(pips_game_state_size(NULL), 0);
    assert_int_equal(pips_game_players(NULL, &err), 0);
    assert_int_equal(err.code, PIPS_ERR_ARG);
    assert_refused(pips_play(NULL, NULL, 0, &err), &err, PIPS_ERR_ARG, "no game");
    assert_refused(pips_state_text(NULL, NULL, &out, &err), &err, PIPS_ERR_ARG, "no game");
    assert_refused(pips_games_json(NULL, &err), &err, PIPS_ERR_ARG, "nowhere");
    assert_true(pips_games_json(&out, &err));
    assert_non_null(strstr(pips_str_cstr(&out), "\"name\":\"nimitz\""));
    pips_str_clear(&out);

    pips_game *g = pips_game_new("tictacdoh", NULL, 0, NULL, &err);
    void *s = pips_state_new(g, &err);
    assert_string_equal(pips_game_name(g), "tictacdoh");
    assert_int_equal(pips_game_players(g, &err), 2);
    assert_int_equal(pips_state_to_move(g, s), 0);
    pips_move m;
    assert_true(pips_parse_move(g, s, "L@0,0", &m, &err));
    char text[PIPS_MOVE_TEXT_MAX];
    assert_true(pips_move_text(g, s, m, text, &err));
    assert_string_equal(text, "L@0,0");
    assert_true(pips_play(g, s, m, &err));
    unsigned char before[4096];
    memcpy(before, s, g->def->state_size);
    assert_refused(pips_play(g, s, m, &err), &err, PIPS_ERR_ILLEGAL, "sizes must differ");
    assert_refused(pips_move_text(g, s, m, text, &err), &err, PIPS_ERR_ILLEGAL, "TTD-R3");
    double ret[PIPS_MAX_PLAYERS];
    assert_refused(pips_state_returns(g, s, ret, &err), &err, PIPS_ERR_ILLEGAL, "not over");
    assert_refused(pips_state_set_text(g, s, "9,9:Q", &err), &err, PIPS_ERR_ARG, "");
    assert_memory_equal(before, s, g->def->state_size);
    assert_true(pips_state_text(g, s, &out, &err));
    assert_string_equal(pips_str_cstr(&out), "0,0:L");
    pips_str_clear(&out);
    assert_true(pips_state_view_json(g, s, &out, &err));
    assert_non_null(strstr(pips_str_cstr(&out), "\"state\":\"0,0:L\""));
    pips_str_clear(&out);
    assert_true(pips_game_options_json(g, &out, &err));
    assert_string_equal(pips_str_cstr(&out), "{\"players\":\"2\",\"stashes\":\"1\"}");
    pips_str_clear(&out);
    assert_refused(pips_solve_json(g, s, "{\"threads\": 0}", &out, &err), &err, PIPS_ERR_ARG,
                   "'threads' must be");
    assert_refused(pips_solve_json(g, s, "{\"depth\": 3}", &out, &err), &err, PIPS_ERR_ARG,
                   "unknown member 'depth'");
    assert_refused(pips_solve_json(g, s, "[", &out, &err), &err, PIPS_ERR_ARG, "invalid JSON");
    pips_state_free(g, s);
    pips_game_free(g);

    /* solve: every move's value and the position's */
    const char *opts[] = {"board=3x3", "colors=3"};
    g = pips_game_new("nimitz", opts, 2, NULL, &err);
    s = pips_state_new(g, &err);
    assert_true(pips_state_set_text(g, s, "b2:U:rL", &err));
    assert_true(pips_solve_json(g, s, "{\"moves\": true, \"table_mb\": 64}", &out, &err));
    assert_non_null(strstr(pips_str_cstr(&out), "{\"value\":\"win\""));
    assert_non_null(strstr(pips_str_cstr(&out), "{\"move\":\"yM@c3:W\",\"id\":"));
    pips_str_clear(&out);
    pips_state_free(g, s);
    pips_game_free(g);

    /* the lab's requests */
    assert_refused(pips_playtest_request("{\"seats\": [\"random\"]}", &out, &err), &err,
                   PIPS_ERR_ARG, "'game' is needed");
    assert_refused(pips_playtest_request("{\"game\": \"tictacdoh\", \"seats\": [\"random\"], "
                                         "\"colour\": 1}", &out, &err),
                   &err, PIPS_ERR_ARG, "unknown member 'colour'");
    assert_refused(pips_playtest_request("{\"game\": \"tictacdoh\", \"seats\": \"random\", "
                                         "\"vary\": {\"players\": [2, 9]}}", &out, &err),
                   &err, PIPS_ERR_ARG, "players");
    assert_refused(pips_playtest_request("{\"game\": \"tictacdoh\", \"seats\": \"random\", "
                                         "\"seed\": -1}", &out, &err),
                   &err, PIPS_ERR_ARG, "'seed'");
    assert_true(pips_playtest_request("{\"game\": \"nimitz\", \"seats\": \"random\", \"games\": 4,"
                                      " \"vary\": {\"board\": [\"3x3\", \"4x4\"]}}", &out, &err));
    assert_non_null(strstr(pips_str_cstr(&out), "\"varied\": [\n    \"board\""));
    pips_str_clear(&out);
    assert_refused(pips_ladder_request("{\"game\": \"tictacdoh\"}", &out, &err), &err,
                   PIPS_ERR_ARG, "'agents' is needed");
    assert_true(pips_ladder_request("{\"game\": \"tictacdoh\", \"agents\": [\"random\", "
                                    "\"greedy\"], \"games\": 4}", &out, &err));
    assert_non_null(strstr(pips_str_cstr(&out), "\"spec\": \"greedy\""));
    pips_str_free(&out);
}

/* Every call of pips/ffi.h that takes a (game, state) pair refuses a state
 * that is not its game's before reading it: g is the game given, state the
 * handle (NULL, another game's, other options', not pips_state_new's) and
 * part what the message names. Under ASan a call that read a Nimitz state
 * (576 bytes) as a Noname one (40 KB) would stop the test. */
static void refused_everywhere(const pips_game *g, void *state, pips_agent *a, const char *part)
{
    pips_error err;
    pips_str out;
    pips_str_init(&out, NULL);
    pips_rng rng;
    pips_rng_seed(&rng, 1);
    pips_move moves[1024], m = 0;
    double prob[1024], ret[PIPS_MAX_PLAYERS];
    char text[PIPS_MOVE_TEXT_MAX];
    uint64_t count;
    assert_int_equal(pips_state_to_move(g, state), PIPS_OVER);
    assert_int_equal(pips_state_moves(g, state, &rng, moves, prob, &err), 0);
    assert_refused(false, &err, PIPS_ERR_ARG, part);
    assert_refused(pips_move_parse(g, state, "L@0,0", &m, &err), &err, PIPS_ERR_ARG, part);
    assert_refused(pips_play(g, state, 0, &err), &err, PIPS_ERR_ARG, part);
    assert_refused(pips_state_returns(g, state, ret, &err), &err, PIPS_ERR_ARG, part);
    assert_refused(pips_move_text(g, state, 0, text, &err), &err, PIPS_ERR_ARG, part);
    assert_refused(pips_state_text(g, state, &out, &err), &err, PIPS_ERR_ARG, part);
    assert_refused(pips_state_set_text(g, state, "", &err), &err, PIPS_ERR_ARG, part);
    assert_refused(pips_state_render(g, state, true, &out, &err), &err, PIPS_ERR_ARG, part);
    assert_refused(pips_state_view_json(g, state, &out, &err), &err, PIPS_ERR_ARG, part);
    assert_refused(pips_state_perft(g, state, 2, &count, &err), &err, PIPS_ERR_ARG, part);
    assert_refused(pips_solve_json(g, state, NULL, &out, &err), &err, PIPS_ERR_ARG, part);
    assert_refused(pips_state_check(g, state, &err), &err, PIPS_ERR_ARG, part);
    /* the agent, solver and view calls of the C API check their state too */
    pips_value values[1024];
    pips_solve_result res;
    pips_solve_opts so = {.threads = 1, .max_nodes = 1000, .moves = moves, .move_values = values};
    assert_refused(pips_solve_position(g, state, &so, &res, &err), &err, PIPS_ERR_ARG, part);
    assert_refused(pips_solve_moves(g, state, &so, &res, &err), &err, PIPS_ERR_ARG, part);
    assert_refused(pips_solve_from(g, state, true, &so, &res, &err), &err, PIPS_ERR_ARG, part);
    assert_refused(pips_state_view(g, state, &err) != NULL, &err, PIPS_ERR_ARG, part);
    assert_refused(pips_state_object(g, state, &err) != NULL, &err, PIPS_ERR_ARG, part);
    assert_refused(pips_state_json(g, state, &err) != NULL, &err, PIPS_ERR_ARG, part);
    if (g) {
        pips_solver *ps = pips_solver_new(g, &so, true, &err);
        if (ps) /* a game the generic solver refuses at once has no solver to ask */
            assert_refused(pips_solver_moves(ps, state, moves, values, &res, &err), &err,
                           PIPS_ERR_ARG, part);
        pips_solver_free(ps);
    }
    if (a) {
        assert_refused(pips_agent_move(a, state, &m, &err), &err, PIPS_ERR_ARG, part);
        assert_refused(pips_agent_choose(a, state, &m, &err), &err, PIPS_ERR_ARG, part);
        pips_move_eval ev[8];
        assert_int_equal(pips_agent_analyze(a, state, ev, 8, &err), 0);
        assert_refused(false, &err, PIPS_ERR_ARG, part);
        pips_agent_observe(a, state, 0); /* ignored: its tree is not touched */
        assert_refused(pips_agent_observe_move(a, state, 0, &err), &err, PIPS_ERR_ARG, part);
    }
    assert_int_equal(out.len, 0); /* nothing was written */
    pips_str_free(&out);
}

static void test_ffi_refuses_foreign_states(void **unused)
{
    (void)unused;
    pips_error err;
    const char *big[] = {"players=4"};
    pips_game *noname = pips_game_new("noname", NULL, 0, NULL, &err);
    pips_game *noname4 = pips_game_new("noname", big, 1, NULL, &err);
    pips_game *nimitz = pips_game_new("nimitz", NULL, 0, NULL, &err);
    /* MCTS reuses its tree after observe: a foreign state there would be read */
    pips_agent *a = pips_agent_new(noname, "mcts:iters=50", 1, &err);
    assert_non_null(a);
    void *own = pips_state_new(noname, &err);
    void *other_game = pips_state_new(nimitz, &err);
    void *other_options = pips_state_new(noname4, &err);
    size_t nim_size = pips_game_state_size(nimitz), nn_size = pips_game_state_size(noname);
    assert_true(nim_size < nn_size); /* a read as a Noname state would overrun it */
    unsigned char *nim_before = malloc(nim_size), *nn4_before = malloc(nn_size);
    memcpy(nim_before, other_game, nim_size);
    memcpy(nn4_before, other_options, nn_size);
    /* zeroed bytes where a tag would be: a buffer not from pips_state_new */
    unsigned char *block = calloc(1, 256 + nn_size);
    void *untagged = block + 256;

    refused_everywhere(NULL, own, NULL, "no game");
    refused_everywhere(noname, NULL, a, "no noname state");
    refused_everywhere(noname, other_game, a, "a state of nimitz given to noname");
    refused_everywhere(noname, other_options, a, "other options");
    refused_everywhere(noname, untagged, a, "not a state from pips_state_new");
    assert_memory_equal(nim_before, other_game, nim_size); /* untouched */
    assert_memory_equal(nn4_before, other_options, nn_size);
    pips_move m;
    assert_refused(pips_agent_move(NULL, own, &m, &err), &err, PIPS_ERR_ARG, "no agent");
    assert_refused(pips_agent_observe_move(NULL, own, 0, &err), &err, PIPS_ERR_ARG, "no agent");
    pips_rng rng;
    pips_move moves[256];
    assert_int_equal(pips_state_moves(noname, own, NULL, moves, NULL, &err), 0);
    assert_refused(false, &err, PIPS_ERR_ARG, "needs an rng");

    /* the same handles pass once they match */
    pips_rng_seed(&rng, 1);
    size_t n = pips_state_moves(noname, own, &rng, moves, NULL, &err);
    assert_true(n > 0);
    assert_int_equal(err.code, PIPS_OK);
    assert_true(pips_agent_move(a, own, &m, &err));
    assert_true(pips_agent_choose(a, own, &m, &err));
    pips_move_eval ev[8];
    assert_true(pips_agent_analyze(a, own, ev, 8, &err) > 0);
    pips_agent_observe(a, own, m);
    assert_true(pips_agent_observe_move(a, own, m, &err));
    char *json = pips_state_json(noname, own, &err);
    assert_non_null(json);
    assert_non_null(strstr(json, "\"game\":\"noname\""));
    free(json);
    json_t *view = pips_state_view(noname, own, &err);
    assert_non_null(view);
    json_decref(view);
    pips_solve_result res;
    pips_solve_opts so = {.threads = 1, .max_nodes = 1000};
    if (!pips_solve_position(noname, own, &so, &res, &err)) /* past the check: a budget */
        assert_int_not_equal(err.code, PIPS_ERR_ARG);
    assert_true(pips_play(noname, own, m, &err));
    assert_int_equal(pips_state_to_move(noname, own), 1);
    assert_int_equal(pips_state_to_move(noname4, other_options), 0);

    free(block);
    free(nim_before);
    free(nn4_before);
    pips_agent_free(a);
    pips_state_free(noname, own);
    pips_state_free(nimitz, other_game);
    pips_state_free(noname4, other_options);
    pips_game_free(noname);
    pips_game_free(noname4);
    pips_game_free(nimitz);
}

/* The text of a Nimitz position's canonical form, read from text. */
static char *canonical_text(const pips_game *g, const char *text)
{
    pips_error err = {0};
    pips_str out;
    pips_str_init(&out, NULL);
    void *s = pips_state_new(g, &err);
    assert_true(pips_state_set_text(g, s, text, &err));
    assert_true(pips_state_canonical(g, s, s, &err)); /* in place */
    assert_true(pips_state_text(g, s, &out, &err));
    char *copy = strdup(pips_str_cstr(&out));
    pips_str_free(&out);
    pips_state_free(g, s);
    return copy;
}

/* pips_state_canonical: positions the rulings make equivalent (rules/nimitz.md
 * "Symmetries": the board's rotations and reflections, colours and
 * orientations renamed) share one form, others do not; a game without
 * symmetries, and a missing or foreign out, are refused with out untouched. */
static void test_ffi_canonical(void **unused)
{
    (void)unused;
    pips_error err = {0};
    pips_game *nim = pips_game_new("nimitz", NULL, 0, NULL, &err);
    const char *same[][2] = {
        {"b2:U:rL", "b2:N:oL"},                 /* colour and orientation renamed */
        {"a1:N:rL c1:E:oM", "c3:W:yL a3:U:gM"}, /* rotated a half turn, renamed */
        {"a1:N:rL b1:E:oS", "a1:S:gL a2:W:bS"}, /* reflected in a diagonal, renamed */
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        char *x = canonical_text(nim, same[i][0]), *y = canonical_text(nim, same[i][1]);
        if (strcmp(x, y) != 0)
            fail_msg("'%s' and '%s' have forms '%s' and '%s'", same[i][0], same[i][1], x, y);
        free(x);
        free(y);
    }
    const char *differ[][2] = {
        {"a1:N:rL", "b2:N:rL"},                 /* a corner is no centre */
        {"a1:N:rL", "a1:N:rM"},                 /* sizes are not renamed */
        {"a1:N:rL c1:N:oS", "a1:N:rL c1:E:oS"}, /* equal orientations stay equal */
    };
    for (size_t i = 0; i < sizeof differ / sizeof differ[0]; i++) {
        char *x = canonical_text(nim, differ[i][0]), *y = canonical_text(nim, differ[i][1]);
        if (strcmp(x, y) == 0)
            fail_msg("'%s' and '%s' share the form '%s'", differ[i][0], differ[i][1], x);
        free(x);
        free(y);
    }
    void *s = pips_state_new(nim, &err);
    assert_refused(pips_state_canonical(nim, s, NULL, &err), &err, PIPS_ERR_ARG, "");
    pips_game *zig = pips_game_new("ziggurat", NULL, 0, NULL, &err);
    void *z = pips_state_new(zig, &err), *z_out = pips_state_new(zig, &err);
    size_t size = pips_game_state_size(zig);
    unsigned char *before = malloc(size);
    memcpy(before, z_out, size);
    assert_refused(pips_state_canonical(zig, z, z_out, &err), &err, PIPS_ERR_ARG,
                   "ziggurat has no canonical form");
    assert_memory_equal(before, z_out, size);
    assert_refused(pips_state_canonical(nim, s, z_out, &err), &err, PIPS_ERR_ARG, "");
    assert_memory_equal(before, z_out, size);
    free(before);
    pips_state_free(zig, z);
    pips_state_free(zig, z_out);
    pips_game_free(zig);
    pips_state_free(nim, s);
    pips_game_free(nim);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_null_games_and_states),
        cmocka_unit_test(test_null_agents),
        cmocka_unit_test(test_states_know_their_game),
        cmocka_unit_test(test_ffi_calls),
        cmocka_unit_test(test_ffi_refuses_foreign_states),
        cmocka_unit_test(test_ffi_canonical),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
