/*
 * test_noname_scenarios.c — every scenario NON-T1..T15 of the rulings
 * (docs/games/noname.md): targets, hit distances to 0.01 mm, legality,
 * captures, where the victim goes and scores, under every option value a
 * scenario mentions. Red is seat 1, Blue seat 2, Green seat 3 (the default
 * seating r, b, g); states are built from position text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>

#include "noname_helpers.h"

enum { R = 0, B = 1, G = 2 };

/* NON-T1: the nearest piece is the target; a farther one is not. */
static void test_t1_nearest(void **st)
{
    (void)st;
    pips_game *g = nt_game(NULL, 0);
    void *s = nt_load(g, "seats r,b turn 3 to r passes 0 pads r:rS1 b:bS1 "
                         "table #1 bM@250.0,300.0/U #2 bS@350.0,300.0/U");
    nt_play(g, s, "rS@200.0,300.0>0.0");
    NT_POINTS(g, s, 3, 1, 40.1);
    noname_piece_info p2 = nt_piece(g, s, 2);
    assert_int_equal(p2.attackers[0] + p2.attackers[3], 0);
    noname_piece_info p1 = nt_piece(g, s, 1);
    assert_int_equal(p1.points[0], 1);        /* red 1 < 2 */
    assert_string_equal(p1.subdued_by, "");
    assert_true(nt_on_table(g, s, 1));         /* no capture */
    assert_int_equal(nt_score(g, s, R), 1);
    assert_int_equal(nt_score(g, s, B), 3);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* NON-T2: nothing, a graze (NON-R5) and a miss, each on the same table. */
static void test_t2_graze(void **st)
{
    (void)st;
    pips_game *g = nt_game(NULL, 0);
    const char *pos = "seats r,b turn 2 to r passes 0 pads r:rS1 b:bS1 "
                      "table #1 bL@300.0,300.0/U";
    const char *moves[3] = {"rS@200.0,320.0>0.0", "rS@200.0,312.7>0.0", "rS@200.0,312.8>0.0"};
    const unsigned want[3] = {0, 1, 0};
    for (int i = 0; i < 3; i++) {
        void *s = nt_load(g, pos);
        nt_play(g, s, moves[i]);
        NT_POINTS(g, s, 2, want[i], 87.3);
        assert_true(nt_on_table(g, s, 1));
        assert_string_equal(nt_piece(g, s, 1).subdued_by, "");
        assert_int_equal(nt_score(g, s, R), 1);
        assert_int_equal(nt_score(g, s, B), 3);
        pips_state_free(g, s);
    }
    pips_game_free(g);
}

/* NON-T3: subdued by its own colour, no capture (E1), both own-linked. */
static void test_t3_own_colour(void **st)
{
    (void)st;
    pips_game *g = nt_game(NULL, 0);
    void *s = nt_load(g, "seats r,b turn 2 to r passes 0 pads r:rM1 b:bS1 "
                         "table #1 rS@300.0,300.0/U");
    nt_play(g, s, "rM@250.0,300.0>0.0");
    NT_POINTS(g, s, 2, 1, 42.85);
    assert_true(nt_on_table(g, s, 1));
    assert_string_equal(nt_piece(g, s, 1).subdued_by, "r");
    assert_int_equal(nt_score(g, s, R), -3);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* NON-T4: a small captures a small at long range; the victim goes to Red. */
static void test_t4_long_range(void **st)
{
    (void)st;
    const char *opt_sets[2][1] = {{"capture_to=colour"}, {"capture_to=placer"}};
    for (int k = 0; k < 2; k++) {
        pips_game *g = nt_game(opt_sets[k], 1);
        void *s = nt_load(g, "seats r,b turn 2 to r passes 0 pads r:rS1 b:bS1 "
                             "table #1 bS@500.0,100.0/U");
        pips_move m;
        pips_error err;
        assert_true(pips_parse_move(g, s, "rS@100.0,100.0>0.0", &m, &err));
        noname_preview pv;
        assert_true(noname_preview_move(g, s, m, &pv, &err));
        assert_int_equal(pv.target_id, 1);
        assert_true(pv.hit_mm > 392.845 && pv.hit_mm < 392.855);
        assert_int_equal(pv.captured_id, 1);
        assert_int_equal(pv.captured_to_seat, R);
        g->def->apply(g, s, m);
        assert_false(nt_on_table(g, s, 1));
        NT_POINTS(g, s, 2, 0, 0);
        char pads[256];
        nt_pads(g, s, pads, sizeof pads);
        assert_string_equal(pads, "r:bS1 b:bS1");
        assert_int_equal(nt_score(g, s, R), 1);
        assert_int_equal(nt_score(g, s, B), 0);
        pips_state_free(g, s);
        pips_game_free(g);
    }
}

/* NON-T5: E2 (multi_attacker=colour) and a safe capture of a large; with
 * multi_attacker=off the first large already captures. */
static void test_t5_e2_large(void **st)
{
    (void)st;
    const char *pos = "seats r,b turn 2 to r passes 0 pads r:rS1,rL1 b:bL1 "
                      "table #1 bL@300.0,300.0/U";
    pips_game *g = nt_game(NULL, 0);
    void *s = nt_load(g, pos);
    nt_play(g, s, "rL@250.0,300.0>0.0");
    NT_POINTS(g, s, 2, 1, 37.3);
    assert_true(nt_on_table(g, s, 1)); /* one attacker: no capture (E2) */
    assert_string_equal(nt_piece(g, s, 1).subdued_by, "r");
    assert_int_equal(nt_score(g, s, B), 0);
    assert_int_equal(nt_score(g, s, R), 3);
    nt_play(g, s, "bL@230.0,270.0>90.0");
    NT_POINTS(g, s, 3, 2, 24.51);
    assert_true(nt_on_table(g, s, 2));
    assert_string_equal(nt_piece(g, s, 2).subdued_by, "b");
    nt_play(g, s, "rS@300.0,250.0>90.0");
    assert_false(nt_on_table(g, s, 1)); /* two red attackers, 4 points */
    char pads[256];
    nt_pads(g, s, pads, sizeof pads);
    assert_string_equal(pads, "r:bL1 b:-");
    NT_POINTS(g, s, 2, 0, 0);
    NT_POINTS(g, s, 4, 0, 0);
    NT_POINTS(g, s, 3, 2, 24.51);
    assert_int_equal(nt_score(g, s, R), 1);
    assert_int_equal(nt_score(g, s, B), 3);
    pips_state_free(g, s);
    pips_game_free(g);

    const char *off[] = {"multi_attacker=off"};
    g = nt_game(off, 1);
    s = nt_load(g, pos);
    nt_play(g, s, "rL@250.0,300.0>0.0");
    assert_false(nt_on_table(g, s, 1));
    nt_pads(g, s, pads, sizeof pads);
    assert_string_equal(pads, "r:rS1,bL1 b:bL1");
    pips_state_free(g, s);
    pips_game_free(g);
}

/* NON-T6: a wall of prisoners: the nearer own-colour piece takes the ray. */
static void test_t6_wall(void **st)
{
    (void)st;
    pips_game *g = nt_game(NULL, 0);
    void *s = nt_load(g, "seats r,b turn 3 to r passes 0 pads r:rS1 b:bS1 "
                         "table #1 bS@300.0,300.0/U #2 rM@260.0,300.0/U");
    nt_play(g, s, "rS@200.0,300.0>0.0");
    NT_POINTS(g, s, 3, 2, 50.1);
    assert_true(nt_on_table(g, s, 2));
    assert_string_equal(nt_piece(g, s, 2).subdued_by, "");
    assert_int_equal(nt_score(g, s, R), -3);
    assert_int_equal(nt_score(g, s, B), 1);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* NON-T7: the orientation rule for prisoners (NON §7, NON-R3). */
static void test_t7_orientation(void **st)
{
    (void)st;
    pips_game *g = nt_game(NULL, 0);
    char msg[PIPS_ERROR_MAX];
    void *s = nt_load(g, "seats r,b turn 1 to r passes 0 pads r:rS1,bS1 b:- table -");
    assert_false(nt_legal(g, s, "bS@100.0,100.0>0.0", msg));
    assert_non_null(strstr(msg, "upright"));
    assert_true(nt_legal(g, s, "bS@100.0,100.0/U", msg));
    assert_true(nt_legal(g, s, "rS@100.0,100.0>0.0", msg));
    pips_state_free(g, s);

    s = nt_load(g, "seats r,b turn 1 to r passes 0 pads r:bS2 b:bS1 table -");
    assert_true(nt_legal(g, s, "bS@100.0,100.0>0.0", msg));
    nt_play(g, s, "bS@100.0,100.0>0.0");
    nt_play(g, s, "bS@500.0,500.0/U"); /* Blue */
    assert_false(nt_legal(g, s, "bS@300.0,300.0>90.0", msg));
    assert_non_null(strstr(msg, "upright"));
    assert_true(nt_legal(g, s, "bS@300.0,300.0/U", msg));
    pips_state_free(g, s);
    pips_game_free(g);
}

/* NON-T8: the victim goes to the owner of the capturing colour (Blue), or
 * with capture_to=placer to Red as a native. */
static void test_t8_destination(void **st)
{
    (void)st;
    const char *opt_sets[2][1] = {{"capture_to=colour"}, {"capture_to=placer"}};
    const char *want_pads[2] = {"r:bS1 b:rS1", "r:rS1,bS1 b:-"};
    for (int k = 0; k < 2; k++) {
        pips_game *g = nt_game(opt_sets[k], 1);
        void *s = nt_load(g, "seats r,b turn 3 to r passes 0 pads r:bS2 b:- "
                             "table #1 rS@300.0,300.0/U #2 rS@250.0,300.0>0.0");
        NT_POINTS(g, s, 2, 1, 42.85);
        assert_int_equal(nt_score(g, s, R), -2);
        nt_play(g, s, "bS@300.0,250.0>90.0");
        assert_false(nt_on_table(g, s, 1));
        NT_POINTS(g, s, 2, 0, 0);
        NT_POINTS(g, s, 3, 0, 0);
        char pads[256];
        nt_pads(g, s, pads, sizeof pads);
        assert_string_equal(pads, want_pads[k]);
        assert_int_equal(nt_score(g, s, R), 1);
        assert_int_equal(nt_score(g, s, B), 1);
        pips_state_free(g, s);
        pips_game_free(g);
    }
}

/* NON-T9: a lone prisoner stands upright in its own colour's line. */
static void test_t9_upright_prisoner(void **st)
{
    (void)st;
    pips_game *g = nt_game(NULL, 0);
    char msg[PIPS_ERROR_MAX];
    void *s = nt_load(g, "seats r,b turn 2 to r passes 0 pads r:bL1 b:bS1 "
                         "table #1 bM@200.0,300.0>0.0");
    NT_POINTS(g, s, 1, 0, 0);
    assert_false(nt_legal(g, s, "bL@300.0,300.0>0.0", msg));
    nt_play(g, s, "bL@300.0,300.0/U");
    NT_POINTS(g, s, 1, 2, 87.3);
    assert_true(nt_on_table(g, s, 2));
    assert_string_equal(nt_piece(g, s, 2).subdued_by, "");
    assert_int_equal(nt_score(g, s, B), -5);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* NON-T10: skipping and resuming (NON-R12), under both capture_to values. */
static void test_t10_skip_resume(void **st)
{
    (void)st;
    const char *opts[2][2] = {{"players=3", "capture_to=colour"},
                              {"players=3", "capture_to=placer"}};
    for (int k = 0; k < 2; k++) {
        pips_game *g = nt_game(opts[k], 2);
        char msg[PIPS_ERROR_MAX];
        void *s = nt_load(g, "seats r,b,g turn 5 to g passes 0 pads r:rL1,gS2 b:bM1 g:- "
                             "table #1 bS@300.0,300.0/U");
        assert_int_equal(g->def->to_move(g, s), G);
        nt_play(g, s, "--");
        assert_int_equal(g->def->to_move(g, s), R);
        assert_true(nt_legal(g, s, "gS@250.0,300.0>0.0", msg)); /* one gS stays */
        nt_play(g, s, "gS@250.0,300.0>0.0");
        assert_false(nt_on_table(g, s, 1));
        char pads[256];
        nt_pads(g, s, pads, sizeof pads);
        assert_string_equal(pads, k == 0 ? "r:rL1,gS1 b:bM1 g:bS1" : "r:rL1,gS1,bS1 b:bM1 g:-");
        nt_play(g, s, "bM@500.0,500.0/U");
        assert_int_equal(g->def->to_move(g, s), G);
        if (k == 0) {
            assert_false(nt_legal(g, s, "--", msg)); /* NON-R16: there is room */
            assert_non_null(strstr(msg, "NON-R16"));
            assert_false(nt_legal(g, s, "bS@100.0,100.0>0.0", msg));
            nt_play(g, s, "bS@100.0,100.0/U");
        } else {
            nt_play(g, s, "--"); /* Green skips again */
            assert_int_equal(g->def->to_move(g, s), R);
        }
        pips_state_free(g, s);
        pips_game_free(g);
    }
}

/* NON-T11: final scoring with negatives (NON-R14): Red 0, Blue -1. */
static void test_t11_scoring(void **st)
{
    (void)st;
    pips_game *g = nt_game(NULL, 0);
    void *s = nt_load(g, "seats r,b turn 11 to r passes 0 pads r:- b:- table "
                         "#1 bS@100.0,100.0/U #2 rS@50.0,100.0>0.0 #3 rL@300.0,300.0/U "
                         "#4 rS@250.0,300.0>0.0 #5 bM@300.0,250.0>90.0 #6 bM@500.0,500.0/U "
                         "#7 bS@450.0,500.0>0.0 #8 rM@500.0,450.0>90.0 "
                         "#9 bS@150.0,500.0>180.0 #10 rS@160.0,550.0>270.0");
    assert_int_equal(g->def->to_move(g, s), PIPS_OVER);
    const struct {
        unsigned id, target;
        double t;
        const char *subdued;
        bool own;
        int score;
    } want[10] = {
        {1, 0, 0, "r", false, 0},      {2, 1, 42.85, "", false, 1},
        {3, 0, 0, "", true, -3},       {4, 3, 37.3, "", true, -1},
        {5, 3, 37.3, "", false, 2},    {6, 0, 0, "r", true, -2},
        {7, 6, 40.1, "", true, -1},    {8, 6, 40.1, "", false, 2},
        {9, 0, 0, "r", false, 0},      {10, 9, 47.29, "", false, 1},
    };
    for (int i = 0; i < 10; i++) {
        NT_POINTS(g, s, want[i].id, want[i].target, want[i].t);
        noname_piece_info p = nt_piece(g, s, want[i].id);
        assert_string_equal(p.subdued_by, want[i].subdued);
        assert_int_equal(p.own_linked, want[i].own);
        assert_int_equal(p.score, want[i].score);
    }
    noname_piece_info p3 = nt_piece(g, s, 3);
    assert_int_equal(p3.points[0], 1); /* r 1 */
    assert_int_equal(p3.points[3], 2); /* b 2 */
    assert_int_equal(nt_score(g, s, R), 0);
    assert_int_equal(nt_score(g, s, B), -1);
    double ret[2];
    g->def->returns(g, s, ret);
    assert_true(ret[R] == 1.0 && ret[B] == 0.0);
    pips_str t;
    pips_str_init(&t, NULL);
    g->def->result_text(g, s, &t);
    assert_string_equal(pips_str_cstr(&t), "r wins (r 0, b -1)");
    pips_str_free(&t);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* NON-T12: legality and tolerance (EPS = 1e-6 mm, NON-R17). */
static void test_t12_tolerance(void **st)
{
    (void)st;
    pips_game *g = nt_game(NULL, 0);
    void *s = nt_load(g, "seats r,b turn 2 to r passes 0 pads r:rS1,rM1,rL1 b:bS1 "
                         "table #1 bM@300.0,300.0/U");
    const struct {
        const char *move;
        bool legal;
        const char *why;
    } rows[] = {
        {"rM@319.8,300.0/U", true, NULL},
        {"rM@319.7,300.0/U", false, "overlaps #1"},
        {"rM@324.0,300.0/U45.0", true, NULL},
        {"rM@323.9,300.0/U45.0", false, "overlaps #1"},
        {"rS@290.1,300.0>0.0", true, NULL},
        {"rS@290.2,300.0>0.0", false, "overlaps #1"},
        {"rS@7.2,300.0/U", true, NULL},
        {"rS@7.1,300.0/U", false, "out of the"},
        {"rL@46.3,100.0>0.0", true, NULL},
        {"rL@46.2,100.0>0.0", false, "out of the"},
    };
    char msg[PIPS_ERROR_MAX];
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        bool ok = nt_legal(g, s, rows[i].move, msg);
        if (ok != rows[i].legal)
            fail_msg("%s: expected %s (%s)", rows[i].move, rows[i].legal ? "legal" : "illegal",
                     msg);
        if (!ok && !strstr(msg, rows[i].why))
            fail_msg("%s: message '%s' lacks '%s'", rows[i].move, msg, rows[i].why);
    }
    assert_false(nt_legal(g, s, "rS@7.1,300.0/U", msg));
    assert_non_null(strstr(msg, "by 0.0500 mm"));
    /* The touching tip points at #1 at t = 0. */
    nt_play(g, s, "rS@290.1,300.0>0.0");
    NT_POINTS(g, s, 2, 1, 0.0);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* NON-T13: angles, corners and the lower-id tie-break (NON-R5). */
static void test_t13_angles(void **st)
{
    (void)st;
    pips_game *g = nt_game(NULL, 0);
    const char *one = "seats r,b turn 2 to r passes 0 pads r:rS1 b:bS1 "
                      "table #1 bM@300.0,300.0/U";
    void *s = nt_load(g, one);
    nt_play(g, s, "rS@200.0,250.0>30.0");
    NT_POINTS(g, s, 2, 1, 104.04);
    noname_piece_info p = nt_piece(g, s, 2);
    assert_true(fabs(250.0 + p.hit_mm * 0.5 - 302.02) < 0.005); /* enters the left edge */
    assert_true(nt_on_table(g, s, 1));
    pips_state_free(g, s);

    s = nt_load(g, one);
    nt_play(g, s, "rS@200.0,200.0>45.0");
    NT_POINTS(g, s, 2, 1, 127.42); /* the corner (290.1, 290.1) */
    assert_true(nt_on_table(g, s, 1));
    pips_state_free(g, s);

    s = nt_load(g, "seats r,b turn 3 to r passes 0 pads r:rS1 b:bS1 "
                   "table #1 bM@300.0,290.1/U #2 bM@300.0,309.9/U");
    nt_play(g, s, "rS@200.0,300.0>0.0");
    NT_POINTS(g, s, 3, 1, 90.1);
    assert_true(nt_on_table(g, s, 1) && nt_on_table(g, s, 2));
    pips_state_free(g, s);
    /* Mirrored ids: the tie still goes to the lower id, now the upper piece. */
    s = nt_load(g, "seats r,b turn 3 to r passes 0 pads r:rS1 b:bS1 "
                   "table #1 bM@300.0,309.9/U #2 bM@300.0,290.1/U");
    nt_play(g, s, "rS@200.0,300.0>0.0");
    NT_POINTS(g, s, 3, 1, 90.1);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* NON-T14: colours count separately (E2 by colour), attackers left facing
 * each other; with multi_attacker=any the first red attacker captures. */
static void test_t14_colours_separate(void **st)
{
    (void)st;
    const char *three[] = {"players=3"};
    const char *three_any[] = {"players=3", "multi_attacker=any"};
    const char *pos = "seats r,b,g turn 3 to r passes 0 pads r:rS1,rL1 b:bS1 g:gS1 "
                      "table #1 bL@300.0,300.0/U #2 gL@300.0,250.0>90.0";
    pips_game *g = nt_game(three, 1);
    void *s = nt_load(g, pos);
    NT_POINTS(g, s, 2, 1, 37.3);
    assert_string_equal(nt_piece(g, s, 1).subdued_by, "g");
    nt_play(g, s, "rL@250.0,300.0>0.0");
    NT_POINTS(g, s, 3, 1, 37.3);
    assert_true(nt_on_table(g, s, 1));
    assert_string_equal(nt_piece(g, s, 1).subdued_by, "rg");
    pips_state_free(g, s);

    /* Red later plays #4 (built directly: Blue and Green moved elsewhere). */
    s = nt_load(g, "seats r,b,g turn 4 to r passes 0 pads r:rS1 b:bS1 g:gS1 "
                   "table #1 bL@300.0,300.0/U #2 gL@300.0,250.0>90.0 #3 rL@250.0,300.0>0.0");
    nt_play(g, s, "rS@350.0,300.0>180.0");
    assert_false(nt_on_table(g, s, 1));
    char pads[256];
    nt_pads(g, s, pads, sizeof pads);
    assert_string_equal(pads, "r:bL1 b:bS1 g:gS1");
    NT_POINTS(g, s, 2, 0, 0);
    NT_POINTS(g, s, 3, 4, 100.0);
    NT_POINTS(g, s, 4, 3, 100.0);
    assert_string_equal(nt_piece(g, s, 4).subdued_by, "r");
    assert_true(nt_on_table(g, s, 3) && nt_on_table(g, s, 4)); /* R10, E1 */
    assert_int_equal(nt_score(g, s, R), -4);
    assert_int_equal(nt_score(g, s, G), 3);
    assert_int_equal(nt_score(g, s, B), 0);
    pips_state_free(g, s);
    pips_game_free(g);

    g = nt_game(three_any, 2);
    s = nt_load(g, pos);
    nt_play(g, s, "rL@250.0,300.0>0.0");
    assert_false(nt_on_table(g, s, 1));
    nt_pads(g, s, pads, sizeof pads);
    assert_string_equal(pads, "r:rS1,bL1 b:bS1 g:gS1");
    pips_state_free(g, s);
    pips_game_free(g);
}

/* NON-T15: a two-turn loop (NON-R13): only the turn cap ends it. */
static void test_t15_loop_cap(void **st)
{
    (void)st;
    const char *capped[] = {"turn_cap=10"}, *uncapped[] = {"turn_cap=0"};
    for (int k = 0; k < 2; k++) {
        pips_game *g = nt_game(k == 0 ? capped : uncapped, 1);
        void *s = nt_load(g, "seats r,b turn 2 to r passes 0 pads r:bS2 b:rS2 "
                             "table #1 rS@290.0,300.0>180.0");
        char start_pads[256], pads[256];
        nt_pads(g, s, start_pads, sizeof start_pads);
        int placements = 0;
        for (int round = 0; round < 200 && g->def->to_move(g, s) != PIPS_OVER; round++) {
            unsigned red_id = 2 + 2 * (unsigned)round;
            nt_play(g, s, "bS@250.0,300.0>0.0");
            placements++;
            NT_POINTS(g, s, red_id, 0, 0); /* its target was captured */
            assert_false(nt_on_table(g, s, red_id - 1));
            if (g->def->to_move(g, s) == PIPS_OVER)
                break;
            nt_play(g, s, "rS@290.0,300.0>180.0");
            placements++;
            assert_false(nt_on_table(g, s, red_id));
            nt_pads(g, s, pads, sizeof pads);
            assert_string_equal(pads, start_pads); /* the same position again */
        }
        if (k == 0) {
            assert_int_equal(g->def->to_move(g, s), PIPS_OVER);
            /* Built at turn 2, so turns 2..10 were played; turn 10 was Red's
             * bS, which captured and now points at nothing. Pads score 0. */
            assert_int_equal(placements, 9);
            assert_int_equal(nt_score(g, s, R), 0);
            assert_int_equal(nt_score(g, s, B), 1);
            nt_pads(g, s, pads, sizeof pads);
            assert_string_equal(pads, "r:bS1 b:rS3");
        } else {
            assert_int_not_equal(g->def->to_move(g, s), PIPS_OVER);
        }
        pips_state_free(g, s);
        pips_game_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_t1_nearest),          cmocka_unit_test(test_t2_graze),
        cmocka_unit_test(test_t3_own_colour),       cmocka_unit_test(test_t4_long_range),
        cmocka_unit_test(test_t5_e2_large),         cmocka_unit_test(test_t6_wall),
        cmocka_unit_test(test_t7_orientation),      cmocka_unit_test(test_t8_destination),
        cmocka_unit_test(test_t9_upright_prisoner), cmocka_unit_test(test_t10_skip_resume),
        cmocka_unit_test(test_t11_scoring),         cmocka_unit_test(test_t12_tolerance),
        cmocka_unit_test(test_t13_angles),          cmocka_unit_test(test_t14_colours_separate),
        cmocka_unit_test(test_t15_loop_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
