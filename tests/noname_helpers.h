/*
 * noname_helpers.h — small helpers shared by the Noname tests: building a
 * game with options, loading a position from the fields after the options
 * (the options prefix is taken from the game itself), playing moves that
 * must be legal, and looking a piece up by id. Include after cmocka.h.
 */
#ifndef NONAME_HELPERS_H
#define NONAME_HELPERS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/noname/noname.h"
#include "pips/game.h"

static inline pips_game *nt_game(const char *const *opts, size_t n)
{
    pips_error err;
    pips_game *g = pips_game_new("noname", opts, n, NULL, &err);
    if (!g)
        fail_msg("noname: %s", err.msg);
    return g;
}

/* Loads "seats ... table ..." under g's options into a new state. */
static inline void *nt_load(const pips_game *g, const char *rest)
{
    pips_error err;
    void *s = pips_state_new(g, &err), *init = pips_state_new(g, &err);
    g->def->initial(g, init);
    pips_str t;
    pips_str_init(&t, NULL);
    g->def->state_to_text(g, init, &t);
    const char *cut = strstr(pips_str_cstr(&t), "seats ");
    assert_non_null(cut);
    char buf[4096];
    snprintf(buf, sizeof buf, "%.*s%s", (int)(cut - pips_str_cstr(&t)), pips_str_cstr(&t), rest);
    if (!g->def->state_from_text(g, buf, s, &err))
        fail_msg("state '%s' rejected: %s", buf, err.msg);
    pips_str_free(&t);
    pips_state_free(g, init);
    return s;
}

static inline void nt_play(const pips_game *g, void *s, const char *move)
{
    pips_error err;
    if (!pips_play_text(g, s, move, &err))
        fail_msg("move '%s' rejected: %s", move, err.msg);
}

/* Returns false with the error text in msg when the move is illegal. */
static inline bool nt_legal(const pips_game *g, const void *s, const char *move, char *msg)
{
    pips_error err;
    pips_move m;
    msg[0] = '\0';
    if (!pips_parse_move(g, s, move, &m, &err)) {
        snprintf(msg, PIPS_ERROR_MAX, "%s", err.msg);
        return false;
    }
    return true;
}

static inline noname_piece_info nt_piece(const pips_game *g, const void *s, unsigned id)
{
    noname_piece_info info[128];
    size_t n = noname_pieces(g, s, info, 128);
    for (size_t i = 0; i < n && i < 128; i++)
        if (info[i].id == id)
            return info[i];
    fail_msg("piece #%u is not on the table", id);
    noname_piece_info none;
    memset(&none, 0, sizeof none);
    return none;
}

static inline bool nt_on_table(const pips_game *g, const void *s, unsigned id)
{
    noname_piece_info info[128];
    size_t n = noname_pieces(g, s, info, 128);
    for (size_t i = 0; i < n && i < 128; i++)
        if (info[i].id == id)
            return true;
    return false;
}

/* Asserts piece id points at target (0 = nothing) at hit mm (to 0.01 mm). */
#define NT_POINTS(g, s, id, target, hit)                                                      \
    do {                                                                                       \
        noname_piece_info pi_ = nt_piece(g, s, id);                                            \
        if (pi_.target_id != (unsigned)(target))                                               \
            fail_msg("#%u points at #%u, expected #%u", (unsigned)(id), pi_.target_id,         \
                     (unsigned)(target));                                                      \
        if ((target) && (pi_.hit_mm < (hit)-0.005 || pi_.hit_mm > (hit) + 0.005))             \
            fail_msg("#%u hits at %.4f mm, expected %.2f", (unsigned)(id), pi_.hit_mm,        \
                     (double)(hit));                                                           \
    } while (0)

static inline int nt_score(const pips_game *g, const void *s, int seat)
{
    int sc[PIPS_MAX_PLAYERS];
    g->def->scores(g, s, sc);
    return sc[seat];
}

/* The state text after "pads " up to " table" (the pads field). */
static inline void nt_pads(const pips_game *g, const void *s, char *out, size_t cap)
{
    pips_str t;
    pips_str_init(&t, NULL);
    g->def->state_to_text(g, s, &t);
    const char *a = strstr(pips_str_cstr(&t), " pads "), *b = strstr(a, " table ");
    snprintf(out, cap, "%.*s", (int)(b - a - 6), a + 6);
    pips_str_free(&t);
}

#endif
