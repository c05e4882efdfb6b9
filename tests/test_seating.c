/*
 * test_seating.c — the playtest seatings (pips_seating_*) and the pooling
 * of identical specs: under `all` every distinct order of the specs comes
 * up equally often in a cycle (6 at 3 seats, 24 at 4, 3 for one spec
 * against two copies of another); from 5 seats the balanced design puts
 * each spec in each seat, and after each other spec around the table,
 * equally often; rotate and fixed keep their old meaning; the ladder's
 * 3-seat tables use `all`; a report pools identical specs with their seat
 * count.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pips/lab.h"
#include "pips/ladder.h"
#include "toy_game.h"

/* An order's number in base np (np <= 8, so it fits). */
static unsigned long order_key(const int *seat_agent, int np)
{
    unsigned long key = 0;
    for (int s = 0; s < np; s++)
        key = key * (unsigned long)np + (unsigned long)seat_agent[s];
    return key;
}

static unsigned long factorial(int n) { return n <= 1 ? 1 : (unsigned long)n * factorial(n - 1); }

/* Every seating of `period` games (and of the next cycle) with distinct
 * specs: each order of the np specs occurs exactly once per cycle. */
static void check_every_order(int np)
{
    int spec[8], seat[8];
    for (int s = 0; s < np; s++)
        spec[s] = s;
    size_t period = pips_seating_period(PIPS_SEATING_ALL, spec, np);
    assert_int_equal(period, factorial(np));
    unsigned long n_keys = 1;
    for (int s = 0; s < np; s++)
        n_keys *= (unsigned long)np;
    unsigned *seen = calloc(n_keys, sizeof *seen);
    assert_non_null(seen);
    for (unsigned long g = 0; g < 2 * period; g++) {
        assert_true(pips_seating_order(PIPS_SEATING_ALL, spec, np, g, seat));
        int used[8] = {0};
        for (int s = 0; s < np; s++)
            used[seat[s]]++;
        for (int s = 0; s < np; s++)
            assert_int_equal(used[s], 1); /* a permutation */
        seen[order_key(seat, np)]++;
    }
    unsigned long distinct = 0;
    for (unsigned long k = 0; k < n_keys; k++) {
        assert_true(seen[k] == 0 || seen[k] == 2);
        distinct += seen[k] == 2;
    }
    assert_int_equal(distinct, factorial(np));
    free(seen);
}

static void test_all_orders_equally_often(void **unused)
{
    (void)unused;
    check_every_order(2);
    check_every_order(3);
    check_every_order(4);
}

/* Pooled specs: hard,medium,medium has three distinct orders (where hard
 * sits), each once per cycle; 2+2 at 4 seats has 6. */
static void test_all_orders_of_pooled_specs(void **unused)
{
    (void)unused;
    int lone[3] = {0, 1, 1}, seat[8];
    assert_int_equal(pips_seating_period(PIPS_SEATING_ALL, lone, 3), 3);
    int where[3] = {0};
    for (unsigned long g = 0; g < 9; g++) {
        assert_true(pips_seating_order(PIPS_SEATING_ALL, lone, 3, g, seat));
        int zeros = 0;
        for (int s = 0; s < 3; s++)
            if (seat[s] == 0) {
                where[s]++;
                zeros++;
            }
        assert_int_equal(zeros, 1);
    }
    for (int s = 0; s < 3; s++)
        assert_int_equal(where[s], 3);
    int pairs[4] = {0, 0, 1, 1};
    assert_int_equal(pips_seating_period(PIPS_SEATING_ALL, pairs, 4), 6);
    /* a lone spec against four copies at 5 seats: its 5 orders, not the design */
    int field5[5] = {0, 1, 1, 1, 1};
    assert_int_equal(pips_seating_period(PIPS_SEATING_ALL, field5, 5), 5);
    int one[6] = {0};
    assert_int_equal(pips_seating_period(PIPS_SEATING_ALL, one, 6), 1);
}

/* The balanced design at 5..8 seats: each spec takes each seat np - 1
 * times (twice that at 6), and each ordered pair (x, then y in the next
 * seat around the table) occurs equally often. */
static void test_balanced_design_counts(void **unused)
{
    (void)unused;
    const size_t rows[9] = {0, 0, 0, 0, 0, 20, 60, 42, 56};
    for (int np = 5; np <= 8; np++) {
        int spec[8], seat[8];
        for (int s = 0; s < np; s++)
            spec[s] = s;
        size_t period = pips_seating_period(PIPS_SEATING_ALL, spec, np);
        assert_int_equal(period, rows[np]);
        unsigned in_seat[8][8] = {{0}}, follows[8][8] = {{0}};
        for (unsigned long g = 0; g < period; g++) {
            assert_true(pips_seating_order(PIPS_SEATING_ALL, spec, np, g, seat));
            int used[8] = {0};
            for (int s = 0; s < np; s++) {
                used[seat[s]]++;
                in_seat[seat[s]][s]++;
                follows[seat[s]][seat[(s + 1) % np]]++;
            }
            for (int s = 0; s < np; s++)
                assert_int_equal(used[s], 1);
        }
        unsigned each_seat = (unsigned)(period / (size_t)np);
        unsigned each_pair = (unsigned)(period / (size_t)(np - 1));
        for (int a = 0; a < np; a++)
            for (int b = 0; b < np; b++) {
                assert_int_equal(in_seat[a][b], each_seat);
                assert_int_equal(follows[a][b], a == b ? 0 : each_pair);
            }
    }
}

static void test_rotate_and_fixed(void **unused)
{
    (void)unused;
    int spec[4] = {0, 1, 2, 3}, seat[8];
    assert_int_equal(pips_seating_period(PIPS_SEATING_ROTATE, spec, 4), 4);
    assert_int_equal(pips_seating_period(PIPS_SEATING_FIXED, spec, 4), 1);
    assert_true(pips_seating_order(PIPS_SEATING_ROTATE, spec, 4, 5, seat));
    for (int s = 0; s < 4; s++)
        assert_int_equal(seat[s], (s + 5) % 4);
    assert_true(pips_seating_order(PIPS_SEATING_FIXED, spec, 4, 5, seat));
    for (int s = 0; s < 4; s++)
        assert_int_equal(seat[s], s);
    /* bad input: a seat count or agent number out of range */
    assert_false(pips_seating_order(PIPS_SEATING_ALL, spec, 0, 0, seat));
    assert_false(pips_seating_order(PIPS_SEATING_ALL, spec, 9, 0, seat));
    int bad[3] = {0, 3, 1};
    assert_false(pips_seating_order(PIPS_SEATING_ALL, bad, 3, 0, seat));
    assert_int_equal(pips_seating_period(PIPS_SEATING_ALL, spec, 0), 0);
    pips_seating k;
    assert_true(pips_seating_parse("all", &k) && k == PIPS_SEATING_ALL);
    assert_true(pips_seating_parse("fixed", &k) && k == PIPS_SEATING_FIXED);
    assert_true(pips_seating_parse("rotate", &k) && k == PIPS_SEATING_ROTATE);
    assert_false(pips_seating_parse("every", &k));
    assert_string_equal(pips_seating_name(PIPS_SEATING_ALL), "all");
}

static void test_pool_specs(void **unused)
{
    (void)unused;
    const char *specs[] = {"greedy", "random", "greedy", "mcts:iters=20", "random"};
    int agent[5];
    assert_int_equal(pips_pool_specs(specs, 5, agent), 3);
    const int want[5] = {0, 1, 0, 2, 1};
    for (int i = 0; i < 5; i++)
        assert_int_equal(agent[i], want[i]);
}

static json_t *report_json(const pips_playtest *pt)
{
    pips_str s;
    pips_str_init(&s, NULL);
    assert_true(pips_playtest_json(pt, false, &s));
    json_t *j = json_loads(pips_str_cstr(&s), 0, NULL);
    pips_str_free(&s);
    assert_non_null(j);
    return j;
}

/* A playtest with greedy,random,random: two agents, random holding two
 * seats; under `all` each agent sits in each seat equally. */
static void test_playtest_pools_and_seats_all(void **unused)
{
    (void)unused;
    const char *seats[] = {"greedy", "random", "random"};
    pips_playtest_opts o = {.def = &toy_race_def, .seats = seats, .n_seats = 3, .games = 12,
                            .seed = 5, .threads = 1, .seating = PIPS_SEATING_ALL};
    pips_error err;
    pips_playtest *pt = pips_playtest_run(&o, &err);
    assert_non_null(pt);
    json_t *j = report_json(pt);
    json_t *agents = json_object_get(j, "agents");
    assert_int_equal(json_array_size(agents), 2);
    assert_string_equal(json_string_value(json_array_get(agents, 0)), "greedy");
    assert_string_equal(json_string_value(json_object_get(j, "seatings")), "all");
    json_t *va = json_object_get(json_array_get(json_object_get(j, "variants"), 0), "agents");
    assert_int_equal(json_array_size(va), 2);
    json_t *greedy = json_array_get(va, 0), *random = json_array_get(va, 1);
    assert_int_equal(json_integer_value(json_object_get(greedy, "seats")), 1);
    assert_int_equal(json_integer_value(json_object_get(random, "seats")), 2);
    /* the pooled agent counts every seat it held: 2 x 12 seat-games */
    assert_int_equal(json_integer_value(json_object_get(greedy, "games")), 12);
    assert_int_equal(json_integer_value(json_object_get(random, "games")), 24);
    for (int s = 0; s < 3; s++) {
        json_t *cell = json_array_get(json_object_get(greedy, "by_seat"), (size_t)s);
        assert_int_equal(json_integer_value(json_object_get(cell, "games")), 4);
        cell = json_array_get(json_object_get(random, "by_seat"), (size_t)s);
        assert_int_equal(json_integer_value(json_object_get(cell, "games")), 8);
    }
    /* wins add up to the games: one winner per race */
    long long wins = json_integer_value(json_object_get(greedy, "wins")) +
                     json_integer_value(json_object_get(random, "wins"));
    assert_int_equal(wins, 12);
    json_decref(j);
    pips_str md;
    pips_str_init(&md, NULL);
    pips_playtest_markdown(pt, &md);
    assert_non_null(strstr(pips_str_cstr(&md), "`random` (2 seats)"));
    assert_non_null(strstr(pips_str_cstr(&md), "over every seating"));
    pips_str_free(&md);
    pips_playtest_free(pt);

    /* the fixed alias: greedy stays in seat 1 */
    o.seating = PIPS_SEATING_ROTATE;
    o.fixed_seats = true;
    pt = pips_playtest_run(&o, &err);
    assert_non_null(pt);
    j = report_json(pt);
    va = json_object_get(json_array_get(json_object_get(j, "variants"), 0), "agents");
    json_t *cell = json_array_get(json_object_get(json_array_get(va, 0), "by_seat"), 0);
    assert_int_equal(json_integer_value(json_object_get(cell, "games")), 12);
    assert_string_equal(json_string_value(json_object_get(j, "seatings")), "fixed");
    json_decref(j);
    pips_playtest_free(pt);
}

/* A 3-seat ladder plays every seating of each table: with 6 games per
 * table every pair meets 6 times per table and the ratings are symmetric in
 * the count of games. */
static void test_ladder_three_seats_every_seating(void **unused)
{
    (void)unused;
    const char *agents[] = {"random", "greedy", "mcts:iters=30"};
    pips_ladder_opts o = {.game = "tictacdoh", .opts = (const char *const[]){"players=3"},
                          .n_opts = 1, .agents = agents, .n_agents = 3, .games = 6, .seed = 4,
                          .threads = 1, .prior = 1};
    pips_error err;
    pips_ladder *l = pips_ladder_run(&o, &err);
    if (!l)
        fail_msg("%s", err.msg);
    assert_int_equal(l->tables, 1);
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 3; j++)
            assert_true(l->games[i][j] == (i == j ? 0 : 6));
    pips_ladder_free(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_orders_equally_often),
        cmocka_unit_test(test_all_orders_of_pooled_specs),
        cmocka_unit_test(test_balanced_design_counts),
        cmocka_unit_test(test_rotate_and_fixed),
        cmocka_unit_test(test_pool_specs),
        cmocka_unit_test(test_playtest_pools_and_seats_all),
        cmocka_unit_test(test_ladder_three_seats_every_seating),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
