/*
 * test_nimitz_eval.c — Nimitz's evaluation hook (nimitz_eval.c): values are
 * shares in [0, 1] summing to 1 and a pure function of the position; every
 * exact (0 or 1) value the hook gives in a two-player endgame agrees with the
 * generic exact solver, under normal play and misère (NIM-R5); and greedy,
 * which sees the game only through the hook, beats random.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "pips/agent.h"
#include "core/unchecked.h"

static pips_game *nimitz(const char *const *kv, size_t n)
{
    pips_error err;
    pips_game *g = pips_game_new("nimitz", kv, n, NULL, &err);
    if (!g)
        fail_msg("%s", err.msg);
    assert_non_null(g->def->evaluate);
    return g;
}

/* Plays random moves from the start until at most `left` moves remain for
 * the mover or the game is nearly over; false when it ended first. */
static bool random_position(const pips_game *g, void *s, uint64_t seed, size_t max_moves)
{
    pips_rng rng;
    pips_rng_seed(&rng, seed);
    g->def->initial(g, s);
    pips_move moves[4096];
    for (;;) {
        if (pips_to_move(g, s) < 0)
            return false;
        size_t n = g->def->legal_moves(g, s, moves);
        if (n <= max_moves)
            return true;
        g->def->apply(g, s, moves[pips_rng_below(&rng, n)]);
    }
}

static void check_exact_values(const char *const *kv, size_t nkv)
{
    pips_game *g = nimitz(kv, nkv);
    pips_error err;
    void *s = pips_state_new(g, &err);
    int exact = 0;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        if (!random_position(g, s, seed, 24))
            continue;
        double v[PIPS_MAX_PLAYERS], w[PIPS_MAX_PLAYERS];
        g->def->evaluate(g, s, v);
        g->def->evaluate(g, s, w);
        assert_true(v[0] == w[0] && v[1] == w[1]);
        assert_true(v[0] >= 0 && v[0] <= 1 && fabs(v[0] + v[1] - 1) < 1e-12);
        int mover = pips_to_move(g, s);
        if (v[mover] != 0 && v[mover] != 1)
            continue;
        pips_solve_result res;
        assert_true(solve_from_unchecked(g, s, false, NULL, &res, &err));
        assert_int_equal(res.value, v[mover] == 1 ? PIPS_WIN : PIPS_LOSS);
        exact++;
    }
    assert_true(exact >= 10);
    pips_state_free(g, s);
    pips_game_free(g);
}

static void test_exact_endgames_normal(void **st)
{
    (void)st;
    check_exact_values(NULL, 0);
}

static void test_exact_endgames_misere(void **st)
{
    (void)st;
    const char *kv[] = {"misere=true"};
    check_exact_values(kv, 1);
}

/* Three seats: shares of the playouts, summing to 1, none certain. */
static void test_three_seats_shares(void **st)
{
    (void)st;
    const char *kv[] = {"players=3"};
    pips_game *g = nimitz(kv, 1);
    pips_error err;
    void *s = pips_state_new(g, &err);
    g->def->initial(g, s);
    double v[PIPS_MAX_PLAYERS];
    g->def->evaluate(g, s, v);
    assert_true(fabs(v[0] + v[1] + v[2] - 1) < 1e-12);
    for (int p = 0; p < 3; p++)
        assert_true(v[p] > 0 && v[p] < 1);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* Greedy against random on the coaster, seats alternating: before the hook
 * greedy won about 56%; with it, all but a few games. */
static void test_greedy_beats_random(void **st)
{
    (void)st;
    pips_game *g = nimitz(NULL, 0);
    pips_error err;
    void *s = pips_state_new(g, &err);
    int greedy_wins = 0, games = 20;
    for (int i = 0; i < games; i++) {
        pips_agent *a[2];
        int gs = i % 2;
        a[gs] = pips_agent_new(g, "greedy", (uint64_t)i, &err);
        a[1 - gs] = pips_agent_new(g, "random", (uint64_t)i + 100, &err);
        g->def->initial(g, s);
        int who;
        while ((who = pips_to_move(g, s)) >= 0) {
            pips_move m;
            assert_true(agent_choose_unchecked(a[who], s, &m, &err));
            g->def->apply(g, s, m);
        }
        double r[2];
        g->def->returns(g, s, r);
        greedy_wins += r[gs] == 1;
        pips_agent_free(a[0]);
        pips_agent_free(a[1]);
    }
    assert_true(greedy_wins >= 16);
    pips_state_free(g, s);
    pips_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_endgames_normal),
        cmocka_unit_test(test_exact_endgames_misere),
        cmocka_unit_test(test_three_seats_shares),
        cmocka_unit_test(test_greedy_beats_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
