/*
 * test_table.c — the match driver (pips/table.h): seeding, events and
 * observation, take-backs in hotseat and against agents, resignation with
 * two and with three seats, budgets against limits, and that a refused call
 * changes nothing. (That play, playtest and serve give the same moves is
 * tests/cli/frontends.sh.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pips/table.h"

typedef struct counts {
    int moves, chance, undo, resign, over, by_agent;
} counts;

static void count_event(void *ud, const pips_table *t, const pips_table_event *ev)
{
    counts *c = ud;
    const pips_match *m = pips_table_match(t);
    switch (ev->kind) {
    case PIPS_TABLE_MOVE:
        c->moves++;
        c->by_agent += ev->by_agent;
        /* the event comes after the move: the match holds it at ev->ply */
        assert_true(ev->ply < m->n_moves);
        assert_true(m->moves[ev->ply] == ev->move);
        break;
    case PIPS_TABLE_CHANCE: c->chance++; break;
    case PIPS_TABLE_UNDO: c->undo++; break;
    case PIPS_TABLE_RESIGN: c->resign++; break;
    case PIPS_TABLE_OVER: c->over++; break;
    }
}

static pips_table *table_for(const char *game, const char *const *opts, size_t nopts,
                             uint64_t seed, const char *const *seats, int n)
{
    pips_error err;
    pips_match *m = pips_match_new(game, opts, nopts, seed, NULL, &err);
    if (!m)
        fail_msg("%s", err.msg);
    pips_table *t = pips_table_new(m, seats, n, NULL, &err);
    if (!t)
        fail_msg("%s", err.msg);
    return t;
}

static void test_seeds(void **unused)
{
    (void)unused;
    assert_true(pips_table_game_seed(42, 0) == 42);
    assert_true(pips_table_game_seed(42, 1) != pips_table_game_seed(43, 0));
    assert_true(pips_table_seat_seed(42, 0) != pips_table_seat_seed(42, 1));
    /* the same seed and seats replay the same game, dice included */
    const char *opts[] = {"players=2"};
    const char *seats[] = {"mcts:iters=30", "random"};
    pips_table *a = table_for("ziggurat", opts, 1, 9, seats, 2);
    pips_table *b = table_for("ziggurat", opts, 1, 9, seats, 2);
    pips_error err;
    assert_true(pips_table_run(a, 300, &err));
    assert_true(pips_table_run(b, 300, &err));
    const pips_match *ma = pips_table_match(a), *mb = pips_table_match(b);
    assert_int_equal(ma->n_moves, mb->n_moves);
    assert_memory_equal(ma->moves, mb->moves, ma->n_moves * sizeof *ma->moves);
    pips_table_free(a);
    pips_table_free(b);
}

static void test_events_follow_every_move(void **unused)
{
    (void)unused;
    const char *opts[] = {"players=2"};
    const char *seats[] = {"random", "greedy"};
    pips_table *t = table_for("ziggurat", opts, 1, 3, seats, 2);
    counts c = {0};
    pips_table_listen(t, count_event, &c);
    pips_error err;
    assert_true(pips_table_run(t, 0, &err));
    const pips_match *m = pips_table_match(t);
    assert_true(pips_table_over(t));
    assert_int_equal((size_t)(c.moves + c.chance), m->n_moves);
    assert_int_equal(c.by_agent, c.moves);
    assert_true(c.chance > 0);
    assert_int_equal(c.over, 1);
    /* the dice are the match's: the same seed on a bare match rolls the same */
    assert_int_equal((uint64_t)c.chance, m->chance_events);
    double r[PIPS_MAX_PLAYERS];
    assert_true(pips_table_returns(t, r));
    assert_true(r[0] + r[1] > 0.99 && r[0] + r[1] < 1.01);
    pips_table_free(t);
}

static void test_hotseat_take_back(void **unused)
{
    (void)unused;
    const char *seats[] = {"human", "human"};
    pips_table *t = table_for("tictacdoh", NULL, 0, 1, seats, 2);
    pips_error err;
    const pips_match *m = pips_table_match(t);
    /* nothing to take back at the start */
    assert_false(pips_table_take_back(t, &err));
    assert_true(pips_table_play_text(t, "L@0,0", &err));
    /* O, to move, takes back X's move: either person may take back the last one */
    assert_true(pips_table_take_back(t, &err));
    assert_int_equal(m->n_moves, 0);
    assert_true(pips_table_play_text(t, "L@0,0", &err));
    assert_true(pips_table_play_text(t, "M@1,0", &err));
    assert_true(pips_table_take_back(t, &err));
    assert_int_equal(m->n_moves, 1); /* only O's move */
    assert_int_equal(pips_table_to_move(t), 1);
    pips_table_free(t);
}

static void test_take_back_against_an_agent(void **unused)
{
    (void)unused;
    const char *seats[] = {"human", "random"};
    pips_table *t = table_for("tictacdoh", NULL, 0, 5, seats, 2);
    pips_error err;
    const pips_match *m = pips_table_match(t);
    assert_true(pips_table_play_text(t, "L@0,0", &err));
    assert_true(pips_table_run(t, 0, &err)); /* the agent replies, then a person is to move */
    assert_int_equal(m->n_moves, 2);
    assert_true(pips_table_agent_to_move(t) == false);
    /* the person's move and the reply go together */
    assert_true(pips_table_take_back(t, &err));
    assert_int_equal(m->n_moves, 0);
    /* stepping a person's seat is refused and changes nothing */
    assert_false(pips_table_step(t, &err));
    assert_non_null(strstr(err.msg, "person"));
    assert_int_equal(m->n_moves, 0);
    pips_table_free(t);
}

static void test_refusals_change_nothing(void **unused)
{
    (void)unused;
    const char *seats[] = {"human", "human"};
    pips_table *t = table_for("tictacdoh", NULL, 0, 1, seats, 2);
    counts c = {0};
    pips_table_listen(t, count_event, &c);
    pips_error err;
    assert_true(pips_table_play_text(t, "L@0,0", &err));
    size_t ss = pips_table_game(t)->def->state_size;
    unsigned char before[4096];
    assert_true(ss <= sizeof before);
    memcpy(before, pips_table_match(t)->state, ss);
    assert_false(pips_table_play_text(t, "L@0,0", &err)); /* occupied by a large already */
    assert_false(pips_table_play_text(t, "nonsense", &err));
    assert_false(pips_table_roll(t, &err));
    assert_false(pips_table_resign(t, 7, &err));
    assert_memory_equal(before, pips_table_match(t)->state, ss);
    assert_int_equal(pips_table_match(t)->n_moves, 1);
    assert_int_equal(c.moves, 1);
    assert_int_equal(c.resign, 0);
    pips_table_free(t);
}

static void test_resign_two_seats(void **unused)
{
    (void)unused;
    const char *seats[] = {"human", "human"};
    pips_table *t = table_for("tictacdoh", NULL, 0, 1, seats, 2);
    counts c = {0};
    pips_table_listen(t, count_event, &c);
    pips_error err;
    assert_true(pips_table_play_text(t, "L@0,0", &err));
    assert_true(pips_table_resign(t, 1, &err));
    assert_true(pips_table_over(t));
    assert_int_equal(c.resign, 1);
    assert_int_equal(c.over, 1);
    double r[2];
    assert_true(pips_table_returns(t, r));
    assert_true(r[0] == 1.0 && r[1] == 0.0);
    pips_str s;
    pips_str_init(&s, NULL);
    pips_table_result_text(t, &s);
    assert_string_equal(pips_str_cstr(&s), "seat 2 resigns; seat 1 wins");
    pips_str_free(&s);
    /* over: no more moves, resignations or take-backs */
    assert_false(pips_table_play_text(t, "M@1,1", &err));
    assert_false(pips_table_resign(t, 0, &err));
    assert_false(pips_table_take_back(t, &err));
    pips_table_free(t);
}

static void test_resign_three_seats_play_on(void **unused)
{
    (void)unused;
    const char *opts[] = {"players=3", "board=3x3"};
    const char *seats[] = {"human", "random", "random"};
    pips_table *t = table_for("nimitz", opts, 2, 4, seats, 3);
    pips_error err;
    assert_true(pips_table_resign(t, 0, &err));
    /* the other two play on; the resigned seat's turns go to its autopilot */
    assert_false(pips_table_over(t));
    assert_true(pips_table_agent_to_move(t));
    assert_true(pips_table_run(t, 0, &err));
    assert_true(pips_table_over(t));
    double r[3];
    assert_true(pips_table_returns(t, r));
    assert_true(r[0] == 0.0);
    assert_true(r[1] + r[2] > 0.99 && r[1] + r[2] < 1.01);
    pips_table_free(t);
    /* two resignations of three leave one winner at once */
    t = table_for("nimitz", opts, 2, 4, (const char *[]){"human", "human", "human"}, 3);
    assert_true(pips_table_resign(t, 0, &err));
    assert_true(pips_table_resign(t, 2, &err));
    assert_true(pips_table_over(t));
    assert_true(pips_table_returns(t, r));
    assert_true(r[0] == 0.0 && r[1] == 1.0 && r[2] == 0.0);
    /* restoring a stored table's resignations */
    pips_table *u = table_for("nimitz", opts, 2, 4, (const char *[]){"human", "human", "human"}, 3);
    assert_true(pips_table_set_resigned(u, 1u << 0, &err));
    assert_true(pips_table_resigned(u) == 1u && !pips_table_over(u));
    assert_true(pips_table_agent(u, 0) != NULL); /* the autopilot */
    assert_false(pips_table_set_resigned(u, 7u, &err));
    assert_false(pips_table_set_resigned(u, 1u << 5, &err));
    assert_true(pips_table_set_resigned(u, 0, &err));
    assert_null(pips_table_agent(u, 0));
    pips_table_free(u);
    pips_table_free(t);
    /* an agent's seat restored as resigned (its flag fell, issue 27) stays
     * out too: the autopilot plays it, not its own agent; un-resigned, its
     * own agent is back */
    u = table_for("nimitz", opts, 2, 4, (const char *[]){"human", "human", "mcts:iters=50"}, 3);
    assert_true(pips_table_set_resigned(u, 1u << 2, &err));
    assert_string_equal(pips_agent_spec(pips_table_agent(u, 2)), "random");
    assert_true(pips_table_set_resigned(u, 0, &err));
    assert_string_equal(pips_agent_spec(pips_table_agent(u, 2)), "mcts:iters=50");
    assert_true(pips_table_resign(u, 2, &err));
    assert_string_equal(pips_agent_spec(pips_table_agent(u, 2)), "random");
    pips_table_free(u);
}

static void test_limits(void **unused)
{
    (void)unused;
    pips_error err;
    pips_game *g = pips_game_new("tictacdoh", NULL, 0, NULL, &err);
    pips_table_limits lim = {2.0, 1000, 4, 0, 0, 0};
    assert_true(pips_table_check_spec(g, "mcts:iters=1000", &lim, &err));
    assert_false(pips_table_check_spec(g, "mcts:iters=1001", &lim, &err));
    assert_non_null(strstr(err.msg, "limit of 1000"));
    assert_false(pips_table_check_spec(g, "alphabeta:depth=5", &lim, &err));
    assert_false(pips_table_check_spec(g, "mcts:time=3", &lim, &err));
    assert_false(pips_table_check_spec(g, "mcts:time=nan", &lim, &err));
    /* a level is checked by what it stands for: IceFrogs' max searches to
     * depth 6 (Tic Tac Doh!'s max is now budgeted in solver nodes, which
     * the limits do not cover) */
    pips_game *ice = pips_game_new("icefrogs", NULL, 0, NULL, &err);
    assert_non_null(ice);
    assert_false(pips_table_check_spec(ice, "max", &lim, &err));
    assert_non_null(strstr(err.msg, "depth=6"));
    assert_true(pips_table_check_spec(ice, "random", &lim, &err));
    pips_game_free(ice);
    /* a table refuses such a seat, naming it, and the caller keeps the match */
    pips_match *m = pips_match_from_game(g, 1, &err);
    const char *seats[] = {"human", "mcts:iters=5000"};
    assert_null(pips_table_new(m, seats, 2, &lim, &err));
    assert_non_null(strstr(err.msg, "seat 2"));
    pips_match_free(m);
}

/* The ceilings time cannot stand for: threads and memory. A work budget
 * (alphabeta's nodes=) is no memory, unlike the size of mcts's tree, and a
 * nested fallback's budgets are checked as its own kind's. */
static void test_limits_threads_and_memory(void **unused)
{
    (void)unused;
    pips_error err;
    pips_game *g = pips_game_new("tictacdoh", NULL, 0, NULL, &err);
    assert_non_null(g);
    pips_table_limits lim = {0, 1000, 0, 2, 256, 4000000};
    assert_true(pips_table_check_spec(g, "mcts:iters=1000,threads=2", &lim, &err));
    assert_false(pips_table_check_spec(g, "mcts:iters=1000,threads=3", &lim, &err));
    assert_non_null(strstr(err.msg, "threads=3 exceeds the limit of 2"));
    assert_true(pips_table_check_spec(g, "oracle:table_mb=256", &lim, &err));
    assert_false(pips_table_check_spec(g, "oracle:table_mb=257", &lim, &err));
    assert_non_null(strstr(err.msg, "table_mb=257 exceeds the limit of 256 MB"));
    assert_false(pips_table_check_spec(g, "alphabeta:depth=2,tt=4096", &lim, &err));
    assert_non_null(strstr(err.msg, "tt=4096"));
    assert_true(pips_table_check_spec(g, "mcts:iters=10,nodes=4000000", &lim, &err));
    assert_false(pips_table_check_spec(g, "mcts:iters=10,nodes=4000001", &lim, &err));
    assert_non_null(strstr(err.msg, "nodes=4000001 exceeds the limit of 4000000"));
    assert_true(pips_table_check_spec(g, "alphabeta:depth=2,nodes=90000000", &lim, &err));
    /* the fallback's budgets: its iters, and its nodes as an mcts tree */
    assert_true(pips_table_check_spec(g, "oracle:positions=1000,fallback=mcts:iters=1000", &lim,
                                      &err));
    assert_false(pips_table_check_spec(g, "oracle:positions=1000,fallback=mcts:iters=5000", &lim,
                                       &err));
    assert_non_null(strstr(err.msg, "iters=5000 exceeds the limit of 1000"));
    assert_false(pips_table_check_spec(
        g, "oracle:positions=1000,fallback=mcts:iters=10,nodes=9000000", &lim, &err));
    assert_non_null(strstr(err.msg, "nodes=9000000"));
    assert_true(pips_table_check_spec(
        g, "oracle:positions=90000000,fallback=alphabeta:depth=2,nodes=9000000", &lim, &err));
    /* 0 is no ceiling */
    pips_table_limits none = {0, 0, 0, 0, 0, 0};
    assert_true(pips_table_check_spec(g, "mcts:iters=10,threads=64,nodes=90000000", &none, &err));
    pips_game_free(g);
}

/* Self-play on one random table; returns the match's moves, played out. */
static size_t play_out(pips_match *m, pips_move *moves, size_t cap)
{
    pips_error err;
    const char *seats[] = {"random", "random"};
    pips_table *t = pips_table_new(m, seats, 2, NULL, &err);
    assert_non_null(t);
    assert_true(pips_table_run(t, 1000, &err));
    const pips_match *played = pips_table_match(t);
    assert_true(played->n_moves <= cap);
    size_t n = played->n_moves;
    memcpy(moves, played->moves, n * sizeof *moves);
    pips_table_free(t);
    return n;
}

/* Matches on a game their caller keeps (the playtest's one game per worker)
 * leave it configured and play as a match owning its own copy does. */
static void test_matches_on_a_kept_game(void **unused)
{
    (void)unused;
    pips_error err;
    pips_game *g = pips_game_new("tictacdoh", NULL, 0, NULL, &err);
    assert_non_null(g);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        pips_move kept[64], own[64];
        size_t n = play_out(pips_match_on_game(g, seed, &err), kept, 64);
        size_t n_own = play_out(pips_match_new("tictacdoh", NULL, 0, seed, NULL, &err), own, 64);
        assert_true(n > 0);
        assert_int_equal(n, n_own);
        assert_memory_equal(kept, own, n * sizeof *kept);
    }
    assert_int_equal(pips_num_players(g), 2);
    pips_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seeds),
        cmocka_unit_test(test_events_follow_every_move),
        cmocka_unit_test(test_hotseat_take_back),
        cmocka_unit_test(test_take_back_against_an_agent),
        cmocka_unit_test(test_refusals_change_nothing),
        cmocka_unit_test(test_resign_two_seats),
        cmocka_unit_test(test_resign_three_seats_play_on),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_limits_threads_and_memory),
        cmocka_unit_test(test_matches_on_a_kept_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
