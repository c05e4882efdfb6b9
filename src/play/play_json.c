/*
 * play_json.c — game options to and from JSON objects (see play_json.h).
 * Values keep the text the game reads: integers print in decimal, other
 * numbers with up to 17 significant digits, booleans as true/false.
 */
#include "play/play_json.h"

#include <stdio.h>
#include <string.h>

#include "pips/match.h"

bool play_value_text(const char *key, const json_t *val, char *buf, size_t size,
                     pips_error *err)
{
    if (json_is_string(val))
        snprintf(buf, size, "%s", json_string_value(val));
    else if (json_is_integer(val))
        snprintf(buf, size, "%lld", (long long)json_integer_value(val));
    else if (json_is_real(val))
        snprintf(buf, size, "%.17g", json_real_value(val));
    else if (json_is_boolean(val))
        snprintf(buf, size, "%s", json_is_true(val) ? "true" : "false");
    else
        return pips_fail(err, PIPS_ERR_ARG,
                         "option '%.40s': expected a string, number or boolean, got %s", key,
                         json_is_null(val)     ? "null"
                         : json_is_array(val)  ? "an array"
                         : json_is_object(val) ? "an object"
                                               : "another value");
    if (json_is_string(val) && json_string_length(val) >= size)
        return pips_fail(err, PIPS_ERR_ARG, "option '%.40s': value longer than %zu characters",
                         key, size - 1);
    return true;
}

bool play_options_kv(const json_t *options, play_kv *out, pips_error *err)
{
    out->n = 0;
    if (options && !json_is_null(options) && !json_is_object(options))
        return pips_fail(err, PIPS_ERR_ARG, "options: expected an object of option values");
    const char *key;
    json_t *val;
    if (json_is_object(options))
        json_object_foreach((json_t *)options, key, val) {
            if (out->n == PIPS_MAX_OPTIONS)
                return pips_fail(err, PIPS_ERR_ARG, "options: more than %d given",
                                 PIPS_MAX_OPTIONS);
            if (strlen(key) >= PIPS_OPT_KEY_MAX)
                return pips_fail(err, PIPS_ERR_ARG, "option '%.40s...': key too long", key);
            char text[PIPS_OPT_VALUE_MAX];
            if (!play_value_text(key, val, text, sizeof text, err))
                return false;
            snprintf(out->buf[out->n], sizeof out->buf[out->n], "%s=%s", key, text);
            out->kv[out->n] = out->buf[out->n];
            out->n++;
        }
    return true;
}

pips_game *play_game_from_json(const char *name, const json_t *options,
                               const pips_allocator *alloc, pips_error *err)
{
    return play_game_from_json_script(name, options, NULL, alloc, err);
}

pips_game *play_game_from_json_script(const char *name, const json_t *options,
                                      const json_t *script, const pips_allocator *alloc,
                                      pips_error *err)
{
    const char *file = NULL, *script_text = NULL;
    if (script) {
        json_t *jf = json_object_get(script, "file"), *jt = json_object_get(script, "text"),
               *jh = json_object_get(script, "sha256");
        if (!json_is_object(script) || !json_is_string(jf) || !json_is_string(jt) ||
            !json_is_string(jh)) {
            pips_fail(err, PIPS_ERR_RECORD,
                      "script: expected {\"file\", \"sha256\", \"text\"} strings");
            return NULL;
        }
        file = json_string_value(jf);
        script_text = json_string_value(jt);
        if (strlen(script_text) != json_string_length(jt)) {
            pips_fail(err, PIPS_ERR_RECORD, "script: the text holds a NUL byte");
            return NULL;
        }
        char sha[65];
        pips_sha256_hex(script_text, strlen(script_text), sha);
        if (strcmp(sha, json_string_value(jh)) != 0) {
            pips_fail(err, PIPS_ERR_RECORD,
                      "script: the text of %.80s does not match its sha256 (the record was "
                      "changed)", file);
            return NULL;
        }
    }
    play_kv kv;
    if (!play_options_kv(options, &kv, err))
        return NULL;
    if (script_text)
        return pips_game_new_script(name, kv.kv, kv.n, file, script_text, alloc, err);
    return pips_game_new(name, kv.kv, kv.n, alloc, err);
}

json_t *play_options_to_json(const pips_game *g)
{
    json_t *o = json_object();
    for (size_t i = 0; o && i < g->options.n; i++)
        json_object_set_new(o, g->options.kv[i].key, json_string(g->options.kv[i].value));
    return o;
}

pips_game *pips_game_new_json(const char *name, const char *options_json,
                              const pips_allocator *alloc, pips_error *err)
{
    json_error_t je;
    json_t *o = NULL;
    if (options_json && *options_json) {
        o = json_loads(options_json, JSON_REJECT_DUPLICATES, &je);
        if (!o) {
            pips_fail(err, PIPS_ERR_ARG, "options: invalid JSON at line %d column %d: %s",
                      je.line, je.column, je.text);
            return NULL;
        }
    }
    pips_game *g = play_game_from_json(name, o, alloc, err);
    json_decref(o);
    return g;
}
