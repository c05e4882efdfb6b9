/*
 * options.c — the option schema: checking a value against its option's
 * declared type (int range and words, bool, choice, text), the readers that
 * take the range or choices from a game's option table, and the schema of a
 * game as JSON (`pips list --json`, the server's rules).
 *
 * Invariants: the messages are those of the plain readers in game.c
 * ("option 'KEY': 'VALUE' is not ..."), which the checks here reuse; nothing
 * here keeps state.
 */
#include "pips/game.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const pips_option_def *pips_option_def_find(const pips_game_def *def, const char *key)
{
    for (size_t i = 0; i < def->n_options; i++)
        if (!strcmp(def->options[i].key, key))
            return &def->options[i];
    return NULL;
}

static bool is_word(const char *const *words, const char *value)
{
    for (size_t i = 0; words && words[i]; i++)
        if (!strcmp(words[i], value))
            return true;
    return false;
}

void pips_option_accepts(const pips_option_def *od, pips_str *out)
{
    switch (od->type) {
    case PIPS_OPT_INT:
        for (size_t i = 0; od->choices && od->choices[i]; i++)
            pips_str_catf(out, "%s%s", i ? ", " : "", od->choices[i]);
        pips_str_catf(out, "%s%ld..%ld", od->choices && od->choices[0] ? " or " : "", od->min,
                      od->max);
        break;
    case PIPS_OPT_BOOL:
        pips_str_cat(out, "true|false");
        break;
    case PIPS_OPT_CHOICE:
        for (size_t i = 0; od->choices && od->choices[i]; i++)
            pips_str_catf(out, "%s%s", i ? "|" : "", od->choices[i]);
        break;
    case PIPS_OPT_TEXT:
        pips_str_cat(out, od->pattern ? od->pattern : "text");
        break;
    }
}

bool pips_option_check(const pips_option_def *od, const char *value, pips_error *err)
{
    /* One-entry option set, so the plain readers word the failure. */
    pips_options one = {.n = 1};
    snprintf(one.kv[0].key, sizeof one.kv[0].key, "%s", od->key);
    snprintf(one.kv[0].value, sizeof one.kv[0].value, "%s", value);
    long v;
    bool b;
    int pick;
    switch (od->type) {
    case PIPS_OPT_INT:
        if (!od->choices)
            return pips_option_int(&one, od->key, od->min, od->max, &v, err);
        if (is_word(od->choices, value) || pips_parse_int(value, od->min, od->max, &v))
            return true;
        pips_str acc;
        pips_str_init(&acc, NULL);
        pips_option_accepts(od, &acc);
        pips_fail(err, PIPS_ERR_ARG, "option '%s': '%.64s' is not %s", od->key, value,
                  pips_str_cstr(&acc));
        pips_str_free(&acc);
        return false;
    case PIPS_OPT_BOOL:
        return pips_option_bool(&one, od->key, &b, err);
    case PIPS_OPT_CHOICE:
        return pips_option_choice(&one, od->key, od->choices, &pick, err);
    case PIPS_OPT_TEXT:
        return true; /* the game's configure parses it and names what is wrong */
    }
    return pips_fail(err, PIPS_ERR_ARG, "option '%s': unknown type", od->key);
}

/* The schema entry of key in g's table, which must have the given type. */
static const pips_option_def *typed_def(const pips_game *g, const char *key,
                                        pips_option_type type, pips_error *err)
{
    const pips_option_def *od = pips_option_def_find(g->def, key);
    if (!od || od->type != type) {
        pips_fail(err, PIPS_ERR_ARG, "%s has no option '%s' of that type", g->def->name, key);
        return NULL;
    }
    return od;
}

bool pips_game_opt_int(const pips_game *g, const char *key, long *out, pips_error *err)
{
    const pips_option_def *od = typed_def(g, key, PIPS_OPT_INT, err);
    return od && pips_option_int(&g->options, key, od->min, od->max, out, err);
}

bool pips_game_opt_bool(const pips_game *g, const char *key, bool *out, pips_error *err)
{
    return typed_def(g, key, PIPS_OPT_BOOL, err) &&
           pips_option_bool(&g->options, key, out, err);
}

bool pips_game_opt_choice(const pips_game *g, const char *key, int *out, pips_error *err)
{
    const pips_option_def *od = typed_def(g, key, PIPS_OPT_CHOICE, err);
    return od && pips_option_choice(&g->options, key, od->choices, out, err);
}

static json_t *string_list(const char *const *words)
{
    json_t *a = json_array();
    for (size_t i = 0; words && words[i]; i++)
        json_array_append_new(a, json_string(words[i]));
    return a;
}

static const char *const TYPE_NAMES[] = {"text", "int", "bool", "choice"};

bool pips_game_schema_json(const pips_game_def *def, pips_str *out, pips_error *err)
{
    json_t *g = json_object(), *opts = json_array();
    json_object_set_new(g, "name", json_string(def->name));
    json_object_set_new(g, "title", json_string(def->title));
    for (size_t i = 0; i < def->n_options; i++) {
        const pips_option_def *od = &def->options[i];
        json_t *o = json_object();
        json_object_set_new(o, "key", json_string(od->key));
        json_object_set_new(o, "type", json_string(TYPE_NAMES[od->type]));
        json_object_set_new(o, "default", json_string(od->default_value));
        json_object_set_new(o, "description", json_string(od->help ? od->help : ""));
        if (od->type == PIPS_OPT_INT) {
            json_object_set_new(o, "min", json_integer(od->min));
            json_object_set_new(o, "max", json_integer(od->max));
            if (od->choices)
                json_object_set_new(o, "words", string_list(od->choices));
        } else if (od->type == PIPS_OPT_CHOICE) {
            json_object_set_new(o, "choices", string_list(od->choices));
        } else if (od->type == PIPS_OPT_TEXT) {
            json_object_set_new(o, "pattern", json_string(od->pattern ? od->pattern : ""));
        }
        json_array_append_new(opts, o);
    }
    json_object_set_new(g, "options", opts);
    char *text = json_dumps(g, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(g);
    if (!text)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory writing the %s schema", def->name);
    pips_str_cat(out, text);
    free(text);
    return true;
}
