/*
 * test_hardening.c — allocation-failure walks over the library's entry
 * points. For each call, pips_failing_allocator fails the 1st allocation the
 * call makes, then the 2nd, ... until the call succeeds; every failed
 * attempt must report PIPS_ERR_NOMEM (never crash, never another code) and
 * leave its object as it was (a match keeps its state and move count). Run
 * under ASan (the sanitizer build runs every test), a missed NULL check or
 * a leak on an error path fails the build.
 * Covered: pips_game_new for every registered game, pips_state_new,
 * pips_match_new/play/roll/undo/to_record/from_record, pips_perft_count,
 * pips_solve_from on a position near the end of a two-player deterministic
 * game, and pips_agent_new/choose for every kind pips_agent_kinds lists.
 * Not covered: jansson allocates through its own global malloc (records,
 * the server's JSON), and the server takes no allocator; see
 * docs/hardening.md.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pips/agent.h"
#include "pips/game.h"
#include "pips/match.h"
#include "games/ziggurat/ziggurat.h"
#include "core/unchecked.h"

#define MAX_ATTEMPTS 100000
#define WALK_PLIES 80

/* Arms fa so that the k-th allocation from now fails (and every later one). */
static void fail_in(pips_failing_allocator *fa, unsigned long k) { fa->fail_at = fa->count + k; }

static void never_fail(pips_failing_allocator *fa) { fa->fail_at = 0; }

static void expect_nomem(const pips_error *err, const char *what, const char *game,
                         unsigned long k)
{
    if (err->code != PIPS_ERR_NOMEM)
        fail_msg("%s (%s), allocation %lu failing: code %d, '%s'", what, game, k, err->code,
                 err->msg);
}

/* ---- games and states ---- */

static void test_game_new_every_game(void **st)
{
    (void)st;
    for (size_t i = 0; i < pips_game_count(); i++) {
        const char *name = pips_game_def_at(i)->name;
        unsigned long k = 1;
        for (; k < MAX_ATTEMPTS; k++) {
            pips_failing_allocator fa;
            pips_failing_allocator_init(&fa, k);
            pips_error err;
            pips_error_clear(&err);
            pips_game *g = pips_game_new(name, NULL, 0, &fa.base, &err);
            if (g) {
                pips_game_free(g);
                break;
            }
            expect_nomem(&err, "pips_game_new", name, k);
        }
        assert_true(k < MAX_ATTEMPTS);
    }
}

static void test_state_new_every_game(void **st)
{
    (void)st;
    for (size_t i = 0; i < pips_game_count(); i++) {
        const char *name = pips_game_def_at(i)->name;
        pips_failing_allocator fa;
        pips_failing_allocator_init(&fa, 0);
        pips_game *g = pips_game_new(name, NULL, 0, &fa.base, NULL);
        assert_non_null(g);
        unsigned long k = 1;
        for (; k < MAX_ATTEMPTS; k++) {
            fail_in(&fa, k);
            pips_error err;
            pips_error_clear(&err);
            void *s = pips_state_new(g, &err);
            if (s) {
                pips_state_free(g, s);
                break;
            }
            expect_nomem(&err, "pips_state_new", name, k);
        }
        never_fail(&fa);
        pips_game_free(g);
        assert_true(k < MAX_ATTEMPTS);
    }
}

/* ---- matches ---- */

static pips_match *new_match(const char *name, pips_failing_allocator *fa)
{
    unsigned long k = 1;
    for (; k < MAX_ATTEMPTS; k++) {
        pips_failing_allocator_init(fa, k);
        pips_error err;
        pips_error_clear(&err);
        pips_match *m = pips_match_new(name, NULL, 0, 42, &fa->base, &err);
        if (m) {
            never_fail(fa);
            return m;
        }
        expect_nomem(&err, "pips_match_new", name, k);
    }
    fail_msg("pips_match_new (%s) never succeeded", name);
    return NULL;
}

/* One move (a roll at a chance node) under the walk; false at the end. */
static bool walk_one_move(pips_match *m, pips_failing_allocator *fa, pips_rng *rng,
                          pips_move *buf, const char *name)
{
    const pips_game *g = m->game;
    int who = pips_to_move(g, m->state);
    if (who == PIPS_OVER)
        return false;
    pips_move mv = PIPS_MOVE_NONE;
    if (who >= 0) {
        size_t n = pips_node_moves(g, m->state, rng, buf, NULL);
        if (n == 0)
            return false;
        mv = buf[pips_rng_below(rng, n)];
    }
    size_t ss = g->def->state_size, n_before = m->n_moves;
    unsigned char *before = malloc(ss);
    memcpy(before, m->state, ss);
    unsigned long k = 1;
    for (; k < MAX_ATTEMPTS; k++) {
        fail_in(fa, k);
        pips_error err;
        pips_error_clear(&err);
        bool ok = who == PIPS_CHANCE ? pips_match_roll(m, NULL, &err)
                                     : pips_match_play(m, mv, &err);
        if (ok)
            break;
        expect_nomem(&err, who == PIPS_CHANCE ? "pips_match_roll" : "pips_match_play", name, k);
        /* a failed call changes nothing */
        assert_int_equal(m->n_moves, n_before);
        assert_memory_equal(m->state, before, ss);
    }
    never_fail(fa);
    free(before);
    assert_true(k < MAX_ATTEMPTS);
    assert_int_equal(m->n_moves, n_before + 1);
    return true;
}

static void test_match_play_roll_undo_every_game(void **st)
{
    (void)st;
    for (size_t i = 0; i < pips_game_count(); i++) {
        const char *name = pips_game_def_at(i)->name;
        pips_failing_allocator fa;
        pips_match *m = new_match(name, &fa);
        pips_rng rng;
        pips_rng_seed(&rng, 7 + i);
        pips_move *buf = malloc(pips_max_moves(m->game) * sizeof *buf);
        /* past 64 plies the move list and history grow (reserve) */
        for (int ply = 0; ply < WALK_PLIES && walk_one_move(m, &fa, &rng, buf, name); ply++) {
        }
        /* undo allocates nothing: with every allocation failing it works */
        size_t n = m->n_moves;
        assert_true(n > 0);
        fail_in(&fa, 1);
        pips_error err;
        assert_true(pips_match_undo(m, &err));
        assert_int_equal(m->n_moves, n - 1);
        never_fail(&fa);
        free(buf);
        pips_match_free(m);
    }
}

static void test_records_every_game(void **st)
{
    (void)st;
    for (size_t i = 0; i < pips_game_count(); i++) {
        const char *name = pips_game_def_at(i)->name;
        pips_failing_allocator fa;
        pips_match *m = new_match(name, &fa);
        pips_rng rng;
        pips_rng_seed(&rng, 99 + i);
        pips_move *buf = malloc(pips_max_moves(m->game) * sizeof *buf);
        for (int ply = 0; ply < 12 && walk_one_move(m, &fa, &rng, buf, name); ply++) {
        }
        free(buf);
        char *text = NULL;
        unsigned long k = 1;
        for (; k < MAX_ATTEMPTS && !text; k++) {
            fail_in(&fa, k);
            pips_error err;
            pips_error_clear(&err);
            text = pips_match_to_record(m, &err);
            if (!text)
                expect_nomem(&err, "pips_match_to_record", name, k);
        }
        never_fail(&fa);
        assert_non_null(text);
        /* reading it back: every failure NOMEM, even inside the replay */
        pips_match *back = NULL;
        for (k = 1; k < MAX_ATTEMPTS && !back; k++) {
            pips_failing_allocator fb;
            pips_failing_allocator_init(&fb, k);
            pips_error err;
            pips_error_clear(&err);
            back = pips_match_from_record(text, &fb.base, &err);
            if (!back) {
                expect_nomem(&err, "pips_match_from_record", name, k);
                continue;
            }
            fb.fail_at = 0;
            assert_int_equal(back->n_moves, m->n_moves);
            assert_memory_equal(back->state, m->state, m->game->def->state_size);
            pips_match_free(back);
            break;
        }
        assert_true(k < MAX_ATTEMPTS);
        pips_free(m->game->alloc, text);
        pips_match_free(m);
    }
}

/* A single failure (the k-th allocation fails, later ones succeed): no call
 * may swallow it and answer as if nothing happened. A record is either
 * refused with NOMEM or equal to the one written without failures. */
typedef struct one_shot {
    pips_allocator base;
    unsigned long count, fail_at;
} one_shot;

static void *one_shot_realloc(void *ud, void *ptr, size_t size)
{
    one_shot *o = ud;
    if (++o->count == o->fail_at)
        return NULL;
    return realloc(ptr, size);
}

static void one_shot_free(void *ud, void *ptr)
{
    (void)ud;
    free(ptr);
}

static void test_record_single_failures_every_game(void **st)
{
    (void)st;
    for (size_t i = 0; i < pips_game_count(); i++) {
        const char *name = pips_game_def_at(i)->name;
        one_shot o = {{one_shot_realloc, one_shot_free, NULL}, 0, 0};
        o.base.ud = &o;
        pips_match *m = pips_match_new(name, NULL, 0, 3, &o.base, NULL);
        assert_non_null(m);
        pips_rng rng;
        pips_rng_seed(&rng, 17 + i);
        pips_move *buf = malloc(pips_max_moves(m->game) * sizeof *buf);
        for (int ply = 0; ply < 20; ply++) {
            int who = pips_to_move(m->game, m->state);
            if (who == PIPS_OVER)
                break;
            if (who == PIPS_CHANCE) {
                assert_true(pips_match_roll(m, NULL, NULL));
                continue;
            }
            size_t n = pips_node_moves(m->game, m->state, &rng, buf, NULL);
            assert_true(n > 0);
            assert_true(pips_match_play(m, buf[pips_rng_below(&rng, n)], NULL));
        }
        free(buf);
        char *want = pips_match_to_record(m, NULL);
        assert_non_null(want);
        unsigned long total = o.count;
        for (unsigned long k = 1; k <= total + 8; k++) {
            o.count = 0;
            o.fail_at = k;
            pips_error err;
            pips_error_clear(&err);
            char *got = pips_match_to_record(m, &err);
            o.fail_at = 0;
            if (got)
                assert_string_equal(got, want);
            else
                expect_nomem(&err, "pips_match_to_record (one failure)", name, k);
            pips_free(&o.base, got);
        }
        for (unsigned long k = 1; k < 400; k++) {
            one_shot r = {{one_shot_realloc, one_shot_free, NULL}, 0, k};
            r.base.ud = &r;
            pips_error err;
            pips_error_clear(&err);
            pips_match *back = pips_match_from_record(want, &r.base, &err);
            r.fail_at = 0;
            if (!back) {
                expect_nomem(&err, "pips_match_from_record (one failure)", name, k);
                continue;
            }
            assert_int_equal(back->n_moves, m->n_moves);
            assert_memory_equal(back->state, m->state, m->game->def->state_size);
            pips_match_free(back);
        }
        pips_free(&o.base, want);
        pips_match_free(m);
    }
}

/* Ziggurat's own record format (ZIG records, games/ziggurat/record.c) has a
 * reader of its own: it too must say NOMEM, not "bad record". */
static void test_ziggurat_record_read_walk(void **st)
{
    (void)st;
    if (!pips_game_find("ziggurat"))
        skip();
    pips_match *m = pips_match_new("ziggurat", NULL, 0, 8, NULL, NULL);
    assert_non_null(m);
    pips_rng rng;
    pips_rng_seed(&rng, 8);
    pips_move *buf = malloc(pips_max_moves(m->game) * sizeof *buf);
    for (int ply = 0; ply < 40 && !pips_match_over(m); ply++) {
        if (pips_to_move(m->game, m->state) == PIPS_CHANCE) {
            assert_true(pips_match_roll(m, NULL, NULL));
            continue;
        }
        size_t n = pips_node_moves(m->game, m->state, &rng, buf, NULL);
        assert_true(n > 0);
        assert_true(pips_match_play(m, buf[pips_rng_below(&rng, n)], NULL));
    }
    free(buf);
    pips_str rec;
    pips_str_init(&rec, NULL);
    pips_error err;
    assert_true(pips_ziggurat_record_write(m->game, m->moves, m->n_moves, 8, &rec, &err));
    unsigned long k = 1;
    for (; k < MAX_ATTEMPTS; k++) {
        pips_failing_allocator fa;
        pips_failing_allocator_init(&fa, k);
        pips_game *g = NULL;
        pips_move *moves = NULL;
        size_t n = 0;
        uint64_t seed;
        pips_error_clear(&err);
        if (pips_ziggurat_record_read(pips_str_cstr(&rec), &fa.base, &g, &moves, &n, &seed,
                                      &err)) {
            never_fail(&fa);
            assert_int_equal(n, m->n_moves);
            assert_memory_equal(moves, m->moves, n * sizeof *moves);
            pips_free(&fa.base, moves);
            pips_game_free(g);
            break;
        }
        expect_nomem(&err, "pips_ziggurat_record_read", "ziggurat", k);
    }
    assert_true(k < MAX_ATTEMPTS);
    pips_str_free(&rec);
    pips_match_free(m);
}

/* ---- perft and the solver ---- */

static void test_perft_every_game(void **st)
{
    (void)st;
    for (size_t i = 0; i < pips_game_count(); i++) {
        const pips_game_def *d = pips_game_def_at(i);
        if (d->flags & PIPS_GAME_NOT_ENUMERABLE)
            continue; /* perft needs enumerable moves */
        pips_failing_allocator fa;
        pips_failing_allocator_init(&fa, 0);
        pips_game *g = pips_game_new(d->name, NULL, 0, &fa.base, NULL);
        assert_non_null(g);
        void *s = pips_state_new(g, NULL);
        assert_non_null(s);
        d->initial(g, s);
        uint64_t want = pips_perft(g, s, 2);
        assert_true(want > 0);
        unsigned long k = 1;
        for (; k < MAX_ATTEMPTS; k++) {
            fail_in(&fa, k);
            pips_error err;
            pips_error_clear(&err);
            uint64_t got = 0;
            if (pips_perft_count(g, s, 2, &got, &err)) {
                assert_true(got == want);
                break;
            }
            expect_nomem(&err, "pips_perft_count", d->name, k);
        }
        never_fail(&fa);
        assert_true(k < MAX_ATTEMPTS);
        pips_state_free(g, s);
        pips_game_free(g);
    }
}

static void test_solve_from_near_the_end(void **st)
{
    (void)st;
    size_t solved = 0;
    for (size_t i = 0; i < pips_game_count(); i++) {
        const pips_game_def *d = pips_game_def_at(i);
        if (d->flags & (PIPS_GAME_CHANCE | PIPS_GAME_NOT_ENUMERABLE))
            continue;
        pips_failing_allocator fa;
        pips_failing_allocator_init(&fa, 0);
        pips_game *g = pips_game_new(d->name, NULL, 0, &fa.base, NULL);
        assert_non_null(g);
        if (pips_num_players(g) != 2) {
            pips_game_free(g);
            continue;
        }
        /* The position before the winning move of a random game: the
         * solver's search has no node limit, so only a position it settles
         * at once (an immediate win) keeps the walk (one solve per failing
         * allocation) bounded; the walk covers its set-up allocations. */
        size_t ss = d->state_size, cap = pips_max_moves(g);
        pips_move *buf = malloc(cap * sizeof *buf);
        unsigned char *line = malloc(ss * 201);
        void *start = NULL;
        for (uint64_t seed = 1; seed < 200 && !start; seed++) {
            d->initial(g, line);
            pips_rng rng;
            pips_rng_seed(&rng, seed);
            size_t n = 0;
            while (n < 200 && pips_to_move(g, line + n * ss) >= 0) {
                size_t k = d->legal_moves(g, line + n * ss, buf);
                if (!k)
                    break;
                memcpy(line + (n + 1) * ss, line + n * ss, ss);
                d->apply(g, line + (n + 1) * ss, buf[pips_rng_below(&rng, k)]);
                n++;
            }
            if (n == 0 || pips_to_move(g, line + n * ss) != PIPS_OVER)
                continue;
            int mover = pips_to_move(g, line + (n - 1) * ss);
            double r[PIPS_MAX_PLAYERS];
            d->returns(g, line + n * ss, r);
            if (mover >= 0 && r[mover] > 0.75)
                start = line + (n - 1) * ss;
        }
        assert_non_null(start);
        pips_solve_opts so = {1, 16, NULL, NULL, 0, 0, NULL, NULL};
        pips_solve_result want, got;
        pips_error err;
        if (!solve_from_unchecked(g, start, false, &so, &want, &err))
            fail_msg("%s: %s", d->name, err.msg);
        assert_int_equal(want.value, PIPS_WIN);
        unsigned long k = 1;
        for (; k < MAX_ATTEMPTS; k++) {
            fail_in(&fa, k);
            pips_error_clear(&err);
            if (solve_from_unchecked(g, start, false, &so, &got, &err)) {
                assert_int_equal(got.value, want.value);
                break;
            }
            expect_nomem(&err, "pips_solve_from", d->name, k);
        }
        never_fail(&fa);
        assert_true(k < MAX_ATTEMPTS);
        free(buf);
        free(line);
        pips_game_free(g);
        solved++;
    }
    assert_true(solved > 0);
}

/* The solver keeps to its table budget: from the start of a game too big to
 * solve in 1 MB it stops with PIPS_ERR_LIMIT naming the budget instead of growing until the machine
 * runs out (found by the walk above picking a deep position first). */
static void test_solve_keeps_to_table_budget(void **st)
{
    (void)st;
    size_t tried = 0;
    for (size_t i = 0; i < pips_game_count(); i++) {
        const pips_game_def *d = pips_game_def_at(i);
        if (d->flags & (PIPS_GAME_CHANCE | PIPS_GAME_NOT_ENUMERABLE))
            continue;
        pips_game *g = pips_game_new(d->name, NULL, 0, NULL, NULL);
        assert_non_null(g);
        void *s = pips_state_new(g, NULL);
        d->initial(g, s);
        pips_solve_opts so = {1, 1, NULL, NULL, 0, 0, NULL, NULL};
        pips_solve_result res;
        pips_error err;
        pips_error_clear(&err);
        if (pips_num_players(g) == 2 && !solve_from_unchecked(g, s, false, &so, &res, &err)) {
            /* too long to solve is refused at once; otherwise the budget runs out */
            if (err.code != PIPS_ERR_UNSUPPORTED) {
                assert_int_equal(err.code, PIPS_ERR_LIMIT);
                assert_non_null(strstr(err.msg, "budget of 1 MB"));
                tried++;
            }
        }
        pips_state_free(g, s);
        pips_game_free(g);
    }
    assert_true(tried > 0);
}

/* ---- agents ---- */

/* An agent spec of `kind` with a small budget, made with no failure; the
 * kinds take different parameters, so try a few. */
static const char *small_spec(const pips_game *g, const char *kind, char *buf, size_t size)
{
    static const char *const budgets[] = {":iters=40", ":depth=2,nodes=2000", ":depth=2",
                                          ":playouts=20", ""};
    for (size_t i = 0; i < sizeof budgets / sizeof budgets[0]; i++) {
        snprintf(buf, size, "%s%s", kind, budgets[i]);
        pips_agent *a = pips_agent_new(g, buf, 1, NULL);
        if (a) {
            pips_agent_free(a);
            return buf;
        }
    }
    return NULL;
}

static void test_agents_every_kind_every_game(void **st)
{
    (void)st;
    for (size_t i = 0; i < pips_game_count(); i++) {
        const char *name = pips_game_def_at(i)->name;
        for (const char *const *kind = pips_agent_kinds(); *kind; kind++) {
            pips_failing_allocator fa;
            pips_match *m = new_match(name, &fa);
            /* a decision node: roll any dice first */
            while (pips_to_move(m->game, m->state) == PIPS_CHANCE)
                assert_true(pips_match_roll(m, NULL, NULL));
            char spec[96];
            if (!small_spec(m->game, *kind, spec, sizeof spec)) {
                pips_match_free(m);
                continue; /* a kind that does not play this game */
            }
            pips_agent *a = NULL;
            unsigned long k = 1;
            for (; k < MAX_ATTEMPTS && !a; k++) {
                fail_in(&fa, k);
                pips_error err;
                pips_error_clear(&err);
                a = pips_agent_new(m->game, spec, 3, &err);
                if (!a)
                    expect_nomem(&err, spec, name, k);
            }
            never_fail(&fa);
            assert_non_null(a);
            for (k = 1; k < MAX_ATTEMPTS; k++) {
                fail_in(&fa, k);
                pips_error err;
                pips_error_clear(&err);
                pips_move mv;
                if (agent_choose_unchecked(a, m->state, &mv, &err)) {
                    never_fail(&fa);
                    assert_true(pips_check_move(m->game, m->state, mv, NULL));
                    break;
                }
                expect_nomem(&err, spec, name, k);
            }
            never_fail(&fa);
            assert_true(k < MAX_ATTEMPTS);
            pips_agent_free(a);
            pips_match_free(m);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_game_new_every_game),
        cmocka_unit_test(test_state_new_every_game),
        cmocka_unit_test(test_match_play_roll_undo_every_game),
        cmocka_unit_test(test_records_every_game),
        cmocka_unit_test(test_record_single_failures_every_game),
        cmocka_unit_test(test_ziggurat_record_read_walk),
        cmocka_unit_test(test_perft_every_game),
        cmocka_unit_test(test_solve_from_near_the_end),
        cmocka_unit_test(test_solve_keeps_to_table_budget),
        cmocka_unit_test(test_agents_every_kind_every_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
