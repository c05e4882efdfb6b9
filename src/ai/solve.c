/*
 * solve.c — the generic exact solver for two-player deterministic games:
 * negamax over win/draw/loss with a transposition table that stores whole
 * canonical states (a hash collision can never corrupt a value).
 *
 * Values are exact, never bounds: a node stops early only on a proven win,
 * and otherwise has seen every child. Games with their own solver (def->solve)
 * are dispatched to it.
 */
#include "pips/game.h"

#include <string.h>

typedef struct solve_table {
    const pips_allocator *alloc;
    size_t state_size, slots, used;
    uint64_t *keys;          /* hash | 1 (0 = empty slot) */
    unsigned char *states;   /* slots * state_size */
    int8_t *values;
} solve_table;

typedef struct solver {
    const pips_game *g;
    const pips_solve_opts *so;
    solve_table tt;
    size_t ss, cap;
    unsigned char *scratch; /* per ply: canonical child + child state */
    pips_move *moves;       /* per ply */
    int max_ply;
    uint64_t nodes;
    double start;
    bool oom;
    bool over_budget; /* the table would outgrow so->table_mb */
    void (*canonical)(const pips_game *g, const void *state, void *out);
} solver;

static bool table_init(solve_table *t, const pips_allocator *a, size_t ss, size_t slots)
{
    t->alloc = a;
    t->state_size = ss;
    t->slots = slots;
    t->used = 0;
    t->keys = pips_calloc(a, slots, sizeof *t->keys);
    t->states = pips_malloc(a, slots * ss);
    t->values = pips_malloc(a, slots);
    return t->keys && t->states && t->values;
}

static void table_free(solve_table *t)
{
    pips_free(t->alloc, t->keys);
    pips_free(t->alloc, t->states);
    pips_free(t->alloc, t->values);
}

static size_t table_find(const solve_table *t, uint64_t key, const void *state)
{
    size_t i = (size_t)(key >> 1) & (t->slots - 1);
    while (t->keys[i]) {
        if (t->keys[i] == key && !memcmp(t->states + i * t->state_size, state, t->state_size))
            return i;
        i = (i + 1) & (t->slots - 1);
    }
    return i;
}

static bool table_grow(solve_table *t)
{
    solve_table bigger;
    if (!table_init(&bigger, t->alloc, t->state_size, t->slots * 2)) {
        table_free(&bigger);
        return false;
    }
    for (size_t i = 0; i < t->slots; i++) {
        if (!t->keys[i])
            continue;
        const unsigned char *st = t->states + i * t->state_size;
        size_t j = table_find(&bigger, t->keys[i], st);
        bigger.keys[j] = t->keys[i];
        memcpy(bigger.states + j * t->state_size, st, t->state_size);
        bigger.values[j] = t->values[i];
        bigger.used++;
    }
    table_free(t);
    *t = bigger;
    return true;
}

static uint64_t state_key(const solver *s, const void *state)
{
    return s->g->def->hash(s->g, state) | 1;
}

/* Value of a live state for the player to move: -1 loss, 0 draw, 1 win. */
static int solve_rec(solver *s, const void *state, int ply)
{
    const pips_game_def *d = s->g->def;
    s->nodes++;
    if (s->so && s->so->progress && (s->nodes & 0xFFFFF) == 0)
        s->so->progress(s->so->progress_ud, s->tt.used, pips_now() - s->start);
    if (ply >= s->max_ply) {
        s->oom = true;
        return 0;
    }
    uint64_t key = state_key(s, state);
    size_t slot = table_find(&s->tt, key, state);
    if (s->tt.keys[slot])
        return s->tt.values[slot];
    int me = d->to_move(s->g, state);
    pips_move *moves = s->moves + (size_t)ply * s->cap;
    unsigned char *child = s->scratch + (size_t)ply * 2 * s->ss, *canon = child + s->ss;
    size_t n = d->legal_moves(s->g, state, moves);
    int best = -2;
    /* First pass: an immediate win ends the search at once. */
    for (size_t i = 0; i < n && best < 1; i++) {
        memcpy(child, state, s->ss);
        d->apply(s->g, child, moves[i]);
        if (d->to_move(s->g, child) == PIPS_OVER) {
            double r[PIPS_MAX_PLAYERS];
            d->returns(s->g, child, r);
            int v = r[me] > 0.75 ? 1 : r[me] < 0.25 ? -1 : 0;
            if (v > best)
                best = v;
        }
    }
    for (size_t i = 0; i < n && best < 1 && !s->oom; i++) {
        memcpy(child, state, s->ss);
        d->apply(s->g, child, moves[i]);
        int next = d->to_move(s->g, child);
        if (next == PIPS_OVER)
            continue; /* scored in the first pass */
        if (s->canonical)
            s->canonical(s->g, child, canon);
        else
            memcpy(canon, child, s->ss);
        int v = solve_rec(s, canon, ply + 1);
        if (next != me)
            v = -v;
        if (v > best)
            best = v;
    }
    if (s->oom)
        return 0;
    if (best == -2)
        best = 0; /* no move at a live node: the game defines no value; treat as draw */
    if (s->tt.used * 2 >= s->tt.slots) {
        /* the budget bounds memory: without it a deep search grows until the
         * machine runs out (a full table cannot stay: probing needs a hole) */
        size_t budget = s->so && s->so->table_mb ? s->so->table_mb << 20 : SIZE_MAX;
        if (s->tt.slots * 2 * (sizeof(uint64_t) + 1 + s->ss) > budget) {
            s->oom = s->over_budget = true;
            return 0;
        }
        if (!table_grow(&s->tt)) {
            s->oom = true;
            return 0;
        }
    }
    slot = table_find(&s->tt, key, state);
    s->tt.keys[slot] = key;
    memcpy(s->tt.states + slot * s->ss, state, s->ss);
    s->tt.values[slot] = (int8_t)best;
    s->tt.used++;
    return best;
}

bool pips_solve(const pips_game *g, const pips_solve_opts *so, pips_solve_result *res,
                pips_error *err)
{
    if (g->def->solve)
        return g->def->solve(g, so, res, err);
    void *root = pips_state_new(g, err);
    if (!root)
        return false;
    g->def->initial(g, root);
    bool ok = pips_solve_from(g, root, true, so, res, err);
    pips_state_free(g, root);
    return ok;
}

bool pips_solve_from(const pips_game *g, const void *start, bool use_canonical,
                     const pips_solve_opts *so, pips_solve_result *res, pips_error *err)
{
    const pips_game_def *d = g->def;
    if (pips_num_players(g) != 2)
        return pips_fail(err, PIPS_ERR_UNSUPPORTED,
                         "%s: exact solving needs exactly 2 players (this game has %d)", d->name,
                         pips_num_players(g));
    if (d->flags & (PIPS_GAME_CHANCE | PIPS_GAME_NOT_ENUMERABLE))
        return pips_fail(err, PIPS_ERR_UNSUPPORTED,
                         "%s: exact solving needs a deterministic game with enumerable moves",
                         d->name);
    solver s;
    memset(&s, 0, sizeof s);
    s.g = g;
    s.so = so;
    s.canonical = use_canonical ? d->canonical : NULL;
    s.ss = d->state_size;
    s.cap = d->max_moves(g);
    s.max_ply = 512;
    s.start = pips_now();
    s.scratch = pips_malloc(g->alloc, (size_t)s.max_ply * 2 * s.ss);
    s.moves = pips_malloc(g->alloc, (size_t)s.max_ply * s.cap * sizeof *s.moves);
    void *root = pips_malloc(g->alloc, s.ss), *canon = pips_malloc(g->alloc, s.ss);
    bool ok = s.scratch && s.moves && root && canon &&
              table_init(&s.tt, g->alloc, s.ss, 1u << 16);
    if (ok) {
        memcpy(root, start, s.ss);
        if (s.canonical)
            s.canonical(g, root, canon);
        else
            memcpy(canon, root, s.ss);
        int v = d->to_move(g, root) == PIPS_OVER ? 0 : solve_rec(&s, canon, 0);
        ok = !s.oom;
        if (ok) {
            res->value = v > 0 ? PIPS_WIN : v < 0 ? PIPS_LOSS : PIPS_DRAW;
            res->positions = s.tt.used;
            res->nodes = s.nodes;
            res->seconds = pips_now() - s.start;
            res->memory_bytes = s.tt.slots * (sizeof(uint64_t) + 1 + s.ss);
        }
    }
    if (!ok && s.over_budget)
        pips_fail(err, PIPS_ERR_NOMEM,
                  "%s: the transposition table budget of %zu MB is full after %zu positions",
                  d->name, so->table_mb, s.tt.used);
    else if (!ok)
        pips_fail(err, PIPS_ERR_NOMEM, "%s: out of memory (or too deep) while solving",
                  d->name);
    table_free(&s.tt);
    pips_free(g->alloc, s.scratch);
    pips_free(g->alloc, s.moves);
    pips_free(g->alloc, root);
    pips_free(g->alloc, canon);
    return ok;
}
