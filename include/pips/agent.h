/*
 * pips/agent.h — players that choose moves through the game interface only,
 * so every agent serves every game. An agent is made from a spec string:
 *   "random", "greedy", "alphabeta:depth=6", "mcts:iters=1000",
 *   "mcts:hard", "hard" (a named strength level: easy, medium, hard, max,
 *   mapped per game to an agent and a budget).
 * Every agent is deterministic for a given seed when its budget is in
 * iterations or depth (not time).
 */
#ifndef PIPS_AGENT_H
#define PIPS_AGENT_H

#include "pips/game.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pips_agent pips_agent;

/* One ranked move of an analysis: value in [0, 1] for the player to move. */
typedef struct pips_move_eval {
    pips_move move;
    double value;
    uint64_t visits; /* MCTS visits, or searched nodes; 0 when not meaningful */
} pips_move_eval;

/* Builds an agent from spec; false/NULL with *err naming the bad part. */
pips_agent *pips_agent_new(const pips_game *g, const char *spec, uint64_t seed,
                           pips_error *err);
void pips_agent_free(pips_agent *a);
/* The spec it was made from, normalised (e.g. "mcts:iters=10000"). */
const char *pips_agent_spec(const pips_agent *a);
/* Chooses a move for the seat to move in state (a decision node). */
bool pips_agent_choose(pips_agent *a, const void *state, pips_move *out, pips_error *err);
/* Ranks up to max moves best first; returns how many were written. */
size_t pips_agent_analyze(pips_agent *a, const void *state, pips_move_eval *out, size_t max,
                          pips_error *err);
/* Tells the agent a move was played (for tree reuse). May be ignored. */
void pips_agent_observe(pips_agent *a, const void *state_before, pips_move m);

/* Agent kinds, for help texts: NULL-terminated list of names. */
const char *const *pips_agent_kinds(void);

#ifdef __cplusplus
}
#endif
#endif
