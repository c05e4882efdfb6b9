/*
 * test_oracle.c — the `oracle` agent: perfect play where its solver settles
 * the position (it never loses Tic Tac Doh!, a solved draw, to MCTS; it wins
 * Nimitz 3x3 colors=3, a proven first-player win, as the first player),
 * the fallback to the game's search when the budget runs out (and the note
 * saying so), the coaster's book of solved positions, and its parameters;
 * and the kept solver it uses, asked the same position twice. Budgets are in
 * positions (nodes), so the games are the same on every machine.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pips/agent.h"
#include "core/unchecked.h"

static pips_game *make_game(const char *name, const char *const *kv, size_t n)
{
    pips_error err;
    pips_game *g = pips_game_new(name, kv, n, NULL, &err);
    if (!g)
        fail_msg("%s: %s", name, err.msg);
    return g;
}

/* Plays one game between the two specs; returns seat 0's return. */
static double play(const pips_game *g, const char *spec0, const char *spec1, uint64_t seed)
{
    pips_error err;
    pips_agent *seat[2] = {pips_agent_new(g, spec0, seed, &err), NULL};
    if (!seat[0])
        fail_msg("%s: %s", spec0, err.msg);
    seat[1] = pips_agent_new(g, spec1, seed + 1000, &err);
    if (!seat[1])
        fail_msg("%s: %s", spec1, err.msg);
    void *s = pips_state_new(g, &err);
    g->def->initial(g, s);
    int who;
    while ((who = pips_to_move(g, s)) >= 0) {
        pips_move m;
        if (!agent_choose_unchecked(seat[who], s, &m, &err))
            fail_msg("seat %d: %s", who + 1, err.msg);
        assert_true(pips_check_move(g, s, m, &err));
        agent_observe_unchecked(seat[0], s, m);
        agent_observe_unchecked(seat[1], s, m);
        g->def->apply(g, s, m);
    }
    assert_int_equal(who, PIPS_OVER);
    double r[PIPS_MAX_PLAYERS];
    g->def->returns(g, s, r);
    pips_state_free(g, s);
    pips_agent_free(seat[0]);
    pips_agent_free(seat[1]);
    return r[0];
}

#define ORACLE "oracle:positions=50000000"

/* Tic Tac Doh! is a draw (docs/games/tictacdoh.md): the oracle, solving from
 * the first move, never loses in either seat. */
static void test_never_loses_tictacdoh(void **st)
{
    (void)st;
    pips_game *g = make_game("tictacdoh", NULL, 0);
    for (uint64_t seed = 1; seed <= 2; seed++) {
        assert_true(play(g, ORACLE, "mcts:iters=2000", seed) >= 0.5);
        assert_true(play(g, "mcts:iters=2000", ORACLE, seed) <= 0.5);
    }
    pips_game_free(g);
}

/* Nimitz 3x3 colors=3 is a first-player win (NIM-R5 normal play): the oracle
 * as first player wins every game. */
static void test_wins_nimitz_3x3_colors3(void **st)
{
    (void)st;
    static const char *const kv[] = {"board=3x3", "colors=3"};
    pips_game *g = make_game("nimitz", kv, 2);
    for (uint64_t seed = 1; seed <= 3; seed++)
        assert_true(play(g, ORACLE, "mcts:iters=1000", seed) == 1.0);
    pips_game_free(g);
}

/* From the start position the oracle gives up (too few positions): its
 * fallback plays a legal move and the note says the position is not solved. */
static void assert_falls_back_at_start(pips_game *g, pips_agent *a)
{
    pips_error err;
    void *s = pips_state_new(g, &err);
    assert_non_null(s);
    g->def->initial(g, s);
    pips_move m;
    assert_true(agent_choose_unchecked(a, s, &m, &err));
    assert_true(pips_check_move(g, s, m, &err));
    assert_non_null(strstr(pips_agent_note(a), "not solved"));
    pips_state_free(g, s);
}

/* On the coaster a tiny budget cannot settle the start: the oracle plays
 * its fallback's legal move and says so; analysis of a solved position
 * gives exact values. */
static void test_fallback_and_note(void **st)
{
    (void)st;
    pips_game *g = make_game("nimitz", NULL, 0);
    pips_error err;
    pips_agent *a = pips_agent_new(g, "oracle:positions=2000,book=0,fallback=greedy", 1, &err);
    assert_non_null(a);
    assert_falls_back_at_start(g, a);
    assert_non_null(strstr(pips_agent_note(a), "greedy"));
    pips_agent_free(a);
    pips_game_free(g);

    static const char *const kv[] = {"board=2x2", "colors=3"};
    g = make_game("nimitz", kv, 2);
    a = pips_agent_new(g, "oracle", 1, &err);
    void *s = pips_state_new(g, &err);
    g->def->initial(g, s);
    pips_move_eval ev[256];
    size_t n = agent_analyze_unchecked(a, s, ev, 256, &err);
    assert_int_equal(n, pips_perft(g, s, 1));
    for (size_t i = 0; i < n; i++)
        assert_true(ev[i].value == 0.0 || ev[i].value == 1.0);
    assert_non_null(strstr(pips_agent_note(a), "solved: loss")); /* 2x2 colors=3: loss */
    assert_true(ev[0].value == 0.0);
    pips_agent_free(a);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* positions=N is a work budget with an exact edge. From a Tic Tac Doh!
 * position after two moves, the solve of every move takes K nodes
 * (pips_solve_moves, the same kept solver the oracle uses, fresh): an
 * oracle with positions=K settles it and plays a move of the best value,
 * one with K-1 gives up naming the budget, and its fallback chooses. No
 * clock is read, so the same seed gives the same move on any load. */
static void test_positions_budget_edge(void **st)
{
    (void)st;
    pips_game *g = make_game("tictacdoh", NULL, 0);
    pips_error err;
    void *s = pips_state_new(g, &err);
    assert_non_null(s);
    assert_true(g->def->state_from_text(g, "0,0:L 1,0:M", s, &err));
    pips_move moves[256];
    pips_value values[256];
    pips_solve_opts so = {.threads = 1, .table_mb = 256, .moves = moves, .move_values = values};
    pips_solve_result res;
    assert_true(pips_solve_moves(g, s, &so, &res, &err));
    assert_true(res.nodes > 1000);
    char spec[96];
    snprintf(spec, sizeof spec, "oracle:positions=%llu,fallback=greedy",
             (unsigned long long)res.nodes);
    pips_agent *enough = pips_agent_new(g, spec, 5, &err), *again = pips_agent_new(g, spec, 5, &err);
    snprintf(spec, sizeof spec, "oracle:positions=%llu,fallback=greedy",
             (unsigned long long)res.nodes - 1);
    pips_agent *short_by_one = pips_agent_new(g, spec, 5, &err);
    assert_true(enough && again && short_by_one);
    pips_move m, m2;
    assert_true(agent_choose_unchecked(enough, s, &m, &err));
    assert_non_null(strstr(pips_agent_note(enough), "solved: "));
    assert_null(strstr(pips_agent_note(enough), "not solved"));
    size_t i = 0;
    while (i < res.n_moves && moves[i] != m)
        i++;
    assert_true(i < res.n_moves && values[i] == res.value);
    assert_true(agent_choose_unchecked(again, s, &m2, &err));
    assert_true(m2 == m);
    assert_true(agent_choose_unchecked(short_by_one, s, &m2, &err));
    assert_true(pips_check_move(g, s, m2, &err));
    assert_non_null(strstr(pips_agent_note(short_by_one), "not solved"));
    char budget[64];
    snprintf(budget, sizeof budget, "budget of %llu nodes", (unsigned long long)res.nodes - 1);
    assert_non_null(strstr(pips_agent_note(short_by_one), budget));
    pips_agent_free(enough);
    pips_agent_free(again);
    pips_agent_free(short_by_one);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* The seat's move as text. */
static void move_text(const pips_game *g, const void *s, pips_move m, char *buf)
{
    g->def->move_to_text(g, s, m, buf);
}

/* The coaster's book (scripts/nimitz-book.sh): from the start the oracle
 * plays a winning first move found there without searching, a medium piece
 * on a corner or an edge in normal play and a large one on a corner in
 * misere; after a losing first move it answers with a reply the book holds
 * as winning. book=0 searches (and here, on a tiny budget, falls back). */
static void test_book_coaster(void **st)
{
    (void)st;
    for (int misere = 0; misere <= 1; misere++) {
        static const char *const kv[2][1] = {{"misere=false"}, {"misere=true"}};
        pips_game *g = make_game("nimitz", kv[misere], 1);
        pips_error err;
        void *s = pips_state_new(g, &err);
        void *c = pips_state_new(g, &err);
        for (uint64_t seed = 1; seed <= 12; seed++) {
            pips_agent *a = pips_agent_new(g, "oracle:positions=2000,fallback=greedy", seed, &err);
            assert_non_null(a);
            g->def->initial(g, s);
            pips_move m;
            char text[PIPS_MOVE_TEXT_MAX];
            assert_true(agent_choose_unchecked(a, s, &m, &err));
            move_text(g, s, m, text);
            assert_non_null(strstr(pips_agent_note(a), "book"));
            if (misere)
                assert_true(text[1] == 'L' && strchr("ac", text[3]) && strchr("13", text[4]));
            else
                assert_true(text[1] == 'M' && strncmp(text + 3, "b2", 2) != 0);
            /* a losing first move (a small piece in the centre, in both
             * modes): the reply's position is one the book holds as lost */
            assert_true(pips_play_text(g, s, seed % 2 ? "gS@b2:E" : "yS@b2:U", &err));
            assert_true(agent_choose_unchecked(a, s, &m, &err));
            assert_non_null(strstr(pips_agent_note(a), "book"));
            memcpy(c, s, g->def->state_size);
            g->def->apply(g, c, m);
            pips_value v;
            assert_true(g->def->known_value(g, c, &v));
            assert_int_equal(v, PIPS_LOSS);
            pips_agent_free(a);
        }
        pips_agent *a = pips_agent_new(g, "oracle:positions=2000,book=0,fallback=greedy", 1, &err);
        g->def->initial(g, s);
        pips_move m;
        assert_true(agent_choose_unchecked(a, s, &m, &err));
        assert_non_null(strstr(pips_agent_note(a), "not solved"));
        pips_agent_free(a);
        pips_state_free(g, s);
        pips_state_free(g, c);
        pips_game_free(g);
    }
}

static void test_parameters(void **st)
{
    (void)st;
    pips_game *g = make_game("tictacdoh", NULL, 0);
    pips_error err;
    static const char *const bad[] = {"oracle:time=0",          "oracle:speed=3",
                                      "oracle:fallback=max",    "oracle:fallback=oracle",
                                      "oracle:positions=x",     "oracle:book=2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_null(pips_agent_new(g, bad[i], 1, &err));
        assert_int_equal(err.code, PIPS_ERR_ARG);
    }
    pips_agent *a = pips_agent_new(g, "oracle:positions=1000", 1, &err);
    assert_non_null(a);
    assert_string_equal(pips_agent_spec(a),
                        "oracle:positions=1000,table_mb=256,threads=1,fallback=hard");
    pips_agent_free(a);
    a = pips_agent_new(g, "oracle:positions=1000,book=0", 1, &err);
    assert_non_null(a);
    assert_string_equal(pips_agent_spec(a),
                        "oracle:positions=1000,table_mb=256,threads=1,book=0,fallback=hard");
    pips_agent_free(a);
    /* fallback= comes last and takes the rest of the spec, commas included:
     * the fallback keeps every parameter, even past 63 characters, and the
     * normalised spec (fallback last, as given) reads back to itself */
    static const char *const nested[] = {
        "oracle:positions=2000,book=0,fallback=mcts:iters=300,opp=greedy",
        "oracle:book=0,positions=2000,fallback=mcts:iters=300,opp=greedy,order=1,c=0.5,reuse=0,"
        "nodes=100000"};
    for (size_t i = 0; i < sizeof nested / sizeof nested[0]; i++) {
        const char *fb = strstr(nested[i], "fallback=") + 9;
        a = pips_agent_new(g, nested[i], 1, &err);
        if (!a)
            fail_msg("%s: %s", nested[i], err.msg);
        char norm[PIPS_SPEC_MAX];
        snprintf(norm, sizeof norm, "%s", pips_agent_spec(a));
        assert_string_equal(norm + strlen(norm) - strlen(fb) - 9 - 1, strstr(nested[i], ",fallback="));
        pips_agent *again = pips_agent_new(g, norm, 1, &err);
        assert_non_null(again);
        assert_string_equal(pips_agent_spec(again), norm);
        pips_agent_free(again);
        /* from the start the solver gives up within 2000 positions: the
         * fallback moves, and the note names it with all its parameters */
        assert_falls_back_at_start(g, a);
        assert_non_null(strstr(pips_agent_note(a), "iters=300"));
        assert_non_null(strstr(pips_agent_note(a), "opp=greedy"));
        if (i == 1)
            assert_non_null(strstr(pips_agent_note(a), "reuse=0"));
        pips_agent_free(a);
        assert_true(play(g, nested[i], "random", 5 + i) >= 0);
    }
    /* a bad fallback is refused when the agent is made, naming it whole */
    static const struct {
        const char *spec, *says;
    } bad_fallback[] = {
        {"oracle:fallback=mcts:iters=300,bogus=1",
         "oracle fallback 'mcts:iters=300,bogus=1' (fallback= comes last"},
        {"oracle:fallback=hard,book=0", "oracle fallback 'hard,book=0' (fallback= comes last"},
        {"oracle:positions=9,fallback=nosuch", "oracle fallback 'nosuch': unknown agent"},
        {"oracle:fallback=", "fallback='' is empty"},
        {"oracle:fallback=oracle:positions=9", "would call the oracle again"},
    };
    for (size_t i = 0; i < sizeof bad_fallback / sizeof bad_fallback[0]; i++) {
        assert_null(pips_agent_new(g, bad_fallback[i].spec, 1, &err));
        assert_int_equal(err.code, PIPS_ERR_ARG);
        if (!strstr(err.msg, bad_fallback[i].says))
            fail_msg("%s: '%s' does not say '%s'", bad_fallback[i].spec, err.msg,
                     bad_fallback[i].says);
    }
    pips_game_free(g);
}

/* A solver keeps its table between calls: asking it twice about the same
 * position without a move list gives the same full answer both times (the
 * second used to find the root in the table and return "win" with no move),
 * and so does asking about a position its table already holds as the child
 * of an earlier question. Positions: random Tic Tac Doh! games stopped where
 * the player to move has a win. */
static void test_solver_repeated_query(void **st)
{
    (void)st;
    pips_game *g = make_game("tictacdoh", NULL, 0);
    const pips_game_def *d = g->def;
    pips_error err;
    void *s = pips_state_new(g, &err), *child = pips_state_new(g, &err);
    pips_move moves[256];
    pips_value values[256];
    int wins_checked = 0;
    for (uint64_t seed = 1; seed < 400 && wins_checked < 12; seed++) {
        pips_rng rng;
        pips_rng_seed(&rng, seed);
        d->initial(g, s);
        size_t stop = 4 + seed % 8;
        for (size_t ply = 0; ply < stop && pips_to_move(g, s) >= 0; ply++)
            d->apply(g, s, moves[pips_rng_below(&rng, d->legal_moves(g, s, moves))]);
        if (pips_to_move(g, s) < 0)
            continue;
        pips_solve_result fresh;
        assert_true(pips_solve_from(g, s, true, NULL, &fresh, &err));
        if (fresh.value != PIPS_WIN)
            continue;
        for (int parent_first = 0; parent_first <= 1; parent_first++) {
            pips_solver *ps = pips_solver_new(g, NULL, true, &err);
            assert_non_null(ps);
            pips_solve_result r[3];
            if (parent_first) {
                /* the parent of s, asked with its moves, stores s's
                 * canonical form as a child: s may then be found at once */
                pips_rng_seed(&rng, seed);
                void *parent = pips_state_new(g, &err);
                d->initial(g, parent);
                memcpy(child, parent, d->state_size);
                for (size_t ply = 0; ply < stop; ply++) {
                    memcpy(parent, child, d->state_size);
                    d->apply(g, child, moves[pips_rng_below(&rng, d->legal_moves(g, child, moves))]);
                }
                assert_true(pips_solver_moves(ps, parent, moves, values, &r[2], &err));
                pips_state_free(g, parent);
            }
            for (int k = 0; k < 2; k++) {
                assert_true(pips_solver_moves(ps, s, NULL, NULL, &r[k], &err));
                assert_int_equal(r[k].value, PIPS_WIN);
                assert_true(r[k].best_move != PIPS_MOVE_NONE);
                assert_true(pips_check_move(g, s, r[k].best_move, &err));
                /* the move wins: the game ends with the mover's win or the
                 * opponent is left a lost position */
                int me = pips_to_move(g, s);
                memcpy(child, s, d->state_size);
                d->apply(g, child, r[k].best_move);
                int next = pips_to_move(g, child);
                if (next < 0) {
                    double ret[PIPS_MAX_PLAYERS];
                    d->returns(g, child, ret);
                    assert_true(ret[me] > 0.75);
                } else {
                    pips_solve_result after;
                    assert_true(pips_solve_from(g, child, true, NULL, &after, &err));
                    assert_int_equal(after.value, next == me ? PIPS_WIN : PIPS_LOSS);
                }
            }
            assert_true(r[1].best_move == r[0].best_move);
            pips_solver_free(ps);
        }
        wins_checked++;
    }
    assert_int_equal(wins_checked, 12);
    pips_state_free(g, child);
    pips_state_free(g, s);
    pips_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_never_loses_tictacdoh),
        cmocka_unit_test(test_wins_nimitz_3x3_colors3),
        cmocka_unit_test(test_fallback_and_note),
        cmocka_unit_test(test_book_coaster),
        cmocka_unit_test(test_parameters),
        cmocka_unit_test(test_solver_repeated_query),
        cmocka_unit_test(test_positions_budget_edge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
