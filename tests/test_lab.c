/*
 * test_lab.c — the playtest lab: the statistics against published values
 * (Wilson 1927 intervals, Newcombe 1998 difference interval, chi-square
 * quantiles), reports identical for any thread count, seat rotation,
 * fixed seats, the second rule set, errors, and the report files.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pips/lab.h"
#include "pips/match.h"
#include "toy_game.h"

#define Z95 1.959963984540054

static void test_wilson_known_values(void **unused)
{
    (void)unused;
    double lo, hi;
    pips_wilson(0.5, 100, Z95, &lo, &hi);
    assert_true(fabs(lo - 0.403832) < 1e-5 && fabs(hi - 0.596168) < 1e-5);
    pips_wilson(0, 10, Z95, &lo, &hi);
    assert_true(lo == 0 && fabs(hi - 0.277533) < 1e-5);
    pips_wilson(1, 10, Z95, &lo, &hi);
    assert_true(fabs(lo - 0.722467) < 1e-5 && hi <= 1 && hi > 0.99999);
    pips_wilson(0.9, 50, Z95, &lo, &hi);
    assert_true(fabs(lo - 0.786398) < 1e-5 && fabs(hi - 0.956524) < 1e-5);
    pips_wilson(0.3, 0, Z95, &lo, &hi);
    assert_true(lo == 0 && hi == 1);
    /* Newcombe (1998), method 10 example: 56/70 against 48/80 */
    pips_diff_interval(56.0 / 70, 70, 48.0 / 80, 80, Z95, &lo, &hi);
    assert_true(fabs(lo - 0.0524) < 1e-4 && fabs(hi - 0.3339) < 1e-4);
}

static void test_chi2_known_values(void **unused)
{
    (void)unused;
    assert_true(fabs(pips_chi2_sf(3.841459, 1) - 0.05) < 1e-5);
    assert_true(fabs(pips_chi2_sf(5.991465, 2) - 0.05) < 1e-5);
    assert_true(fabs(pips_chi2_sf(11.344867, 3) - 0.01) < 1e-5);
    assert_true(fabs(pips_chi2_sf(0.454936, 1) - 0.5) < 1e-5);
    assert_true(pips_chi2_sf(0, 2) == 1);
}

static pips_playtest *run(const pips_playtest_opts *o)
{
    pips_error err;
    pips_playtest *pt = pips_playtest_run(o, &err);
    if (!pt)
        fail_msg("playtest: %s", err.msg);
    return pt;
}

static char *json_of(const pips_playtest *pt)
{
    pips_str s;
    pips_str_init(&s, NULL);
    assert_true(pips_playtest_json(pt, false, &s));
    pips_playtest_markdown(pt, &s);
    pips_playtest_svg_seats(pt, &s);
    pips_playtest_svg_lengths(pt, &s);
    char *copy = strdup(pips_str_cstr(&s));
    pips_str_free(&s);
    return copy;
}

/* Same seed, same report (timing aside) for 1, 2 and 3 threads. */
static void test_same_report_any_threads(void **unused)
{
    (void)unused;
    const char *seats[] = {"mcts:iters=60", "random", "greedy"};
    const char *opts[] = {"players=3"};
    pips_playtest_opts o = {.def = &toy_race_def, .opts = opts, .n_opts = 1, .seats = seats,
                            .n_seats = 3, .games = 30, .seed = 11, .threads = 1};
    pips_playtest *a = run(&o);
    char *ja = json_of(a);
    for (int t = 2; t <= 3; t++) {
        o.threads = t;
        pips_playtest *b = run(&o);
        char *jb = json_of(b);
        assert_string_equal(ja, jb);
        free(jb);
        pips_playtest_free(b);
    }
    /* a different seed gives different games */
    o.seed = 12;
    pips_playtest *c = run(&o);
    char *jc = json_of(c);
    assert_true(strcmp(ja, jc) != 0);
    free(jc);
    pips_playtest_free(c);
    free(ja);
    pips_playtest_free(a);

    const char *ttd_seats[] = {"mcts:iters=100,threads=2", "greedy"};
    pips_playtest_opts t = {.game = "tictacdoh", .seats = ttd_seats, .n_seats = 2,
                            .games = 12, .seed = 5, .threads = 1};
    pips_playtest *x = run(&t);
    t.threads = 2;
    pips_playtest *y = run(&t);
    char *jx = json_of(x), *jy = json_of(y);
    assert_string_equal(jx, jy);
    free(jx);
    free(jy);
    pips_playtest_free(x);
    pips_playtest_free(y);
}

static json_t *parse(const pips_playtest *pt)
{
    pips_str s;
    pips_str_init(&s, NULL);
    assert_true(pips_playtest_json(pt, true, &s));
    json_error_t je;
    json_t *root = json_loads(pips_str_cstr(&s), 0, &je);
    pips_str_free(&s);
    assert_non_null(root);
    return root;
}

static double num(json_t *obj, const char *path)
{
    /* path: keys and array indices separated by '.' */
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    json_t *cur = obj;
    for (char *tok = strtok(buf, "."); tok && cur; tok = strtok(NULL, ".")) {
        if (json_is_array(cur))
            cur = json_array_get(cur, (size_t)atoi(tok));
        else
            cur = json_object_get(cur, tok);
    }
    if (!cur)
        fail_msg("no %s in the JSON", path);
    return json_number_value(cur);
}

/* Rotation: each agent sits in each seat equally; fixed: only its own. */
static void test_seat_rotation(void **unused)
{
    (void)unused;
    const char *seats[] = {"random", "greedy", "mcts:iters=20"};
    pips_playtest_opts o = {.def = &toy_race_def, .seats = seats, .n_seats = 3, .games = 30,
                            .seed = 3, .threads = 2};
    pips_playtest *pt = run(&o);
    json_t *j = parse(pt);
    for (int k = 0; k < 3; k++)
        for (int s = 0; s < 3; s++) {
            char path[64];
            snprintf(path, sizeof path, "base.agents.%d.by_seat.%d.games", k, s);
            assert_true(num(j, path) == 10);
        }
    /* every game has a winner in this race: wins add up, no draws */
    double wins = 0;
    for (int s = 0; s < 3; s++) {
        char path[64];
        snprintf(path, sizeof path, "base.seats.%d.wins", s);
        wins += num(j, path);
    }
    assert_true(wins == 30 && num(j, "base.draws") == 0);
    assert_true(num(j, "timing.threads") == 2);
    assert_true(num(j, "base.length.min") >= 1);
    json_decref(j);
    pips_playtest_free(pt);

    o.fixed_seats = true;
    pt = run(&o);
    j = parse(pt);
    assert_true(num(j, "base.agents.1.by_seat.1.games") == 30);
    assert_true(num(j, "base.agents.1.by_seat.0.games") == 0);
    json_decref(j);
    pips_playtest_free(pt);
}

/* --vs-opt: both rule sets reported with a comparison of each figure. */
static void test_vs_rule_set(void **unused)
{
    (void)unused;
    const char *seats[] = {"greedy", "random"};
    const char *opts[] = {"players=2"};
    const char *vs[] = {"snake=0"};
    pips_playtest_opts o = {.def = &toy_race_def, .opts = opts, .n_opts = 1, .vs_opts = vs,
                            .n_vs_opts = 1, .seats = seats, .n_seats = 2, .games = 40,
                            .seed = 9, .threads = 2};
    pips_playtest *pt = run(&o);
    json_t *j = parse(pt);
    json_t *base_opts = json_object_get(json_object_get(j, "base"), "options");
    json_t *vs_opts = json_object_get(json_object_get(j, "vs"), "options");
    assert_non_null(strstr(json_string_value(base_opts), "snake=7"));
    assert_non_null(strstr(json_string_value(vs_opts), "snake=0"));
    assert_non_null(strstr(json_string_value(vs_opts), "players=2"));
    json_t *cmp = json_object_get(j, "comparison");
    assert_true(json_array_size(cmp) >= 6);
    /* without the snake nobody is sent back: games are no longer */
    assert_true(num(j, "vs.length.mean") <= num(j, "base.length.mean"));
    for (size_t i = 0; i < json_array_size(cmp); i++) {
        json_t *c = json_array_get(cmp, i);
        double d = json_number_value(json_object_get(c, "difference"));
        double b = json_number_value(json_object_get(c, "base"));
        double v = json_number_value(json_object_get(c, "vs"));
        assert_true(fabs(d - (v - b)) < 1e-9);
        json_t *lo = json_object_get(c, "lo"), *hi = json_object_get(c, "hi");
        if (lo && hi)
            assert_true(json_number_value(lo) <= d + 1e-12 && d <= json_number_value(hi) + 1e-12);
    }
    pips_str md;
    pips_str_init(&md, NULL);
    pips_playtest_markdown(pt, &md);
    assert_non_null(strstr(pips_str_cstr(&md), "## A against B"));
    pips_str_free(&md);
    json_decref(j);
    pips_playtest_free(pt);
}

static void test_errors(void **unused)
{
    (void)unused;
    pips_error err;
    const char *two[] = {"random", "random"};
    const char *bad[] = {"random", "mcts:iters=0"};
    pips_playtest_opts o = {.game = "tictacdoh", .seats = two, .n_seats = 1, .games = 2,
                            .seed = 1, .threads = 1};
    assert_null(pips_playtest_run(&o, &err));
    assert_non_null(strstr(err.msg, "2 seats but 1 agents"));
    o.n_seats = 2;
    o.seats = bad;
    assert_null(pips_playtest_run(&o, &err));
    assert_non_null(strstr(err.msg, "seat 2"));
    o.seats = two;
    o.game = "nosuchgame";
    assert_null(pips_playtest_run(&o, &err));
    o.game = "tictacdoh";
    o.games = 0;
    assert_null(pips_playtest_run(&o, &err));
    const char *vs[] = {"players=4"};
    pips_playtest_opts t = {.def = &toy_race_def, .vs_opts = vs, .n_vs_opts = 1, .seats = two,
                            .n_seats = 2, .games = 2, .seed = 1, .threads = 1};
    const char *p2[] = {"players=2"};
    t.opts = p2;
    t.n_opts = 1;
    assert_null(pips_playtest_run(&t, &err));
    assert_non_null(strstr(err.msg, "--vs-opt"));
}

static void test_report_files(void **unused)
{
    (void)unused;
    const char *seats[] = {"mcts:iters=50", "random"};
    pips_playtest_opts o = {.game = "tictacdoh", .seats = seats, .n_seats = 2, .games = 10,
                            .seed = 2, .threads = 2, .keep_records = true};
    pips_playtest *pt = run(&o);
    char dir[] = "/tmp/pips_lab_test_XXXXXX";
    assert_non_null(mkdtemp(dir));
    pips_error err;
    char sub[128];
    snprintf(sub, sizeof sub, "%s/out", dir);
    if (!pips_playtest_write(pt, sub, &err))
        fail_msg("%s", err.msg);
    static const char *const files[] = {"report.md", "report.json", "seats.svg", "lengths.svg"};
    for (size_t i = 0; i < 4; i++) {
        char path[256], head[8] = {0};
        snprintf(path, sizeof path, "%s/%s", sub, files[i]);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        assert_true(fread(head, 1, 5, f) == 5);
        fclose(f);
        if (strstr(files[i], ".svg"))
            assert_string_equal(head, "<svg ");
        remove(path);
    }
    /* every game is a record that replays to a finished game */
    for (int i = 1; i <= 10; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/records/A-%06d.json", sub, i);
        pips_match *m = pips_match_load(path, NULL, &err);
        if (!m)
            fail_msg("record %s: %s", path, err.msg);
        assert_true(pips_match_over(m));
        assert_string_equal(m->seats[(i - 1) % 2], "mcts:iters=50");
        pips_match_free(m);
        remove(path);
    }
    snprintf(sub + strlen(sub), sizeof sub - strlen(sub), "/records");
    rmdir(sub);
    sub[strlen(sub) - strlen("/records")] = '\0';
    rmdir(sub);
    rmdir(dir);
    /* the decisiveness section appears with an MCTS seat */
    pips_str md;
    pips_str_init(&md, NULL);
    pips_playtest_markdown(pt, &md);
    assert_non_null(strstr(pips_str_cstr(&md), "Decisiveness"));
    pips_str_free(&md);
    assert_true(pips_playtest_games_per_second(pt) > 0);
    pips_playtest_free(pt);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wilson_known_values),
        cmocka_unit_test(test_chi2_known_values),
        cmocka_unit_test(test_same_report_any_threads),
        cmocka_unit_test(test_seat_rotation),
        cmocka_unit_test(test_vs_rule_set),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_report_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
