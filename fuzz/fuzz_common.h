/*
 * fuzz_common.h — helpers shared by the libFuzzer targets: choosing a game
 * from the first input byte and turning the rest into a C string.
 */
#ifndef PIPS_FUZZ_COMMON_H
#define PIPS_FUZZ_COMMON_H

#include <stdlib.h>
#include <string.h>

#include "pips/game.h"

/* The game picked by data[0]; *text receives the rest as a NUL-terminated
 * copy the caller frees. NULL when the input is empty. */
static inline const pips_game_def *fuzz_pick(const uint8_t *data, size_t size, char **text)
{
    if (size < 1)
        return NULL;
    const pips_game_def *d = pips_game_def_at(data[0] % pips_game_count());
    *text = malloc(size);
    memcpy(*text, data + 1, size - 1);
    (*text)[size - 1] = '\0';
    return d;
}

/* Aborts (a finding) when cond is false. */
#define FUZZ_ASSERT(cond)                                                                      \
    do {                                                                                       \
        if (!(cond))                                                                           \
            __builtin_trap();                                                                  \
    } while (0)

#endif
