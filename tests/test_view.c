/*
 * test_view.c — the structured view of a state (pips/view.h) for every
 * registered game and several option sets: at every ply of seeded random
 * games the state object parses back, has its keys in order, agrees with
 * the interface (to_move, over, state text, players, chance, returns,
 * scores) and keeps each game's conservation laws (pieces on the board plus
 * pieces left in stashes, supplies, stores or pads is the whole set). A game
 * without a state_view hook gets the generic members only. Out of memory in
 * jansson or in the game's allocator reports PIPS_ERR_NOMEM without a leak
 * (run under ASan by the sanitizer build).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "pips/view.h"
#include "toy_game.h"
#include "core/unchecked.h"

#define GAMES_PER_CONFIG 4
#define MAX_PLIES 300

static const struct {
    const char *game;
    const char *opts[3];
} CONFIGS[] = {
    {"tictacdoh", {NULL}},
    {"icefrogs", {NULL}},
    {"icefrogs", {"players=3", NULL}},
    {"ziggurat", {NULL}},
    {"ziggurat", {"players=2", "mode=two_colour", NULL}},
    {"ziggurat", {"players=3", "queen=true", NULL}},
    {"noname", {NULL}},
    {"noname", {"players=3", NULL}},
    {"nimitz", {NULL}},
    {"nimitz", {"board=volcano", "players=3", "sets=2"}},
};

static size_t count_opts(const char *const *opts)
{
    size_t n = 0;
    while (n < 3 && opts[n])
        n++;
    return n;
}

static json_int_t int_at(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_integer(v))
        fail_msg("'%s' is not an integer", key);
    return json_integer_value(v);
}

/* The sum of key over the objects of array arr (each member an integer). */
static json_int_t sum_of(json_t *arr, const char *key)
{
    json_int_t total = 0;
    size_t i;
    json_t *e;
    json_array_foreach(arr, i, e) total += int_at(e, key);
    return total;
}

/* Pieces in the stacks (member stack_key, an array) of every element of arr. */
static size_t stacked(json_t *arr, const char *stack_key)
{
    size_t total = 0, i;
    json_t *e;
    json_array_foreach(arr, i, e) total += json_array_size(json_object_get(e, stack_key));
    return total;
}

/* Each game's conservation law, and a few members every view of it has. */
static void check_game_members(const pips_game *g, json_t *v)
{
    const char *name = g->def->name;
    int players = pips_num_players(g);
    if (!strcmp(name, "tictacdoh")) { /* TTD: 15 pieces, shared */
        json_t *stash = json_object_get(v, "stash");
        json_int_t left = int_at(stash, "S") + int_at(stash, "M") + int_at(stash, "L");
        size_t on_board = stacked(json_object_get(v, "cells"), "stack");
        assert_int_equal(on_board + (size_t)left, 15);
        assert_int_equal(int_at(v, "placed"), on_board);
    } else if (!strcmp(name, "icefrogs")) { /* ICF: 15 per player */
        json_t *cells = json_object_get(v, "cells"), *supply = json_object_get(v, "supply");
        assert_int_equal(json_array_size(cells), 37);
        assert_int_equal(json_array_size(supply), players);
        size_t on_board = stacked(cells, "stack");
        json_int_t left = 0;
        size_t i;
        json_t *e;
        json_array_foreach(supply, i, e) left += int_at(e, "S") + int_at(e, "M") + int_at(e, "L");
        assert_int_equal(on_board + (size_t)left, 15 * (size_t)players);
    } else if (!strcmp(name, "nimitz")) { /* NIM: the store holds what is not placed */
        json_t *store = json_object_get(v, "store");
        size_t on_board = stacked(json_object_get(v, "cells"), "stack");
        assert_int_equal(json_array_size(store), 3 * json_array_size(json_object_get(v, "colours")));
        assert_int_equal(on_board + (size_t)sum_of(store, "left"),
                         json_array_size(store) * (size_t)int_at(v, "sets"));
        assert_int_equal(int_at(v, "placed"), on_board);
    } else if (!strcmp(name, "noname")) { /* NON: 15 per seat, on the table or in a pad */
        json_t *seats = json_object_get(v, "seats");
        assert_int_equal(json_array_size(seats), players);
        size_t padded = 0, i;
        json_t *e;
        json_array_foreach(seats, i, e) padded += (size_t)sum_of(json_object_get(e, "pad"), "n");
        assert_int_equal(padded + json_array_size(json_object_get(v, "pieces")),
                         15 * (size_t)players);
        assert_non_null(json_object_get(json_object_get(v, "layout"), "base"));
    } else if (!strcmp(name, "ziggurat")) { /* ZIG: 68 places; only colours in play */
        json_t *squares = json_object_get(v, "squares");
        assert_int_equal(json_array_size(squares), 68);
        assert_int_equal(json_array_size(json_object_get(v, "seats")), players);
        char in_play[5] = "";
        size_t i, k;
        json_t *e, *pc;
        json_array_foreach(json_object_get(v, "colours"), i, e)
            if (!json_is_null(json_object_get(e, "seat")))
                strncat(in_play, json_string_value(json_object_get(e, "colour")), 1);
        json_array_foreach(squares, i, e)
            json_array_foreach(json_object_get(e, "pile"), k, pc)
                assert_non_null(strchr(in_play, json_string_value(json_object_get(pc, "colour"))[0]));
    } else {
        fail_msg("no checks for game %s", name);
    }
}

/* The state object of state, checked against the interface; returns it. */
static json_t *checked_object(const pips_game *g, const void *state)
{
    pips_error err;
    char *text = state_json_unchecked(g, state, &err);
    if (!text)
        fail_msg("%s: %s", g->def->name, err.msg);
    json_error_t jerr;
    json_t *o = json_loads(text, 0, &jerr);
    if (!o)
        fail_msg("%s: not JSON (%s): %s", g->def->name, jerr.text, text);
    free(text);
    static const char *const KEYS[] = {"game", "options", "to_move", "over", "view", "state"};
    assert_int_equal(json_object_size(o), 6);
    void *it = json_object_iter(o);
    for (size_t i = 0; i < 6; i++, it = json_object_iter_next(o, it))
        assert_string_equal(json_object_iter_key(it), KEYS[i]);
    assert_string_equal(json_string_value(json_object_get(o, "game")), g->def->name);
    assert_int_equal(json_object_size(json_object_get(o, "options")), g->options.n);
    int who = pips_to_move(g, state);
    json_t *to_move = json_object_get(o, "to_move");
    if (who >= 0)
        assert_int_equal(json_integer_value(to_move), who);
    else
        assert_true(json_is_null(to_move));
    assert_int_equal(json_is_true(json_object_get(o, "over")), who == PIPS_OVER);
    pips_str st;
    pips_str_init(&st, NULL);
    g->def->state_to_text(g, state, &st);
    assert_string_equal(json_string_value(json_object_get(o, "state")), pips_str_cstr(&st));
    pips_str_free(&st);
    json_t *v = json_object_get(o, "view");
    int players = pips_num_players(g);
    assert_int_equal(int_at(v, "players"), players);
    assert_int_equal(json_is_true(json_object_get(v, "chance")), who == PIPS_CHANCE);
    assert_true(json_is_string(json_object_get(v, "result")));
    json_t *rets = json_object_get(v, "returns");
    assert_int_equal(rets != NULL, who == PIPS_OVER);
    if (rets)
        assert_int_equal(json_array_size(rets), players);
    json_t *scores = json_object_get(v, "scores");
    assert_int_equal(scores != NULL, g->def->scores != NULL);
    if (scores)
        assert_int_equal(json_array_size(scores), players);
    return o;
}

static void test_views_along_random_games(void **st)
{
    (void)st;
    bool seen[16] = {false};
    for (size_t c = 0; c < sizeof CONFIGS / sizeof CONFIGS[0]; c++) {
        pips_error err;
        pips_game *g = pips_game_new(CONFIGS[c].game, CONFIGS[c].opts,
                                     count_opts(CONFIGS[c].opts), NULL, &err);
        if (!g)
            fail_msg("%s: %s", CONFIGS[c].game, err.msg);
        assert_non_null(g->def->state_view);
        for (size_t i = 0; i < pips_game_count(); i++)
            seen[i] |= pips_game_def_at(i) == g->def;
        void *s = pips_state_new(g, &err);
        pips_move *buf = calloc(pips_max_moves(g), sizeof *buf);
        double *prob = calloc(pips_max_moves(g), sizeof *prob);
        assert_true(s && buf && prob);
        for (uint64_t seed = 0; seed < GAMES_PER_CONFIG; seed++) {
            pips_rng rng;
            pips_rng_seed(&rng, seed * 31 + c);
            g->def->initial(g, s);
            for (int ply = 0;; ply++) {
                json_t *o = checked_object(g, s);
                check_game_members(g, json_object_get(o, "view"));
                json_decref(o);
                if (pips_to_move(g, s) == PIPS_OVER || ply == MAX_PLIES)
                    break;
                size_t n = pips_node_moves(g, s, &rng, buf, prob);
                assert_true(n > 0);
                size_t k = pips_to_move(g, s) == PIPS_CHANCE ? pips_sample_chance(&rng, prob, n)
                                                             : pips_rng_next(&rng) % n;
                g->def->apply(g, s, buf[k]);
            }
        }
        free(buf);
        free(prob);
        pips_state_free(g, s);
        pips_game_free(g);
    }
    for (size_t i = 0; i < pips_game_count(); i++)
        if (!seen[i])
            fail_msg("game %s has no view checks here", pips_game_def_at(i)->name);
}

/* A game without the hook: the generic members only. */
static void test_generic_members_without_hook(void **st)
{
    (void)st;
    pips_error err;
    pips_game *g = toy_game_new(&toy_race_def, NULL, 0);
    assert_non_null(g);
    assert_null(g->def->state_view);
    void *s = pips_state_new(g, &err);
    g->def->initial(g, s);
    json_t *o = checked_object(g, s);
    json_t *v = json_object_get(o, "view");
    assert_int_equal(json_object_size(v), 3); /* players, chance, result */
    assert_int_equal(int_at(v, "players"), 3);
    json_decref(o);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* ---- out of memory ---- */

static unsigned long json_allocs, json_fail_at;

static void *failing_json_malloc(size_t n)
{
    json_allocs++;
    if (json_fail_at && json_allocs >= json_fail_at)
        return NULL;
    return malloc(n);
}

/* A mid-game state of g (seeded random plies), written into s. */
static void mid_game(const pips_game *g, void *s, int plies)
{
    pips_move *buf = calloc(pips_max_moves(g), sizeof *buf);
    double *prob = calloc(pips_max_moves(g), sizeof *prob);
    pips_rng rng;
    pips_rng_seed(&rng, 7);
    g->def->initial(g, s);
    for (int i = 0; i < plies && pips_to_move(g, s) != PIPS_OVER; i++) {
        size_t n = pips_node_moves(g, s, &rng, buf, prob);
        size_t k = pips_to_move(g, s) == PIPS_CHANCE ? pips_sample_chance(&rng, prob, n)
                                                     : pips_rng_next(&rng) % n;
        g->def->apply(g, s, buf[k]);
    }
    free(buf);
    free(prob);
}

static void test_out_of_memory_in_jansson(void **st)
{
    (void)st;
    json_set_alloc_funcs(failing_json_malloc, free);
    for (size_t i = 0; i < pips_game_count(); i++) {
        pips_error err;
        pips_game *g = pips_game_new(pips_game_def_at(i)->name, NULL, 0, NULL, &err);
        void *s = pips_state_new(g, &err);
        mid_game(g, s, 12);
        unsigned long k = 1;
        for (;; k++) {
            json_allocs = 0;
            json_fail_at = k;
            pips_error_clear(&err);
            char *text = state_json_unchecked(g, s, &err);
            json_fail_at = 0;
            if (text) {
                free(text);
                break;
            }
            if (err.code != PIPS_ERR_NOMEM)
                fail_msg("%s: allocation %lu failing: code %d '%s'", g->def->name, k, err.code,
                         err.msg);
        }
        assert_true(k > 10); /* the walk reached the game's own members */
        pips_state_free(g, s);
        pips_game_free(g);
    }
    json_set_alloc_funcs(malloc, free);
}

static void test_out_of_memory_in_the_game(void **st)
{
    (void)st;
    for (size_t i = 0; i < pips_game_count(); i++) {
        const char *name = pips_game_def_at(i)->name;
        pips_error err;
        pips_game *plain = pips_game_new(name, NULL, 0, NULL, &err);
        void *s = pips_state_new(plain, &err);
        mid_game(plain, s, 12);
        for (unsigned long k = 1;; k++) {
            pips_failing_allocator fa;
            pips_failing_allocator_init(&fa, 0);
            pips_game *g = pips_game_new(name, NULL, 0, &fa.base, &err);
            assert_non_null(g);
            fa.fail_at = fa.count + k;
            pips_error_clear(&err);
            json_t *o = state_object_unchecked(g, s, &err);
            pips_game_free(g);
            if (o) {
                json_decref(o);
                break;
            }
            if (err.code != PIPS_ERR_NOMEM)
                fail_msg("%s: allocation %lu failing: code %d '%s'", name, k, err.code, err.msg);
        }
        pips_state_free(plain, s);
        pips_game_free(plain);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_views_along_random_games),
        cmocka_unit_test(test_generic_members_without_hook),
        cmocka_unit_test(test_out_of_memory_in_jansson),
        cmocka_unit_test(test_out_of_memory_in_the_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
