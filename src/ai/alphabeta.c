/*
 * alphabeta.c — iterative-deepening negamax with alpha-beta pruning for
 * two-player games without chance.
 *
 * Scores are for the seat to move, in [-1, 1]: a decided terminal is
 * +-(1 - 0.001 * ply) so quicker wins and slower losses are preferred; any
 * other terminal result is 0.9 * (own return - other's return); a leaf at the
 * depth limit is 0.8 * the same difference from the evaluate hook or from a
 * few random playouts. Proven scores (|s| > PROVEN) are stored in the
 * transposition table relative to the node so they stay exact across plies.
 *
 * The table is keyed by the game hash and every hit is verified by comparing
 * the full stored state, so hash collisions never corrupt the search.
 * Moves are ordered: the table move first, then the order_moves hook.
 * A move where the same seat moves again is searched without negation.
 * Budget: depth=D, time=T (seconds, checked inside the search), nodes=N
 * (a cap on the nodes of one move's whole search, the deepening included:
 * the depth that would pass it is abandoned and the last finished depth
 * decides; depth 1 always finishes), or several. A node cap reads no clock,
 * so it plays the same moves on any load, unlike time. The note
 * (pips_agent_note) gives the depth finished and the nodes spent.
 *
 * With three or more seats, paranoid=1 searches as if every other seat
 * played against the seat to move at the root (Sturtevant and Korf's
 * paranoid reduction): two sides, the root seat and the rest, and a score
 * of the root seat's return less the best other return. The table key then
 * holds the root seat, whose scores the entries are.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ai/agent_impl.h"

#define AB_MAX_DEPTH 64
#define AB_INF 2.0
#define AB_PROVEN 0.92
#define AB_PLY_STEP 0.001

enum { TT_EXACT = 1, TT_LOWER = 2, TT_UPPER = 3 };

typedef struct tt_entry {
    uint64_t key;
    pips_move best;
    float score;
    int16_t depth;
    uint8_t flag;    /* 0 = empty */
    uint8_t horizon; /* the subtree met the depth limit somewhere */
} tt_entry;

typedef struct ab_impl {
    int depth_limit; /* 0: none (time only) */
    double time_limit; /* 0: none */
    uint64_t node_limit; /* 0: none; else a cap on one move's nodes past depth 1 */
    int playouts;
    bool shuffle; /* root moves shuffled with the agent's rng before ordering */
    bool paranoid; /* 3+ seats: the root seat against a coalition of the rest */
    int np;
    int root_seat; /* paranoid: the seat to move at the root of this search */
    size_t tt_size; /* power of two */
    tt_entry *tt;
    unsigned char *tt_states; /* tt_size * state_size */
    pips_move *moves;  /* (AB_MAX_DEPTH + 1) * max_moves */
    int *order;        /* max_moves scores for ordering */
    unsigned char *states; /* (AB_MAX_DEPTH + 2) * state_size */
    unsigned char *scratch;
    pips_move *playout_moves;
    pips_move_eval *root;  /* root moves with their last scores */
    size_t max_moves, state_size;
    /* per search */
    double deadline;
    bool timed; /* this search has a deadline (own budget or the caller's cap) */
    bool aborted, hit_horizon;
    uint64_t nodes;    /* this move's, every depth */
    uint64_t node_cap; /* node_limit from depth 2 on, else 0 */
} ab_impl;

static double score_to_tt(double s, int ply)
{
    if (s > AB_PROVEN)
        return s + AB_PLY_STEP * ply;
    if (s < -AB_PROVEN)
        return s - AB_PLY_STEP * ply;
    return s;
}

static double score_from_tt(double s, int ply)
{
    if (s > AB_PROVEN)
        return s - AB_PLY_STEP * ply;
    if (s < -AB_PROVEN)
        return s + AB_PLY_STEP * ply;
    return s;
}

static tt_entry *tt_probe(ab_impl *ab, const pips_game *g, const void *state, uint64_t key)
{
    size_t i = (size_t)(key & (ab->tt_size - 1));
    tt_entry *e = &ab->tt[i];
    if (!e->flag || e->key != key)
        return NULL;
    if (memcmp(ab->tt_states + i * ab->state_size, state, ab->state_size) != 0)
        return NULL;
    (void)g;
    return e;
}

static void tt_store(ab_impl *ab, const void *state, uint64_t key, int depth, double score,
                     int flag, pips_move best, bool horizon)
{
    size_t i = (size_t)(key & (ab->tt_size - 1));
    tt_entry *e = &ab->tt[i];
    /* keep a deeper result of the same position; otherwise replace */
    if (e->flag && e->key == key && e->depth > depth &&
        !memcmp(ab->tt_states + i * ab->state_size, state, ab->state_size))
        return;
    e->key = key;
    e->best = best;
    e->score = (float)score;
    e->depth = (int16_t)depth;
    e->flag = (uint8_t)flag;
    e->horizon = horizon;
    memcpy(ab->tt_states + i * ab->state_size, state, ab->state_size);
}

static bool out_of_time(ab_impl *ab)
{
    if (!ab->aborted && agent_budget_spent(ab->nodes, ab->timed, ab->deadline, ab->node_cap))
        ab->aborted = true;
    return ab->aborted;
}

/* Orders moves[0..n) in place: the table move first, then by the hook. */
static void order_moves(ab_impl *ab, const pips_game *g, const void *state, pips_move *moves,
                        size_t n, pips_move tt_move)
{
    if (g->def->order_moves && n > 1) {
        g->def->order_moves(g, state, moves, n, ab->order);
        for (size_t i = 1; i < n; i++) { /* stable insertion sort, highest first */
            pips_move m = moves[i];
            int s = ab->order[i];
            size_t j = i;
            while (j > 0 && ab->order[j - 1] < s) {
                moves[j] = moves[j - 1];
                ab->order[j] = ab->order[j - 1];
                j--;
            }
            moves[j] = m;
            ab->order[j] = s;
        }
    }
    if (tt_move != PIPS_MOVE_NONE)
        for (size_t i = 1; i < n; i++)
            if (moves[i] == tt_move) {
                memmove(moves + 1, moves, i * sizeof *moves);
                moves[0] = tt_move;
                break;
            }
}

/* The side of a seat: with two seats the seat itself; paranoid, 0 for the
 * root seat and 1 for every other. */
static int side_of(const ab_impl *ab, int seat)
{
    return ab->paranoid ? seat != ab->root_seat : seat;
}

/* Returns (or leaf values) as a difference for persp's side: its return
 * less the other's; paranoid, the root seat's less the best other seat's,
 * negated for the coalition. */
static double side_diff(const ab_impl *ab, const double *v, int persp)
{
    if (!ab->paranoid)
        return v[persp] - v[1 - persp];
    double other = 0;
    for (int p = 0; p < ab->np; p++)
        if (p != ab->root_seat && v[p] > other)
            other = v[p];
    double d = v[ab->root_seat] - other;
    return side_of(ab, persp) == 0 ? d : -d;
}

static double negamax(pips_agent *a, const void *state, int persp, int depth, int ply,
                      double alpha, double beta)
{
    ab_impl *ab = a->impl;
    const pips_game *g = a->game;
    const pips_game_def *d = g->def;
    ab->nodes++;
    if (out_of_time(ab))
        return 0;
    int who = d->to_move(g, state);
    double v[PIPS_MAX_PLAYERS];
    if (who == PIPS_OVER) {
        d->returns(g, state, v);
        double diff = side_diff(ab, v, persp);
        if (fabs(diff) >= 0.999)
            return (diff > 0 ? 1 : -1) * (1.0 - AB_PLY_STEP * ply);
        return 0.9 * diff;
    }
    if (side_of(ab, who) != side_of(ab, persp))
        return -negamax(a, state, who, depth, ply, -beta, -alpha);
    if (depth <= 0 || ply >= AB_MAX_DEPTH) {
        ab->hit_horizon = true;
        agent_leaf_values(g, state, &a->rng, ab->playouts, ab->scratch, ab->playout_moves, v);
        return 0.8 * side_diff(ab, v, persp);
    }
    uint64_t key = d->hash(g, state);
    if (ab->paranoid) /* the scores are the root seat's */
        key ^= pips_mix64(0x5851F42D4C957F2Dull + (uint64_t)ab->root_seat);
    pips_move tt_move = PIPS_MOVE_NONE;
    double alpha0 = alpha;
    tt_entry *e = tt_probe(ab, g, state, key);
    if (e) {
        tt_move = e->best;
        if (e->depth >= depth) {
            double s = score_from_tt(e->score, ply);
            if (e->flag == TT_EXACT || (e->flag == TT_LOWER && s >= beta) ||
                (e->flag == TT_UPPER && s <= alpha)) {
                ab->hit_horizon |= e->horizon;
                return s;
            }
        }
    }
    pips_move *moves = ab->moves + (size_t)ply * ab->max_moves;
    size_t n = agent_search_moves(g, state, a->seed, moves, NULL);
    if (n == 0) { /* a broken game; value the position rather than fail */
        agent_leaf_values(g, state, &a->rng, ab->playouts, ab->scratch, ab->playout_moves, v);
        return 0.8 * side_diff(ab, v, persp);
    }
    order_moves(ab, g, state, moves, n, tt_move);
    unsigned char *child = ab->states + (size_t)(ply + 1) * ab->state_size;
    double best = -AB_INF;
    pips_move best_move = n ? moves[0] : PIPS_MOVE_NONE;
    bool horizon_above = ab->hit_horizon;
    ab->hit_horizon = false;
    for (size_t i = 0; i < n; i++) {
        memcpy(child, state, ab->state_size);
        d->apply(g, child, moves[i]);
        double s = negamax(a, child, persp, depth - 1, ply + 1, alpha, beta);
        if (ab->aborted)
            return 0;
        if (s > best) {
            best = s;
            best_move = moves[i];
        }
        if (s > alpha)
            alpha = s;
        if (alpha >= beta)
            break;
    }
    int flag = best <= alpha0 ? TT_UPPER : best >= beta ? TT_LOWER : TT_EXACT;
    tt_store(ab, state, key, depth, score_to_tt(best, ply), flag, best_move, ab->hit_horizon);
    ab->hit_horizon |= horizon_above;
    return best;
}

/* One root iteration at depth: every root move gets a score (exact for all
 * moves when `all`, otherwise a bound for the ones pruned). With `all`, a
 * move is marked proven when its score is a decided result or its whole
 * subtree was seen (no leaf met the depth limit). Returns false when the
 * time ran out. The root list is re-sorted best first. */
static bool root_iteration(pips_agent *a, const void *state, size_t n, int depth, bool all)
{
    ab_impl *ab = a->impl;
    const pips_game *g = a->game;
    int me = g->def->to_move(g, state);
    unsigned char *child = ab->states + ab->state_size;
    double alpha = -AB_INF;
    bool any_horizon = false;
    for (size_t i = 0; i < n; i++) {
        memcpy(child, state, ab->state_size);
        g->def->apply(g, child, ab->root[i].move);
        uint64_t before = ab->nodes;
        ab->hit_horizon = false;
        double s = all ? negamax(a, child, me, depth - 1, 1, -AB_INF, AB_INF)
                       : negamax(a, child, me, depth - 1, 1, alpha, AB_INF);
        if (ab->aborted)
            return false;
        /* a pruned move's score is an upper bound <= alpha: keep it below */
        ab->root[i].value = (!all && i > 0 && s <= alpha) ? s - 1e-9 : s;
        ab->root[i].visits = ab->nodes - before;
        ab->root[i].proven = all && (fabs(s) > AB_PROVEN || !ab->hit_horizon);
        any_horizon |= ab->hit_horizon;
        if (s > alpha)
            alpha = s;
    }
    ab->hit_horizon = any_horizon;
    agent_sort_evals(ab->root, n);
    return true;
}

/* Iterative deepening; leaves the root list sorted best first with scores
 * from the deepest finished iteration. Returns the number of root moves. */
static size_t ab_search(pips_agent *a, const void *state, bool all, pips_error *err)
{
    ab_impl *ab = a->impl;
    const pips_game *g = a->game;
    double start = pips_now();
    double budget = agent_time_budget(a, ab->time_limit);
    ab->timed = budget > 0;
    ab->deadline = start + budget * AGENT_TIME_SAFETY;
    ab->aborted = false;
    ab->nodes = 0;
    ab->root_seat = g->def->to_move(g, state);
    size_t n = agent_search_moves(g, state, a->seed, a->moves, NULL);
    if (n == 0) {
        pips_fail(err, PIPS_ERR_ILLEGAL, "no legal move: the game is over");
        return 0;
    }
    /* shuffle=1: equal moves (same hook score, same search score) are then
     * met in a seeded random order, so games between deterministic agents
     * vary with the seed while each choice stays one of the best found */
    for (size_t i = n; ab->shuffle && i > 1; i--) {
        size_t j = (size_t)pips_rng_below(&a->rng, i);
        pips_move t = a->moves[i - 1];
        a->moves[i - 1] = a->moves[j];
        a->moves[j] = t;
    }
    /* start from the hook's order */
    memcpy(ab->states, state, ab->state_size);
    order_moves(ab, g, state, a->moves, n, PIPS_MOVE_NONE);
    for (size_t i = 0; i < n; i++)
        ab->root[i] = (pips_move_eval){a->moves[i], 0, 0, false};
    pips_move_eval *saved = ab->root + ab->max_moves; /* last finished iteration */
    memcpy(saved, ab->root, n * sizeof *saved);
    int limit = ab->depth_limit ? ab->depth_limit : AB_MAX_DEPTH, finished = 0;
    for (int depth = 1; depth <= limit; depth++) {
        ab->hit_horizon = false;
        ab->node_cap = depth > 1 ? ab->node_limit : 0;
        if (!root_iteration(a, state, n, depth, all))
            break;
        finished = depth;
        memcpy(saved, ab->root, n * sizeof *saved);
        /* stop when the whole tree was seen or the result is proven (for an
         * analysis: every move's result, so a losing move shows as a loss) */
        bool all_proven = true;
        for (size_t i = 0; i < n && all; i++)
            all_proven &= saved[i].proven;
        if (!ab->hit_horizon || (all ? all_proven : fabs(saved[0].value) > AB_PROVEN))
            break;
        if (!all && n == 1)
            break;
    }
    memcpy(ab->root, saved, n * sizeof *saved);
    snprintf(a->note, sizeof a->note, "depth %d finished, %llu nodes%s", finished,
             (unsigned long long)ab->nodes,
             !ab->aborted ? ""
             : ab->node_cap && ab->nodes > ab->node_cap ? " (the next depth passed the node cap)"
                                                         : " (the next depth ran out of time)");
    for (size_t i = 0; i < n; i++) {
        /* the sort above already put quicker wins and slower losses first */
        double s = ab->root[i].value, v = (s + 1) / 2;
        if (ab->root[i].proven)
            v = s > AB_PROVEN ? 1 : s < -AB_PROVEN ? 0 : (s / 0.9 + 1) / 2;
        ab->root[i].value = v < 0 ? 0 : v > 1 ? 1 : v;
    }
    a->has_last_value = true;
    a->last_value = ab->root[0].value;
    return n;
}

static void ab_destroy(pips_agent *a)
{
    ab_impl *ab = a->impl;
    if (!ab)
        return;
    const pips_allocator *al = a->game->alloc;
    pips_free(al, ab->tt);
    pips_free(al, ab->tt_states);
    pips_free(al, ab->moves);
    pips_free(al, ab->order);
    pips_free(al, ab->states);
    pips_free(al, ab->scratch);
    pips_free(al, ab->playout_moves);
    pips_free(al, ab->root);
    pips_free(al, ab);
}

bool agent_alphabeta_init(pips_agent *a, const char *params, pips_error *err)
{
    const pips_game *g = a->game;
    if (g->def->flags & PIPS_GAME_CHANCE)
        return pips_fail(err, PIPS_ERR_UNSUPPORTED,
                         "alphabeta needs a game without chance; %s has chance (use mcts or "
                         "expectimax)",
                         g->def->name);
    long depth = 0, playouts = 4, tt_mb = 16, shuffle = 0, paranoid = 0, nodes = 0;
    double time = 0;
    char key[AGENT_KEY_MAX], value[AGENT_VALUE_MAX];
    bool bad;
    const char *p = params;
    while (agent_param_next(&p, "alphabeta", key, value, &bad, err)) {
        if (!strcmp(key, "depth")) {
            if (!agent_param_long("alphabeta", key, value, 1, AB_MAX_DEPTH, &depth, err))
                return false;
        } else if (!strcmp(key, "time")) {
            if (!agent_param_double("alphabeta", key, value, 0.001, 86400, &time, err))
                return false;
        } else if (!strcmp(key, "nodes")) {
            if (!agent_param_long("alphabeta", key, value, 1, 4000000000L, &nodes, err))
                return false;
        } else if (!strcmp(key, "playouts")) {
            if (!agent_param_long("alphabeta", key, value, 1, 1000, &playouts, err))
                return false;
        } else if (!strcmp(key, "tt")) {
            if (!agent_param_long("alphabeta", key, value, 1, 4096, &tt_mb, err))
                return false;
        } else if (!strcmp(key, "shuffle")) {
            if (!agent_param_long("alphabeta", key, value, 0, 1, &shuffle, err))
                return false;
        } else if (!strcmp(key, "paranoid")) {
            if (!agent_param_long("alphabeta", key, value, 0, 1, &paranoid, err))
                return false;
        } else {
            return pips_fail(err, PIPS_ERR_ARG,
                             "alphabeta: unknown parameter '%s' (depth, time, nodes, playouts, tt, "
                             "shuffle, paranoid)",
                             key);
        }
    }
    if (bad)
        return false;
    /* with more seats a loss for one is no win for a single other: the
     * search needs the paranoid reduction, asked for by name */
    if (pips_num_players(g) != 2 && !paranoid)
        return pips_fail(err, PIPS_ERR_UNSUPPORTED,
                         "alphabeta cannot play %d seats without paranoid=1 (%s; kinds that "
                         "can: %s)",
                         pips_num_players(g), g->def->name, agent_nseat_kinds());
    if (!depth && time == 0 && !nodes)
        depth = 4;
    const pips_allocator *al = g->alloc;
    ab_impl *ab = pips_calloc(al, 1, sizeof *ab);
    if (!ab)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
    a->impl = ab;
    a->destroy = ab_destroy;
    ab->depth_limit = (int)depth;
    ab->time_limit = time;
    ab->node_limit = (uint64_t)nodes;
    ab->playouts = (int)playouts;
    ab->shuffle = shuffle != 0;
    ab->np = pips_num_players(g);
    ab->paranoid = paranoid && ab->np > 2;
    ab->max_moves = pips_max_moves(g);
    ab->state_size = g->def->state_size;
    size_t per_entry = sizeof(tt_entry) + ab->state_size;
    size_t want = ((size_t)tt_mb << 20) / per_entry;
    ab->tt_size = 1024;
    while (ab->tt_size * 2 <= want)
        ab->tt_size *= 2;
    ab->tt = pips_calloc(al, ab->tt_size, sizeof *ab->tt);
    ab->tt_states = pips_calloc(al, ab->tt_size, ab->state_size);
    ab->moves = pips_calloc(al, (AB_MAX_DEPTH + 1) * ab->max_moves, sizeof *ab->moves);
    ab->order = pips_calloc(al, ab->max_moves, sizeof *ab->order);
    ab->states = pips_calloc(al, AB_MAX_DEPTH + 2, ab->state_size);
    ab->scratch = pips_calloc(al, 1, ab->state_size);
    ab->playout_moves = pips_calloc(al, ab->max_moves, sizeof *ab->playout_moves);
    ab->root = pips_calloc(al, 2 * ab->max_moves, sizeof *ab->root);
    if (!ab->tt || !ab->tt_states || !ab->moves || !ab->order || !ab->states || !ab->scratch ||
        !ab->playout_moves || !ab->root)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory for the search tables");
    a->rank = ab_search;
    a->ranked = ab->root;
    a->choose = agent_ranked_choose;
    a->analyze = agent_ranked_analyze;
    snprintf(a->spec, sizeof a->spec, "alphabeta");
    if (depth)
        agent_spec_add(a, "depth=%ld", depth);
    if (time > 0)
        agent_spec_add(a, "time=%g", time);
    if (nodes)
        agent_spec_add(a, "nodes=%ld", nodes);
    if (playouts != 4 && !g->def->evaluate)
        agent_spec_add(a, "playouts=%ld", playouts);
    if (tt_mb != 16)
        agent_spec_add(a, "tt=%ld", tt_mb);
    if (shuffle)
        agent_spec_add(a, "shuffle=1");
    if (ab->paranoid)
        agent_spec_add(a, "paranoid=1");
    return true;
}
