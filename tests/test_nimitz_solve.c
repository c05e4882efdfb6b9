/*
 * test_nimitz_solve.c — the exact Nimitz solver (def->solve) against a
 * plain minimax over the public interface (no table, no symmetry), in
 * normal and misere play (NIM-R5), with one and two threads; its refusal
 * for 3+ players; the coaster's book; and a solve that settles a position
 * but not its moves.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pips/game.h"
#include "core/unchecked.h"

static pips_game *make_game(const char *opts)
{
    char buf[256];
    const char *kv[8];
    size_t n = 0;
    snprintf(buf, sizeof buf, "%s", opts);
    for (char *tok = strtok(buf, " "); tok && n < 8; tok = strtok(NULL, " "))
        kv[n++] = tok;
    pips_error err;
    pips_game *g = pips_game_new("nimitz", kv, n, NULL, &err);
    if (!g)
        fail_msg("nimitz %s: %s", opts, err.msg);
    return g;
}

/* A game at its start with buffers for every move and its value. */
typedef struct at_start {
    pips_game *g;
    pips_move *moves;
    pips_value *values;
    unsigned char *s;
} at_start;

static at_start start_of(const char *opts)
{
    at_start f = {make_game(opts), NULL, NULL, NULL};
    size_t cap = pips_max_moves(f.g);
    f.moves = calloc(cap, sizeof *f.moves);
    f.values = calloc(cap, sizeof *f.values);
    f.s = calloc(1, f.g->def->state_size);
    f.g->def->initial(f.g, f.s);
    return f;
}

static void start_free(at_start *f)
{
    free(f->moves);
    free(f->values);
    free(f->s);
    pips_game_free(f->g);
}

/* Plain minimax: true when the player to move wins (NIM-R5). */
static bool brute_wins(const pips_game *g, unsigned char *s, pips_move *buf, size_t cap,
                       bool misere, uint64_t *nodes)
{
    (*nodes)++;
    if (g->def->to_move(g, s) == PIPS_OVER)
        return misere;
    pips_move *moves = buf;
    size_t n = g->def->legal_moves(g, s, moves);
    for (size_t i = 0; i < n; i++) {
        g->def->apply(g, s, moves[i]);
        bool opp = brute_wins(g, s, buf + cap, cap, misere, nodes);
        g->def->undo(g, s, moves[i]);
        if (!opp)
            return true;
    }
    return false;
}

static void check_variant(const char *opts, bool misere, int threads)
{
    char full[256];
    snprintf(full, sizeof full, "%s misere=%s", opts, misere ? "true" : "false");
    pips_game *g = make_game(full);
    size_t cap = pips_max_moves(g);
    pips_move *buf = calloc(cap * 64, sizeof *buf);
    unsigned char *s = calloc(1, g->def->state_size);
    g->def->initial(g, s);
    uint64_t nodes = 0;
    bool win = brute_wins(g, s, buf, cap, misere, &nodes);
    pips_solve_opts so = {threads, 16, NULL, NULL, 0, 0, NULL, NULL};
    pips_solve_result res;
    pips_error err;
    if (!pips_solve(g, &so, &res, &err))
        fail_msg("solve %s: %s", full, err.msg);
    if (res.value != (win ? PIPS_WIN : PIPS_LOSS))
        fail_msg("%s: solver says %s, minimax (%llu nodes) says %s", full,
                 pips_value_name(res.value), (unsigned long long)nodes, win ? "win" : "loss");
    assert_true(res.nodes > 0 && res.memory_bytes > 0); /* a root won at once stores nothing */
    free(buf);
    free(s);
    pips_game_free(g);
}

static const char *const SMALL[] = {
    "board=1x1 colors=2",        "board=1x2 colors=2",        "board=1x2 colors=3",
    "board=1x3 colors=2",        "board=1x3 colors=3",        "board=2x2 colors=2",
    "board=1x2 colors=2 sets=2", "board=2x2 colors=2 sets=2", "board=#./## colors=3",
    "board=1x4 colors=2",        "board=1x2 colors=4",        "board=2x2 colors=3",
    "board=1x4 colors=3",        "board=2x3 colors=2",        "board=1x3 colors=2 sets=2",
    "board=2x2 colors=4",        "board=1x5 colors=2",
    /* past five colours (a Xeno set's c p w): absent colours stay interchangeable */
    "board=1x2 colors=8",        "board=1x3 colors=6",
    /* NIM-R3's tree_orientation=free: an orientation a level in the key */
    "board=1x2 colors=3 tree_orientation=free", "board=1x3 colors=2 tree_orientation=free",
    "board=2x2 colors=2 tree_orientation=free", "board=#./## colors=3 tree_orientation=free",
};

/* NIM-R5 normal play: the solver agrees with minimax. */
static void test_normal_matches_minimax(void **st)
{
    (void)st;
    for (size_t i = 0; i < sizeof SMALL / sizeof SMALL[0]; i++)
        check_variant(SMALL[i], false, 1);
}

/* NIM-R5 misere play. */
static void test_misere_matches_minimax(void **st)
{
    (void)st;
    for (size_t i = 0; i < sizeof SMALL / sizeof SMALL[0]; i++)
        check_variant(SMALL[i], true, 1);
}

static void test_two_threads(void **st)
{
    (void)st;
    check_variant("board=2x2 colors=2 sets=2", false, 2);
    check_variant("board=2x2 colors=2 sets=2", true, 2);
    check_variant("board=1x3 colors=3", false, 2);
}

/* 2x3 colors=5 outgrows the shared table's first size four times: the
 * values (published in docs/games/nimitz.md, win in both modes) and every
 * root move's value agree across 1 and 2 threads and a budget too small to
 * grow as far. */
static void test_growing_table(void **st)
{
    (void)st;
    for (int misere = 0; misere < 2; misere++) {
        pips_game *g = make_game(misere ? "board=2x3 colors=5 misere=true" : "board=2x3 colors=5");
        size_t cap = pips_max_moves(g);
        pips_move *moves = calloc(cap, sizeof *moves);
        pips_value *first = calloc(cap, sizeof *first), *values = calloc(cap, sizeof *values);
        unsigned char *s = calloc(1, g->def->state_size);
        g->def->initial(g, s);
        pips_solve_opts so = {1, 64, NULL, NULL, 0, 0, moves, first};
        pips_solve_result res;
        pips_error err;
        assert_true(solve_moves_unchecked(g, s, &so, &res, &err));
        assert_int_equal(res.value, PIPS_WIN);
        size_t n = res.n_moves;
        assert_true(n == g->def->legal_moves(g, s, moves) && n > 0);
        const int threads[] = {2, 2};
        const size_t mb[] = {64, 2};
        for (int run = 0; run < 2; run++) {
            pips_solve_opts other = {threads[run], mb[run], NULL, NULL, 0, 0, moves, values};
            assert_true(solve_moves_unchecked(g, s, &other, &res, &err));
            assert_int_equal(res.value, PIPS_WIN);
            assert_int_equal(res.n_moves, n);
            assert_memory_equal(values, first, n * sizeof *values);
        }
        free(moves);
        free(first);
        free(values);
        free(s);
        pips_game_free(g);
    }
}

static void count_progress(void *ud, const pips_solve_progress *p)
{
    (void)p;
    (*(int *)ud)++;
}

/* A larger solve reports progress and a stable value across thread counts. */
static void test_progress_and_threads_agree(void **st)
{
    (void)st;
    pips_game *g = make_game("board=2x2 colors=3");
    int calls = 0;
    pips_solve_opts so = {1, 32, count_progress, &calls, 0, 0, NULL, NULL};
    pips_solve_result one, two;
    pips_error err;
    assert_true(pips_solve(g, &so, &one, &err));
    so.threads = 2;
    assert_true(pips_solve(g, &so, &two, &err));
    assert_int_equal(one.value, two.value);
    assert_true(calls > 0 || one.nodes < 65536);
    pips_game_free(g);
}

/* The value does not depend on how a layout is turned or mirrored (the
 * symmetries the solver folds together, and the cell numbering it reads). */
static void test_turned_layouts_agree(void **st)
{
    (void)st;
    static const char *const family[][4] = {
        {"board=##./.##", "board=.##/##.", "board=.#/##/#.", "board=#./##/.#"},
        {"board=###/#..", "board=###/..#", "board=#../###", "board=..#/###"},
    };
    for (size_t f = 0; f < sizeof family / sizeof family[0]; f++)
        for (int misere = 0; misere <= 1; misere++) {
            int first = -2;
            for (int i = 0; i < 4; i++) {
                char opts[128];
                snprintf(opts, sizeof opts, "%s colors=3 misere=%s", family[f][i],
                         misere ? "true" : "false");
                pips_game *g = make_game(opts);
                pips_solve_opts so = {1, 16, NULL, NULL, 0, 0, NULL, NULL};
                pips_solve_result res;
                pips_error err;
                assert_true(pips_solve(g, &so, &res, &err));
                if (first == -2)
                    first = res.value;
                else if ((int)res.value != first)
                    fail_msg("%s: %s, but %s gave %s", opts, pips_value_name(res.value),
                             family[f][0], pips_value_name((pips_value)first));
                pips_game_free(g);
            }
        }
}

/* pips_solve_moves (the hint and oracle call): every legal move's value
 * agrees with minimax on the child, from the start and from a position
 * after two moves, in both modes (NIM-R5); a node budget too small fails
 * with PIPS_ERR_LIMIT naming the budget. */
static void test_each_move_matches_minimax(void **st)
{
    (void)st;
    for (int misere = 0; misere <= 1; misere++) {
        pips_game *g = make_game(misere ? "board=2x3 colors=2 misere=true" : "board=2x3 colors=2");
        size_t cap = pips_max_moves(g);
        pips_move *moves = calloc(cap, sizeof *moves), *buf = calloc(cap * 64, sizeof *buf);
        pips_value *values = calloc(cap, sizeof *values);
        unsigned char *s = calloc(1, g->def->state_size);
        for (int plies = 0; plies <= 2; plies += 2) {
            g->def->initial(g, s);
            for (int i = 0; i < plies; i++) {
                g->def->legal_moves(g, s, buf);
                g->def->apply(g, s, buf[i * 7]);
            }
            pips_solve_opts so = {1, 16, NULL, NULL, 0, 0, moves, values};
            pips_solve_result res;
            pips_error err;
            if (!solve_moves_unchecked(g, s, &so, &res, &err))
                fail_msg("%s", err.msg);
            assert_int_equal(res.n_moves, g->def->legal_moves(g, s, buf));
            bool any_win = false;
            for (size_t i = 0; i < res.n_moves; i++) {
                g->def->apply(g, s, moves[i]);
                uint64_t nodes = 0;
                bool opp = brute_wins(g, s, buf, cap, misere, &nodes);
                g->def->undo(g, s, moves[i]);
                assert_int_equal(values[i], opp ? PIPS_LOSS : PIPS_WIN);
                any_win |= !opp;
            }
            assert_int_equal(res.value, any_win ? PIPS_WIN : PIPS_LOSS);
        }
        free(moves);
        free(buf);
        free(values);
        free(s);
        pips_game_free(g);
    }
    /* 3x3 colors=4 takes some 70,000 nodes: a budget of 1,000 runs out */
    at_start f = start_of("board=3x3 colors=4");
    pips_solve_opts so = {1, 16, NULL, NULL, 0, 1000, f.moves, f.values};
    pips_solve_result res;
    pips_error err;
    assert_false(solve_moves_unchecked(f.g, f.s, &so, &res, &err));
    assert_int_equal(err.code, PIPS_ERR_LIMIT);
    assert_non_null(strstr(err.msg, "budget of 1000 nodes"));
    start_free(&f);
}

/* How many legal moves of s lead to a live position the book holds as lost
 * for the player to move there. */
static size_t book_winning_moves(const pips_game *g, const unsigned char *s)
{
    size_t cap = pips_max_moves(g), wins = 0;
    pips_move *moves = calloc(cap, sizeof *moves);
    unsigned char *c = calloc(1, g->def->state_size);
    size_t n = g->def->legal_moves(g, s, moves);
    for (size_t i = 0; i < n; i++) {
        memcpy(c, s, g->def->state_size);
        g->def->apply(g, c, moves[i]);
        pips_value v = PIPS_WIN;
        if (g->def->known_value(g, c, &v))
            assert_int_equal(v, PIPS_LOSS);
        wins += v == PIPS_LOSS;
    }
    free(moves);
    free(c);
    return wins;
}

/* The coaster's book (scripts/nimitz-book.sh). From the start it knows every
 * winning first move: the 200 medium pieces on a corner or an edge (normal
 * play), the 100 large pieces on a corner (misere). After a first move it
 * knows a winning reply exactly when that first move loses; as a lost
 * position has no lost child, the two never overlap. First moves stand for
 * their classes (size and corner, edge or centre; colours and orientations
 * rename), each through two of its images, so every entry is replayed. Other
 * games and later positions are not in it. */
static void test_book(void **st)
{
    (void)st;
    static const char *const sizes = "SML", *const cells[][2] = {
        {"a1", "c3"}, {"a2", "b3"}, {"b2", "b2"}};
    static const char *const colour_orient[2] = {"r%c@%s:N", "o%c@%s:U"};
    for (int misere = 0; misere <= 1; misere++) {
        pips_game *g = make_game(misere ? "misere=true" : "misere=false");
        unsigned char *start = calloc(1, g->def->state_size);
        unsigned char *s = calloc(1, g->def->state_size);
        g->def->initial(g, start);
        pips_value v;
        assert_false(g->def->known_value(g, start, &v));
        assert_int_equal(book_winning_moves(g, start), misere ? 100 : 200);
        for (int z = 0; z < 3; z++)
            for (int c = 0; c < 3; c++)
                for (int image = 0; image < 2; image++) {
                    char text[16];
                    pips_error err;
                    snprintf(text, sizeof text, colour_orient[image], sizes[z], cells[c][image]);
                    memcpy(s, start, g->def->state_size);
                    assert_true(pips_play_text(g, s, text, &err));
                    bool first_wins = misere ? z == 2 && c == 0 : z == 1 && c < 2;
                    bool lost = g->def->known_value(g, s, &v);
                    if (lost != first_wins)
                        fail_msg("misere=%d %s: book says %s", misere, text,
                                 lost ? "lost" : "nothing");
                    size_t replies = book_winning_moves(g, s);
                    if ((replies > 0) == first_wins)
                        fail_msg("misere=%d %s: %zu winning replies in the book", misere, text,
                                 replies);
                }
        free(start);
        free(s);
        pips_game_free(g);
    }
    /* the book is the coaster's alone */
    static const char *const others[] = {"colors=4", "tree_orientation=free", "board=3x4",
                                         "players=3"};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        pips_game *g = make_game(others[i]);
        unsigned char *s = calloc(1, g->def->state_size);
        pips_error err;
        g->def->initial(g, s);
        assert_true(pips_play_text(g, s, "rM@a1:N", &err));
        pips_value v;
        assert_false(g->def->known_value(g, s, &v));
        free(s);
        pips_game_free(g);
    }
}

/* When the budget runs out after the position itself is solved but before
 * all its moves are, the call fails and says so, but keeps the value and,
 * for a win, a winning move (the oracle plays it). Node budgets on one
 * thread make this exact. */
static void test_value_without_moves(void **st)
{
    (void)st;
    at_start f = start_of("board=3x3 colors=4");
    pips_game *g = f.g;
    unsigned char *s = f.s;
    pips_solve_opts so = {1, 16, NULL, NULL, 0, 0, NULL, NULL};
    pips_solve_result alone, res;
    pips_error err;
    assert_true(solve_position_unchecked(g, s, &so, &alone, &err));
    assert_int_equal(alone.value, PIPS_WIN);
    assert_false(alone.value_known);
    so.max_nodes = alone.nodes + alone.nodes / 4;
    so.moves = f.moves;
    so.move_values = f.values;
    assert_false(solve_moves_unchecked(g, s, &so, &res, &err));
    assert_int_equal(err.code, PIPS_ERR_LIMIT);
    assert_true(res.value_known);
    assert_int_equal(res.value, PIPS_WIN);
    assert_int_equal(res.n_moves, 0);
    /* the move it keeps wins: the opponent's position after it is lost */
    assert_true(pips_check_move(g, s, res.best_move, &err));
    g->def->apply(g, s, res.best_move);
    so.max_nodes = 0;
    so.moves = NULL;
    so.move_values = NULL;
    assert_true(solve_position_unchecked(g, s, &so, &alone, &err));
    assert_int_equal(alone.value, PIPS_LOSS);
    start_free(&f);
}

/* The solver refuses the options' game at once, saying why. */
static void expect_unsupported(const char *opts, const char *msg_part)
{
    pips_game *g = make_game(opts);
    pips_solve_opts so = {1, 16, NULL, NULL, 0, 0, NULL, NULL};
    pips_solve_result res;
    pips_error err;
    assert_false(pips_solve(g, &so, &res, &err));
    assert_int_equal(err.code, PIPS_ERR_UNSUPPORTED);
    if (!strstr(err.msg, msg_part))
        fail_msg("%s: message '%s' lacks '%s'", opts, err.msg, msg_part);
    pips_game_free(g);
}

/* 3+ players have no two-valued outcome: the solver says so; so it does
 * for what its position key cannot hold. */
static void test_refuses_more_players(void **st)
{
    (void)st;
    expect_unsupported("board=1x2 players=3", "2 players");
    expect_unsupported("board=volcano", "15 cells");
    /* NIM-R3's tree_orientation=free: the key holds an orientation a level,
     * three cells a word */
    expect_unsupported("board=2x5 tree_orientation=free", "up to 9 cells");
    /* past 8 colours a renamed colour needs more than the key's 3 bits */
    expect_unsupported("board=1x2 colors=9", "colors=8");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_normal_matches_minimax),
        cmocka_unit_test(test_misere_matches_minimax),
        cmocka_unit_test(test_two_threads),
        cmocka_unit_test(test_growing_table),
        cmocka_unit_test(test_progress_and_threads_agree),
        cmocka_unit_test(test_turned_layouts_agree),
        cmocka_unit_test(test_each_move_matches_minimax),
        cmocka_unit_test(test_refuses_more_players),
        cmocka_unit_test(test_book),
        cmocka_unit_test(test_value_without_moves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
