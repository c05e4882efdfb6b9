/*
 * test_ladder.c — the ratings of `pips ladder`: the Bradley-Terry fit
 * against values known in closed form (two agents: the Elo difference of a
 * score p is 400 log10(p / (1 - p)) and the Fisher standard error is
 * 1 / sqrt(4 n p (1 - p)) nats each), recovery of planted ratings from their
 * expected scores, the errors for unbounded or disconnected pools, and the
 * round robin itself (tables, pairwise counts, seats, determinism).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "pips/ladder.h"
#include "pips/skill.h"

#define ELO_PER_NAT (400.0 / log(10.0))

static void test_two_agents_closed_form(void **st)
{
    (void)st;
    /* A scores 300 of 400 against B (draws count half: 250 wins, 100 draws) */
    double pts[4] = {0, 300, 100, 0}, games[4] = {0, 400, 400, 0}, elo[2], se[2];
    pips_error err;
    assert_true(pips_bt_fit(2, pts, games, 0, elo, se, &err));
    double diff = 400 * log10(3.0);
    assert_true(fabs(elo[0] - diff / 2) < 1e-6);
    assert_true(fabs(elo[1] + diff / 2) < 1e-6);
    double want_se = ELO_PER_NAT / sqrt(4 * 400 * 0.75 * 0.25);
    assert_true(fabs(se[0] - want_se) < 1e-6 && fabs(se[1] - want_se) < 1e-6);
    /* a prior of 2 virtual draws: the score becomes 301 / 402 */
    assert_true(pips_bt_fit(2, pts, games, 2, elo, se, &err));
    assert_true(fabs(elo[0] - elo[1] - 400 * log10(301.0 / 101.0)) < 1e-6);
}

/* Planted ratings 0, 100, 300 and 250 (mean 162.5): the expected points of
 * every pair over 1000 games fit back to them exactly. */
static void test_recovers_planted_ratings(void **st)
{
    (void)st;
    const double planted[4] = {0, 100, 300, 250};
    double pts[16] = {0}, games[16] = {0}, elo[4], se[4];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            if (i != j) {
                double p = 1 / (1 + pow(10, (planted[j] - planted[i]) / 400));
                games[i * 4 + j] = 1000;
                pts[i * 4 + j] = 1000 * p;
            }
    pips_error err;
    assert_true(pips_bt_fit(4, pts, games, 0, elo, se, &err));
    for (int i = 0; i < 4; i++) {
        if (fabs(elo[i] - (planted[i] - 162.5)) > 1e-4)
            fail_msg("agent %d: %.6f, planted %.6f", i, elo[i], planted[i] - 162.5);
        assert_true(se[i] > 5 && se[i] < 30);
    }
    /* more games, narrower intervals */
    for (int i = 0; i < 16; i++) {
        pts[i] *= 4;
        games[i] *= 4;
    }
    double se4[4];
    assert_true(pips_bt_fit(4, pts, games, 0, elo, se4, &err));
    for (int i = 0; i < 4; i++)
        assert_true(fabs(se4[i] - se[i] / 2) < 1e-6);
}

static void test_fit_errors(void **st)
{
    (void)st;
    pips_error err;
    double elo[3], se[3];
    /* a perfect score has no finite rating without the prior */
    double perfect[4] = {0, 50, 0, 0}, g2[4] = {0, 50, 50, 0};
    assert_false(pips_bt_fit(2, perfect, g2, 0, elo, se, &err));
    assert_non_null(strstr(err.msg, "unbounded"));
    assert_true(pips_bt_fit(2, perfect, g2, 1, elo, se, &err));
    assert_true(fabs(elo[0] - 200 * log10(101.0)) < 1e-6 && fabs(elo[0] + elo[1]) < 1e-9);
    /* agent 3 never played */
    double pts3[9] = {0, 5, 0, 5, 0, 0, 0, 0, 0}, g3[9] = {0, 10, 0, 10, 0, 0, 0, 0, 0};
    assert_false(pips_bt_fit(3, pts3, g3, 1, elo, se, &err));
    assert_non_null(strstr(err.msg, "not all connected"));
    /* points that do not add up to the games */
    double bad[4] = {0, 30, 30, 0};
    assert_false(pips_bt_fit(2, bad, g2, 1, elo, se, &err));
    assert_non_null(strstr(err.msg, "inconsistent"));
    assert_false(pips_bt_fit(1, bad, g2, 1, elo, se, &err));
}

/* A small round robin on Tic Tac Doh!: every pair meets `games` times, the
 * counts add up, greedy beats random in every game (TTD: greedy always takes
 * an immediate win and random never blocks it reliably), and the result is
 * the same for one and two threads. */
static void test_round_robin(void **st)
{
    (void)st;
    const char *agents[] = {"random", "greedy", "mcts:iters=100"};
    pips_ladder_opts o = {.game = "tictacdoh", .agents = agents, .n_agents = 3, .games = 12,
                          .seed = 4, .threads = 1, .prior = -1};
    pips_error err;
    pips_ladder *a = pips_ladder_run(&o, &err);
    if (!a)
        fail_msg("%s", err.msg);
    o.threads = 2;
    pips_ladder *b = pips_ladder_run(&o, &err);
    assert_non_null(b);
    assert_int_equal(a->tables, 3);
    assert_true(a->prior == 1);
    for (size_t i = 0; i < 3; i++) {
        assert_true(a->agent[i].games == 24);
        assert_true(a->agent[i].wins + a->agent[i].draws + a->agent[i].losses == 24);
        assert_true(a->agent[i].elo == b->agent[i].elo);
        assert_true(a->agent[i].lo < a->agent[i].elo && a->agent[i].elo < a->agent[i].hi);
        for (size_t j = 0; j < 3; j++)
            if (i != j)
                assert_true(a->games[i][j] == 12 &&
                            a->points[i][j] + a->points[j][i] == 12);
    }
    assert_true(a->points[1][0] >= 10); /* greedy nearly always beats random */
    assert_int_equal(a->order[2], 0);                    /* random last */
    assert_string_equal(a->agent[2].spec, "mcts:iters=100");
    pips_str s;
    pips_str_init(&s, NULL);
    pips_ladder_text(a, &s);
    assert_non_null(strstr(pips_str_cstr(&s), "\n3 "));
    assert_non_null(strstr(pips_str_cstr(&s), " random\n"));
    pips_str_clear(&s);
    pips_ladder_csv(a, &s);
    assert_true(!strncmp(pips_str_cstr(&s), "rank,agent,elo", 14));
    pips_str_clear(&s);
    pips_ladder_svg(a, &s);
    assert_non_null(strstr(pips_str_cstr(&s), "<svg"));
    pips_str_free(&s);
    pips_ladder_free(a);
    pips_ladder_free(b);
}

/* Three seats: one table of three agents, and each game counts for all
 * three pairs at it. Bad pools are refused. */
static void test_three_seats_and_errors(void **st)
{
    (void)st;
    const char *three[] = {"random", "greedy", "mcts:iters=50"};
    const char *opt[] = {"players=3"};
    pips_ladder_opts o = {.game = "icefrogs", .opts = opt, .n_opts = 1, .agents = three,
                          .n_agents = 3, .games = 6, .seed = 2, .threads = 1, .prior = 1};
    pips_error err;
    pips_ladder *l = pips_ladder_run(&o, &err);
    if (!l)
        fail_msg("%s", err.msg);
    assert_int_equal(l->np, 3);
    assert_int_equal(l->tables, 1);
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 3; j++)
            if (i != j)
                assert_true(l->games[i][j] == 6);
    pips_ladder_free(l);
    /* two agents cannot fill three seats */
    o.n_agents = 2;
    assert_null(pips_ladder_run(&o, &err));
    assert_non_null(strstr(err.msg, "agents"));
    /* the same agent twice (after normalisation) */
    const char *same[] = {"mcts", "mcts:iters=1000"};
    pips_ladder_opts d = {.game = "tictacdoh", .agents = same, .n_agents = 2, .games = 2,
                          .seed = 1, .threads = 1, .prior = 1};
    assert_null(pips_ladder_run(&d, &err));
    assert_non_null(strstr(err.msg, "the same"));
    const char *bad[] = {"random", "nosuch"};
    d.agents = bad;
    assert_null(pips_ladder_run(&d, &err));
    assert_non_null(strstr(err.msg, "agent 2"));
}

/* What a progress callback saw: calls, the last count, the totals. */
typedef struct seen_progress {
    unsigned long calls, last, total;
    bool steady; /* each call one game on from the last, under one total */
} seen_progress;

static void note_progress(void *ud, unsigned long done, unsigned long total)
{
    seen_progress *p = ud;
    if (p->calls++ == 0)
        p->total = total;
    p->steady = p->steady && done == p->last + 1 && total == p->total;
    p->last = done;
}

/* The ladder's and the skill run's progress count the whole run: every
 * table (step) after the ones before it, up to the games of all of them. */
static void test_progress_counts_the_whole_run(void **st)
{
    (void)st;
    const char *agents[] = {"random", "greedy", "mcts:iters=20"};
    seen_progress p = {.steady = true};
    pips_ladder_opts o = {.game = "tictacdoh", .agents = agents, .n_agents = 3, .games = 4,
                          .seed = 1, .threads = 1, .prior = -1, .progress = note_progress,
                          .progress_ud = &p};
    pips_error err;
    pips_ladder *l = pips_ladder_run(&o, &err);
    if (!l)
        fail_msg("%s", err.msg);
    assert_int_equal(l->tables, 3);
    assert_true(p.steady);
    assert_int_equal(p.calls, 12);
    assert_int_equal(p.last, 12);
    assert_int_equal(p.total, 12);
    pips_ladder_free(l);
    const long budgets[] = {2, 4, 8};
    seen_progress q = {.steady = true};
    pips_skill_opts so = {.game = "tictacdoh", .agent = "mcts", .budgets = budgets,
                          .n_budgets = 3, .games = 4, .seed = 1, .threads = 1,
                          .progress = note_progress, .progress_ud = &q};
    pips_skill *s = pips_skill_run(&so, &err);
    if (!s)
        fail_msg("%s", err.msg);
    assert_true(q.steady);
    assert_int_equal(q.calls, 8);
    assert_int_equal(q.last, 8);
    assert_int_equal(q.total, 8);
    pips_skill_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_agents_closed_form),
        cmocka_unit_test(test_recovers_planted_ratings),
        cmocka_unit_test(test_fit_errors),
        cmocka_unit_test(test_round_robin),
        cmocka_unit_test(test_three_seats_and_errors),
        cmocka_unit_test(test_progress_counts_the_whole_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
