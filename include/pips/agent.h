/*
 * pips/agent.h — players that choose moves through the game interface only,
 * so every agent serves every game. An agent is made from a spec string:
 *   "random", "greedy", "alphabeta:depth=6", "alphabeta:time=0.5",
 *   "expectimax:depth=3", "mcts:iters=1000", "mcts:time=1,threads=2",
 *   "mcts:hard", "hard" (a named strength level: easy, medium, hard, max,
 *   mapped per game to an agent and a budget). docs/ai.md lists every
 *   parameter. A time budget is never exceeded by more than 10%.
 * Every agent is deterministic for a given seed when its budget is in
 * iterations or depth (not time).
 */
#ifndef PIPS_AGENT_H
#define PIPS_AGENT_H

#include "pips/game.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* exported from libpips.so */
#endif

typedef struct pips_agent pips_agent;

/* One ranked move of an analysis: value in [0, 1] for the player to move.
 * proven: the value is the game's exact result under best play (1 a win, 0 a
 * loss, 0.5 a two-seat draw), not an estimate; for games whose moves come
 * from the candidates hook it is exact among the candidate moves searched. */
typedef struct pips_move_eval {
    pips_move move;
    double value;
    uint64_t visits; /* MCTS visits, or searched nodes; 0 when not meaningful */
    bool proven;
} pips_move_eval;

/* The longest agent spec, with its NUL, as given and once normalised
 * (pips_agent_spec): a spec that is longer either way is refused by
 * pips_agent_new, so every agent's spec fits a match seat (PIPS_SEAT_MAX). */
#define PIPS_SPEC_MAX 256

/* Builds an agent from spec; false/NULL with *err naming the bad part. */
pips_agent *pips_agent_new(const pips_game *g, const char *spec, uint64_t seed,
                           pips_error *err);
void pips_agent_free(pips_agent *a);
/* The spec it was made from, normalised (e.g. "mcts:iters=10000"). */
const char *pips_agent_spec(const pips_agent *a);
/* The game it plays (NULL for NULL). */
const pips_game *pips_agent_game(const pips_agent *a);
/* For people: the spec, after the level it was asked for when it was made
 * from one: "hard (mcts:iters=10000)", "mcts:hard (mcts:iters=10000)",
 * "random". Writes at most size bytes (PIPS_AGENT_LABEL_MAX is enough) and
 * returns buf. */
#define PIPS_AGENT_LABEL_MAX (PIPS_SPEC_MAX + 48)
const char *pips_agent_label(const pips_agent *a, char *buf, size_t size);
/* Chooses a move for the seat to move in state (a decision node). state must
 * come from pips_state_new for the agent's game and options: another is
 * refused with PIPS_ERR_ARG (pips_state_check), as in analyze; observe,
 * which cannot fail, ignores it. */
bool pips_agent_choose(pips_agent *a, const void *state, pips_move *out, pips_error *err);
/* Ranks up to max moves best first; returns how many were written. */
size_t pips_agent_analyze(pips_agent *a, const void *state, pips_move_eval *out, size_t max,
                          pips_error *err);
/* The most moves analyze can rank at one position: a buffer this long gets
 * them all. It is the game's pips_max_moves except where the agent widens the
 * root (mcts draws=K on a game whose moves are sampled: K times as many). */
size_t pips_agent_analyze_max(const pips_agent *a);
/* Writes an evaluation's value for people into buf (at least 16 bytes):
 * "win", "loss" or "draw" (two seats) when proven, "=0.3333" for another
 * proven share, otherwise the estimate "0.4714". */
void pips_move_eval_text(const pips_move_eval *e, int num_players, char *buf, size_t size);
/* Caps the time of every later choose/analyze at `seconds` (0 removes the
 * cap), whatever the agent's own budget: a caller with a clock (the server)
 * gives each move its share this way. Every kind honours it within the usual
 * 10% (greedy ranks the moves it looked at in time; random is instant); a
 * budget of iterations or depth cut short by the cap is then no longer
 * deterministic. */
void pips_agent_set_time_cap(pips_agent *a, double seconds);
/* Tells the agent a move was played (for tree reuse). May be ignored. */
void pips_agent_observe(pips_agent *a, const void *state_before, pips_move m);

/* Agent kinds and strength levels, for help texts: NULL-terminated names. */
const char *const *pips_agent_kinds(void);

/* Every agent kind, for listings and completion: its name, what it does,
 * and its parameters with their defaults in parentheses. */
typedef struct pips_agent_kind_info {
    const char *name;
    const char *summary;
    const char *params;
} pips_agent_kind_info;
size_t pips_agent_kind_count(void);
const pips_agent_kind_info *pips_agent_kind_at(size_t i);

/* The root value (in [0, 1], for the seat that moved) of the agent's last
 * choose/analyze when it searched (alphabeta, expectimax, mcts): true and
 * *value set, or false when there is none. */
bool pips_agent_last_value(const pips_agent *a, double *value);

/* What the agent's last choose/analyze did when it has something to say
 * (the oracle: "solved: win ..." or "not solved (...); hard chose"), else "". */
const char *pips_agent_note(const pips_agent *a);

/* The spec a bare strength level ("easy", "medium", "hard", "max") stands
 * for in game g with its configured seat count (the game's two-seat row,
 * or its row for 3, 4, 5+ seats), or NULL for an unknown level. A bare
 * level makes exactly this agent: there is no fallback. */
const char *pips_agent_level_spec(const pips_game *g, const char *level);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
