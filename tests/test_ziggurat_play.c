/*
 * test_ziggurat_play.c — whole-game checks for Ziggurat (perft counts are
 * data: tests/perft/ziggurat.txt): random games ending under every option
 * combination (ZIG-R23, R24), state text and hash along the way, and game
 * records (section 10) replaying exactly.
 */
#include "zig_helpers.h"

#include "games/ziggurat/ziggurat.h"

/* Perft counts are data: tests/perft/ziggurat.txt (test_perft.c). */

/* Plays one random game to its end, checking state text and hash now and then. */
static void random_game(const pips_game *g, uint64_t seed)
{
    size_t ss = g->def->state_size, cap = pips_max_moves(g);
    unsigned char *s = calloc(1, ss), *t = calloc(1, ss);
    pips_move *mv = calloc(cap, sizeof *mv);
    double *pr = calloc(cap, sizeof *pr);
    pips_rng rng;
    pips_rng_seed(&rng, seed);
    g->def->initial(g, s);
    pips_str text;
    pips_str_init(&text, NULL);
    long ply = 0;
    while (pips_to_move(g, s) != PIPS_OVER) {
        if (ply % 97 == 0) {
            pips_str_clear(&text);
            g->def->state_to_text(g, s, &text);
            pips_error err;
            if (!g->def->state_from_text(g, pips_str_cstr(&text), t, &err))
                fail_msg("state text rejected: %s", err.msg);
            assert_memory_equal(s, t, ss);
            assert_true(g->def->hash(g, s) == g->def->hash(g, t));
        }
        size_t n = pips_node_moves(g, s, &rng, mv, pr);
        assert_true(n > 0);
        if (pips_to_move(g, s) >= 0)
            assert_true(n >= 2); /* ZIG-R22: never only `end` */
        size_t pick = pips_to_move(g, s) == PIPS_CHANCE ? pips_sample_chance(&rng, pr, n)
                                                        : (size_t)pips_rng_below(&rng, n);
        g->def->apply(g, s, mv[pick]);
        ply++;
        assert_true(ply < 100000);
    }
    double r[PIPS_MAX_PLAYERS], sum = 0;
    g->def->returns(g, s, r);
    for (int i = 0; i < pips_num_players(g); i++) {
        assert_true(r[i] >= 0 && r[i] <= 1);
        sum += r[i];
    }
    assert_true(sum > 0);
    pips_str_free(&text);
    free(s);
    free(t);
    free(mv);
    free(pr);
}

/* Every seating x dice x Queen x direction combination, a few games each. */
static void test_random_games_all_options(void **st)
{
    (void)st;
    static const char *const seatings[][3] = {
        {"players=4", "mode=standard", NULL},      {"players=4", "mode=teams", NULL},
        {"players=3", "omit=green", NULL},         {"players=3", "omit=red", "first=blue"},
        {"players=3", "omit=blue", NULL},          {"players=3", "omit=yellow", NULL},
        {"players=2", "pair=ry", "first=yellow"},  {"players=2", "pair=bg", "first=green"},
        {"players=2", "mode=two_colour", NULL},
    };
    static const char *const dice[][2] = {{"move_die=d8", "action_die=d8"},
                                          {"move_die=d6", "action_die=treehouse"},
                                          {"move_die=d6", "action_die=d8"},
                                          {"move_die=d8", "action_die=treehouse"}};
    uint64_t seed = 1;
    int games = 0;
    for (size_t a = 0; a < sizeof seatings / sizeof seatings[0]; a++)
        for (size_t d = 0; d < 4; d++)
            for (int queen = 0; queen < 2; queen++)
                for (int dir = 0; dir < 2; dir++) {
                    const char *opts[10];
                    size_t n = 0;
                    for (int i = 0; i < 3 && seatings[a][i]; i++)
                        opts[n++] = seatings[a][i];
                    opts[n++] = dice[d][0];
                    opts[n++] = dice[d][1];
                    opts[n++] = queen ? "queen=true" : "queen=false";
                    static const char *const qh[] = {"queen_height=1", "queen_height=2",
                                                     "queen_height=3", "queen_height=4"};
                    opts[n++] = qh[(a + d) % 4];
                    opts[n++] = dir ? "turn_direction=ccw" : "turn_direction=cw";
                    opts[n++] = (a + d + queen) % 3 == 0 ? "max_turns=300" : "max_turns=1000";
                    pips_game *g = zig_game(opts, n);
                    for (int k = 0; k < 2; k++, games++)
                        random_game(g, seed++);
                    pips_game_free(g);
                }
    assert_int_equal(games, 9 * 4 * 2 * 2 * 2);
}

/* Section 10: a random game's record reads back to the same moves and the
 * same final position; also a record stopped mid-turn and after `end`. */
static void record_round_trip(const pips_game *g, uint64_t seed, size_t max_plies)
{
    size_t ss = g->def->state_size, cap = pips_max_moves(g);
    unsigned char *s = calloc(1, ss), *t = calloc(1, ss);
    pips_move *buf = calloc(cap, sizeof *buf), *moves = calloc(max_plies, sizeof *moves);
    double *pr = calloc(cap, sizeof *pr);
    pips_rng rng;
    pips_rng_seed(&rng, seed);
    g->def->initial(g, s);
    size_t n = 0;
    while (n < max_plies && pips_to_move(g, s) != PIPS_OVER) {
        size_t k = pips_node_moves(g, s, &rng, buf, pr);
        size_t pick = pips_to_move(g, s) == PIPS_CHANCE ? pips_sample_chance(&rng, pr, k)
                                                        : (size_t)pips_rng_below(&rng, k);
        moves[n++] = buf[pick];
        g->def->apply(g, s, buf[pick]);
    }
    pips_str rec;
    pips_str_init(&rec, NULL);
    pips_error err;
    if (!pips_ziggurat_record_write(g, moves, n, seed, &rec, &err))
        fail_msg("record write: %s", err.msg);
    pips_game *g2;
    pips_move *back;
    size_t nb;
    uint64_t seed2;
    if (!pips_ziggurat_record_read(pips_str_cstr(&rec), NULL, &g2, &back, &nb, &seed2, &err))
        fail_msg("record read: %s\n%s", err.msg, pips_str_cstr(&rec));
    assert_true(seed2 == seed);
    if (nb != n)
        fail_msg("record gave %zu moves, expected %zu:\n%s", nb, n, pips_str_cstr(&rec));
    assert_memory_equal(back, moves, n * sizeof *moves);
    g2->def->initial(g2, t);
    for (size_t i = 0; i < nb; i++)
        g2->def->apply(g2, t, back[i]);
    assert_memory_equal(s, t, ss);
    free(back);
    pips_game_free(g2);
    pips_str_free(&rec);
    free(s);
    free(t);
    free(buf);
    free(moves);
    free(pr);
}

static void test_records(void **st)
{
    (void)st;
    pips_game *g = zig_game(NULL, 0);
    for (uint64_t seed = 1; seed <= 6; seed++)
        record_round_trip(g, seed, 100000);
    for (size_t cut = 1; cut < 60; cut++) /* every kind of stopping point */
        record_round_trip(g, 1000 + cut, cut);
    pips_game_free(g);
    const char *o[] = {"players=2", "mode=two_colour", "queen=true", "queen_height=2,4,1,3",
                       "move_die=d6", "action_die=treehouse", "max_turns=50"};
    g = zig_game(o, 7);
    for (uint64_t seed = 1; seed <= 4; seed++)
        record_round_trip(g, seed, 100000);
    pips_game_free(g);
}

/* A hand-written record in the section-10 notation replays. */
static void test_record_text(void **st)
{
    (void)st;
    const char *rec =
        "Ziggurat seats=R,B,Y,G players=4 mode=standard omit=green pair=ry move_die=d8 "
        "action_die=d8 queen=false queen_height=1 first=red turn_direction=cw max_turns=1000 "
        "seed=5\n"
        "R3R RB:L Lh0-h8 Mh8-e8\n"
        "B8A A@1-h2\n"
        "Y2R RA:6 Ma9-a3\n"
        "G4D -\n"
        "R5T\n";
    pips_game *g;
    pips_move *moves;
    size_t n;
    uint64_t seed;
    pips_error err;
    if (!pips_ziggurat_record_read(rec, NULL, &g, &moves, &n, &seed, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(seed, 5);
    void *s = calloc(1, g->def->state_size);
    g->def->initial(g, s);
    for (size_t i = 0; i < n; i++)
        g->def->apply(g, s, moves[i]);
    char *piles = zig_piles(g, s);
    assert_string_equal(piles, "h2:B a3:Y e8:R h0:R,R i8:G,G,G a9:Y,Y @1:B,B");
    free(piles);
    pips_str out;
    pips_str_init(&out, NULL);
    assert_true(pips_ziggurat_record_write(g, moves, n, 5, &out, &err));
    pips_str_free(&out);
    free(s);
    free(moves);
    pips_game_free(g);
    /* errors name the line */
    const char *bad = "Ziggurat players=4 seed=1\nR3R Mh0-h4\n";
    assert_false(pips_ziggurat_record_read(bad, NULL, &g, &moves, &n, &seed, &err));
    assert_non_null(strstr(err.msg, "line 2"));
    bad = "Ziggurat players=4 seed=1\nB3R\n";
    assert_false(pips_ziggurat_record_read(bad, NULL, &g, &moves, &n, &seed, &err));
    bad = "Ziggurat players=9\n";
    assert_false(pips_ziggurat_record_read(bad, NULL, &g, &moves, &n, &seed, &err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_games_all_options),
        cmocka_unit_test(test_records),
        cmocka_unit_test(test_record_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
