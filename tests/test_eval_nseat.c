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

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pips/agent.h"
#include "pips/game.h"
#include "core/unchecked.h"

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

/* The order_moves hook's score of `move` in s. */
static int order_score(const pips_game *g, const void *s, const char *move)
{
    pips_move m, *moves = calloc(pips_max_moves(g), sizeof *moves);
    int *scores = calloc(pips_max_moves(g), sizeof *scores), found = -1;
    assert_true(moves && scores);
    assert_true(pips_parse_move(g, s, move, &m, NULL));
    size_t n = g->def->legal_moves(g, s, moves);
    g->def->order_moves(g, s, moves, n, scores);
    for (size_t i = 0; i < n; i++)
        if (moves[i] == m)
            found = scores[i];
    free(moves);
    free(scores);
    assert_true(found >= 0);
    return found;
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
    size_t n = agent_analyze_unchecked(a, s, evals, mm, &err);
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
 * later), and the evaluation says so (the move order is left as it was). */
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
        /* the search's move order agrees: both hand-offs after the quiet move */
        assert_true(order_score(g, s, "S@0,0") < order_score(g, s, "S@-1,-1"));
        assert_true(order_score(g, s, "M@-1,-1") < order_score(g, s, "S@-1,-1"));
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
    assert_int_equal(order_score(g, s, "S@0,0"), order_score(g, s, "S@-1,-1"));
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

/* A three-seat position of `game` (state text), seat `me` to move: after
 * `hand` the next seat can win at once and the evaluation gives it the
 * game; the evaluation puts `quiet` above `hand` for the mover, and so does
 * greedy's ranking when `ranked` (a game with a move list: greedy's
 * candidates are every legal move). */
static void expect_handoff_below_quiet(const char *game, const char *text, int me,
                                       const char *hand, const char *quiet, bool ranked)
{
    pips_game *g = game_with(game, "players=3", NULL);
    void *s = position(g, text);
    assert_int_equal(g->def->to_move(g, s), me);
    double all[PIPS_MAX_PLAYERS];
    double hand_value = eval_after(g, s, hand, me, all);
    assert_true(all[(me + 1) % 3] > 0.9);
    assert_true(hand_value < eval_after(g, s, quiet, me, NULL));
    if (ranked)
        assert_true(greedy_value(g, s, hand) < greedy_value(g, s, quiet));
    pips_state_free(g, s);
    pips_game_free(g);
}

/* ---- IceFrogs -------------------------------------------------------------- */

/* Three players (ICF-R2: starts a1, g1, g7), player 3 to move, found in a
 * random game. Player 3's two mediums are stacked on d6; moving the top
 * one to c6 gives player 1's large on c5 a piece to jump (ICF-R5: a large
 * jumps any top), and a chain of jumps that ends on g7, player 3's start:
 * player 1 then plays c5-g7 and wins (ICF-R8, R11). Entering a large
 * (L+c7) leaves no such move. The plain progress values liked the medium's
 * advance (0.569 against 0.526); now the position after it is player 1's,
 * and greedy enters the large instead. */
static void test_icefrogs_handoff(void **unused)
{
    (void)unused;
    expect_handoff_below_quiet("icefrogs",
                               "b1:1M b2:1L c5:1L d6:3M3M f1:2L f2:2M f6:3S g2:2S ply=14 passes=0",
                               2, "d6-c6", "L+c7", true);
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
    expect_handoff_below_quiet(
        "nimitz", "a1:W:yL b1:U:gM c1:N:oS a2:N:rS c2:W:bM a3:S:bLgS b3:U:oM c3:N:rL", 0,
        "yM@c3:N", "yS@b1:U", true);
}

/* ---- Noname ---------------------------------------------------------------- */

/* Three players, found in a random game: 58 turns played, blue (seat 2) to
 * place its last piece, a green large prisoner (it must stand, NON §7);
 * green (seat 3) then holds the game's last placement, a medium (NON §8:
 * the game ends when every pad is empty). After gL@171.6,314.3/U22.5 green
 * has a placement that leaves it alone in the lead (NON-R15); after
 * gL@512.0,180.0/U it has none among the candidates. The table scores
 * alone gave the hand-off 0.450 and the quiet placement 0.168. */
static const char NONAME_LAST_PLACEMENTS[] =
    "players=3 capture_to=colour multi_attacker=colour turn_cap=450 table=600.0x600.0 "
    "first_player=1 seats r,b,g turn 59 to b passes 0 pads r:- b:gL1 g:gM1 table #1 "
    "rM@231.4,249.7>187.1 #3 gM@268.1,249.4>202.5 #4 rS@273.4,270.7>225.0 #6 "
    "gL@284.7,241.4>97.2 #7 rS@277.0,202.2>351.9 #11 bL@162.1,391.5>157.5 #13 "
    "rS@346.1,383.2>67.5 #15 gS@256.0,234.4>0.0 #18 gL@511.8,478.7>45.0 #19 "
    "rM@361.8,406.2>225.0 #20 bL@139.9,390.7>292.5 #22 rS@240.0,328.0>270.0 #24 "
    "bS@152.7,395.4/U67.5 #25 rL@177.8,173.8>22.5 #26 rM@351.7,396.1/U45.0 #27 "
    "gS@322.7,290.7>270.0 #28 bL@240.0,390.0/U #29 bL@362.7,390.4>112.5 #30 "
    "bS@521.7,488.6/U45.0 #31 rM@425.8,254.6>327.2 #32 bS@371.4,115.0>67.5 #33 "
    "gL@217.9,135.1/U32.6 #34 gS@266.4,234.4/U #35 gS@322.7,273.2/U #36 "
    "gM@202.1,443.3>212.7 #37 rL@140.3,529.7/U34.8 #40 bL@213.9,188.7/U22.5 #41 "
    "bM@214.5,497.1>270.0 #42 rS@375.3,293.4/U59.6 #43 rL@277.7,319.7>247.5 #44 "
    "bM@450.2,58.6>292.5 #45 bS@180.0,420.0/U #47 gS@214.5,477.3/U #48 "
    "gM@328.4,319.2>270.0 #49 rM@60.0,210.0/U45.0 #50 bM@152.7,403.2>270.0 #51 "
    "gM@390.0,210.0/U45.0 #52 rL@210.6,254.3>225.0 #54 gL@490.0,180.0>0.0 #55 "
    "bS@420.0,30.0/U45.0 #56 bM@505.2,66.4>202.5 #57 bM@443.2,288.4/U67.5 #58 "
    "rL@530.7,88.7>292.5";

static void test_noname_handoff(void **unused)
{
    (void)unused;
    expect_handoff_below_quiet("noname", NONAME_LAST_PLACEMENTS, 1, "gL@171.6,314.3/U22.5",
                               "gL@512.0,180.0/U", false);
}

/* The seat expected to place last (the most pieces on its pad; of those
 * tied, the last in turn order from the mover) usually wins: with three or
 * more seats the evaluation counts that seat 8 points ahead (14 from four)
 * (docs/ai.md, "Noname at three and four seats"). Empty table, so every
 * table score is 0; red and blue hold three pieces, green two. Red to
 * move: blue places last. Blue to move: red does. Two seats keep the
 * plain table values (0.5 each here). */
static void test_noname_last_placer(void **unused)
{
    (void)unused;
    static const char *const to[] = {"r", "b"};
    for (int k = 0; k < 2; k++) {
        pips_game *g = game_with("noname", "players=3", NULL);
        char text[512];
        snprintf(text, sizeof text,
                 "players=3 capture_to=colour multi_attacker=colour turn_cap=450 "
                 "table=600.0x600.0 first_player=1 seats r,b,g turn 40 to %s passes 0 pads "
                 "r:rS3 b:bS3 g:gS2 table -",
                 to[k]);
        void *s = position(g, text);
        double v[PIPS_MAX_PLAYERS];
        g->def->evaluate(g, s, v);
        int last = k == 0 ? 1 : 0, other = 1 - last;
        assert_true(v[last] > 0.75);
        assert_true(v[other] < 0.25);
        assert_true(v[2] < 0.25);
        assert_true(fabs(v[other] - v[2]) < 1e-12);
        pips_state_free(g, s);
        pips_game_free(g);
    }
    pips_game *g2 = game_with("noname", "players=2", NULL);
    void *s = position(g2, "players=2 capture_to=colour multi_attacker=colour turn_cap=300 "
                           "table=600.0x600.0 first_player=1 seats r,b turn 40 to r passes 0 "
                           "pads r:rS3 b:bS2 table -");
    double v[PIPS_MAX_PLAYERS];
    g2->def->evaluate(g2, s, v);
    assert_true(fabs(v[0] - 0.5) < 1e-12 && fabs(v[1] - 0.5) < 1e-12);
    pips_state_free(g2, s);
    pips_game_free(g2);
}

/* ---- Ziggurat ------------------------------------------------------------- */

/* Ziggurat has no hand-off for an evaluation to reward: every turn opens
 * with a roll, so a seat never leaves the next one a win it only has to
 * take, and a colour finishes only when all its pieces stand on its own
 * Goal (ZIG-R23; no rule puts a piece on another colour's Goal, ZIG-R7).
 * What is left, a step of one seat that finishes another colour at once,
 * does not occur: over random three-seat games every step of every
 * decision, played on a copy, either leaves the game running or makes the
 * mover (or nobody) the winner. (The evaluation is a softmax of the seats'
 * distances to go, so a step that brings another colour closer lowers the
 * mover's share.) */
static void test_ziggurat_no_handoff(void **unused)
{
    (void)unused;
    pips_game *g = game_with("ziggurat", "players=3", NULL);
    size_t mm = pips_max_moves(g), sz = g->def->state_size;
    pips_move *moves = calloc(mm, sizeof *moves);
    double *prob = calloc(mm, sizeof *prob), r[PIPS_MAX_PLAYERS];
    void *s = pips_state_new(g, NULL), *child = pips_state_new(g, NULL);
    assert_true(moves && prob && s && child);
    long decisions = 0;
    for (uint64_t seed = 0; seed < 60; seed++) {
        pips_rng rng;
        pips_rng_seed(&rng, seed);
        g->def->initial(g, s);
        for (int ply = 0; ply < 20000 && g->def->to_move(g, s) != PIPS_OVER; ply++) {
            int me = g->def->to_move(g, s);
            if (me == PIPS_CHANCE) {
                size_t n = pips_node_moves(g, s, &rng, moves, prob);
                g->def->apply(g, s, moves[pips_sample_chance(&rng, prob, n)]);
                continue;
            }
            size_t n = pips_node_moves(g, s, &rng, moves, NULL);
            for (size_t i = 0; i < n; i++) {
                memcpy(child, s, sz);
                g->def->apply(g, child, moves[i]);
                if (g->def->to_move(g, child) != PIPS_OVER)
                    continue;
                g->def->returns(g, child, r);
                for (int p = 0; p < 3; p++)
                    if (p != me)
                        assert_true(r[p] < 1.0);
            }
            decisions++;
            g->def->apply(g, s, moves[pips_rng_below(&rng, n)]);
        }
        assert_int_equal(g->def->to_move(g, s), PIPS_OVER);
    }
    assert_true(decisions > 10000);
    pips_state_free(g, s);
    pips_state_free(g, child);
    free(moves);
    free(prob);
    pips_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tictacdoh_handoff),
        cmocka_unit_test(test_icefrogs_handoff),
        cmocka_unit_test(test_nimitz_handoff),
        cmocka_unit_test(test_noname_handoff),
        cmocka_unit_test(test_noname_last_placer),
        cmocka_unit_test(test_ziggurat_no_handoff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
