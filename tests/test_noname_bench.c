/*
 * test_noname_bench.c — runs the Noname benchmarks of noname.h and prints
 * their figures: random playouts from candidates per second (two players,
 * default table), the same through the random_move shortcut, and the time
 * of one legality check plus pointing update among 100 pieces. Figures are
 * reported, never asserted (timing is not a unit test); the test checks
 * only that the benchmarks ran. Set PIPS_NONAME_BENCH=1 for the full-size
 * workload.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "noname_helpers.h"

static void test_bench_figures(void **st)
{
    (void)st;
    bool full = getenv("PIPS_NONAME_BENCH") != NULL;
    pips_game *g = nt_game(NULL, 0);
    int playouts = full ? g->def->bench_playouts : 300;
    double rate = noname_bench_playouts(g, playouts, 1);
    double fast = noname_bench_fast_playouts(g, playouts * 4, 3);
    double us = noname_bench_placement_us(100, full ? 200000 : 20000, 2);
    printf("noname bench: %d playouts from candidates: %.0f playouts/s\n", playouts, rate);
    printf("noname bench: %d playouts with random_move (pips_random_playout): %.0f playouts/s\n",
           playouts * 4, fast);
    printf("noname bench: legality + pointing update among 100 pieces: %.3f us\n", us);
    assert_true(rate > 0 && fast > 0);
    assert_true(us > 0);
    pips_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bench_figures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
