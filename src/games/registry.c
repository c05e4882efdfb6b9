/*
 * registry.c — the one table of games. A game joins by adding its
 * definition here; everything else (CLI, server, agents, the invariant
 * tests) finds it through this table.
 */
#include "pips/game.h"

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

const pips_game_def *pips_game_find(const char *name)
{
    for (size_t i = 0; i < pips_game_count(); i++)
        if (!strcmp(game_table[i]->name, name))
            return game_table[i];
    return NULL;
}
