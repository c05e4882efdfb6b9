/*
 * test_invariants.c — the generic random-game invariant test that every game
 * in the table joins automatically. For PIPS_INVARIANT_GAMES seeded random
 * games per game (default 1000) it checks at every step: the state text
 * round-trips to a byte-equal state with the same hash; every legal move's
 * text round-trips; no legal move is listed twice; apply then undo (when the
 * game has undo) restores the state; chance probabilities sum to 1; and the
 * returns at the end are valid. Besides each game's defaults it checks the
 * rule variants listed in VARIANTS (a quarter as many games each), so a new
 * option value joins the harness by a line there.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pips/game.h"

static long games_per_game(void)
{
    const char *env = getenv("PIPS_INVARIANT_GAMES");
    long n = 1000;
    if (env && !pips_parse_int(env, 1, 10000000, &n))
        n = 1000;
    return n;
}

static int cmp_move(const void *a, const void *b)
{
    pips_move x = *(const pips_move *)a, y = *(const pips_move *)b;
    return x < y ? -1 : x > y;
}

static void check_game(const pips_game_def *def, const char *const *opts, size_t nopts,
                       long n_games)
{
    pips_error err;
    pips_game *g = pips_game_new(def->name, opts, nopts, NULL, &err);
    if (!g)
        fail_msg("%s: %s", def->name, err.msg);
    size_t ss = def->state_size, cap = pips_max_moves(g);
    unsigned char *s = calloc(1, ss), *t = calloc(1, ss), *u = calloc(1, ss);
    pips_move *moves = calloc(cap, sizeof *moves), *sorted = calloc(cap, sizeof *sorted);
    double *prob = calloc(cap, sizeof *prob);
    int np = pips_num_players(g);
    pips_str text;
    pips_str_init(&text, NULL);
    for (long game = 0; game < n_games; game++) {
        pips_rng rng;
        pips_rng_seed(&rng, (uint64_t)game);
        def->initial(g, s);
        for (int ply = 0; ply < 100000; ply++) {
            /* state text round-trip and hash */
            pips_str_clear(&text);
            def->state_to_text(g, s, &text);
            memset(t, 0xAB, ss);
            if (!def->state_from_text(g, pips_str_cstr(&text), t, &err))
                fail_msg("%s game %ld ply %d: state text '%s' rejected: %s", def->name, game,
                         ply, pips_str_cstr(&text), err.msg);
            if (memcmp(s, t, ss) != 0)
                fail_msg("%s game %ld ply %d: state text '%s' does not round-trip", def->name,
                         game, ply, pips_str_cstr(&text));
            assert_true(def->hash(g, s) == def->hash(g, t));
            int who = def->to_move(g, s);
            if (who == PIPS_OVER)
                break;
            assert_true(who == PIPS_CHANCE || (who >= 0 && who < np));
            size_t n = pips_node_moves(g, s, &rng, moves, prob);
            if (n == 0)
                fail_msg("%s game %ld ply %d: no moves at a live node", def->name, game, ply);
            assert_true(n <= cap);
            if (who == PIPS_CHANCE) {
                double sum = 0;
                for (size_t i = 0; i < n; i++) {
                    assert_true(prob[i] > 0);
                    sum += prob[i];
                }
                assert_true(sum > 0.999999 && sum < 1.000001);
            }
            memcpy(sorted, moves, n * sizeof *moves);
            qsort(sorted, n, sizeof *sorted, cmp_move);
            for (size_t i = 1; i < n; i++)
                if (sorted[i] == sorted[i - 1])
                    fail_msg("%s game %ld ply %d: move listed twice", def->name, game, ply);
            for (size_t i = 0; i < n; i++) {
                char buf[PIPS_MOVE_TEXT_MAX];
                pips_move back;
                def->move_to_text(g, s, moves[i], buf);
                if (!def->move_from_text(g, s, buf, &back, &err))
                    fail_msg("%s game %ld ply %d: move text '%s' rejected: %s", def->name,
                             game, ply, buf, err.msg);
                if (back != moves[i])
                    fail_msg("%s game %ld ply %d: move text '%s' does not round-trip",
                             def->name, game, ply, buf);
                if (!pips_check_move(g, s, moves[i], &err))
                    fail_msg("%s game %ld ply %d: listed move '%s' fails its check: %s",
                             def->name, game, ply, buf, err.msg);
            }
            size_t pick = who == PIPS_CHANCE ? pips_sample_chance(&rng, prob, n)
                                             : (size_t)pips_rng_below(&rng, n);
            memcpy(u, s, ss);
            def->apply(g, s, moves[pick]);
            if (def->undo) {
                memcpy(t, s, ss);
                def->undo(g, t, moves[pick]);
                if (memcmp(t, u, ss) != 0)
                    fail_msg("%s game %ld ply %d: undo does not restore the state", def->name,
                             game, ply);
            }
        }
        assert_int_equal(def->to_move(g, s), PIPS_OVER);
        double ret[PIPS_MAX_PLAYERS];
        def->returns(g, s, ret);
        for (int p = 0; p < np; p++)
            assert_true(ret[p] >= 0.0 && ret[p] <= 1.0);
    }
    pips_str_free(&text);
    free(s);
    free(t);
    free(u);
    free(moves);
    free(sorted);
    free(prob);
    pips_game_free(g);
}

static const char *only_game; /* argv[1]: check just this game */

static void test_every_game_default_options(void **state)
{
    (void)state;
    size_t checked = 0;
    for (size_t i = 0; i < pips_game_count(); i++) {
        const pips_game_def *d = pips_game_def_at(i);
        if (only_game && strcmp(only_game, d->name) != 0)
            continue;
        check_game(d, NULL, 0, games_per_game());
        checked++;
    }
    if (!checked)
        fail_msg("no game named '%s'", only_game);
}

/* Rule variants beyond the defaults: game name, then up to 4 options. */
static const char *const VARIANTS[][5] = {
    {"tictacdoh", "players=3"},                    /* TTD-R8 */
    {"tictacdoh", "players=4", "stashes=2"},       /* TTD-R8, R10 */
    {"tictacdoh", "stashes=3"},                    /* TTD-R10 */
    {"icefrogs", "players=4"},                     /* ICF-R10, R11 */
    {"icefrogs", "players=5"},
    {"icefrogs", "players=6"},
    {"ziggurat", "queen=true", "queen_height=1,2,3,4"}, /* ZIG-R27, per colour */
    {"ziggurat", "players=2", "queen=true", "queen_height=1,4"},
    {"ziggurat", "players=2", "mode=two_colour", "queen=true", "queen_height=4,3,2,1"},
    {"nimitz", "colors=7"},                        /* the rulings' colors=C: a Xeno set's c p */
    {"nimitz", "tree_orientation=free", "colors=10"}, /* NIM-R3's variant */
};

static void test_variant_option_sets(void **state)
{
    (void)state;
    long n_games = games_per_game() / 4 > 0 ? games_per_game() / 4 : 1;
    for (size_t i = 0; i < sizeof VARIANTS / sizeof VARIANTS[0]; i++) {
        const pips_game_def *d = pips_game_find(VARIANTS[i][0]);
        assert_non_null(d);
        if (only_game && strcmp(only_game, d->name) != 0)
            continue;
        size_t n = 0;
        while (n < 4 && VARIANTS[i][n + 1])
            n++;
        check_game(d, &VARIANTS[i][1], n, n_games);
    }
}

int main(int argc, char **argv)
{
    only_game = argc > 1 ? argv[1] : NULL;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_game_default_options),
        cmocka_unit_test(test_variant_option_sets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
