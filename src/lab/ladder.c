/*
 * ladder.c — `pips ladder`'s library part: a round robin of agents played
 * table by table through the playtest lab, pairwise points from every game,
 * and Elo ratings from a Bradley-Terry fit with Fisher-information
 * intervals (see pips/ladder.h for the model).
 *
 * Invariants: table t is the t-th combination (in lexicographic order) of
 * np agents and is played with the seed derived from (seed, t), seats
 * rotated as the lab does (seat s of game i holds the table's agent
 * (s + i) mod np) at two seats and over every seating (pips_seating_order,
 * PIPS_SEATING_ALL) at three or more; so a seed gives the same ratings for
 * any thread count.
 */
#include "pips/ladder.h"

#include <jansson.h>
#include <stdlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lab/lab_impl.h"
#include "pips/match.h"

#ifndef M_LN10
#define M_LN10 2.30258509299404568402
#endif

#define BT_MAX_ITER 200000
#define BT_TOL 1e-12
#define ELO_PER_NAT (400.0 / M_LN10)

/* ---- the fit ------------------------------------------------------------------ */

/* True when every agent reaches every other through pairs where the first
 * scored something (strong connection): the condition for finite ratings. */
static bool strongly_connected(size_t k, const double *pts, const double *n, bool need_points)
{
    for (size_t root = 0; root < k; root++) {
        bool seen[PIPS_LADDER_MAX_AGENTS] = {false};
        size_t stack[PIPS_LADDER_MAX_AGENTS], top = 0, count = 1;
        seen[root] = true;
        stack[top++] = root;
        while (top) {
            size_t i = stack[--top];
            for (size_t j = 0; j < k; j++) {
                bool edge = need_points ? pts[i * k + j] > 0 : n[i * k + j] > 0;
                if (j != i && !seen[j] && edge) {
                    seen[j] = true;
                    stack[top++] = j;
                    count++;
                }
            }
        }
        if (count < k)
            return false;
    }
    return true;
}

/* Inverts the k x k matrix a in place (Gauss-Jordan with partial pivoting);
 * false when it is singular. */
static bool invert(size_t k, double *a)
{
    double inv[PIPS_LADDER_MAX_AGENTS * PIPS_LADDER_MAX_AGENTS];
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < k; j++)
            inv[i * k + j] = i == j;
    for (size_t c = 0; c < k; c++) {
        size_t piv = c;
        for (size_t r = c + 1; r < k; r++)
            if (fabs(a[r * k + c]) > fabs(a[piv * k + c]))
                piv = r;
        if (fabs(a[piv * k + c]) < 1e-300)
            return false;
        for (size_t j = 0; j < k; j++) {
            double t = a[c * k + j];
            a[c * k + j] = a[piv * k + j];
            a[piv * k + j] = t;
            t = inv[c * k + j];
            inv[c * k + j] = inv[piv * k + j];
            inv[piv * k + j] = t;
        }
        double d = a[c * k + c];
        for (size_t j = 0; j < k; j++) {
            a[c * k + j] /= d;
            inv[c * k + j] /= d;
        }
        for (size_t r = 0; r < k; r++) {
            if (r == c)
                continue;
            double f = a[r * k + c];
            for (size_t j = 0; j < k; j++) {
                a[r * k + j] -= f * a[c * k + j];
                inv[r * k + j] -= f * inv[c * k + j];
            }
        }
    }
    memcpy(a, inv, k * k * sizeof *a);
    return true;
}

bool pips_bt_fit(size_t k, const double *points, const double *games, double prior,
                 double *elo, double *se, pips_error *err)
{
    if (k < 2 || k > PIPS_LADDER_MAX_AGENTS)
        return pips_fail(err, PIPS_ERR_ARG, "ratings need 2..%d agents, not %zu",
                         PIPS_LADDER_MAX_AGENTS, k);
    if (!(prior >= 0))
        return pips_fail(err, PIPS_ERR_ARG, "the prior must be >= 0 virtual games");
    /* results with the prior's virtual draws added to every pair that met */
    double w[PIPS_LADDER_MAX_AGENTS * PIPS_LADDER_MAX_AGENTS];
    double n[PIPS_LADDER_MAX_AGENTS * PIPS_LADDER_MAX_AGENTS];
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < k; j++) {
            size_t ij = i * k + j;
            double g = i == j ? 0 : games[ij];
            if (g < 0 || points[ij] < 0 || points[ij] > g + 1e-9 ||
                fabs(games[ij] - games[j * k + i]) > 1e-9 ||
                (g > 0 && fabs(points[ij] + points[j * k + i] - g) > 1e-6))
                return pips_fail(err, PIPS_ERR_ARG,
                                 "inconsistent results between agents %zu and %zu", i + 1,
                                 j + 1);
            n[ij] = g > 0 ? g + prior : 0;
            w[ij] = g > 0 ? points[ij] + prior / 2 : 0;
        }
    if (!strongly_connected(k, w, n, false))
        return pips_fail(err, PIPS_ERR_ARG, "the agents are not all connected by games");
    if (!strongly_connected(k, w, n, true))
        return pips_fail(err, PIPS_ERR_ARG,
                         "some agents won or lost every game against the rest: their ratings "
                         "are unbounded (a prior of virtual draws keeps them finite)");
    /* Hunter's MM: g_i <- W_i / sum_j n_ij / (g_i + g_j), then the geometric
     * mean is reset to 1 */
    double g[PIPS_LADDER_MAX_AGENTS], wins[PIPS_LADDER_MAX_AGENTS];
    for (size_t i = 0; i < k; i++) {
        g[i] = 1;
        wins[i] = 0;
        for (size_t j = 0; j < k; j++)
            wins[i] += w[i * k + j];
    }
    for (int it = 0; it < BT_MAX_ITER; it++) {
        double change = 0, logsum = 0, next[PIPS_LADDER_MAX_AGENTS];
        for (size_t i = 0; i < k; i++) {
            double den = 0;
            for (size_t j = 0; j < k; j++)
                if (n[i * k + j] > 0)
                    den += n[i * k + j] / (g[i] + g[j]);
            next[i] = wins[i] / den;
            logsum += log(next[i]);
        }
        for (size_t i = 0; i < k; i++) {
            double v = next[i] / exp(logsum / (double)k);
            change = fmax(change, fabs(log(v) - log(g[i])));
            g[i] = v;
        }
        if (change < BT_TOL)
            break;
    }
    /* Fisher information of theta = ln g; under the anchor sum(theta) = 0 the
     * covariance is its pseudo-inverse, (I + J/k)^-1 - J/k (I's null space is
     * the all-ones vector) */
    double info[PIPS_LADDER_MAX_AGENTS * PIPS_LADDER_MAX_AGENTS] = {0};
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < k; j++) {
            if (i == j || n[i * k + j] <= 0)
                continue;
            double p = g[i] / (g[i] + g[j]), f = n[i * k + j] * p * (1 - p);
            info[i * k + j] -= f;
            info[i * k + i] += f;
        }
    for (size_t i = 0; i < k * k; i++)
        info[i] += 1.0 / (double)k;
    if (!invert(k, info))
        return pips_fail(err, PIPS_ERR_ARG, "the ratings' information matrix is singular");
    for (size_t i = 0; i < k; i++) {
        elo[i] = ELO_PER_NAT * log(g[i]);
        double var = info[i * k + i] - 1.0 / (double)k;
        se[i] = ELO_PER_NAT * sqrt(var > 0 ? var : 0);
    }
    return true;
}

/* ---- the round robin ------------------------------------------------------------- */

/* The next combination of np indices out of n in lexicographic order;
 * false after the last. */
static bool next_combination(size_t *c, int np, size_t n)
{
    int i = np - 1;
    while (i >= 0 && c[i] == n - (size_t)np + (size_t)i)
        i--;
    if (i < 0)
        return false;
    c[i]++;
    for (int j = i + 1; j < np; j++)
        c[j] = c[j - 1] + 1;
    return true;
}

/* Adds one game's result to the pairwise table: for every two seats, the
 * higher return scores 1, equal returns half each. */
static void add_game(pips_ladder *l, const size_t *agent_of_seat, const double *returns)
{
    for (int s = 0; s < l->np; s++)
        for (int t = s + 1; t < l->np; t++) {
            size_t a = agent_of_seat[s], b = agent_of_seat[t];
            double pa = returns[s] > returns[t] ? 1 : returns[s] < returns[t] ? 0 : 0.5;
            l->points[a][b] += pa;
            l->points[b][a] += 1 - pa;
            l->games[a][b] += 1;
            l->games[b][a] += 1;
            pips_ladder_agent *A = &l->agent[a], *B = &l->agent[b];
            A->wins += pa == 1;
            A->losses += pa == 0;
            A->draws += pa == 0.5;
            B->wins += pa == 0;
            B->losses += pa == 1;
            B->draws += pa == 0.5;
        }
}

/* The table being played: each finished game adds its pairwise points. */
typedef struct table_ctx {
    pips_ladder *l;
    const size_t *combo;
    pips_seating seating;
} table_ctx;

static void on_result(void *ud, unsigned long game, const double *returns)
{
    table_ctx *c = ud;
    int np = c->l->np, spec_of_seat[PIPS_MAX_PLAYERS], identity[PIPS_MAX_PLAYERS] = {0};
    size_t agent_of_seat[PIPS_MAX_PLAYERS];
    for (int s = 0; s < np; s++)
        identity[s] = s;
    pips_seating_order(c->seating, identity, np, game, spec_of_seat);
    for (int s = 0; s < np; s++)
        agent_of_seat[s] = c->combo[spec_of_seat[s]];
    add_game(c->l, agent_of_seat, returns);
}

/* Plays one table and adds its games (those finished, when stopped: then
 * *stopped receives the table's saved state). resume: the state of this
 * table from a stopped run, or NULL. */
static bool play_table(pips_ladder *l, const pips_ladder_opts *o, const size_t *combo,
                       uint64_t table_seed, unsigned long table, json_t *resume,
                       json_t **stopped, pips_error *err)
{
    const char *seats[PIPS_MAX_PLAYERS];
    for (int s = 0; s < l->np; s++)
        seats[s] = l->agent[combo[s]].spec;
    unsigned long n = l->games_per_table;
    lab_part part = LAB_PART_OF(o, table * n, l->tables * n);
    part.games = n;
    pips_playtest_opts po = lab_part_opts(&part, seats, l->np, table_seed);
    table_ctx tc = {l, combo, po.seating};
    lab_run_hooks h = {resume, o->resume_state, on_result, NULL, &tc};
    pips_playtest *pt = lab_playtest_run(&po, &h, err);
    if (!pt)
        return false;
    if (pips_playtest_failure(pt, err)) { /* a script failed: the ladder stops with it */
        pips_playtest_free(pt);
        return false;
    }
    bool ok = true;
    if (pips_playtest_partial(pt)) {
        l->partial = true;
        *stopped = lab_state_json(pt);
        if (!*stopped)
            ok = pips_fail(err, PIPS_ERR_NOMEM, "out of memory saving the run's state");
    }
    pips_playtest_free(pt);
    return ok;
}

/* ---- a stopped round robin's state (--resume) --------------------------------- */

#define LADDER_STATE_FORMAT 1

static json_t *agents_json(const pips_ladder *l)
{
    json_t *a = json_array();
    for (size_t i = 0; i < l->n; i++)
        json_array_append_new(a, json_string(l->agent[i].spec));
    return a;
}

/* The sums so far, flat: points, games, then wins, draws, losses per agent. */
static size_t ladder_sums(pips_ladder *l, double *buf, bool store)
{
    size_t n = 0, k = l->n;
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < k; j++, n += 2) {
            double *p = &l->points[i][j], *g = &l->games[i][j];
            if (store) {
                *p = buf[n];
                *g = buf[n + 1];
            } else {
                buf[n] = *p;
                buf[n + 1] = *g;
            }
        }
    for (size_t i = 0; i < k; i++) {
        double *f[3] = {&l->agent[i].wins, &l->agent[i].draws, &l->agent[i].losses};
        for (int x = 0; x < 3; x++, n++) {
            if (store)
                *f[x] = buf[n];
            else
                buf[n] = *f[x];
        }
    }
    return n;
}

#define LADDER_SUMS (2 * PIPS_LADDER_MAX_AGENTS * PIPS_LADDER_MAX_AGENTS + 3 * PIPS_LADDER_MAX_AGENTS)

static bool ladder_state_save(pips_ladder *l, unsigned long table, json_t *table_state,
                              const char *path, pips_error *err)
{
    double sums[LADDER_SUMS];
    size_t n = ladder_sums(l, sums, false);
    json_t *root = json_object();
    if (root) {
        json_object_set_new(root, "pips_ladder_state", json_integer(LADDER_STATE_FORMAT));
        json_object_set_new(root, "game", json_string(l->game));
        json_object_set_new(root, "options", json_string(l->options));
        json_object_set_new(root, "agents", agents_json(l));
        json_object_set_new(root, "games", json_integer((json_int_t)l->games_per_table));
        json_object_set_new(root, "seed", json_integer((json_int_t)l->seed));
        json_object_set_new(root, "prior", lab_hex_doubles(&l->prior, 1));
        json_object_set_new(root, "table", json_integer((json_int_t)table));
        json_object_set_new(root, "sums", lab_hex_doubles(sums, n));
        json_object_set_new(root, "table_state", table_state ? json_incref(table_state)
                                                             : json_null());
    }
    bool ok = lab_json_save(root, path, err);
    json_decref(root);
    return ok;
}

/* Loads a stopped round robin into l (its sums) after checking it is this
 * run; *table receives the table under way and *table_state its state
 * (NULL when it had not begun). False with *err naming a mismatch. */
static bool ladder_state_load(pips_ladder *l, const char *path, unsigned long *table,
                              json_t **table_state, pips_error *err)
{
    json_t *root = lab_state_open(path, "pips_ladder_state", LADDER_STATE_FORMAT, "ladder", err);
    if (!root)
        return false;
    bool ok = false;
    json_t *mine = agents_json(l);
    double prior = NAN; /* a prior the file does not hold differs from every one */
    lab_doubles_of(json_object_get(root, "prior"), &prior, 1);
    if (!lab_same_game(root, l->game, err) ||
        !lab_same_options(json_string_value(json_object_get(root, "options")), l->options,
                          err) ||
        !lab_same_specs(json_object_get(root, "agents"), mine, "agents", err) ||
        !lab_same_seed(root, l->seed, err) ||
        !lab_same_games(root, l->games_per_table, " a table", err) ||
        !lab_same_number("prior", prior, l->prior, err)) {
        pips_error_prefix(err, "cannot resume from %s: ", path);
    } else {
        double sums[LADDER_SUMS];
        size_t n = ladder_sums(l, sums, false);
        json_int_t t = json_integer_value(json_object_get(root, "table"));
        json_t *ts = json_object_get(root, "table_state");
        if (t < 0 || (unsigned long)t > l->tables ||
            !lab_doubles_of(json_object_get(root, "sums"), sums, n) ||
            !(json_is_null(ts) || json_is_object(ts))) {
            pips_fail(err, PIPS_ERR_ARG, "a malformed saved ladder state in %s", path);
        } else {
            ladder_sums(l, sums, true);
            *table = (unsigned long)t;
            *table_state = json_is_object(ts) ? json_incref(ts) : NULL;
            ok = true;
        }
    }
    json_decref(mine);
    json_decref(root);
    return ok;
}

pips_ladder *pips_ladder_run(const pips_ladder_opts *o, pips_error *err)
{
    if (!o) {
        pips_fail(err, PIPS_ERR_ARG, "ladder: no options (NULL)");
        return NULL;
    }
    pips_game *g = pips_game_new(o->game, o->opts, o->n_opts, NULL, err);
    if (!g)
        return NULL;
    pips_ladder *l = pips_calloc(NULL, 1, sizeof *l);
    if (!l) {
        pips_game_free(g);
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    l->np = pips_num_players(g);
    l->n = o->n_agents;
    /* every seating of a table's agents equally often, as
     * bench/ladder-nplayer.sh plays them: the seating kind is lab_part_opts's */
    int identity[PIPS_MAX_PLAYERS];
    for (int s = 0; s < l->np; s++)
        identity[s] = s;
    l->games_asked = o->games;
    l->games_per_table = lab_part_whole_games(o->games, identity, l->np, &l->seatings);
    l->seed = o->seed;
    l->prior = o->prior < 0 ? 1 : o->prior;
    snprintf(l->game, sizeof l->game, "%s", g->def->name);
    snprintf(l->title, sizeof l->title, "%s", g->def->title);
    size_t len = 0;
    for (size_t i = 0; i < g->options.n && len < sizeof l->options; i++)
        len += (size_t)snprintf(l->options + len, sizeof l->options - len, "%s%s=%s",
                                i ? " " : "", g->options.kv[i].key, g->options.kv[i].value);
    bool ok = true;
    if (o->n_agents < 2 || o->n_agents > PIPS_LADDER_MAX_AGENTS ||
        o->n_agents < (size_t)l->np)
        ok = pips_fail(err, PIPS_ERR_ARG, "a ladder needs %d..%d agents for %s with %d seats, "
                       "not %zu",
                       l->np > 2 ? l->np : 2, PIPS_LADDER_MAX_AGENTS, g->def->name, l->np,
                       o->n_agents);
    if (ok && o->games == 0)
        ok = pips_fail(err, PIPS_ERR_ARG, "the number of games must be at least 1");
    if (ok && l->games_per_table > PIPS_LAB_MAX_GAMES)
        ok = pips_fail(err, PIPS_ERR_ARG, "%lu games a table, rounded up to whole seatings, is "
                       "%lu: more than %lu", o->games, l->games_per_table,
                       (unsigned long)PIPS_LAB_MAX_GAMES);
    /* normalised specs, each once */
    for (size_t i = 0; ok && i < o->n_agents; i++) {
        pips_agent *a = pips_agent_new(g, o->agents[i], 0, err);
        if (!a) {
            pips_error_prefix(err, "agent %zu: ", i + 1);
            ok = false;
            break;
        }
        snprintf(l->agent[i].spec, sizeof l->agent[i].spec, "%s", pips_agent_spec(a));
        pips_agent_label(a, l->agent[i].label, sizeof l->agent[i].label);
        pips_agent_free(a);
        for (size_t j = 0; j < i; j++)
            if (!strcmp(l->agent[i].spec, l->agent[j].spec))
                ok = pips_fail(err, PIPS_ERR_ARG, "agents %zu and %zu are the same ('%s')",
                               j + 1, i + 1, l->agent[i].spec);
    }
    pips_game_free(g);
    if (!ok) {
        pips_free(NULL, l);
        return NULL;
    }
    /* count the tables, then play them in order */
    size_t combo[PIPS_MAX_PLAYERS];
    for (int s = 0; s < l->np; s++)
        combo[s] = (size_t)s;
    l->tables = 1;
    while (next_combination(combo, l->np, l->n))
        l->tables++;
    for (int s = 0; s < l->np; s++)
        combo[s] = (size_t)s;
    unsigned long first = 0; /* a resumed run's table under way */
    json_t *resume = NULL, *stopped = NULL;
    if (o->resume_state && !ladder_state_load(l, o->resume_state, &first, &resume, err)) {
        pips_free(NULL, l);
        return NULL;
    }
    for (unsigned long t = 0; t < first; t++)
        next_combination(combo, l->np, l->n);
    double t0 = pips_now();
    unsigned long t = first;
    for (; ok && t < l->tables && !l->partial; t++) {
        if (o->stop && *o->stop) {
            l->partial = true;
            break;
        }
        pips_rng rng;
        pips_rng_derive(&rng, o->seed, t);
        ok = play_table(l, o, combo, pips_rng_next(&rng), t, t == first ? resume : NULL,
                        &stopped, err);
        if (l->partial)
            break;
        next_combination(combo, l->np, l->n);
    }
    l->seconds = pips_now() - t0;
    json_decref(resume);
    if (ok && l->partial && o->save_state)
        ok = ladder_state_save(l, t, stopped, o->save_state, err);
    json_decref(stopped);
    double pts[PIPS_LADDER_MAX_AGENTS * PIPS_LADDER_MAX_AGENTS];
    double gms[PIPS_LADDER_MAX_AGENTS * PIPS_LADDER_MAX_AGENTS];
    double elo[PIPS_LADDER_MAX_AGENTS], se[PIPS_LADDER_MAX_AGENTS];
    for (size_t i = 0; ok && i < l->n; i++)
        for (size_t j = 0; j < l->n; j++) {
            pts[i * l->n + j] = l->points[i][j];
            gms[i * l->n + j] = l->games[i][j];
        }
    ok = ok && pips_bt_fit(l->n, pts, gms, l->prior, elo, se, err);
    if (!ok) {
        pips_free(NULL, l);
        return NULL;
    }
    for (size_t i = 0; i < l->n; i++) {
        pips_ladder_agent *a = &l->agent[i];
        a->elo = elo[i];
        a->se = se[i];
        a->lo = elo[i] - 1.96 * se[i];
        a->hi = elo[i] + 1.96 * se[i];
        for (size_t j = 0; j < l->n; j++) {
            a->games += l->games[i][j];
            a->points += l->points[i][j];
        }
        /* best first; equal ratings keep the given order */
        size_t k = i;
        while (k > 0 && l->agent[l->order[k - 1]].elo < a->elo) {
            l->order[k] = l->order[k - 1];
            k--;
        }
        l->order[k] = i;
    }
    return l;
}

void pips_ladder_free(pips_ladder *l) { pips_free(NULL, l); }

/* ---- writers ----------------------------------------------------------------------- */

void pips_ladder_text(const pips_ladder *l, pips_str *out)
{
    pips_str_catf(out, "# %s%s%s%s: %zu agents, %lu tables of %d seats x %lu games, seed %llu\n",
                  l->title, *l->options ? " (" : "", l->options, *l->options ? ")" : "", l->n,
                  l->tables, l->np, l->games_per_table, (unsigned long long)l->seed);
    if (l->games_per_table != l->games_asked)
        pips_str_catf(out, "# %lu games a table rounded up to %lu, a whole number of its %lu "
                           "seatings (%s), each played equally often\n",
                      l->games_asked, l->games_per_table, l->seatings,
                      l->np >= 3 ? "orders of its agents" : "rotations");
    pips_str_catf(out,
                  "# Elo (mean 0), 95%% interval from a Bradley-Terry fit (Fisher information; "
                  "%g virtual draw%s per pair)\n"
                  "# rank elo [95%%] score games agent\n",
                  l->prior, l->prior == 1 ? "" : "s");
    if (l->partial)
        pips_str_cat(out, "# partial: the run was stopped; the ratings rest on the games "
                          "finished\n");
    for (size_t r = 0; r < l->n; r++) {
        const pips_ladder_agent *a = &l->agent[l->order[r]];
        pips_str_catf(out, "%zu %+.0f [%+.0f, %+.0f] %.3f %.0f %s\n", r + 1, a->elo, a->lo,
                      a->hi, lab_rate(a->points, a->games), a->games, a->label);
    }
}

/* Writes text as one CSV field (quoted: specs hold commas). */
static void csv_field(pips_str *out, const char *text)
{
    pips_str_cat(out, "\"");
    for (const char *p = text; *p; p++)
        pips_str_cat(out, *p == '"' ? "\"\"" : (char[]){*p, 0});
    pips_str_cat(out, "\"");
}

void pips_ladder_csv(const pips_ladder *l, pips_str *out)
{
    pips_str_cat(out, "rank,agent,elo,elo_lo,elo_hi,elo_se,games,points,score,wins,draws,"
                      "losses\n");
    for (size_t r = 0; r < l->n; r++) {
        const pips_ladder_agent *a = &l->agent[l->order[r]];
        pips_str_catf(out, "%zu,", r + 1);
        csv_field(out, a->spec);
        pips_str_catf(out, ",%.1f,%.1f,%.1f,%.1f,%.0f,%.1f,%.4f,%.0f,%.0f,%.0f\n", a->elo,
                      a->lo, a->hi, a->se, a->games, a->points, lab_rate(a->points, a->games),
                      a->wins, a->draws, a->losses);
    }
}

void pips_ladder_pairs_csv(const pips_ladder *l, pips_str *out)
{
    pips_str_cat(out, "agent_a,agent_b,games,points_a,score_a,score_a_lo,score_a_hi\n");
    for (size_t i = 0; i < l->n; i++)
        for (size_t j = i + 1; j < l->n; j++) {
            double n = l->games[i][j], s = lab_rate(l->points[i][j], n), lo, hi;
            pips_wilson(s, n, 1.96, &lo, &hi);
            csv_field(out, l->agent[i].spec);
            pips_str_cat(out, ",");
            csv_field(out, l->agent[j].spec);
            pips_str_catf(out, ",%.0f,%.1f,%.4f,%.4f,%.4f\n", n, l->points[i][j], s, lo, hi);
        }
}

void pips_ladder_svg(const pips_ladder *l, pips_str *out)
{
    /* bars start at the lowest interval end, so every bar and interval is
     * drawn above the axis */
    double base = 0, top = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (i == 0 || l->agent[i].lo < base)
            base = l->agent[i].lo;
        if (i == 0 || l->agent[i].hi > top)
            top = l->agent[i].hi;
    }
    base = 50 * floor(base / 50);
    const char *groups[PIPS_LADDER_MAX_AGENTS];
    double v[PIPS_LADDER_MAX_AGENTS], lo[PIPS_LADDER_MAX_AGENTS], hi[PIPS_LADDER_MAX_AGENTS];
    for (size_t r = 0; r < l->n; r++) {
        const pips_ladder_agent *a = &l->agent[l->order[r]];
        groups[r] = a->label;
        v[r] = a->elo - base;
        lo[r] = a->lo - base;
        hi[r] = a->hi - base;
    }
    char title[256], ylabel[64];
    snprintf(title, sizeof title, "Elo ratings with 95%% intervals: %s", l->title);
    snprintf(ylabel, sizeof ylabel, "Elo above %.0f (mean 0)", base);
    svg_series s = {"Elo (Bradley-Terry)", v, lo, hi};
    lab_svg_bars(out, title, ylabel, groups, l->n, &s, 1, 0, (top - base) * 1.08);
}

bool pips_ladder_write(const pips_ladder *l, const char *dir, pips_error *err)
{
    if (!lab_make_dir(dir, err))
        return false;
    pips_str s;
    pips_str_init(&s, NULL);
    pips_ladder_text(l, &s);
    bool ok = lab_write_file(dir, "ratings.txt", &s, err);
    pips_str_clear(&s);
    pips_ladder_csv(l, &s);
    ok = ok && lab_write_file(dir, "ratings.csv", &s, err);
    pips_str_clear(&s);
    pips_ladder_pairs_csv(l, &s);
    ok = ok && lab_write_file(dir, "pairs.csv", &s, err);
    pips_str_clear(&s);
    pips_ladder_svg(l, &s);
    ok = ok && lab_write_file(dir, "ratings.svg", &s, err);
    pips_str_free(&s);
    return ok;
}
