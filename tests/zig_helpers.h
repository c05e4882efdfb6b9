/*
 * zig_helpers.h — helpers shared by the Ziggurat tests: build a game with
 * options, set a position from state text, and read legal lists as sorted
 * token strings (ZIG-R31: legal lists compare as sets).
 */
#ifndef ZIG_HELPERS_H
#define ZIG_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pips/game.h"

static inline pips_game *zig_game(const char *const *opts, size_t n)
{
    pips_error err;
    pips_game *g = pips_game_new("ziggurat", opts, n, NULL, &err);
    if (!g)
        fail_msg("ziggurat game: %s", err.msg);
    return g;
}

static inline void *zig_pos(const pips_game *g, const char *text)
{
    pips_error err;
    void *s = calloc(1, g->def->state_size);
    if (!g->def->state_from_text(g, text, s, &err))
        fail_msg("state '%s': %s", text, err.msg);
    return s;
}

static inline int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The legal (or chance) tokens starting with prefix, sorted bytewise, joined by spaces. */
static inline char *zig_tokens(const pips_game *g, const void *s, const char *prefix)
{
    size_t cap = pips_max_moves(g);
    pips_move *mv = calloc(cap, sizeof *mv);
    size_t n = pips_node_moves(g, s, NULL, mv, NULL);
    char (*txt)[PIPS_MOVE_TEXT_MAX] = calloc(n + 1, PIPS_MOVE_TEXT_MAX);
    const char **ptr = calloc(n + 1, sizeof *ptr);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        g->def->move_to_text(g, s, mv[i], txt[i]);
        if (!strncmp(txt[i], prefix, strlen(prefix)))
            ptr[k++] = txt[i];
    }
    qsort(ptr, k, sizeof *ptr, cmp_str);
    char *out = calloc(1, k * PIPS_MOVE_TEXT_MAX + 1);
    for (size_t i = 0; i < k; i++) {
        if (i) strcat(out, " ");
        strcat(out, ptr[i]);
    }
    free(mv);
    free(txt);
    free(ptr);
    return out;
}

#define assert_tokens(g, s, prefix, expected)                                               \
    do {                                                                                     \
        char *got_ = zig_tokens(g, s, prefix);                                               \
        if (strcmp(got_, expected))                                                          \
            fail_msg("tokens '%s': got '%s', expected '%s'", prefix, got_, expected);        \
        free(got_);                                                                          \
    } while (0)

static inline void zig_play(const pips_game *g, void *s, const char *text)
{
    pips_error err;
    if (!pips_play_text(g, s, text, &err))
        fail_msg("play '%s': %s", text, err.msg);
}

static inline bool zig_has_token(const pips_game *g, const void *s, const char *tok)
{
    char *all = zig_tokens(g, s, "");
    bool found = false;
    for (char *p = strtok(all, " "); p; p = strtok(NULL, " "))
        if (!strcmp(p, tok))
            found = true;
    free(all);
    return found;
}

/* The piles part of the state text (after '|'), for checking effects. */
static inline char *zig_piles(const pips_game *g, const void *s)
{
    pips_str t;
    pips_str_init(&t, NULL);
    g->def->state_to_text(g, s, &t);
    const char *bar = strchr(pips_str_cstr(&t), '|');
    char *out = strdup(bar ? bar + 2 : "");
    pips_str_free(&t);
    return out;
}

#define assert_piles(g, s, expected)                                                        \
    do {                                                                                     \
        char *got_ = zig_piles(g, s);                                                        \
        if (strcmp(got_, expected))                                                          \
            fail_msg("piles: got '%s', expected '%s'", got_, expected);                     \
        free(got_);                                                                          \
    } while (0)

#endif
