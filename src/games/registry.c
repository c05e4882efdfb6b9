/*
 * registry.c — the one table of games and lookups by name. A game joins by
 * adding its definition here; everything else (CLI, server, records, the
 * invariant tests) finds it through this table. src/core never calls in
 * here: it works on a pips_game_def it is handed.
 */
#include "pips/game.h"

#include "lua/lua_games.h"

#include <stdio.h>
#include <string.h>

extern const pips_game_def pips_tictacdoh_def;
extern const pips_game_def pips_icefrogs_def;
extern const pips_game_def pips_ziggurat_def;
extern const pips_game_def pips_noname_def;
extern const pips_game_def pips_nimitz_def;

static const pips_game_def *const game_table[] = {
    &pips_tictacdoh_def,
    &pips_icefrogs_def,
    &pips_ziggurat_def,
    &pips_noname_def,
    &pips_nimitz_def,
};

size_t pips_game_count(void) { return sizeof game_table / sizeof game_table[0]; }

const pips_game_def *pips_game_def_at(size_t i)
{
    return i < pips_game_count() ? game_table[i] : NULL;
}

/* Names compare without regard to ASCII case ("Nimitz", "TICTACDOH"); the
 * table's names are lower case and are what records and replies store. */
static bool same_name(const char *table_name, const char *name)
{
    for (; *table_name; table_name++, name++) {
        char c = *name >= 'A' && *name <= 'Z' ? (char)(*name - 'A' + 'a') : *name;
        if (c != *table_name)
            return false;
    }
    return *name == '\0';
}

const pips_game_def *pips_game_find(const char *name)
{
    for (size_t i = 0; i < pips_game_count(); i++)
        if (same_name(game_table[i]->name, name))
            return game_table[i];
    return NULL;
}

bool pips_game_name_is_lua(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && !strcmp(name + n - 4, ".lua");
}

static bool unknown_game(const char *name, pips_error *err);

const pips_game_def *pips_game_def_load(const char *name, pips_error *err)
{
    if (pips_game_name_is_lua(name))
        return plua_game_def(name, NULL, err);
    const pips_game_def *def = pips_game_find(name);
    if (!def)
        unknown_game(name, err);
    return def;
}

void pips_game_def_release(const pips_game_def *def)
{
    if (def && def->hold)
        def->hold(def, -1);
}

pips_game *pips_game_new_script(const char *name, const char *const *kv, size_t n,
                                const char *file, const char *text,
                                const pips_allocator *alloc, pips_error *err)
{
    const pips_game_def *def = pips_game_name_is_lua(name) ? NULL : pips_game_find(name);
    if (def)
        return pips_game_new_def_text(def, kv, n, text, alloc, err);
    def = plua_game_def(file, text, err);
    if (!def)
        return NULL;
    pips_game *g = pips_game_new_def(def, kv, n, alloc, err);
    pips_game_def_release(def);
    return g;
}

pips_game *pips_game_new(const char *name, const char *const *kv, size_t n,
                         const pips_allocator *alloc, pips_error *err)
{
    if (!name) {
        pips_fail(err, PIPS_ERR_ARG, "no game name (NULL)");
        return NULL;
    }
    if (pips_game_name_is_lua(name)) {
        const pips_game_def *def = plua_game_def(name, NULL, err);
        pips_game *g = def ? pips_game_new_def(def, kv, n, alloc, err) : NULL;
        pips_game_def_release(def);
        return g;
    }
    const pips_game_def *def = pips_game_find(name);
    if (!def) {
        unknown_game(name, err);
        return NULL;
    }
    return pips_game_new_def(def, kv, n, alloc, err);
}

static bool unknown_game(const char *name, pips_error *err)
{
    char list[256] = "";
    size_t used = 0;
    for (size_t i = 0; i < pips_game_count(); i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                                 pips_game_def_at(i)->name);
    return pips_fail(err, PIPS_ERR_ARG, "unknown game '%.64s' (games: %s, or a FILE.lua)", name,
                     list);
}
