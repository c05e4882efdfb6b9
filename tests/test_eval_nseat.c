/*
 * test_eval_nseat.c — the games' evaluate hooks at three seats and more give
 * no credit for a position that hands the game to someone else (issue 24).
 * Each test builds a position by hand in which the mover has a quiet move
 * and a move that hands the win to another seat, and checks that greedy
 * (one ply: the evaluation of the position after the move, for the mover)
 * ranks the quiet move above the hand-off, and where it applies that the
 * two-seat reading of the same position is unchanged.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "pips/agent.h"
#include "pips/game.h"

static pips_game *game_with(const char *name, const char *opt1, const char *opt2)
{
    const char *kv[] = {opt1, opt2};
    pips_error err;
    pips_game *g = pips_game_new(name, kv, opt2 ? 2 : opt1 ? 1 : 0, NULL, &err);
    if (!g)
        fail_msg("%s %s: %s", name, opt1 ? opt1 : "", err.msg);
    return g;
}

/* Plays space-separated moves from the start; fails the test on a bad one. */
static void *play(const pips_game *g, const char *moves)
{
    void *s = pips_state_new(g, NULL);
    g->def->initial(g, s);
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        pips_error err;
        if (!pips_play_text(g, s, tok, &err))
            fail_msg("move %s: %s", tok, err.msg);
    }
    return s;
}

/* The evaluation, for seat `who`, of the position after `move` in s. */
static double eval_after(const pips_game *g, const void *s, const char *move, int who,
                         double *all)
{
    void *child = pips_state_new(g, NULL);
    memcpy(child, s, g->def->state_size);
    pips_error err;
    if (!pips_play_text(g, child, move, &err))
        fail_msg("move %s: %s", move, err.msg);
    double v[PIPS_MAX_PLAYERS];
    assert_true(g->def->to_move(g, child) != PIPS_OVER);
    g->def->evaluate(g, child, v);
    if (all)
        memcpy(all, v, sizeof v);
    pips_state_free(g, child);
    return v[who];
}

/* Greedy's value of `move` in s for the seat to move (its analysis). */
static double greedy_value(const pips_game *g, const void *s, const char *move)
{
    pips_error err;
    pips_agent *a = pips_agent_new(g, "greedy", 1, &err);
    assert_non_null(a);
    pips_move m;
    if (!pips_parse_move(g, s, move, &m, &err))
        fail_msg("move %s: %s", move, err.msg);
    size_t mm = pips_max_moves(g);
    pips_move_eval evals[512];
    assert_true(mm <= 512);
    size_t n = pips_agent_analyze(a, s, evals, mm, &err);
    pips_agent_free(a);
    for (size_t i = 0; i < n; i++)
        if (evals[i].move == m)
            return evals[i].value;
    fail_msg("greedy did not rank %s", move);
    return -1;
}

/* ---- Tic Tac Doh! ---------------------------------------------------------- */

/* After L@0,0 M@0,0 the first two placements make an L-M tree, which counts
 * as L and as M (TTD-R3, R4), and the third seat is to move (TTD-R8).
 * - S@0,0 completes the tree L-M-S, which counts as every size: any piece
 *   the next seat places then lines up through the centre with a cell
 *   opposite it, so the seat after that wins (TTD-R5). With three seats
 *   that hands the game to seat 2 of 3 (index 1): a hand-off, not a win.
 * - M@-1,-1 lets the next seat complete M, tree, M at once (M@1,1).
 * - S@-1,-1 is quiet: the next seat has a safe placement.
 * With two seats S@0,0 is a forced win for its placer (seat 0, two turns
 * later), and the evaluation says so. */
static void test_tictacdoh_handoff(void **unused)
{
    (void)unused;
    for (int players = 3; players <= 4; players++) {
        char opt[16];
        snprintf(opt, sizeof opt, "players=%d", players);
        pips_game *g = game_with("tictacdoh", opt, NULL);
        void *s = play(g, "L@0,0 M@0,0");
        int me = g->def->to_move(g, s);
        assert_int_equal(me, 2);
        double quiet = eval_after(g, s, "S@-1,-1", me, NULL);
        double all[PIPS_MAX_PLAYERS];
        double stuck = eval_after(g, s, "S@0,0", me, all);
        double next_wins = eval_after(g, s, "M@-1,-1", me, NULL);
        int after_next = (me + 2) % players; /* the seat the hand-off crowns */
        for (int p = 0; p < players; p++)
            if (p != after_next)
                assert_true(all[p] < all[after_next]);
        assert_true(stuck < quiet);
        assert_true(next_wins < quiet);
        assert_true(stuck < 1.0 / players);
        assert_true(greedy_value(g, s, "S@0,0") < greedy_value(g, s, "S@-1,-1"));
        assert_true(greedy_value(g, s, "M@-1,-1") < greedy_value(g, s, "S@-1,-1"));
        pips_state_free(g, s);
        pips_game_free(g);
    }
    /* Two seats: the same S@0,0 leaves the opponent stuck, the placer wins;
     * the values are the two-player ones (0.95 / 0.05). */
    pips_game *g = game_with("tictacdoh", NULL, NULL);
    void *s = play(g, "L@0,0 M@0,0");
    double all[PIPS_MAX_PLAYERS];
    assert_true(eval_after(g, s, "S@0,0", 0, all) == 1.0 - 0.05);
    assert_true(all[1] == 0.05);
    assert_true(greedy_value(g, s, "S@0,0") > greedy_value(g, s, "S@-1,-1"));
    pips_state_free(g, s);
    pips_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tictacdoh_handoff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
