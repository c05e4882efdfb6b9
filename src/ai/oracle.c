/*
 * oracle.c — the `oracle` agent: perfect play wherever the exact solver
 * settles the position within the agent's budget, the game's own best
 * search elsewhere.
 *
 * Spec: oracle[:time=S][,positions=N][,table_mb=M][,threads=T][,book=0|1]
 *        [,fallback=SPEC]
 * Two seats only (PIPS_ERR_UNSUPPORTED otherwise, as for alphabeta).
 *   time       seconds the solver may take per move (default 2)
 *   positions  nodes the solver may visit per move (default: no limit)
 *   table_mb   the solver's memory budget (default 256)
 *   book       1 (default): first look the children up in the game's book of
 *              solved positions (def->known_value), and play a winning one
 *              found there without searching; 0: never
 *   fallback   the strength level (easy, medium, hard) or agent spec played
 *              when the solver gives up (default hard). It comes last and
 *              takes the rest of the spec, commas included, so the fallback
 *              keeps all its parameters: fallback=mcts:iters=10000,opp=greedy.
 *              The normalised spec prints it last, as given, so it reads back.
 * The solver keeps its table from move to move (the generic solver's; a
 * game's own solver, Nimitz's, starts afresh), so once a position is
 * solved the rest of the game costs little.
 *
 * Choice: among the moves of the best exact value (win, else draw, else
 * loss) one is drawn with the agent's rng, so games vary but a seed
 * reproduces them; where the position is solved as a win but its moves are
 * not all settled in time, the solver's winning move; in a lost position
 * the fallback picks among the losing moves the one it likes (a practical
 * chance against a fallible opponent).
 * Analysis gives exact values (1, 0.5, 0) when solved; otherwise the
 * fallback's ranking, and pips_agent_note says which.
 */
#include <stdio.h>
#include <string.h>

#include "ai/agent_impl.h"
#include "core/unchecked.h"

#define ORACLE_DEFAULT_SECONDS 2.0
#define ORACLE_DEFAULT_TABLE_MB 256

typedef struct oracle {
    pips_solver *solver;
    pips_agent *fallback;
    pips_value *values; /* max_moves */
    double seconds;
    uint64_t positions;
    bool book;
    void *child; /* state_size scratch for the book */
    pips_move won; /* a winning move of a position solved without its moves, or none */
    char why_not[PIPS_ERROR_MAX]; /* why there is no solver, when there is none */
} oracle;

static void oracle_destroy(pips_agent *a)
{
    oracle *o = a->impl;
    if (!o)
        return;
    pips_solver_free(o->solver);
    pips_agent_free(o->fallback);
    pips_free(a->game->alloc, o->values);
    pips_free(a->game->alloc, o->child);
    pips_free(a->game->alloc, o);
    a->impl = NULL;
}

/* Solves every move of state; false (with the reason in the note) when the
 * solver cannot settle it within the budget. */
static bool oracle_solve(pips_agent *a, const void *state, size_t *n, pips_value *best)
{
    oracle *o = a->impl;
    pips_solve_result res;
    pips_error err;
    o->won = PIPS_MOVE_NONE;
    /* under the caller's cap the solver takes half of it at most, the
     * fallback what is left */
    pips_solver_set_seconds(o->solver, a->time_cap > 0 && (o->seconds <= 0 || o->seconds > a->time_cap / 2)
                                           ? a->time_cap / 2 : o->seconds);
    pips_agent_set_time_cap(o->fallback, a->time_cap > 0 ? a->time_cap / 2 : 0);
    if (!o->solver) {
        snprintf(a->note, sizeof a->note, "not solvable (%s); %s chose", o->why_not,
                 pips_agent_spec(o->fallback));
        return false;
    }
    if (!solver_moves_unchecked(o->solver, state, a->moves, o->values, &res, &err)) {
        if (res.value_known && res.value == PIPS_WIN && res.best_move != PIPS_MOVE_NONE) {
            o->won = res.best_move;
            snprintf(a->note, sizeof a->note, "solved: win, the solver's move (%s)", err.msg);
            a->has_last_value = true;
            a->last_value = 1.0;
        } else {
            snprintf(a->note, sizeof a->note, "not solved (%s); %s chose", err.msg,
                     pips_agent_spec(o->fallback));
        }
        return false;
    }
    *n = res.n_moves;
    *best = res.value;
    snprintf(a->note, sizeof a->note, "solved: %s (%llu positions, %.3f s)",
             pips_value_name(res.value), (unsigned long long)res.positions, res.seconds);
    a->has_last_value = true;
    a->last_value = res.value == PIPS_WIN ? 1.0 : res.value == PIPS_DRAW ? 0.5 : 0.0;
    return true;
}

static double value_score(pips_value v) { return v == PIPS_WIN ? 1.0 : v == PIPS_DRAW ? 0.5 : 0.0; }

/* The moves whose children the game's book holds as lost for the player to
 * move there, moved to the front of a->moves; returns how many. */
static size_t book_wins(pips_agent *a, const void *state)
{
    oracle *o = a->impl;
    const pips_game *g = a->game;
    if (!o->book || !g->def->known_value || !o->child)
        return 0;
    size_t n = g->def->legal_moves(g, state, a->moves), wins = 0;
    for (size_t i = 0; i < n; i++) {
        memcpy(o->child, state, g->def->state_size);
        g->def->apply(g, o->child, a->moves[i]);
        pips_value v;
        if (pips_to_move(g, o->child) >= 0 && g->def->known_value(g, o->child, &v) &&
            v == PIPS_LOSS) {
            pips_move m = a->moves[wins];
            a->moves[wins++] = a->moves[i];
            a->moves[i] = m;
        }
    }
    return wins;
}

static bool oracle_choose(pips_agent *a, const void *state, pips_move *out, pips_error *err)
{
    oracle *o = a->impl;
    size_t n = book_wins(a, state);
    pips_value best;
    if (n > 0) {
        *out = a->moves[pips_rng_below(&a->rng, n)];
        snprintf(a->note, sizeof a->note, "book: a win (%zu winning moves known)", n);
        a->has_last_value = true;
        a->last_value = 1.0;
        return true;
    }
    if (!oracle_solve(a, state, &n, &best)) {
        if (o->won != PIPS_MOVE_NONE) {
            *out = o->won;
            return true;
        }
        return agent_choose_unchecked(o->fallback, state, out, err);
    }
    if (best == PIPS_LOSS)
        return agent_choose_unchecked(o->fallback, state, out, err);
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        count += o->values[i] == best;
    size_t pick = (size_t)pips_rng_below(&a->rng, count);
    for (size_t i = 0; i < n; i++)
        if (o->values[i] == best && pick-- == 0) {
            *out = a->moves[i];
            return true;
        }
    return pips_fail(err, PIPS_ERR_ILLEGAL, "oracle: no move of the solved value");
}

static size_t oracle_analyze(pips_agent *a, const void *state, pips_move_eval *out, size_t max,
                             pips_error *err)
{
    oracle *o = a->impl;
    size_t n;
    pips_value best;
    if (!oracle_solve(a, state, &n, &best))
        return agent_analyze_unchecked(o->fallback, state, out, max, err);
    size_t k = 0;
    for (size_t i = 0; i < n && k < max; i++) {
        out[k].move = a->moves[i];
        out[k].value = value_score(o->values[i]);
        out[k].visits = 0;
        out[k].proven = true;
        k++;
    }
    agent_sort_evals(out, k);
    return k;
}

bool agent_oracle_init(pips_agent *a, const char *params, pips_error *err)
{
    const pips_game *g = a->game;
    double seconds = ORACLE_DEFAULT_SECONDS;
    long positions = 0, table_mb = ORACLE_DEFAULT_TABLE_MB, threads = 1, book = 1;
    char fallback[PIPS_SPEC_MAX] = "hard";
    char key[AGENT_KEY_MAX], value[AGENT_VALUE_MAX];
    bool bad = false, time_given = false;
    const char *p = params;
    while (*p) {
        if (!strncmp(p, "fallback=", 9)) {
            /* the rest of the spec, commas included: the fallback's own
             * parameters (params is shorter than PIPS_SPEC_MAX) */
            snprintf(fallback, sizeof fallback, "%s", p + 9);
            if (!*fallback || !strcmp(fallback, "max") || !strncmp(fallback, "oracle", 6))
                return pips_fail(err, PIPS_ERR_ARG,
                                 "oracle: fallback='%s' %s (use easy, medium, hard or an agent "
                                 "spec)",
                                 fallback, *fallback ? "would call the oracle again" : "is empty");
            break;
        }
        if (!agent_param_next(&p, "oracle", key, value, &bad, err))
            break;
        bool ok;
        if (!strcmp(key, "time")) {
            ok = agent_param_double("oracle", key, value, 0.001, 1e6, &seconds, err);
            time_given = true;
        }
        else if (!strcmp(key, "positions"))
            ok = agent_param_long("oracle", key, value, 1, 1L << 62, &positions, err);
        else if (!strcmp(key, "table_mb"))
            ok = agent_param_long("oracle", key, value, 1, 1L << 20, &table_mb, err);
        else if (!strcmp(key, "threads"))
            ok = agent_param_long("oracle", key, value, 1, 64, &threads, err);
        else if (!strcmp(key, "book"))
            ok = agent_param_long("oracle", key, value, 0, 1, &book, err);
        else
            ok = pips_fail(err, PIPS_ERR_ARG,
                           "oracle: unknown parameter '%s' (time, positions, table_mb, threads, "
                           "book, fallback last)",
                           key);
        if (!ok)
            return false;
    }
    if (bad)
        return false;
    if (positions && !time_given)
        seconds = 0; /* a node budget alone: deterministic */
    /* win, draw and loss are two-seat values: with more seats the oracle is
     * refused like alphabeta (the levels for 3+ seats name other kinds) */
    if (pips_num_players(g) != 2)
        return pips_fail(err, PIPS_ERR_UNSUPPORTED,
                         "oracle cannot play %d seats, only two (%s; kinds that can: %s)",
                         pips_num_players(g), g->def->name, agent_nseat_kinds());
    oracle *o = pips_calloc(g->alloc, 1, sizeof *o);
    if (!o)
        return pips_fail(err, PIPS_ERR_NOMEM, "oracle: out of memory");
    a->impl = o;
    a->destroy = oracle_destroy;
    o->seconds = seconds;
    o->positions = (uint64_t)positions;
    pips_solve_opts so = {(int)threads, (size_t)table_mb, NULL, NULL, seconds, (uint64_t)positions,
                          NULL, NULL};
    /* a game the solver refuses outright is still played, by the fallback */
    pips_error serr;
    o->solver = pips_solver_new(g, &so, true, &serr);
    if (!o->solver && serr.code != PIPS_ERR_UNSUPPORTED) {
        *err = serr;
        return false;
    }
    if (!o->solver)
        snprintf(o->why_not, sizeof o->why_not, "%s", serr.msg);
    o->fallback = pips_agent_new(g, fallback, a->seed, err);
    if (!o->fallback) {
        pips_error_prefix(err, "oracle fallback '%s'%s: ", fallback,
                          strchr(fallback, ',') ? " (fallback= comes last and takes the rest of "
                                                  "the spec)"
                                                : "");
        return false;
    }
    a->analyze_max = o->fallback->analyze_max; /* its analysis is the fallback's */
    o->book = book != 0;
    o->values = pips_calloc(g->alloc, pips_max_moves(g), sizeof *o->values);
    if (g->def->known_value && o->book)
        o->child = pips_calloc(g->alloc, 1, g->def->state_size);
    if (!o->values || (g->def->known_value && o->book && !o->child))
        return pips_fail(err, PIPS_ERR_NOMEM, "oracle: out of memory");
    a->choose = oracle_choose;
    a->analyze = oracle_analyze;
    snprintf(a->spec, sizeof a->spec, "oracle");
    if (seconds > 0)
        agent_spec_add(a, "time=%g", seconds);
    if (positions)
        agent_spec_add(a, "positions=%ld", positions);
    agent_spec_add(a, "table_mb=%ld", table_mb);
    agent_spec_add(a, "threads=%ld", threads);
    if (!book)
        agent_spec_add(a, "book=0");
    agent_spec_add(a, "fallback=%s", fallback);
    return true;
}
