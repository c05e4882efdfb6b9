/*
 * view.c — the structured view of a state (pips/view.h): the generic members
 * every view has, the game's own members from its state_view hook, and the
 * state object {"game", "options", "to_move", "over", "view", "state"} that
 * the CLI and the server both print.
 *
 * Allocation failures are tracked with one flag per build (pips_view_put,
 * pips_view_push): jansson returns NULL from a failed constructor and the
 * setters then fail without leaking, so the build goes on and reports once.
 */
#include "pips/view.h"
#include "core/unchecked.h"

#include <stdlib.h>

json_t *pips_view_tenths(long tenths)
{
    return json_real((double)tenths / 10.0);
}

void pips_view_put(json_t *obj, const char *key, json_t *value, bool *ok)
{
    if (!obj) {
        json_decref(value);
        *ok = false;
    } else if (json_object_set_new(obj, key, value) != 0) {
        *ok = false;
    }
}

void pips_view_push(json_t *arr, json_t *value, bool *ok)
{
    if (!arr) {
        json_decref(value);
        *ok = false;
    } else if (json_array_append_new(arr, value) != 0) {
        *ok = false;
    }
}


json_t *state_view_unchecked(const pips_game *g, const void *state, pips_error *err)
{
    if (!g || !g->def || !state) {
        pips_fail(err, PIPS_ERR_ARG, "view: no %s (NULL)", !g || !g->def ? "game" : "state");
        return NULL;
    }
    json_t *v = json_object();
    pips_str text;
    pips_str_init(&text, g->alloc);
    bool ok = v != NULL;
    if (ok) {
        int n = pips_num_players(g);
        pips_view_put(v, "players", json_integer(n), &ok);
        pips_view_put(v, "chance", json_boolean(pips_to_move(g, state) == PIPS_CHANCE), &ok);
        g->def->result_text(g, state, &text);
        ok = ok && !text.failed;
        pips_view_put(v, "result", json_string(pips_str_cstr(&text)), &ok);
        if (pips_to_move(g, state) == PIPS_OVER) {
            double r[PIPS_MAX_PLAYERS];
            g->def->returns(g, state, r);
            json_t *rets = json_array();
            for (int i = 0; i < n; i++)
                pips_view_push(rets, json_real(r[i]), &ok);
            pips_view_put(v, "returns", rets, &ok);
        }
        if (g->def->scores) {
            int sc[PIPS_MAX_PLAYERS];
            g->def->scores(g, state, sc);
            json_t *scores = json_array();
            for (int i = 0; i < n; i++)
                pips_view_push(scores, json_integer(sc[i]), &ok);
            pips_view_put(v, "scores", scores, &ok);
        }
        if (g->def->state_view && ok)
            ok = g->def->state_view(g, state, v);
    }
    pips_str_free(&text);
    if (!ok) {
        json_decref(v);
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory building the view of a %s state",
                  g->def->name);
        return NULL;
    }
    return v;
}

json_t *state_object_unchecked(const pips_game *g, const void *state, pips_error *err)
{
    json_t *view = state_view_unchecked(g, state, err);
    if (!view)
        return NULL;
    json_t *o = json_object(), *opts = json_object();
    bool ok = o && opts;
    for (size_t i = 0; ok && i < g->options.n; i++)
        pips_view_put(opts, g->options.kv[i].key, json_string(g->options.kv[i].value), &ok);
    int who = pips_to_move(g, state);
    pips_str text;
    pips_str_init(&text, g->alloc);
    g->def->state_to_text(g, state, &text);
    ok = ok && !text.failed;
    if (o) {
        pips_view_put(o, "game", json_string(g->def->name), &ok);
        pips_view_put(o, "options", opts, &ok);
        opts = NULL;
        pips_view_put(o, "to_move", who >= 0 ? json_integer(who) : json_null(), &ok);
        pips_view_put(o, "over", json_boolean(who == PIPS_OVER), &ok);
        pips_view_put(o, "view", view, &ok);
        view = NULL;
        pips_view_put(o, "state", json_string(pips_str_cstr(&text)), &ok);
    }
    pips_str_free(&text);
    json_decref(opts);
    json_decref(view);
    if (!ok) {
        json_decref(o);
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory building the state object");
        return NULL;
    }
    return o;
}

char *state_json_unchecked(const pips_game *g, const void *state, pips_error *err)
{
    json_t *o = state_object_unchecked(g, state, err);
    if (!o)
        return NULL;
    /* 12 significant digits print tenths as 14.3, not 14.300000000000001 */
    char *text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
    json_decref(o);
    if (!text)
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory writing the state object");
    return text;
}

/* The public views take only states from pips_state_new, of g's definition
 * and options (pips_state_check); the library's own callers (the CLI, the
 * server, the state_view hooks of Lua games) use the unchecked twins. */
json_t *pips_state_view(const pips_game *g, const void *state, pips_error *err)
{
    return pips_state_check(g, state, err) ? state_view_unchecked(g, state, err) : NULL;
}

json_t *pips_state_object(const pips_game *g, const void *state, pips_error *err)
{
    return pips_state_check(g, state, err) ? state_object_unchecked(g, state, err) : NULL;
}

char *pips_state_json(const pips_game *g, const void *state, pips_error *err)
{
    return pips_state_check(g, state, err) ? state_json_unchecked(g, state, err) : NULL;
}
