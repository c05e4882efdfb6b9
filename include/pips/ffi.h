/*
 * pips/ffi.h — libpips for other languages (Python's `import pips` through
 * cffi, ctypes, Lua's FFI...): calls that take and give only handles,
 * numbers, strings and buffers, so a binding never copies a struct layout
 * that may grow. The large requests (solve, playtest, ladder) are JSON
 * objects in and JSON documents out, the same documents the command writes.
 *
 * Every call checks its handles: a NULL game, state or text gives false (or
 * 0, NULL, PIPS_OVER as said) with *err, never a crash. A state is trusted
 * to belong to its game (pips_state_check tells, for pips_state_new's). No
 * call keeps a pointer it was given; text comes back in a pips_str the
 * caller initialised and frees.
 */
#ifndef PIPS_FFI_H
#define PIPS_FFI_H

#include "pips/game.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* exported from libpips.so */
#endif

/* ---- games ---------------------------------------------------------------- */

/* Every game of the table as a JSON array of pips_game_schema_json objects
 * ({"name", "title", "options": [...]}), in the table's order. */
bool pips_games_json(pips_str *out, pips_error *err);
/* The game's name ("nimitz"), or "" for NULL. */
const char *pips_game_name(const pips_game *g);
/* Seats; 0 with *err for NULL. */
int pips_game_players(const pips_game *g, pips_error *err);
/* Bytes of a state, and the most moves any position lists; 0 for NULL. */
size_t pips_game_state_size(const pips_game *g);
size_t pips_game_max_moves(const pips_game *g);
/* The game's resolved options as a JSON object of strings. */
bool pips_game_options_json(const pips_game *g, pips_str *out, pips_error *err);
/* The option schema of g's definition (pips_game_schema_json), for built-in
 * and Lua games alike. */
bool pips_game_schema(const pips_game *g, pips_str *out, pips_error *err);

/* ---- states ----------------------------------------------------------------- */

/* The seat to move, PIPS_CHANCE or PIPS_OVER (also for a NULL game or state). */
int pips_state_to_move(const pips_game *g, const void *state);
/* Checked play of a move value: legal here (a decision or a chance outcome),
 * then applied; on failure state is unchanged and *err says why. */
bool pips_play(const pips_game *g, void *state, pips_move m, pips_error *err);
/* The return of every seat (pips_game_players of them) at a terminal state;
 * false with *err when the game is not over. */
bool pips_state_returns(const pips_game *g, const void *state, double *out, pips_error *err);
/* The notation of m, which must be legal in state, into buf
 * (PIPS_MOVE_TEXT_MAX bytes). */
bool pips_move_text(const pips_game *g, const void *state, pips_move m, char *buf,
                    pips_error *err);
/* The exact state text (what pips_state_set_text reads back). */
bool pips_state_text(const pips_game *g, const void *state, pips_str *out, pips_error *err);
/* Reads state text into state; on failure state is unchanged. */
bool pips_state_set_text(const pips_game *g, void *state, const char *text, pips_error *err);
/* The terminal drawing (ASCII, or with box drawing when unicode), no colour. */
bool pips_state_render(const pips_game *g, const void *state, bool unicode, pips_str *out,
                       pips_error *err);
/* The state object of pips/view.h (`pips state --json`) as JSON text. */
bool pips_state_view_json(const pips_game *g, const void *state, pips_str *out,
                          pips_error *err);

/* ---- solving ------------------------------------------------------------------ */

/* Solves state exactly. request (NULL or "" for the defaults) is a JSON
 * object with "moves" (true: the value of every legal move too), "threads"
 * (1), "table_mb" (64), "max_seconds" and "max_nodes" (0: no limit). out
 * gets {"value": "win"|"loss"|"draw", "positions", "nodes", "seconds",
 * "best": MOVE or null, "moves": [{"move": TEXT, "id": N, "value"}...]}, values
 * for the player to move in state. Fails like pips_solve_position. */
bool pips_solve_json(const pips_game *g, const void *state, const char *request,
                     pips_str *out, pips_error *err);

/* ---- the lab ------------------------------------------------------------------ */

/* Runs a playtest from a JSON request and writes its report into out: the
 * document `pips playtest` writes as report.json. The request: "game"
 * (required), "seats" (required: agent specs), "games" (100), "seed" (1),
 * "threads" (1), "options" and "vs" (objects of option values), "vary" (an
 * object of KEY: [values]), "seating" ("rotate", "all" or "fixed"),
 * "decisive" (0.8), "exact_seconds" (0), "exact_mb" (64), and "out" (a
 * directory: also write the whole report there, as `pips playtest --out`).
 * An unknown member is an error naming it. */
bool pips_playtest_request(const char *request, pips_str *out, pips_error *err);
/* Runs a ladder from a JSON request ("game", "agents" (required), "games"
 * per table (20), "seed" (1), "threads" (1), "options", "prior" (1), "out")
 * and writes its ratings as JSON (pips_ladder_json) into out. */
bool pips_ladder_request(const char *request, pips_str *out, pips_error *err);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
