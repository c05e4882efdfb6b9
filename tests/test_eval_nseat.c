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
#include <stdlib.h>
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
    pips_move_eval *evals = calloc(mm, sizeof *evals);
    assert_non_null(evals);
    size_t n = pips_agent_analyze(a, s, evals, mm, &err);
    pips_agent_free(a);
    double v = -1;
    for (size_t i = 0; i < n; i++)
        if (evals[i].move == m)
            v = evals[i].value;
    free(evals);
    if (v < 0)
        fail_msg("greedy did not rank %s", move);
    return v;
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

/* A position from its state text; fails the test on a bad one. */
static void *position(const pips_game *g, const char *text)
{
    void *s = pips_state_new(g, NULL);
    pips_error err;
    if (!g->def->state_from_text(g, text, s, &err))
        fail_msg("%s: %s", text, err.msg);
    return s;
}

/* ---- IceFrogs -------------------------------------------------------------- */

/* Three players (ICF-R2: starts a1, g1, g7), player 3 to move. Player 3's
 * two mediums are stacked on d6; moving the top one to c6 leaves player 1's
 * large on c5 a jump over it (ICF-R5: a large jumps any top) to c7 and on
 * over d6's medium to g7... in short, player 1 then ends a move on g7,
 * player 3's start, and wins (ICF-R8). The plain progress values liked the
 * medium's advance (0.569 against 0.526 for entering a large); now the
 * position after it is player 1's, and greedy enters the large instead. */
static void test_icefrogs_handoff(void **unused)
{
    (void)unused;
    pips_game *g = game_with("icefrogs", "players=3", NULL);
    void *s = position(g, "b1:1M b2:1L c5:1L d6:3M3M f1:2L f2:2M f6:3S g2:2S ply=14 passes=0");
    int me = g->def->to_move(g, s);
    assert_int_equal(me, 2);
    double all[PIPS_MAX_PLAYERS];
    double hand = eval_after(g, s, "d6-c6", me, all);
    double quiet = eval_after(g, s, "L+c7", me, NULL);
    assert_true(all[0] > 0.9); /* player 1 can win at once */
    assert_true(hand < quiet);
    assert_true(greedy_value(g, s, "d6-c6") < greedy_value(g, s, "L+c7"));
    pips_state_free(g, s);
    pips_game_free(g);
}

/* ---- Nimitz ---------------------------------------------------------------- */

/* Three players on the coaster, nine pieces placed: seat 1 (index 0) to
 * move. yM@c3:N leaves the next seat a placement after which nobody can
 * place, so that seat places last and wins (NIM-R5); yS@b1:U leaves no
 * such placement. The random playouts alone gave the hand-off 0.773 and
 * the quiet move 0.653. */
static void test_nimitz_handoff(void **unused)
{
    (void)unused;
    pips_game *g = game_with("nimitz", "players=3", NULL);
    void *s = position(g, "a1:W:yL b1:U:gM c1:N:oS a2:N:rS c2:W:bM a3:S:bLgS b3:U:oM c3:N:rL");
    int me = g->def->to_move(g, s);
    assert_int_equal(me, 0);
    double all[PIPS_MAX_PLAYERS];
    double hand = eval_after(g, s, "yM@c3:N", me, all);
    double quiet = eval_after(g, s, "yS@b1:U", me, NULL);
    assert_true(all[1] > 0.9);
    assert_true(hand < quiet);
    assert_true(greedy_value(g, s, "yM@c3:N") < greedy_value(g, s, "yS@b1:U"));
    pips_state_free(g, s);
    pips_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tictacdoh_handoff),
        cmocka_unit_test(test_icefrogs_handoff),
        cmocka_unit_test(test_nimitz_handoff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
