/*
 * test_lab.c — the playtest lab: the statistics against published values
 * (Wilson 1927 intervals, Newcombe 1998 difference interval, chi-square
 * quantiles, the two-proportion and Welch z-tests, Holm's adjustment), round
 * plot ticks, reports identical for any thread count, seat rotation, fixed
 * seats, the second rule set, variant sweeps (grid, one agent in every
 * seat, the CSV and plots), the cap rate, exact values beside the measured
 * rates, empty cells, whole numbers in the JSON, errors, and the report
 * files (old records cleared), and the child's processor time that the
 * exact solve's wait reads.
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
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lab/lab_impl.h"
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
            snprintf(path, sizeof path, "variants.0.agents.%d.by_seat.%d.games", k, s);
            assert_true(num(j, path) == 10);
        }
    /* every game has a winner in this race: wins add up, no draws */
    double wins = 0;
    for (int s = 0; s < 3; s++) {
        char path[64];
        snprintf(path, sizeof path, "variants.0.seats.%d.wins", s);
        wins += num(j, path);
    }
    assert_true(wins == 30 && num(j, "variants.0.draws") == 0);
    assert_true(num(j, "run.threads") == 2);
    assert_true(num(j, "variants.0.length.min") >= 1);
    json_decref(j);
    pips_playtest_free(pt);

    o.fixed_seats = true;
    pt = run(&o);
    j = parse(pt);
    assert_true(num(j, "variants.0.agents.1.by_seat.1.games") == 30);
    assert_true(num(j, "variants.0.agents.1.by_seat.0.games") == 0);
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
    json_t *vars = json_object_get(j, "variants");
    assert_int_equal(json_array_size(vars), 2);
    json_t *base_opts = json_object_get(json_array_get(vars, 0), "options");
    json_t *vs_opts = json_object_get(json_array_get(vars, 1), "options");
    assert_non_null(strstr(json_string_value(base_opts), "snake=7"));
    assert_non_null(strstr(json_string_value(vs_opts), "snake=0"));
    assert_non_null(strstr(json_string_value(vs_opts), "players=2"));
    /* the varied key is the --vs-opt key, with the base's resolved value */
    const char *a = json_string_value(
        json_object_get(json_object_get(json_array_get(vars, 0), "varied"), "snake"));
    assert_non_null(a);
    assert_string_equal(a, "7");
    json_t *cmp = json_object_get(j, "comparisons");
    assert_true(json_array_size(cmp) >= 6);
    assert_string_equal(json_string_value(json_object_get(j, "correction")), "holm-bonferroni");
    /* without the snake nobody is sent back: games are no longer */
    assert_true(num(j, "variants.1.length.mean") <= num(j, "variants.0.length.mean"));
    for (size_t i = 0; i < json_array_size(cmp); i++) {
        json_t *c = json_array_get(cmp, i);
        double d = json_number_value(json_object_get(c, "difference"));
        double b = json_number_value(json_object_get(c, "first"));
        double v = json_number_value(json_object_get(c, "this"));
        assert_true(fabs(d - (v - b)) < 1e-9);
        json_t *lo = json_object_get(c, "lo"), *hi = json_object_get(c, "hi");
        if (lo && hi)
            assert_true(json_number_value(lo) <= d + 1e-12 && d <= json_number_value(hi) + 1e-12);
        json_t *p = json_object_get(c, "p"), *ph = json_object_get(c, "p_holm");
        if (p) {
            /* Holm never lowers a p-value and never passes 1 */
            assert_non_null(ph);
            assert_true(json_number_value(ph) >= json_number_value(p) - 1e-15);
            assert_true(json_number_value(ph) <= 1);
        }
    }
    pips_str md;
    pips_str_init(&md, NULL);
    pips_playtest_markdown(pt, &md);
    assert_non_null(strstr(pips_str_cstr(&md), "## Against variant A"));
    assert_non_null(strstr(pips_str_cstr(&md), "Holm-Bonferroni"));
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
    const char *three[] = {"random", "random", "random"};
    pips_playtest_opts o = {.game = "tictacdoh", .seats = three, .n_seats = 3, .games = 2,
                            .seed = 1, .threads = 1};
    assert_null(pips_playtest_run(&o, &err));
    assert_non_null(strstr(err.msg, "2 seats but 3 agents"));
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
    assert_non_null(strstr(err.msg, "from 1 to 100000000"));
    o.games = PIPS_LAB_MAX_GAMES + 1;
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
    /* a record left by an earlier run (game 11 of 11) is removed, with a count;
     * a file of another name stays */
    char path0[256];
    assert_int_equal(mkdir(sub, 0777), 0);
    snprintf(path0, sizeof path0, "%s/records", sub);
    assert_int_equal(mkdir(path0, 0777), 0);
    snprintf(path0, sizeof path0, "%s/records/A-000011.json", sub);
    FILE *old = fopen(path0, "w");
    assert_non_null(old);
    fclose(old);
    char keep[256];
    snprintf(keep, sizeof keep, "%s/records/notes.txt", sub);
    old = fopen(keep, "w");
    assert_non_null(old);
    fclose(old);
    unsigned long removed = 99;
    if (!pips_playtest_write(pt, sub, &removed, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(removed, 1);
    assert_true(access(path0, F_OK) != 0);
    assert_int_equal(access(keep, F_OK), 0);
    remove(keep);
    static const char *const files[] = {"report.md", "report.json", "seats.svg", "lengths.svg",
                                        "sweep.csv"};
    for (size_t i = 0; i < 5; i++) {
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

/* Known values: R's prop.test(c(45, 60), c(100, 100), correct = FALSE) gives
 * X-squared 4.5113, p 0.03367; the Welch statistic of means 10 (sd 2, n 50)
 * and 11 (sd 3, n 60) is 2.0851, two-sided normal p 0.03706; R's
 * p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") is 0.03 0.06 0.06 0.02. */
static void test_sweep_stats_known_values(void **unused)
{
    (void)unused;
    assert_true(fabs(pips_normal_p2(1.959964) - 0.05) < 1e-6);
    assert_true(fabs(pips_normal_p2(-2.575829) - 0.01) < 1e-6);
    assert_true(fabs(pips_two_prop_p(45, 100, 60, 100) - 0.03367) < 1e-5);
    assert_true(fabs(pips_two_prop_p(60, 100, 45, 100) - 0.03367) < 1e-5);
    assert_true(pips_two_prop_p(0, 20, 0, 30) == 1);
    assert_true(pips_two_prop_p(3, 0, 1, 5) == 1);
    assert_true(fabs(pips_mean_diff_p(10, 2, 50, 11, 3, 60) - 0.03706) < 1e-5);
    assert_true(pips_mean_diff_p(4, 0, 10, 4, 0, 10) == 1);
    double p[] = {0.01, 0.04, 0.03, 0.005}, adj[4];
    pips_holm(p, 4, adj);
    double want[] = {0.03, 0.06, 0.06, 0.02};
    for (int i = 0; i < 4; i++)
        assert_true(fabs(adj[i] - want[i]) < 1e-12);
    double big[] = {0.5, 0.9};
    pips_holm(big, 2, adj);
    assert_true(adj[0] == 1 && adj[1] == 1);
    /* round ticks: 0..107 becomes 0, 25, ..., 125; 0..1 steps 0.2; a
     * negative range keeps round steps */
    double first, last, step;
    lab_nice_ticks(0, 107, 5, &first, &last, &step);
    assert_true(first == 0 && step == 25 && last == 125);
    lab_nice_ticks(0, 1, 5, &first, &last, &step);
    assert_true(first == 0 && fabs(step - 0.2) < 1e-12 && fabs(last - 1) < 1e-12);
    lab_nice_ticks(-0.25, 0.02, 5, &first, &last, &step);
    assert_true(fabs(step - 0.1) < 1e-12 && fabs(first + 0.3) < 1e-12 && fabs(last - 0.1) < 1e-12);
    lab_nice_ticks(3, 3, 5, &first, &last, &step);
    assert_true(first <= 3 && last > 3 && step > 0);
}

/* The plot's tick labels are round numbers (no 27, 53, 80, 107). */
static void test_svg_round_ticks(void **unused)
{
    (void)unused;
    const char *groups[] = {"a", "b"};
    double v[] = {107, 40};
    svg_series s = {"games", v, NULL, NULL};
    pips_str out;
    pips_str_init(&out, NULL);
    lab_svg_bars(&out, "t", "games", groups, 2, &s, 1, 0, 107);
    const char *t = pips_str_cstr(&out);
    assert_non_null(strstr(t, ">25</text>"));
    assert_non_null(strstr(t, ">125</text>"));
    assert_null(strstr(t, ">27</text>"));
    pips_str_free(&out);
}

static char *csv_of(const pips_playtest *pt)
{
    pips_str s;
    pips_str_init(&s, NULL);
    pips_playtest_csv(pt, &s);
    char *copy = strdup(pips_str_cstr(&s));
    pips_str_free(&s);
    return copy;
}

/* A sweep over the seat count with one agent in every seat: the grid's
 * variants, their seat counts, the CSV (one row per variant, the same
 * number of fields in each) and the same files for 1 and 2 threads. */
static void test_sweep_grid(void **unused)
{
    (void)unused;
    const char *seats[] = {"greedy"};
    const char *vary[] = {"players=2,3,4", "snake=7,0"};
    pips_playtest_opts o = {.def = &toy_race_def, .vary = vary, .n_vary = 2, .seats = seats,
                            .n_seats = 1, .games = 12, .seed = 4, .threads = 1};
    pips_playtest *a = run(&o);
    json_t *j = parse(a);
    json_t *vars = json_object_get(j, "variants");
    assert_int_equal(json_array_size(vars), 6);
    /* the last key varies fastest */
    assert_true(num(j, "variants.0.players") == 2 && num(j, "variants.1.players") == 2);
    assert_true(num(j, "variants.2.players") == 3 && num(j, "variants.5.players") == 4);
    assert_string_equal(
        json_string_value(json_object_get(json_object_get(json_array_get(vars, 1), "varied"),
                                          "snake")),
        "0");
    assert_int_equal(json_array_size(json_object_get(json_array_get(vars, 5), "seats")), 4);
    assert_true(num(j, "variants.5.agents.0.games") == 12 * 4);
    assert_true(num(j, "variants.3.games") == 12);
    /* counts are integers, not 12.0 */
    assert_true(json_is_integer(json_object_get(json_array_get(vars, 3), "draws")));
    assert_true(json_is_integer(
        json_object_get(json_array_get(json_object_get(json_array_get(vars, 3), "seats"), 0),
                        "wins")));
    json_decref(j);
    char *csv = csv_of(a);
    int lines = 0, fields0 = -1;
    for (char *line = strtok(csv, "\n"); line; line = strtok(NULL, "\n"), lines++) {
        int fields = 1;
        for (char *c = line; *c; c++)
            fields += *c == ',';
        if (fields0 < 0)
            fields0 = fields;
        assert_int_equal(fields, fields0);
    }
    assert_int_equal(lines, 7);
    free(csv);
    char *ja = json_of(a), *ca = csv_of(a);
    o.threads = 2;
    pips_playtest *b = run(&o);
    char *jb = json_of(b), *cb = csv_of(b);
    assert_string_equal(ja, jb);
    assert_string_equal(ca, cb);
    /* the sweep section and its plots; seats absent in a variant are '-' */
    assert_non_null(strstr(ja, "## Sweep"));
    assert_non_null(strstr(ja, "sweep-first-seat-advantage.svg"));
    assert_non_null(strstr(ja, "| A | 2 | 7 | 12 |"));
    free(ja);
    free(jb);
    free(ca);
    free(cb);
    pips_playtest_free(a);
    pips_playtest_free(b);
}

static void test_sweep_errors(void **unused)
{
    (void)unused;
    pips_error err;
    const char *one[] = {"random"}, *two[] = {"random", "greedy"};
    const char *vary[] = {"players=2,3"};
    pips_playtest_opts o = {.def = &toy_race_def, .vary = vary, .n_vary = 1, .seats = two,
                            .n_seats = 2, .games = 2, .seed = 1, .threads = 1};
    /* two agents cannot fill three seats */
    assert_null(pips_playtest_run(&o, &err));
    assert_non_null(strstr(err.msg, "variant B (players=3"));
    o.seats = one;
    o.n_seats = 1;
    const char *bad[][1] = {{"players"}, {"players=2,,3"}, {"players=2,2"}, {"players=2,9"},
                            {"=2,3"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        o.vary = bad[i];
        assert_null(pips_playtest_run(&o, &err));
        assert_true(strstr(err.msg, "--vary") != NULL);
    }
    const char *twice[] = {"players=2,3", "players=4"};
    o.vary = twice;
    o.n_vary = 2;
    assert_null(pips_playtest_run(&o, &err));
    assert_non_null(strstr(err.msg, "twice"));
    const char *opt[] = {"players=2"};
    o.vary = vary;
    o.n_vary = 1;
    o.opts = opt;
    o.n_opts = 1;
    assert_null(pips_playtest_run(&o, &err));
    assert_non_null(strstr(err.msg, "both --opt and --vary"));
    const char *vs[] = {"snake=0"};
    o.opts = NULL;
    o.n_opts = 0;
    o.vs_opts = vs;
    o.n_vs_opts = 1;
    assert_null(pips_playtest_run(&o, &err));
    assert_non_null(strstr(err.msg, "do not mix"));
}

/* The cap rate: IceFrogs stopped by max_plies (ICF-R11), Noname by its
 * turn cap and Ziggurat by max_turns count as capped. */
static void test_cap_rate(void **unused)
{
    (void)unused;
    const char *seats[] = {"random"};
    const char *opts[] = {"max_plies=2"};
    const char *vary[] = {"max_plies=2,10000"};
    pips_playtest_opts o = {.game = "icefrogs", .opts = opts, .n_opts = 1, .seats = seats,
                            .n_seats = 1, .games = 6, .seed = 1, .threads = 1};
    pips_playtest *pt = run(&o);
    json_t *j = parse(pt);
    assert_true(num(j, "variants.0.capped") == 6);
    assert_true(num(j, "variants.0.cap_rate.value") == 1);
    json_decref(j);
    pips_playtest_free(pt);
    o.opts = NULL;
    o.n_opts = 0;
    o.vary = vary;
    o.n_vary = 1;
    pt = run(&o);
    j = parse(pt);
    assert_true(num(j, "variants.0.capped") == 6);
    assert_true(num(j, "variants.1.capped") == 0);
    json_decref(j);
    pips_playtest_free(pt);
    /* Noname's turn cap (NON-R13) and Ziggurat's (ZIG-R24): one turn, then
     * the cap; without it (the defaults) random games end by the rules */
    const char *nn[] = {"turn_cap=1,auto"}, *zig[] = {"max_turns=1,1000"};
    const char *zig_opts[] = {"players=2"};
    const char *const *vs[] = {nn, zig};
    const char *games[] = {"noname", "ziggurat"};
    for (int g = 0; g < 2; g++) {
        pips_playtest_opts q = {.game = games[g], .opts = g ? zig_opts : NULL, .n_opts = g,
                                .vary = vs[g], .n_vary = 1, .seats = seats, .n_seats = 1,
                                .games = 4, .seed = 3, .threads = 1};
        pt = run(&q);
        j = parse(pt);
        assert_true(num(j, "variants.0.capped") == 4);
        assert_true(num(j, "variants.1.capped") < 4);
        json_decref(j);
        pips_playtest_free(pt);
    }
}

/* Agents against the game: Nimitz 3x3 with 3 colours is a proven first
 * player win; random seats score far below 1, and the report says so. A
 * three-player variant is not solved; a tiny budget leaves it unknown. */
static void test_exact_values(void **unused)
{
    (void)unused;
    const char *seats[] = {"random"};
    const char *opts[] = {"board=3x3", "colors=3"};
    pips_playtest_opts o = {.game = "nimitz", .opts = opts, .n_opts = 2, .seats = seats,
                            .n_seats = 1, .games = 30, .seed = 2, .threads = 2,
                            .exact_seconds = 20};
    pips_playtest *pt = run(&o);
    json_t *j = parse(pt);
    json_t *ex = json_object_get(json_array_get(json_object_get(j, "variants"), 0), "exact");
    assert_non_null(ex);
    assert_string_equal(json_string_value(json_object_get(ex, "status")), "solved");
    assert_string_equal(json_string_value(json_object_get(ex, "value")), "win");
    assert_true(json_integer_value(json_object_get(ex, "perfect_play_score")) == 1);
    assert_true(json_is_false(json_object_get(ex, "agrees")));
    json_decref(j);
    pips_str md;
    pips_str_init(&md, NULL);
    pips_playtest_markdown(pt, &md);
    assert_non_null(strstr(pips_str_cstr(&md), "## Agents against the game"));
    assert_non_null(strstr(pips_str_cstr(&md), "first mover (seat 1) wins"));
    assert_non_null(strstr(pips_str_cstr(&md), "**Warning: the agents disagree"));
    pips_str_free(&md);
    char *csv = csv_of(pt);
    assert_non_null(strstr(csv, ",win,"));
    free(csv);
    pips_playtest_free(pt);

    /* the coaster does not settle in a millisecond: unknown, and quickly */
    const char *coaster[] = {"board=coaster"};
    o.opts = coaster;
    o.n_opts = 1;
    o.games = 1;
    o.exact_seconds = 0.001;
    o.exact_mb = 16;
    double t0 = pips_now();
    pt = run(&o);
    assert_true(pips_now() - t0 < 30);
    j = parse(pt);
    ex = json_object_get(json_array_get(json_object_get(j, "variants"), 0), "exact");
    assert_non_null(ex);
    assert_string_equal(json_string_value(json_object_get(ex, "status")), "unknown");
    json_decref(j);
    pips_playtest_free(pt);

    /* not two-player: no exact value */
    const char *p3[] = {"players=3", "board=3x3"};
    o.opts = p3;
    o.n_opts = 2;
    o.exact_seconds = 5;
    pt = run(&o);
    j = parse(pt);
    assert_null(json_object_get(json_array_get(json_object_get(j, "variants"), 0), "exact"));
    json_decref(j);
    pips_playtest_free(pt);
}

/* A cell with no games is n/a (JSON null), not 0.000 [0.000, 1.000]. */
static void test_empty_cells(void **unused)
{
    (void)unused;
    const char *seats[] = {"random", "greedy"};
    pips_playtest_opts o = {.game = "tictacdoh", .seats = seats, .n_seats = 2, .games = 4,
                            .seed = 1, .threads = 1, .fixed_seats = true};
    pips_playtest *pt = run(&o);
    pips_str md;
    pips_str_init(&md, NULL);
    pips_playtest_markdown(pt, &md);
    assert_null(strstr(pips_str_cstr(&md), "(n=0)"));
    assert_null(strstr(pips_str_cstr(&md), "0.000 [0.000, 1.000]"));
    pips_str_free(&md);
    json_t *j = parse(pt);
    json_t *cell = json_array_get(
        json_object_get(json_array_get(json_object_get(
                                           json_array_get(json_object_get(j, "variants"), 0),
                                           "agents"),
                                       0),
                        "by_seat"),
        1);
    assert_true(json_integer_value(json_object_get(cell, "games")) == 0);
    assert_true(json_is_null(json_object_get(json_object_get(cell, "win_rate"), "value")));
    json_decref(j);
    pips_playtest_free(pt);
}

/* The exact solve's wait tells a slow child from a stuck one by the
 * processor time the child gains (exact.c): that reading must rise for a
 * busy child and be -1 once the child is gone. */
static void test_child_cpu_seconds(void **unused)
{
    (void)unused;
    assert_true(lab_child_cpu_seconds(getpid()) >= 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        volatile unsigned long spin = 0;
        for (;;)
            spin++;
    }
    double cpu = 0;
    for (int i = 0; i < 400 && cpu <= 0; i++) { /* up to 20 s on a loaded machine */
        struct timespec pause = {0, 50000000};
        nanosleep(&pause, NULL);
        cpu = lab_child_cpu_seconds(pid);
    }
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    assert_true(cpu > 0);
    assert_true(lab_child_cpu_seconds(pid) < 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wilson_known_values),
        cmocka_unit_test(test_child_cpu_seconds),
        cmocka_unit_test(test_chi2_known_values),
        cmocka_unit_test(test_same_report_any_threads),
        cmocka_unit_test(test_seat_rotation),
        cmocka_unit_test(test_vs_rule_set),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_report_files),
        cmocka_unit_test(test_sweep_stats_known_values),
        cmocka_unit_test(test_svg_round_ticks),
        cmocka_unit_test(test_sweep_grid),
        cmocka_unit_test(test_sweep_errors),
        cmocka_unit_test(test_cap_rate),
        cmocka_unit_test(test_exact_values),
        cmocka_unit_test(test_empty_cells),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
