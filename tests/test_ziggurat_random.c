/*
 * test_ziggurat_random.c — Ziggurat's playout shortcuts against the lists
 * they stand for: sample_chance draws the dice outcomes with the
 * probabilities chance_outcomes gives (ZIG-R30: the opening roll, RA's
 * movement reroll, RB's action reroll; d8, d6 and Treehouse dice), and
 * random_move is uniform over the legal steps (ZIG-R31's list, `end`
 * included, ZIG-R22) on many random positions of several option sets.
 * Both draw exactly what picking from the lists would for the same generator
 * state, so seeded playouts (and the bench fingerprint) are unchanged.
 */
#include "zig_helpers.h"

#include <math.h>

#include "random_move_check.h"

#define CHANCE_DRAWS_PER_OUTCOME 400

/* Every draw of sample_chance is a listed outcome, and the counts fit the
 * listed probabilities: each within half to twice its expectation and the
 * chi-square statistic under df + 8 sd + 10 (the bound random_move_check.h
 * uses; a correct sampler misses it with negligible probability). */
static void check_chance_distribution(const pips_game *g, const void *s, pips_rng *rng,
                                      const char *what)
{
    size_t cap = pips_max_moves(g);
    pips_move *out = calloc(cap, sizeof *out), m;
    double *prob = calloc(cap, sizeof *prob);
    unsigned *count = calloc(cap, sizeof *count);
    size_t n = g->def->chance_outcomes(g, s, out, prob);
    assert_true(n > 0);
    size_t draws = CHANCE_DRAWS_PER_OUTCOME * n;
    for (size_t d = 0; d < draws; d++) {
        if (!g->def->sample_chance(g, s, rng, &m))
            fail_msg("%s: sample_chance refused a chance node", what);
        size_t i = 0;
        while (i < n && out[i] != m)
            i++;
        if (i == n)
            fail_msg("%s: sample_chance gave %llu, not a listed outcome", what,
                     (unsigned long long)m);
        count[i]++;
    }
    double chi2 = 0;
    for (size_t i = 0; i < n; i++) {
        double expect = prob[i] * (double)draws;
        if (count[i] < expect / 2 || count[i] > expect * 2)
            fail_msg("%s: outcome %zu drawn %u times, expected about %.0f", what, i, count[i],
                     expect);
        chi2 += (count[i] - expect) * (count[i] - expect) / expect;
    }
    double df = (double)(n - 1), bound = df + 8 * sqrt(2 * df) + 10;
    if (chi2 > bound)
        fail_msg("%s: chi-square %.1f over %zu outcomes exceeds %.1f", what, chi2, n, bound);
    free(out);
    free(prob);
    free(count);
}

/* ZIG-R30 with the d8/d8 dice, d6 + Treehouse, and the RA and RB rerolls
 * (the position's action die shows Redo, which Treehouse lacks: the d8
 * action die there). */
static void test_sample_chance_distribution(void **st)
{
    (void)st;
    const char *d6th[] = {"move_die=d6", "action_die=treehouse"};
    const char *d6[] = {"move_die=d6"};
    struct {
        const char *const *opts;
        size_t n;
    } sets[] = {{NULL, 0}, {d6th, 2}, {d6, 1}};
    pips_rng rng;
    pips_rng_seed(&rng, 30);
    for (size_t v = 0; v < sizeof sets / sizeof sets[0]; v++) {
        pips_game *g = zig_game(sets[v].opts, sets[v].n);
        void *s = calloc(1, g->def->state_size);
        char what[64];
        g->def->initial(g, s);
        snprintf(what, sizeof what, "set %zu opening roll", v);
        check_chance_distribution(g, s, &rng, what);
        if (v != 1) { /* RA then RB from a rolled Redo */
            const char *redo = v == 0 ? "5R" : "4R";
            assert_true(pips_play_text(g, s, redo, NULL));
            void *t = calloc(1, g->def->state_size);
            memcpy(t, s, g->def->state_size);
            assert_true(pips_play_text(g, s, "RA", NULL));
            snprintf(what, sizeof what, "set %zu RA reroll", v);
            check_chance_distribution(g, s, &rng, what);
            assert_true(pips_play_text(g, t, "RB", NULL));
            snprintf(what, sizeof what, "set %zu RB reroll", v);
            check_chance_distribution(g, t, &rng, what);
            free(t);
        }
        /* not a chance node: refused */
        pips_move m;
        g->def->initial(g, s);
        assert_true(pips_play_text(g, s, "3T", NULL));
        assert_false(g->def->sample_chance(g, s, &rng, &m));
        free(s);
        pips_game_free(g);
    }
}

/* Option sets for the random_move checks: defaults, Queens with both dice
 * variants, three players, two-colour and teams play. */
static const char *const RANDOM_SETS[][4] = {
    {NULL},
    {"queen=true", "move_die=d6", "action_die=treehouse", NULL},
    {"queen=true", "queen_height=3", NULL},
    {"players=3", "max_turns=300", NULL},
    {"players=2", "mode=two_colour", "queen=true", "queen_height=2"},
    {"mode=teams", "turn_direction=ccw", NULL},
};

static pips_game *random_set_game(size_t v)
{
    size_t n = 0;
    while (n < 4 && RANDOM_SETS[v][n])
        n++;
    return zig_game(RANDOM_SETS[v], n);
}

/* ZIG-R22, R31: random_move is uniform over the legal steps, `end`
 * included, on positions spread along random games (every 41st decision,
 * so openings, crowded middles and late races all appear); no move at a
 * chance node or once the game is over. */
static void test_random_move_uniform(void **st)
{
    (void)st;
    for (size_t v = 0; v < sizeof RANDOM_SETS / sizeof RANDOM_SETS[0]; v++) {
        pips_game *g = random_set_game(v);
        pips_move *moves = calloc(pips_max_moves(g), sizeof *moves), m;
        void *s = calloc(1, g->def->state_size);
        pips_rng play, draw;
        pips_rng_seed(&draw, 500 + v);
        int checked = 0;
        for (uint64_t game = 0; game < 3; game++) {
            pips_rng_seed(&play, 100 * v + game);
            g->def->initial(g, s);
            for (int decision = 0; pips_to_move(g, s) != PIPS_OVER;) {
                if (pips_to_move(g, s) == PIPS_CHANCE) {
                    assert_false(g->def->random_move(g, s, &draw, &m));
                    assert_true(g->def->sample_chance(g, s, &play, &m));
                } else {
                    if (decision++ % 41 == 0) {
                        char what[96];
                        snprintf(what, sizeof what, "set %zu game %llu decision %d", v,
                                 (unsigned long long)game, decision);
                        check_random_move_uniform(g, s, &draw, what);
                        checked++;
                    }
                    size_t n = g->def->legal_moves(g, s, moves);
                    assert_int_equal(g->def->count_moves(g, s), n);
                    m = moves[pips_rng_below(&play, n)];
                }
                g->def->apply(g, s, m);
            }
            assert_false(g->def->random_move(g, s, &draw, &m));
            assert_false(g->def->sample_chance(g, s, &draw, &m));
        }
        assert_true(checked >= 30);
        free(s);
        free(moves);
        pips_game_free(g);
    }
}

/* Both shortcuts draw exactly what picking from the lists draws for the
 * same generator state (random_move: legal_moves[below(n)]; sample_chance:
 * pips_sample_chance over chance_outcomes), so whole seeded games are
 * identical either way, to the same final state. */
static void test_shortcuts_match_lists(void **st)
{
    (void)st;
    for (size_t v = 0; v < sizeof RANDOM_SETS / sizeof RANDOM_SETS[0]; v++) {
        pips_game *g = random_set_game(v);
        check_random_move_matches_list(g, 12);
        pips_game_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sample_chance_distribution),
        cmocka_unit_test(test_random_move_uniform),
        cmocka_unit_test(test_shortcuts_match_lists),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
