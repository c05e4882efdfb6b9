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

#endif
