/*
 * lua_games.h — game definitions built at run time from Lua (internal):
 * rule scripts over a built-in game (lua_rules.c) and whole games
 * (lua_game.c). Both are ordinary pips_game_defs, held by reference count
 * (def->hold), so every tool runs them through the one game interface.
 */
#ifndef PIPS_LUA_GAMES_H
#define PIPS_LUA_GAMES_H

#include "pips/game.h"

/* The definition a game built from def with the option rules=RULES uses:
 * def itself when RULES is NULL or "none" and def runs no rule script (its
 * built-in base when it does), else a variant of the built-in base running
 * the script read from the file RULES, or from text when text is non-NULL.
 * steps (the lua_steps option's text, or NULL) bounds loading it.
 * *held says the caller must release *out (hold -1) when done. */
bool plua_resolve(const pips_game_def *def, const char *rules, const char *text,
                  const char *steps, const pips_game_def **out, bool *held, pips_error *err);

/* A whole game in Lua from the file (or from text when non-NULL; file then
 * names it in messages). The caller holds one reference. */
const pips_game_def *plua_game_def(const char *file, const char *text, pips_error *err);

/* pips_game_new_def with the text of the rule script named by rules=. */
pips_game *pips_game_new_def_text(const pips_game_def *def, const char *const *kv, size_t n,
                                  const char *text, const pips_allocator *alloc,
                                  pips_error *err);

/* Shared by both kinds: the schema entries every Lua-backed game adds. */
#define PLUA_STEPS_HELP "instructions allowed per call into the script (the sandbox's step limit)"
#define PLUA_MB_HELP "memory of each of the script's Lua states, in MiB (the sandbox's limit)"
void plua_limit_options(pips_option_def *steps, pips_option_def *mb);
/* "player 2 wins" (seats from 1, for people), "draw", or "returns 1/0.5/0". */
void plua_returns_text(const double *r, int np, pips_str *out);
/* Reads lua_steps and lua_mb from g's options. */
bool plua_limits(const pips_game *g, long *steps, long *mb, pips_error *err);

#endif
