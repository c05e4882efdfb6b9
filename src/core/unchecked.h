/*
 * core/unchecked.h — the library's own entry points for agents, the solver
 * and views, without the state check of their public twins. Not installed
 * and not exported (no pips_ prefix, hidden visibility).
 *
 * The public calls (pips_agent_choose, pips_solve_position, pips_state_view
 * ...) take only states from pips_state_new, and refuse with PIPS_ERR_ARG a
 * state of another game or of other options (pips_state_check reads the tag
 * before the state's bytes). The library's own callers (the CLI, the match
 * runner, the lab, the server, the agents themselves, the tests) run on
 * states on the stack and in search buffers, which carry no tag: they call
 * these instead, and answer for the (game, state) pair themselves. Each does
 * exactly what its public twin documents, NULL checks included.
 */
#ifndef PIPS_CORE_UNCHECKED_H
#define PIPS_CORE_UNCHECKED_H

#include <jansson.h>

#include "pips/agent.h"
#include "pips/game.h"

bool agent_choose_unchecked(pips_agent *a, const void *state, pips_move *out, pips_error *err);
size_t agent_analyze_unchecked(pips_agent *a, const void *state, pips_move_eval *out, size_t max,
                               pips_error *err);
void agent_observe_unchecked(pips_agent *a, const void *state_before, pips_move m);

bool solve_position_unchecked(const pips_game *g, const void *state, const pips_solve_opts *so,
                              pips_solve_result *res, pips_error *err);
bool solve_moves_unchecked(const pips_game *g, const void *state, const pips_solve_opts *so,
                           pips_solve_result *res, pips_error *err);
bool solver_moves_unchecked(pips_solver *ps, const void *state, pips_move *moves,
                            pips_value *values, pips_solve_result *res, pips_error *err);
bool solve_from_unchecked(const pips_game *g, const void *state, bool use_canonical,
                          const pips_solve_opts *so, pips_solve_result *res, pips_error *err);

json_t *state_view_unchecked(const pips_game *g, const void *state, pips_error *err);
json_t *state_object_unchecked(const pips_game *g, const void *state, pips_error *err);
char *state_json_unchecked(const pips_game *g, const void *state, pips_error *err);

#endif
