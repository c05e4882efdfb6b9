/*
 * test_nimitz.c — Nimitz under NIM-R1..R5: options, each ruling, the
 * rulebook's three examples, move and state text, winners for 2..6 players,
 * and the fast generator cross-checked against check_move (an independent
 * neighbour-by-neighbour implementation of the rules). Perft counts are
 * data: tests/perft/nimitz.txt.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pips/game.h"

#define MAX_OPTS 8

static pips_game *make_game(const char *opts)
{
    char buf[512];
    const char *kv[MAX_OPTS];
    size_t n = 0;
    snprintf(buf, sizeof buf, "%s", opts);
    for (char *tok = strtok(buf, " "); tok && n < MAX_OPTS; tok = strtok(NULL, " "))
        kv[n++] = tok;
    pips_error err;
    pips_game *g = pips_game_new("nimitz", kv, n, NULL, &err);
    if (!g)
        fail_msg("nimitz %s: %s", opts, err.msg);
    return g;
}

static void *load(const pips_game *g, const char *text)
{
    pips_error err;
    void *s = pips_state_new(g, &err);
    assert_non_null(s);
    if (!g->def->state_from_text(g, text, s, &err))
        fail_msg("state '%s' rejected: %s", text, err.msg);
    return s;
}

/* Is the move text legal in the position given by state text? */
static bool legal_in(const pips_game *g, const char *state_text, const char *move,
                     pips_error *err)
{
    void *s = load(g, state_text);
    pips_move m;
    bool ok = pips_parse_move(g, s, move, &m, err);
    pips_state_free(g, s);
    return ok;
}

static void expect_legal(const pips_game *g, const char *st, const char *move)
{
    pips_error err;
    if (!legal_in(g, st, move, &err))
        fail_msg("'%s' in '%s' should be legal: %s", move, st, err.msg);
}

static void expect_illegal(const pips_game *g, const char *st, const char *move,
                           const char *msg_part)
{
    pips_error err;
    if (legal_in(g, st, move, &err))
        fail_msg("'%s' in '%s' should be illegal", move, st);
    if (msg_part && !strstr(err.msg, msg_part))
        fail_msg("'%s' in '%s': message '%s' lacks '%s'", move, st, err.msg, msg_part);
}

static void expect_option_error(const char *opts, const char *msg_part)
{
    char buf[512];
    const char *kv[MAX_OPTS];
    size_t n = 0;
    snprintf(buf, sizeof buf, "%s", opts);
    for (char *tok = strtok(buf, " "); tok && n < MAX_OPTS; tok = strtok(NULL, " "))
        kv[n++] = tok;
    pips_error err;
    pips_game *g = pips_game_new("nimitz", kv, n, NULL, &err);
    if (g)
        fail_msg("options '%s' should be rejected", opts);
    if (!strstr(err.msg, msg_part))
        fail_msg("options '%s': message '%s' lacks '%s'", opts, err.msg, msg_part);
}

static void test_options(void **st)
{
    (void)st;
    pips_game *g = make_game("");
    assert_int_equal(pips_num_players(g), 2);
    assert_string_equal(g->def->title, "Nimitz");
    pips_game_free(g);
    g = make_game("board=volcano players=6 sets=4 colors=2 misere=true");
    assert_int_equal(pips_num_players(g), 6);
    pips_game_free(g);
    g = make_game("board=######/######/######");
    void *s = pips_state_new(g, NULL);
    g->def->initial(g, s);
    assert_int_equal(g->def->count_moves(g, s), 18 * 75);
    pips_state_free(g, s);
    pips_game_free(g);
    g = make_game("board=8x8");
    pips_game_free(g);
    expect_option_error("board=9x9", "limit is 64");
    expect_option_error("board=0x3", "RxC");
    expect_option_error("board=1x27", "a..z");
    expect_option_error("board=##/###", "row 2 has 3 cells");
    expect_option_error("board=#a#", "character 'a'");
    expect_option_error("board=.../...", "no cell");
    expect_option_error("board=hexagon", "coaster, volcano");
    expect_option_error("board=##//##", "row 2 is empty");
    expect_option_error("players=1", "'players'");
    expect_option_error("players=7", "2..6");
    expect_option_error("sets=0", "1..4");
    expect_option_error("sets=5", "1..4");
    expect_option_error("colors=1", "2..10");
    expect_option_error("colors=11", "2..10");
    expect_option_error("misere=maybe", "true or false");
    expect_option_error("tree_orientation=leaning", "shared or free");
    /* the rulings' colors=C: a Rainbow set's five, then a Xeno set's five */
    g = make_game("colors=10 tree_orientation=free");
    s = pips_state_new(g, NULL);
    g->def->initial(g, s);
    assert_int_equal(g->def->count_moves(g, s), 9 * 30 * 5);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* NIM-R1: any store piece, any cell, any of 5 orientations on an empty cell. */
static void test_r1_moves(void **st)
{
    (void)st;
    pips_game *g = make_game("");
    void *s = load(g, "-");
    assert_int_equal(g->def->count_moves(g, s), 675);
    pips_move moves[675];
    assert_int_equal(g->def->legal_moves(g, s, moves), 675);
    pips_state_free(g, s);
    expect_legal(g, "-", "rL@a1:U");
    expect_legal(g, "-", "bS@c3:W");
    expect_legal(g, "b2:N:rL", "oM@b2:N"); /* on top: level 2 */
    /* a piece taken from the store is gone (one set) */
    expect_illegal(g, "a1:U:rL", "rL@c3:E", "left in the store");
    pips_game_free(g);
    /* with two sets the second copy is available, once */
    g = make_game("sets=2");
    expect_legal(g, "a1:U:rL", "rL@c3:E");
    expect_illegal(g, "a1:U:rL c3:E:rL", "rL@b2:N", "left in the store");
    s = load(g, "-");
    assert_int_equal(g->def->count_moves(g, s), 675); /* copies give one move */
    pips_state_free(g, s);
    pips_game_free(g);
    g = make_game("colors=3");
    expect_illegal(g, "-", "gL@a1:U", "unknown colour 'g'");
    s = load(g, "-");
    assert_int_equal(g->def->count_moves(g, s), 9 * 9 * 5);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* NIM-R2: strictly smaller, other colour, 3 levels at most. */
static void test_r2_trees(void **st)
{
    (void)st;
    pips_game *g = make_game("sets=2");
    expect_illegal(g, "b2:N:rM", "oL@b2", "strictly smaller");  /* a nest */
    expect_illegal(g, "b2:N:rM", "oM@b2", "strictly smaller");  /* same size */
    expect_illegal(g, "b2:N:rL", "rM@b2", "same colour");
    expect_legal(g, "b2:N:rL", "oS@b2");                        /* L-S tree */
    expect_legal(g, "b2:N:rLoM", "rS@b2");                      /* colour may recur */
    expect_illegal(g, "b2:N:rLoMyS", "gS@b2", "3-level");
    pips_error err;
    void *s = pips_state_new(g, NULL);
    assert_false(g->def->state_from_text(g, "b2:N:rMoL", s, &err));
    assert_non_null(strstr(err.msg, "NIM-R2"));
    assert_false(g->def->state_from_text(g, "b2:N:rLrM", s, &err));
    pips_state_free(g, s);
    pips_game_free(g);
}

/* NIM-R3: a tree keeps the orientation of its base. */
static void test_r3_orientation(void **st)
{
    (void)st;
    pips_game *g = make_game("");
    expect_illegal(g, "b2:N:rL", "oM@b2:E", "NIM-R3");
    expect_illegal(g, "b2:N:rL", "oM@b2:U", "NIM-R3");
    expect_legal(g, "b2:N:rL", "oM@b2:N");
    /* orientation may be omitted on a stack, not on an empty cell */
    void *s = load(g, "b2:N:rL");
    pips_move a, b;
    pips_error err;
    assert_true(g->def->move_from_text(g, s, "oM@b2", &a, &err));
    assert_true(g->def->move_from_text(g, s, "oM@b2:N", &b, &err));
    assert_true(a == b);
    char buf[PIPS_MOVE_TEXT_MAX];
    g->def->move_to_text(g, s, a, buf);
    assert_string_equal(buf, "oM@b2:N");
    assert_false(g->def->move_from_text(g, s, "oM@a1", &a, &err));
    assert_non_null(strstr(err.msg, "needs an orientation"));
    /* the only moves onto b2 are pointing N */
    pips_move moves[675];
    size_t n = g->def->legal_moves(g, s, moves);
    size_t onto = 0;
    for (size_t i = 0; i < n; i++) {
        g->def->move_to_text(g, s, moves[i], buf);
        if (!strncmp(buf + 3, "b2", 2)) {
            assert_int_equal(buf[6], 'N');
            onto++;
        }
    }
    assert_int_equal(onto, 4 * 2); /* 4 other colours x sizes M, S */
    pips_state_free(g, s);
    pips_game_free(g);
    /* NIM-R3's variant, tree_orientation=free: a piece on a stack takes any
     * orientation, the one below included, and must name it; NIM-R4 then
     * compares the orientations of the pieces at its level. */
    g = make_game("tree_orientation=free");
    expect_legal(g, "b2:N:rL", "oM@b2:E");
    expect_legal(g, "b2:N:rL", "oM@b2:N");
    expect_legal(g, "b2:N:rL", "oM@b2:U");
    s = load(g, "b2:N:rL");
    assert_false(g->def->move_from_text(g, s, "oM@b2", &a, &err));
    assert_non_null(strstr(err.msg, "tree_orientation=free"));
    n = g->def->legal_moves(g, s, moves);
    onto = 0;
    for (size_t i = 0; i < n; i++) {
        g->def->move_to_text(g, s, moves[i], buf);
        onto += !strncmp(buf + 3, "b2", 2);
    }
    assert_int_equal(onto, 4 * 2 * 5); /* the same pieces, any orientation */
    pips_state_free(g, s);
    /* level 2 of b2 points E, so a level-2 neighbour may not point E, and
     * the N of b2's bottom no longer matters at level 2 */
    expect_illegal(g, "b1:S:gM b2:NE:rLoM", "yS@b1:E", "orientation");
    expect_legal(g, "b1:S:gM b2:NE:rLoM", "yS@b1:N");
    pips_game_free(g);
}

/* NIM-R4: neighbours at the new piece's level differ in colour, size and
 * orientation; other levels and diagonals do not matter. */
static void test_r4_neighbours(void **st)
{
    (void)st;
    pips_game *g = make_game("sets=2");
    expect_illegal(g, "b2:N:rL", "rM@b1:E", "colour");
    expect_illegal(g, "b2:N:rL", "oL@b1:E", "size");
    expect_illegal(g, "b2:N:rL", "oM@b1:N", "orientation");
    expect_legal(g, "b2:N:rL", "oM@b1:E");
    expect_legal(g, "b2:N:rL", "rL@a1:N"); /* diagonal: ignored */
    expect_legal(g, "b2:N:rL", "oM@b3:S");
    /* level 2 against level 2 only */
    expect_legal(g, "a2:E:gLrM b2:N:bM", "yS@b2"); /* differs from rM in all three */
    expect_illegal(g, "a2:E:gLrM b2:N:bM", "rS@b2", "colour");
    expect_illegal(g, "a2:E:gLoS b2:N:bM", "yS@b2", "size");
    /* an empty cell next to a tall tree only meets its level-1 piece */
    expect_legal(g, "a2:E:gLrM", "rS@b2:N");
    expect_illegal(g, "a2:E:gLrM", "gS@b2:N", "colour");
    /* state text that breaks NIM-R4 is refused */
    pips_error err;
    void *s = pips_state_new(g, NULL);
    assert_false(g->def->state_from_text(g, "a1:U:rL a2:N:rM", s, &err));
    assert_non_null(strstr(err.msg, "NIM-R4"));
    assert_false(g->def->state_from_text(g, "a1:U:rL a2:U:oM", s, &err));
    assert_true(g->def->state_from_text(g, "a1:U:rL c1:U:rL", s, &err));
    pips_state_free(g, s);
    pips_game_free(g);
}

/* The rulebook's three examples (NIM-R4 with NIM-R2/R3). */
static void test_rulebook_examples(void **st)
{
    (void)st;
    pips_game *g = make_game("");
    /* 1: red may go on blue even though red pieces stand in adjacent squares
     * (they are at level 1, the new red at level 2). */
    expect_legal(g, "a2:E:rM b2:N:bL", "rS@b2:N");
    /* 2: not if an adjacent square holds a tree with red at that level. */
    expect_illegal(g, "a2:E:gLrM b2:N:bM", "rS@b2:N", "colour");
    expect_legal(g, "a2:E:gLrM b2:N:bM", "yS@b2:N");
    /* 3: no 2-1 tree (small on medium) beside a 3-1 tree (small on large):
     * the two smalls would meet at level 2. */
    expect_illegal(g, "a2:E:gLrS b2:N:bM", "yS@b2:N", "size");
    expect_legal(g, "a2:E:gLrS c2:N:bM", "yS@c2:N"); /* not adjacent: fine */
    pips_game_free(g);
}

/* The seat that made placement number `placed` (1-based), by walking turns. */
static int seat_of_placement(int placed, int players)
{
    int seat = 0;
    for (int i = 1; i < placed; i++)
        seat = seat + 1 == players ? 0 : seat + 1;
    return seat;
}

/* NIM-R5: normal play rewards the last placer, misere the stuck player. */
static void test_r5_winners(void **st)
{
    (void)st;
    static const struct {
        const char *board, *sets, *text;
        int placed;
    } ends[] = {
        {"1x1", "1", "a1:U:rS", 1},
        {"1x1", "1", "a1:N:rLoS", 2},
        {"1x1", "1", "a1:U:rLoMrS", 3},
        {"1x2", "1", "a1:U:rLoMyS b1:N:oS", 4},
        {"1x2", "2", "a1:U:rLoMrS b1:N:oMrS", 5},
        {"1x3", "1", "a1:U:rLoMyS b1:N:oS c1:E:yLrS", 6},
    };
    for (size_t e = 0; e < sizeof ends / sizeof ends[0]; e++)
        for (int players = 2; players <= 6; players++)
            for (int misere = 0; misere <= 1; misere++) {
                char opts[128];
                snprintf(opts, sizeof opts, "board=%s sets=%s colors=3 players=%d misere=%s",
                         ends[e].board, ends[e].sets, players, misere ? "true" : "false");
                pips_game *g = make_game(opts);
                void *s = load(g, ends[e].text);
                assert_int_equal(g->def->to_move(g, s), PIPS_OVER);
                double ret[PIPS_MAX_PLAYERS];
                g->def->returns(g, s, ret);
                int last = seat_of_placement(ends[e].placed, players);
                int stuck = last + 1 == players ? 0 : last + 1;
                int want = misere ? stuck : last;
                for (int p = 0; p < players; p++)
                    if (ret[p] != (p == want ? 1.0 : 0.0))
                        fail_msg("%s '%s': seat %d returns %g, winner should be %d", opts,
                                 ends[e].text, p, ret[p], want);
                pips_str t;
                pips_str_init(&t, NULL);
                g->def->result_text(g, s, &t);
                char expect[32];
                snprintf(expect, sizeof expect, "player %d wins", want + 1);
                assert_non_null(strstr(pips_str_cstr(&t), expect));
                pips_str_free(&t);
                pips_state_free(g, s);
                pips_game_free(g);
            }
    /* and a game that is not over says so */
    pips_game *g = make_game("board=1x1");
    void *s = load(g, "a1:U:rL");
    assert_int_equal(g->def->to_move(g, s), 1);
    pips_state_free(g, s);
    pips_game_free(g);
}

static void test_text(void **st)
{
    (void)st;
    pips_game *g = make_game("board=volcano");
    void *s = load(g, "-");
    pips_error err;
    pips_move m;
    const char *bad[][2] = {
        {"qL@b2:N", "unknown colour 'q'"}, {"rX@b2:N", "size"},     {"rLb2:N", "'@'"},
        {"rL@f2:N", "not a cell"},         {"rL@b9:N", "not a cell"}, {"rL@b2:Q", "orientation"},
        {"rL@b2:N junk", "unexpected"},    {"rL@2:N", "cell"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (g->def->move_from_text(g, s, bad[i][0], &m, &err))
            fail_msg("move '%s' should not parse", bad[i][0]);
        if (!strstr(err.msg, bad[i][1]))
            fail_msg("move '%s': message '%s' lacks '%s'", bad[i][0], err.msg, bad[i][1]);
    }
    assert_true(g->def->move_from_text(g, s, " Rl@E5:w ", &m, &err));
    char buf[PIPS_MOVE_TEXT_MAX];
    g->def->move_to_text(g, s, m, buf);
    assert_string_equal(buf, "rL@e5:W");
    /* a refused move leaves the state untouched */
    void *before = malloc(g->def->state_size);
    assert_true(pips_play_text(g, s, "rL@c3:U", &err));
    memcpy(before, s, g->def->state_size);
    assert_false(pips_play_text(g, s, "rM@c3", &err));
    assert_false(pips_play_text(g, s, "oM@c4:U", &err));
    assert_memory_equal(before, s, g->def->state_size);
    free(before);
    /* state text: order-independent input, canonical output, errors */
    void *t = load(g, "e5:S:bLgS a1:U:rL");
    pips_str text;
    pips_str_init(&text, NULL);
    g->def->state_to_text(g, t, &text);
    assert_string_equal(pips_str_cstr(&text), "a1:U:rL e5:S:bLgS");
    const char *bad_states[][2] = {
        {"", "empty"},           {"a1:U:rL a1:N:oM", "twice"}, {"a1:X:rL", "O:PIECES"},
        {"a1:U:", "no pieces"},  {"a1:U:rLoMyS", NULL},        {"a1:U:rLoMySgS", "more than 3"},
        {"z1:U:rL", "not a cell"}, {"a1:U:qL", "not a piece"}, {"- a1:U:rL", "after '-'"},
    };
    for (size_t i = 0; i < sizeof bad_states / sizeof bad_states[0]; i++) {
        bool ok = g->def->state_from_text(g, bad_states[i][0], t, &err);
        if (!bad_states[i][1]) {
            assert_true(ok);
            continue;
        }
        if (ok)
            fail_msg("state '%s' should be refused", bad_states[i][0]);
        if (!strstr(err.msg, bad_states[i][1]))
            fail_msg("state '%s': message '%s' lacks '%s'", bad_states[i][0], err.msg,
                     bad_states[i][1]);
    }
    pips_state_free(g, t);
    pips_state_free(g, s);
    pips_game_free(g);
    /* colours 6-10 are the Xeno set's c p w k x, only with colors > 5 */
    g = make_game("colors=10");
    s = load(g, "-");
    const char *xeno[] = {"cL@a1:U", "pM@a1:U", "wS@a1:U", "kL@a1:U", "xM@a1:U"};
    for (size_t i = 0; i < 5; i++) {
        assert_true(g->def->move_from_text(g, s, xeno[i], &m, &err));
        g->def->move_to_text(g, s, m, buf);
        assert_string_equal(buf, xeno[i]);
    }
    t = load(g, "a1:U:xLkMcS b2:N:wM");
    pips_str_clear(&text);
    g->def->state_to_text(g, t, &text);
    assert_string_equal(pips_str_cstr(&text), "a1:U:xLkMcS b2:N:wM");
    pips_state_free(g, t);
    pips_state_free(g, s);
    pips_game_free(g);
    g = make_game("colors=6");
    s = load(g, "-");
    assert_true(g->def->move_from_text(g, s, "cL@a1:U", &m, &err));
    assert_false(g->def->move_from_text(g, s, "pL@a1:U", &m, &err));
    assert_non_null(strstr(err.msg, "roygbc"));
    pips_state_free(g, s);
    pips_game_free(g);
    /* per-level orientations in the state text: free trees only (NIM-R3) */
    g = make_game("tree_orientation=free");
    t = load(g, "b2:NEW:rLoMyS a1:U:gLbM");
    pips_str_clear(&text);
    g->def->state_to_text(g, t, &text);
    assert_string_equal(pips_str_cstr(&text), "a1:U:gLbM b2:NEW:rLoMyS");
    assert_false(g->def->state_from_text(g, "b2:NE:rLoMyS", t, &err));
    assert_non_null(strstr(err.msg, "2 orientations for more pieces"));
    assert_false(g->def->state_from_text(g, "b2:NE:rL", t, &err));
    assert_non_null(strstr(err.msg, "2 orientations and 1 piece(s)"));
    /* NIM-R4 per level: b2's level 2 and c2's level 2 both point E */
    assert_false(g->def->state_from_text(g, "b2:NE:rLoM c2:SE:gMbS", t, &err));
    assert_non_null(strstr(err.msg, "at level 2 (NIM-R4)"));
    assert_true(g->def->state_from_text(g, "b2:NE:rLoM c2:SW:gMbS", t, &err));
    pips_state_free(g, t);
    pips_game_free(g);
    pips_str_free(&text);
    /* more pieces than the sets hold; several orientations in a shared tree */
    g = make_game("");
    s = pips_state_new(g, NULL);
    assert_false(g->def->state_from_text(g, "a1:U:rL c1:U:rL", s, &err));
    assert_non_null(strstr(err.msg, "set(s) hold"));
    assert_false(g->def->state_from_text(g, "b2:NE:rLoM", s, &err));
    assert_non_null(strstr(err.msg, "NIM-R3"));
    pips_state_free(g, s);
    pips_game_free(g);
}

static void test_render(void **st)
{
    (void)st;
    pips_game *g = make_game("board=volcano");
    void *s = load(g, "a1:U:rLoMyS c3:N:gLbMrS e5:W:bLyM b4:E:oS");
    pips_render_opts ro = {false, false};
    pips_str out;
    pips_str_init(&out, NULL);
    g->def->render(g, s, &ro, &out);
    const char *t = pips_str_cstr(&out);
    for (const char *p = t; *p; p++)
        assert_true((unsigned char)*p < 128 && *p != '\033');
    assert_non_null(strstr(t, "o rL oM yS"));
    assert_non_null(strstr(t, "^ gL bM rS"));
    assert_non_null(strstr(t, "< bL yM"));
    assert_non_null(strstr(t, "> oS"));
    assert_true(t[strlen(t) - 1] == '\n');
    pips_str_clear(&out);
    ro.unicode = ro.colour = true;
    g->def->render(g, s, &ro, &out);
    t = pips_str_cstr(&out);
    assert_non_null(strstr(t, "\u2191"));
    assert_non_null(strstr(t, "\u2190"));
    assert_non_null(strstr(t, "\033[1;31mrS\033[0m"));
    pips_str_free(&out);
    pips_state_free(g, s);
    pips_game_free(g);
    /* holes of a layout are drawn */
    g = make_game("board=#.#/###");
    s = load(g, "-");
    pips_str_init(&out, NULL);
    ro.unicode = ro.colour = false;
    g->def->render(g, s, &ro, &out);
    assert_non_null(strstr(pips_str_cstr(&out), "########"));
    pips_str_free(&out);
    pips_state_free(g, s);
    pips_game_free(g);
    /* free trees: a sign before each piece; Xeno colours in the store */
    g = make_game("colors=7 tree_orientation=free");
    s = load(g, "a1:U:cLpMrS b2:NE:yLoM");
    pips_str_init(&out, NULL);
    g->def->render(g, s, &ro, &out);
    t = pips_str_cstr(&out);
    assert_non_null(strstr(t, "| ocL opM orS|"));
    assert_non_null(strstr(t, "| ^yL >oM    |"));
    assert_non_null(strstr(t, "p L1 M0 S1"));
    pips_str_clear(&out);
    ro.colour = true;
    g->def->render(g, s, &ro, &out);
    assert_non_null(strstr(pips_str_cstr(&out), "\033[1;35mpM\033[0m"));
    pips_str_free(&out);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* An independent perft: every encodable move filtered by check_move. */
static uint64_t slow_perft(const pips_game *g, void *s, int depth)
{
    if (depth == 0)
        return 1;
    if (g->def->to_move(g, s) == PIPS_OVER)
        return 0;
    uint64_t total = 0;
    size_t cells = pips_max_moves(g); /* cells * colours * 3 * 5 */
    (void)cells;
    for (pips_move m = 0; m < (1u << 14); m++) {
        if (!g->def->check_move(g, s, m, NULL))
            continue;
        if (depth == 1) {
            total++;
            continue;
        }
        g->def->apply(g, s, m);
        total += slow_perft(g, s, depth - 1);
        g->def->undo(g, s, m);
    }
    return total;
}

/* Perft counts are data: tests/perft/nimitz.txt (test_perft.c). */

/* The fast generator agrees with check_move, move by move, at depth 2 and
 * on random positions of several variants. */
static void test_generator_matches_check(void **st)
{
    (void)st;
    const char *variants[] = {"",
                              "board=volcano players=3",
                              "board=##./###/.## sets=2",
                              "sets=2 colors=3",
                              "board=1x4 colors=2 sets=3 players=5",
                              "board=#.#/###/#.# colors=4 misere=true",
                              "colors=10 sets=2",
                              "tree_orientation=free",
                              "board=2x3 colors=7 tree_orientation=free"};
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        pips_game *g = make_game(variants[v]);
        size_t cap = pips_max_moves(g);
        pips_move *moves = calloc(cap, sizeof *moves);
        void *s = pips_state_new(g, NULL);
        g->def->initial(g, s);
        if (v != 1) {
            uint64_t fast = pips_perft(g, s, 2), slow = slow_perft(g, s, 2);
            if (fast != slow)
                fail_msg("'%s': perft(2) %llu but check_move counts %llu", variants[v],
                         (unsigned long long)fast, (unsigned long long)slow);
        }
        for (uint64_t seed = 0; seed < 60; seed++) {
            pips_rng rng;
            pips_rng_seed(&rng, seed * 7 + v);
            g->def->initial(g, s);
            while (g->def->to_move(g, s) != PIPS_OVER) {
                size_t n = g->def->legal_moves(g, s, moves);
                assert_int_equal(n, g->def->count_moves(g, s));
                size_t legal = 0;
                for (pips_move m = 0; m < (1u << 14); m++)
                    legal += g->def->check_move(g, s, m, NULL);
                if (legal != n)
                    fail_msg("'%s' seed %llu: generator %zu moves, check_move %zu", variants[v],
                             (unsigned long long)seed, n, legal);
                for (size_t i = 0; i < n; i++)
                    assert_true(g->def->check_move(g, s, moves[i], NULL));
                g->def->apply(g, s, moves[pips_rng_below(&rng, n)]);
            }
            assert_int_equal(g->def->count_moves(g, s), 0);
            /* really stuck: nothing passes check_move either */
            for (pips_move m = 0; m < (1u << 14); m++)
                assert_false(g->def->check_move(g, s, m, NULL));
        }
        pips_state_free(g, s);
        free(moves);
        pips_game_free(g);
    }
}

/* The invariants of test_invariants on non-default options. */
static void test_variant_invariants(void **st)
{
    (void)st;
    const char *variants[] = {"board=volcano players=4 sets=2", "board=######/######/######",
                              "board=1x5 colors=2 players=3 misere=true", "sets=4 colors=3",
                              "colors=10 tree_orientation=free", "board=volcano colors=8"};
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        pips_game *g = make_game(variants[v]);
        size_t ss = g->def->state_size, cap = pips_max_moves(g);
        unsigned char *s = calloc(1, ss), *t = calloc(1, ss), *u = calloc(1, ss);
        pips_move *moves = calloc(cap, sizeof *moves);
        pips_str text;
        pips_str_init(&text, NULL);
        for (uint64_t seed = 0; seed < 100; seed++) {
            pips_rng rng;
            pips_rng_seed(&rng, seed);
            g->def->initial(g, s);
            for (;;) {
                pips_str_clear(&text);
                g->def->state_to_text(g, s, &text);
                pips_error err;
                memset(t, 0x5A, ss);
                if (!g->def->state_from_text(g, pips_str_cstr(&text), t, &err))
                    fail_msg("%s: '%s': %s", variants[v], pips_str_cstr(&text), err.msg);
                assert_memory_equal(s, t, ss);
                assert_true(g->def->hash(g, s) == g->def->hash(g, t));
                if (g->def->to_move(g, s) == PIPS_OVER)
                    break;
                size_t n = g->def->legal_moves(g, s, moves);
                for (size_t i = 0; i < n; i++) {
                    char buf[PIPS_MOVE_TEXT_MAX];
                    pips_move back;
                    g->def->move_to_text(g, s, moves[i], buf);
                    assert_true(g->def->move_from_text(g, s, buf, &back, &err));
                    assert_true(back == moves[i]);
                }
                pips_move m = moves[pips_rng_below(&rng, n)];
                memcpy(u, s, ss);
                g->def->apply(g, s, m);
                assert_true(g->def->hash(g, s) != g->def->hash(g, u));
                memcpy(t, s, ss);
                g->def->undo(g, t, m);
                assert_memory_equal(t, u, ss);
            }
        }
        pips_str_free(&text);
        free(s);
        free(t);
        free(u);
        free(moves);
        pips_game_free(g);
    }
}

/* A move's text under a symmetry of the coaster the rulings allow: the
 * files mirrored (a <-> c), colours and orientations renamed. */
static void mirror_move_text(const char *in, char *out)
{
    static const char colours[] = "roygb", colour_to[] = "gbryo";
    static const char orients[] = "UNESW", orient_to[] = "SWUNE";
    strcpy(out, in); /* e.g. bM@a2:W */
    out[0] = colour_to[strchr(colours, in[0]) - colours];
    out[3] = in[3] == 'a' ? 'c' : in[3] == 'c' ? 'a' : 'b';
    out[6] = orient_to[strchr(orients, in[6]) - orients];
}

/* The canonical form (rules/nimitz.md, "Symmetries"): a position and its
 * image under a board symmetry with colours and orientations renamed have
 * the same canonical form, which is a position of the same seat to move
 * with as many placements; the coaster's 675 first placements fall into 9
 * forms (large, medium or small on a corner, an edge or the centre); with
 * tree_orientation=free the form is the position itself. */
static void test_canonical(void **st)
{
    (void)st;
    pips_game *g = make_game("players=4");
    assert_non_null(g->def->canonical);
    size_t ss = g->def->state_size, cap = pips_max_moves(g);
    unsigned char *s = calloc(1, ss), *v = calloc(1, ss), *cs = calloc(1, ss),
                  *cv = calloc(1, ss), *cc = calloc(1, ss);
    pips_move *moves = calloc(cap, sizeof *moves), *vmoves = calloc(cap, sizeof *vmoves);
    g->def->initial(g, s);
    size_t n = g->def->legal_moves(g, s, moves);
    assert_int_equal(n, 675);
    uint64_t forms[675];
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++) {
        memcpy(v, s, ss);
        g->def->apply(g, v, moves[i]);
        g->def->canonical(g, v, cv);
        uint64_t h = g->def->hash(g, cv);
        size_t j = 0;
        while (j < distinct && forms[j] != h)
            j++;
        if (j == distinct)
            forms[distinct++] = h;
    }
    assert_int_equal(distinct, 9);
    for (uint64_t seed = 0; seed < 60; seed++) {
        pips_rng rng;
        pips_rng_seed(&rng, seed);
        g->def->initial(g, s);
        g->def->initial(g, v);
        for (;;) {
            g->def->canonical(g, s, cs);
            g->def->canonical(g, v, cv);
            assert_memory_equal(cs, cv, ss);
            g->def->canonical(g, cs, cc);
            assert_memory_equal(cc, cs, ss);
            assert_int_equal(g->def->to_move(g, cs), g->def->to_move(g, s));
            assert_int_equal(g->def->legal_moves(g, cs, vmoves), g->def->legal_moves(g, s, moves));
            if (g->def->to_move(g, s) == PIPS_OVER)
                break;
            n = g->def->legal_moves(g, s, moves);
            pips_move m = moves[pips_rng_below(&rng, n)], vm;
            char text[PIPS_MOVE_TEXT_MAX], mapped[PIPS_MOVE_TEXT_MAX];
            g->def->move_to_text(g, s, m, text);
            mirror_move_text(text, mapped);
            pips_error err;
            if (!pips_parse_move(g, v, mapped, &vm, &err)) /* the image of a legal move is legal */
                fail_msg("seed %llu: %s (image of %s): %s", (unsigned long long)seed, mapped, text,
                         err.msg);
            g->def->apply(g, s, m);
            g->def->apply(g, v, vm);
        }
    }
    pips_game *f = make_game("tree_orientation=free");
    g->def->initial(f, s);
    n = f->def->legal_moves(f, s, moves);
    f->def->apply(f, s, moves[n / 2]);
    f->def->canonical(f, s, cs);
    assert_memory_equal(cs, s, ss);
    pips_game_free(f);
    free(s);
    free(v);
    free(cs);
    free(cv);
    free(cc);
    free(moves);
    free(vmoves);
    pips_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_r1_moves),
        cmocka_unit_test(test_r2_trees),
        cmocka_unit_test(test_r3_orientation),
        cmocka_unit_test(test_r4_neighbours),
        cmocka_unit_test(test_rulebook_examples),
        cmocka_unit_test(test_r5_winners),
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_render),
        cmocka_unit_test(test_generator_matches_check),
        cmocka_unit_test(test_variant_invariants),
        cmocka_unit_test(test_canonical),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
