/*
 * test_icefrogs.c — IceFrogs under the rulings ICF-R1..R11: the star and its
 * names, entering and moving, steps, jump chains (the rulebook's worked
 * examples built as positions with their exact move lists), start spaces,
 * winning, passing, draws, state and move text, render and the AI
 * hooks, for 2 to 6 players. Positions are written in the game's state text; cells are named by
 * row a (bottom tip) .. i (top tip) and number from the left.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pips/game.h"

typedef struct fixture {
    pips_game *g;
    unsigned char *s;
    pips_move *moves;
} fixture;

static fixture open_game(const char *players, const char *max_plies)
{
    fixture f;
    const char *kv[2];
    size_t n = 0;
    char a[64], b[64];
    if (players) {
        snprintf(a, sizeof a, "players=%s", players);
        kv[n++] = a;
    }
    if (max_plies) {
        snprintf(b, sizeof b, "max_plies=%s", max_plies);
        kv[n++] = b;
    }
    pips_error err;
    f.g = pips_game_new("icefrogs", kv, n, NULL, &err);
    if (!f.g)
        fail_msg("icefrogs: %s", err.msg);
    f.s = calloc(1, f.g->def->state_size);
    f.moves = calloc(pips_max_moves(f.g), sizeof *f.moves);
    f.g->def->initial(f.g, f.s);
    return f;
}

static void close_game(fixture *f)
{
    free(f->s);
    free(f->moves);
    pips_game_free(f->g);
}

static void load(fixture *f, const char *text)
{
    pips_error err;
    if (!f->g->def->state_from_text(f->g, text, f->s, &err))
        fail_msg("state '%s' rejected: %s", text, err.msg);
}

static int cmp_text(const void *a, const void *b) { return strcmp(a, b); }

/* The legal moves as texts, sorted and joined by spaces. */
static char *move_list(fixture *f)
{
    size_t n = f->g->def->legal_moves(f->g, f->s, f->moves);
    char(*t)[PIPS_MOVE_TEXT_MAX] = calloc(n ? n : 1, PIPS_MOVE_TEXT_MAX);
    for (size_t i = 0; i < n; i++)
        f->g->def->move_to_text(f->g, f->s, f->moves[i], t[i]);
    qsort(t, n, PIPS_MOVE_TEXT_MAX, cmp_text);
    char *out = calloc(n * PIPS_MOVE_TEXT_MAX + 1, 1);
    for (size_t i = 0; i < n; i++) {
        if (i)
            strcat(out, " ");
        strcat(out, t[i]);
    }
    free(t);
    return out;
}

/* Sorts a space-separated list of move texts the same way. */
static char *sorted(const char *list)
{
    char *copy = strdup(list), *words[800];
    size_t n = 0;
    for (char *w = strtok(copy, " "); w; w = strtok(NULL, " "))
        words[n++] = w;
    char(*t)[PIPS_MOVE_TEXT_MAX] = calloc(n ? n : 1, PIPS_MOVE_TEXT_MAX);
    for (size_t i = 0; i < n; i++)
        snprintf(t[i], PIPS_MOVE_TEXT_MAX, "%s", words[i]);
    qsort(t, n, PIPS_MOVE_TEXT_MAX, cmp_text);
    char *out = calloc(strlen(list) + 2, 1);
    for (size_t i = 0; i < n; i++) {
        if (i)
            strcat(out, " ");
        strcat(out, t[i]);
    }
    free(t);
    free(copy);
    return out;
}

static void expect_moves(fixture *f, const char *expected)
{
    char *got = move_list(f), *want = sorted(expected);
    if (strcmp(got, want))
        fail_msg("moves differ\n  got:  %s\n  want: %s", got, want);
    free(got);
    free(want);
}

static void play(fixture *f, const char *text)
{
    pips_error err;
    if (!pips_play_text(f->g, f->s, text, &err))
        fail_msg("move '%s' rejected: %s", text, err.msg);
}

/* The move must be rejected, with a message containing `why`. */
static void expect_illegal(fixture *f, const char *text, const char *why)
{
    pips_error err;
    size_t ss = f->g->def->state_size;
    unsigned char *before = malloc(ss);
    memcpy(before, f->s, ss);
    if (pips_play_text(f->g, f->s, text, &err))
        fail_msg("move '%s' was accepted", text);
    if (!strstr(err.msg, why))
        fail_msg("move '%s': message '%s' lacks '%s'", text, err.msg, why);
    assert_memory_equal(before, f->s, ss);
    free(before);
}

static char *state_text(fixture *f)
{
    pips_str t;
    pips_str_init(&t, NULL);
    f->g->def->state_to_text(f->g, f->s, &t);
    char *out = strdup(pips_str_cstr(&t));
    pips_str_free(&t);
    return out;
}

static void expect_state(fixture *f, const char *want)
{
    char *got = state_text(f);
    if (strcmp(got, want))
        fail_msg("state text '%s', want '%s'", got, want);
    free(got);
}

/* P1's entering moves while a1's neighbours b1 and b2 are empty. */
#define ENTER_B_LIST "S+b1 S+b2 M+b1 M+b2 L+b1 L+b2"

/* ---- ICF-R1, ICF-R2: the star, its names, the start spaces ---------------- */

static void test_r1_star_has_37_named_cells(void **st)
{
    (void)st;
    fixture f = open_game(NULL, NULL);
    static const char rows[] = "abcdefghi";
    static const int len[9] = {1, 2, 7, 6, 5, 6, 7, 2, 1};
    int cells = 0;
    for (int r = 0; r < 9; r++)
        for (int k = 1; k <= 9; k++) {
            /* A player 1 piece on every name: accepted on the 37 cells, except
             * on a1, player 1's own start (i1 reads as a won game). */
            char text[64];
            snprintf(text, sizeof text, "%c%d:1S ply=1 passes=0", rows[r], k);
            pips_error err;
            bool ok = f.g->def->state_from_text(f.g, text, f.s, &err);
            bool want = k <= len[r] && !(r == 0 && k == 1);
            if (ok != want)
                fail_msg("state '%s': %s", text, ok ? "accepted" : err.msg);
            cells += k <= len[r];
        }
    assert_int_equal(cells, 37);
    /* A piece in the middle (e3) has six neighbours; a tip (g1) has two. */
    load(&f, "e3:1S ply=0 passes=0");
    expect_moves(&f, "e3-d3 e3-d4 e3-e2 e3-e4 e3-f3 e3-f4 " ENTER_B_LIST);
    load(&f, "g1:1S ply=0 passes=0");
    expect_moves(&f, "g1-f1 g1-g2 " ENTER_B_LIST);
    close_game(&f);
}

static void test_r2_start_spaces(void **st)
{
    (void)st;
    /* Two players: a1 and i1. From the start each enters next to a1 / i1. */
    fixture f = open_game("2", NULL);
    expect_moves(&f, ENTER_B_LIST);
    play(&f, "S+b1");
    expect_moves(&f, "S+h1 S+h2 M+h1 M+h2 L+h1 L+h2");
    close_game(&f);
    /* Three players: a1, g1, g7. */
    f = open_game("3", NULL);
    expect_moves(&f, ENTER_B_LIST);
    play(&f, "L+b2");
    expect_moves(&f, "S+f1 S+g2 M+f1 M+g2 L+f1 L+g2");
    play(&f, "M+g2");
    expect_moves(&f, "S+f6 S+g6 M+f6 M+g6 L+f6 L+g6");
    close_game(&f);
}

/* ---- ICF-R3: entering, supply, own start space ------------------------------ */

static void test_r3_enter_and_own_start(void **st)
{
    (void)st;
    fixture f = open_game(NULL, NULL);
    /* A medium on b1: it may not step back onto a1; entering pieces step onto
     * it or jump it according to size. */
    load(&f, "b1:1M ply=0 passes=0");
    expect_moves(&f, "b1-b2 b1-c3 b1-c4 S+b1 S+b2 M+b1 M+b2 M+c3 L+b2 L+c3");
    expect_illegal(&f, "b1-a1", "ICF-R3");
    /* An entered piece must move: it cannot stay on a1. */
    expect_illegal(&f, "S+a1", "ICF-R3");
    /* Supply: with no small left, no S+ moves. */
    load(&f, "c1:1S1S1S1S1S ply=0 passes=0");
    expect_moves(&f, "c1-c2 c1-d1 M+b1 M+b2 L+b1 L+b2");
    expect_illegal(&f, "S+b1", "supply");
    /* Only the top piece of a stack moves, and only its owner's. */
    load(&f, "e3:1L2M ply=0 passes=0");
    expect_illegal(&f, "e3-e4", "player 2's");
    close_game(&f);
}

/* ---- ICF-R4: steps (the rulebook's first example) -------------------------- */

static void test_r4_rulebook_purple_stacks_on_large_blue_or_medium_purple(void **st)
{
    (void)st;
    fixture f = open_game(NULL, NULL);
    /* Purple (P1) medium on e3; large blue on e4, medium purple on f4, small
     * blue on d3. It may step to the empty cells, onto the large blue or the
     * medium purple, but not onto the small blue; it may also jump the small
     * blue (to c3) or the medium purple (to g5), not the large blue. */
    load(&f, "d3:2S e3:1M e4:2L f4:1M ply=2 passes=0");
    expect_moves(&f, "e3-c3 e3-d4 e3-e2 e3-e4 e3-f3 e3-f4 e3-g5 "
                     "f4-e3 f4-e4 f4-f3 f4-f5 f4-g4 f4-g5 " /* the medium purple */
                     ENTER_B_LIST);
    expect_illegal(&f, "e3-d3", "ICF-R4");
    close_game(&f);
}

/* ---- ICF-R5: jumps (the rulebook's worked examples) ------------------------ */

static void test_r5_rulebook_small_purple_jumps_stack_not_medium(void **st)
{
    (void)st;
    fixture f = open_game(NULL, NULL);
    /* A small purple on e3, a medium blue to its right (e4), a stack topped by
     * a small on its left (e2). It may jump the stack (to e1), not the medium. */
    load(&f, "e2:2L2S e3:1S e4:2M ply=2 passes=0");
    expect_moves(&f, "e3-d3 e3-d4 e3-e1 e3-e2 e3-e4 e3-f3 e3-f4 S+b1 S+b2 M+b1 M+b2 L+b1 L+b2");
    expect_illegal(&f, "e3-e5", "ICF-R5");
    close_game(&f);
}

/* Row g: the blue (P2) medium on g1 jumps the small purple (g2), the medium
 * blue (g4) and the stack topped by a medium purple (g6), and may stop on any
 * landing (g3, g5, g7) or step from a landing onto g4 or g6. */
static const char CHAIN[] = "g1:2M g2:1S g4:2M g6:1L1M";
static const char P2_EXTRA[] = "g4-f3 g4-f4 g4-g3 g4-g5 g4-h1 g4-h2 "
                               "S+h1 S+h2 M+h1 M+h2 L+h1 L+h2";

static void test_r5_rulebook_blue_chain_stops_where_it_likes(void **st)
{
    (void)st;
    fixture f = open_game(NULL, NULL);
    char text[256], want[512];
    snprintf(text, sizeof text, "%s ply=1 passes=0", CHAIN);
    load(&f, text);
    snprintf(want, sizeof want, "g1-f1 g1-g3 g1-g4 g1-g5 g1-g6 g1-g7 %s", P2_EXTRA);
    expect_moves(&f, want);
    /* Stopping part way ends the move there. */
    play(&f, "g1-g5");
    expect_state(&f, "g2:1S g4:2M g5:2M g6:1L1M ply=2 passes=0");
    close_game(&f);
}

static void test_r5_rulebook_small_on_last_landing_blocks_last_jump(void **st)
{
    (void)st;
    fixture f = open_game(NULL, NULL);
    char text[256], want[512];
    snprintf(text, sizeof text, "%s g7:1S ply=1 passes=0", CHAIN);
    load(&f, text);
    snprintf(want, sizeof want, "g1-f1 g1-g3 g1-g4 g1-g5 g1-g6 %s", P2_EXTRA);
    expect_moves(&f, want);
    expect_illegal(&f, "g1-g7", "ICF-R5");
    close_game(&f);
}

static void test_r5_rulebook_large_on_last_landing_ends_the_chain(void **st)
{
    (void)st;
    fixture f = open_game(NULL, NULL);
    char text[256], want[512];
    /* A large on g7 and a medium blue beyond it (f6): the blue lands on the
     * large and stops; it cannot go on over f6 to e5. */
    snprintf(text, sizeof text, "%s f6:2M g7:1L ply=1 passes=0", CHAIN);
    load(&f, text);
    snprintf(want, sizeof want, "g1-f1 g1-g3 g1-g4 g1-g5 g1-g6 g1-g7 f6-e5 f6-f5 f6-g6 f6-g7 %s",
             P2_EXTRA);
    expect_moves(&f, want);
    expect_illegal(&f, "g1-e5", "ICF-R5");
    play(&f, "g1-g7");
    expect_state(&f, "f6:2M g2:1S g4:2M g6:1L1M g7:1L2M ply=2 passes=0");
    close_game(&f);
}

static void test_r5_no_plain_step_after_jump_and_final_step(void **st)
{
    (void)st;
    fixture f = open_game(NULL, NULL);
    /* P1 small on e3 jumps the small on e4 to e5. From e5 it may not step on to
     * the empty d5/d6/f5/f6, but may make a final step onto an occupied cell
     * (f6 holds a large). Blocked landing: a small can't jump the medium. */
    load(&f, "e3:1S e4:2S f6:2L ply=0 passes=0");
    expect_moves(&f, "e3-d3 e3-d4 e3-e2 e3-e4 e3-e5 e3-f3 e3-f4 e3-f6 " ENTER_B_LIST);
    expect_illegal(&f, "e3-d5", "ICF-R5");
    close_game(&f);
}

/* ---- ICF-R6: start spaces during a chain ------------------------------------ */

static void test_r6_chain_passes_own_start_space(void **st)
{
    (void)st;
    fixture f = open_game(NULL, NULL);
    /* P1 small on c3 jumps b1 onto a1 (its own start) and on over b2 to c5. */
    load(&f, "b1:2S b2:2S c3:1S ply=0 passes=0");
    expect_moves(&f, "c3-b1 c3-b2 c3-c2 c3-c4 c3-c5 c3-d2 c3-d3 "
                     "S+b1 S+b2 S+c3 S+c5 M+c5 L+c5");
    expect_illegal(&f, "c3-a1", "ICF-R3");
    close_game(&f);
}

static void test_r6_chain_passes_opponent_start_space(void **st)
{
    (void)st;
    fixture f = open_game(NULL, NULL);
    /* P1 small on g3 jumps h1 onto i1 (P2's start) and may go on over h2 to g5
     * (no win) or stop on i1 (a win, ICF-R8). */
    load(&f, "g3:1S h1:2S h2:2S ply=0 passes=0");
    char *list = move_list(&f);
    assert_non_null(strstr(list, "g3-i1"));
    assert_non_null(strstr(list, "g3-g5"));
    free(list);
    play(&f, "g3-g5");
    assert_int_equal(pips_to_move(f.g, f.s), 1);
    load(&f, "g3:1S h1:2S h2:2S ply=0 passes=0");
    play(&f, "g3-i1");
    assert_int_equal(pips_to_move(f.g, f.s), PIPS_OVER);
    close_game(&f);
}

/* ---- ICF-R7: a move is where it ends ---------------------------------------- */

static void test_r7_each_final_cell_once_with_loops(void **st)
{
    (void)st;
    fixture f = open_game(NULL, NULL);
    /* A large on c3 next to a ring of smalls and mediums around the empty
     * e3: chains run c3 -> e3 -> (c3, c5, e1, e5, g3, g5) and loop back
     * through e3 and c3.
     * Each final cell appears once; c3 (where it began) is not a move. */
    load(&f, "c3:1L d3:2S d4:2S e2:2S e4:2M f3:2M f4:2M ply=0 passes=0");
    expect_moves(&f, "c3-b1 c3-c2 c3-c4 c3-d2 c3-e3 c3-c5 c3-e1 c3-e5 c3-g3 c3-g5 " ENTER_B_LIST);
    close_game(&f);
}

static void test_r7_back_to_origin_is_not_a_move(void **st)
{
    (void)st;
    fixture f = open_game(NULL, NULL);
    /* The small on top of e3 jumps e4 to e5 and could jump back onto its own
     * stack at e3: that ends where it began, so it is no move. */
    load(&f, "e3:2L1S e4:2S ply=0 passes=0");
    expect_moves(&f, "e3-d3 e3-d4 e3-e2 e3-e4 e3-e5 e3-f3 e3-f4 " ENTER_B_LIST);
    expect_illegal(&f, "e3-e3", "ICF-R7");
    close_game(&f);
}

/* ---- ICF-R8: winning ---------------------------------------------------------- */

static void test_r8_win_on_opponent_start(void **st)
{
    (void)st;
    fixture f = open_game(NULL, NULL);
    load(&f, "h1:1L ply=0 passes=0");
    play(&f, "h1-i1");
    assert_int_equal(pips_to_move(f.g, f.s), PIPS_OVER);
    double ret[3];
    f.g->def->returns(f.g, f.s, ret);
    assert_true(ret[0] == 1.0 && ret[1] == 0.0);
    pips_str t;
    pips_str_init(&t, NULL);
    f.g->def->result_text(f.g, f.s, &t);
    assert_string_equal(pips_str_cstr(&t), "player 1 wins");
    pips_str_free(&t);
    /* The won position round-trips through its state text. */
    char *text = state_text(&f);
    assert_string_equal(text, "i1:1L ply=1 passes=0");
    unsigned char *copy = malloc(f.g->def->state_size);
    memcpy(copy, f.s, f.g->def->state_size);
    load(&f, text);
    assert_memory_equal(copy, f.s, f.g->def->state_size);
    free(copy);
    free(text);
    close_game(&f);
    /* Three players: either opponent's start (g1, g7) wins; the free tip i1
     * is an ordinary cell. */
    static const char *const to[3] = {"f1-g1", "f6-g7", "h1-i1"};
    for (int k = 0; k < 3; k++) {
        f = open_game("3", NULL);
        load(&f, "f1:1S f6:1S h1:1S ply=3 passes=0");
        play(&f, to[k]);
        assert_int_equal(pips_to_move(f.g, f.s), k < 2 ? PIPS_OVER : 1);
        if (k < 2) {
            f.g->def->returns(f.g, f.s, ret);
            assert_true(ret[0] == 1.0 && ret[1] == 0.0 && ret[2] == 0.0);
        }
        close_game(&f);
    }
}

/* ---- ICF-R9: passing and draws ------------------------------------------------ */

/* Player 1's fifteen pieces buried under a player 2 small: no move, no supply. */
static const char BURIED[] = "c1:1L1L1L1L1L1M1M1M1M1M1S1S1S1S1S2S";

static void test_r9_forced_pass(void **st)
{
    (void)st;
    fixture f = open_game(NULL, NULL);
    expect_illegal(&f, "pass", "ICF-R9"); /* not while a move exists */
    char text[128];
    snprintf(text, sizeof text, "%s ply=0 passes=0", BURIED);
    load(&f, text);
    expect_moves(&f, "pass");
    play(&f, "pass");
    assert_int_equal(pips_to_move(f.g, f.s), 1);
    char *got = state_text(&f);
    snprintf(text, sizeof text, "%s ply=1 passes=1", BURIED);
    assert_string_equal(got, text);
    free(got);
    /* Player 2 moves: the run of passes is broken. */
    play(&f, "c1-c2");
    got = state_text(&f);
    assert_string_equal(got, "c1:1L1L1L1L1L1M1M1M1M1M1S1S1S1S1S c2:2S ply=2 passes=0");
    free(got);
    close_game(&f);
}

static void test_r9_all_pass_draw(void **st)
{
    (void)st;
    /* Every player passing in succession is a draw. (In play it cannot
     * happen: a small on top of a stack or in supply can always move, and
     * some player's small always is; so the draw is checked on the state.) */
    fixture f = open_game(NULL, NULL);
    char text[128];
    snprintf(text, sizeof text, "%s ply=7 passes=2", BURIED);
    load(&f, text);
    assert_int_equal(pips_to_move(f.g, f.s), PIPS_OVER);
    double ret[3];
    f.g->def->returns(f.g, f.s, ret);
    assert_true(ret[0] == 0.5 && ret[1] == 0.5);
    pips_str t;
    pips_str_init(&t, NULL);
    f.g->def->result_text(f.g, f.s, &t);
    assert_string_equal(pips_str_cstr(&t), "draw (every player passed)");
    pips_str_free(&t);
    close_game(&f);
    /* Three players: two passes are not yet a draw. */
    f = open_game("3", NULL);
    load(&f, "e3:3S ply=5 passes=2");
    assert_int_equal(pips_to_move(f.g, f.s), 2);
    close_game(&f);
}

static void test_r9_max_plies_draw(void **st)
{
    (void)st;
    fixture f = open_game(NULL, "4");
    play(&f, "S+b1");
    play(&f, "S+h1");
    play(&f, "b1-c3");
    assert_int_equal(pips_to_move(f.g, f.s), 1);
    play(&f, "h1-g3");
    assert_int_equal(pips_to_move(f.g, f.s), PIPS_OVER);
    double ret[3];
    f.g->def->returns(f.g, f.s, ret);
    assert_true(ret[0] == 0.5 && ret[1] == 0.5);
    pips_str t;
    pips_str_init(&t, NULL);
    f.g->def->result_text(f.g, f.s, &t);
    assert_string_equal(pips_str_cstr(&t), "draw (move limit)");
    pips_str_free(&t);
    close_game(&f);
    /* A win on the last allowed move is still a win. */
    f = open_game(NULL, "1");
    load(&f, "h1:1L ply=0 passes=0");
    play(&f, "h1-i1");
    f.g->def->returns(f.g, f.s, ret);
    assert_true(ret[0] == 1.0 && ret[1] == 0.0);
    close_game(&f);
}

static void test_options(void **st)
{
    (void)st;
    static const char *const bad[] = {"players=1", "players=7", "players=x", "max_plies=0",
                                      "max_plies=10001", "max_plies=3x", "max_plies=Auto"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pips_error err;
        pips_game *g = pips_game_new("icefrogs", &bad[i], 1, NULL, &err);
        if (g)
            fail_msg("option %s accepted", bad[i]);
        assert_non_null(strstr(err.msg, strchr(bad[i], '=') + 1));
    }
    fixture f = open_game("3", "10000");
    assert_int_equal(pips_num_players(f.g), 3);
    close_game(&f);
}

/* Perft counts are data: tests/perft/icefrogs.txt (test_perft.c). */

/* ICF-R10: the seats take the tips T0..T5 = a1 c1 g1 i1 g7 c7 by player
 * count; each seat enters onto the two cells next to its own tip. */
static void test_r10_start_tips_by_player_count(void **st)
{
    (void)st;
    static const char *const NEXT_TO[6] = {"b1 b2", "c2 d1", "f1 g2", "h1 h2", "f6 g6", "c6 d6"};
    static const int TIPS[7][6] = {
        [2] = {0, 3}, [3] = {0, 2, 4}, [4] = {0, 1, 3, 4}, [5] = {0, 1, 2, 3, 4},
        [6] = {0, 1, 2, 3, 4, 5},
    };
    for (int n = 2; n <= 6; n++) {
        char players[2] = {(char)('0' + n), 0};
        fixture f = open_game(players, NULL);
        assert_int_equal(pips_num_players(f.g), n);
        for (int seat = 0; seat < n; seat++) {
            char text[64], want[64];
            snprintf(text, sizeof text, "- ply=%d passes=0", seat);
            load(&f, text);
            assert_int_equal(pips_to_move(f.g, f.s), seat);
            const char *cells = NEXT_TO[TIPS[n][seat]];
            snprintf(want, sizeof want, "S+%.2s S+%.2s M+%.2s M+%.2s L+%.2s L+%.2s", cells,
                     cells + 3, cells, cells + 3, cells, cells + 3);
            expect_moves(&f, want);
        }
        close_game(&f);
    }
}

/* ICF-R11: with four players a move onto any opponent's tip wins at once
 * (the mover 1, everyone else 0); the unused tips g1 and c7 are ordinary
 * cells. The default move limit is 150 x players. */
static void test_r11_more_players_win_and_limit(void **st)
{
    (void)st;
    /* seat 3 (i1) to move; its pieces next to a1, c1, g7, and g1, c7 */
    static const char *const to[5] = {"b1-a1", "c2-c1", "f6-g7", "f1-g1", "d6-c7"};
    for (int k = 0; k < 5; k++) {
        fixture f = open_game("4", NULL);
        load(&f, "b1:3S c2:3S d6:3S f1:3S f6:3S ply=2 passes=0");
        assert_int_equal(pips_to_move(f.g, f.s), 2);
        play(&f, to[k]);
        if (k < 3) {
            assert_int_equal(pips_to_move(f.g, f.s), PIPS_OVER);
            double ret[4];
            f.g->def->returns(f.g, f.s, ret);
            assert_true(ret[0] == 0.0 && ret[1] == 0.0 && ret[2] == 1.0 && ret[3] == 0.0);
            pips_str t;
            pips_str_init(&t, NULL);
            f.g->def->result_text(f.g, f.s, &t);
            assert_string_equal(pips_str_cstr(&t), "player 3 wins");
            pips_str_free(&t);
        } else {
            assert_int_equal(pips_to_move(f.g, f.s), 3);
        }
        close_game(&f);
    }
    for (int n = 2; n <= 6; n++) {
        char players[2] = {(char)('0' + n), 0}, text[64];
        fixture f = open_game(players, NULL);
        snprintf(text, sizeof text, "- ply=%d passes=0", 150 * n);
        load(&f, text);
        assert_int_equal(pips_to_move(f.g, f.s), PIPS_OVER);
        snprintf(text, sizeof text, "- ply=%d passes=0", 150 * n + 1);
        pips_error err;
        assert_false(f.g->def->state_from_text(f.g, text, f.s, &err));
        assert_non_null(strstr(err.msg, "ply must be"));
        close_game(&f);
    }
    /* an explicit max_plies still wins over the default */
    fixture f = open_game("6", "50");
    load(&f, "- ply=50 passes=0");
    assert_int_equal(pips_to_move(f.g, f.s), PIPS_OVER);
    close_game(&f);
}

/* ---- state text, move text, hash, render, AI hooks ----------------------------- */

static void test_state_text(void **st)
{
    (void)st;
    fixture f = open_game(NULL, NULL);
    char *t = state_text(&f);
    assert_string_equal(t, "- ply=0 passes=0");
    free(t);
    /* Cells may come in any order; the text written back is in name order. */
    load(&f, "  e3:1L2M2S b1:2S ply=12 passes=1 ");
    t = state_text(&f);
    assert_string_equal(t, "b1:2S e3:1L2M2S ply=12 passes=1");
    free(t);
    static const char *const bad[][2] = {
        {"z9:1S ply=0 passes=0", "expected CELL"},
        {"c8:1S ply=0 passes=0", "expected CELL"},
        {"e3:1S e3:2S ply=0 passes=0", "twice"},
        {"e3:1S1M ply=0 passes=0", "ICF-R4"},
        {"e3:3S ply=0 passes=0", "player 1..2"},
        {"e3:1S1S1S d3:1S1S1S ply=0 passes=0", "more than 5"},
        {"e3:1S passes=0", "required"},
        {"e3:1S ply=0 passes=0 ply=2", "given once"},
        {"a1:1S ply=0 passes=0", "ICF-R3"},
        {"i1:1S ply=2 passes=0", "ICF-R8"},
        {"- e3:1S ply=0 passes=0", "empty board"},
        {"e3: ply=0 passes=0", "no pieces"},
        {"e3:1S ply=301 passes=0", "ply must be"},
    };
    unsigned char *before = malloc(f.g->def->state_size);
    memcpy(before, f.s, f.g->def->state_size);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pips_error err;
        if (f.g->def->state_from_text(f.g, bad[i][0], f.s, &err))
            fail_msg("state '%s' accepted", bad[i][0]);
        if (!strstr(err.msg, bad[i][1]))
            fail_msg("state '%s': message '%s' lacks '%s'", bad[i][0], err.msg, bad[i][1]);
        assert_memory_equal(before, f.s, f.g->def->state_size);
    }
    free(before);
    close_game(&f);
}

static void test_move_text(void **st)
{
    (void)st;
    fixture f = open_game(NULL, NULL);
    pips_move m;
    pips_error err;
    char buf[PIPS_MOVE_TEXT_MAX];
    assert_true(f.g->def->move_from_text(f.g, f.s, " m+B1 ", &m, &err));
    f.g->def->move_to_text(f.g, f.s, m, buf);
    assert_string_equal(buf, "M+b1");
    assert_true(f.g->def->move_from_text(f.g, f.s, "C3-f6", &m, &err));
    f.g->def->move_to_text(f.g, f.s, m, buf);
    assert_string_equal(buf, "c3-f6");
    assert_true(f.g->def->move_from_text(f.g, f.s, "pass", &m, &err));
    f.g->def->move_to_text(f.g, f.s, m, buf);
    assert_string_equal(buf, "pass");
    static const char *const bad[] = {"X+b1", "c3f6", "c8-d1", "j1-a1", "M+", "M+b3", "c3-d1x",
                                      "", "passs"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (f.g->def->move_from_text(f.g, f.s, bad[i], &m, &err))
            fail_msg("move text '%s' accepted", bad[i]);
    /* Well-formed but illegal: a board move from an empty cell. */
    expect_illegal(&f, "c3-c4", "empty");
    close_game(&f);
}

static void test_hash(void **st)
{
    (void)st;
    fixture f = open_game(NULL, NULL);
    uint64_t h0 = f.g->def->hash(f.g, f.s);
    play(&f, "S+b1");
    uint64_t h1 = f.g->def->hash(f.g, f.s);
    assert_true(h0 != h1);
    load(&f, "b1:1S ply=1 passes=0");
    assert_true(f.g->def->hash(f.g, f.s) == h1);
    load(&f, "b1:1S ply=2 passes=0"); /* same board, other player to move */
    assert_true(f.g->def->hash(f.g, f.s) != h1);
    load(&f, "b1:1S1S ply=2 passes=0"); /* height matters */
    uint64_t h2 = f.g->def->hash(f.g, f.s);
    load(&f, "b1:1S b2:1S ply=2 passes=0");
    assert_true(f.g->def->hash(f.g, f.s) != h2);
    close_game(&f);
}

static void test_render(void **st)
{
    (void)st;
    fixture f = open_game(NULL, NULL);
    load(&f, "c4:1M1M1S e3:2L ply=2 passes=0");
    pips_str t;
    pips_str_init(&t, NULL);
    pips_render_opts plain = {false, false}, fancy = {true, true};
    f.g->def->render(f.g, f.s, &plain, &t);
    const char *txt = pips_str_cstr(&t);
    for (const char *p = txt; *p; p++)
        assert_true((unsigned char)*p < 0x80 && *p != '\033');
    assert_non_null(strstr(txt, "[a1]"));
    assert_non_null(strstr(txt, "[i1]"));
    assert_non_null(strstr(txt, " g7 "));
    assert_non_null(strstr(txt, "1S/3")); /* top of c4, height 3 */
    assert_non_null(strstr(txt, "2L"));
    assert_non_null(strstr(txt, "c4: 1M 1M 1S"));
    assert_non_null(strstr(txt, "player 1 to move"));
    assert_true(txt[t.len - 1] == '\n');
    pips_str_clear(&t);
    f.g->def->render(f.g, f.s, &fancy, &t);
    assert_non_null(strstr(pips_str_cstr(&t), "\033["));
    assert_non_null(strstr(pips_str_cstr(&t), "·"));
    pips_str_free(&t);
    close_game(&f);
    f = open_game("3", NULL);
    pips_str_init(&t, NULL);
    f.g->def->render(f.g, f.s, &plain, &t);
    assert_non_null(strstr(pips_str_cstr(&t), "[g1]"));
    assert_non_null(strstr(pips_str_cstr(&t), "[g7]"));
    assert_null(strstr(pips_str_cstr(&t), "[i1]"));
    pips_str_free(&t);
    close_game(&f);
    /* ICF-R10: four players mark a1 c1 i1 g7 (not g1, c7); six mark every
     * tip, each seat with its own colour, and list six supplies. */
    f = open_game("4", NULL);
    pips_str_init(&t, NULL);
    f.g->def->render(f.g, f.s, &plain, &t);
    txt = pips_str_cstr(&t);
    assert_non_null(strstr(txt, "[c1]"));
    assert_non_null(strstr(txt, "[g7]"));
    assert_null(strstr(txt, "[g1]"));
    assert_null(strstr(txt, "[c7]"));
    assert_non_null(strstr(txt, "ply 0/600"));
    pips_str_free(&t);
    close_game(&f);
    f = open_game("6", NULL);
    load(&f, "c6:6L ply=5 passes=0");
    pips_str_init(&t, NULL);
    f.g->def->render(f.g, f.s, &fancy, &t);
    txt = pips_str_cstr(&t);
    assert_non_null(strstr(txt, "P6 S5 M5 L4"));
    assert_non_null(strstr(txt, "player 6 to move"));
    assert_non_null(strstr(txt, "\033[1;36m[c7]")); /* seat 6's colour */
    assert_non_null(strstr(txt, "\033[1;36m 6L "));
    pips_str_free(&t);
    close_game(&f);
}

static void test_ai_hooks(void **st)
{
    (void)st;
    fixture f = open_game(NULL, NULL);
    /* Player 1 one step from i1: the winning move is ordered first and the
     * evaluation favours player 1. */
    load(&f, "h1:1L c3:2S ply=0 passes=0");
    size_t n = f.g->def->legal_moves(f.g, f.s, f.moves);
    int scores[800];
    f.g->def->order_moves(f.g, f.s, f.moves, n, scores);
    size_t best = 0;
    for (size_t i = 1; i < n; i++)
        if (scores[i] > scores[best])
            best = i;
    char buf[PIPS_MOVE_TEXT_MAX];
    f.g->def->move_to_text(f.g, f.s, f.moves[best], buf);
    assert_string_equal(buf, "h1-i1");
    double v[3];
    f.g->def->evaluate(f.g, f.s, v);
    assert_true(v[0] > 0.5 && v[0] <= 1.0 && v[1] >= 0.0 && v[1] < 0.5);
    close_game(&f);
}

/* ---- random games: check_move agrees with legal_moves; 3-player round trips ---- */

/* Every (source, final cell) pair in some positions of random games: a move
 * passes check_move exactly when legal_moves lists it (ICF-R3..R7); state and
 * move texts round-trip. Covers three players, which the generic invariant
 * test (default options) does not. */
static void random_games(const char *players, int games)
{
    fixture f = open_game(players, "120");
    const pips_game_def *d = f.g->def;
    size_t ss = d->state_size;
    unsigned char *back = malloc(ss);
    pips_str text;
    pips_str_init(&text, NULL);
    pips_rng rng;
    pips_rng_seed(&rng, 2024);
    static const char letters[] = "abcdefghi";
    static const int len[9] = {1, 2, 7, 6, 5, 6, 7, 2, 1};
    char names[37][4];
    int k = 0;
    for (int r = 0; r < 9; r++)
        for (int c = 1; c <= len[r]; c++) {
            names[k][0] = letters[r];
            names[k][1] = (char)('0' + c);
            names[k][2] = '\0';
            k++;
        }
    for (int game = 0; game < games; game++) {
        d->initial(f.g, f.s);
        for (int ply = 0; d->to_move(f.g, f.s) != PIPS_OVER; ply++) {
            pips_str_clear(&text);
            d->state_to_text(f.g, f.s, &text);
            pips_error err;
            if (!d->state_from_text(f.g, pips_str_cstr(&text), back, &err))
                fail_msg("state '%s' rejected: %s", pips_str_cstr(&text), err.msg);
            assert_memory_equal(back, f.s, ss);
            size_t n = d->legal_moves(f.g, f.s, f.moves);
            if (ply % 7 == 3) {
                /* All 40 sources x 37 final cells, by their texts. */
                for (int src = 0; src < 40; src++)
                    for (int dst = 0; dst < 37; dst++) {
                        char mt[32];
                        if (src < 37)
                            snprintf(mt, sizeof mt, "%.3s-%.3s", names[src], names[dst]);
                        else
                            snprintf(mt, sizeof mt, "%c+%.3s", "SML"[src - 37], names[dst]);
                        pips_move m;
                        if (!d->move_from_text(f.g, f.s, mt, &m, &err))
                            fail_msg("move text '%s' rejected: %s", mt, err.msg);
                        bool listed = false;
                        for (size_t i = 0; i < n; i++)
                            listed |= f.moves[i] == m;
                        bool ok = pips_check_move(f.g, f.s, m, &err);
                        if (ok != listed)
                            fail_msg("state '%s': move %s %s by check_move but %s",
                                     pips_str_cstr(&text), mt, ok ? "accepted" : "refused",
                                     listed ? "listed" : "not listed");
                    }
            }
            d->apply(f.g, f.s, f.moves[pips_rng_below(&rng, n)]);
        }
    }
    pips_str_free(&text);
    free(back);
    close_game(&f);
}

static void test_r3_r7_check_move_agrees_two_players(void **st)
{
    (void)st;
    random_games("2", 40);
}

static void test_r3_r7_check_move_agrees_three_players(void **st)
{
    (void)st;
    random_games("3", 40);
}

static void test_r3_r7_check_move_agrees_four_to_six_players(void **st)
{
    (void)st;
    random_games("4", 15);
    random_games("5", 15);
    random_games("6", 15);
}

/* ---- symmetry ------------------------------------------------------------------ */

/* The state text with every cell reflected left-right (ICF-R1: the same row,
 * numbered from the other end). */
static void mirror_text(const char *in, char *out, size_t cap)
{
    static const int len[9] = {1, 2, 7, 6, 5, 6, 7, 2, 1};
    size_t k = 0;
    for (const char *p = in; *p && k + 1 < cap; p++) {
        bool at_cell = (p == in || p[-1] == ' ') && *p >= 'a' && *p <= 'i' && p[1] >= '1' &&
                       p[1] <= '9' && p[2] == ':';
        out[k++] = *p;
        if (at_cell) {
            out[k++] = (char)('0' + len[*p - 'a'] + 1 - (p[1] - '0'));
            p++;
        }
    }
    out[k] = '\0';
}

/* Stacks of three or more keep their lower pieces apart from the top two;
 * moving pieces off and onto tall stacks must give the same bytes as
 * reading the resulting position from text (equal positions, equal bytes). */
static void test_tall_stacks_move_exactly(void **st)
{
    (void)st;
    fixture f = open_game(NULL, NULL);
    const pips_game_def *d = f.g->def;
    load(&f, "b1:1L2L1L c2:1L2L1M2M1S c3:2L1L2M d1:2L1M2M1S ply=4 passes=0");
    play(&f, "c2-c3"); /* ICF-R4: the small steps onto the medium */
    expect_state(&f, "b1:1L2L1L c2:1L2L1M2M c3:2L1L2M1S d1:2L1M2M1S ply=5 passes=0");
    play(&f, "c2-c1");
    const char *after = "b1:1L2L1L c1:2M c2:1L2L1M c3:2L1L2M1S d1:2L1M2M1S ply=6 passes=0";
    expect_state(&f, after);
    unsigned char *fresh = malloc(d->state_size);
    pips_error err;
    assert_true(d->state_from_text(f.g, after, fresh, &err));
    assert_memory_equal(fresh, f.s, d->state_size);
    assert_true(d->hash(f.g, fresh) == d->hash(f.g, f.s));
    free(fresh);
    close_game(&f);
}

static void test_canonical_mirror(void **st)
{
    (void)st;
    fixture f = open_game(NULL, NULL);
    const pips_game_def *d = f.g->def;
    size_t ss = d->state_size;
    unsigned char *m = malloc(ss), *c1 = malloc(ss), *c2 = malloc(ss), *c3 = malloc(ss);
    pips_rng rng;
    pips_rng_seed(&rng, 99);
    pips_str text;
    pips_str_init(&text, NULL);
    int differed = 0;
    for (int game = 0; game < 20; game++) {
        d->initial(f.g, f.s);
        for (int ply = 0; d->to_move(f.g, f.s) != PIPS_OVER && ply < 60; ply++) {
            pips_str_clear(&text);
            d->state_to_text(f.g, f.s, &text);
            char mirrored[1024];
            mirror_text(pips_str_cstr(&text), mirrored, sizeof mirrored);
            pips_error err;
            if (!d->state_from_text(f.g, mirrored, m, &err))
                fail_msg("mirror '%s' rejected: %s", mirrored, err.msg);
            differed += memcmp(m, f.s, ss) != 0;
            d->canonical(f.g, f.s, c1);
            d->canonical(f.g, m, c2);
            assert_memory_equal(c1, c2, ss);
            d->canonical(f.g, c1, c3);
            assert_memory_equal(c1, c3, ss);
            assert_true(pips_perft(f.g, c1, 2) == pips_perft(f.g, f.s, 2));
            assert_true(pips_perft(f.g, m, 2) == pips_perft(f.g, f.s, 2));
            size_t n = d->legal_moves(f.g, f.s, f.moves);
            d->apply(f.g, f.s, f.moves[pips_rng_below(&rng, n)]);
        }
    }
    assert_true(differed > 0);
    pips_str_free(&text);
    free(m);
    free(c1);
    free(c2);
    free(c3);
    close_game(&f);
    /* Three players: the identity. */
    f = open_game("3", NULL);
    load(&f, "c3:1S g2:2M ply=2 passes=0");
    c1 = malloc(f.g->def->state_size);
    f.g->def->canonical(f.g, f.s, c1);
    assert_memory_equal(c1, f.s, f.g->def->state_size);
    free(c1);
    close_game(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_r1_star_has_37_named_cells),
        cmocka_unit_test(test_r2_start_spaces),
        cmocka_unit_test(test_r3_enter_and_own_start),
        cmocka_unit_test(test_r4_rulebook_purple_stacks_on_large_blue_or_medium_purple),
        cmocka_unit_test(test_r5_rulebook_small_purple_jumps_stack_not_medium),
        cmocka_unit_test(test_r5_rulebook_blue_chain_stops_where_it_likes),
        cmocka_unit_test(test_r5_rulebook_small_on_last_landing_blocks_last_jump),
        cmocka_unit_test(test_r5_rulebook_large_on_last_landing_ends_the_chain),
        cmocka_unit_test(test_r5_no_plain_step_after_jump_and_final_step),
        cmocka_unit_test(test_r6_chain_passes_own_start_space),
        cmocka_unit_test(test_r6_chain_passes_opponent_start_space),
        cmocka_unit_test(test_r7_each_final_cell_once_with_loops),
        cmocka_unit_test(test_r7_back_to_origin_is_not_a_move),
        cmocka_unit_test(test_r8_win_on_opponent_start),
        cmocka_unit_test(test_r9_forced_pass),
        cmocka_unit_test(test_r9_all_pass_draw),
        cmocka_unit_test(test_r9_max_plies_draw),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_r10_start_tips_by_player_count),
        cmocka_unit_test(test_r11_more_players_win_and_limit),
        cmocka_unit_test(test_state_text),
        cmocka_unit_test(test_move_text),
        cmocka_unit_test(test_hash),
        cmocka_unit_test(test_render),
        cmocka_unit_test(test_ai_hooks),
        cmocka_unit_test(test_r3_r7_check_move_agrees_two_players),
        cmocka_unit_test(test_r3_r7_check_move_agrees_three_players),
        cmocka_unit_test(test_r3_r7_check_move_agrees_four_to_six_players),
        cmocka_unit_test(test_tall_stacks_move_exactly),
        cmocka_unit_test(test_canonical_mirror),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
