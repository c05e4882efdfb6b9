/*
 * test_ziggurat_scenarios.c — the 25 test scenarios of section 11 of
 * the rulings (docs/games/ziggurat.md), each as a position in state text with the exact
 * expected legal tokens (compared as sorted sets, ZIG-R31) and effects.
 */
#include "zig_helpers.h"

#define HDR(mover, mv, act) "mover=" mover " phase=step move=" mv " action=" act " flags=MA turns=0 result=- | "

static pips_game *G4;

static int setup(void **st)
{
    (void)st;
    G4 = zig_game(NULL, 0);
    return 0;
}

static int teardown(void **st)
{
    (void)st;
    pips_game_free(G4);
    return 0;
}

/* 1. ZIG-R4: leaving the Start passes the entry corner and a singleton. */
static void scenario_01(void **st)
{
    (void)st;
    void *s = zig_pos(G4, HDR("Y", "3", "T") "a9:Y a7:R");
    assert_tokens(G4, s, "M", "Ma9-a6");
    free(s);
}

/* 2. ZIG-R5: halted in front of a stack; ending on a singleton stacks. */
static void scenario_02(void **st)
{
    (void)st;
    void *s = zig_pos(G4, HDR("B", "8", "T") "@1:B,B e1:Y f1:R,B");
    assert_true(zig_has_token(G4, s, "M@1-e1")); /* Blue's f1 piece may move too */
    assert_tokens(G4, s, "M@1", "M@1-e1");
    zig_play(G4, s, "M@1-e1");
    assert_piles(G4, s, "e1:Y,B f1:R,B @1:B");
    free(s);
    s = zig_pos(G4, HDR("Y", "8", "T") "@1:B,B e1:Y f1:R,B");
    assert_tokens(G4, s, "M", "");
    free(s);
}

/* 3. ZIG-R2: a wall halts a move; a buried piece cannot move. */
static void scenario_03(void **st)
{
    (void)st;
    void *s = zig_pos(G4, HDR("R", "4", "T") "h0:R c3:R f1:R,B");
    assert_tokens(G4, s, "M", "Mc3-e3 Mh0-h4");
    free(s);
}

/* 4. ZIG-R2: from the level-3 wall onto the Goal, one point used. */
static void scenario_04(void **st)
{
    (void)st;
    void *s = zig_pos(G4, HDR("G", "7", "T") "f5:G");
    assert_tokens(G4, s, "M", "Mf5-e5");
    zig_play(G4, s, "Mf5-e5");
    assert_piles(G4, s, "e5:G");
    free(s);
}

/* 5. ZIG-R8: Aim passes corners and walls; plain halts on the corner. */
static void scenario_05(void **st)
{
    (void)st;
    void *s = zig_pos(G4, HDR("Y", "1", "A") "c7:Y");
    assert_tokens(G4, s, "A", "Ac7-c5");
    assert_tokens(G4, s, "M", "Mc7-c6");
    free(s);
}

/* 6. ZIG-R8: an Aim round three corners onto the Goal, points unused. */
static void scenario_06(void **st)
{
    (void)st;
    void *s = zig_pos(G4, HDR("B", "8", "A") "f5:B");
    assert_tokens(G4, s, "A", "Af5-d4");
    free(s);
}

/* 7. ZIG-R9: Hop over runs, each run plus landing one point; ends on a corner stack. */
static void scenario_07(void **st)
{
    (void)st;
    void *s = zig_pos(G4, HDR("R", "6", "H") "h0:R h1:G,Y h3:B h4:Y,G h5:B h8:G,B");
    assert_tokens(G4, s, "H", "Hh0-h8");
    zig_play(G4, s, "Hh0-h8");
    assert_piles(G4, s, "h1:G,Y h3:B h4:Y,G h5:B h8:G,B,R");
    free(s);
}

/* 8. ZIG-R9, R4: Hop off the Start over the stack on the entry corner. */
static void scenario_08(void **st)
{
    (void)st;
    void *s = zig_pos(G4, HDR("G", "2", "H") "i8:G h8:G,B,R");
    assert_tokens(G4, s, "H", "Hi8-e8");
    free(s);
}

/* 9. ZIG-R10, R6: Leaps, and a Leap needs an empty Goal. (With d5 added Yellow
 * has four Drones; the state text accepts such test positions.) */
static void scenario_09(void **st)
{
    (void)st;
    void *s = zig_pos(G4, HDR("Y", "1", "L") "a9:Y a3:Y d6:Y");
    assert_tokens(G4, s, "L", "La3-a1 La9-a4 Ld6-d5");
    free(s);
    s = zig_pos(G4, HDR("Y", "1", "L") "a9:Y a3:Y d6:Y d5:Y");
    assert_tokens(G4, s, "L", "La3-a1 La9-a4");
    free(s);
}

/* 10. ZIG-R11: Dig to adjacent squares not higher. */
static void scenario_10(void **st)
{
    (void)st;
    void *s = zig_pos(G4, HDR("Y", "1", "D") "b6:Y");
    assert_tokens(G4, s, "D", "Db6-a5 Db6-a6 Db6-a7 Db6-b5 Db6-b7 Db6-c7");
    free(s);
}

/* 11. ZIG-R11, R2: Dig b2-b3 onto Blue's wall, then a 6 stops on corner c3. */
static void scenario_11(void **st)
{
    (void)st;
    void *s = zig_pos(G4, HDR("B", "6", "D") "b2:B");
    assert_true(zig_has_token(G4, s, "Db2-b3"));
    zig_play(G4, s, "Db2-b3");
    assert_tokens(G4, s, "M", "Mb3-c3");
    free(s);
}

/* 12. ZIG-R11: a bottom piece digs out; the pile above drops. */
static void scenario_12(void **st)
{
    (void)st;
    void *s = zig_pos(G4, HDR("R", "1", "D") "h5:R,G");
    assert_tokens(G4, s, "D", "Dh5-h4 Dh5-h6");
    zig_play(G4, s, "Dh5-h6");
    assert_piles(G4, s, "h5:G h6:R");
    free(s);
}

/* 13. ZIG-R5: a stack on the next corner blocks; Dig cuts the corner. */
static void scenario_13(void **st)
{
    (void)st;
    void *s = zig_pos(G4, HDR("G", "8", "D") "f2:G g2:Y,B");
    assert_tokens(G4, s, "M", "");
    assert_true(zig_has_token(G4, s, "Df2-g3"));
    free(s);
}

/* 14. ZIG-R12 Swap (A) across levels. */
static void scenario_14(void **st)
{
    (void)st;
    void *s = zig_pos(G4, HDR("B", "1", "S") "e1:B d2:G");
    assert_tokens(G4, s, "S", "Se1-d2");
    zig_play(G4, s, "Se1-d2");
    assert_piles(G4, s, "e1:G d2:B");
    free(s);
}

/* 15. ZIG-R12 Swap (A) with either neighbour; p named before q. */
static void scenario_15(void **st)
{
    (void)st;
    void *s = zig_pos(G4, HDR("R", "1", "S") "g2:R f2:B g7:R g6:G");
    assert_tokens(G4, s, "S", "Sf2-g2 Sg6-g7");
    free(s);
}

/* 16. ZIG-R12 Swap (B) within a stack. */
static void scenario_16(void **st)
{
    (void)st;
    void *s = zig_pos(G4, HDR("G", "1", "S") "d8:G,Y,B");
    assert_tokens(G4, s, "S", "Sd8:1-2 Sd8:1-3");
    zig_play(G4, s, "Sd8:1-3");
    assert_piles(G4, s, "d8:B,Y,G");
    free(s);
}

/* 17. ZIG-R17: the Goal's top piece Tips a neighbour away. */
static void scenario_17(void **st)
{
    (void)st;
    void *s = zig_pos(G4, HDR("G", "1", "T") "e5:G d6:Y");
    assert_true(zig_has_token(G4, s, "Td6NW"));
    zig_play(G4, s, "Td6NW");
    assert_piles(G4, s, "e5:G c7:Y");
    free(s);
}

/* 18. ZIG-R13 (B): a stack Tips in every not-uphill direction. */
static void scenario_18(void **st)
{
    (void)st;
    void *s = zig_pos(G4, HDR("Y", "1", "T") "e2:Y,B f2:R");
    assert_tokens(G4, s, "Te2", "Te2E Te2S Te2SE Te2SW Te2W");
    zig_play(G4, s, "Te2E");
    assert_piles(G4, s, "f2:R,Y g2:B");
    free(s);
}

/* 19. ZIG-R16: the Start Tips forward; a wall singleton cannot Tip uphill. */
static void scenario_19(void **st)
{
    (void)st;
    void *s = zig_pos(G4, HDR("B", "1", "T") "@1:B,B b3:B");
    assert_true(zig_has_token(G4, s, "T@1E"));
    assert_tokens(G4, s, "Tb3", "");
    zig_play(G4, s, "T@1E");
    assert_piles(G4, s, "a1:B b1:B b3:B");
    free(s);
}

/* 20. ZIG-R13, R14: uphill is judged at the first landing square; off board goes home. */
static void scenario_20(void **st)
{
    (void)st;
    void *s = zig_pos(G4, HDR("R", "1", "T") "h5:R g6:Y,G,G");
    assert_true(zig_has_token(G4, s, "Tg6NW"));
    assert_true(zig_has_token(G4, s, "Th5N"));
    zig_play(G4, s, "Tg6NW");
    assert_piles(G4, s, "h5:R f7:Y e8:G i8:G");
    free(s);
}

/* 21. Full list with Wild (ZIG-R21), a stack on the next entry corner (ZIG-R5). */
static void scenario_21(void **st)
{
    (void)st;
    void *s = zig_pos(G4, HDR("R", "5", "W") "g1:R g2:Y,G");
    assert_tokens(G4, s, "",
                  "Dg1-f1 Dg1-h1 Dg1-h2 Hg1-g2 RA RB Sg1-g2 Tg2N end");
    free(s);
}

/* 22. Full list with Wild in a crowded position. */
static void scenario_22(void **st)
{
    (void)st;
    void *s = zig_pos(G4, HDR("R", "4", "W")
                      "h0:R f1:R,B c3:R e1:Y d2:G e2:Y,B g2:G,Y h2:G");
    assert_tokens(G4, s, "",
                  "Ac3-e4 Ah0-h5 Dc3-b2 Dc3-b3 Dc3-b4 Dc3-c2 Dc3-c4 Dc3-d2 Dc3-d3 Df1-e1 "
                  "Df1-g1 Hc3-e3 Hh0-h6 Lc3-e3 Lh0-h1 Mc3-e3 Mh0-h4 RA RB Sd2-c3 Sf1:1-2 "
                  "Tc3E Td2SE Tf1E Tf1S Tf1SE Tf1SW Tf1W Th0N end");
    free(s);
}

/* 23. ZIG-R20: Redo B; a rerolled Redo is blank, a rerolled Wild is not Redo. */
static void scenario_23(void **st)
{
    (void)st;
    void *s = zig_pos(G4, HDR("R", "3", "R") "h0:R,R,R");
    assert_tokens(G4, s, "", "Mh0-h3 RA RB end");
    void *t = malloc(G4->def->state_size);
    memcpy(t, s, G4->def->state_size);
    zig_play(G4, t, "RB");
    assert_int_equal(pips_to_move(G4, t), PIPS_CHANCE);
    assert_tokens(G4, t, "", "RB:A RB:D RB:H RB:L RB:R RB:S RB:T RB:W");
    zig_play(G4, t, "RB:R");
    assert_tokens(G4, t, "", "Mh0-h3 end");
    memcpy(t, s, G4->def->state_size);
    zig_play(G4, t, "RB");
    zig_play(G4, t, "RB:W");
    assert_tokens(G4, t, "", "Ah0-h4 Hh0-h4 Lh0-h8 Mh0-h3 Th0N end");
    free(t);
    free(s);
}

/* 24. ZIG-R15, R26: a finished team colour may only Tip from its Goal. */
static void scenario_24(void **st)
{
    (void)st;
    const char *opts[] = {"mode=teams"};
    pips_game *g = zig_game(opts, 1);
    for (char mv = '1'; mv <= '8'; mv++) {
        char text[256];
        snprintf(text, sizeof text,
                 "mover=G phase=step move=%c action=T flags=MA turns=0 result=- | "
                 "e5:G,G,G d6:Y e6:Y,Y f4:B d5:Y", mv);
        void *s = zig_pos(g, text);
        assert_tokens(g, s, "", "Td6NW Te6N Tf4SE end");
        free(s);
    }
    pips_game_free(g);
}

/* 25. ZIG-R27, R28: the Queen pays two points a step and carries the pile. */
static void scenario_25(void **st)
{
    (void)st;
    const char *opts[] = {"queen=true"};
    pips_game *g = zig_game(opts, 1);
    void *s = zig_pos(g, HDR("R", "1", "A") "h0:RQ,R,R,R");
    assert_tokens(g, s, "", "Ah0-h2 Mh0-h1 QAh0-h1 end");
    free(s);
    s = zig_pos(g, HDR("R", "5", "S") "h0:RQ,R,R,R");
    assert_tokens(g, s, "", "Mh0-h5 QMh0-h2 Sh0:1-2 Sh0:1-3 Sh0:1-4 end");
    zig_play(g, s, "QMh0-h2");
    assert_piles(g, s, "h2:RQ,R,R,R");
    free(s);
    pips_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scenario_01), cmocka_unit_test(scenario_02),
        cmocka_unit_test(scenario_03), cmocka_unit_test(scenario_04),
        cmocka_unit_test(scenario_05), cmocka_unit_test(scenario_06),
        cmocka_unit_test(scenario_07), cmocka_unit_test(scenario_08),
        cmocka_unit_test(scenario_09), cmocka_unit_test(scenario_10),
        cmocka_unit_test(scenario_11), cmocka_unit_test(scenario_12),
        cmocka_unit_test(scenario_13), cmocka_unit_test(scenario_14),
        cmocka_unit_test(scenario_15), cmocka_unit_test(scenario_16),
        cmocka_unit_test(scenario_17), cmocka_unit_test(scenario_18),
        cmocka_unit_test(scenario_19), cmocka_unit_test(scenario_20),
        cmocka_unit_test(scenario_21), cmocka_unit_test(scenario_22),
        cmocka_unit_test(scenario_23), cmocka_unit_test(scenario_24),
        cmocka_unit_test(scenario_25),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
