/*
 * scripts.c — `pips serve --rules-dir DIR`: the Lua files of a folder
 * (docs/lua.md), read once at start. A file that returns a game table is a
 * Lua game the lobby offers beside the built-in ones (its id is its path);
 * any other loadable file is a rule script, offered to every built-in game
 * as the choice option `rules` (by file name, with its description). A file
 * that loads as neither is listed with its error and offered nowhere.
 *
 * Clients name scripts by file name only: a `rules` value or a Lua game that
 * is not in the folder's list is refused, so no request makes the server
 * read another file. The list never changes after start (no lock needed).
 */
#include "server/server_impl.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SCRIPTS 64

typedef struct srv_script {
    char file[256];  /* the name in the folder */
    char path[1400]; /* DIR/file */
    char *description;
    char *error;                /* why it loads as neither, or NULL */
    const pips_game_def *game;  /* a Lua game (held), or NULL for a rule script */
} srv_script;

struct srv_scripts {
    srv_script list[MAX_SCRIPTS];
    size_t n;
};

static int by_file(const void *a, const void *b)
{
    return strcmp(((const srv_script *)a)->file, ((const srv_script *)b)->file);
}

bool srv_scripts_load(pips_server *s, const char *dir, pips_error *err)
{
    if (!dir)
        return true;
    DIR *d = opendir(dir);
    if (!d)
        return pips_fail(err, PIPS_ERR_IO, "--rules-dir '%.200s': cannot open it", dir);
    struct srv_scripts *sc = calloc(1, sizeof *sc);
    if (!sc) {
        closedir(d);
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory for the rule scripts");
    }
    struct dirent *e;
    while ((e = readdir(d)) && sc->n < MAX_SCRIPTS) {
        size_t len = strlen(e->d_name);
        if (len < 5 || len >= sizeof sc->list[0].file || strcmp(e->d_name + len - 4, ".lua") ||
            e->d_name[0] == '.')
            continue;
        srv_script *x = &sc->list[sc->n++];
        snprintf(x->file, sizeof x->file, "%s", e->d_name);
        snprintf(x->path, sizeof x->path, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    qsort(sc->list, sc->n, sizeof sc->list[0], by_file);
    for (size_t i = 0; i < sc->n; i++) {
        srv_script *x = &sc->list[i];
        pips_error as_game, as_rules;
        x->game = pips_game_def_load(x->path, &as_game);
        if (x->game) {
            const pips_script *ps = x->game->script;
            x->description = ps->description ? strdup(ps->description) : NULL;
            continue;
        }
        /* a rule script: tried on Tic Tac Doh!, it reads no game yet */
        char opt[1500];
        snprintf(opt, sizeof opt, "rules=%s", x->path);
        const char *kv[1] = {opt};
        pips_game *g = pips_game_new("tictacdoh", kv, 1, NULL, &as_rules);
        if (g) {
            const pips_script *ps = pips_game_script(g);
            x->description = ps->description ? strdup(ps->description) : NULL;
            pips_game_free(g);
        } else {
            x->error = strdup(strstr(as_game.msg, "must return the game's table") ? as_rules.msg
                                                                               : as_game.msg);
        }
    }
    s->scripts = sc;
    return true;
}

void srv_scripts_free(pips_server *s)
{
    struct srv_scripts *sc = s->scripts;
    if (!sc)
        return;
    for (size_t i = 0; i < sc->n; i++) {
        pips_game_def_release(sc->list[i].game);
        free(sc->list[i].description);
        free(sc->list[i].error);
    }
    free(sc);
    s->scripts = NULL;
}

const pips_game_def *srv_scripts_game(const pips_server *s, const char *name)
{
    const struct srv_scripts *sc = s->scripts;
    for (size_t i = 0; sc && i < sc->n; i++)
        if (sc->list[i].game && !strcmp(sc->list[i].game->name, name))
            return sc->list[i].game;
    return NULL;
}

json_t *srv_scripts_options(const pips_server *s, const json_t *options, pips_error *err)
{
    json_t *copy = options && json_is_object(options) ? json_deep_copy(options) : NULL;
    json_t *rules = copy ? json_object_get(copy, "rules") : NULL;
    if (!rules)
        return copy ? copy : (options ? json_incref((json_t *)options) : NULL);
    const struct srv_scripts *sc = s->scripts;
    const char *want = json_is_string(rules) ? json_string_value(rules) : "";
    if (!strcmp(want, "none"))
        return copy;
    for (size_t i = 0; sc && i < sc->n; i++) {
        const srv_script *x = &sc->list[i];
        if (!x->game && !x->error && !strcmp(x->file, want)) {
            json_object_set_new(copy, "rules", json_string(x->path));
            return copy;
        }
        if (!x->game && !x->error && !strcmp(x->path, want))
            return copy; /* a stored game's options name it by path */
    }
    pips_fail(err, PIPS_ERR_ARG, "option 'rules': '%.80s' is not a rule script of this server%s",
              want, sc ? "" : " (it was started without --rules-dir)");
    json_decref(copy); /* want points into it */
    return NULL;
}

void srv_scripts_rules_json(const pips_server *s, json_t *games, json_t *root)
{
    const struct srv_scripts *sc = s->scripts;
    if (!sc)
        return;
    json_t *list = json_array(), *choices = json_array();
    pips_str help;
    pips_str_init(&help, NULL);
    pips_str_cat(&help, "a rule script from the server's folder (docs/lua.md)");
    json_array_append_new(choices, json_string("none"));
    for (size_t i = 0; i < sc->n; i++) {
        const srv_script *x = &sc->list[i];
        json_t *o = json_object();
        json_object_set_new(o, "file", json_string(x->file));
        json_object_set_new(o, "kind", json_string(x->error ? "broken" : x->game ? "game" : "rules"));
        json_object_set_new(o, "description",
                            x->description ? json_string(x->description) : json_null());
        if (x->error)
            json_object_set_new(o, "error", json_string(x->error));
        json_array_append_new(list, o);
        if (x->game || x->error)
            continue;
        json_array_append_new(choices, json_string(x->file));
        pips_str_catf(&help, "; %s: %s", x->file, x->description ? x->description : "(no description)");
    }
    json_object_set_new(root, "scripts", list);
    /* every built-in game gets the choice; Lua games join the list */
    size_t n_builtin = json_array_size(games);
    for (size_t g = 0; g < n_builtin && json_array_size(choices) > 1; g++) {
        json_t *opts = json_object_get(json_array_get(games, g), "options");
        json_t *opt = json_object();
        json_object_set_new(opt, "key", json_string("rules"));
        json_object_set_new(opt, "type", json_string("choice"));
        json_object_set_new(opt, "default", json_string("none"));
        json_object_set_new(opt, "description", json_string(pips_str_cstr(&help)));
        json_object_set(opt, "choices", choices);
        json_array_append_new(opts, opt);
    }
    json_decref(choices);
    pips_str_free(&help);
}

size_t srv_scripts_games(const pips_server *s, const pips_game_def **out, size_t cap)
{
    const struct srv_scripts *sc = s->scripts;
    size_t n = 0;
    for (size_t i = 0; sc && i < sc->n && n < cap; i++)
        if (sc->list[i].game)
            out[n++] = sc->list[i].game;
    return n;
}
