/*
 * play_json.h — the library's one reader of game options given as JSON
 * (records, the server's API and its store all use it). Private to the
 * project: it takes jansson values; the public text form is
 * pips_game_new_json in pips/match.h.
 */
#ifndef PIPS_PLAY_JSON_H
#define PIPS_PLAY_JSON_H

#include <jansson.h>

#include "pips/game.h"

/* Builds game `name` with the options in `options`, a JSON object whose
 * values are strings, numbers or booleans (NULL or null: every default).
 * Any other value, or a non-object, is an error naming the key; a bad key or
 * value is refused by the game as with pips_game_new. */
pips_game *play_game_from_json(const char *name, const json_t *options,
                               const pips_allocator *alloc, pips_error *err);
/* The "key=value" strings of a JSON object of options (as above), for calls
 * that take options that way (pips_game_new, the playtest lab). */
typedef struct play_kv {
    size_t n;
    const char *kv[PIPS_MAX_OPTIONS]; /* point into buf */
    char buf[PIPS_MAX_OPTIONS][PIPS_OPT_KEY_MAX + PIPS_OPT_VALUE_MAX + 2];
} play_kv;
bool play_options_kv(const json_t *options, play_kv *out, pips_error *err);
/* One option value (string, number or boolean) as the text a game reads;
 * false with *err naming key for any other JSON value or a too long text. */
bool play_value_text(const char *key, const json_t *val, char *buf, size_t size,
                     pips_error *err);
/* The game's options as a JSON object of strings (new reference). */
/* The same with a record's "script" object {"file", "sha256", "text"} (or
 * NULL): the game runs that text, checked against its SHA-256. */
pips_game *play_game_from_json_script(const char *name, const json_t *options,
                                      const json_t *script, const pips_allocator *alloc,
                                      pips_error *err);
json_t *play_options_to_json(const pips_game *g);

#endif
