/*
 * skill.c — `pips skill`'s library part (pips/skill.h): each budget of one
 * agent kind against the budget before it, played through the playtest
 * lab, and the skill chain length.
 *
 * Invariant: step k is the playtest of (stronger, weaker, ...) with the seed
 * derived from (seed, k) and the seatings that give every seat position
 * equally (rotate at two seats, all at three or more), so its figures are
 * the lab's, reproducible for any thread count.
 */
#include "pips/skill.h"

#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "lab/lab_impl.h"
#include "core/unchecked.h"

/* The budget parameter of a kind, or NULL when it takes none. */
static const char *budget_param(const char *kind)
{
    if (!strcmp(kind, "mcts"))
        return "iters";
    if (!strcmp(kind, "alphabeta") || !strcmp(kind, "expectimax"))
        return "depth";
    return NULL;
}

/* "KIND[:PARAMS]" with PARAM=budget added. */
static void spec_with_budget(const pips_skill *s, const char *agent, long budget, char *out,
                             size_t cap)
{
    const char *colon = strchr(agent, ':');
    if (colon && colon[1])
        snprintf(out, cap, "%s,%s=%ld", agent, s->param, budget);
    else
        snprintf(out, cap, "%s:%s=%ld", s->kind, s->param, budget);
}

/* The checks that need no game played: the kind, the budgets, the specs. */
static bool check(pips_skill *s, const pips_skill_opts *o, pips_error *err)
{
    if (!o->agent || !*o->agent)
        return pips_fail(err, PIPS_ERR_ARG, "give the agent kind (--agent mcts, alphabeta or "
                                            "expectimax)");
    size_t klen = strcspn(o->agent, ":");
    snprintf(s->kind, sizeof s->kind, "%.*s", (int)klen, o->agent);
    const char *param = budget_param(s->kind);
    if (!param)
        return pips_fail(err, PIPS_ERR_ARG,
                         "agent '%s' takes no budget: skill depth needs mcts (iters), "
                         "alphabeta (depth) or expectimax (depth)",
                         s->kind);
    snprintf(s->param, sizeof s->param, "%s", param);
    if (strstr(o->agent + klen, param))
        return pips_fail(err, PIPS_ERR_ARG,
                         "agent '%s': leave %s out, the budgets give it", o->agent, param);
    if (o->n_budgets < 2 || o->n_budgets > PIPS_SKILL_MAX_BUDGETS)
        return pips_fail(err, PIPS_ERR_ARG, "give 2 to %d budgets, not %zu",
                         PIPS_SKILL_MAX_BUDGETS, o->n_budgets);
    for (size_t i = 1; i < o->n_budgets; i++)
        if (o->budgets[i] <= o->budgets[i - 1])
            return pips_fail(err, PIPS_ERR_ARG,
                             "the budgets must increase: %ld follows %ld (budget %zu)",
                             o->budgets[i], o->budgets[i - 1], i + 1);
    if (o->games == 0 || o->games > PIPS_LAB_MAX_GAMES)
        return pips_fail(err, PIPS_ERR_ARG, "the number of games must be from 1 to %lu",
                         (unsigned long)PIPS_LAB_MAX_GAMES);
    pips_game *g = pips_game_new(o->game ? o->game : "", o->opts, o->n_opts, NULL, err);
    if (!g)
        return false;
    snprintf(s->game, sizeof s->game, "%s", g->def->name);
    snprintf(s->title, sizeof s->title, "%s", g->def->title);
    size_t len = 0;
    for (size_t i = 0; i < g->options.n && len < sizeof s->options; i++)
        len += (size_t)snprintf(s->options + len, sizeof s->options - len, "%s%s=%s",
                                i ? " " : "", g->options.kv[i].key, g->options.kv[i].value);
    s->np = pips_num_players(g);
    bool ok = true;
    for (size_t i = 0; ok && i < o->n_budgets; i++) {
        char spec[PIPS_SPEC_MAX];
        spec_with_budget(s, o->agent, o->budgets[i], spec, sizeof spec);
        pips_agent *a = pips_agent_new(g, spec, 0, err);
        if (!a) {
            pips_error_prefix(err, "budget %ld ('%s'): ", o->budgets[i], spec);
            ok = false;
            break;
        }
        /* budget i is the stronger of step i - 1 and the weaker of step i */
        if (i > 0) {
            s->steps[i - 1].stronger = o->budgets[i];
            snprintf(s->steps[i - 1].stronger_spec, sizeof s->steps[0].stronger_spec, "%s",
                     pips_agent_spec(a));
        }
        if (i + 1 < o->n_budgets) {
            s->steps[i].weaker = o->budgets[i];
            snprintf(s->steps[i].weaker_spec, sizeof s->steps[0].weaker_spec, "%s",
                     pips_agent_spec(a));
        }
        pips_agent_free(a);
    }
    pips_game_free(g);
    return ok;
}

/* ---- perfect play (docs/playtest.md, "Skill depth") ------------------------------ */

/* The check of every move along the games against the solved values: one
 * solver (it keeps its table), used by one game at a time. */
typedef struct perfect_ctx {
    pips_skill *s;
    pips_game *g;
    pips_solver *solver;
    pthread_mutex_t mu;
    size_t step; /* the step under way: budgets step (weaker) and step + 1 */
    void *child;
} perfect_ctx;

/* Solves the start as the playtest lab does (in a child process bounded by
 * processor time, so a loaded machine gives the same verdict); false (with
 * s->exact_note) when it is not settled. Then one solver in this process
 * checks the moves (no time limit: each of its solves is part of the start's). */
static bool perfect_begin(perfect_ctx *c, const pips_skill_opts *o)
{
    pips_skill *s = c->s;
    pips_error err;
    if (o->exact_seconds <= 0) {
        snprintf(s->exact_note, sizeof s->exact_note, "not checked (no solver time given)");
        return false;
    }
    c->g = pips_game_new(o->game, o->opts, o->n_opts, NULL, &err);
    if (!c->g) {
        snprintf(s->exact_note, sizeof s->exact_note, "%.190s", err.msg);
        return false;
    }
    size_t mb = o->exact_mb ? o->exact_mb : 256;
    lab_exact ex;
    lab_exact_solve(c->g, o->exact_seconds, mb, &ex);
    if (ex.state != LAB_EXACT_SOLVED) {
        snprintf(s->exact_note, sizeof s->exact_note, "not checked: %.180s", ex.note);
        return false;
    }
    pips_solve_opts so = {.threads = 1, .table_mb = mb};
    c->solver = pips_solver_new(c->g, &so, true, &err);
    c->child = pips_state_new(c->g, NULL);
    if (!c->solver || !c->child) {
        snprintf(s->exact_note, sizeof s->exact_note, "not checked: %.180s",
                 c->solver ? "out of memory" : err.msg);
        return false;
    }
    s->solved = true;
    s->value = ex.value;
    pthread_mutex_init(&c->mu, NULL);
    return true;
}

static void perfect_end(perfect_ctx *c)
{
    if (c->s->solved)
        pthread_mutex_destroy(&c->mu);
    pips_solver_free(c->solver);
    pips_state_free(c->g, c->child);
    pips_game_free(c->g);
}

/* One finished game of the step under way: each move checked against the
 * solved value of the position it was made in. */
static void perfect_game(void *ud, unsigned long game, const pips_match *m)
{
    (void)game;
    perfect_ctx *c = ud;
    pips_skill *s = c->s;
    pthread_mutex_lock(&c->mu);
    const pips_skill_step *st = &s->steps[c->step];
    size_t size = m->game->def->state_size;
    bool played[2] = {false, false};
    for (size_t i = 0; i < m->n_moves; i++) {
        const void *state = m->history + i * size;
        int seat = pips_to_move(m->game, state);
        if (seat < 0)
            continue;
        int stronger = !strcmp(m->seats[seat], st->stronger_spec);
        pips_skill_perfect *p = &s->perfect[c->step + (size_t)stronger];
        played[stronger] = true;
        p->moves++;
        /* the position's value and the value after the move, both for the
         * mover (a game's own solver may list only one move of each
         * symmetric class, so the move's child is solved, not looked up) */
        const pips_game_def *d = c->g->def;
        pips_solve_result res, after;
        pips_error err;
        memcpy(c->child, state, d->state_size);
        d->apply(c->g, c->child, m->moves[i]);
        int next = pips_to_move(c->g, c->child);
        if (!solver_moves_unchecked(c->solver, state, NULL, NULL, &res, &err)) {
            p->unsettled++;
            continue;
        }
        if (next == PIPS_OVER) {
            double r[PIPS_MAX_PLAYERS];
            d->returns(c->g, c->child, r);
            after.value = r[seat] > 0.75 ? PIPS_WIN : r[seat] < 0.25 ? PIPS_LOSS : PIPS_DRAW;
        } else if (!solver_moves_unchecked(c->solver, c->child, NULL, NULL, &after, &err)) {
            p->unsettled++;
            continue;
        } else if (next != seat) {
            after.value = after.value == PIPS_WIN    ? PIPS_LOSS
                          : after.value == PIPS_LOSS ? PIPS_WIN
                                                     : PIPS_DRAW;
        }
        p->kept += after.value == res.value;
    }
    s->perfect[c->step].games += played[0];
    s->perfect[c->step + 1].games += played[1];
    pthread_mutex_unlock(&c->mu);
}

/* ---- a stopped run's state (--resume) ------------------------------------------ */

#define SKILL_STATE_FORMAT 1
#define STEP_FIELDS 11

/* A finished step's figures, flat (store: back into st). */
static void step_fields(pips_skill_step *st, double *f, bool store)
{
    double games = (double)st->games, sig = st->significant;
    double *x[STEP_FIELDS] = {&games, &st->wins, &st->draws, &st->score, &st->win_rate,
                              &st->win_lo, &st->win_hi, &st->score_rate, &st->score_lo,
                              &st->score_hi, &sig};
    for (int i = 0; i < STEP_FIELDS; i++) {
        if (store)
            *x[i] = f[i];
        else
            f[i] = *x[i];
    }
    if (store) {
        st->games = (unsigned long)games;
        st->significant = sig != 0;
    }
}

static json_t *specs_json(const pips_skill *s, size_t n_budgets)
{
    json_t *a = json_array();
    for (size_t i = 0; i + 1 < n_budgets; i++)
        json_array_append_new(a, json_string(s->steps[i].weaker_spec));
    json_array_append_new(a, json_string(s->steps[n_budgets - 2].stronger_spec));
    return a;
}

static bool skill_state_save(pips_skill *s, size_t n_budgets, size_t step, json_t *step_state,
                             const char *path, pips_error *err)
{
    double f[(PIPS_SKILL_MAX_BUDGETS - 1) * STEP_FIELDS];
    for (size_t k = 0; k < step; k++)
        step_fields(&s->steps[k], f + k * STEP_FIELDS, false);
    json_t *root = json_object();
    if (root) {
        json_object_set_new(root, "pips_skill_state", json_integer(SKILL_STATE_FORMAT));
        json_object_set_new(root, "game", json_string(s->game));
        json_object_set_new(root, "options", json_string(s->options));
        json_object_set_new(root, "agents", specs_json(s, n_budgets));
        json_object_set_new(root, "games", json_integer((json_int_t)s->games_per_step));
        json_object_set_new(root, "seed", json_integer((json_int_t)s->seed));
        json_object_set_new(root, "step", json_integer((json_int_t)step));
        json_object_set_new(root, "steps", lab_hex_doubles(f, step * STEP_FIELDS));
        double pf[PIPS_SKILL_MAX_BUDGETS * 4];
        for (size_t b = 0; b < n_budgets; b++) {
            pf[4 * b] = s->perfect[b].games;
            pf[4 * b + 1] = s->perfect[b].moves;
            pf[4 * b + 2] = s->perfect[b].kept;
            pf[4 * b + 3] = s->perfect[b].unsettled;
        }
        json_object_set_new(root, "perfect", lab_hex_doubles(pf, 4 * n_budgets));
        json_object_set_new(root, "step_state", step_state ? json_incref(step_state)
                                                           : json_null());
    }
    bool ok = lab_json_save(root, path, err);
    json_decref(root);
    return ok;
}

/* Loads a stopped run's finished steps into s after checking it is this
 * run (game, options, the agent at every budget, games, seed); *step
 * receives the step under way and *step_state its state (NULL when it had
 * not begun). False with *err naming a mismatch. */
static bool skill_state_load(pips_skill *s, size_t n_budgets, const char *path, size_t *step,
                             json_t **step_state, pips_error *err)
{
    json_t *root = lab_state_open(path, "pips_skill_state", SKILL_STATE_FORMAT, "skill", err);
    if (!root)
        return false;
    bool ok = false;
    json_t *mine = specs_json(s, n_budgets);
    if (!lab_same_game(root, s->game, err) ||
        !lab_same_options(json_string_value(json_object_get(root, "options")), s->options,
                          err) ||
        !lab_same_specs(json_object_get(root, "agents"), mine, "agent or budgets", err) ||
        !lab_same_seed(root, s->seed, err) ||
        !lab_same_games(root, s->games_per_step, " a step", err)) {
        pips_error_prefix(err, "cannot resume from %s: ", path);
    } else {
        json_int_t k = json_integer_value(json_object_get(root, "step"));
        json_t *ss = json_object_get(root, "step_state");
        double f[(PIPS_SKILL_MAX_BUDGETS - 1) * STEP_FIELDS], pf[PIPS_SKILL_MAX_BUDGETS * 4];
        if (k < 0 || (size_t)k >= n_budgets ||
            !lab_doubles_of(json_object_get(root, "steps"), f, (size_t)k * STEP_FIELDS) ||
            !lab_doubles_of(json_object_get(root, "perfect"), pf, 4 * n_budgets) ||
            !(json_is_null(ss) || json_is_object(ss))) {
            pips_fail(err, PIPS_ERR_ARG, "a malformed saved skill state in %s", path);
        } else {
            for (json_int_t i = 0; i < k; i++)
                step_fields(&s->steps[i], f + i * STEP_FIELDS, true);
            for (size_t b = 0; b < n_budgets; b++) {
                s->perfect[b].games = pf[4 * b];
                s->perfect[b].moves = pf[4 * b + 1];
                s->perfect[b].kept = pf[4 * b + 2];
                s->perfect[b].unsettled = pf[4 * b + 3];
            }
            s->n_steps = (size_t)k;
            *step = (size_t)k;
            *step_state = json_is_object(ss) ? json_incref(ss) : NULL;
            ok = true;
        }
    }
    json_decref(mine);
    json_decref(root);
    return ok;
}

pips_skill *pips_skill_run(const pips_skill_opts *o, pips_error *err)
{
    pips_skill *s = pips_calloc(NULL, 1, sizeof *s);
    if (!s) {
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    if (!check(s, o, err)) {
        pips_free(NULL, s);
        return NULL;
    }
    s->seed = o->seed;
    int spec_agent[PIPS_MAX_PLAYERS] = {0}; /* the stronger, then a field of one agent */
    for (int i = 1; i < s->np; i++)
        spec_agent[i] = 1;
    s->games_asked = o->games;
    s->games_per_step = lab_part_whole_games(o->games, spec_agent, s->np, &s->seatings);
    if (s->games_per_step > PIPS_LAB_MAX_GAMES) {
        pips_fail(err, PIPS_ERR_ARG, "%lu games a step, rounded up to whole seatings, is %lu: "
                  "more than %lu", o->games, s->games_per_step, (unsigned long)PIPS_LAB_MAX_GAMES);
        pips_free(NULL, s);
        return NULL;
    }
    double t0 = pips_now();
    size_t steps = o->n_budgets - 1, first = 0;
    json_t *resume = NULL, *stopped = NULL;
    s->n_budgets = o->n_budgets;
    for (size_t b = 0; b < o->n_budgets; b++)
        s->perfect[b].budget = o->budgets[b];
    perfect_ctx pc = {.s = s};
    if (o->resume_state &&
        !skill_state_load(s, o->n_budgets, o->resume_state, &first, &resume, err)) {
        pips_free(NULL, s);
        return NULL;
    }
    bool check_perfect = perfect_begin(&pc, o);
    bool ok = true;
    size_t k = first;
    for (; ok && k < steps; k++) {
        if (o->stop && *o->stop) {
            s->partial = true;
            break;
        }
        pips_skill_step *st = &s->steps[k];
        const char *seats[PIPS_MAX_PLAYERS];
        seats[0] = st->stronger_spec;
        for (int i = 1; i < s->np; i++)
            seats[i] = st->weaker_spec;
        pips_rng rng;
        pips_rng_derive(&rng, o->seed, k);
        unsigned long n = s->games_per_step;
        lab_part part = LAB_PART_OF(o, (unsigned long)k * n, (unsigned long)steps * n);
        part.games = n;
        pips_playtest_opts po = lab_part_opts(&part, seats, s->np, pips_rng_next(&rng));
        pc.step = k;
        lab_run_hooks h = {k == first ? resume : NULL, o->resume_state, NULL,
                           check_perfect ? perfect_game : NULL, &pc};
        pips_playtest *pt = lab_playtest_run(&po, &h, err);
        if (pt && pips_playtest_failure(pt, err)) { /* a script failed: stop with it */
            pips_playtest_free(pt);
            pt = NULL;
        }
        if (!pt) {
            pips_error_prefix(err, "step %ld -> %ld: ", st->weaker, st->stronger);
            ok = false;
            break;
        }
        const wdl *a = &pt->variants[0].st.agent[0]; /* the stronger: the first spec */
        if (pt->partial) { /* stopped inside the step: only whole steps count */
            s->partial = true;
            stopped = lab_state_json(pt);
            if (!stopped)
                ok = pips_fail(err, PIPS_ERR_NOMEM, "out of memory saving the run's state");
        } else {
            st->games = pt->variants[0].st.games;
            st->wins = a->w;
            st->draws = a->d;
            st->score = a->score;
            lab_interval w = lab_rate_interval(a->w, a->n), sc = lab_rate_interval(a->score, a->n);
            st->win_rate = w.value;
            st->win_lo = w.lo;
            st->win_hi = w.hi;
            st->score_rate = sc.value;
            st->score_lo = sc.lo;
            st->score_hi = sc.hi;
            st->significant = sc.known && sc.lo > 1.0 / s->np;
            s->n_steps = k + 1;
        }
        pips_playtest_free(pt);
        if (s->partial)
            break;
    }
    s->seconds = pips_now() - t0;
    json_decref(resume);
    if (ok && s->partial && o->save_state)
        ok = skill_state_save(s, o->n_budgets, k, stopped, o->save_state, err);
    json_decref(stopped);
    if (!ok) {
        perfect_end(&pc);
        pips_free(NULL, s);
        return NULL;
    }
    perfect_end(&pc);
    s->chain_length = 0;
    while ((size_t)s->chain_length < s->n_steps && s->steps[s->chain_length].significant)
        s->chain_length++;
    for (size_t b = 0; s->solved && b < s->n_budgets; b++) {
        pips_skill_perfect *p = &s->perfect[b];
        p->perfect = p->moves > 0 && p->unsettled == 0 && p->kept == p->moves;
        if (p->perfect && !s->perfect_budget)
            s->perfect_budget = p->budget;
    }
    return s;
}

void pips_skill_free(pips_skill *s) { pips_free(NULL, s); }

void pips_skill_text(const pips_skill *s, pips_str *out)
{
    pips_str_catf(out,
                  "# %s%s%s%s: skill depth of %s by %s, %d seats, %lu games a step, seed %llu\n",
                  s->title, *s->options ? " (" : "", s->options, *s->options ? ")" : "", s->kind,
                  s->param, s->np, s->games_per_step, (unsigned long long)s->seed);
    if (s->games_per_step != s->games_asked)
        pips_str_catf(out, "# %lu games a step rounded up to %lu, a whole number of its %lu "
                           "seatings, each played equally often\n",
                      s->games_asked, s->games_per_step, s->seatings);
    if (s->np >= 3)
        pips_str_catf(out, "# the stronger alone against %d of the weaker, over every seating; "
                           "fair share %.3f\n",
                      s->np - 1, 1.0 / s->np);
    else
        pips_str_cat(out, "# each side in each seat equally often; fair share 0.500\n");
    pips_str_cat(out, "# weaker stronger games win_rate [95%] score [95%] significant\n");
    for (size_t k = 0; k < s->n_steps; k++) {
        const pips_skill_step *st = &s->steps[k];
        pips_str_catf(out, "%ld %ld %lu %.3f [%.3f, %.3f] %.3f [%.3f, %.3f] %s\n", st->weaker,
                      st->stronger, st->games, st->win_rate, st->win_lo, st->win_hi,
                      st->score_rate, st->score_lo, st->score_hi, st->significant ? "yes" : "no");
    }
    pips_str_catf(out, "skill chain length: %d of %zu step%s%s\n", s->chain_length, s->n_steps,
                  s->n_steps == 1 ? "" : "s",
                  s->partial ? " (partial: the run was stopped; later steps not played)" : "");
    if (!s->solved) {
        pips_str_catf(out, "perfect play: %s\n", s->exact_note);
        return;
    }
    pips_str_catf(out, "# perfect play: the start is a %s for the first player; each budget's "
                       "moves that kept the solved value%s\n",
                  pips_value_name(s->value), s->partial ? " (partial: the games played)" : "");
    for (size_t b = 0; b < s->n_budgets; b++) {
        const pips_skill_perfect *p = &s->perfect[b];
        if (p->moves == 0)
            continue;
        pips_str_catf(out, "# budget %ld: %.0f of %.0f moves in %.0f games%s\n", p->budget,
                      p->kept, p->moves, p->games,
                      p->unsettled ? " (some positions not settled by the solver)" : "");
    }
    if (s->perfect_budget)
        pips_str_catf(out, "smallest budget that plays perfectly from the start: %ld\n",
                      s->perfect_budget);
    else
        pips_str_cat(out, "smallest budget that plays perfectly from the start: none of these\n");
}

bool pips_skill_json(const pips_skill *s, pips_str *out)
{
    json_t *steps = json_array();
    for (size_t k = 0; k < s->n_steps; k++) {
        const pips_skill_step *st = &s->steps[k];
        json_array_append_new(
            steps,
            json_pack("{s:I,s:I,s:s,s:s,s:I,s:I,s:I,s:{s:f,s:f,s:f},s:{s:f,s:f,s:f},s:b}",
                      "weaker", (json_int_t)st->weaker, "stronger", (json_int_t)st->stronger,
                      "weaker_spec", st->weaker_spec, "stronger_spec", st->stronger_spec,
                      "games", (json_int_t)st->games, "wins", (json_int_t)st->wins, "draws",
                      (json_int_t)st->draws, "win_rate", "value", st->win_rate, "lo",
                      st->win_lo, "hi", st->win_hi, "score", "value", st->score_rate, "lo",
                      st->score_lo, "hi", st->score_hi, "significant", st->significant));
    }
    json_t *perfect = json_array();
    for (size_t b = 0; s->solved && b < s->n_budgets; b++) {
        const pips_skill_perfect *p = &s->perfect[b];
        json_array_append_new(perfect, json_pack("{s:I,s:I,s:I,s:I,s:I,s:b}", "budget",
                                                 (json_int_t)p->budget, "games",
                                                 (json_int_t)p->games, "moves",
                                                 (json_int_t)p->moves, "kept",
                                                 (json_int_t)p->kept, "unsettled",
                                                 (json_int_t)p->unsettled, "perfect",
                                                 p->perfect));
    }
    json_t *exact = json_pack("{s:b,s:s,s:s}", "solved", s->solved, "value",
                              s->solved ? pips_value_name(s->value) : "", "note",
                              s->solved ? "" : s->exact_note);
    json_t *root = json_pack(
        "{s:s,s:s,s:s,s:s,s:s,s:i,s:I,s:I,s:I,s:I,s:b,s:f,s:o,s:i,s:o,s:o,s:o}", "game",
        s->game, "title", s->title, "options", s->options, "agent", s->kind, "budget", s->param,
        "players", s->np, "seed", (json_int_t)s->seed, "games_per_step",
        (json_int_t)s->games_per_step, "games_asked", (json_int_t)s->games_asked, "seatings",
        (json_int_t)s->seatings, "partial", s->partial, "fair_share", 1.0 / s->np, "steps",
        steps, "chain_length", s->chain_length, "exact", exact, "perfect_play", perfect,
        "perfect_budget",
        s->perfect_budget ? json_integer((json_int_t)s->perfect_budget) : json_null());
    char *text = root ? json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                                              JSON_REAL_PRECISION(10))
                      : NULL;
    json_decref(root);
    if (!text)
        return false;
    pips_str_cat(out, text);
    pips_str_cat(out, "\n");
    free(text);
    return true;
}

void pips_skill_csv(const pips_skill *s, pips_str *out)
{
    pips_str_cat(out, "weaker,stronger,games,wins,draws,win_rate,win_rate_lo,win_rate_hi,score,"
                      "score_lo,score_hi,significant\n");
    for (size_t k = 0; k < s->n_steps; k++) {
        const pips_skill_step *st = &s->steps[k];
        pips_str_catf(out, "%ld,%ld,%lu,%.0f,%.0f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%d\n",
                      st->weaker, st->stronger, st->games, st->wins, st->draws, st->win_rate,
                      st->win_lo, st->win_hi, st->score_rate, st->score_lo, st->score_hi,
                      st->significant);
    }
}

void pips_skill_svg(const pips_skill *s, pips_str *out)
{
    char labels[PIPS_SKILL_MAX_BUDGETS][48];
    const char *groups[PIPS_SKILL_MAX_BUDGETS];
    double v[PIPS_SKILL_MAX_BUDGETS], lo[PIPS_SKILL_MAX_BUDGETS], hi[PIPS_SKILL_MAX_BUDGETS];
    for (size_t k = 0; k < s->n_steps; k++) {
        snprintf(labels[k], sizeof labels[k], "%ld vs %ld", s->steps[k].stronger,
                 s->steps[k].weaker);
        groups[k] = labels[k];
        v[k] = s->steps[k].win_rate;
        lo[k] = s->steps[k].win_lo;
        hi[k] = s->steps[k].win_hi;
    }
    char title[256];
    snprintf(title, sizeof title, "%s: the stronger %s's win rate per step (95%% Wilson; fair "
                                  "share %.2f); chain length %d",
             s->title, s->param, 1.0 / s->np, s->chain_length);
    svg_series series = {"stronger side", v, lo, hi};
    lab_svg_bars(out, title, "win rate", groups, s->n_steps, &series, 1, 0, 1);
}

bool pips_skill_write(const pips_skill *s, const char *dir, pips_error *err)
{
    if (!lab_make_dir(dir, err))
        return false;
    pips_str t;
    pips_str_init(&t, NULL);
    bool ok = pips_skill_json(s, &t);
    if (!ok)
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
    ok = ok && lab_write_file(dir, "report.json", &t, err);
    pips_str_clear(&t);
    pips_skill_csv(s, &t);
    ok = ok && lab_write_file(dir, "skill.csv", &t, err);
    pips_str_clear(&t);
    pips_skill_svg(s, &t);
    ok = ok && lab_write_file(dir, "skill.svg", &t, err);
    pips_str_free(&t);
    return ok;
}
