/*
 * greedy.c — the one-ply agent. Each move is valued by the state it leads
 * to, for the seat that plays it: the returns when the game ends there,
 * otherwise the game's evaluate hook, otherwise an even 0.5 (only immediate
 * results are known). A chance node right after the move is averaged over
 * its outcomes. Ties among the best moves are broken with the agent's rng.
 * noise=P (0 by default) plays, with chance P, a uniformly random one of the
 * moves greedy would weigh instead (in a game whose moves are sampled, one of
 * that sample): a weaker agent between random and greedy for the levels of
 * games where greedy is already a large step above random (docs/ai.md).
 *
 * Invariant: the moves are listed the same way for the same state (see
 * agent_search_moves), so a seed fixes every choice.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ai/agent_impl.h"

typedef struct greedy_impl {
    unsigned char *child, *grandchild;
    pips_move *outcomes;
    double *prob;
    pips_move_eval *evals;
    double noise; /* chance of a uniformly random move; 0 draws nothing from the rng */
} greedy_impl;

double agent_greedy_value(const pips_game *g, const void *st, int mover, bool expand_chance,
                          void *scratch, pips_move *outcomes, double *prob)
{
    const pips_game_def *d = g->def;
    double v[PIPS_MAX_PLAYERS];
    int who = d->to_move(g, st);
    if (who == PIPS_OVER) {
        d->returns(g, st, v);
        return v[mover];
    }
    if (who == PIPS_CHANCE && expand_chance) {
        size_t n = d->chance_outcomes(g, st, outcomes, prob);
        double total = 0;
        for (size_t i = 0; i < n; i++) {
            memcpy(scratch, st, d->state_size);
            d->apply(g, scratch, outcomes[i]);
            total += prob[i] * agent_greedy_value(g, scratch, mover, false, NULL, NULL, NULL);
        }
        return total;
    }
    if (d->evaluate) {
        d->evaluate(g, st, v);
        return v[mover];
    }
    return 0.5;
}

static size_t greedy_rank(pips_agent *a, const void *state, pips_error *err)
{
    const pips_game *g = a->game;
    const pips_game_def *d = g->def;
    greedy_impl *gi = a->impl;
    int mover = d->to_move(g, state);
    size_t n = agent_search_moves(g, state, a->seed, a->moves, NULL);
    if (n == 0) {
        pips_fail(err, PIPS_ERR_ILLEGAL, "no legal move: the game is over");
        return 0;
    }
    /* under a caller's time cap, only the moves looked at in time are ranked */
    double budget = agent_time_budget(a, 0);
    double deadline = pips_now() + budget * AGENT_TIME_SAFETY;
    for (size_t i = 0; i < n; i++) {
        if (budget > 0 && i > 0 && pips_now() > deadline)
            return i;
        memcpy(gi->child, state, d->state_size);
        d->apply(g, gi->child, a->moves[i]);
        gi->evals[i].move = a->moves[i];
        gi->evals[i].value =
            agent_greedy_value(g, gi->child, mover, true, gi->grandchild, gi->outcomes, gi->prob);
        gi->evals[i].visits = 1;
        gi->evals[i].proven = d->to_move(g, gi->child) == PIPS_OVER;
    }
    return n;
}

static bool greedy_choose(pips_agent *a, const void *state, pips_move *out, pips_error *err)
{
    greedy_impl *gi = a->impl;
    if (gi->noise > 0 && pips_rng_double(&a->rng) < gi->noise) {
        const pips_game *g = a->game;
        size_t n = agent_search_moves(g, state, a->seed, a->moves, NULL);
        if (n == 0)
            return pips_fail(err, PIPS_ERR_ILLEGAL, "no legal move: the game is over");
        *out = a->moves[pips_rng_below(&a->rng, n)];
        a->has_last_value = false;
        return true;
    }
    size_t n = greedy_rank(a, state, err);
    if (!n)
        return false;
    double best = -1;
    size_t ties = 0;
    for (size_t i = 0; i < n; i++) {
        double v = gi->evals[i].value;
        if (v > best + 1e-12) {
            best = v;
            ties = 0;
        }
        if (fabs(v - best) <= 1e-12)
            gi->evals[ties++] = gi->evals[i];
    }
    *out = gi->evals[pips_rng_below(&a->rng, ties)].move;
    a->has_last_value = true;
    a->last_value = best;
    return true;
}

static size_t greedy_analyze(pips_agent *a, const void *state, pips_move_eval *out, size_t max,
                             pips_error *err)
{
    greedy_impl *gi = a->impl;
    size_t n = greedy_rank(a, state, err);
    agent_sort_evals(gi->evals, n);
    if (n) {
        a->has_last_value = true;
        a->last_value = gi->evals[0].value;
    }
    if (n > max)
        n = max;
    memcpy(out, gi->evals, n * sizeof *out);
    return n;
}

static void greedy_destroy(pips_agent *a)
{
    greedy_impl *gi = a->impl;
    if (!gi)
        return;
    const pips_allocator *al = a->game->alloc;
    pips_free(al, gi->child);
    pips_free(al, gi->grandchild);
    pips_free(al, gi->outcomes);
    pips_free(al, gi->prob);
    pips_free(al, gi->evals);
    pips_free(al, gi);
}

bool agent_greedy_init(pips_agent *a, const char *params, pips_error *err)
{
    double noise = 0;
    char key[AGENT_KEY_MAX], value[AGENT_VALUE_MAX];
    bool bad = false;
    const char *p = params ? params : "";
    while (agent_param_next(&p, "greedy", key, value, &bad, err)) {
        if (strcmp(key, "noise"))
            return pips_fail(err, PIPS_ERR_ARG, "greedy: unknown parameter '%s' (noise)", key);
        if (!agent_param_double("greedy", key, value, 0, 1, &noise, err))
            return false;
    }
    if (bad)
        return false;
    const pips_game *g = a->game;
    const pips_allocator *al = g->alloc;
    size_t mm = pips_max_moves(g);
    greedy_impl *gi = pips_calloc(al, 1, sizeof *gi);
    if (!gi)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
    a->impl = gi;
    a->destroy = greedy_destroy;
    gi->child = pips_calloc(al, 1, g->def->state_size);
    gi->grandchild = pips_calloc(al, 1, g->def->state_size);
    gi->outcomes = pips_calloc(al, mm, sizeof *gi->outcomes);
    gi->prob = pips_calloc(al, mm, sizeof *gi->prob);
    gi->evals = pips_calloc(al, mm, sizeof *gi->evals);
    if (!gi->child || !gi->grandchild || !gi->outcomes || !gi->prob || !gi->evals)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
    a->choose = greedy_choose;
    a->analyze = greedy_analyze;
    gi->noise = noise;
    snprintf(a->spec, sizeof a->spec, "greedy");
    if (noise > 0)
        agent_spec_add(a, "noise=%g", noise);
    return true;
}
