/*
 * test_icefrogs_random.c — the random_move playout shortcut of IceFrogs
 * against the legal move list (ICF-R3..R9): on positions along random games
 * for 2 and 3 players it returns only legal moves and draws every legal move
 * with about equal frequency (a loose chi-square bound and per-move bounds,
 * fixed seeds); a forced pass is its only move (ICF-R9); it finds none once
 * the game is over; and it picks exactly the move that picking by index from
 * legal_moves would, so seeded playouts (and the bench fingerprint) are
 * unchanged by the shortcut.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pips/game.h"
#include "random_move_check.h"


static pips_game *make_game(const char *opt)
{
    pips_error err;
    const char *kv[1] = {opt};
    pips_game *g = pips_game_new("icefrogs", kv, opt ? 1 : 0, NULL, &err);
    if (!g)
        fail_msg("icefrogs %s: %s", opt ? opt : "", err.msg);
    return g;
}


/* ICF-R3..R7: uniform over the legal moves every 25 plies of random games
 * (stacks, jump chains and crowded stars appear as they go); ICF-R8/R9: no
 * move once the game is over. */
static void test_uniform_over_legal(void **st)
{
    (void)st;
    const char *variants[] = {NULL, "players=3"};
    for (size_t v = 0; v < 2; v++) {
        pips_game *g = make_game(variants[v]);
        pips_move *moves = calloc(pips_max_moves(g), sizeof *moves);
        void *s = pips_state_new(g, NULL);
        pips_rng play, draw;
        pips_rng_seed(&draw, 500 + v);
        for (uint64_t game = 0; game < 16; game++) {
            pips_rng_seed(&play, v * 1000 + game);
            g->def->initial(g, s);
            for (int ply = 0;; ply++) {
                bool over = g->def->to_move(g, s) == PIPS_OVER;
                if (ply % 25 == (int)game % 25 || over) {
                    char what[96];
                    snprintf(what, sizeof what, "%s game %llu ply %d",
                             variants[v] ? variants[v] : "players=2", (unsigned long long)game,
                             ply);
                    check_random_move_uniform(g, s, &draw, what);
                }
                if (over)
                    break;
                size_t n = g->def->legal_moves(g, s, moves);
                g->def->apply(g, s, moves[pips_rng_below(&play, n)]);
            }
        }
        pips_state_free(g, s);
        free(moves);
        pips_game_free(g);
    }
}

/* ICF-R9: with every piece buried or blocked the forced pass is the only
 * move, and random_move gives it. */
static void test_forced_pass(void **st)
{
    (void)st;
    pips_game *g = make_game(NULL);
    void *s = pips_state_new(g, NULL);
    pips_error err;
    if (!g->def->state_from_text(
            g, "c1:1L1L1L1L1L1M1M1M1M1M1S1S1S1S1S2S ply=0 passes=0", s, &err))
        fail_msg("%s", err.msg);
    pips_move list[4], m;
    assert_int_equal(g->def->legal_moves(g, s, list), 1);
    pips_rng rng;
    pips_rng_seed(&rng, 3);
    for (int i = 0; i < 20; i++) {
        assert_true(g->def->random_move(g, s, &rng, &m));
        assert_true(m == list[0]);
    }
    pips_state_free(g, s);
    pips_game_free(g);
}

/* The shortcut draws exactly legal_moves[below(n)] for the same generator
 * state, so seeded playouts are the same game with or without it. */
static void test_same_draw_as_list(void **st)
{
    (void)st;
    const char *variants[] = {NULL, "players=3"};
    for (size_t v = 0; v < 2; v++) {
        pips_game *g = make_game(variants[v]);
        check_random_move_matches_list(g, 60);
        pips_game_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uniform_over_legal),
        cmocka_unit_test(test_forced_pass),
        cmocka_unit_test(test_same_draw_as_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
