/*
 * pips/ffi.h — libpips for other languages (Python's `import pips` through
 * cffi, ctypes, Lua's FFI...): calls that take and give only handles,
 * numbers, strings and buffers, so a binding never copies a struct layout
 * that may grow. The large requests (solve, playtest, ladder) are JSON
 * objects in and JSON documents out, the same documents the command writes.
 *
 * Every call checks its handles: a NULL game, state or text gives false (or
 * 0, NULL, PIPS_OVER as said) with *err, never a crash. A state must come
 * from pips_state_new: each call checks it against its game with
 * pips_state_check, so a state of another game, of the same game with
 * other options, or a pointer whose tag is not pips_state_new's is refused
 * (PIPS_ERR_ARG) before any byte of it is read as a position. No call keeps
 * a pointer it was given; text comes back in a pips_str the caller
 * initialised and frees.
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

/* The seat to move, PIPS_CHANCE or PIPS_OVER (also for a NULL game or a
 * state pips_state_check refuses). */
int pips_state_to_move(const pips_game *g, const void *state);
/* The moves at any node into out (pips_game_max_moves entries): the legal
 * moves of a decision, or the outcomes of a chance node with their
 * probabilities in prob (which may be NULL); 0 once the game is over. rng
 * draws Noname's candidate moves (the game lists a sample, not every
 * move): it is needed there, and may be NULL elsewhere. Returns the count;
 * on a refused call 0 with err->code set (err->code is PIPS_OK after a call
 * that succeeded, when err is given). */
size_t pips_state_moves(const pips_game *g, const void *state, pips_rng *rng, pips_move *out,
                        double *prob, pips_error *err);
/* Parses move text and checks that the move is legal here; *m gets it. */
bool pips_move_parse(const pips_game *g, const void *state, const char *text, pips_move *m,
                     pips_error *err);
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
/* The canonical form of state into out (another state of g; it may be state
 * itself): one position stands for every position the game's symmetries
 * make equivalent (Nimitz: the board's rotations and reflections with
 * colours and orientations renamed), so two positions are the same up to
 * symmetry exactly when their canonical forms' texts are equal. A game
 * without symmetries is refused (PIPS_ERR_ARG) and out is left as it was. */
bool pips_state_canonical(const pips_game *g, const void *state, void *out, pips_error *err);
/* The terminal drawing (ASCII, or with box drawing when unicode), no colour. */
bool pips_state_render(const pips_game *g, const void *state, bool unicode, pips_str *out,
                       pips_error *err);
/* The state object of pips/view.h (`pips state --json`) as JSON text. */
bool pips_state_view_json(const pips_game *g, const void *state, pips_str *out,
                          pips_error *err);

/* Counts the move sequences of exactly depth plies from state (pips_perft_count). */
bool pips_state_perft(const pips_game *g, const void *state, int depth, uint64_t *count,
                      pips_error *err);

/* ---- agents ------------------------------------------------------------------- */

typedef struct pips_agent pips_agent; /* pips/agent.h: pips_agent_new, pips_agent_free */
/* The agent's move for the seat to move in state (pips_agent_choose), the
 * state checked against the agent's game first. */
bool pips_agent_move(pips_agent *a, const void *state, pips_move *out, pips_error *err);
/* Tells the agent that m was played from state_before, by any seat or the
 * dice (pips_agent_observe: MCTS keeps the subtree for its next search),
 * after checking the state against the agent's game and m's legality there:
 * false with *err and the agent untouched when either is wrong. */
bool pips_agent_observe_move(pips_agent *a, const void *state_before, pips_move m,
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
