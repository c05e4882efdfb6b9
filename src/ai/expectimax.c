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
    int playouts;
    size_t max_moves, state_size;
    int np;
    pips_move *moves;       /* EM_MAX_PLY * max_moves */
    double *prob;           /* EM_MAX_PLY * max_moves */
    unsigned char *states;  /* (EM_MAX_PLY + 1) * state_size */
    unsigned char *scratch;
    pips_move *playout_moves;
    pips_move_eval *root, *saved;
    double deadline;
    uint64_t node_cap; /* the cap of the depth being searched, 0 when none */
    bool aborted;
    bool horizon; /* a leaf was valued by a heuristic, not by the game's end */
    uint64_t nodes;
} em_impl;

static bool em_value(pips_agent *a, const void *state, int depth, int ply, double *out)
{
    em_impl *em = a->impl;
    const pips_game *g = a->game;
    const pips_game_def *d = g->def;
    em->nodes++;
    if (em->time_limit > 0 && (em->nodes & 15) == 0 && pips_now() > em->deadline)
        em->aborted = true;
    if (em->node_cap && em->nodes > em->node_cap)
        em->aborted = true;
    if (em->aborted)
        return false;
    int who = d->to_move(g, state);
    if (who == PIPS_OVER) {
        d->returns(g, state, out);
        return true;
    }
    if ((who >= 0 && depth <= 0) || ply >= EM_MAX_PLY) {
        em->horizon = true;
        agent_leaf_values(g, state, &a->rng, em->playouts, em->scratch, em->playout_moves,
                          out);
        return true;
    }
    pips_move *moves = em->moves + (size_t)ply * em->max_moves;
    double *prob = em->prob + (size_t)ply * em->max_moves;
    size_t n = agent_search_moves(g, state, a->seed, moves, prob);
    if (n == 0) {
        em->horizon = true;
        agent_leaf_values(g, state, &a->rng, em->playouts, em->scratch, em->playout_moves,
                          out);
        return true;
    }
    unsigned char *child = em->states + (size_t)(ply + 1) * em->state_size;
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

static size_t em_search(pips_agent *a, const void *state, pips_error *err)
{
    em_impl *em = a->impl;
    const pips_game *g = a->game;
    em->deadline = pips_now() + em->time_limit * AGENT_TIME_SAFETY;
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
    double v[PIPS_MAX_PLAYERS];
    /* a pure depth budget needs only its last iteration */
    bool deepen = em->time_limit > 0 || em->node_limit > 0;
    for (int depth = deepen ? 1 : limit; depth <= limit; depth++) {
        em->node_cap = depth > 1 ? em->node_limit : 0;
        em->nodes = 0;
        for (size_t i = 0; i < n; i++) {
            memcpy(em->states, state, em->state_size);
            g->def->apply(g, em->states, a->moves[i]);
            uint64_t before = em->nodes;
            em->horizon = false;
            if (!em_value(a, em->states, depth - 1, 0, v))
                break;
            /* a subtree seen to its ends is exact (the expected result) */
            em->root[i] = (pips_move_eval){a->moves[i], v[me], em->nodes - before, !em->horizon};
        }
        if (em->aborted)
            break;
        memcpy(em->saved, em->root, n * sizeof *em->saved);
    }
    agent_sort_evals(em->saved, n);
    a->has_last_value = true;
    a->last_value = em->saved[0].value;
    return n;
}

static bool em_choose(pips_agent *a, const void *state, pips_move *out, pips_error *err)
{
    em_impl *em = a->impl;
    if (!em_search(a, state, err))
        return false;
    *out = em->saved[0].move;
    return true;
}

static size_t em_analyze(pips_agent *a, const void *state, pips_move_eval *out, size_t max,
                         pips_error *err)
{
    em_impl *em = a->impl;
    size_t n = em_search(a, state, err);
    if (n > max)
        n = max;
    memcpy(out, em->saved, n * sizeof *out);
    return n;
}

static void em_destroy(pips_agent *a)
{
    em_impl *em = a->impl;
    if (!em)
        return;
    const pips_allocator *al = a->game->alloc;
    pips_free(al, em->moves);
    pips_free(al, em->prob);
    pips_free(al, em->states);
    pips_free(al, em->scratch);
    pips_free(al, em->playout_moves);
    pips_free(al, em->root);
    pips_free(al, em->saved);
    pips_free(al, em);
}

bool agent_expectimax_init(pips_agent *a, const char *params, pips_error *err)
{
    const pips_game *g = a->game;
    long depth = 0, playouts = 4, nodes = 0;
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
        } else {
            return pips_fail(err, PIPS_ERR_ARG,
                             "expectimax: unknown parameter '%s' (depth, time, nodes, playouts)",
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
    em->playouts = (int)playouts;
    em->max_moves = pips_max_moves(g);
    em->state_size = g->def->state_size;
    em->np = pips_num_players(g);
    em->moves = pips_calloc(al, (size_t)EM_MAX_PLY * em->max_moves, sizeof *em->moves);
    em->prob = pips_calloc(al, (size_t)EM_MAX_PLY * em->max_moves, sizeof *em->prob);
    em->states = pips_calloc(al, EM_MAX_PLY + 1, em->state_size);
    em->scratch = pips_calloc(al, 1, em->state_size);
    em->playout_moves = pips_calloc(al, em->max_moves, sizeof *em->playout_moves);
    em->root = pips_calloc(al, em->max_moves, sizeof *em->root);
    em->saved = pips_calloc(al, em->max_moves, sizeof *em->saved);
    if (!em->moves || !em->prob || !em->states || !em->scratch || !em->playout_moves ||
        !em->root || !em->saved)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory for the search");
    a->choose = em_choose;
    a->analyze = em_analyze;
    int len = snprintf(a->spec, sizeof a->spec, "expectimax:");
    if (depth)
        len += snprintf(a->spec + len, sizeof a->spec - (size_t)len, "depth=%ld,", depth);
    if (time > 0)
        len += snprintf(a->spec + len, sizeof a->spec - (size_t)len, "time=%g,", time);
    if (nodes)
        len += snprintf(a->spec + len, sizeof a->spec - (size_t)len, "nodes=%ld,", nodes);
    if (playouts != 4 && !g->def->evaluate)
        len += snprintf(a->spec + len, sizeof a->spec - (size_t)len, "playouts=%ld,", playouts);
    a->spec[len - 1] = '\0';
    return true;
}
