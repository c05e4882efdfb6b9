/*
 * pips/view.h — the structured view of a state: one JSON object with
 * everything a board drawing needs, so front ends (the CLI's `pips state
 * --json`, the server's game JSON, the web boards) never parse state text or
 * terminal drawings.
 *
 * The state object is {"game", "options", "to_move", "over", "view", "state"}:
 * the game's name, its resolved options (strings), the seat to move (0-based,
 * null at a chance node or the end), whether the game is over, the view and
 * the exact state text. The view always holds the generic members
 *   "players" (seats), "chance" (a chance event is due), "result" (the
 *   game's short result text), "returns" (per seat in [0, 1], only once the
 *   game is over) and "scores" (per seat, when the game keeps scores),
 * then the game's own members from its state_view hook (documented per game
 * in docs/architecture.md, section "State views"). Seats are 0-based
 * everywhere in the view.
 *
 * Objects are jansson's json_t (the library links jansson); the caller owns
 * what these functions return. None of them changes the state.
 */
#ifndef PIPS_VIEW_H
#define PIPS_VIEW_H

#include <jansson.h>

#include "pips/game.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* exported from libpips.so */
#endif

/* The view of state: the generic members and the game's. NULL with *err
 * (PIPS_ERR_NOMEM) when an allocation fails. These three take only states
 * from pips_state_new of g's game and options: NULL with *err
 * (PIPS_ERR_ARG) for another (pips_state_check). */
json_t *pips_state_view(const pips_game *g, const void *state, pips_error *err);

/* The whole state object (see above). NULL with *err on allocation failure. */
json_t *pips_state_object(const pips_game *g, const void *state, pips_error *err);

/* pips_state_object as compact JSON text, keys in the order above; free()
 * the result. NULL with *err on allocation failure. */
char *pips_state_json(const pips_game *g, const void *state, pips_error *err);

/* For state_view hooks, which build many members and report one failure:
 * obj[key] = value and arr += value, taking the reference to value (even a
 * NULL one from a failed constructor); each clears *ok when it fails. */
void pips_view_put(json_t *obj, const char *key, json_t *value, bool *ok);
void pips_view_push(json_t *arr, json_t *value, bool *ok);
/* A JSON number for a value kept in tenths (0.1 mm, 0.1 degree): 143 -> 14.3. */
json_t *pips_view_tenths(long tenths);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
