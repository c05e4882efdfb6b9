/*
 * ffi.c — libpips for other languages (pips/ffi.h): checked calls over the
 * game interface, and the solver, the playtest lab and the ladder driven by
 * JSON requests. It sits on top of every layer (games, AI, play, lab) and
 * adds no behaviour of its own: each call checks its arguments, then hands
 * over to the call a C program would make.
 *
 * Invariants: a failed call leaves the state it was given unchanged; a JSON
 * request is read whole (unknown members are errors) before anything runs.
 */
#include "pips/ffi.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pips/agent.h"
#include "pips/ladder.h"
#include "pips/version.h"
#include "pips/view.h"
#include "play/play_json.h"
#include "core/unchecked.h"

/* The check at the entry of every call taking a (game, state) pair. */
static bool given(const pips_game *g, const void *state, pips_error *err)
{
    return pips_state_check(g, state, err);
}

static bool out_given(const void *out, pips_error *err)
{
    return out ? true : pips_fail(err, PIPS_ERR_ARG, "nowhere to put the result (NULL)");
}

/* Appends a jansson value's text to out and releases the value. */
static bool put_json(json_t *doc, pips_str *out, pips_error *err)
{
    char *text = doc ? json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(doc);
    if (text)
        pips_str_cat(out, text);
    free(text);
    if (!text || out->failed)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory for a JSON reply");
    return true;
}

/* ---- games and states ---- */

bool pips_games_json(pips_str *out, pips_error *err)
{
    if (!out_given(out, err))
        return false;
    pips_str_cat(out, "[");
    for (size_t i = 0; i < pips_game_count(); i++) {
        if (i)
            pips_str_cat(out, ",");
        if (!pips_game_schema_json(pips_game_def_at(i), out, err))
            return false;
    }
    pips_str_cat(out, "]");
    return out->failed ? pips_fail(err, PIPS_ERR_NOMEM, "out of memory") : true;
}

const char *pips_game_name(const pips_game *g) { return g && g->def ? g->def->name : ""; }

int pips_game_players(const pips_game *g, pips_error *err)
{
    if (!g || !g->def)
        return pips_fail(err, PIPS_ERR_ARG, "no game (NULL)"), 0;
    return g->def->num_players(g);
}

size_t pips_game_state_size(const pips_game *g) { return g && g->def ? g->def->state_size : 0; }

size_t pips_game_max_moves(const pips_game *g)
{
    return g && g->def ? g->def->max_moves(g) : 0;
}

bool pips_game_options_json(const pips_game *g, pips_str *out, pips_error *err)
{
    if (!g || !g->def)
        return pips_fail(err, PIPS_ERR_ARG, "no game (NULL)");
    return out_given(out, err) && put_json(play_options_to_json(g), out, err);
}

bool pips_game_schema(const pips_game *g, pips_str *out, pips_error *err)
{
    if (!g || !g->def)
        return pips_fail(err, PIPS_ERR_ARG, "no game (NULL)");
    return out_given(out, err) && pips_game_schema_json(g->def, out, err);
}

int pips_state_to_move(const pips_game *g, const void *state)
{
    return given(g, state, NULL) ? g->def->to_move(g, state) : PIPS_OVER;
}

size_t pips_state_moves(const pips_game *g, const void *state, pips_rng *rng, pips_move *out,
                        double *prob, pips_error *err)
{
    if (!given(g, state, err) || !out_given(out, err))
        return 0;
    if (!rng && (g->def->flags & PIPS_GAME_NOT_ENUMERABLE) &&
        g->def->to_move(g, state) >= 0)
        return pips_fail(err, PIPS_ERR_ARG, "%s lists candidate moves: it needs an rng",
                         g->def->name), 0;
    if (err)
        err->code = PIPS_OK;
    return pips_node_moves(g, state, rng, out, prob);
}

bool pips_move_parse(const pips_game *g, const void *state, const char *text, pips_move *m,
                     pips_error *err)
{
    return given(g, state, err) && out_given(m, err) &&
           pips_parse_move(g, state, text, m, err);
}

bool pips_state_perft(const pips_game *g, const void *state, int depth, uint64_t *count,
                      pips_error *err)
{
    return given(g, state, err) && out_given(count, err) &&
           pips_perft_count(g, state, depth, count, err);
}

bool pips_agent_move(pips_agent *a, const void *state, pips_move *out, pips_error *err)
{
    if (!a)
        return pips_fail(err, PIPS_ERR_ARG, "no agent (NULL)");
    return given(pips_agent_game(a), state, err) && agent_choose_unchecked(a, state, out, err);
}

bool pips_agent_observe_move(pips_agent *a, const void *state_before, pips_move m,
                             pips_error *err)
{
    if (!a)
        return pips_fail(err, PIPS_ERR_ARG, "no agent (NULL)");
    const pips_game *g = pips_agent_game(a);
    if (!given(g, state_before, err) || !pips_check_move(g, state_before, m, err))
        return false;
    agent_observe_unchecked(a, state_before, m);
    return true;
}

bool pips_play(const pips_game *g, void *state, pips_move m, pips_error *err)
{
    if (!given(g, state, err) || !pips_check_move(g, state, m, err))
        return false;
    g->def->apply(g, state, m);
    return true;
}

bool pips_state_returns(const pips_game *g, const void *state, double *out, pips_error *err)
{
    if (!given(g, state, err) || !out_given(out, err))
        return false;
    if (g->def->to_move(g, state) != PIPS_OVER)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "%s: the game is not over", g->def->name);
    g->def->returns(g, state, out);
    return true;
}

bool pips_move_text(const pips_game *g, const void *state, pips_move m, char *buf,
                    pips_error *err)
{
    if (!given(g, state, err) || !out_given(buf, err) || !pips_check_move(g, state, m, err))
        return false;
    g->def->move_to_text(g, state, m, buf);
    return true;
}

bool pips_state_text(const pips_game *g, const void *state, pips_str *out, pips_error *err)
{
    if (!given(g, state, err) || !out_given(out, err))
        return false;
    g->def->state_to_text(g, state, out);
    return out->failed ? pips_fail(err, PIPS_ERR_NOMEM, "out of memory") : true;
}

bool pips_state_set_text(const pips_game *g, void *state, const char *text, pips_error *err)
{
    if (!given(g, state, err))
        return false;
    if (!text)
        return pips_fail(err, PIPS_ERR_ARG, "no state text (NULL)");
    void *scratch = pips_malloc(g->alloc, g->def->state_size);
    if (!scratch)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory for a %s state", g->def->name);
    bool ok = g->def->state_from_text(g, text, scratch, err);
    if (ok)
        memcpy(state, scratch, g->def->state_size);
    pips_free(g->alloc, scratch);
    return ok;
}

bool pips_state_canonical(const pips_game *g, const void *state, void *out, pips_error *err)
{
    if (!given(g, state, err) || !given(g, out, err))
        return false;
    if (!g->def->canonical)
        return pips_fail(err, PIPS_ERR_ARG,
                         "%s has no canonical form (no symmetries are defined for it)",
                         g->def->name);
    void *scratch = pips_malloc(g->alloc, g->def->state_size);
    if (!scratch)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory for a %s state", g->def->name);
    g->def->canonical(g, state, scratch); /* out may be state itself */
    memcpy(out, scratch, g->def->state_size);
    pips_free(g->alloc, scratch);
    return true;
}

bool pips_state_render(const pips_game *g, const void *state, bool unicode, pips_str *out,
                       pips_error *err)
{
    if (!given(g, state, err) || !out_given(out, err))
        return false;
    pips_render_opts ro = {.unicode = unicode, .colour = false};
    g->def->render(g, state, &ro, out);
    return out->failed ? pips_fail(err, PIPS_ERR_NOMEM, "out of memory") : true;
}

bool pips_state_view_json(const pips_game *g, const void *state, pips_str *out,
                          pips_error *err)
{
    if (!given(g, state, err) || !out_given(out, err))
        return false;
    json_t *o = state_object_unchecked(g, state, err);
    return o && put_json(o, out, err);
}

/* ---- JSON requests ---- */

/* Parses request text into an object whose members are all among known
 * (NULL-terminated). NULL or "" is the empty object. */
static json_t *request_open(const char *text, const char *what, const char *const *known,
                            pips_error *err)
{
    json_error_t je;
    json_t *o = text && *text ? json_loads(text, JSON_REJECT_DUPLICATES, &je) : json_object();
    if (!o) {
        pips_fail(err, PIPS_ERR_ARG, "%s: invalid JSON at line %d column %d: %s", what,
                  je.line, je.column, je.text);
        return NULL;
    }
    if (!json_is_object(o)) {
        json_decref(o);
        pips_fail(err, PIPS_ERR_ARG, "%s: expected a JSON object", what);
        return NULL;
    }
    const char *key;
    json_t *val;
    json_object_foreach(o, key, val) {
        size_t k = 0;
        while (known[k] && strcmp(known[k], key))
            k++;
        if (!known[k]) {
            pips_str list;
            pips_str_init(&list, NULL);
            for (k = 0; known[k]; k++)
                pips_str_catf(&list, "%s%s", k ? ", " : "", known[k]);
            pips_fail(err, PIPS_ERR_ARG, "%s: unknown member '%.40s' (members: %s)", what, key,
                      pips_str_cstr(&list));
            pips_str_free(&list);
            json_decref(o);
            return NULL;
        }
    }
    return o;
}

static bool req_string(const json_t *o, const char *what, const char *key, const char **out,
                       pips_error *err)
{
    const json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v))
        return true;
    if (!json_is_string(v))
        return pips_fail(err, PIPS_ERR_ARG, "%s: '%s' must be a string", what, key);
    *out = json_string_value(v);
    return true;
}

static bool req_number(const json_t *o, const char *what, const char *key, double lo, double hi,
                       bool whole, double *out, pips_error *err)
{
    const json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v))
        return true;
    double x = json_is_number(v) ? json_number_value(v) : NAN;
    if (!(x >= lo && x <= hi) || (whole && x != floor(x)))
        return pips_fail(err, PIPS_ERR_ARG, "%s: '%s' must be a %s from %.17g to %.17g", what,
                         key, whole ? "whole number" : "number", lo, hi);
    *out = x;
    return true;
}

/* A seed: a whole number from 0 to 2^63 - 1 (JSON's integers). */
static bool req_seed(const json_t *o, const char *what, uint64_t *out, pips_error *err)
{
    const json_t *v = json_object_get(o, "seed");
    if (!v || json_is_null(v))
        return true;
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return pips_fail(err, PIPS_ERR_ARG, "%s: 'seed' must be a whole number from 0", what);
    *out = (uint64_t)json_integer_value(v);
    return true;
}

static bool req_bool(const json_t *o, const char *what, const char *key, bool *out,
                     pips_error *err)
{
    const json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v))
        return true;
    if (!json_is_boolean(v))
        return pips_fail(err, PIPS_ERR_ARG, "%s: '%s' must be true or false", what, key);
    *out = json_is_true(v);
    return true;
}

/* An array of strings (or one string) into out[max], pointing into o. */
static bool req_strings(const json_t *o, const char *what, const char *key, const char **out,
                        size_t max, size_t *n, pips_error *err)
{
    const json_t *v = json_object_get(o, key);
    *n = 0;
    if (!v || json_is_null(v))
        return true;
    if (json_is_string(v)) {
        out[(*n)++] = json_string_value(v);
        return true;
    }
    if (!json_is_array(v) || json_array_size(v) > max)
        return pips_fail(err, PIPS_ERR_ARG, "%s: '%s' must be a list of at most %zu strings",
                         what, key, max);
    for (size_t i = 0; i < json_array_size(v); i++) {
        const json_t *s = json_array_get(v, i);
        if (!json_is_string(s))
            return pips_fail(err, PIPS_ERR_ARG, "%s: '%s' item %zu is not a string", what, key,
                             i + 1);
        out[(*n)++] = json_string_value(s);
    }
    return true;
}

/* "vary": {"KEY": [V1, V2...] or "V1,V2"} into "KEY=V1,V2" strings (';'
 * between values when one holds a comma), kept in texts[PIPS_MAX_OPTIONS]. */
static bool req_vary(const json_t *o, const char *what, pips_str *texts, const char **vary,
                     size_t *n, pips_error *err)
{
    const json_t *v = json_object_get(o, "vary");
    *n = 0;
    if (!v || json_is_null(v))
        return true;
    if (!json_is_object(v))
        return pips_fail(err, PIPS_ERR_ARG, "%s: 'vary' must be an object of KEY: [values]",
                         what);
    const char *key;
    json_t *vals;
    json_object_foreach((json_t *)v, key, vals) {
        if (*n == PIPS_MAX_OPTIONS)
            return pips_fail(err, PIPS_ERR_ARG, "%s: 'vary' has more than %d keys", what,
                             PIPS_MAX_OPTIONS);
        pips_str *t = &texts[*n];
        pips_str_catf(t, "%s=", key);
        if (json_is_array(vals)) {
            char items[64][PIPS_OPT_VALUE_MAX];
            size_t m = json_array_size(vals);
            if (m == 0 || m > 64)
                return pips_fail(err, PIPS_ERR_ARG, "%s: vary '%.40s' needs 1 to 64 values",
                                 what, key);
            bool comma = false;
            for (size_t i = 0; i < m; i++) {
                if (!play_value_text(key, json_array_get(vals, i), items[i], sizeof items[i],
                                     err))
                    return false;
                comma |= strchr(items[i], ',') != NULL;
            }
            for (size_t i = 0; i < m; i++)
                pips_str_catf(t, "%s%s", i ? (comma ? ";" : ",") : "", items[i]);
        } else {
            char text[PIPS_OPT_VALUE_MAX];
            if (!play_value_text(key, vals, text, sizeof text, err))
                return false;
            pips_str_cat(t, text);
        }
        if (t->failed)
            return pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
        vary[(*n)++] = pips_str_cstr(t);
    }
    return true;
}

static bool req_options(const json_t *o, const char *what, const char *key, play_kv *kv,
                        pips_error *err)
{
    if (!play_options_kv(json_object_get(o, key), kv, err)) {
        pips_error_prefix(err, "%s: '%s': ", what, key);
        return false;
    }
    return true;
}

bool pips_solve_json(const pips_game *g, const void *state, const char *request,
                     pips_str *out, pips_error *err)
{
    static const char *const known[] = {"moves", "threads", "table_mb", "max_seconds",
                                        "max_nodes", NULL};
    if (!given(g, state, err) || !out_given(out, err))
        return false;
    json_t *req = request_open(request, "solve", known, err);
    if (!req)
        return false;
    bool moves = false;
    double threads = 1, table_mb = 0, seconds = 0, nodes = 0;
    bool ok = req_bool(req, "solve", "moves", &moves, err) &&
              req_number(req, "solve", "threads", 1, 256, true, &threads, err) &&
              req_number(req, "solve", "table_mb", 0, 1 << 20, true, &table_mb, err) &&
              req_number(req, "solve", "max_seconds", 0, 1e9, false, &seconds, err) &&
              req_number(req, "solve", "max_nodes", 0, 1e18, true, &nodes, err);
    json_decref(req);
    if (!ok)
        return false;
    pips_solve_opts so = {.threads = (int)threads, .table_mb = (size_t)table_mb,
                          .max_seconds = seconds, .max_nodes = (uint64_t)nodes};
    size_t max = g->def->max_moves(g);
    pips_solve_result res;
    if (moves) {
        so.moves = pips_malloc(g->alloc, max * sizeof *so.moves);
        so.move_values = pips_malloc(g->alloc, max * sizeof *so.move_values);
        ok = so.moves && so.move_values ? solve_moves_unchecked(g, state, &so, &res, err)
                                        : pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
    } else {
        ok = solve_position_unchecked(g, state, &so, &res, err);
    }
    json_t *doc = NULL;
    if (ok) {
        char best[PIPS_MOVE_TEXT_MAX] = "";
        if (res.best_move != PIPS_MOVE_NONE)
            g->def->move_to_text(g, state, res.best_move, best);
        doc = json_pack("{s:s, s:I, s:I, s:f, s:o}", "value", pips_value_name(res.value),
                        "positions", (json_int_t)res.positions, "nodes",
                        (json_int_t)res.nodes, "seconds", res.seconds, "best",
                        *best ? json_string(best) : json_null());
        json_t *list = moves ? json_array() : NULL;
        for (size_t i = 0; list && i < res.n_moves; i++) {
            char text[PIPS_MOVE_TEXT_MAX];
            g->def->move_to_text(g, state, so.moves[i], text);
            json_array_append_new(list, json_pack("{s:s, s:I, s:s}", "move", text, "id",
                                                   (json_int_t)so.moves[i], "value",
                                                   pips_value_name(so.move_values[i])));
        }
        if (doc && list)
            json_object_set_new(doc, "moves", list);
    }
    pips_free(g->alloc, so.moves);
    pips_free(g->alloc, so.move_values);
    return ok && put_json(doc, out, err);
}

/* ---- the lab ---- */

bool pips_playtest_request(const char *request, pips_str *out, pips_error *err)
{
    static const char *const known[] = {"game", "seats", "games", "seed", "threads",
                                        "options", "vs", "vary", "seating", "decisive",
                                        "exact_seconds", "exact_mb", "out", NULL};
    const char *what = "playtest";
    if (!out_given(out, err))
        return false;
    json_t *req = request_open(request, what, known, err);
    if (!req)
        return false;
    const char *game = NULL, *seating_name = NULL, *dir = NULL;
    const char *seats[PIPS_LAB_MAX_SEATS];
    const char *vary[PIPS_MAX_OPTIONS];
    size_t n_seats = 0, n_vary = 0;
    uint64_t seed = 1;
    double games = 100, threads = 1, decisive = 0.8, exact_seconds = 0, exact_mb = 64;
    play_kv opts, vs;
    pips_str vary_text[PIPS_MAX_OPTIONS];
    for (size_t i = 0; i < PIPS_MAX_OPTIONS; i++)
        pips_str_init(&vary_text[i], NULL);
    pips_seating seating = PIPS_SEATING_ROTATE;
    bool ok = req_string(req, what, "game", &game, err) &&
              req_strings(req, what, "seats", seats, PIPS_LAB_MAX_SEATS, &n_seats, err) &&
              req_number(req, what, "games", 1, PIPS_LAB_MAX_GAMES, true, &games, err) &&
              req_seed(req, what, &seed, err) &&
              req_number(req, what, "threads", 1, 256, true, &threads, err) &&
              req_number(req, what, "decisive", 0.5, 1, false, &decisive, err) &&
              req_number(req, what, "exact_seconds", 0, 86400, false, &exact_seconds, err) &&
              req_number(req, what, "exact_mb", 1, 1 << 20, true, &exact_mb, err) &&
              req_string(req, what, "seating", &seating_name, err) &&
              req_string(req, what, "out", &dir, err) &&
              req_options(req, what, "options", &opts, err) &&
              req_options(req, what, "vs", &vs, err) &&
              req_vary(req, what, vary_text, vary, &n_vary, err);
    if (ok && (!game || !n_seats))
        ok = pips_fail(err, PIPS_ERR_ARG, "%s: '%s' is needed", what, !game ? "game" : "seats");
    if (ok && seating_name && !pips_seating_parse(seating_name, &seating))
        ok = pips_fail(err, PIPS_ERR_ARG, "%s: seating '%.40s' is not rotate, all or fixed",
                       what, seating_name);
    pips_playtest *pt = NULL;
    if (ok) {
        pips_playtest_opts o = {
            .game = game, .opts = opts.kv, .n_opts = opts.n,
            .vs_opts = vs.n ? vs.kv : NULL, .n_vs_opts = vs.n, .vary = vary, .n_vary = n_vary,
            .seats = seats, .n_seats = n_seats, .games = (unsigned long)games,
            .seed = seed, .threads = (int)threads,
            .fixed_seats = seating == PIPS_SEATING_FIXED, .seating = seating,
            .decisive_threshold = decisive, .exact_seconds = exact_seconds,
            .exact_mb = (size_t)exact_mb, .version = pips_version()};
        pt = pips_playtest_run(&o, err);
        ok = pt != NULL;
    }
    if (ok && dir)
        ok = pips_playtest_write(pt, dir, NULL, err);
    if (ok && !pips_playtest_json(pt, true, out))
        ok = pips_fail(err, PIPS_ERR_NOMEM, "out of memory for the report");
    pips_playtest_free(pt);
    for (size_t i = 0; i < PIPS_MAX_OPTIONS; i++)
        pips_str_free(&vary_text[i]);
    json_decref(req);
    return ok;
}

bool pips_ladder_request(const char *request, pips_str *out, pips_error *err)
{
    static const char *const known[] = {"game", "agents", "games", "seed", "threads",
                                        "options", "prior", "out", NULL};
    const char *what = "ladder";
    if (!out_given(out, err))
        return false;
    json_t *req = request_open(request, what, known, err);
    if (!req)
        return false;
    const char *game = NULL, *dir = NULL;
    const char *agents[PIPS_LADDER_MAX_AGENTS];
    size_t n_agents = 0;
    uint64_t seed = 1;
    double games = 20, threads = 1, prior = 1;
    play_kv opts;
    bool ok = req_string(req, what, "game", &game, err) &&
              req_strings(req, what, "agents", agents, PIPS_LADDER_MAX_AGENTS, &n_agents, err) &&
              req_number(req, what, "games", 1, PIPS_LAB_MAX_GAMES, true, &games, err) &&
              req_seed(req, what, &seed, err) &&
              req_number(req, what, "threads", 1, 256, true, &threads, err) &&
              req_number(req, what, "prior", 0, 1e6, false, &prior, err) &&
              req_string(req, what, "out", &dir, err) &&
              req_options(req, what, "options", &opts, err);
    if (ok && (!game || !n_agents))
        ok = pips_fail(err, PIPS_ERR_ARG, "%s: '%s' is needed", what, !game ? "game" : "agents");
    pips_ladder *l = NULL;
    if (ok) {
        pips_ladder_opts o = {.game = game, .opts = opts.kv, .n_opts = opts.n,
                              .agents = agents, .n_agents = n_agents,
                              .games = (unsigned long)games, .seed = seed,
                              .threads = (int)threads, .prior = prior};
        l = pips_ladder_run(&o, err);
        ok = l != NULL;
    }
    if (ok && dir)
        ok = pips_ladder_write(l, dir, err);
    if (ok && !pips_ladder_json(l, out))
        ok = pips_fail(err, PIPS_ERR_NOMEM, "out of memory for the ratings");
    pips_ladder_free(l);
    json_decref(req);
    return ok;
}
