/*
 * test_tictacdoh.c — Tic Tac Doh! against its rulings TTD-R1..R10, the
 * rulebook's stacking examples, perft counts, an independent move generator,
 * the exact solution, the random_move playout shortcut (uniform over the
 * legal list), and the experimental 3-4 players and 2-3 stashes.
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
#include "core/unchecked.h"
#include "games/tictacdoh/tictacdoh_lines.h"

static pips_game *ttd(void)
{
    pips_error err;
    pips_game *g = pips_game_new("tictacdoh", NULL, 0, NULL, &err);
    assert_non_null(g);
    return g;
}

/* Plays space-separated moves from the start; fails the test on a bad one. */
static void *play(const pips_game *g, const char *moves)
{
    void *s = pips_state_new(g, NULL);
    g->def->initial(g, s);
    char buf[512];
    strcpy(buf, moves);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        pips_error err;
        if (!pips_play_text(g, s, tok, &err))
            fail_msg("move %s: %s", tok, err.msg);
    }
    return s;
}

static bool legal(const pips_game *g, const void *s, const char *move, pips_error *err)
{
    pips_move m;
    return pips_parse_move(g, s, move, &m, err);
}

static void expect_illegal(const pips_game *g, const void *s, const char *move,
                           const char *fragment)
{
    pips_error err;
    if (legal(g, s, move, &err))
        fail_msg("%s should be illegal", move);
    if (!strstr(err.msg, fragment))
        fail_msg("%s: message '%s' lacks '%s'", move, err.msg, fragment);
}

static void test_r1_first_piece_is_origin_and_window(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    void *s = play(g, "");
    expect_illegal(g, s, "L@1,0", "TTD-R1"); /* the first piece defines 0,0 */
    assert_true(legal(g, s, "L@0,0", NULL));
    pips_state_free(g, s);
    /* After pieces at x=-1..1, a piece at x=2 would make the box 4 wide. */
    s = play(g, "L@0,0 M@1,0 S@-1,0");
    expect_illegal(g, s, "M@2,0", "TTD-R1");
    expect_illegal(g, s, "M@-2,1", "TTD-R1");
    assert_true(legal(g, s, "M@1,1", NULL));
    assert_true(legal(g, s, "M@0,-1", NULL));
    pips_state_free(g, s);
    /* Coordinates beyond -2..2 cannot be in any window with the first piece. */
    pips_error err;
    pips_move m;
    s = play(g, "L@0,0");
    assert_false(g->def->move_from_text(g, s, "M@3,0", &m, &err));
    assert_non_null(strstr(err.msg, "TTD-R1"));
    pips_state_free(g, s);
    pips_game_free(g);
}

static void test_r2_adjacency_diagonal_counts(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    void *s = play(g, "M@0,0");
    assert_true(legal(g, s, "S@1,1", NULL));  /* diagonal */
    assert_true(legal(g, s, "S@-1,0", NULL)); /* orthogonal */
    expect_illegal(g, s, "S@2,0", "TTD-R2");  /* touches nothing */
    expect_illegal(g, s, "S@2,2", "TTD-R2");
    pips_state_free(g, s);
    pips_game_free(g);
}

static void test_r3_stacking_rulebook_examples(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    void *s = play(g, "L@0,0");
    assert_true(legal(g, s, "M@0,0", NULL)); /* "ML: legal placement" */
    expect_illegal(g, s, "S@0,0", "exactly one");   /* "SL: illegal placement" */
    expect_illegal(g, s, "L@0,0", "exactly one");   /* equal sizes */
    pips_state_free(g, s);
    s = play(g, "S@0,0");
    expect_illegal(g, s, "L@0,0", "exactly one"); /* L on S */
    pips_state_free(g, s);
    /* Trees L-M-S and nests S-M-L are legal, three high at most. */
    s = play(g, "L@0,0 M@0,0 S@0,0");
    expect_illegal(g, s, "M@0,0", "3 pieces");
    pips_state_free(g, s);
    s = play(g, "S@0,0 M@0,0 L@0,0");
    expect_illegal(g, s, "M@0,0", "3 pieces");
    pips_state_free(g, s);
    /* The rulebook's forbidden nest-tree combos, bottom first. */
    s = play(g, "S@0,0 M@0,0");
    expect_illegal(g, s, "S@0,0", "tree and a nest"); /* S-M-S */
    pips_state_free(g, s);
    s = play(g, "L@0,0 M@0,0");
    expect_illegal(g, s, "L@0,0", "tree and a nest"); /* L-M-L */
    pips_state_free(g, s);
    s = play(g, "M@0,0 L@0,0");
    expect_illegal(g, s, "M@0,0", "tree and a nest"); /* M-L-M */
    pips_state_free(g, s);
    pips_game_free(g);
}

static int status_of(const pips_game *g, const void *s)
{
    if (g->def->to_move(g, s) != PIPS_OVER)
        return -1;
    double r[2];
    g->def->returns(g, s, r);
    return r[0] == 1.0 ? 0 : r[1] == 1.0 ? 1 : 2; /* winner seat, or 2 = draw */
}

static void test_r4_r5_counting_and_winner(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    /* A tree L-M counts as M: M, tree(L,M), M in a row wins for the placer. */
    void *s = play(g, "L@0,0 M@0,0 M@1,0 S@1,1");
    assert_int_equal(status_of(g, s), -1);
    assert_true(pips_play_text(g, s, "M@-1,0", NULL)); /* X places the line */
    assert_int_equal(status_of(g, s), 0);
    pips_state_free(g, s);
    /* A tree also still counts as its large piece. */
    s = play(g, "L@0,0 M@0,0 L@1,0 S@1,1 L@-1,0");
    assert_int_equal(status_of(g, s), 0);
    pips_state_free(g, s);
    /* A nest S-M counts only as M: S, nest(S,M), S is no line. */
    s = play(g, "S@0,0 M@0,0 S@1,0 L@1,1 S@-1,0");
    assert_int_equal(status_of(g, s), -1);
    pips_state_free(g, s);
    /* ... but as M it completes M, nest, M; O places it and O wins (TTD-R5). */
    s = play(g, "S@0,0 M@0,0 M@1,0 L@1,1 S@1,-1 M@-1,0");
    assert_int_equal(status_of(g, s), 1);
    pips_state_free(g, s);
    /* Diagonal lines count too. */
    s = play(g, "S@0,0 M@1,0 S@1,1 L@-1,0 S@-1,-1");
    assert_int_equal(status_of(g, s), 0);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* Independent referee: does any line of three share a counted size? */
static bool referee_line(const pips_game *g, const void *s)
{
    pips_str text;
    pips_str_init(&text, NULL);
    g->def->state_to_text(g, s, &text);
    unsigned mask[5][5] = {{0}};
    const char *p = pips_str_cstr(&text);
    if (!strcmp(p, "-"))
        p += 1; /* the empty grid */
    while (*p) {
        int x = (int)strtol(p, (char **)&p, 10);
        p++;
        int y = (int)strtol(p, (char **)&p, 10);
        p++;
        char st[4] = {0};
        int h = 0;
        while (*p && *p != ' ')
            st[h++] = *p++;
        while (*p == ' ')
            p++;
        int sz[3] = {0, 0, 0};
        for (int i = 0; i < h; i++)
            sz[i] = st[i] == 'S' ? 1 : st[i] == 'M' ? 2 : 3;
        unsigned m = 0;
        if (h == 1 || sz[1] > sz[0])
            m = 1u << sz[h - 1];
        else
            for (int i = 0; i < h; i++)
                m |= 1u << sz[i];
        mask[y + 2][x + 2] = m;
    }
    pips_str_free(&text);
    static const int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 5; x++)
            for (int d = 0; d < 4; d++) {
                int x2 = x + 2 * dirs[d][0], y2 = y + 2 * dirs[d][1];
                if (x2 < 0 || x2 > 4 || y2 < 0 || y2 > 4)
                    continue;
                if (mask[y][x] & mask[y + dirs[d][1]][x + dirs[d][0]] & mask[y2][x2])
                    return true;
            }
    return false;
}

/* Every (size, cell) checked by check_move: an independent move generator. */
static size_t moves_by_check(const pips_game *g, const void *s, pips_move *out)
{
    size_t n = 0;
    for (int y = -2; y <= 2; y++)
        for (int x = -2; x <= 2; x++)
            for (int z = 0; z < 3; z++) {
                char text[16];
                pips_move m;
                snprintf(text, sizeof text, "%c@%d,%d", "SML"[z], x, y);
                if (g->def->move_from_text(g, s, text, &m, NULL) &&
                    g->def->check_move(g, s, m, NULL))
                    out[n++] = m;
            }
    return n;
}

static void test_r6_r7_draws_and_stuck_players(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    void *s = pips_state_new(g, NULL);
    pips_move moves[75];
    int draws = 0, stuck = 0, lines = 0;
    for (uint64_t seed = 0; seed < 20000 && (draws < 3 || stuck < 3); seed++) {
        pips_rng rng;
        pips_rng_seed(&rng, seed);
        g->def->initial(g, s);
        pips_random_playout(g, s, &rng, moves, 100);
        int st = status_of(g, s);
        assert_true(st >= 0);
        pips_str text;
        pips_str_init(&text, NULL);
        g->def->state_to_text(g, s, &text);
        int placed = 0;
        for (const char *p = pips_str_cstr(&text); *p; p++)
            placed += *p == 'S' || *p == 'M' || *p == 'L';
        pips_str_free(&text);
        bool line = referee_line(g, s);
        if (st == 2) { /* TTD-R6: a draw is 15 pieces and no line */
            assert_int_equal(placed, 15);
            assert_false(line);
            draws++;
        } else if (!line) { /* TTD-R7: a win without a line: the loser is stuck */
            assert_true(placed < 15);
            assert_int_equal(moves_by_check(g, s, moves), 0);
            assert_int_equal(st, (placed - 1) % 2); /* the other player won */
            stuck++;
        } else {
            lines++;
        }
    }
    assert_true(draws >= 3);
    assert_true(stuck >= 3);
    assert_true(lines > 0);
    pips_state_free(g, s);
    pips_game_free(g);
}

static uint64_t perft_by_check(const pips_game *g, const void *s, int depth)
{
    if (g->def->to_move(g, s) == PIPS_OVER)
        return 0;
    pips_move moves[75];
    size_t n = moves_by_check(g, s, moves);
    if (depth == 1)
        return n;
    uint64_t total = 0;
    unsigned char child[1024];
    for (size_t i = 0; i < n; i++) {
        memcpy(child, s, g->def->state_size);
        g->def->apply(g, child, moves[i]);
        total += perft_by_check(g, child, depth - 1);
    }
    return total;
}

/* The counts themselves are data (tests/perft/tictacdoh.txt, test_perft.c);
 * here an independent generator (every cell and size through check_move)
 * agrees with the game's own. */
static void test_perft_by_check(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    void *s = play(g, "");
    assert_int_equal(perft_by_check(g, s, 4), pips_perft(g, s, 4));
    pips_state_free(g, s);
    pips_game_free(g);
}


/* TTD-R1..R3: random_move is uniform over the legal placements at every ply
 * of many random games, and finds none once the game is over (TTD-R5..R7). */
static void test_random_move_uniform(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    void *s = pips_state_new(g, NULL);
    pips_move moves[75];
    pips_rng play, draw;
    pips_rng_seed(&draw, 77);
    for (uint64_t game = 0; game < 80; game++) {
        pips_rng_seed(&play, game);
        g->def->initial(g, s);
        for (int ply = 0;; ply++) {
            char what[64];
            snprintf(what, sizeof what, "game %llu ply %d", (unsigned long long)game, ply);
            check_random_move_uniform(g, s, &draw, what);
            if (g->def->to_move(g, s) == PIPS_OVER)
                break;
            size_t n = g->def->legal_moves(g, s, moves);
            g->def->apply(g, s, moves[pips_rng_below(&play, n)]);
        }
    }
    pips_state_free(g, s);
    pips_game_free(g);
}

/* random_move draws exactly legal_moves[below(n)] for the same generator
 * state (sizes, then cells), so seeded playouts and the bench fingerprint do
 * not depend on the shortcut. */
static void test_random_move_same_as_list(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    check_random_move_matches_list(g, 2000);
    pips_game_free(g);
}

static void test_text_errors_leave_state_untouched(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    void *s = play(g, "L@0,0 M@1,0");
    unsigned char before[1024];
    memcpy(before, s, g->def->state_size);
    static const char *bad[] = {"", "X@0,0", "M0,0", "M@", "M@1", "M@1,", "M@a,b",
                                "M@1,1x", "S@0,0", "M@9,9", "L@2,2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pips_error err = {0};
        assert_false(pips_play_text(g, s, bad[i], &err));
        assert_true(err.msg[0] != '\0');
        assert_memory_equal(before, s, g->def->state_size);
    }
    static const char *bad_states[] = {"", "0,0:", "0,0:SS", "0,0:LML", "1,0:L",
                                       "0,0:L 2,0:L", "0,0:L 0,0:M", "0,0:S 1,0:S 2,0:S 1,1:S 0,1:S -1,1:S",
                                       "0,0:L,", "0,0:L junk", "5,0:L"};
    for (size_t i = 0; i < sizeof bad_states / sizeof bad_states[0]; i++) {
        pips_error err = {0};
        unsigned char t[1024];
        if (g->def->state_from_text(g, bad_states[i], t, &err))
            fail_msg("state '%s' should be rejected", bad_states[i]);
        assert_true(err.msg[0] != '\0');
    }
    pips_state_free(g, s);
    pips_game_free(g);
}

/* Canonical forms never change a value: solving with and without them
 * agrees on positions `plies` random moves in (seeds 0..games-1). The
 * winning move given is one of the position itself, not of its canonical
 * form (it was the latter: M@-2,0 for 0,0:LM 1,0:M 1,1:S, which wins with
 * M@-1,0 or M@2,0). */
static void assert_winning_move(const pips_game *g, const void *s, pips_move m)
{
    pips_error err;
    if (!pips_check_move(g, s, m, &err))
        fail_msg("the winning move given is not legal here: %s", err.msg);
    void *child = pips_state_new(g, NULL);
    memcpy(child, s, g->def->state_size);
    g->def->apply(g, child, m);
    int me = g->def->to_move(g, s), next = g->def->to_move(g, child);
    if (next == PIPS_OVER) {
        double r[PIPS_MAX_PLAYERS];
        g->def->returns(g, child, r);
        assert_true(r[me] == 1.0);
    } else {
        pips_solve_result after;
        assert_true(solve_from_unchecked(g, child, true, NULL, &after, &err));
        assert_int_equal(after.value, next == me ? PIPS_WIN : PIPS_LOSS);
    }
    pips_state_free(g, child);
}

static void check_canonical_solving(const pips_game *g, uint64_t games, size_t plies)
{
    void *s = pips_state_new(g, NULL);
    pips_move buf[75];
    pips_error err;
    for (uint64_t seed = 0; seed < games; seed++) {
        pips_rng rng;
        pips_rng_seed(&rng, seed);
        g->def->initial(g, s);
        pips_random_playout(g, s, &rng, buf, plies);
        if (g->def->to_move(g, s) == PIPS_OVER)
            continue;
        pips_solve_result a, b;
        assert_true(solve_from_unchecked(g, s, true, NULL, &a, &err));
        assert_true(solve_from_unchecked(g, s, false, NULL, &b, &err));
        assert_int_equal(a.value, b.value);
        assert_true(a.positions <= b.positions);
        if (a.value == PIPS_WIN)
            assert_winning_move(g, s, a.best_move);
    }
    pips_state_free(g, s);
}

static void test_solution_is_a_draw(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    pips_solve_result res;
    pips_error err;
    assert_true(pips_solve(g, NULL, &res, &err));
    assert_int_equal(res.value, PIPS_DRAW);
    assert_int_equal(res.positions, 343251); /* canonical positions stored */
    check_canonical_solving(g, 6, 5);
    /* a won position that is not its own canonical form: its winning move */
    void *s = play(g, "L@0,0 M@0,0 M@1,0 S@1,1");
    assert_true(solve_position_unchecked(g, s, NULL, &res, &err));
    assert_int_equal(res.value, PIPS_WIN);
    assert_winning_move(g, s, res.best_move);
    pips_state_free(g, s);
    pips_game_free(g);
}

static void test_evaluation_hints(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    /* X to move can complete M, tree(L,M), M with M@-1,0. */
    void *s = play(g, "L@0,0 M@0,0 M@1,0 S@1,1");
    double v[2];
    g->def->evaluate(g, s, v);
    assert_true(v[0] > 0.9 && v[1] < 0.1);
    pips_move moves[75];
    int scores[75];
    size_t n = g->def->legal_moves(g, s, moves);
    g->def->order_moves(g, s, moves, n, scores);
    pips_move win;
    assert_true(g->def->move_from_text(g, s, "M@-1,0", &win, NULL));
    for (size_t i = 0; i < n; i++) {
        unsigned char child[1024];
        memcpy(child, s, g->def->state_size);
        g->def->apply(g, child, moves[i]);
        assert_int_equal(scores[i] == 2, status_of(g, child) == 0);
        if (moves[i] == win)
            assert_int_equal(scores[i], 2);
    }
    pips_state_free(g, s);
    /* The empty grid is balanced. */
    s = play(g, "");
    g->def->evaluate(g, s, v);
    assert_true(v[0] > 0.4 && v[0] < 0.6);
    pips_state_free(g, s);
    pips_game_free(g);
}

static void test_options_rejected(void **unused)
{
    (void)unused;
    pips_error err;
    const char *kv[] = {"size=4"};
    assert_null(pips_game_new("tictacdoh", kv, 1, NULL, &err));
    assert_non_null(strstr(err.msg, "size"));
    const char *players[] = {"players=5"};
    assert_null(pips_game_new("tictacdoh", players, 1, NULL, &err));
    assert_string_equal(err.msg, "option 'players': '5' is not 2..4");
    const char *stashes[] = {"stashes=0"};
    assert_null(pips_game_new("tictacdoh", stashes, 1, NULL, &err));
    assert_string_equal(err.msg, "option 'stashes': '0' is not 1..3");
}

static pips_game *ttd_with(const char *opt1, const char *opt2)
{
    const char *kv[] = {opt1, opt2};
    pips_error err;
    pips_game *g = pips_game_new("tictacdoh", kv, opt2 ? 2 : 1, NULL, &err);
    if (!g)
        fail_msg("%s %s: %s", opt1, opt2 ? opt2 : "", err.msg);
    return g;
}

/* The winning seat of a finished game (-1: a draw for all); fails on
 * returns that are not one winner with 1 and the rest 0, or all 0.5. */
static int winner_of(const pips_game *g, const void *s)
{
    double r[PIPS_MAX_PLAYERS];
    int n = pips_num_players(g), winner = -1;
    g->def->returns(g, s, r);
    for (int p = 0; p < n; p++) {
        if (r[p] == 1.0) {
            assert_int_equal(winner, -1);
            winner = p;
        } else {
            assert_true(r[p] == 0.0 || r[p] == 0.5);
        }
    }
    for (int p = 0; p < n && winner < 0; p++)
        assert_true(r[p] == 0.5);
    return winner;
}

/* TTD-R8: seats place in turn; whoever completes the line wins, the others
 * score 0. */
static void test_r8_three_and_four_players(void **unused)
{
    (void)unused;
    pips_game *g = ttd_with("players=3", NULL);
    assert_int_equal(pips_num_players(g), 3);
    void *s = play(g, "");
    const char *seq[] = {"L@0,0", "M@0,0", "M@1,0", "S@1,1"};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(g->def->to_move(g, s), i % 3);
        assert_true(pips_play_text(g, s, seq[i], NULL));
    }
    assert_int_equal(g->def->to_move(g, s), 1);
    pips_str text;
    pips_str_init(&text, NULL);
    pips_render_opts ro = {false, false};
    g->def->render(g, s, &ro, &text);
    assert_non_null(strstr(pips_str_cstr(&text), "player 2 to move"));
    assert_true(pips_play_text(g, s, "M@-1,0", NULL)); /* the fifth placement: seat 2 */
    assert_int_equal(winner_of(g, s), 1);
    pips_str_clear(&text);
    g->def->result_text(g, s, &text);
    assert_string_equal(pips_str_cstr(&text), "player 2 wins");
    pips_str_free(&text);
    pips_state_free(g, s);
    pips_game_free(g);
    /* Four players: the same line made by the fifth placement is seat 1's. */
    g = ttd_with("players=4", NULL);
    s = play(g, "L@0,0 M@0,0 M@1,0 S@1,1 M@-1,0");
    assert_int_equal(winner_of(g, s), 0);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* TTD-R6, R9, R10 under every player count and stash count: a game ends by
 * a line, by a draw only when every piece is placed (so never with more
 * than one stash), or with nobody able to move, won by the last placer. */
static void test_r9_r10_ends_of_every_variant(void **unused)
{
    (void)unused;
    static const char *const PLAYERS[] = {"players=2", "players=3", "players=4"};
    static const char *const STASHES[] = {"stashes=1", "stashes=2", "stashes=3"};
    for (int pi = 0; pi < 3; pi++)
        for (int si = 0; si < 3; si++) {
            pips_game *g = ttd_with(PLAYERS[pi], STASHES[si]);
            int n = pips_num_players(g), stashes = si + 1;
            void *s = pips_state_new(g, NULL);
            pips_move moves[75];
            int draws = 0, stuck = 0, lines = 0;
            for (uint64_t seed = 0; seed < 4000; seed++) {
                pips_rng rng;
                pips_rng_seed(&rng, seed);
                g->def->initial(g, s);
                size_t plies = pips_random_playout(g, s, &rng, moves, 100);
                assert_int_equal(g->def->to_move(g, s), PIPS_OVER);
                assert_true(plies <= 27);
                int w = winner_of(g, s);
                bool line = referee_line(g, s);
                if (w < 0) {
                    assert_int_equal(stashes, 1);
                    assert_int_equal(plies, 15);
                    assert_false(line);
                    draws++;
                } else {
                    assert_int_equal(w, (int)((plies - 1) % (size_t)n)); /* the last placer */
                    if (!line) { /* TTD-R9: nobody can place */
                        assert_true(plies < 15u * (size_t)stashes);
                        assert_int_equal(moves_by_check(g, s, moves), 0);
                        stuck++;
                    } else {
                        lines++;
                    }
                }
            }
            assert_true(lines > 0);
            if (stashes == 1) /* with more, random games end by a line first */
                assert_true(draws > 0 && stuck > 0);
            pips_state_free(g, s);
            pips_game_free(g);
        }
    /* Built by hand, two stashes: a full window of M-S trees (count M and S)
     * and M-L nests (count L) laid out as a drawn tic-tac-toe, so no line;
     * no empty cell is in reach and no stack takes S, M or L. 18 placed: the
     * 18th placer wins, seat 17 mod players. */
    static const char STUCK[] =
        "-1,-1:ML 0,-1:MS 1,-1:MS -1,0:MS 0,0:ML 1,0:ML -1,1:MS 0,1:ML 1,1:MS";
    for (int players = 2; players <= 4; players++) {
        char opt[16];
        snprintf(opt, sizeof opt, "players=%d", players);
        pips_game *g = ttd_with("stashes=2", opt);
        void *s = pips_state_new(g, NULL);
        pips_error err;
        if (!g->def->state_from_text(g, STUCK, s, &err))
            fail_msg("%s", err.msg);
        assert_false(referee_line(g, s));
        assert_int_equal(g->def->to_move(g, s), PIPS_OVER);
        assert_int_equal(winner_of(g, s), 17 % players);
        pips_state_free(g, s);
        pips_game_free(g);
    }
}

/* The variants' counts are data (tests/perft/tictacdoh.txt): seats never
 * change which placements are legal or when a game ends (TTD-R8), so perft
 * is the same for 2-4 players; more stashes differ once a size could run
 * out. Here the independent generator agrees under a variant too. */
static void test_perft_variants(void **unused)
{
    (void)unused;
    pips_game *g = ttd_with("stashes=2", "players=3");
    void *s = play(g, "");
    assert_int_equal(perft_by_check(g, s, 4), pips_perft(g, s, 4));
    pips_state_free(g, s);
    pips_game_free(g);
}

/* The generic solver is for two players only: 3-4 players are refused with
 * a message that says so; 2 players with 2 stashes are still solved. */
static void test_solver_refuses_more_players(void **unused)
{
    (void)unused;
    pips_game *g = ttd_with("players=3", NULL);
    pips_solve_result res;
    pips_error err;
    assert_false(pips_solve(g, NULL, &res, &err));
    assert_non_null(strstr(err.msg, "exactly 2 players"));
    pips_game_free(g);
    /* Two stashes leave no draw (TTD-R10): the first player loses with best
     * play (docs/games/tictacdoh.md). */
    g = ttd_with("stashes=2", NULL);
    assert_true(pips_solve(g, NULL, &res, &err));
    assert_int_equal(res.value, PIPS_LOSS);
    assert_int_equal(res.positions, 68018);
    check_canonical_solving(g, 4, 6);
    pips_game_free(g);
}

/* The 48 lines of three on the 5x5 grid (TTD-R5), from coordinates: cell
 * (x, y) is bit 5 * y + x; a line starts at (x, y) and steps (dx, dy). */
static size_t reference_lines(uint32_t lines[48])
{
    static const int STEPS[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};
    size_t n = 0;
    for (int k = 0; k < 4; k++)
        for (int y = 0; y < 5; y++)
            for (int x = 0; x < 5; x++) {
                int x2 = x + 2 * STEPS[k][0], y2 = y + 2 * STEPS[k][1];
                if (x2 < 0 || x2 > 4 || y2 > 4)
                    continue;
                uint32_t line = 0;
                for (int i = 0; i < 3; i++)
                    line |= 1u << (5 * (y + i * STEPS[k][1]) + x + i * STEPS[k][0]);
                lines[n++] = line;
            }
    return n;
}

/* The old test, cell by cell: c completes a line when m | c holds one. */
static uint32_t reference_completing(uint32_t m, const uint32_t *lines, size_t n_lines)
{
    uint32_t out = 0;
    for (int c = 0; c < 25; c++) {
        uint32_t with = m | 1u << c;
        for (size_t i = 0; i < n_lines; i++)
            if ((lines[i] & with) == lines[i]) {
                out |= 1u << c;
                break;
            }
    }
    return out;
}

static void check_completing(uint32_t m, const uint32_t *lines, size_t n_lines)
{
    uint32_t want = reference_completing(m, lines, n_lines);
    if ((completing_cells(m) & ALL_CELLS) != want)
        fail_msg("mask %07x: completing cells %07x, reference %07x", (unsigned)m,
                 (unsigned)(completing_cells(m) & ALL_CELLS), (unsigned)want);
    bool line = false;
    for (size_t i = 0; i < n_lines && !line; i++)
        line = (lines[i] & m) == lines[i];
    assert_int_equal(has_line(m), line);
}

/* has_winning_move asks completing_cells() which cells complete a line
 * (TTD-R5); it must agree with trying has_line on each cell. Every mask of
 * up to 3 cells (every single cell among them: none completes), then a
 * seeded sample at every density. */
static void test_completing_cells_match_reference(void **unused)
{
    (void)unused;
    uint32_t lines[48];
    size_t n_lines = reference_lines(lines);
    assert_int_equal(n_lines, 48);
    check_completing(0, lines, n_lines);
    for (int a = 0; a < 25; a++) {
        check_completing(1u << a, lines, n_lines);
        for (int b = a + 1; b < 25; b++) {
            check_completing(1u << a | 1u << b, lines, n_lines);
            for (int c = b + 1; c < 25; c++)
                check_completing(1u << a | 1u << b | 1u << c, lines, n_lines);
        }
    }
    assert_int_equal(completing_cells(1u << 12 | 1u << 13), 1u << 11 | 1u << 14);
    pips_rng rng;
    pips_rng_seed(&rng, 25);
    for (int i = 0; i < 60000; i++) {
        /* cells set with probability 1/2, 1/4, 1/8 or 3/4 in turn */
        uint32_t m = (uint32_t)pips_rng_next(&rng);
        if (i % 4 == 1 || i % 4 == 2)
            m &= (uint32_t)pips_rng_next(&rng);
        if (i % 4 == 2)
            m &= (uint32_t)pips_rng_next(&rng);
        if (i % 4 == 3)
            m |= (uint32_t)pips_rng_next(&rng);
        check_completing(m & ALL_CELLS, lines, n_lines);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_r1_first_piece_is_origin_and_window),
        cmocka_unit_test(test_r2_adjacency_diagonal_counts),
        cmocka_unit_test(test_r3_stacking_rulebook_examples),
        cmocka_unit_test(test_r4_r5_counting_and_winner),
        cmocka_unit_test(test_r6_r7_draws_and_stuck_players),
        cmocka_unit_test(test_perft_by_check),
        cmocka_unit_test(test_random_move_uniform),
        cmocka_unit_test(test_random_move_same_as_list),
        cmocka_unit_test(test_text_errors_leave_state_untouched),
        cmocka_unit_test(test_solution_is_a_draw),
        cmocka_unit_test(test_evaluation_hints),
        cmocka_unit_test(test_options_rejected),
        cmocka_unit_test(test_r8_three_and_four_players),
        cmocka_unit_test(test_r9_r10_ends_of_every_variant),
        cmocka_unit_test(test_perft_variants),
        cmocka_unit_test(test_solver_refuses_more_players),
        cmocka_unit_test(test_completing_cells_match_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
