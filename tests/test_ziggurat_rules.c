/*
 * test_ziggurat_rules.c — Ziggurat rulings not already covered by the
 * section-11 scenarios (test_ziggurat_scenarios.c): geometry, turn order,
 * seating, options, Redo, passing, winning, the turn cap, Queens, stations,
 * dice as chance nodes, and check_move agreeing with the legal lists.
 */
#include <math.h>

#include "zig_helpers.h"

#include "games/ziggurat/ziggurat_internal.h"

#define HDR(mover, mv, act) "mover=" mover " phase=step move=" mv " action=" act " flags=MA turns=0 result=- | "

static char *state_text(const pips_game *g, const void *s)
{
    pips_str t;
    pips_str_init(&t, NULL);
    g->def->state_to_text(g, s, &t);
    char *out = strdup(pips_str_cstr(&t));
    pips_str_free(&t);
    return out;
}

static void loc_text(const zig_config *k, int loc, char *buf)
{
    buf[0] = k->lx[loc] == 0 ? '@' : (char)('a' + k->lx[loc] - 1);
    buf[1] = (char)('0' + k->ly[loc]);
    buf[2] = 0;
}

/* ZIG-R1, R2: Red's path as written in section 1; every colour's entries,
 * walls and Goal per the table; every level 1-3 square on each path once. */
static void test_paths(void **st)
{
    (void)st;
    pips_game *g = zig_game(NULL, 0);
    const zig_config *k = g->config;
    const char *red = "h0 h1 h2 h3 h4 h5 h6 h7 h8 g8 f8 e8 d8 c8 b8 a8 a7 a6 a5 a4 a3 a2 a1 b1 "
                      "c1 d1 e1 f1 g1 g2 g3 g4 g5 g6 g7 f7 e7 d7 c7 b7 b6 b5 b4 b3 b2 c2 d2 e2 "
                      "f2 f3 f4 f5 f6 e6 d6 c6 c5 c4 c3 d3 e3 e4";
    char buf[400] = "", nm[3];
    for (int i = 0; i < ZIG_PATH; i++) {
        loc_text(k, k->path[ZIG_RED][i], nm);
        if (i) strcat(buf, " ");
        strcat(buf, nm);
    }
    assert_string_equal(buf, red);
    static const char *const table[4][8] = {
        {"h0", "h1", "g1", "g2", "f2", "f3", "e3", "e4"},
        {"i8", "h8", "h7", "g7", "g6", "f6", "f5", "e5"},
        {"a9", "a8", "b8", "b7", "c7", "c6", "d6", "d5"},
        {"@1", "a1", "a2", "b2", "b3", "c3", "c4", "d4"},
    };
    static const int idx[8] = {0, 1, 28, 29, 48, 49, 60, 61};
    for (int c = 0; c < 4; c++)
        for (int j = 0; j < 8; j++) {
            loc_text(k, k->path[c][idx[j]], nm);
            assert_string_equal(nm, table[c][j]);
        }
    for (int c = 0; c < 4; c++) {
        int seen[64] = {0};
        for (int i = 1; i < 61; i++)
            seen[k->path[c][i]]++;
        for (int l = 0; l < 64; l++)
            assert_int_equal(seen[l], k->level[l] >= 1 && k->level[l] <= 3 ? 1 : 0);
        /* each step of the path is to an adjacent square */
        for (int i = 1; i < 61; i++) {
            int a = k->path[c][i], b = k->path[c][i + 1];
            assert_true(abs(k->lx[a] - k->lx[b]) <= 1 && abs(k->ly[a] - k->ly[b]) <= 1);
        }
    }
    pips_game_free(g);
}

/* The mover after the current mover ends its turn (roll 1T, then end). */
static char next_mover(const pips_game *g, void *s)
{
    zig_play(g, s, "1T");
    zig_play(g, s, "end");
    char *t = state_text(g, s);
    char c = t[6];
    free(t);
    return c;
}

static void check_order(const char *const *opts, size_t n, const char *expected)
{
    pips_game *g = zig_game(opts, n);
    void *s = calloc(1, g->def->state_size);
    g->def->initial(g, s);
    char got[8] = {0};
    char *t = state_text(g, s);
    got[0] = t[6];
    free(t);
    for (size_t i = 1; i < strlen(expected); i++)
        got[i] = next_mover(g, s);
    assert_string_equal(got, expected);
    free(s);
    pips_game_free(g);
}

/* ZIG-R3, R25: turn order and seating. */
static void test_turn_order(void **st)
{
    (void)st;
    check_order(NULL, 0, "RBYGR");
    const char *ccw[] = {"turn_direction=ccw"};
    check_order(ccw, 1, "RGYBR");
    const char *first[] = {"first=yellow"};
    check_order(first, 1, "YGRBY");
    const char *three[] = {"players=3"};
    check_order(three, 1, "RBYR");
    const char *three_r[] = {"players=3", "omit=red", "first=blue"};
    check_order(three_r, 3, "BYGB");
    const char *two[] = {"players=2"};
    check_order(two, 1, "RYR");
    const char *two_bg[] = {"players=2", "pair=bg", "first=green"};
    check_order(two_bg, 3, "GBG");
    const char *tc[] = {"players=2", "mode=two_colour"};
    check_order(tc, 2, "RBYGR");
}

static int seats(const char *const *opts, size_t n)
{
    pips_game *g = zig_game(opts, n);
    int k = pips_num_players(g);
    pips_game_free(g);
    return k;
}

/* ZIG-R25, R26 and section 8a: seats and option validation. */
/* The start piles of a game with these options. */
static void expect_start_piles(const char *const *opts, size_t n, const char *piles)
{
    pips_game *g = zig_game(opts, n);
    void *s = calloc(1, g->def->state_size);
    g->def->initial(g, s);
    assert_piles(g, s, piles);
    free(s);
    pips_game_free(g);
}

static void test_options(void **st)
{
    (void)st;
    assert_int_equal(seats(NULL, 0), 4);
    const char *a[] = {"players=3"};
    assert_int_equal(seats(a, 1), 3);
    const char *b[] = {"players=2", "mode=two_colour"};
    assert_int_equal(seats(b, 2), 2);
    const char *c[] = {"mode=teams"};
    assert_int_equal(seats(c, 1), 4);
    static const char *const bad[][3] = {
        {"players=5"}, {"players=1"}, {"mode=teams", "players=3"}, {"mode=two_colour"},
        {"mode=solo"}, {"omit=purple"}, {"pair=rb"}, {"move_die=d10"},
        {"action_die=d6"}, {"queen=maybe"}, {"queen_height=5"}, {"queen_height=0"},
        {"first=black"}, {"players=3", "first=green"}, {"players=2", "first=blue"},
        {"turn_direction=left"}, {"max_turns=-1"}, {"max_turns=x"},
        /* ZIG-R27 per colour: one height, or exactly one per colour in play */
        {"queen_height=1,4"}, {"queen_height=1,2,3,4,1"}, {"queen_height=1,,2,3"},
        {"queen_height=1,2,3,5"}, {"queen_height=,1"}, {"queen_height=1,"},
        {"players=3", "queen_height=1,2"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t n = bad[i][1] ? 2 : 1;
        pips_error err;
        pips_game *g = pips_game_new("ziggurat", (const char *const *)bad[i], n, NULL, &err);
        if (g)
            fail_msg("options '%s %s' were accepted", bad[i][0], n > 1 ? bad[i][1] : "");
        assert_true(strlen(err.msg) > 0);
    }
    /* the start position per seating */
    const char *q[] = {"queen=true", "queen_height=3", "players=3", "omit=blue"};
    expect_start_piles(q, 4, "h0:R,R,RQ,R i8:G,G,GQ,G a9:Y,Y,YQ,Y");
    /* one height per colour, in turn order (R, B, Y, G; ccw R, G, Y, B) */
    const char *per[] = {"queen=true", "queen_height=1,2,3,4"};
    expect_start_piles(per, 2, "h0:RQ,R,R,R i8:G,G,G,GQ a9:Y,Y,YQ,Y @1:B,BQ,B,B");
    const char *ccw[] = {"queen=true", "queen_height=1,2,3,4", "turn_direction=ccw"};
    expect_start_piles(ccw, 3, "h0:RQ,R,R,R i8:G,GQ,G,G a9:Y,Y,YQ,Y @1:B,B,B,BQ");
    const char *two[] = {"players=2", "queen=true", "queen_height=4,1", "first=yellow"};
    expect_start_piles(two, 4, "h0:RQ,R,R,R a9:Y,Y,Y,YQ");
    pips_error err;
    const char *wrong[] = {"players=3", "queen_height=1,2"};
    assert_null(pips_game_new("ziggurat", wrong, 2, NULL, &err));
    assert_string_equal(err.msg, "option 'queen_height': '1,2' gives 2 heights; give one, or "
                                 "one per colour in turn order (3)");
}

/* ZIG-R30: dice are chance nodes; opening roll one event of both dice. */
static void test_chance(void **st)
{
    (void)st;
    static const char *const combos[4][2] = {
        {"move_die=d8", "action_die=d8"}, {"move_die=d6", "action_die=treehouse"},
        {"move_die=d8", "action_die=treehouse"}, {"move_die=d6", "action_die=d8"}};
    static const int counts[4] = {64, 36, 48, 48};
    for (int i = 0; i < 4; i++) {
        pips_game *g = zig_game(combos[i], 2);
        void *s = calloc(1, g->def->state_size);
        g->def->initial(g, s);
        assert_int_equal(pips_to_move(g, s), PIPS_CHANCE);
        pips_move mv[ZIG_MAX_MOVES];
        double pr[ZIG_MAX_MOVES], sum = 0;
        size_t n = g->def->chance_outcomes(g, s, mv, pr);
        assert_int_equal(n, counts[i]);
        for (size_t j = 0; j < n; j++)
            sum += pr[j];
        assert_true(sum > 0.999999 && sum < 1.000001);
        assert_int_equal(pips_perft(g, s, 1), counts[i]);
        free(s);
        pips_game_free(g);
    }
    /* the d6 shows 2..7; treehouse has no L or R */
    pips_game *g = zig_game(combos[1], 2);
    void *s = calloc(1, g->def->state_size);
    g->def->initial(g, s);
    assert_tokens(g, s, "2", "2A 2D 2H 2S 2T 2W");
    assert_tokens(g, s, "1", "");
    assert_tokens(g, s, "8", "");
    pips_error err;
    assert_false(pips_play_text(g, s, "2L", &err));
    assert_false(pips_play_text(g, s, "8T", &err));
    free(s);
    pips_game_free(g);
}

/* ZIG-R19 Redo A: after the move or before it (forfeiting it); the reroll
 * is one chance event and allows one plain Move only. */
static void test_redo_a(void **st)
{
    (void)st;
    pips_game *g = zig_game(NULL, 0);
    void *s = zig_pos(g, HDR("R", "3", "R") "h0:R,R c3:R");
    zig_play(g, s, "Mh0-h3");
    assert_tokens(g, s, "", "RA end"); /* RB only as the first step (ZIG-R20) */
    zig_play(g, s, "RA");
    assert_int_equal(pips_to_move(g, s), PIPS_CHANCE);
    assert_tokens(g, s, "", "RA:1 RA:2 RA:3 RA:4 RA:5 RA:6 RA:7 RA:8");
    zig_play(g, s, "RA:2");
    assert_tokens(g, s, "", "Mc3-e3 Mh0-h2 Mh3-h5 end");
    zig_play(g, s, "Mh3-h5");
    /* nothing left: the turn ended by itself (ZIG-R22) */
    assert_int_equal(pips_to_move(g, s), PIPS_CHANCE);
    char *t = state_text(g, s);
    assert_non_null(strstr(t, "mover=B phase=roll"));
    free(t);
    free(s);
    /* RA first forfeits the movement; a Wild's reroll gives no Aim or Hop */
    s = zig_pos(g, HDR("R", "3", "W") "h0:R");
    zig_play(g, s, "RA");
    zig_play(g, s, "RA:5");
    assert_tokens(g, s, "", "Mh0-h5 end");
    free(s);
    /* RA needs an own piece off the Goal (ZIG-R19, R26) */
    const char *teams[] = {"mode=teams"};
    pips_game *gt = zig_game(teams, 1);
    s = zig_pos(gt, HDR("R", "3", "R") "e4:R,R,R");
    assert_tokens(gt, s, "", "RB end");
    free(s);
    pips_game_free(gt);
    pips_game_free(g);
}

/* ZIG-R20: Redo B rerolls the action die (one chance event), first step only. */
static void test_redo_b(void **st)
{
    (void)st;
    const char *th[] = {"action_die=treehouse"};
    pips_game *g = zig_game(th, 1);
    /* With the Treehouse die Wild is not Redo: no RA or RB. */
    void *s = zig_pos(g, HDR("R", "3", "W") "h0:R");
    assert_tokens(g, s, "R", "");
    free(s);
    pips_game_free(g);
    g = zig_game(NULL, 0);
    s = zig_pos(g, HDR("R", "3", "R") "h0:R");
    zig_play(g, s, "RB");
    assert_int_equal(pips_to_move(g, s), PIPS_CHANCE);
    zig_play(g, s, "RB:L");
    assert_tokens(g, s, "", "Lh0-h8 Mh0-h3 end");
    free(s);
    pips_game_free(g);
}

/* ZIG-R18: Move and action in either order, by the same piece or another. */
static void test_step_order(void **st)
{
    (void)st;
    pips_game *g = zig_game(NULL, 0);
    void *s = zig_pos(g, HDR("R", "3", "T") "h0:R,R");
    zig_play(g, s, "Th0N");
    assert_piles(g, s, "h1:R h2:R");
    assert_tokens(g, s, "M", "Mh1-h4 Mh2-h5");
    free(s);
    s = zig_pos(g, HDR("R", "3", "T") "h0:R,R");
    zig_play(g, s, "Mh0-h3");
    assert_true(zig_has_token(g, s, "Th0N"));
    assert_true(zig_has_token(g, s, "Th3N"));
    free(s);
    /* Aim and Hop use both dice */
    s = zig_pos(g, HDR("R", "3", "A") "h0:R,R");
    zig_play(g, s, "Ah0-h4");
    assert_int_equal(pips_to_move(g, s), PIPS_CHANCE);
    free(s);
    pips_game_free(g);
}

/* ZIG-R22: with only `end` left after the opening roll, the turn passes. */
static void test_auto_pass(void **st)
{
    (void)st;
    pips_game *g = zig_game(NULL, 0);
    void *s = zig_pos(g, "mover=R phase=roll move=0 action=- flags=- turns=4 result=- | "
                         "g1:R g2:Y,G");
    zig_play(g, s, "5S"); /* plain move blocked, Swap (A) with g2 exists */
    assert_true(zig_has_token(g, s, "Sg1-g2"));
    free(s);
    s = zig_pos(g, "mover=R phase=roll move=0 action=- flags=- turns=4 result=- | "
                   "g1:R g2:Y,G a5:B");
    zig_play(g, s, "5L"); /* no plain move, no Leap: the turn passes */
    char *t = state_text(g, s);
    assert_string_equal(t, "mover=B phase=roll move=0 action=- flags=- turns=5 result=- | "
                           "g1:R g2:Y,G a5:B");
    free(t);
    free(s);
    pips_game_free(g);
}

/* ZIG-R23: a finish decides the game at once, mid-turn. */
static void test_winning(void **st)
{
    (void)st;
    pips_game *g = zig_game(NULL, 0);
    void *s = zig_pos(g, HDR("R", "1", "T") "e3:R e4:R,R");
    zig_play(g, s, "Me3-e4"); /* ZIG-R6: the own Goal's stack does not block */
    assert_int_equal(pips_to_move(g, s), PIPS_OVER);
    double r[4];
    g->def->returns(g, s, r);
    assert_true(r[0] == 1.0 && r[1] == 0.0 && r[2] == 0.0 && r[3] == 0.0);
    pips_str t;
    pips_str_init(&t, NULL);
    g->def->result_text(g, s, &t);
    assert_string_equal(pips_str_cstr(&t), "Red wins");
    pips_str_free(&t);
    free(s);
    pips_game_free(g);
    /* two-colour: finishing either colour wins for its player */
    const char *tc[] = {"players=2", "mode=two_colour"};
    g = zig_game(tc, 2);
    s = zig_pos(g, HDR("Y", "1", "T") "d6:Y d5:Y,Y");
    zig_play(g, s, "Md6-d5");
    assert_int_equal(pips_to_move(g, s), PIPS_OVER);
    g->def->returns(g, s, r);
    assert_true(r[0] == 1.0 && r[1] == 0.0);
    free(s);
    pips_game_free(g);
    /* teams (ZIG-R26): one finished colour plays on; both finish to win */
    const char *tm[] = {"mode=teams"};
    g = zig_game(tm, 1);
    s = zig_pos(g, HDR("R", "1", "T") "e3:R e4:R,R a1:Y");
    zig_play(g, s, "Me3-e4");
    assert_int_equal(pips_to_move(g, s), PIPS_CHANCE); /* nothing left: Blue's turn */
    char *txt = state_text(g, s);
    assert_non_null(strstr(txt, "mover=B phase=roll"));
    free(txt);
    free(s);
    s = zig_pos(g, HDR("Y", "1", "T") "d6:Y d5:Y,Y e4:R,R,R");
    zig_play(g, s, "Md6-d5");
    assert_int_equal(pips_to_move(g, s), PIPS_OVER);
    g->def->returns(g, s, r);
    assert_true(r[0] == 1.0 && r[1] == 0.0 && r[2] == 1.0 && r[3] == 0.0);
    free(s);
    pips_game_free(g);
}

/* ZIG-R24: the turn cap ends the game in a draw. */
static void test_turn_cap(void **st)
{
    (void)st;
    const char *o[] = {"max_turns=2"};
    pips_game *g = zig_game(o, 1);
    void *s = calloc(1, g->def->state_size);
    g->def->initial(g, s);
    zig_play(g, s, "1T");
    zig_play(g, s, "end");
    assert_int_equal(pips_to_move(g, s), PIPS_CHANCE);
    zig_play(g, s, "1T");
    zig_play(g, s, "end");
    assert_int_equal(pips_to_move(g, s), PIPS_OVER);
    double r[4];
    g->def->returns(g, s, r);
    for (int i = 0; i < 4; i++)
        assert_true(r[i] == 0.5);
    free(s);
    pips_game_free(g);
}

/* ZIG-R5: stacks ahead on the path; a stack on the entry corner keeps Drones on the Start. */
static void test_blocking(void **st)
{
    (void)st;
    pips_game *g = zig_game(NULL, 0);
    void *s = zig_pos(g, HDR("R", "5", "W") "h0:R h1:G,Y");
    assert_tokens(g, s, "M", "");
    assert_tokens(g, s, "A", "");
    assert_tokens(g, s, "L", "");
    assert_tokens(g, s, "H", "Hh0-h7"); /* 6 points: the run h1 plus h2 costs one */
    free(s);
    /* stacks off the path do not matter */
    s = zig_pos(g, HDR("R", "3", "T") "h2:R g3:G,Y");
    assert_tokens(g, s, "M", "Mh2-h5");
    free(s);
    /* ZIG-R9: a stop square met in a run ends the Hop on it */
    s = zig_pos(g, HDR("R", "4", "H") "h5:R h6:B h7:G h8:Y g8:B");
    assert_tokens(g, s, "H", "Hh5-h8");
    free(s);
    pips_game_free(g);
}

/* ZIG-R12, R15, R16, R17: null swaps, stations immune, Start and Goal powers. */
static void test_stations(void **st)
{
    (void)st;
    pips_game *g = zig_game(NULL, 0);
    void *s = zig_pos(g, HDR("R", "1", "S") "d8:R,R c8:R d3:R d4:B");
    assert_tokens(g, s, "S", ""); /* equal pieces; d4 is Blue's Goal */
    free(s);
    /* Start: Tip (A) of an adjacent pile; the Start pile only forward */
    s = zig_pos(g, HDR("R", "1", "T") "h0:R h1:Y g1:B");
    assert_tokens(g, s, "T", "Th0N Th1N");
    free(s);
    /* Goal: the top piece may only Tip (A); no RA without a piece off the Goal */
    s = zig_pos(g, HDR("R", "3", "W") "e4:R d3:Y");
    assert_tokens(g, s, "", "RB Td3SW end");
    free(s);
    /* ZIG-R14: a Tip may send a whole pile home, on top, in layout order */
    s = zig_pos(g, HDR("R", "1", "T") "g2:R h1:G,Y i8:G");
    assert_true(zig_has_token(g, s, "Th1SE"));
    zig_play(g, s, "Th1SE");
    assert_piles(g, s, "g2:R i8:G,G a9:Y");
    free(s);
    pips_game_free(g);
}

/* ZIG-R27..R29: Queens. */
static void test_queens(void **st)
{
    (void)st;
    const char *o[] = {"queen=true"};
    pips_game *g = zig_game(o, 1);
    /* she is never blocked, carries all above her, blocks Drones */
    void *s = zig_pos(g, HDR("R", "4", "T") "h1:RQ,B h2:G,Y h4:GQ g1:R");
    assert_tokens(g, s, "QM", "QMh1-h3");
    zig_play(g, s, "QMh1-h3");
    assert_piles(g, s, "g1:R h2:G,Y h3:RQ,B h4:GQ");
    free(s);
    s = zig_pos(g, HDR("R", "8", "T") "h2:R h4:GQ");
    assert_tokens(g, s, "M", "Mh2-h3");
    assert_tokens(g, s, "L", ""); /* Leap is not rolled */
    free(s);
    /* a Queen above blocks a Queen below from moving */
    s = zig_pos(g, HDR("R", "4", "T") "h1:RQ,GQ");
    assert_tokens(g, s, "Q", "");
    assert_tokens(g, s, "M", "");
    free(s);
    /* carrying a foreign piece she halts before her Goal */
    s = zig_pos(g, HDR("R", "8", "W") "e3:RQ,B");
    assert_tokens(g, s, "Q", "");
    free(s);
    s = zig_pos(g, HDR("R", "8", "W") "e3:RQ,R");
    assert_tokens(g, s, "Q", "QAe3-e4 QHe3-e4 QMe3-e4");
    free(s);
    /* an odd last point is lost; a laden Queen cannot Leap */
    s = zig_pos(g, HDR("R", "3", "L") "h1:RQ,R");
    assert_tokens(g, s, "", "Lh1-h8 Mh1-h4 QMh1-h2 end");
    free(s);
    s = zig_pos(g, HDR("R", "3", "L") "h1:R,RQ,B");
    assert_tokens(g, s, "", "QMh1-h2 end");
    free(s);
    pips_game_free(g);
}

/* ZIG-R31: check_move agrees with the legal list for every step encoding of
 * each family at positions from random games. */
static void test_check_matches_list(void **st)
{
    (void)st;
    const char *o[] = {"queen=true"};
    for (int variant = 0; variant < 2; variant++) {
        pips_game *g = zig_game(o, (size_t)variant);
        const zig_config *k = g->config;
        zig_state s;
        pips_rng rng;
        pips_rng_seed(&rng, 99 + variant);
        pips_move buf[ZIG_MAX_MOVES];
        double pr[ZIG_MAX_MOVES];
        int checked = 0;
        for (int game = 0; game < 4; game++) {
            g->def->initial(g, &s);
            for (int ply = 0; ply < 3000 && pips_to_move(g, &s) != PIPS_OVER; ply++) {
                size_t n = pips_node_moves(g, &s, &rng, buf, pr);
                if (pips_to_move(g, &s) >= 0 && ply % 41 == 0) {
                    for (int kind = K_MOVE; kind <= K_END; kind++)
                        for (int from = 0; from < ZIG_LOCS; from++) {
                            if (!s.height[from] && from % 16) /* empty origins: a sample */
                                continue;
                            for (int x = 0; x < (kind == K_TIP || kind == K_SWAPB ? 8 : 1);
                                 x++)
                                for (int to = 0; to < (kind <= K_SWAPA ? ZIG_LOCS : 1); to++) {
                                    pips_move m = kind == K_TIP     ? zig_mk(K_TIP, from, 0, x, 0)
                                                  : kind == K_SWAPB ? zig_mk(K_SWAPB, from, 0, 1 + x / 4, 2 + x)
                                                  : kind >= K_RA    ? zig_mk(kind, 0, 0, 0, 0)
                                                                    : zig_mk(kind, from, to, 0, 0);
                                    bool in = false;
                                    for (size_t i = 0; i < n; i++)
                                        in |= buf[i] == m;
                                    pips_error why;
                                    pips_error_clear(&why);
                                    if (pips_check_move(g, &s, m, &why) != in) {
                                        char t[PIPS_MOVE_TEXT_MAX];
                                        pips_zig_move_text(k, m, t);
                                        fail_msg("check_move and list disagree on %s", t);
                                    }
                                    /* a refused step says why, with a ruling, never the
                                     * catch-all (an empty origin needs no ruling) */
                                    if (!in && (strstr(why.msg, "R4..R22") ||
                                                (!strstr(why.msg, "ZIG-R") && !strstr(why.msg, "no piece on")))) {
                                        char t[PIPS_MOVE_TEXT_MAX];
                                        pips_zig_move_text(k, m, t);
                                        fail_msg("%s refused without a reason: '%s'", t, why.msg);
                                    }
                                    checked++;
                                }
                        }
                }
                size_t pick = pips_to_move(g, &s) == PIPS_CHANCE ? pips_sample_chance(&rng, pr, n)
                                                                 : (size_t)pips_rng_below(&rng, n);
                g->def->apply(g, &s, buf[pick]);
            }
        }
        assert_true(checked > 1000);
        pips_game_free(g);
    }
}

/* Why a step is refused, in plain words with its ruling (issue 27: the web
 * page shows this for an illegal click). */
static void expect_reason(const pips_game *g, const void *s, const char *move, const char *reason)
{
    pips_error err;
    pips_move m;
    pips_error_clear(&err);
    if (pips_parse_move(g, s, move, &m, &err))
        fail_msg("%s was accepted", move);
    if (strcmp(err.msg, reason))
        fail_msg("%s: '%s', expected '%s'", move, err.msg, reason);
}

static void test_illegal_reasons(void **st)
{
    (void)st;
    pips_game *g = zig_game(NULL, 0);
    void *s = zig_pos(g, HDR("R", "3", "T") "h2:R g3:G,Y e4:R");
    expect_reason(g, s, "Mh2-h4", "with 3 points the piece on h2 goes along your path to h5 (ZIG-R2, R8), not h4");
    expect_reason(g, s, "Mg3-g4", "the top piece on g3 is Yellow's: only your own top piece moves (ZIG-R8)");
    expect_reason(g, s, "Mc3-c4", "there is no piece on c3");
    expect_reason(g, s, "Me4-e5", "e4 is your Goal: a piece there only Tips (ZIG-R17)");
    expect_reason(g, s, "Lh2-h5", "a Leap needs Leap (or Wild) on the action die, and the action die shows Tip (ZIG-R10, R21)");
    expect_reason(g, s, "RA", "RA needs Redo (or Wild) on the action die, unused, and the action die shows Tip (ZIG-R19, R20)");
    free(s);
    s = zig_pos(g, "mover=R phase=step move=3 action=D flags=A turns=0 result=- | h2:R g3:G,Y c3:R b2:R");
    expect_reason(g, s, "Mh2-h5", "the movement die is already used this turn (ZIG-R8, R18)");
    expect_reason(g, s, "Dg3-g4", "a Dig moves your own bottom piece; the bottom piece on g3 is Green's (ZIG-R11)");
    expect_reason(g, s, "Db2-c3", "a Dig never goes up: c3 is on level 3, b2 on level 2 (ZIG-R11)");
    expect_reason(g, s, "Dc3-d4", "a Dig never moves from or into a Start or Goal (ZIG-R11, R15)");
    expect_reason(g, s, "Dc3-c5", "a Dig goes to a square next to c3 (ZIG-R11)");
    free(s);
    pips_game_free(g);
}

/* Rejected text leaves the state untouched; errors say where. */
static void test_bad_text(void **st)
{
    (void)st;
    pips_game *g = zig_game(NULL, 0);
    zig_state s, before;
    g->def->initial(g, &s);
    memcpy(&before, &s, sizeof s);
    static const char *const bad[] = {
        "", "mover=X phase=roll move=0 action=- flags=- turns=0 result=- |",
        "mover=R phase=roll move=3 action=- flags=- turns=0 result=- |",
        "mover=R phase=step move=9 action=T flags=MA turns=0 result=- |",
        "mover=R phase=roll move=0 action=- flags=- turns=0 result=- | h0:G",
        "mover=R phase=roll move=0 action=- flags=- turns=0 result=- | e5:R",
        "mover=R phase=roll move=0 action=- flags=- turns=0 result=- | h0:RQ",
        "mover=R phase=roll move=0 action=- flags=- turns=0 result=- | j5:R",
        "mover=R phase=roll move=0 action=- flags=- turns=0 result=- | a1:R a1:G",
        "mover=R phase=over move=0 action=- flags=- turns=0 result=- |",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pips_error err;
        if (g->def->state_from_text(g, bad[i], &s, &err))
            fail_msg("state '%s' accepted", bad[i]);
        assert_memory_equal(&s, &before, sizeof s);
        assert_true(strlen(err.msg) > 0);
    }
    pips_error err;
    assert_false(pips_play_text(g, &s, "Mh0-h3", &err)); /* a chance node */
    zig_play(g, &s, "3T");
    memcpy(&before, &s, sizeof s);
    static const char *const badm[] = {"Mh0-h4", "Xh0", "Th0Q", "Mh0", "Sb1-a1", "RA", "8A", "Mz9-a1"};
    for (size_t i = 0; i < sizeof badm / sizeof badm[0]; i++) {
        if (pips_play_text(g, &s, badm[i], &err))
            fail_msg("move '%s' accepted", badm[i]);
        assert_memory_equal(&s, &before, sizeof s);
    }
    pips_game_free(g);
}

/* Render: board, Starts, dice and legal steps; ASCII unless asked. */
static void test_render(void **st)
{
    (void)st;
    pips_game *g = zig_game(NULL, 0);
    void *s = zig_pos(g, HDR("R", "4", "W") "h0:R f1:R,B c3:R e4:R");
    pips_render_opts ascii = {false, false}, fancy = {true, true};
    pips_str t;
    pips_str_init(&t, NULL);
    g->def->render(g, s, &ascii, &t);
    const char *r = pips_str_cstr(&t);
    for (const char *p = r; *p; p++)
        assert_true((unsigned char)*p < 128 && *p != '\033');
    assert_non_null(strstr(r, "RB"));        /* f1's pile bottom to top */
    assert_non_null(strstr(r, "GR"));        /* Red's Goal */
    assert_non_null(strstr(r, "wR"));        /* a Red wall */
    assert_non_null(strstr(r, "Mh0-h4"));    /* legal steps */
    assert_non_null(strstr(r, "movement 4"));
    assert_int_equal(r[strlen(r) - 1], '\n');
    pips_str_clear(&t);
    g->def->render(g, s, &fancy, &t);
    assert_non_null(strstr(pips_str_cstr(&t), "\033["));
    assert_non_null(strstr(pips_str_cstr(&t), "│"));
    pips_str_free(&t);
    free(s);
    pips_game_free(g);
}

/* Agent hooks: evaluate in [0, 1]; order_moves ranks a finishing step first and `end` last. */
static void test_agent_hooks(void **st)
{
    (void)st;
    pips_game *g = zig_game(NULL, 0);
    void *s = zig_pos(g, HDR("R", "1", "T") "e3:R e4:R h0:R h1:B");
    pips_move mv[ZIG_MAX_MOVES];
    int sc[ZIG_MAX_MOVES];
    size_t n = g->def->legal_moves(g, s, mv);
    g->def->order_moves(g, s, mv, n, sc);
    size_t best = 0, worst = 0;
    for (size_t i = 1; i < n; i++) {
        if (sc[i] > sc[best]) best = i;
        if (sc[i] < sc[worst]) worst = i;
    }
    char t[PIPS_MOVE_TEXT_MAX];
    g->def->move_to_text(g, s, mv[best], t);
    assert_string_equal(t, "Me3-e4");
    g->def->move_to_text(g, s, mv[worst], t);
    assert_string_equal(t, "end");
    free(s);
    static const char *const modes[][2] = {{"players=4", "mode=standard"}, {"players=4", "mode=teams"},
                                           {"players=2", "mode=two_colour"}, {"players=3", "mode=standard"}};
    for (int v = 0; v < 4; v++) {
        pips_game *gv = zig_game(modes[v], 2);
        zig_state z;
        pips_rng rng;
        pips_rng_seed(&rng, 3);
        gv->def->initial(gv, &z);
        double pr[ZIG_MAX_MOVES], ev[PIPS_MAX_PLAYERS];
        for (int ply = 0; ply < 2000 && pips_to_move(gv, &z) != PIPS_OVER; ply++) {
            gv->def->evaluate(gv, &z, ev);
            double sum = 0;
            for (int i = 0; i < pips_num_players(gv); i++) {
                assert_true(ev[i] >= 0.0 && ev[i] <= 1.0);
                sum += ev[i];
            }
            assert_true(sum > 0);
            size_t k = pips_node_moves(gv, &z, &rng, mv, pr);
            size_t pick = pips_to_move(gv, &z) == PIPS_CHANCE ? pips_sample_chance(&rng, pr, k)
                                                              : (size_t)pips_rng_below(&rng, k);
            gv->def->apply(gv, &z, mv[pick]);
        }
        pips_game_free(gv);
    }
    pips_game_free(g);
}

/* The evaluate hook's values at the position text. */
static void eval_at(const pips_game *g, const char *text, double *out)
{
    void *s = zig_pos(g, text);
    g->def->evaluate(g, s, out);
    free(s);
}

/* The evaluate hook as a race estimate (2 players, Red seat 1, Yellow seat 2):
 * a colour two pieces home and one close leads by far; a piece buried under
 * the other colour counts against its owner; unused movement counts for
 * the mover. */
static void test_evaluate_race(void **st)
{
    (void)st;
    static const char *const two[] = {"players=2"};
    pips_game *g = zig_game(two, 1);
    double ev[PIPS_MAX_PLAYERS], other[PIPS_MAX_PLAYERS];
    eval_at(g, HDR("Y", "1", "T") "e4:R,R e3:R a9:Y,Y,Y", ev);
    assert_true(ev[0] > 0.9 && fabs(ev[0] + ev[1] - 1.0) < 1e-9);
    eval_at(g, HDR("R", "1", "T") "h0:R,R a9:Y,Y d3:Y,R", ev);
    eval_at(g, HDR("R", "1", "T") "h0:R,R a9:Y,Y d3:R,Y", other);
    assert_true(ev[1] < other[1]); /* Yellow under Red is worse for Yellow */
    eval_at(g, HDR("R", "8", "T") "h0:R,R,R a9:Y,Y,Y", ev);
    eval_at(g, HDR("R", "1", "T") "h0:R,R,R a9:Y,Y,Y", other);
    assert_true(ev[0] > other[0] && other[0] > 0.5);
    pips_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paths),      cmocka_unit_test(test_turn_order),
        cmocka_unit_test(test_options),    cmocka_unit_test(test_chance),
        cmocka_unit_test(test_redo_a),     cmocka_unit_test(test_redo_b),
        cmocka_unit_test(test_evaluate_race), cmocka_unit_test(test_step_order), cmocka_unit_test(test_auto_pass),
        cmocka_unit_test(test_winning),    cmocka_unit_test(test_turn_cap),
        cmocka_unit_test(test_blocking),   cmocka_unit_test(test_stations),
        cmocka_unit_test(test_queens),     cmocka_unit_test(test_check_matches_list),
        cmocka_unit_test(test_illegal_reasons),
        cmocka_unit_test(test_bad_text),   cmocka_unit_test(test_render),
        cmocka_unit_test(test_agent_hooks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
