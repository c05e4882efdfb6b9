/*
 * random_move_check.h — the shared test of a game's random_move hook: every
 * draw is a legal move and the draws are uniform over the legal list. Used
 * by each game's tests on positions of its own choosing.
 */
#ifndef PIPS_RANDOM_MOVE_CHECK_H
#define PIPS_RANDOM_MOVE_CHECK_H

#include <math.h>
#include <stdlib.h>

#include "pips/game.h"

#define RANDOM_MOVE_DRAWS_PER_MOVE 200

static int random_move_cmp(const void *a, const void *b)
{
    pips_move x = *(const pips_move *)a, y = *(const pips_move *)b;
    return x < y ? -1 : x > y;
}

/* Draws 200 times the number of legal moves from random_move and checks
 * each draw is in the legal list and the counts look uniform: every move
 * within half to twice its expectation (a miss is below 1e-12 per move for a
 * correct draw) and the chi-square statistic under df + 8 sd + 10. With no
 * legal move, random_move must report none. */
static void check_random_move_uniform(const pips_game *g, const void *s, pips_rng *rng,
                                      const char *what)
{
    size_t cap = pips_max_moves(g);
    pips_move *moves = calloc(cap, sizeof *moves), m;
    unsigned *count = calloc(cap, sizeof *count);
    size_t n = g->def->legal_moves(g, s, moves);
    if (n == 0) {
        assert_false(g->def->random_move(g, s, rng, &m));
        free(moves);
        free(count);
        return;
    }
    qsort(moves, n, sizeof *moves, random_move_cmp);
    for (size_t d = 0; d < RANDOM_MOVE_DRAWS_PER_MOVE * n; d++) {
        if (!g->def->random_move(g, s, rng, &m))
            fail_msg("%s: random_move found no move among %zu", what, n);
        pips_move *hit = bsearch(&m, moves, n, sizeof *moves, random_move_cmp);
        if (!hit) {
            pips_error err;
            pips_check_move(g, s, m, &err);
            fail_msg("%s: random_move gave %llu, not in the legal list (%s)", what,
                     (unsigned long long)m, err.msg);
        }
        count[hit - moves]++;
    }
    double expect = RANDOM_MOVE_DRAWS_PER_MOVE, chi2 = 0;
    for (size_t i = 0; i < n; i++) {
        if (count[i] < expect / 2 || count[i] > expect * 2)
            fail_msg("%s: move %llu drawn %u times, expected about %.0f", what,
                     (unsigned long long)moves[i], count[i], expect);
        chi2 += (count[i] - expect) * (count[i] - expect) / expect;
    }
    double df = (double)(n - 1), bound = df + 8 * sqrt(2 * df) + 10;
    if (chi2 > bound)
        fail_msg("%s: chi-square %.1f over %zu moves exceeds %.1f", what, chi2, n, bound);
    free(moves);
    free(count);
}

/* The shortcut must draw exactly legal_moves[below(n)] for the same
 * generator state, so seeded playouts are the same games with or without it:
 * plays games from seeds 0..n_seeds-1 both ways and compares every move, the
 * final states, and that no move is drawn once the game is over. At chance
 * nodes both games draw by pips_sample_chance over chance_outcomes, except
 * that the shortcut game uses the sample_chance hook where the game has one
 * (which must then draw the same outcome). */
static void check_random_move_matches_list(const pips_game *g, uint64_t n_seeds)
{
    pips_move *moves = calloc(pips_max_moves(g), sizeof *moves);
    double *prob = calloc(pips_max_moves(g), sizeof *prob);
    void *a = pips_state_new(g, NULL), *b = pips_state_new(g, NULL);
    for (uint64_t seed = 0; seed < n_seeds; seed++) {
        pips_rng ra, rb;
        pips_rng_seed(&ra, seed);
        pips_rng_seed(&rb, seed);
        g->def->initial(g, a);
        g->def->initial(g, b);
        pips_move m;
        while (g->def->to_move(g, a) != PIPS_OVER) {
            if (g->def->to_move(g, a) == PIPS_CHANCE) {
                size_t n = g->def->chance_outcomes(g, b, moves, prob);
                pips_move expect = moves[pips_sample_chance(&rb, prob, n)];
                if (g->def->sample_chance)
                    assert_true(g->def->sample_chance(g, a, &ra, &m));
                else
                    m = moves[pips_sample_chance(&ra, prob, n)];
                assert_true(m == expect);
                g->def->apply(g, a, m);
                g->def->apply(g, b, m);
                continue;
            }
            assert_true(g->def->random_move(g, a, &ra, &m));
            size_t n = g->def->legal_moves(g, b, moves);
            assert_true(m == moves[pips_rng_below(&rb, n)]);
            g->def->apply(g, a, m);
            g->def->apply(g, b, m);
        }
        assert_false(g->def->random_move(g, a, &ra, &m));
        assert_memory_equal(a, b, g->def->state_size);
    }
    pips_state_free(g, a);
    pips_state_free(g, b);
    free(prob);
    free(moves);
}

#endif
