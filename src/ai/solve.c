/*
 * solve.c — the generic exact solver for two-player deterministic games:
 * negamax over win/draw/loss with a transposition table that stores whole
 * canonical states (a hash collision can never corrupt a value).
 *
 * Values are exact, never bounds: a node stops early only on a proven win,
 * and otherwise has seen every child. Games with their own solver (def->solve)
 * are dispatched to it. Every solve is bounded: the table by a memory budget
 * (pips_solve_default_mb unless given), optionally time and nodes; running
 * out fails with PIPS_ERR_LIMIT naming the budget, never grows further.
 */
#include "pips/game.h"
#include "core/unchecked.h"

#include <string.h>
#include <unistd.h>

/* The generic solver's recursion limit, and so the longest game it takes. */
#define GENERIC_MAX_PLY 512
/* Seeded random games played to measure a game's length before solving. */
#define LENGTH_PROBES 64

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
    bool over_budget; /* the table would outgrow the memory budget */
    bool out_of_time; /* so->max_seconds or so->max_nodes ran out */
    size_t budget_mb;
    pips_move best_move; /* the root's best move so far */
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
    if ((s->nodes & 0xFFF) == 0 && s->so) {
        double t = pips_now() - s->start;
        if ((s->so->max_seconds > 0 && t > s->so->max_seconds) ||
            (s->so->max_nodes && s->nodes > s->so->max_nodes)) {
            s->oom = s->out_of_time = true;
            return 0;
        }
        if (s->so->progress && (s->nodes & 0xFFFF) == 0) {
            pips_solve_progress p = {s->tt.used, s->nodes, t,
                                     (double)s->tt.used / (double)s->tt.slots,
                                     s->tt.slots * (sizeof(uint64_t) + 1 + s->ss)};
            s->so->progress(s->so->progress_ud, &p);
        }
    }
    if (s->so && s->so->max_nodes && s->nodes > s->so->max_nodes) {
        s->oom = s->out_of_time = true;
        return 0;
    }
    if (ply >= s->max_ply) {
        s->oom = true;
        return 0;
    }
    uint64_t key = state_key(s, state);
    size_t slot = table_find(&s->tt, key, state);
    /* the root is searched even when stored (by an earlier call of a kept
     * solver): its value alone would leave the caller without its best move */
    if (s->tt.keys[slot] && ply > 0)
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
            if (v > best) {
                best = v;
                if (ply == 0)
                    s->best_move = moves[i];
            }
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
        if (v > best) {
            best = v;
            if (ply == 0)
                s->best_move = moves[i];
        }
    }
    if (s->oom)
        return 0;
    if (best == -2)
        best = 0; /* no move at a live node: the game defines no value; treat as draw */
    slot = table_find(&s->tt, key, state);
    if (s->tt.keys[slot]) /* a root searched again: stored already */
        return best;
    if (s->tt.used * 2 >= s->tt.slots) {
        /* the budget bounds memory: without it a deep search grows until the
         * machine runs out (a full table cannot stay: probing needs a hole) */
        if (s->tt.slots * 2 * (sizeof(uint64_t) + 1 + s->ss) > s->budget_mb << 20) {
            s->oom = s->over_budget = true;
            return 0;
        }
        if (!table_grow(&s->tt)) {
            s->oom = true;
            return 0;
        }
        slot = table_find(&s->tt, key, state);
    }
    s->tt.keys[slot] = key;
    memcpy(s->tt.states + slot * s->ss, state, s->ss);
    s->tt.values[slot] = (int8_t)best;
    s->tt.used++;
    return best;
}

size_t pips_solve_default_mb(void)
{
    long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    size_t mb = pages > 0 && page > 0 ? (size_t)pages / 2 * (size_t)page >> 20 : 1024;
    if (mb > PIPS_SOLVE_MAX_DEFAULT_MB)
        mb = PIPS_SOLVE_MAX_DEFAULT_MB;
    return mb < 64 ? 64 : mb;
}

bool pips_solve(const pips_game *g, const pips_solve_opts *so, pips_solve_result *res,
                pips_error *err)
{
    void *root = pips_state_new(g, err);
    if (!root)
        return false;
    g->def->initial(g, root);
    bool ok = solve_position_unchecked(g, root, so, res, err);
    pips_state_free(g, root);
    return ok;
}

/* Refuses at once what the generic solver cannot finish: more than two
 * seats, chance, moves that cannot be listed, and games whose random
 * playouts run past the recursion limit (IceFrogs' hundreds of plies). */
static bool generic_supports(const pips_game *g, const void *state, pips_error *err)
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
    pips_error e2;
    unsigned char *s = pips_state_new(g, &e2);
    pips_move *buf = pips_malloc(g->alloc, pips_max_moves(g) * sizeof *buf);
    bool ok = s && buf;
    pips_rng rng;
    pips_rng_seed(&rng, 1);
    size_t longest = 0;
    /* a position won at once is settled however long the game could run */
    int me = d->to_move(g, state);
    size_t n = ok ? d->legal_moves(g, state, buf) : 0;
    bool won_at_once = false;
    for (size_t i = 0; i < n && !won_at_once; i++) {
        memcpy(s, state, d->state_size);
        d->apply(g, s, buf[i]);
        double r[PIPS_MAX_PLAYERS];
        if (d->to_move(g, s) == PIPS_OVER) {
            d->returns(g, s, r);
            won_at_once = r[me] > 0.75;
        }
    }
    for (int i = 0; ok && !won_at_once && i < LENGTH_PROBES; i++) {
        memcpy(s, state, d->state_size);
        size_t plies = pips_random_playout(g, s, &rng, buf, GENERIC_MAX_PLY);
        if (plies > longest)
            longest = plies;
    }
    pips_state_free(g, s);
    pips_free(g->alloc, buf);
    if (!ok)
        return pips_fail(err, PIPS_ERR_NOMEM, "%s: out of memory before solving", d->name);
    if (!won_at_once && longest >= GENERIC_MAX_PLY / 8)
        return pips_fail(err, PIPS_ERR_UNSUPPORTED,
                         "%s: too long to solve exactly (random games from this position run "
                         "to %zu plies; the exact solver takes games of under %d)",
                         d->name, longest, GENERIC_MAX_PLY / 8);
    return true;
}

bool solve_position_unchecked(const pips_game *g, const void *state, const pips_solve_opts *so,
                              pips_solve_result *res, pips_error *err)
{
    if (!res)
        return pips_fail(err, PIPS_ERR_ARG, "solve: nowhere to put the result (NULL)");
    memset(res, 0, sizeof *res);
    res->best_move = PIPS_MOVE_NONE;
    if (!g || !g->def || !state)
        return pips_fail(err, PIPS_ERR_ARG, "solve: no %s (NULL)", !g || !g->def ? "game" : "state");
    if (!g->def->solve && !generic_supports(g, state, err))
        return false;
    if (pips_to_move(g, state) < 0)
        return pips_fail(err, PIPS_ERR_ARG, "%s: the game is over (nothing to solve)",
                         g->def->name);
    if (g->def->solve) {
        pips_solve_opts plain = so ? *so : (pips_solve_opts){1, 0, NULL, NULL, 0, 0, NULL, NULL};
        plain.moves = NULL;
        plain.move_values = NULL;
        return g->def->solve(g, state, &plain, res, err);
    }
    return solve_from_unchecked(g, state, true, so, res, err);
}

bool solve_moves_unchecked(const pips_game *g, const void *state, const pips_solve_opts *so,
                           pips_solve_result *res, pips_error *err)
{
    if (!g || !g->def || !state || !res)
        return pips_fail(err, PIPS_ERR_ARG, "solve: no %s (NULL)",
                         !g || !g->def ? "game" : !state ? "state" : "result");
    if (!so || !so->moves || !so->move_values)
        return pips_fail(err, PIPS_ERR_ARG, "pips_solve_moves: opts->moves and "
                                            "opts->move_values are needed");
    pips_solver *ps = pips_solver_new(g, so, true, err);
    if (!ps)
        return false;
    bool ok = solver_moves_unchecked(ps, state, so->moves, so->move_values, res, err);
    pips_solver_free(ps);
    return ok;
}

struct pips_solver {
    const pips_game *g;
    pips_solve_opts opts; /* budgets per call; moves/move_values unused */
    solver s;             /* generic games: the table kept between calls */
    unsigned char *root, *canon, *child;
    bool generic; /* the generic solver even when the game has its own */
};

pips_solver *pips_solver_new(const pips_game *g, const pips_solve_opts *so, bool use_canonical,
                             pips_error *err)
{
    if (!g || !g->def)
        return pips_fail(err, PIPS_ERR_ARG, "solve: no game (NULL)"), NULL;
    const pips_game_def *d = g->def;
    if (!d->solve && pips_num_players(g) != 2)
        return pips_fail(err, PIPS_ERR_UNSUPPORTED,
                         "%s: exact solving needs exactly 2 players (this game has %d)", d->name,
                         pips_num_players(g)),
               NULL;
    /* refused before anything is allocated: a game of chance or of moves
     * that cannot be listed is beyond the generic solver at any size */
    if (!d->solve && (d->flags & (PIPS_GAME_CHANCE | PIPS_GAME_NOT_ENUMERABLE)))
        return pips_fail(err, PIPS_ERR_UNSUPPORTED, "%s: exact solving needs %s", d->name,
                         d->flags & PIPS_GAME_CHANCE ? "a game without chance"
                                                     : "moves that can be listed"),
               NULL;
    pips_solver *ps = pips_calloc(g->alloc, 1, sizeof *ps);
    if (!ps)
        return pips_fail(err, PIPS_ERR_NOMEM, "%s: out of memory for a solver", d->name), NULL;
    ps->g = g;
    if (so)
        ps->opts = *so;
    else
        ps->opts.threads = 1;
    ps->opts.moves = NULL;
    ps->opts.move_values = NULL;
    solver *s = &ps->s;
    s->g = g;
    s->so = &ps->opts;
    s->canonical = use_canonical ? d->canonical : NULL;
    s->ss = d->state_size;
    s->cap = d->max_moves(g);
    s->max_ply = GENERIC_MAX_PLY;
    s->budget_mb = ps->opts.table_mb ? ps->opts.table_mb : pips_solve_default_mb();
    s->scratch = pips_malloc(g->alloc, (size_t)s->max_ply * 2 * s->ss);
    s->moves = pips_malloc(g->alloc, (size_t)s->max_ply * s->cap * sizeof *s->moves);
    /* the first table is small and within the budget; it grows as needed */
    size_t first_slots = 1u << 16;
    while (first_slots > 64 && (double)first_slots * (double)s->ss > (double)s->budget_mb * 1048576.0 / 4)
        first_slots >>= 1;
    bool ok = s->scratch && s->moves && table_init(&s->tt, g->alloc, s->ss, first_slots);
    ps->root = pips_malloc(g->alloc, s->ss);
    ps->canon = pips_malloc(g->alloc, s->ss);
    ps->child = pips_malloc(g->alloc, s->ss);
    if (!ok || !ps->root || !ps->canon || !ps->child) {
        pips_solver_free(ps);
        return pips_fail(err, PIPS_ERR_NOMEM, "%s: out of memory for a solver", d->name), NULL;
    }
    return ps;
}

void pips_solver_set_seconds(pips_solver *ps, double seconds)
{
    if (ps)
        ps->opts.max_seconds = seconds > 0 ? seconds : 0;
}

void pips_solver_free(pips_solver *ps)
{
    if (!ps)
        return;
    const pips_allocator *a = ps->g->alloc;
    table_free(&ps->s.tt);
    pips_free(a, ps->s.scratch);
    pips_free(a, ps->s.moves);
    pips_free(a, ps->root);
    pips_free(a, ps->canon);
    pips_free(a, ps->child);
    pips_free(a, ps);
}

/* One generic solve of a live state with the kept table; time and nodes
 * count from `start` and `nodes0`. canon_root: solve the state's canonical
 * form (a better chance of a stored value); without it the root is the state
 * itself, so the best move found (s->best_move) is one of its own moves. */
static bool generic_value(pips_solver *ps, const void *state, bool canon_root, int *value,
                          pips_error *err)
{
    solver *s = &ps->s;
    const pips_game *g = ps->g;
    memcpy(ps->root, state, s->ss);
    if (s->canonical && canon_root)
        s->canonical(g, ps->root, ps->canon);
    else
        memcpy(ps->canon, ps->root, s->ss);
    s->oom = s->over_budget = s->out_of_time = false;
    s->best_move = PIPS_MOVE_NONE;
    int v = solve_rec(s, ps->canon, 0);
    if (!s->oom) {
        *value = v;
        return true;
    }
    const char *name = g->def->name;
    if (s->over_budget)
        return pips_fail(err, PIPS_ERR_LIMIT,
                         "%s: the memory budget of %zu MB is full after %zu positions (raise it "
                         "with --table-mb)",
                         name, s->budget_mb, s->tt.used);
    if (s->out_of_time && ps->opts.max_seconds > 0 &&
        pips_now() - s->start >= ps->opts.max_seconds)
        return pips_fail(err, PIPS_ERR_LIMIT, "%s: not solved within the time budget of %.3g s",
                         name, ps->opts.max_seconds);
    if (s->out_of_time)
        return pips_fail(err, PIPS_ERR_LIMIT, "%s: not solved within the budget of %llu nodes",
                         name, (unsigned long long)ps->opts.max_nodes);
    return pips_fail(err, PIPS_ERR_NOMEM, "%s: out of memory (or too deep) while solving", name);
}

static pips_value value_of(int v) { return v > 0 ? PIPS_WIN : v < 0 ? PIPS_LOSS : PIPS_DRAW; }

bool solver_moves_unchecked(pips_solver *ps, const void *state, pips_move *moves,
                            pips_value *values, pips_solve_result *res, pips_error *err)
{
    const pips_game *g = ps->g;
    const pips_game_def *d = g->def;
    memset(res, 0, sizeof *res);
    res->best_move = PIPS_MOVE_NONE;
    int me = pips_to_move(g, state);
    if (me < 0)
        return pips_fail(err, PIPS_ERR_ARG, "%s: the game is over (nothing to solve)", d->name);
    if (d->solve && !ps->generic) {
        pips_solve_opts o = ps->opts;
        o.moves = moves;
        o.move_values = values;
        return d->solve(g, state, &o, res, err);
    }
    if (!generic_supports(g, state, err))
        return false;
    solver *s = &ps->s;
    s->start = pips_now();
    s->nodes = 0;
    size_t n = moves ? d->legal_moves(g, state, moves) : 0;
    int best = -2;
    for (size_t i = 0; i < n; i++) {
        memcpy(ps->child, state, s->ss);
        d->apply(g, ps->child, moves[i]);
        int next = d->to_move(g, ps->child), v;
        if (next == PIPS_OVER) {
            double r[PIPS_MAX_PLAYERS];
            d->returns(g, ps->child, r);
            v = r[me] > 0.75 ? 1 : r[me] < 0.25 ? -1 : 0;
        } else {
            if (!generic_value(ps, ps->child, true, &v, err))
                return false;
            if (next != me)
                v = -v;
        }
        values[i] = value_of(v);
        if (v > best) {
            best = v;
            res->best_move = v > 0 ? moves[i] : PIPS_MOVE_NONE;
        }
    }
    if (!moves) {
        if (!generic_value(ps, state, false, &best, err)) /* its best move is state's */
            return false;
        res->best_move = best > 0 ? s->best_move : PIPS_MOVE_NONE;
    }
    res->value = value_of(best);
    res->n_moves = n;
    res->positions = s->tt.used;
    res->nodes = s->nodes;
    res->seconds = pips_now() - s->start;
    res->memory_bytes = s->tt.slots * (sizeof(uint64_t) + 1 + s->ss);
    return true;
}

bool solve_from_unchecked(const pips_game *g, const void *start, bool use_canonical,
                          const pips_solve_opts *so, pips_solve_result *res, pips_error *err)
{
    if (pips_to_move(g, start) < 0)
        return pips_fail(err, PIPS_ERR_ARG, "%s: the game is over (nothing to solve)",
                         g->def->name);
    pips_solver *ps = pips_solver_new(g, so, use_canonical, err);
    if (!ps)
        return false;
    ps->generic = true;
    bool ok = solver_moves_unchecked(ps, start, NULL, NULL, res, err);
    pips_solver_free(ps);
    return ok;
}

/* The public solving calls take only states from pips_state_new, of g's
 * definition and options (pips_state_check); the library's own callers use
 * the unchecked twins on states of their own. */
bool pips_solve_position(const pips_game *g, const void *state, const pips_solve_opts *so,
                         pips_solve_result *res, pips_error *err)
{
    if (!pips_state_check(g, state, err))
        return false;
    return solve_position_unchecked(g, state, so, res, err);
}

bool pips_solve_moves(const pips_game *g, const void *state, const pips_solve_opts *so,
                      pips_solve_result *res, pips_error *err)
{
    if (!pips_state_check(g, state, err))
        return false;
    return solve_moves_unchecked(g, state, so, res, err);
}

bool pips_solver_moves(pips_solver *ps, const void *state, pips_move *moves,
                       pips_value *values, pips_solve_result *res, pips_error *err)
{
    if (!ps || !res)
        return pips_fail(err, PIPS_ERR_ARG, "solve: no %s (NULL)", !ps ? "solver" : "result");
    if (!pips_state_check(ps->g, state, err))
        return false;
    return solver_moves_unchecked(ps, state, moves, values, res, err);
}

bool pips_solve_from(const pips_game *g, const void *state, bool use_canonical,
                     const pips_solve_opts *so, pips_solve_result *res, pips_error *err)
{
    if (!res)
        return pips_fail(err, PIPS_ERR_ARG, "solve: nowhere to put the result (NULL)");
    if (!pips_state_check(g, state, err))
        return false;
    return solve_from_unchecked(g, state, use_canonical, so, res, err);
}
