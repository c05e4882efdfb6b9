/*
 * test_ziggurat_policy.c — Ziggurat's light playout policy (playout_move,
 * used by pips_policy_playout and the agents' playouts): it only ever plays
 * legal steps (ZIG-R31's list, `end` included) on many random positions of
 * several option sets, every legal step is drawn now and then (ZIG-R22:
 * `end` too), it refuses chance nodes and finished games, and unlike uniform
 * play its games end with a win (ZIG-R23) well within the turn cap (ZIG-R24).
 */
#include "zig_helpers.h"

static int move_cmp(const void *a, const void *b)
{
    pips_move x = *(const pips_move *)a, y = *(const pips_move *)b;
    return x < y ? -1 : x > y;
}

static const char *const POLICY_SETS[][4] = {
    {NULL},
    {"queen=true", "move_die=d6", "action_die=treehouse", NULL},
    {"queen=true", "queen_height=4", NULL},
    {"players=3", NULL},
    {"players=2", "mode=two_colour", "queen=true", "queen_height=2"},
    {"mode=teams", NULL},
};

static pips_game *policy_set_game(size_t v)
{
    size_t n = 0;
    while (n < 4 && POLICY_SETS[v][n])
        n++;
    return zig_game(POLICY_SETS[v], n);
}

/* ZIG-R31: along policy games (several per option set), every step the
 * policy draws is in the legal list; it refuses chance nodes and the end. */
static void test_policy_moves_are_legal(void **st)
{
    (void)st;
    for (size_t v = 0; v < sizeof POLICY_SETS / sizeof POLICY_SETS[0]; v++) {
        pips_game *g = policy_set_game(v);
        size_t cap = pips_max_moves(g);
        pips_move *moves = calloc(cap, sizeof *moves), m;
        void *s = calloc(1, g->def->state_size);
        long decisions = 0;
        for (uint64_t seed = 0; seed < 20; seed++) {
            pips_rng rng;
            pips_rng_seed(&rng, 900 + 31 * v + seed);
            g->def->initial(g, s);
            while (pips_to_move(g, s) != PIPS_OVER) {
                if (pips_to_move(g, s) == PIPS_CHANCE) {
                    assert_false(g->def->playout_move(g, s, &rng, &m));
                    assert_true(g->def->sample_chance(g, s, &rng, &m));
                } else {
                    assert_true(g->def->playout_move(g, s, &rng, &m));
                    size_t n = g->def->legal_moves(g, s, moves);
                    qsort(moves, n, sizeof *moves, move_cmp);
                    if (!bsearch(&m, moves, n, sizeof *moves, move_cmp)) {
                        char text[PIPS_MOVE_TEXT_MAX];
                        g->def->move_to_text(g, s, m, text);
                        fail_msg("set %zu seed %llu: policy step '%s' is not legal", v,
                                 (unsigned long long)seed, text);
                    }
                    decisions++;
                }
                g->def->apply(g, s, m);
            }
            assert_false(g->def->playout_move(g, s, &rng, &m));
        }
        assert_true(decisions > 1000);
        free(s);
        free(moves);
        pips_game_free(g);
    }
}

/* ZIG-R22: every legal step, `end` included, keeps a chance: on positions
 * along a policy game (every 25th decision), 400 draws per legal step hit
 * each step at least once (the uniform share alone gives each 1/8 of a
 * uniform pick: about 50 expected hits, a miss below 1e-20). */
static void test_policy_draws_every_step(void **st)
{
    (void)st;
    for (size_t v = 0; v < 3; v++) {
        pips_game *g = policy_set_game(v);
        size_t cap = pips_max_moves(g);
        pips_move *moves = calloc(cap, sizeof *moves), m;
        unsigned *hits = calloc(cap, sizeof *hits);
        void *s = calloc(1, g->def->state_size);
        pips_rng play, draw;
        pips_rng_seed(&play, 70 + v);
        pips_rng_seed(&draw, 80 + v);
        g->def->initial(g, s);
        int checked = 0;
        for (int decision = 0; pips_to_move(g, s) != PIPS_OVER;) {
            if (pips_to_move(g, s) == PIPS_CHANCE) {
                assert_true(g->def->sample_chance(g, s, &play, &m));
            } else {
                if (decision++ % 25 == 0) {
                    size_t n = g->def->legal_moves(g, s, moves);
                    qsort(moves, n, sizeof *moves, move_cmp);
                    memset(hits, 0, n * sizeof *hits);
                    for (size_t d = 0; d < 400 * n; d++) {
                        assert_true(g->def->playout_move(g, s, &draw, &m));
                        pips_move *hit = bsearch(&m, moves, n, sizeof *moves, move_cmp);
                        assert_non_null(hit);
                        hits[hit - moves]++;
                    }
                    for (size_t i = 0; i < n; i++)
                        if (!hits[i]) {
                            char text[PIPS_MOVE_TEXT_MAX];
                            g->def->move_to_text(g, s, moves[i], text);
                            fail_msg("set %zu decision %d: step '%s' never drawn", v, decision,
                                     text);
                        }
                    checked++;
                }
                assert_true(g->def->playout_move(g, s, &play, &m));
            }
            g->def->apply(g, s, m);
        }
        assert_true(checked >= 10);
        free(s);
        free(hits);
        free(moves);
        pips_game_free(g);
    }
}

/* ZIG-R23, R24: under default options at least 95% of 200 seeded policy
 * playouts end with a win inside the 1000-turn cap (uniform play reaches
 * the cap in most games). */
static void test_policy_games_finish(void **st)
{
    (void)st;
    pips_game *g = zig_game(NULL, 0);
    pips_move *buf = calloc(pips_max_moves(g), sizeof *buf);
    void *s = calloc(1, g->def->state_size);
    int wins = 0;
    for (uint64_t seed = 0; seed < 200; seed++) {
        pips_rng rng;
        pips_rng_seed(&rng, seed);
        g->def->initial(g, s);
        pips_policy_playout(g, s, &rng, buf, 1u << 20);
        assert_int_equal(pips_to_move(g, s), PIPS_OVER);
        double ret[PIPS_MAX_PLAYERS];
        g->def->returns(g, s, ret);
        int winners = 0;
        for (int i = 0; i < pips_num_players(g); i++)
            winners += ret[i] == 1.0;
        wins += winners == 1;
    }
    if (wins < 190)
        fail_msg("only %d of 200 policy games won inside the cap", wins);
    free(s);
    free(buf);
    pips_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_policy_moves_are_legal),
        cmocka_unit_test(test_policy_draws_every_step),
        cmocka_unit_test(test_policy_games_finish),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
