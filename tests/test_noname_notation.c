/*
 * test_noname_notation.c — the Noname move notation and position text
 * (NON §11): canonical forms, accepted shorthands, a clear error for each
 * kind of malformed input (numbers, angles, colours, structure), options
 * and position text validation, and fuzz-style mutation of valid texts
 * (never a crash; whatever is accepted round-trips exactly). Also the
 * rendering and the explanation API on a known position.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>

#include "noname_helpers.h"

static void expect_canonical(const pips_game *g, const void *s, const char *in, const char *out)
{
    pips_error err;
    pips_move m;
    char buf[PIPS_MOVE_TEXT_MAX];
    if (!g->def->move_from_text(g, s, in, &m, &err))
        fail_msg("'%s' rejected: %s", in, err.msg);
    g->def->move_to_text(g, s, m, buf);
    assert_string_equal(buf, out);
}

/* NON §11 Numbers: canonical one-digit form; 300 accepted; theta mod 90. */
static void test_move_canonical(void **st)
{
    (void)st;
    pips_game *g = nt_game(NULL, 0);
    void *s = pips_state_new(g, NULL);
    g->def->initial(g, s);
    expect_canonical(g, s, "rM@312.5,140.0/U", "rM@312.5,140.0/U");
    expect_canonical(g, s, "rM@312.5,140.0/U15.0", "rM@312.5,140.0/U15.0");
    expect_canonical(g, s, "gL@100.0,100.0>45.0", "gL@100.0,100.0>45.0");
    expect_canonical(g, s, "rS@300,140/U", "rS@300.0,140.0/U");
    expect_canonical(g, s, "rS@1.0,2.0/U95.0", "rS@1.0,2.0/U5.0");
    expect_canonical(g, s, "rS@1.0,2.0/U90.0", "rS@1.0,2.0/U");
    expect_canonical(g, s, "rS@1.0,2.0/U359.9", "rS@1.0,2.0/U89.9");
    expect_canonical(g, s, "rS@0,0>359.9", "rS@0.0,0.0>359.9");
    expect_canonical(g, s, "  --  ", "--");
    assert_true(noname_make_move('r', 'S', false, 3000, 1400, 950) ==
                noname_make_move('r', 'S', false, 3000, 1400, 50));
    assert_true(noname_make_move('q', 'S', false, 1, 1, 0) == PIPS_MOVE_NONE);
    assert_true(noname_make_move('r', 'S', true, 1, 1, 3600) == PIPS_MOVE_NONE);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* Each malformed move is an ARG error naming the problem. */
static void test_move_errors(void **st)
{
    (void)st;
    pips_game *g = nt_game(NULL, 0);
    void *s = pips_state_new(g, NULL);
    g->def->initial(g, s);
    const struct {
        const char *text, *why;
    } bad[] = {
        {"", "empty move"},
        {"   ", "empty move"},
        {"zS@1.0,1.0/U", "unknown colour 'z'"},
        {"RS@1.0,1.0/U", "unknown colour 'R'"},
        {"rX@1.0,1.0/U", "expected a size"},
        {"rs@1.0,1.0/U", "expected a size"},
        {"rS1.0,1.0/U", "expected '@'"},
        {"rS@-1.0,1.0/U", "signs are not allowed"},
        {"rS@+1.0,1.0/U", "signs are not allowed"},
        {"rS@1.05,1.0/U", "at most one fractional digit"},
        {"rS@1.0,300.05/U", "at most one fractional digit"},
        {"rS@1e3,1.0/U", "exponents are not allowed"},
        {"rS@1.,1.0/U", "expected a digit after the decimal point"},
        {"rS@.5,1.0/U", "expected a number"},
        {"rS@1.0 1.0/U", "expected ','"},
        {"rS@ 1.0,1.0/U", "expected a number"},
        {"rS@1.0,1.0>360.0", "out of range 0.0..359.9"},
        {"rS@1.0,1.0>1000", "out of range 0.0..359.9"},
        {"rS@1.0,1.0>", "heading: expected a number"},
        {"rS@1.0,1.0>-5.0", "heading: signs are not allowed"},
        {"rS@1.0,1.0/U360.0", "out of range 0.0..359.9"},
        {"rS@1.0,1.0/Ux", "rotation: expected a number"},
        {"rS@1.0,1.0", "expected '/U'"},
        {"rS@1.0,1.0/u", "expected '/U'"},
        {"rS@99999.0,1.0/U", "out of range"},
        {"rS@123456789012345,1.0/U", "too large"},
        {"rS@1.0,1.0/U trailing", "unexpected text"},
        {"rS@1.0,1.0>0.0 x#5", "unexpected text"},
        {"---", "unexpected text"},
        {"-", "unknown colour '-'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pips_error err;
        pips_move m;
        if (g->def->move_from_text(g, s, bad[i].text, &m, &err))
            fail_msg("'%s' was accepted", bad[i].text);
        assert_int_equal(err.code, PIPS_ERR_ARG);
        if (!strstr(err.msg, bad[i].why))
            fail_msg("'%s': message '%s' lacks '%s'", bad[i].text, err.msg, bad[i].why);
    }
    /* Well-formed but illegal: check_move explains. */
    char msg[PIPS_ERROR_MAX];
    assert_false(nt_legal(g, s, "bS@100.0,100.0/U", msg)); /* Blue's piece, Red to move */
    assert_non_null(strstr(msg, "not on r's pad"));
    assert_false(nt_legal(g, s, "rS@6000.0,100.0/U", msg));
    assert_non_null(strstr(msg, "sticks out of the 600.0 x 600.0 mm table"));
    /* Garbage move values are rejected, not crashed on. */
    pips_rng r;
    pips_rng_seed(&r, 3);
    for (int i = 0; i < 10000; i++) {
        pips_error err;
        pips_move m = pips_rng_next(&r);
        (void)pips_check_move(g, s, m, &err);
        char buf[PIPS_MOVE_TEXT_MAX];
        g->def->move_to_text(g, s, m, buf);
    }
    pips_state_free(g, s);
    pips_game_free(g);
}

/* Options: defaults per NON §9 and clear errors. */
static void test_options(void **st)
{
    (void)st;
    pips_game *g = nt_game(NULL, 0);
    pips_str t;
    pips_str_init(&t, NULL);
    void *s = pips_state_new(g, NULL);
    g->def->initial(g, s);
    g->def->state_to_text(g, s, &t);
    assert_string_equal(pips_str_cstr(&t),
                        "players=2 capture_to=colour multi_attacker=colour turn_cap=300 "
                        "table=600.0x600.0 first_player=1 seats r,b turn 1 to r passes 0 pads "
                        "r:rS5,rM5,rL5 b:bS5,bM5,bL5 table -");
    pips_state_free(g, s);
    pips_game_free(g);
    const char *good[] = {"players=8", "table=100x5000.0", "turn_cap=0", "first_player=2",
                          "capture_to=placer", "multi_attacker=off"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        pips_game_free(nt_game(&good[i], 1));
    const struct {
        const char *opt, *why;
    } bad[] = {
        {"players=1", "players"},          {"players=9", "players"},
        {"capture_to=me", "colour or placer"}, {"multi_attacker=two", "colour, any or off"},
        {"turn_cap=-1", "turn_cap"},        {"table=99.9x600.0", "100.0..5000.0"},
        {"table=600.0x5000.1", "table"},    {"table=600.05x600.0", "fractional"},
        {"table=600", "WxH"},               {"first_player=3", "1..2"},
        {"candidates=2", "candidates"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pips_error err;
        pips_game *h = pips_game_new("noname", &bad[i].opt, 1, NULL, &err);
        if (h)
            fail_msg("option '%s' accepted", bad[i].opt);
        if (!strstr(err.msg, bad[i].why))
            fail_msg("'%s': message '%s' lacks '%s'", bad[i].opt, err.msg, bad[i].why);
    }
    const char *seven[] = {"players=7"};
    g = nt_game(seven, 1);
    s = pips_state_new(g, NULL);
    g->def->initial(g, s);
    pips_str_clear(&t);
    g->def->state_to_text(g, s, &t);
    assert_non_null(strstr(pips_str_cstr(&t), "turn_cap=1050 "));
    assert_non_null(strstr(pips_str_cstr(&t), "seats r,b,g,y,k,w,p "));
    pips_state_free(g, s);
    pips_game_free(g);
    pips_str_free(&t);
}

/* Position text errors leave the state untouched and say what is wrong. */
static void test_state_errors(void **st)
{
    (void)st;
    pips_game *g = nt_game(NULL, 0);
    const char *pre = "players=2 capture_to=colour multi_attacker=colour turn_cap=300 "
                      "table=600.0x600.0 first_player=1 ";
    const struct {
        const char *rest, *why;
    } bad[] = {
        {"seats r,q turn 1 to r passes 0 pads r:- b:- table -", "unknown colour 'q'"},
        {"seats r,r turn 1 to r passes 0 pads r:- b:- table -", "twice"},
        {"seats r turn 1 to r passes 0 pads r:- table -", "1 seats"},
        {"seats r,b turn 0 to r passes 0 pads r:- b:- table -", "turn"},
        {"seats r,b turn 1 to g passes 0 pads r:- b:- table -", "seated colour"},
        {"seats r,b turn 1 to r passes 3 pads r:- b:- table -", "passes"},
        {"seats r,b turn 1 to r passes 0 pads b:- r:- table -", "expected 'r:'"},
        {"seats r,b turn 1 to r passes 0 pads r:rS6 b:- table -", "entries like"},
        {"seats r,b turn 1 to r passes 0 pads r:gS1 b:- table -", "has no seat"},
        {"seats r,b turn 1 to r passes 0 pads r:rS1,rS1 b:- table -", "twice"},
        {"seats r,b turn 1 to r passes 0 pads r:rS5 b:rS1 table -", "6 pieces rS"},
        {"seats r,b turn 3 to r passes 0 pads r:- b:- table #2 rS@1.0,1.0/U",
         "sticks out"},
        {"seats r,b turn 3 to r passes 0 pads r:- b:- table #1 rS@100.0,100.0/U "
         "#2 bS@105.0,100.0/U",
         "#2 overlaps #1"},
        {"seats r,b turn 3 to r passes 0 pads r:- b:- table #2 rS@100.0,100.0/U "
         "#1 bS@200.0,100.0/U",
         "ids must increase"},
        {"seats r,b turn 2 to r passes 0 pads r:- b:- table #2 rS@100.0,100.0/U",
         "ids must increase"},
        {"seats r,b turn 3 to r passes 0 pads r:- b:- table #1 rS@100.0,100.0>1.05",
         "fractional"},
        {"seats r,b turn 3 to r passes 0 pads r:- b:- table #1 --", "is not a piece"},
        {"seats r,b turn 3 to r passes 0 pads r:- b:- table #1", "has no piece"},
        {"seats r,b turn 3 to r passes 0 pads r:- b:- table - extra", "after 'table -'"},
        {"seats r,b turn 3 to r passes 0 pads r:- b:-", "expected 'table'"},
    };
    void *s = pips_state_new(g, NULL);
    g->def->initial(g, s);
    void *copy = pips_state_new(g, NULL);
    memcpy(copy, s, g->def->state_size);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[1024];
        pips_error err;
        snprintf(text, sizeof text, "%s%s", pre, bad[i].rest);
        if (g->def->state_from_text(g, text, s, &err))
            fail_msg("state '%s' accepted", bad[i].rest);
        if (!strstr(err.msg, bad[i].why))
            fail_msg("'%s': message '%s' lacks '%s'", bad[i].rest, err.msg, bad[i].why);
        assert_memory_equal(s, copy, g->def->state_size);
    }
    pips_error err;
    assert_false(g->def->state_from_text(
        g, "players=2 capture_to=placer multi_attacker=colour turn_cap=300 "
           "table=600.0x600.0 first_player=1 seats r,b turn 1 to r passes 0 pads r:- b:- table -",
        s, &err));
    assert_non_null(strstr(err.msg, "capture_to=colour"));
    pips_state_free(g, copy);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* Fuzz: random edits of valid texts never crash; what parses round-trips. */
static void test_fuzz_round_trip(void **st)
{
    (void)st;
    pips_game *g = nt_game(NULL, 0);
    void *s = nt_load(g, "seats r,b turn 6 to r passes 0 pads r:rS1,bS2 b:bM1 table "
                         "#1 bS@100.0,100.0/U #2 rS@50.0,100.0>0.0 #3 rL@300.0,300.0/U15.5 "
                         "#5 bM@300.0,250.0>90.0");
    void *t = pips_state_new(g, NULL), *u = pips_state_new(g, NULL);
    const char *moves[] = {"rS@312.5,140.0/U", "bS@100.0,500.0>45.5", "--", "rS@0,0/U10"};
    pips_str base, again;
    pips_str_init(&base, NULL);
    pips_str_init(&again, NULL);
    g->def->state_to_text(g, s, &base);
    const char alphabet[] = "rbgSML@,./U>-#0123456789 x:e";
    pips_rng r;
    pips_rng_seed(&r, 77);
    int accepted_moves = 0, accepted_states = 0;
    for (int i = 0; i < 20000; i++) {
        char buf[2048];
        const char *src = i % 2 ? moves[i / 2 % 4] : pips_str_cstr(&base);
        snprintf(buf, sizeof buf, "%s", src);
        size_t len = strlen(buf);
        int edits = 1 + (int)pips_rng_below(&r, 3);
        for (int e = 0; e < edits && len > 0; e++) {
            size_t at = (size_t)pips_rng_below(&r, len);
            char ch = alphabet[pips_rng_below(&r, sizeof alphabet - 1)];
            int kind = (int)pips_rng_below(&r, 3);
            if (kind == 0)
                buf[at] = ch;
            else if (kind == 1) {
                memmove(buf + at, buf + at + 1, len - at);
                len--;
            } else if (len + 1 < sizeof buf) {
                memmove(buf + at + 1, buf + at, len - at + 1);
                buf[at] = ch;
                len++;
            }
        }
        pips_error err;
        if (i % 2) {
            pips_move m, back;
            if (g->def->move_from_text(g, s, buf, &m, &err)) {
                char out[PIPS_MOVE_TEXT_MAX];
                g->def->move_to_text(g, s, m, out);
                assert_true(g->def->move_from_text(g, s, out, &back, &err));
                assert_true(back == m);
                accepted_moves++;
            } else {
                assert_true(err.msg[0] != '\0');
            }
        } else if (g->def->state_from_text(g, buf, t, &err)) {
            pips_str_clear(&again);
            g->def->state_to_text(g, t, &again);
            assert_true(g->def->state_from_text(g, pips_str_cstr(&again), u, &err));
            assert_memory_equal(t, u, g->def->state_size);
            accepted_states++;
        } else {
            assert_true(err.msg[0] != '\0');
        }
    }
    assert_true(accepted_moves > 100 && accepted_states > 100);
    pips_str_free(&base);
    pips_str_free(&again);
    pips_state_free(g, s);
    pips_state_free(g, t);
    pips_state_free(g, u);
    pips_game_free(g);
}

/* Rendering and the explanation API on NON-T11's position. */
static void test_render_and_explain(void **st)
{
    (void)st;
    pips_game *g = nt_game(NULL, 0);
    void *s = nt_load(g, "seats r,b turn 11 to r passes 0 pads r:- b:- table "
                         "#1 bS@100.0,100.0/U #2 rS@50.0,100.0>0.0 #3 rL@300.0,300.0/U "
                         "#4 rS@250.0,300.0>0.0 #5 bM@300.0,250.0>90.0 #6 bM@500.0,500.0/U "
                         "#7 bS@450.0,500.0>0.0 #8 rM@500.0,450.0>90.0 "
                         "#9 bS@150.0,500.0>180.0 #10 rS@160.0,550.0>270.0");
    pips_str out;
    pips_str_init(&out, NULL);
    pips_render_opts ro = {false, false};
    g->def->render(g, s, &ro, &out);
    const char *txt = pips_str_cstr(&out);
    assert_non_null(strstr(txt, "#2   rS@50.0,100.0>0.0        -> #1 (42.85 mm)  +1"));
    assert_non_null(strstr(txt, "#6   bM@500.0,500.0/U          subdued by r  own-linked  -2"));
    assert_non_null(strstr(txt, "#9   bS@150.0,500.0>180.0     -> nothing  subdued by r  +0"));
    assert_non_null(strstr(txt, "r pad: empty   score 0"));
    assert_non_null(strstr(txt, "b pad: empty   score -1"));
    assert_non_null(strstr(txt, "game over after turn 10: r wins (r 0, b -1)"));
    assert_non_null(strstr(txt, ">2"));
    assert_non_null(strstr(txt, "v10"));
    assert_non_null(strstr(txt, "<9"));
    assert_non_null(strstr(txt, "o6"));
    pips_str_clear(&out);
    pips_render_opts fancy = {true, true};
    g->def->render(g, s, &fancy, &out);
    assert_non_null(strstr(pips_str_cstr(&out), "\033["));
    assert_non_null(strstr(pips_str_cstr(&out), "→ #1"));
    assert_non_null(strstr(pips_str_cstr(&out), "↓\033[0m"));
    assert_non_null(strstr(pips_str_cstr(&out), "┌"));
    pips_str_free(&out);
    /* Footprints for drawing: #2's triangle, tip first; #1's square. */
    noname_piece_info p2 = nt_piece(g, s, 2), p1 = nt_piece(g, s, 1);
    assert_int_equal(p2.n_corners, 3);
    assert_true(p2.corner_x[0] == 50.0 && p2.corner_y[0] == 100.0);
    assert_true(fabs(p2.corner_x[1] - 23.6) < 1e-9 && fabs(p2.corner_y[1] - 107.15) < 1e-9);
    assert_int_equal(p1.n_corners, 4);
    assert_true(fabs(p1.corner_x[0] - 107.15) < 1e-9 && fabs(p1.corner_y[0] - 92.85) < 1e-9);
    double fx[4], fy[4];
    assert_int_equal(noname_move_footprint(noname_make_move('r', 'L', true, 463, 1000, 0), fx,
                                           fy),
                     3);
    assert_true(fx[1] == 0.0 && fy[1] == 112.7); /* NON-T12: the base lies on x = 0 */
    assert_int_equal(noname_move_footprint(noname_skip(), fx, fy), 0);
    /* The evaluation follows the scores: Red (0) ahead of Blue (-1). */
    double ev[2];
    g->def->evaluate(g, s, ev);
    assert_true(ev[0] > 0.5 && ev[1] < 0.5 && ev[0] < 1.0 && ev[1] > 0.0);
    pips_state_free(g, s);

    /* The preview of NON-T5's capture: target, redirected attackers, victim. */
    s = nt_load(g, "seats r,b turn 4 to r passes 0 pads r:rS1 b:bS1 table "
                   "#1 bL@300.0,300.0/U #2 rL@250.0,300.0>0.0 #3 bL@230.0,270.0>90.0");
    pips_move m;
    pips_error err;
    assert_true(pips_parse_move(g, s, "rS@300.0,250.0>90.0", &m, &err));
    noname_preview pv;
    assert_true(noname_preview_move(g, s, m, &pv, &err));
    assert_int_equal(pv.new_id, 4);
    assert_int_equal(pv.target_id, 1);
    assert_true(pv.hit_mm > 37.295 && pv.hit_mm < 37.305);
    assert_int_equal(pv.n_redirected, 0);
    assert_int_equal(pv.captured_id, 1);
    assert_int_equal(pv.captured_to_seat, 0);
    /* An upright piece across #2's ray redirects it. */
    assert_true(pips_parse_move(g, s, "rS@270.0,300.0/U", &m, &err));
    assert_true(noname_preview_move(g, s, m, &pv, &err));
    assert_int_equal(pv.n_redirected, 1);
    assert_int_equal(pv.redirected[0], 2);
    assert_int_equal(pv.captured_id, 0);
    assert_true(g->def->move_from_text(g, s, "rS@300.0,300.0/U", &m, &err));
    assert_false(noname_preview_move(g, s, m, &pv, &err));
    assert_non_null(strstr(err.msg, "overlaps #1"));
    pips_state_free(g, s);
    pips_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_move_canonical),  cmocka_unit_test(test_move_errors),
        cmocka_unit_test(test_options),         cmocka_unit_test(test_state_errors),
        cmocka_unit_test(test_fuzz_round_trip), cmocka_unit_test(test_render_and_explain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
