/*
 * expectimax.c — depth-limited expectimax for any number of players and for
 * chance: a decision node takes the child best for its mover (max-n, ties to
 * the first move), a chance node averages its outcomes by probability. Values
 * are per-seat vectors in [0, 1]. Depth counts decisions only; chance levels
 * are expanded in full without using depth (up to EM_MAX_PLY plies). Leaves
 * are valued by the evaluate hook or a few random playouts.
 * Budget: depth=D, time=T (iterative deepening, clock checked in the
 * search), or both; nodes=N caps the nodes of a move's search (deepening
 * stops at the first depth that would pass N and the last finished depth
 * decides; depth 1 always finishes), which bounds the time of positions
 * with wide turns while staying deterministic, unlike a time budget.
 *
 * With two seats the search prunes (prune=1, the default): it follows seat
 * 0's score (its return less the other's, mapped to [0, 1]; the same as its
 * return where the returns sum to 1), alpha-beta at decision nodes and
 * Ballard's Star1 at chance nodes, where the outcomes searched so far and
 * the score's bounds 0 and 1 for the rest narrow each outcome's window and
 * end the node once its average cannot leave the window. The move chosen
 * and its value are the full search's (tests/test_agents.c compares them);
 * analysis searches every root move with the full window, so its values are
 * exact, and only the other moves' subtrees are cut.
 */
#include <stdio.h>
#include <string.h>

#include "ai/agent_impl.h"

#define EM_MAX_DEPTH 32
#define EM_MAX_PLY 96

typedef struct em_impl {
    int depth_limit;
    double time_limit;
    uint64_t node_limit; /* 0: none */
    bool prune;          /* two seats: alpha-beta and Star1 on seat 0's score */
    int playouts;
    size_t max_moves, state_size;
    int np;
    agent_buffers buf; /* EM_MAX_PLY plies */
    pips_move_eval *saved;
    double deadline;
    bool timed; /* this search has a deadline (own budget or the caller's cap) */
    uint64_t node_cap; /* the cap of the depth being searched, 0 when none */
    bool aborted;
    bool horizon; /* a leaf was valued by a heuristic, not by the game's end */
    uint64_t nodes;
} em_impl;

/* Counts a node; false once the time or the node cap has run out. */
static bool em_count_node(em_impl *em)
{
    em->nodes++;
    if (agent_budget_spent(em->nodes, em->timed, em->deadline, em->node_cap))
        em->aborted = true;
    return !em->aborted;
}

/* The moves (with their probabilities at a chance node) of a live node at
 * ply, written to the ply's rows; 0 at a leaf (the depth limit, the ply
 * limit, or no moves), whose heuristic values then go to leaf. */
static size_t em_expand(pips_agent *a, const void *state, int who, int depth, int ply,
                        double *leaf)
{
    em_impl *em = a->impl;
    const pips_game *g = a->game;
    size_t n = 0;
    if ((who < 0 || depth > 0) && ply < EM_MAX_PLY)
        n = agent_search_moves(g, state, a->seed, em->buf.moves + (size_t)ply * em->max_moves,
                               em->buf.prob + (size_t)ply * em->max_moves);
    if (n == 0) {
        em->horizon = true;
        agent_leaf_values(g, state, &a->rng, em->playouts, em->buf.scratch,
                          em->buf.playout_moves, leaf);
    }
    return n;
}

static bool em_value(pips_agent *a, const void *state, int depth, int ply, double *out)
{
    em_impl *em = a->impl;
    const pips_game *g = a->game;
    const pips_game_def *d = g->def;
    if (!em_count_node(em))
        return false;
    int who = d->to_move(g, state);
    if (who == PIPS_OVER) {
        d->returns(g, state, out);
        return true;
    }
    size_t n = em_expand(a, state, who, depth, ply, out);
    if (n == 0)
        return true;
    pips_move *moves = em->buf.moves + (size_t)ply * em->max_moves;
    double *prob = em->buf.prob + (size_t)ply * em->max_moves;
    unsigned char *child = em->buf.states + (size_t)(ply + 1) * em->state_size;
    double v[PIPS_MAX_PLAYERS];
    if (who == PIPS_CHANCE) {
        for (int p = 0; p < em->np; p++)
            out[p] = 0;
        for (size_t i = 0; i < n; i++) {
            memcpy(child, state, em->state_size);
            d->apply(g, child, moves[i]);
            if (!em_value(a, child, depth, ply + 1, v))
                return false;
            for (int p = 0; p < em->np; p++)
                out[p] += prob[i] * v[p];
        }
        return true;
    }
    double best = -1;
    for (size_t i = 0; i < n; i++) {
        memcpy(child, state, em->state_size);
        d->apply(g, child, moves[i]);
        if (!em_value(a, child, depth - 1, ply + 1, v))
            return false;
        if (v[who] > best) {
            best = v[who];
            memcpy(out, v, (size_t)em->np * sizeof *out);
        }
    }
    return true;
}

/* Seat 0's score of a two-seat value vector: its return less the other's,
 * in [0, 1]. */
static double score_of(const double *v) { return 0.5 + 0.5 * (v[0] - v[1]); }

/* em_value for two seats with pruning: *out is seat 0's score when it lies
 * inside (alpha, beta), else a bound on the same side (fail-soft). */
static bool em_value2(pips_agent *a, const void *state, int depth, int ply, double alpha,
                      double beta, double *out)
{
    em_impl *em = a->impl;
    const pips_game *g = a->game;
    const pips_game_def *d = g->def;
    double v[PIPS_MAX_PLAYERS];
    if (!em_count_node(em))
        return false;
    int who = d->to_move(g, state);
    if (who == PIPS_OVER) {
        d->returns(g, state, v);
        *out = score_of(v);
        return true;
    }
    size_t n = em_expand(a, state, who, depth, ply, v);
    if (n == 0) {
        *out = score_of(v);
        return true;
    }
    pips_move *moves = em->buf.moves + (size_t)ply * em->max_moves;
    double *prob = em->buf.prob + (size_t)ply * em->max_moves;
    unsigned char *child = em->buf.states + (size_t)(ply + 1) * em->state_size;
    double x;
    if (who == PIPS_CHANCE) {
        /* Star1: the outcomes not yet searched weigh `rest` and score 0..1 */
        double sum = 0, rest = 0;
        for (size_t i = 0; i < n; i++)
            rest += prob[i];
        for (size_t i = 0; i < n; i++) {
            rest -= prob[i];
            if (rest < 0)
                rest = 0;
            double lo = (alpha - sum - rest) / prob[i], hi = (beta - sum) / prob[i];
            if (lo >= 1) { /* even a 1 here leaves the node at or below alpha */
                *out = sum + prob[i] + rest;
                return true;
            }
            if (hi <= 0) {
                *out = sum;
                return true;
            }
            memcpy(child, state, em->state_size);
            d->apply(g, child, moves[i]);
            if (!em_value2(a, child, depth, ply + 1, lo > 0 ? lo : 0, hi < 1 ? hi : 1, &x))
                return false;
            sum += prob[i] * x;
            if (x <= lo) { /* fail low: at most alpha whatever the rest scores */
                *out = sum + rest;
                return true;
            }
            if (x >= hi) {
                *out = sum;
                return true;
            }
        }
        *out = sum;
        return true;
    }
    /* seat 0 raises the score, seat 1 lowers it */
    double best = who == 0 ? -1 : 2;
    for (size_t i = 0; i < n; i++) {
        memcpy(child, state, em->state_size);
        d->apply(g, child, moves[i]);
        if (who == 0) {
            if (!em_value2(a, child, depth - 1, ply + 1, best > alpha ? best : alpha, beta, &x))
                return false;
            if (x > best)
                best = x;
            if (best >= beta)
                break;
        } else {
            if (!em_value2(a, child, depth - 1, ply + 1, alpha, best < beta ? best : beta, &x))
                return false;
            if (x < best)
                best = x;
            if (best <= alpha)
                break;
        }
    }
    *out = best;
    return true;
}

/* One root move's value for the mover me; with pruning, `bound` (the best
 * value found so far, for me) narrows the window when `cut` is set. */
static bool em_root_value(pips_agent *a, const void *child, int depth, int me, bool cut,
                          double bound, double *value)
{
    em_impl *em = a->impl;
    double v[PIPS_MAX_PLAYERS];
    if (!em->prune) {
        if (!em_value(a, child, depth, 0, v))
            return false;
        *value = v[me];
        return true;
    }
    double alpha = 0, beta = 1, x;
    if (cut && me == 0)
        alpha = bound;
    else if (cut)
        beta = 1 - bound;
    if (!em_value2(a, child, depth, 0, alpha, beta, &x))
        return false;
    *value = me == 0 ? x : 1 - x;
    return true;
}

static size_t em_search(pips_agent *a, const void *state, bool exact_root, pips_error *err)
{
    em_impl *em = a->impl;
    const pips_game *g = a->game;
    double budget = agent_time_budget(a, em->time_limit);
    em->timed = budget > 0;
    em->deadline = pips_now() + budget * AGENT_TIME_SAFETY;
    em->aborted = false;
    em->nodes = 0;
    int me = g->def->to_move(g, state);
    size_t n = agent_search_moves(g, state, a->seed, a->moves, NULL);
    if (n == 0) {
        pips_fail(err, PIPS_ERR_ILLEGAL, "no legal move: the game is over");
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        em->saved[i] = (pips_move_eval){a->moves[i], 0.5, 0, false};
    int limit = em->depth_limit ? em->depth_limit : EM_MAX_DEPTH;
    /* a pure depth budget needs only its last iteration */
    bool deepen = em->timed || em->node_limit > 0;
    for (int depth = deepen ? 1 : limit; depth <= limit; depth++) {
        em->node_cap = depth > 1 ? em->node_limit : 0;
        em->nodes = 0;
        double best = -1;
        for (size_t i = 0; i < n; i++) {
            memcpy(em->buf.states, state, em->state_size);
            g->def->apply(g, em->buf.states, a->moves[i]);
            uint64_t before = em->nodes;
            em->horizon = false;
            double value;
            if (!em_root_value(a, em->buf.states, depth - 1, me, !exact_root && i > 0, best,
                               &value))
                break;
            /* a subtree seen to its ends is exact (the expected result) */
            em->buf.root[i] =
                (pips_move_eval){a->moves[i], value, em->nodes - before, !em->horizon};
            /* a later move cut off at the best so far is no better than it
             * (its value is a bound): no visits, so a tie sorts it after */
            if (value > best)
                best = value;
            else if (!exact_root && em->prune)
                em->buf.root[i].visits = 0, em->buf.root[i].proven = false;
        }
        if (em->aborted)
            break;
        memcpy(em->saved, em->buf.root, n * sizeof *em->saved);
    }
    agent_sort_evals(em->saved, n);
    a->has_last_value = true;
    a->last_value = em->saved[0].value;
    return n;
}

static void em_destroy(pips_agent *a)
{
    em_impl *em = a->impl;
    if (!em)
        return;
    const pips_allocator *al = a->game->alloc;
    agent_buffers_free(&em->buf, al);
    pips_free(al, em->saved);
    pips_free(al, em);
}

bool agent_expectimax_init(pips_agent *a, const char *params, pips_error *err)
{
    const pips_game *g = a->game;
    long depth = 0, playouts = 4, nodes = 0, prune = 1;
    double time = 0;
    char key[AGENT_KEY_MAX], value[AGENT_VALUE_MAX];
    bool bad;
    const char *p = params;
    while (agent_param_next(&p, "expectimax", key, value, &bad, err)) {
        if (!strcmp(key, "depth")) {
            if (!agent_param_long("expectimax", key, value, 1, EM_MAX_DEPTH, &depth, err))
                return false;
        } else if (!strcmp(key, "time")) {
            if (!agent_param_double("expectimax", key, value, 0.001, 86400, &time, err))
                return false;
        } else if (!strcmp(key, "nodes")) {
            if (!agent_param_long("expectimax", key, value, 1000, 2000000000L, &nodes, err))
                return false;
        } else if (!strcmp(key, "playouts")) {
            if (!agent_param_long("expectimax", key, value, 1, 1000, &playouts, err))
                return false;
        } else if (!strcmp(key, "prune")) {
            if (!agent_param_long("expectimax", key, value, 0, 1, &prune, err))
                return false;
        } else {
            return pips_fail(err, PIPS_ERR_ARG,
                             "expectimax: unknown parameter '%s' (depth, time, nodes, playouts, "
                             "prune)",
                             key);
        }
    }
    if (bad)
        return false;
    if (!depth && time == 0 && !nodes)
        depth = 2;
    const pips_allocator *al = g->alloc;
    em_impl *em = pips_calloc(al, 1, sizeof *em);
    if (!em)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
    a->impl = em;
    a->destroy = em_destroy;
    em->depth_limit = (int)depth;
    em->time_limit = time;
    em->node_limit = (uint64_t)nodes;
    em->prune = prune && pips_num_players(g) == 2;
    em->playouts = (int)playouts;
    em->max_moves = pips_max_moves(g);
    em->state_size = g->def->state_size;
    em->np = pips_num_players(g);
    bool got = agent_buffers_new(&em->buf, g, EM_MAX_PLY);
    em->saved = pips_calloc(al, em->max_moves, sizeof *em->saved);
    if (!got || !em->saved)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory for the search");
    a->rank = em_search;
    a->ranked = em->saved;
    a->choose = agent_ranked_choose;
    a->analyze = agent_ranked_analyze;
    snprintf(a->spec, sizeof a->spec, "expectimax");
    if (depth)
        agent_spec_add(a, "depth=%ld", depth);
    if (time > 0)
        agent_spec_add(a, "time=%g", time);
    if (nodes)
        agent_spec_add(a, "nodes=%ld", nodes);
    if (!prune && pips_num_players(g) == 2)
        agent_spec_add(a, "prune=0");
    if (playouts != 4 && !g->def->evaluate)
        agent_spec_add(a, "playouts=%ld", playouts);
    return true;
}
