/*
 * test_lab_metrics.c — the lab's turn, drama and repetition figures: the
 * drama and tension measures on hand-made evaluation sequences with known
 * answers (lead changes, comeback, drama, uncertainty; ties, draws, a
 * winner leading throughout), turns and rounds (one decision per turn in
 * Tic Tac Doh!, Ziggurat's turns hook under its turn cap), distinct games
 * counted from the move-sequence hashes, and the warning when games repeat.
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

#include "lab/lab_impl.h"
#include "pips/lab.h"
#include "toy_game.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-12)

/* Two seats; seat 1 trails, takes the lead on turn 3 and wins. */
static void test_drama_two_seats(void **unused)
{
    (void)unused;
    const double eval[] = {0.6, 0.4, 0.7, 0.3, 0.4, 0.6, 0, 1};
    const int seat[] = {0, 1, 0, 1};
    lab_drama d;
    lab_drama_of(eval, seat, 4, 2, 1, &d);
    assert_int_equal(d.lead_changes, 1);
    assert_int_equal(d.comeback, 1); /* after turn 2 (of 4) seat 1 trailed */
    NEAR(d.drama, 0.4);              /* its own turns: 0.4 behind on turn 2, leading on 4 */
    NEAR(d.uncertainty, 0.5);        /* leads for good from turn 3: 2 turns of 4 before */
}

/* Three seats with ties (no leader) and a lead passing round the table. */
static void test_drama_three_seats_with_ties(void **unused)
{
    (void)unused;
    const double eval[] = {0.5, 0.5, 0.5, 0.2, 0.5, 0.5, 0.1, 0.6, 0.3,
                           0.1, 0.2, 0.7, 0.3, 0.1, 0.2, 0,   0,   1};
    const int seat[] = {0, 1, 2, 0, 1, 2};
    lab_drama d;
    lab_drama_of(eval, seat, 6, 3, 2, &d);
    assert_int_equal(d.lead_changes, 3); /* 1 -> 2 -> 0 -> 2; the ties have no leader */
    assert_int_equal(d.comeback, 1);     /* after turn 3 seat 1 led */
    NEAR(d.drama, 0.3);                  /* seat 2's turns: 0.3 behind on turn 3, ahead on 6 */
    NEAR(d.uncertainty, 5.0 / 6);        /* seat 0 led after turn 5 */
}

static void test_drama_leader_throughout_and_draw(void **unused)
{
    (void)unused;
    const double eval[] = {0.8, 0.2, 0.9, 0.1, 0.7, 0.3, 1, 0};
    const int seat[] = {0, 1, 0, 1};
    lab_drama d;
    lab_drama_of(eval, seat, 4, 2, 0, &d);
    assert_int_equal(d.lead_changes, 0);
    assert_int_equal(d.comeback, 0);
    NEAR(d.drama, 0);
    NEAR(d.uncertainty, 0);
    /* a draw: lead changes still count; the winner's figures do not exist */
    const double drawn[] = {0.8, 0.2, 0.3, 0.7, 0.5, 0.5};
    lab_drama_of(drawn, seat, 3, 2, -1, &d);
    assert_int_equal(d.lead_changes, 1);
    assert_int_equal(d.comeback, -1);
    assert_true(d.drama < 0 && d.uncertainty < 0);
    /* a one-turn game: the halfway position is the end */
    const double one[] = {1, 0};
    lab_drama_of(one, seat, 1, 2, 0, &d);
    assert_int_equal(d.comeback, 0);
    NEAR(d.uncertainty, 0);
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

static double num(json_t *v, const char *a, const char *b)
{
    json_t *x = json_object_get(v, a);
    return json_number_value(b ? json_object_get(x, b) : x);
}

/* Tic Tac Doh! has no turns hook: every decision is a turn, two a round. */
static void test_turns_one_decision_each(void **unused)
{
    (void)unused;
    const char *seats[] = {"random"};
    pips_playtest_opts o = {.game = "tictacdoh", .seats = seats, .n_seats = 1, .games = 12,
                            .seed = 3, .threads = 1};
    pips_error err;
    pips_playtest *pt = pips_playtest_run(&o, &err);
    assert_non_null(pt);
    json_t *j = report_json(pt);
    json_t *v = json_array_get(json_object_get(j, "variants"), 0);
    NEAR(num(v, "turns", "mean"), num(v, "length", "mean"));
    NEAR(num(v, "turns", "max"), num(v, "length", "max"));
    assert_true(num(v, "rounds", "max") == ceil(num(v, "turns", "max") / 2));
    assert_non_null(json_object_get(json_object_get(v, "turns"), "histogram"));
    assert_true(num(v, "distinct_games", NULL) == 12);
    json_t *drama = json_object_get(v, "drama");
    assert_non_null(json_object_get(drama, "lead_changes"));
    assert_non_null(json_object_get(drama, "comeback_rate"));
    json_decref(j);
    pips_playtest_free(pt);
}

static json_t *drama_of_run(pips_playtest_opts *o)
{
    pips_error err;
    pips_playtest *pt = pips_playtest_run(o, &err);
    if (!pt)
        fail_msg("%s", err.msg);
    json_t *j = report_json(pt);
    json_t *d = json_object_get(json_array_get(json_object_get(j, "variants"), 0), "drama");
    json_incref(d);
    json_decref(j);
    pips_playtest_free(pt);
    return d;
}

/* A ladder's table or a skill step (a lab part) reads results only: it
 * measures no drama (an evaluation a move, wasted there), seats every
 * order at three seats and rotates at two. */
static void test_part_leaves_drama_out(void **unused)
{
    (void)unused;
    const char *seats[] = {"random", "greedy", "greedy"};
    lab_part part = {.game = "icefrogs", .games = 6, .threads = 1};
    pips_playtest_opts o = lab_part_opts(&part, seats, 3, 9);
    assert_true(o.no_drama);
    assert_int_equal(o.seating, PIPS_SEATING_ALL);
    assert_int_equal(lab_part_opts(&part, seats, 2, 9).seating, PIPS_SEATING_ROTATE);
    const char *opts[] = {"players=3"};
    o.opts = opts;
    o.n_opts = 1;
    json_t *d = drama_of_run(&o);
    assert_true(num(d, "games", NULL) == 0);
    json_decref(d);
}

/* --drama off reports nothing measured (not zeros); --drama-every K
 * measures games 0, K, 2K, ... only: the same figures as a run of those
 * games alone would give, for any thread count. */
static void test_drama_off_and_sampled(void **unused)
{
    (void)unused;
    const char *seats[] = {"random"};
    pips_playtest_opts o = {.game = "icefrogs", .seats = seats, .n_seats = 1, .games = 6,
                            .seed = 5, .threads = 1, .no_drama = true};
    json_t *off = drama_of_run(&o);
    assert_true(num(off, "games", NULL) == 0 && num(off, "every", NULL) == 0);
    assert_true(json_is_null(json_object_get(json_object_get(off, "lead_changes"), "value")));
    assert_true(json_is_null(json_object_get(json_object_get(off, "comeback_rate"), "value")));
    json_decref(off);

    o.no_drama = false;
    o.games = 1; /* game 0 alone, measured */
    json_t *one = drama_of_run(&o);
    o.games = 6;
    o.drama_every = 100; /* of six games, game 0 only */
    json_t *first = drama_of_run(&o);
    assert_true(num(one, "games", NULL) == 1 && num(first, "games", NULL) == 1);
    assert_true(num(first, "every", NULL) == 100 && num(one, "every", NULL) == 1);
    const char *keys[] = {"lead_changes", "comeback_rate", "drama", "uncertainty"};
    for (size_t k = 0; k < 4; k++)
        assert_true(json_equal(json_object_get(one, keys[k]), json_object_get(first, keys[k])));
    json_decref(one);
    json_decref(first);

    o.games = 9;
    o.drama_every = 3;
    json_t *serial = drama_of_run(&o);
    o.threads = 2;
    json_t *parallel = drama_of_run(&o);
    assert_true(num(serial, "games", NULL) == 3);
    assert_true(json_equal(serial, parallel));
    json_decref(serial);
    json_decref(parallel);
}

/* The default drama sample is decided by the game count alone: every game
 * up to PIPS_LAB_DRAMA_GAMES a variant, then games 0, K, 2K, ... with the
 * least K that leaves at most that many; --drama-every K overrides it. */
static void test_drama_default_sample(void **unused)
{
    (void)unused;
    const unsigned long games[] = {1, 400, 999, 1000, 1001, 1500, 2000, 2001, 20000, 200000,
                                   200001, PIPS_LAB_MAX_GAMES};
    const unsigned long every[] = {1, 1, 1, 1, 2, 2, 2, 3, 20, 200, 201, 100000};
    const unsigned long measured[] = {1, 400, 999, 1000, 501, 750, 1000, 667, 1000, 1000,
                                      996, 1000};
    for (size_t i = 0; i < sizeof games / sizeof *games; i++) {
        unsigned long k = pips_playtest_drama_every(games[i], 0);
        assert_int_equal(k, every[i]);
        /* games 0, K, 2K, ... below the count: at most the cap, and K is the least */
        assert_int_equal((games[i] + k - 1) / k, measured[i]);
        assert_true(measured[i] <= PIPS_LAB_DRAMA_GAMES);
        if (k > 1)
            assert_true((games[i] + k - 2) / (k - 1) > PIPS_LAB_DRAMA_GAMES);
    }
    assert_int_equal(pips_playtest_drama_every(20000, 1), 1);
    assert_int_equal(pips_playtest_drama_every(6, 100), 100);

    /* a run: 2001 games measure drama in 667 (0, 3, ..., 1998), exactly as
     * --drama-every 3 does, and report.md says it was the default */
    const char *seats[] = {"random"};
    pips_playtest_opts o = {.game = "tictacdoh", .seats = seats, .n_seats = 1, .games = 2001,
                            .seed = 4, .threads = 2};
    pips_error err;
    pips_playtest *pt = pips_playtest_run(&o, &err);
    assert_non_null(pt);
    pips_str md;
    pips_str_init(&md, NULL);
    pips_playtest_markdown(pt, &md);
    assert_non_null(strstr(pips_str_cstr(&md), "Measured only in the games numbered 0, 3, 6, "
                                               "... (by default at most 1000 games a variant"));
    assert_non_null(strstr(pips_str_cstr(&md), "667 of 2001 games"));
    pips_str_free(&md);
    pips_playtest_free(pt);
    json_t *by_default = drama_of_run(&o);
    assert_true(num(by_default, "games", NULL) == 667 && num(by_default, "every", NULL) == 3);
    o.drama_every = 3;
    json_t *given = drama_of_run(&o);
    assert_true(json_equal(by_default, given));
    json_decref(given);
    o.drama_every = 1;
    json_t *all = drama_of_run(&o);
    assert_true(num(all, "games", NULL) == 2001 && num(all, "every", NULL) == 1);
    json_decref(all);
    json_decref(by_default);
    o.drama_every = 0;
    o.games = 1000;
    json_t *thousand = drama_of_run(&o);
    assert_true(num(thousand, "games", NULL) == 1000 && num(thousand, "every", NULL) == 1);
    json_decref(thousand);
}

/* Ziggurat's hook: a game cut by max_turns=10 lasts exactly 10 turns (a
 * turn holds a roll and several decisions), 3 rounds of 4 colours. */
static void test_turns_ziggurat_hook(void **unused)
{
    (void)unused;
    const char *seats[] = {"random"};
    const char *opts[] = {"max_turns=10"};
    pips_playtest_opts o = {.game = "ziggurat", .opts = opts, .n_opts = 1, .seats = seats,
                            .n_seats = 1, .games = 4, .seed = 2, .threads = 1};
    pips_error err;
    pips_playtest *pt = pips_playtest_run(&o, &err);
    if (!pt)
        fail_msg("%s", err.msg);
    json_t *j = report_json(pt);
    json_t *v = json_array_get(json_object_get(j, "variants"), 0);
    assert_true(num(v, "turns", "min") == 10 && num(v, "turns", "max") == 10);
    assert_true(num(v, "rounds", "min") == 3 && num(v, "rounds", "max") == 3);
    assert_true(num(v, "length", "mean") > 10); /* more decisions than turns */
    json_decref(j);
    pips_playtest_free(pt);
}

/* Distinct games from the hashes, in any order of adding. */
static void test_distinct_games_counted(void **unused)
{
    (void)unused;
    lab_acc acc;
    assert_true(lab_acc_init(&acc, 2));
    const uint64_t hashes[] = {7, 3, 7, 9, 3, 7};
    for (size_t i = 0; i < 6; i++) {
        game_result r;
        memset(&r, 0, sizeof r);
        r.seat_agent[1] = 0;
        r.winner = 0;
        r.returns[0] = 1;
        r.length = r.turns = r.rounds = 1;
        r.decisive = -1;
        r.hash = hashes[i];
        r.drama = (lab_drama){0, -1, -1, -1};
        uint32_t br = 1;
        r.branching = &br;
        assert_true(lab_acc_add(&acc, &r));
    }
    ruleset_stats st;
    memset(&st, 0, sizeof st);
    pips_error err;
    assert_true(lab_acc_finish(&acc, 1, &st, &err));
    assert_int_equal(st.distinct_games, 3);
    pips_free(NULL, st.branch_mean);
    pips_free(NULL, st.branch_count);
    lab_acc_free(&acc);
}

/* Fewer distinct games than games: a warning in report.json and report.md
 * with both counts and what to do. */
static void test_repeat_warning(void **unused)
{
    (void)unused;
    const char *seats[] = {"random", "greedy", "random"};
    pips_playtest_opts o = {.def = &toy_race_def, .seats = seats, .n_seats = 3, .games = 6,
                            .seed = 1, .threads = 1};
    pips_error err;
    pips_playtest *pt = pips_playtest_run(&o, &err);
    assert_non_null(pt);
    json_t *j = report_json(pt);
    assert_int_equal(json_array_size(json_object_get(j, "warnings")), 0);
    json_decref(j);
    pt->variants[0].st.distinct_games = 2; /* as if the games had repeated */
    j = report_json(pt);
    json_t *w = json_object_get(j, "warnings");
    assert_int_equal(json_array_size(w), 1);
    const char *text = json_string_value(json_array_get(w, 0));
    assert_non_null(strstr(text, "only 2 distinct games among the 6 played"));
    assert_non_null(strstr(text, "stochastic agent"));
    json_decref(j);
    pips_str md;
    pips_str_init(&md, NULL);
    pips_playtest_markdown(pt, &md);
    assert_non_null(strstr(pips_str_cstr(&md), "## Warnings"));
    pips_str_free(&md);
    pips_playtest_free(pt);
}

/* The trust line: measured agents at a seat count, unmeasured ones, and
 * the exact value where the solver settled the variant. */
static void test_trust_lines(void **unused)
{
    (void)unused;
    const char *seats[] = {"mcts:iters=1000,opp=greedy", "greedy", "greedy"};
    const char *opts[] = {"players=3"};
    pips_playtest_opts o = {.game = "tictacdoh", .opts = opts, .n_opts = 1, .seats = seats,
                            .n_seats = 3, .games = 1, .seed = 1, .threads = 1};
    pips_error err;
    pips_playtest *pt = pips_playtest_run(&o, &err);
    assert_non_null(pt);
    lab_trust_line t;
    lab_trust(pt, &pt->variants[0], &t);
    assert_string_equal(t.kind, "measured");
    assert_non_null(strstr(t.text, "not checked: 3 seats; these agents measured against "
                                   "greedy at this seat count: "));
    assert_non_null(strstr(t.text, "(docs/ai.md)"));
    /* the figures are docs/ai.md's ladder row for this agent, quoted */
    char row[1024] = "";
    FILE *f = fopen(PIPS_SOURCE_DIR "/docs/ai.md", "r");
    assert_non_null(f);
    char line[1024];
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "| tictacdoh | 3 | mcts:iters=1000,opp=greedy | greedy x2 | ", 58)) {
            snprintf(row, sizeof row, "%s", line);
            break;
        }
    fclose(f);
    int games = 0, wins = 0;
    char rate[64] = "";
    assert_int_equal(sscanf(row, "| tictacdoh | 3 | mcts:iters=1000,opp=greedy | greedy x2 | %d | "
                                 "%d | %63[^|]",
                            &games, &wins, rate),
                     3);
    rate[strcspn(rate, " [")] = '\0';
    char want[256];
    snprintf(want, sizeof want, "`mcts:iters=1000,opp=greedy` won %s [", rate);
    assert_non_null(strstr(t.text, want));
    snprintf(want, sizeof want, "(%d of %d games) as a lone agent against greedy", wins, games);
    assert_non_null(strstr(t.text, want));
    json_t *j = report_json(pt);
    json_t *trust = json_object_get(json_array_get(json_object_get(j, "variants"), 0), "trust");
    assert_string_equal(json_string_value(json_object_get(trust, "kind")), "measured");
    json_decref(j);
    /* as if the solver had settled it: the exact value backs the numbers */
    pt->variants[0].exact.state = LAB_EXACT_SOLVED;
    pt->variants[0].exact.value = PIPS_DRAW;
    lab_trust(pt, &pt->variants[0], &t);
    assert_string_equal(t.kind, "exact");
    assert_non_null(strstr(t.text, "checked against the exact value: the first mover draws"));
    pips_playtest_free(pt);
    const char *randoms[] = {"random"};
    o.seats = randoms;
    o.n_seats = 1;
    pt = pips_playtest_run(&o, &err);
    assert_non_null(pt);
    lab_trust(pt, &pt->variants[0], &t);
    assert_string_equal(t.kind, "unmeasured");
    assert_non_null(strstr(t.text, "these agents were not measured at this seat count"));
    pips_playtest_free(pt);
}

/* Stops a run after a few games (as a signal handler would). */
static void stop_after(void *ud, unsigned long done, unsigned long total)
{
    (void)total;
    int *stop = ud;
    if (done >= 7)
        *stop = 1;
}

/* Runs o until stop_after stops it, saves the partial run's state into a
 * fresh file named from the template path, and leaves o set to resume it. */
static void run_stopped_and_saved(pips_playtest_opts *o, char *path)
{
    pips_error err;
    pips_playtest *pt = pips_playtest_run(o, &err);
    assert_non_null(pt);
    assert_true(pips_playtest_partial(pt));
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_true(pips_playtest_save_state(pt, path, &err));
    pips_playtest_free(pt);
    o->stop = NULL;
    o->progress = NULL;
    o->resume_state = path;
}

/* A stopped run, saved and resumed, ends with the uninterrupted report. */
static void test_stop_save_resume(void **unused)
{
    (void)unused;
    const char *seats[] = {"random", "greedy", "random"};
    const char *vary[] = {"players=3,4"};
    volatile int stop = 0;
    pips_playtest_opts o = {.def = &toy_race_def, .seats = seats, .n_seats = 1, .games = 20,
                            .seed = 9, .threads = 2, .vary = vary, .n_vary = 1,
                            .progress = stop_after, .progress_ud = (void *)&stop, .stop = &stop};
    char path[] = "/tmp/pips-state-XXXXXX";
    pips_error err;
    run_stopped_and_saved(&o, path);
    /* a mismatch is refused, naming it */
    o.seed = 10;
    assert_null(pips_playtest_run(&o, &err));
    assert_non_null(strstr(err.msg, "seed differs"));
    o.seed = 9;
    o.drama_every = 4;
    assert_null(pips_playtest_run(&o, &err));
    assert_non_null(strstr(err.msg, "drama games differ"));
    assert_non_null(strstr(err.msg, "--drama-every 4"));
    o.drama_every = 0;
    pips_playtest *resumed = pips_playtest_run(&o, &err);
    assert_non_null(resumed);
    assert_false(pips_playtest_partial(resumed));
    o.resume_state = NULL;
    pips_playtest *whole = pips_playtest_run(&o, &err);
    assert_non_null(whole);
    pips_str a, b;
    pips_str_init(&a, NULL);
    pips_str_init(&b, NULL);
    assert_true(pips_playtest_json(resumed, false, &a));
    assert_true(pips_playtest_json(whole, false, &b));
    assert_string_equal(pips_str_cstr(&a), pips_str_cstr(&b));
    pips_str_free(&a);
    pips_str_free(&b);
    pips_playtest_free(resumed);
    pips_playtest_free(whole);
    unlink(path);
}

/* A run stopped under the default drama sample resumes only with the same
 * sample: --drama-every 1 is refused, naming both. */
static void test_drama_default_resume(void **unused)
{
    (void)unused;
    const char *seats[] = {"random"};
    volatile int stop = 0;
    pips_playtest_opts o = {.game = "tictacdoh", .seats = seats, .n_seats = 1, .games = 1500,
                            .seed = 4, .threads = 1, .progress = stop_after,
                            .progress_ud = (void *)&stop, .stop = &stop};
    char path[] = "/tmp/pips-state-XXXXXX";
    pips_error err;
    run_stopped_and_saved(&o, path);
    o.drama_every = 1;
    assert_null(pips_playtest_run(&o, &err));
    assert_non_null(strstr(err.msg, "the folder's run has drama in games 0, 2, 4, ..."));
    assert_non_null(strstr(err.msg, "this one drama in every game"));
    o.drama_every = 0;
    pips_playtest *resumed = pips_playtest_run(&o, &err);
    assert_non_null(resumed);
    json_t *j = report_json(resumed);
    json_t *d = json_object_get(json_array_get(json_object_get(j, "variants"), 0), "drama");
    assert_true(num(d, "games", NULL) == 750 && num(d, "every", NULL) == 2);
    json_decref(j);
    pips_playtest_free(resumed);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_drama_two_seats),
        cmocka_unit_test(test_drama_three_seats_with_ties),
        cmocka_unit_test(test_drama_leader_throughout_and_draw),
        cmocka_unit_test(test_drama_off_and_sampled),
        cmocka_unit_test(test_drama_default_sample),
        cmocka_unit_test(test_part_leaves_drama_out),
        cmocka_unit_test(test_turns_one_decision_each),
        cmocka_unit_test(test_turns_ziggurat_hook),
        cmocka_unit_test(test_distinct_games_counted),
        cmocka_unit_test(test_repeat_warning),
        cmocka_unit_test(test_trust_lines),
        cmocka_unit_test(test_stop_save_resume),
        cmocka_unit_test(test_drama_default_resume),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
