/*
 * table.c — the match driver (include/pips/table.h): a match, an agent or a
 * person per seat, and the steps that move a game on.
 *
 * Every change goes through apply_moves: the moves are played on the match
 * first (the move, then any chance that falls due), and only when all of
 * them succeeded do the agents observe them and the listener hear of them,
 * so a failure leaves the table exactly as it was.
 * Invariants: a seat in `autopiloted` (resigned while the others play on)
 * has its autopilot as agent, whatever played it before; otherwise
 * agents[s] is NULL exactly for a human seat.
 */
#include "pips/table.h"
#include "core/unchecked.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Chance reached from chance this many times in a row is a bug in a game. */
#define TABLE_MAX_CHANCE_CHAIN 1000

struct pips_table {
    pips_match *match;
    pips_agent *agents[PIPS_MAX_PLAYERS];
    unsigned resigned;
    unsigned autopiloted; /* seats whose turns the autopilot plays */
    bool auto_roll;
    pips_table_listener listener;
    void *listener_ud;
};

uint64_t pips_table_seat_seed(uint64_t seed, int seat)
{
    return pips_mix64(seed ^ (0xa0761d6478bd642full * (uint64_t)(seat + 1)));
}

uint64_t pips_table_game_seed(uint64_t seed, uint64_t i)
{
    /* a Weyl sequence: game 0 is the seed itself, and two series with
     * different seeds share no game for any practical length */
    return seed + i * 0x9e3779b97f4a7c15ull;
}

bool pips_seat_is_human(const char *seat) { return !strcmp(seat, "human"); }

static bool key_is(const char *key, size_t klen, const char *name)
{
    return klen == strlen(name) && !strncmp(key, name, klen);
}

/* One budget, key=v, of an agent of the given kind, against lim. */
static bool budget_within(const char *spec, const char *kind, size_t kind_len, const char *key,
                          size_t klen, double v, const pips_table_limits *lim, pips_error *err)
{
    double ceiling = 0;
    const char *unit = "";
    if (key_is(key, klen, "time")) {
        ceiling = lim->max_seconds;
        unit = " s";
    } else if (key_is(key, klen, "iters"))
        ceiling = (double)lim->max_iters;
    else if (key_is(key, klen, "depth"))
        ceiling = (double)lim->max_depth;
    else if (key_is(key, klen, "threads"))
        ceiling = (double)lim->max_threads;
    else if (key_is(key, klen, "table_mb") || key_is(key, klen, "tt")) {
        ceiling = (double)lim->max_table_mb;
        unit = " MB";
    } else if (key_is(key, klen, "nodes") && key_is(kind, kind_len, "mcts"))
        ceiling = (double)lim->max_tree_nodes; /* elsewhere nodes= is work, bounded by time */
    if (ceiling > 0 && v > ceiling)
        return pips_fail(err, PIPS_ERR_ARG, "agent '%s': %.*s=%.15g exceeds the limit of %.15g%s", spec,
                         (int)klen, key, v, ceiling, unit);
    return true;
}

/* Checks the budgets written in a spec ("mcts:time=2,iters=5000"), those of
 * a nested agent too ("oracle:fallback=mcts:iters=5000"). */
static bool spec_within(const char *spec, const pips_table_limits *lim, pips_error *err)
{
    const char *kind = spec, *p = strchr(spec, ':');
    size_t kind_len = p ? (size_t)(p - spec) : strlen(spec);
    while (p && *p) {
        p++;
        const char *end = p + strcspn(p, ",");
        const char *eq = memchr(p, '=', (size_t)(end - p));
        const char *colon = eq ? memchr(eq + 1, ':', (size_t)(end - eq - 1)) : NULL;
        if (colon) { /* key=KIND:...: the nested agent's own budgets follow */
            kind = eq + 1;
            kind_len = (size_t)(colon - kind);
            p = colon;
            continue;
        }
        if (eq) {
            double v = strtod(eq + 1, NULL);
            if (v != v) /* NaN passes every comparison */
                return pips_fail(err, PIPS_ERR_ARG, "agent '%s': a budget is not a number",
                                 spec);
            if (!budget_within(spec, kind, kind_len, p, (size_t)(eq - p), v, lim, err))
                return false;
        }
        p = *end ? end : NULL;
    }
    return true;
}

bool pips_table_check_spec(const pips_game *g, const char *spec, const pips_table_limits *lim,
                           pips_error *err)
{
    if (!lim)
        return true;
    if (!spec_within(spec, lim, err))
        return false;
    /* a level ("max") stands for a budget only the agent library knows */
    const char *resolved = g ? pips_agent_level_spec(g, spec) : NULL;
    return !resolved || spec_within(resolved, lim, err);
}

static void free_agents(pips_agent **agents)
{
    for (int s = 0; s < PIPS_MAX_PLAYERS; s++) {
        pips_agent_free(agents[s]);
        agents[s] = NULL;
    }
}

pips_table *pips_table_new(pips_match *m, const char *const *seats, int n,
                           const pips_table_limits *lim, pips_error *err)
{
    if (seats && !pips_match_set_seats(m, seats, n, err))
        return NULL;
    pips_table *t = pips_calloc(m->game->alloc, 1, sizeof *t);
    if (!t) {
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory for a table");
        return NULL;
    }
    t->match = m;
    t->auto_roll = true;
    for (int s = 0; s < m->n_seats; s++) {
        const char *spec = m->seats[s];
        if (pips_seat_is_human(spec))
            continue;
        if (!pips_table_check_spec(m->game, spec, lim, err) ||
            !(t->agents[s] = pips_agent_new(m->game, spec, pips_table_seat_seed(m->seed, s), err)) ||
            !pips_table_check_spec(m->game, pips_agent_spec(t->agents[s]), lim, err)) {
            pips_error_prefix(err, "seat %d (%s): ", s + 1, spec);
            free_agents(t->agents);
            pips_free(m->game->alloc, t);
            return NULL;
        }
    }
    return t;
}

void pips_table_free(pips_table *t)
{
    if (!t)
        return;
    const pips_allocator *a = t->match->game->alloc;
    free_agents(t->agents);
    pips_match_free(t->match);
    pips_free(a, t);
}

pips_match *pips_table_match(const pips_table *t) { return t->match; }
const pips_game *pips_table_game(const pips_table *t) { return t->match->game; }

void pips_table_listen(pips_table *t, pips_table_listener fn, void *ud)
{
    t->listener = fn;
    t->listener_ud = ud;
}

void pips_table_set_auto_roll(pips_table *t, bool on) { t->auto_roll = on; }
pips_agent *pips_table_agent(const pips_table *t, int seat)
{
    return seat >= 0 && seat < t->match->n_seats ? t->agents[seat] : NULL;
}
unsigned pips_table_resigned(const pips_table *t) { return t->resigned; }

static int seats_in(const pips_table *t)
{
    int in = 0;
    for (int s = 0; s < t->match->n_seats; s++)
        in += !(t->resigned & (1u << s));
    return in;
}

static bool resigned_out(const pips_table *t) { return t->resigned && seats_in(t) <= 1; }

int pips_table_to_move(const pips_table *t)
{
    return resigned_out(t) ? PIPS_OVER : pips_to_move(t->match->game, t->match->state);
}

/* A script's failure is not an ending: the game is not over, and the next
 * pips_table_run or pips_table_step reports the failure. */
bool pips_table_over(const pips_table *t)
{
    return pips_table_to_move(t) == PIPS_OVER && !pips_game_failed(t->match->game, NULL);
}

bool pips_table_agent_to_move(const pips_table *t)
{
    int who = pips_table_to_move(t);
    return who >= 0 && t->agents[who];
}

static void emit(pips_table *t, const pips_table_event *ev)
{
    if (t->listener)
        t->listener(t->listener_ud, t, ev);
}

static void emit_simple(pips_table *t, pips_table_event_kind kind, int seat)
{
    pips_table_event ev = {kind, seat, PIPS_MOVE_NONE, t->match->n_moves, NULL, false, 0};
    emit(t, &ev);
}

/* Plays m (if not NONE) and then, with auto_roll, the chance that falls
 * due; on success every agent observes the new moves and the listener hears
 * of them in order. On failure the match is as it was. */
static bool apply_moves(pips_table *t, pips_move m, bool by_agent, double seconds,
                        pips_error *err)
{
    pips_match *mt = t->match;
    size_t from = mt->n_moves;
    bool ok = m == PIPS_MOVE_NONE || pips_match_play(mt, m, err);
    for (int i = 0; ok && t->auto_roll && i < TABLE_MAX_CHANCE_CHAIN &&
                    pips_to_move(mt->game, mt->state) == PIPS_CHANCE;
         i++)
        ok = pips_match_roll(mt, NULL, err);
    if (!ok) {
        while (mt->n_moves > from)
            pips_match_undo(mt, NULL);
        return false;
    }
    size_t ss = mt->game->def->state_size;
    for (size_t i = from; i < mt->n_moves; i++) {
        const void *before = mt->history + i * ss;
        for (int s = 0; s < mt->n_seats; s++)
            if (t->agents[s])
                agent_observe_unchecked(t->agents[s], before, mt->moves[i]);
        int who = pips_to_move(mt->game, before);
        pips_table_event ev = {who == PIPS_CHANCE ? PIPS_TABLE_CHANCE : PIPS_TABLE_MOVE,
                               who >= 0 ? who : -1,
                               mt->moves[i],
                               i,
                               before,
                               i == from && by_agent,
                               i == from ? seconds : 0};
        emit(t, &ev);
    }
    if (mt->n_moves > from && pips_table_over(t))
        emit_simple(t, PIPS_TABLE_OVER, -1);
    return true;
}

static bool check_not_over(const pips_table *t, pips_error *err)
{
    if (pips_table_over(t))
        return pips_fail(err, PIPS_ERR_ILLEGAL, "the game is over");
    return true;
}

bool pips_table_play(pips_table *t, pips_move m, pips_error *err)
{
    return check_not_over(t, err) && apply_moves(t, m, false, 0, err);
}

bool pips_table_play_text(pips_table *t, const char *text, pips_error *err)
{
    pips_move m;
    return check_not_over(t, err) &&
           pips_parse_move(t->match->game, t->match->state, text, &m, err) &&
           apply_moves(t, m, false, 0, err);
}

bool pips_table_roll(pips_table *t, pips_error *err)
{
    pips_move outcome;
    return check_not_over(t, err) && pips_match_draw(t->match, &outcome, err) &&
           apply_moves(t, outcome, false, 0, err);
}

/* A scripted game's failure (src/lua/): reported with the ply, then cleared,
 * as the position is the one before the failing call. */
static bool script_failed(pips_table *t, pips_error *err)
{
    pips_error why;
    if (!pips_game_failed(t->match->game, &why))
        return false;
    pips_game_clear_failure(t->match->game);
    pips_fail(err, why.code, "ply %zu: %s", t->match->n_moves + 1, why.msg);
    return true;
}

bool pips_table_think(pips_table *t, int seat, const void *state, pips_move *out,
                      double *seconds, pips_error *err)
{
    pips_agent *a = pips_table_agent(t, seat);
    if (!a)
        return pips_fail(err, PIPS_ERR_ARG, "seat %d is not played by an agent", seat + 1);
    double t0 = pips_now();
    bool ok = agent_choose_unchecked(a, state, out, err);
    if (seconds)
        *seconds = pips_now() - t0;
    if (script_failed(t, err))
        return false;
    if (!ok)
        pips_error_prefix(err, "seat %d (%s): ", seat + 1, pips_agent_spec(a));
    return ok;
}

bool pips_table_step(pips_table *t, pips_error *err)
{
    int who = pips_table_to_move(t);
    if (script_failed(t, err))
        return false;
    if (who == PIPS_OVER)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "the game is over");
    if (who == PIPS_CHANCE)
        return pips_table_roll(t, err);
    if (!t->agents[who])
        return pips_fail(err, PIPS_ERR_ARG, "seat %d is played by a person", who + 1);
    pips_move m;
    double secs;
    if (!pips_table_think(t, who, t->match->state, &m, &secs, err))
        return false;
    if (!apply_moves(t, m, true, secs, err)) {
        if (!err || err->code != PIPS_ERR_SCRIPT) /* a script's failure is not the agent's */
            pips_error_prefix(err, "seat %d (%s) chose an illegal move: ", who + 1,
                              pips_agent_spec(t->agents[who]));
        return false;
    }
    return true;
}

bool pips_table_run(pips_table *t, size_t max_plies, pips_error *err)
{
    for (;;) {
        int who = pips_table_to_move(t);
        if (script_failed(t, err))
            return false;
        if (who == PIPS_OVER || (who >= 0 && !t->agents[who]) ||
            (max_plies && t->match->n_moves >= max_plies))
            return true;
        if (!pips_table_step(t, err))
            return false;
    }
}

static bool human_decision(const pips_table *t, size_t i)
{
    const pips_match *mt = t->match;
    int who = pips_to_move(mt->game, mt->history + i * mt->game->def->state_size);
    return who >= 0 && !t->agents[who];
}

static bool undo_to(pips_table *t, size_t target, pips_error *err)
{
    while (t->match->n_moves > target)
        if (!pips_match_undo(t->match, err))
            return false;
    emit_simple(t, PIPS_TABLE_UNDO, -1);
    return true;
}

bool pips_table_take_back(pips_table *t, pips_error *err)
{
    if (resigned_out(t))
        return pips_fail(err, PIPS_ERR_ILLEGAL, "the game was resigned");
    size_t target = t->match->n_moves;
    while (target > 0 && !human_decision(t, target - 1))
        target--;
    if (target == 0)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "no move of a person to take back");
    return undo_to(t, target - 1, err);
}

bool pips_table_undo(pips_table *t, pips_error *err)
{
    if (resigned_out(t))
        return pips_fail(err, PIPS_ERR_ILLEGAL, "the game was resigned");
    if (t->match->n_moves == 0)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "no move to take back");
    return undo_to(t, t->match->n_moves - 1, err);
}

/* The agent that plays a resigned seat's turns. */
static pips_agent *autopilot_new(const pips_table *t, int seat, pips_error *err)
{
    return pips_agent_new(t->match->game, "random",
                          pips_table_seat_seed(t->match->seed, seat) ^ 1u, err);
}

bool pips_table_resign(pips_table *t, int seat, pips_error *err)
{
    pips_match *mt = t->match;
    if (seat < 0 || seat >= mt->n_seats)
        return pips_fail(err, PIPS_ERR_ARG, "no seat %d in a %d-seat game", seat + 1, mt->n_seats);
    if (!check_not_over(t, err))
        return false;
    if (t->resigned & (1u << seat))
        return pips_fail(err, PIPS_ERR_ILLEGAL, "seat %d has already resigned", seat + 1);
    if (seats_in(t) > 2) {
        /* the others play on: the seat's turns go to its autopilot */
        pips_agent *autopilot = autopilot_new(t, seat, err);
        if (!autopilot)
            return false;
        pips_agent_free(t->agents[seat]);
        t->agents[seat] = autopilot;
        t->autopiloted |= 1u << seat;
    }
    t->resigned |= 1u << seat;
    if (resigned_out(t) && !mt->finished[0])
        pips_iso_time(mt->finished);
    emit_simple(t, PIPS_TABLE_RESIGN, seat);
    if (resigned_out(t))
        emit_simple(t, PIPS_TABLE_OVER, -1);
    return true;
}

bool pips_table_set_resigned(pips_table *t, unsigned mask, pips_error *err)
{
    pips_match *mt = t->match;
    if (mask >> mt->n_seats)
        return pips_fail(err, PIPS_ERR_ARG, "resigned seats 0x%x: the game has %d seats", mask,
                         mt->n_seats);
    if (__builtin_popcount(mask) >= mt->n_seats)
        return pips_fail(err, PIPS_ERR_ARG, "every seat resigned");
    /* while play goes on, every resigned seat (a person or an agent, e.g.
     * one whose flag fell) is played by its autopilot; a seat no longer
     * resigned gets its own player back (NULL for a person) */
    unsigned pilots = __builtin_popcount(mask) < mt->n_seats - 1 ? mask : 0;
    unsigned change = pilots ^ t->autopiloted;
    pips_agent *made[PIPS_MAX_PLAYERS] = {NULL};
    for (int s = 0; s < mt->n_seats; s++) {
        if (!(change >> s & 1) || (!(pilots >> s & 1) && pips_seat_is_human(mt->seats[s])))
            continue;
        made[s] = pilots >> s & 1 ? autopilot_new(t, s, err)
                                  : pips_agent_new(mt->game, mt->seats[s],
                                                   pips_table_seat_seed(mt->seed, s), err);
        if (!made[s]) {
            free_agents(made);
            return false;
        }
    }
    for (int s = 0; s < mt->n_seats; s++)
        if (change >> s & 1) {
            pips_agent_free(t->agents[s]);
            t->agents[s] = made[s];
        }
    t->autopiloted = pilots;
    t->resigned = mask;
    return true;
}

bool pips_table_returns(const pips_table *t, double *out)
{
    const pips_match *mt = t->match;
    int n = mt->n_seats;
    if (!pips_table_over(t))
        return false;
    if (resigned_out(t)) {
        for (int s = 0; s < n; s++)
            out[s] = t->resigned & (1u << s) ? 0.0 : 1.0;
        return true;
    }
    mt->game->def->returns(mt->game, mt->state, out);
    if (!t->resigned)
        return true;
    /* resigned seats score nothing; the others keep their shares of the total */
    double total = 0, kept = 0;
    for (int s = 0; s < n; s++) {
        total += out[s];
        if (!(t->resigned & (1u << s)))
            kept += out[s];
    }
    int in = seats_in(t);
    for (int s = 0; s < n; s++)
        out[s] = t->resigned & (1u << s) ? 0.0 : kept > 0 ? out[s] * total / kept : total / in;
    return true;
}

void pips_table_result_text(const pips_table *t, pips_str *out)
{
    const pips_match *mt = t->match;
    const char *sep = "";
    for (int s = 0; s < mt->n_seats; s++)
        if (t->resigned & (1u << s)) {
            pips_str_catf(out, "%sseat %d resigns", sep, s + 1);
            sep = "; ";
        }
    if (resigned_out(t)) {
        for (int s = 0; s < mt->n_seats; s++)
            if (!(t->resigned & (1u << s)))
                pips_str_catf(out, "; seat %d wins", s + 1);
        return;
    }
    pips_str_cat(out, sep);
    mt->game->def->result_text(mt->game, mt->state, out);
}
