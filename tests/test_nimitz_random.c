/*
 * test_nimitz_random.c — the random_move playout shortcut of Nimitz against
 * the legal move list (NIM-R1..R5): on many random positions of several
 * boards and options it returns only legal moves, draws every legal move
 * with about equal frequency (a loose chi-square bound and per-move bounds,
 * fixed seeds), refuses at the end of the game, and picks exactly the move
 * that picking by index from legal_moves would, so seeded playouts (and the
 * bench fingerprint) are unchanged by the shortcut.
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

#define MAX_OPTS 8

static pips_game *make_game(const char *opts)
{
    char buf[512];
    const char *kv[MAX_OPTS];
    size_t n = 0;
    snprintf(buf, sizeof buf, "%s", opts);
    for (char *tok = strtok(buf, " "); tok && n < MAX_OPTS; tok = strtok(NULL, " "))
        kv[n++] = tok;
    pips_error err;
    pips_game *g = pips_game_new("nimitz", kv, n, NULL, &err);
    if (!g)
        fail_msg("nimitz %s: %s", opts, err.msg);
    return g;
}


/* NIM-R1..R4: uniform over the legal placements on positions along random
 * games (every few plies, so openings, middle games and ends all appear);
 * NIM-R5: no move once the game is over. */
static void test_uniform_over_legal(void **st)
{
    (void)st;
    const char *variants[] = {"", "sets=2 colors=3 players=3", "board=##./###/.## colors=4",
                              "board=1x4 colors=2 sets=3 players=5", "board=volcano"};
    const int games[] = {6, 6, 6, 10, 1};
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        pips_game *g = make_game(variants[v]);
        pips_move *moves = calloc(pips_max_moves(g), sizeof *moves);
        void *s = pips_state_new(g, NULL);
        pips_rng play, draw;
        pips_rng_seed(&draw, 1000 + v);
        for (int k = 0; k < games[v]; k++) {
            pips_rng_seed(&play, v * 100 + (uint64_t)k);
            g->def->initial(g, s);
            for (int ply = 0;; ply++) {
                char what[128];
                snprintf(what, sizeof what, "'%s' game %d ply %d", variants[v], k, ply);
                /* the opening (675 moves on the coaster) once per variant */
                if ((ply > 0 || k == 0) && (ply % 3 == k % 3 || v == 4))
                    check_random_move_uniform(g, s, &draw, what);
                if (g->def->to_move(g, s) == PIPS_OVER)
                    break;
                size_t n = g->def->legal_moves(g, s, moves);
                g->def->apply(g, s, moves[pips_rng_below(&play, n)]);
                if (v == 4 && ply == 0)
                    break; /* the volcano's opening is the big list */
            }
        }
        pips_state_free(g, s);
        free(moves);
        pips_game_free(g);
    }
}

/* The shortcut draws exactly legal_moves[below(n)] for the same generator
 * state, so seeded playouts are the same game with or without it. */
static void test_same_draw_as_list(void **st)
{
    (void)st;
    const char *variants[] = {"", "board=volcano players=3 sets=2", "colors=2 misere=true"};
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        pips_game *g = make_game(variants[v]);
        check_random_move_matches_list(g, 120);
        pips_game_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uniform_over_legal),
        cmocka_unit_test(test_same_draw_as_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
