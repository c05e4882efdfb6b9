/*
 * test_noname_cand.c — the Noname candidate generator lists the tactically
 * relevant placements when a position has them: a capture (NON-R6, E2), a
 * block in front of an enemy attacker that threatens a free piece, and an
 * upright prisoner in its own colour's ray (NON-R14: both then score
 * negative). Each position also holds eight medium and large blue defenders
 * that no single attacker can take (E2), so a sample that aimed at random pieces
 * would often miss the one that matters; every check runs over 20 seeds with
 * the smallest list the option allows besides the default. Also: the order
 * hook ranks a capture above a quiet move.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "noname_helpers.h"

/* Eight medium and large blue defenders around the centre (none of them
 * falls to a single attacker, E2). */
#define RING                                                                                  \
    "#1 bL@100.0,100.0/U #2 bM@300.0,100.0/U #3 bL@500.0,100.0/U #4 bM@100.0,500.0/U "        \
    "#5 bL@300.0,500.0/U #6 bM@500.0,500.0/U #7 bL@500.0,300.0/U #8 bM@100.0,200.0/U "

#define N_SEEDS 20

typedef bool (*cand_test)(const pips_game *g, const void *s, pips_move m, const void *arg);

/* Fails unless, for every seed, some candidate passes want(). */
static void expect_in_every_list(const pips_game *g, const void *s, cand_test want,
                                 const void *arg, const char *what)
{
    pips_move moves[256];
    for (uint64_t seed = 1; seed <= N_SEEDS; seed++) {
        pips_rng rng;
        pips_rng_seed(&rng, seed);
        size_t n = g->def->candidates(g, s, &rng, moves);
        assert_true(n > 0 && n <= pips_max_moves(g));
        bool found = false;
        for (size_t i = 0; i < n && !found; i++)
            found = want(g, s, moves[i], arg);
        if (!found)
            fail_msg("seed %llu: no %s among %zu candidates", (unsigned long long)seed, what, n);
    }
}

static bool captures_id(const pips_game *g, const void *s, pips_move m, const void *arg)
{
    noname_preview pv;
    pips_error err;
    assert_true(noname_preview_move(g, s, m, &pv, &err));
    return pv.captured_id == *(const unsigned *)arg;
}

/* The placement draws attacker #arg away from its target. */
static bool redirects_id(const pips_game *g, const void *s, pips_move m, const void *arg)
{
    noname_preview pv;
    pips_error err;
    assert_true(noname_preview_move(g, s, m, &pv, &err));
    for (size_t i = 0; i < pv.n_redirected; i++)
        if (pv.redirected[i] == *(const unsigned *)arg)
            return true;
    return false;
}

/* An upright blue piece that attacker #arg then points at. */
static bool blue_upright_in_ray(const pips_game *g, const void *s, pips_move m, const void *arg)
{
    char text[PIPS_MOVE_TEXT_MAX];
    g->def->move_to_text(g, s, m, text);
    bool blue_upright = text[0] == 'b' && strchr(text, '/');
    return blue_upright && redirects_id(g, s, m, arg);
}

static const char *const SMALL_LIST[] = {"candidates=8"};

/* The check at candidates=8 and at the default, from the position text. */
static void check_listed(const char *pos, cand_test want, unsigned id, const char *what)
{
    for (int small = 0; small < 2; small++) {
        pips_game *g = small ? nt_game(SMALL_LIST, 1) : nt_game(NULL, 0);
        void *s = nt_load(g, pos);
        expect_in_every_list(g, s, want, &id, what);
        pips_state_free(g, s);
        pips_game_free(g);
    }
}

/* A lone blue small in the middle: any red attacker laid at it takes it. */
static void test_capture_of_a_small_is_listed(void **st)
{
    (void)st;
    check_listed("seats r,b turn 10 to r passes 0 pads r:rS5,rM5,rL5 b:bS4 "
                 "table " RING "#9 bS@300.0,300.0/U",
                 captures_id, 9, "capture of #9");
}

/* E2: a blue large with one red large already aimed at it falls to a second
 * red attacker of any size (NON-T5). */
static void test_second_attacker_capture_is_listed(void **st)
{
    (void)st;
    check_listed("seats r,b turn 11 to r passes 0 pads r:rS5,rM5,rL4 b:bS5 "
                 "table " RING "#9 bL@300.0,300.0/U #10 rL@250.0,300.0>0.0",
                 captures_id, 9, "capture of #9");
}

/* A free red large (blue 2 < 3) with one blue medium aimed at it: a second
 * blue attacker of any size would capture it (2 + 1 >= 3, two attackers: E2
 * met), so a block across #10's ray must be listed. */
static void test_defence_of_a_threatened_piece_is_listed(void **st)
{
    (void)st;
    check_listed("seats r,b turn 11 to r passes 0 pads r:rS5,rM5,rL4,bS1 b:bS4 "
                 "table " RING "#9 rL@300.0,300.0/U #10 bM@200.0,300.0>0.0",
                 redirects_id, 10, "block of #10");
}

/* Red holds one blue large, which must stand (NON §7): standing it in the
 * blue attacker's empty ray makes both blue pieces score negative (NON-T9). */
static void test_prisoner_spot_in_own_colour_ray_is_listed(void **st)
{
    (void)st;
    check_listed("seats r,b turn 10 to r passes 0 pads r:rS5,bL1 b:bS5 "
                 "table " RING "#9 bM@150.0,400.0>0.0",
                 blue_upright_in_ray, 9, "prisoner in #9's ray");
}

/* The order hook puts the capture of the small ahead of a quiet defender. */
static void test_order_ranks_capture_first(void **st)
{
    (void)st;
    pips_game *g = nt_game(NULL, 0);
    void *s = nt_load(g, "seats r,b turn 10 to r passes 0 pads r:rS5,rM5,rL5 b:bS4 "
                         "table " RING "#9 bS@300.0,300.0/U");
    pips_move moves[2];
    pips_error err;
    assert_true(pips_parse_move(g, s, "rS@200.0,300.0>0.0", &moves[0], &err)); /* captures #9 */
    assert_true(pips_parse_move(g, s, "rS@400.0,400.0/U", &moves[1], &err));
    int scores[2];
    g->def->order_moves(g, s, moves, 2, scores);
    assert_true(scores[0] > scores[1]);
    pips_state_free(g, s);
    pips_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capture_of_a_small_is_listed),
        cmocka_unit_test(test_second_attacker_capture_is_listed),
        cmocka_unit_test(test_defence_of_a_threatened_piece_is_listed),
        cmocka_unit_test(test_prisoner_spot_in_own_colour_ray_is_listed),
        cmocka_unit_test(test_order_ranks_capture_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
