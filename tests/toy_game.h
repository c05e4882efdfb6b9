/*
 * toy_game.h — a small test-only game ("dice race") that exercises what Tic
 * Tac Doh! does not: N players, chance nodes and a non-enumerable move
 * space. It is not in the game table; tests build it with
 * pips_game_new_opts(&toy_race_def, ...).
 *
 * Rules: players (option players=2..4) race to 10 on a track. On a turn the
 * mover picks a step 1..3; then a chance node adds a bonus of 0 (p = 0.7) or
 * 2 (p = 0.3). Landing exactly on the snake square (option snake, default 7;
 * 0 = none) sends the runner back to 0. The first
 * to reach 10 wins (return 1, the others 0). With mode=free the step is a
 * "continuous" value: a move is step * 1000 + fraction (fraction 0..999),
 * legal_moves is absent and candidates draws 4 random moves.
 */
#ifndef TOY_GAME_H
#define TOY_GAME_H

#include <stdio.h>
#include <string.h>

#include "pips/game.h"

typedef struct toy_state {
    uint8_t pos[4];
    uint8_t turn, phase, pending, winner; /* phase 1: chance due; winner 0 = none, else seat+1 */
} toy_state;

typedef struct toy_config {
    int players;
    int free_moves;
    int snake; /* the square that sends a runner back to 0; 0 = none */
} toy_config;

static const char *const TOY_MODES[] = {"enum", "free", NULL};
static const pips_option_def toy_options[3] = {
    {"players", "3", "runners", .type = PIPS_OPT_INT, .min = 2, .max = 4},
    {"mode", "enum", "enumerable moves, or free (candidates)", .type = PIPS_OPT_CHOICE,
     .choices = TOY_MODES},
    {"snake", "7", "the square that sends a runner back; 0 = none", .type = PIPS_OPT_INT,
     .min = 0, .max = 9},
};

static bool toy_configure(const pips_game *g, void *config, pips_error *err)
{
    toy_config *c = config;
    long n;
    if (!pips_parse_int(pips_options_get(&g->options, "players"), 2, 4, &n))
        return pips_fail(err, PIPS_ERR_ARG, "option players: expected 2..4");
    c->players = (int)n;
    const char *mode = pips_options_get(&g->options, "mode");
    if (strcmp(mode, "enum") && strcmp(mode, "free"))
        return pips_fail(err, PIPS_ERR_ARG, "option mode: expected enum or free");
    c->free_moves = !strcmp(mode, "free");
    if (!pips_parse_int(pips_options_get(&g->options, "snake"), 0, 9, &n))
        return pips_fail(err, PIPS_ERR_ARG, "option snake: expected 0..9");
    c->snake = (int)n;
    return true;
}

static int toy_num_players(const pips_game *g) { return ((const toy_config *)g->config)->players; }
static size_t toy_max_moves(const pips_game *g) { (void)g; return 4; }
static void toy_initial(const pips_game *g, void *state)
{
    (void)g;
    memset(state, 0, sizeof(toy_state));
}
static int toy_to_move(const pips_game *g, const void *state)
{
    (void)g;
    const toy_state *s = state;
    if (s->winner)
        return PIPS_OVER;
    return s->phase ? PIPS_CHANCE : s->turn;
}
static size_t toy_legal_moves(const pips_game *g, const void *state, pips_move *out)
{
    if (toy_to_move(g, state) < 0)
        return 0;
    for (int k = 0; k < 3; k++)
        out[k] = (pips_move)(k + 1) * 1000;
    return 3;
}
static size_t toy_candidates(const pips_game *g, const void *state, pips_rng *rng,
                             pips_move *out)
{
    if (toy_to_move(g, state) < 0)
        return 0;
    size_t n = 0;
    while (n < 4) {
        pips_move m = 1000 + pips_rng_below(rng, 3000);
        bool dup = false;
        for (size_t i = 0; i < n; i++)
            dup |= out[i] == m;
        if (!dup)
            out[n++] = m;
    }
    return n;
}
static size_t toy_chance(const pips_game *g, const void *state, pips_move *out, double *prob)
{
    if (toy_to_move(g, state) != PIPS_CHANCE)
        return 0;
    out[0] = 0;
    prob[0] = 0.7;
    out[1] = 2;
    prob[1] = 0.3;
    return 2;
}
static bool toy_check(const pips_game *g, const void *state, pips_move m, pips_error *err)
{
    const toy_config *c = g->config;
    int who = toy_to_move(g, state);
    if (who == PIPS_CHANCE)
        return (m == 0 || m == 2) ? true : pips_fail(err, PIPS_ERR_ILLEGAL, "bad bonus");
    if (who < 0)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "the game is over");
    if (m < 1000 || m >= 4000 || (!c->free_moves && m % 1000))
        return pips_fail(err, PIPS_ERR_ILLEGAL, "bad step %llu", (unsigned long long)m);
    return true;
}
static void toy_apply(const pips_game *g, void *state, pips_move m)
{
    toy_state *s = state;
    if (s->phase == 0) {
        s->pending = (uint8_t)(m / 1000);
        s->phase = 1;
        return;
    }
    int p = s->pos[s->turn] + s->pending + (int)m;
    if (p == ((const toy_config *)g->config)->snake)
        p = 0;
    if (p >= 10) {
        p = 10;
        s->winner = (uint8_t)(s->turn + 1);
    }
    s->pos[s->turn] = (uint8_t)p;
    s->pending = 0;
    s->phase = 0;
    if (!s->winner)
        s->turn = (uint8_t)((s->turn + 1) % toy_num_players(g));
}
static void toy_returns(const pips_game *g, const void *state, double *out)
{
    const toy_state *s = state;
    for (int p = 0; p < toy_num_players(g); p++)
        out[p] = s->winner == p + 1 ? 1.0 : 0.0;
}
static void toy_result_text(const pips_game *g, const void *state, pips_str *out)
{
    (void)g;
    const toy_state *s = state;
    pips_str_catf(out, "seat %d wins", s->winner);
}
static void toy_move_to_text(const pips_game *g, const void *state, pips_move m, char *buf)
{
    if (toy_to_move(g, state) == PIPS_CHANCE)
        snprintf(buf, PIPS_MOVE_TEXT_MAX, "+%llu", (unsigned long long)m);
    else
        snprintf(buf, PIPS_MOVE_TEXT_MAX, "s%llu", (unsigned long long)m);
}
static bool toy_move_from_text(const pips_game *g, const void *state, const char *text,
                               pips_move *m, pips_error *err)
{
    long v;
    bool chance = toy_to_move(g, state) == PIPS_CHANCE;
    if (text[0] != (chance ? '+' : 's') || !pips_parse_int(text + 1, 0, 9999, &v))
        return pips_fail(err, PIPS_ERR_ARG, "move '%s': expected s<step> or +<bonus>", text);
    *m = (pips_move)v;
    return true;
}
static void toy_state_to_text(const pips_game *g, const void *state, pips_str *out)
{
    (void)g;
    const toy_state *s = state;
    pips_str_catf(out, "%d,%d,%d,%d;%d;%d;%d;%d", s->pos[0], s->pos[1], s->pos[2], s->pos[3],
                  s->turn, s->phase, s->pending, s->winner);
}
static bool toy_state_from_text(const pips_game *g, const char *text, void *state,
                                pips_error *err)
{
    (void)g;
    int v[8];
    if (sscanf(text, "%d,%d,%d,%d;%d;%d;%d;%d", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
               &v[6], &v[7]) != 8)
        return pips_fail(err, PIPS_ERR_ARG, "state: expected p,p,p,p;turn;phase;pending;winner");
    toy_state s;
    memset(&s, 0, sizeof s);
    for (int i = 0; i < 4; i++)
        s.pos[i] = (uint8_t)v[i];
    s.turn = (uint8_t)v[4];
    s.phase = (uint8_t)v[5];
    s.pending = (uint8_t)v[6];
    s.winner = (uint8_t)v[7];
    memcpy(state, &s, sizeof s);
    return true;
}
static uint64_t toy_hash(const pips_game *g, const void *state)
{
    (void)g;
    uint64_t h = 0;
    memcpy(&h, state, sizeof(toy_state));
    return pips_mix64(h);
}
static void toy_render(const pips_game *g, const void *state, const pips_render_opts *ro,
                       pips_str *out)
{
    (void)ro;
    toy_state_to_text(g, state, out);
    pips_str_cat(out, "\n");
}

static const pips_game_def toy_race_def = {
    .name = "toyrace",
    .title = "Dice race (test game)",
    .rules_text = "test only",
    .notation_text = "s<step>, +<bonus>",
    .options = toy_options,
    .n_options = 3,
    .config_size = sizeof(toy_config),
    .state_size = sizeof(toy_state),
    .flags = PIPS_GAME_CHANCE,
    .configure = toy_configure,
    .num_players = toy_num_players,
    .max_moves = toy_max_moves,
    .initial = toy_initial,
    .to_move = toy_to_move,
    .legal_moves = toy_legal_moves,
    .chance_outcomes = toy_chance,
    .check_move = toy_check,
    .apply = toy_apply,
    .returns = toy_returns,
    .result_text = toy_result_text,
    .move_to_text = toy_move_to_text,
    .move_from_text = toy_move_from_text,
    .state_to_text = toy_state_to_text,
    .state_from_text = toy_state_from_text,
    .hash = toy_hash,
    .render = toy_render,
    .candidates = toy_candidates,
};

/* The free-move variant needs NOT_ENUMERABLE and no legal_moves. */
static const pips_game_def toy_race_free_def = {
    .name = "toyracefree",
    .title = "Dice race, free steps (test game)",
    .rules_text = "test only",
    .notation_text = "s<step*1000+fraction>, +<bonus>",
    .options = toy_options,
    .n_options = 3,
    .config_size = sizeof(toy_config),
    .state_size = sizeof(toy_state),
    .flags = PIPS_GAME_CHANCE | PIPS_GAME_NOT_ENUMERABLE,
    .configure = toy_configure,
    .num_players = toy_num_players,
    .max_moves = toy_max_moves,
    .initial = toy_initial,
    .to_move = toy_to_move,
    .legal_moves = NULL,
    .chance_outcomes = toy_chance,
    .check_move = toy_check,
    .apply = toy_apply,
    .returns = toy_returns,
    .result_text = toy_result_text,
    .move_to_text = toy_move_to_text,
    .move_from_text = toy_move_from_text,
    .state_to_text = toy_state_to_text,
    .state_from_text = toy_state_from_text,
    .hash = toy_hash,
    .render = toy_render,
    .candidates = toy_candidates,
};

/* Builds a toy game from "key=value" strings. */
static inline pips_game *toy_game_new(const pips_game_def *def, const char *const *kv, size_t n)
{
    pips_options o;
    memset(&o, 0, sizeof o);
    for (size_t i = 0; i < n; i++) {
        const char *eq = strchr(kv[i], '=');
        snprintf(o.kv[o.n].key, PIPS_OPT_KEY_MAX, "%.*s", (int)(eq - kv[i]), kv[i]);
        snprintf(o.kv[o.n].value, PIPS_OPT_VALUE_MAX, "%s", eq + 1);
        o.n++;
    }
    pips_error err;
    return pips_game_new_opts(def, &o, NULL, &err);
}

#endif
