/*
 * brs.c — Best-Reply Search for any number of seats (Schadd & Winands 2011),
 * in the BRS+ form of Esser et al. (2013), with alpha-beta pruning on the
 * root seat's value.
 *
 * The seat to move at the root maximises its own value; between two of its
 * turns the other seats together make one "best reply": in each such phase
 * exactly one opponent searches all its moves (the one that hurts the root
 * seat most, over every choice of opponent), while the others play a policy
 * move. Schadd's original BRS lets the other opponents pass, which no game
 * here allows (a seat cannot be skipped through the game interface), so the
 * others play, as in BRS+, the move a policy gives them: others=greedy (the
 * default; their best child by the evaluate hook) or others=order (the
 * order_moves hook's first move, Esser's "move ordering" policy). A phase in
 * which every opponent played its policy move is searched as well.
 *
 * depth counts layers: the root seat's turn is one, each reply phase is
 * one (depth=2: my move, then the best reply). A turn of several decisions
 * by one seat stays in its layer; chance nodes are averaged over their
 * outcomes with a full window. Leaves are valued by the evaluate hook (or
 * playouts), terminals by their returns, quicker wins first.
 *
 * Budget: depth=D (iterative deepening to D), time=T (deepening until the
 * time is spent, the last finished depth decides), nodes=N (the same with
 * a cap on the nodes of one move's search: deterministic), or several;
 * depth 1 always finishes. Root moves meet
 * in an order shuffled by the agent's rng, so equal moves are chosen by the
 * seed; everything else is deterministic.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ai/agent_impl.h"

#define BRS_MAX_PLY 200
#define BRS_MAX_DEPTH 32
#define BRS_INF 10.0

enum { OTHERS_GREEDY, OTHERS_ORDER };

typedef struct brs_impl {
    int depth_limit;   /* 0: none (time only) */
    double time_limit; /* 0: none */
    int playouts;
    int others;
    int np, root_seat;
    size_t state_size, max_moves;
    agent_buffers buf;   /* BRS_MAX_PLY plies; root: the last finished depth's values */
    int *order;          /* max_moves */
    double *root_values; /* the depth in progress */
    pips_rng rng;         /* leaf playouts, drawn per search */
    double deadline;
    bool timed; /* this search has a deadline (own budget or the caller's cap) */
    bool aborted, hit_horizon;
    uint64_t nodes;      /* this depth's */
    uint64_t node_cap;   /* 0: none; else a cap on one move's nodes past depth 1 */
    uint64_t all_nodes;  /* this move's */
    int depth_now;
} brs_impl;

static unsigned char *state_at(brs_impl *b, int ply)
{
    return b->buf.states + (size_t)ply * b->state_size;
}

static pips_move *moves_at(brs_impl *b, int ply)
{
    return b->buf.moves + (size_t)ply * b->max_moves;
}

/* The root seat's value of a non-terminal leaf. */
static double leaf_value(pips_agent *a, brs_impl *b, const void *st)
{
    double v[PIPS_MAX_PLAYERS];
    agent_leaf_values(a->game, st, &b->rng, b->playouts, b->buf.scratch, b->buf.playout_moves, v);
    return v[b->root_seat];
}

/* Moves of the decision node at ply, best first for its mover by the
 * order_moves hook when the game has one. */
static size_t ordered_moves(pips_agent *a, brs_impl *b, int ply)
{
    const pips_game *g = a->game;
    pips_move *mv = moves_at(b, ply);
    size_t n = agent_search_moves(g, state_at(b, ply), a->seed, mv, NULL);
    if (n > 1 && g->def->order_moves) {
        g->def->order_moves(g, state_at(b, ply), mv, n, b->order);
        for (size_t i = 1; i < n; i++) { /* stable insertion sort, best first */
            pips_move m = mv[i];
            int sc = b->order[i];
            size_t j = i;
            while (j > 0 && b->order[j - 1] < sc) {
                mv[j] = mv[j - 1];
                b->order[j] = b->order[j - 1];
                j--;
            }
            mv[j] = m;
            b->order[j] = sc;
        }
    }
    return n;
}

/* The policy move of seat who at ply (an opponent that does not search):
 * greedy, its best child by the returns or the evaluate hook (the first of
 * equal ones), or the order hook's first move. */
static pips_move policy_move(pips_agent *a, brs_impl *b, int ply, int who)
{
    const pips_game *g = a->game;
    const pips_game_def *d = g->def;
    size_t n = ordered_moves(a, b, ply);
    pips_move *mv = moves_at(b, ply);
    if (b->others == OTHERS_ORDER || n == 1)
        return mv[0];
    double best = -1, v[PIPS_MAX_PLAYERS];
    size_t pick = 0;
    for (size_t i = 0; i < n; i++) {
        memcpy(b->buf.scratch, state_at(b, ply), b->state_size);
        d->apply(g, b->buf.scratch, mv[i]);
        if (d->to_move(g, b->buf.scratch) == PIPS_OVER)
            d->returns(g, b->buf.scratch, v);
        else if (d->evaluate)
            d->evaluate(g, b->buf.scratch, v);
        else
            v[who] = 0.5;
        if (v[who] > best + 1e-12) {
            best = v[who];
            pick = i;
        }
    }
    return mv[pick];
}

/* The root seat's value of the state at ply. side_prev: the side (0 the
 * root seat, 1 the others) of the last decision above; depth: layers left;
 * searched: the opponent searching in this reply phase (-1 none yet);
 * passed: the opponents that played their policy move in this phase. */
static double brs_search(pips_agent *a, brs_impl *b, int ply, int depth, int side_prev,
                         int searched, unsigned passed, double alpha, double beta)
{
    const pips_game *g = a->game;
    const pips_game_def *d = g->def;
    const unsigned char *st = state_at(b, ply);
    b->nodes++;
    if (agent_budget_spent(++b->all_nodes, b->timed, b->deadline,
                           b->depth_now > 1 ? b->node_cap : 0))
        b->aborted = true;
    if (b->aborted)
        return 0;
    int who = d->to_move(g, st);
    if (who == PIPS_OVER) {
        double r[PIPS_MAX_PLAYERS];
        d->returns(g, st, r);
        /* quicker wins and slower losses first */
        double step = 0.01 * (BRS_MAX_PLY - ply) / BRS_MAX_PLY, v = r[b->root_seat];
        return v >= 1 ? v + step : v <= 0 ? v - step : v;
    }
    if (ply >= BRS_MAX_PLY) {
        b->hit_horizon = true;
        return leaf_value(a, b, st);
    }
    unsigned char *child = state_at(b, ply + 1);
    if (who == PIPS_CHANCE) {
        double *prob = b->buf.prob + (size_t)ply * b->max_moves;
        size_t n = d->chance_outcomes(g, st, moves_at(b, ply), prob);
        double v = 0;
        for (size_t i = 0; i < n && !b->aborted; i++) {
            memcpy(child, st, b->state_size);
            d->apply(g, child, moves_at(b, ply)[i]);
            v += prob[i] * brs_search(a, b, ply + 1, depth, side_prev, searched, passed,
                                      -BRS_INF, BRS_INF);
        }
        return v;
    }
    int side = who != b->root_seat;
    if (side != side_prev) {
        if (--depth <= 0) {
            b->hit_horizon = true;
            return leaf_value(a, b, st);
        }
        if (side == 1) { /* a new reply phase */
            searched = -1;
            passed = 0;
        }
    }
    bool policy_only = side == 1 && searched != who && (searched >= 0 || (passed >> who & 1));
    double best = side == 0 ? -BRS_INF : BRS_INF;
    if (side == 1 && searched < 0 && b->np == 2)
        searched = who; /* one opponent: it always replies */
    if (policy_only || (side == 1 && searched < 0)) {
        /* this opponent plays its policy move (and, when nobody searched
         * yet, may instead be the one that searches, below) */
        pips_move m = policy_move(a, b, ply, who);
        memcpy(child, st, b->state_size);
        d->apply(g, child, m);
        double v = brs_search(a, b, ply + 1, depth, side, searched, passed | 1u << who, alpha,
                              beta);
        if (policy_only || v <= alpha || b->aborted)
            return v;
        best = v; /* the line in which every opponent plays its policy */
        beta = v < beta ? v : beta;
        searched = who;
    }
    size_t n = ordered_moves(a, b, ply);
    bool maximise = side == 0;
    for (size_t i = 0; i < n; i++) {
        memcpy(child, st, b->state_size);
        d->apply(g, child, moves_at(b, ply)[i]);
        double v = brs_search(a, b, ply + 1, depth, side, searched, passed, alpha, beta);
        if (b->aborted)
            return 0;
        if (maximise ? v > best : v < best)
            best = v;
        if (maximise && best > alpha)
            alpha = best;
        if (!maximise && best < beta)
            beta = best;
        if (alpha >= beta)
            break;
    }
    return best;
}

/* One root search to depth; values of every root move in root_values (a
 * full window for each when all is set, else alpha-beta bounds). */
static void brs_root(pips_agent *a, brs_impl *b, size_t n, int depth, bool all)
{
    const pips_game *g = a->game;
    double alpha = -BRS_INF;
    for (size_t i = 0; i < n && !b->aborted; i++) {
        memcpy(state_at(b, 1), state_at(b, 0), b->state_size);
        g->def->apply(g, state_at(b, 1), b->buf.root[i].move);
        double v = brs_search(a, b, 1, depth, 0, -1, 0, all ? -BRS_INF : alpha, BRS_INF);
        b->root_values[i] = v;
        if (v > alpha)
            alpha = v;
    }
}

/* Deepens to the budget; b->buf.root holds the moves, best first, with the
 * last finished depth's values. */
static size_t brs_run(pips_agent *a, const void *state, bool all, pips_error *err)
{
    brs_impl *b = a->impl;
    const pips_game *g = a->game;
    b->root_seat = g->def->to_move(g, state);
    memcpy(state_at(b, 0), state, b->state_size);
    size_t n = agent_search_moves(g, state, a->seed, moves_at(b, 0), NULL);
    if (n == 0) {
        pips_fail(err, PIPS_ERR_ILLEGAL, "no legal move: the game is over");
        return 0;
    }
    for (size_t i = n; i > 1; i--) { /* equal moves are chosen by the seed */
        size_t j = (size_t)pips_rng_below(&a->rng, i);
        pips_move m = moves_at(b, 0)[i - 1];
        moves_at(b, 0)[i - 1] = moves_at(b, 0)[j];
        moves_at(b, 0)[j] = m;
    }
    for (size_t i = 0; i < n; i++)
        b->buf.root[i] = (pips_move_eval){moves_at(b, 0)[i], 0.5, 0, false};
    pips_rng_derive(&b->rng, pips_rng_next(&a->rng), 0);
    double budget = agent_time_budget(a, b->time_limit);
    b->timed = budget > 0;
    b->deadline = pips_now() + budget * AGENT_TIME_SAFETY;
    b->aborted = false;
    b->all_nodes = 0;
    int limit = b->depth_limit ? b->depth_limit : BRS_MAX_DEPTH;
    /* depth 1 is the root seat's own move: values of the children */
    for (int depth = 1; depth <= limit; depth++) {
        b->hit_horizon = false;
        b->nodes = 0;
        b->depth_now = depth;
        brs_root(a, b, n, depth, all);
        if (b->aborted && depth > 1)
            break; /* keep the last finished depth (depth 1 always finishes) */
        for (size_t i = 0; i < n; i++) {
            b->buf.root[i].value = b->root_values[i];
            b->buf.root[i].visits = b->nodes;
        }
        /* best first, stable: the next depth meets the best move first */
        for (size_t i = 1; i < n; i++) {
            pips_move_eval e = b->buf.root[i];
            size_t j = i;
            while (j > 0 && b->buf.root[j - 1].value < e.value) {
                b->buf.root[j] = b->buf.root[j - 1];
                j--;
            }
            b->buf.root[j] = e;
        }
        if (b->aborted || !b->hit_horizon)
            break;
    }
    for (size_t i = 0; i < n; i++) {
        pips_move_eval *e = &b->buf.root[i];
        memcpy(b->buf.scratch, state, b->state_size);
        g->def->apply(g, b->buf.scratch, e->move);
        e->proven = g->def->to_move(g, b->buf.scratch) == PIPS_OVER;
        e->value = e->value < 0 ? 0 : e->value > 1 ? 1 : e->value;
    }
    a->has_last_value = true;
    a->last_value = b->buf.root[0].value;
    return n;
}

static void brs_destroy(pips_agent *a)
{
    brs_impl *b = a->impl;
    if (!b)
        return;
    const pips_allocator *al = a->game->alloc;
    agent_buffers_free(&b->buf, al);
    pips_free(al, b->order);
    pips_free(al, b->root_values);
    pips_free(al, b);
}

bool agent_brs_init(pips_agent *a, const char *params, pips_error *err)
{
    const pips_game *g = a->game;
    long depth = 0, playouts = 4, nodes = 0;
    double time = 0;
    int others = OTHERS_GREEDY;
    char key[AGENT_KEY_MAX], value[AGENT_VALUE_MAX];
    bool bad;
    const char *p = params;
    while (agent_param_next(&p, "brs", key, value, &bad, err)) {
        bool ok = true;
        if (!strcmp(key, "depth"))
            ok = agent_param_long("brs", key, value, 1, BRS_MAX_DEPTH, &depth, err);
        else if (!strcmp(key, "time"))
            ok = agent_param_double("brs", key, value, 0.001, 86400, &time, err);
        else if (!strcmp(key, "playouts"))
            ok = agent_param_long("brs", key, value, 1, 10000, &playouts, err);
        else if (!strcmp(key, "nodes"))
            ok = agent_param_long("brs", key, value, 1, 4000000000L, &nodes, err);
        else if (!strcmp(key, "others")) {
            if (!strcmp(value, "greedy") || !strcmp(value, "order"))
                others = !strcmp(value, "greedy") ? OTHERS_GREEDY : OTHERS_ORDER;
            else
                return pips_fail(err, PIPS_ERR_ARG, "brs: others='%s' must be greedy or order",
                                 value);
        } else
            return pips_fail(err, PIPS_ERR_ARG,
                             "brs: unknown parameter '%s' (depth, time, nodes, playouts, others)", key);
        if (!ok)
            return false;
    }
    if (bad)
        return false;
    if (!depth && time == 0)
        depth = 2;
    const pips_allocator *al = g->alloc;
    brs_impl *b = pips_calloc(al, 1, sizeof *b);
    if (!b)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
    a->impl = b;
    a->destroy = brs_destroy;
    b->depth_limit = (int)depth;
    b->node_cap = (uint64_t)nodes;
    b->time_limit = time;
    b->playouts = (int)playouts;
    b->others = others;
    b->np = pips_num_players(g);
    b->state_size = g->def->state_size;
    b->max_moves = pips_max_moves(g);
    bool got = agent_buffers_new(&b->buf, g, BRS_MAX_PLY);
    b->order = pips_calloc(al, b->max_moves, sizeof *b->order);
    b->root_values = pips_calloc(al, b->max_moves, sizeof *b->root_values);
    if (!got || !b->order || !b->root_values)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
    a->rank = brs_run;
    a->ranked = b->buf.root;
    a->choose = agent_ranked_choose;
    a->analyze = agent_ranked_analyze;
    snprintf(a->spec, sizeof a->spec, "brs");
    if (depth)
        agent_spec_add(a, "depth=%ld", depth);
    if (time > 0)
        agent_spec_add(a, "time=%g", time);
    if (nodes)
        agent_spec_add(a, "nodes=%ld", nodes);
    if (playouts != 4 && !g->def->evaluate)
        agent_spec_add(a, "playouts=%ld", playouts);
    if (others == OTHERS_ORDER)
        agent_spec_add(a, "others=order");
    return true;
}
