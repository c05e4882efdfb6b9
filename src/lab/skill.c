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

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "lab/lab_impl.h"

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
        char spec[160];
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

/* Progress over the whole run: the steps before plus this step's games. */
typedef struct step_progress {
    const pips_skill_opts *o;
    unsigned long before, total;
} step_progress;

static void on_game(void *ud, unsigned long done, unsigned long total)
{
    (void)total;
    step_progress *p = ud;
    p->o->progress(p->o->progress_ud, p->before + done, p->total);
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
    s->games_per_step = o->games;
    double t0 = pips_now();
    size_t steps = o->n_budgets - 1;
    step_progress prog = {o, 0, (unsigned long)steps * o->games};
    bool ok = true;
    for (size_t k = 0; ok && k < steps; k++) {
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
        pips_playtest_opts po = {0};
        po.game = o->game;
        po.opts = o->opts;
        po.n_opts = o->n_opts;
        po.seats = seats;
        po.n_seats = (size_t)s->np;
        po.games = o->games;
        po.seed = pips_rng_next(&rng);
        po.threads = o->threads;
        po.seating = s->np >= 3 ? PIPS_SEATING_ALL : PIPS_SEATING_ROTATE;
        po.stop = o->stop;
        if (o->progress) {
            prog.before = (unsigned long)k * o->games;
            po.progress = on_game;
            po.progress_ud = &prog;
        }
        pips_playtest *pt = pips_playtest_run(&po, err);
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
        if (pt->partial) /* stopped inside the step: only whole steps count */
            s->partial = true;
        else {
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
    if (!ok) {
        pips_free(NULL, s);
        return NULL;
    }
    s->chain_length = 0;
    while ((size_t)s->chain_length < s->n_steps && s->steps[s->chain_length].significant)
        s->chain_length++;
    return s;
}

void pips_skill_free(pips_skill *s) { pips_free(NULL, s); }

void pips_skill_text(const pips_skill *s, pips_str *out)
{
    pips_str_catf(out,
                  "# %s%s%s%s: skill depth of %s by %s, %d seats, %lu games a step, seed %llu\n",
                  s->title, *s->options ? " (" : "", s->options, *s->options ? ")" : "", s->kind,
                  s->param, s->np, s->games_per_step, (unsigned long long)s->seed);
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
    json_t *root = json_pack(
        "{s:s,s:s,s:s,s:s,s:s,s:i,s:I,s:I,s:b,s:f,s:o,s:i}", "game", s->game, "title", s->title,
        "options", s->options, "agent", s->kind, "budget", s->param, "players", s->np, "seed",
        (json_int_t)s->seed, "games_per_step", (json_int_t)s->games_per_step, "partial",
        s->partial, "fair_share", 1.0 / s->np, "steps", steps, "chain_length", s->chain_length);
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
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return pips_fail(err, PIPS_ERR_IO, "cannot create folder %s: %s", dir, strerror(errno));
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
