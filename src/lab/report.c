/*
 * report.c — the writers of a playtest: the JSON document (jansson) with
 * every figure, the Markdown report, the CSV of a sweep (one row per
 * variant) and the files in an output folder (the plots are plots.c's). Rates come
 * with 95% Wilson intervals; differences from the first variant with
 * Newcombe intervals (proportions) or normal intervals (means) and
 * two-sided p-values adjusted with the Holm-Bonferroni step-down over every
 * test of the report. A figure with no games behind it is written "n/a"
 * (JSON null), never as a made-up 0 with the interval [0, 1].
 *
 * Invariant: nothing here depends on the thread count, the MPI ranks or
 * the clock except the "run" and "timing" parts, which are kept separate
 * (JSON "run" and "timing", Markdown sections "Run" and "Timing") so the
 * rest can be compared byte for byte.
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lab/lab_impl.h"


/* ---- helpers shared with plots.c ------------------------------------------ */

const char *lab_value_word(pips_value v)
{
    return v == PIPS_WIN ? "win" : v == PIPS_LOSS ? "loss" : "draw";
}

/* The first mover's score with perfect play on both sides. */
static double exact_score(const lab_exact *e)
{
    return e->value == PIPS_WIN ? 1 : e->value == PIPS_LOSS ? 0 : 0.5;
}

/* The measured score of the seat that moves first. */
static lab_interval first_mover_score(const lab_variant *var)
{
    const wdl *x = &var->st.seat[var->exact.first_seat];
    return lab_rate_interval(x->score, x->n);
}

static bool exact_agrees(const lab_variant *var)
{
    lab_interval m = first_mover_score(var);
    double v = exact_score(&var->exact);
    return m.lo <= v + 1e-12 && v <= m.hi + 1e-12;
}

void lab_variant_label(const pips_playtest *pt, const lab_variant *var, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t k = 0; k < pt->n_vary && len < cap; k++)
        len += (size_t)snprintf(out + len, cap - len, "%s%s=%s", k ? " " : "", pt->vary_keys[k],
                                var->values[k]);
    if (!pt->n_vary)
        snprintf(out, cap, "%.*s", (int)(cap ? cap - 1 : 0), var->st.options);
}

int lab_max_seats(const pips_playtest *pt)
{
    int np = 0;
    for (size_t v = 0; v < pt->n_variants; v++)
        if (pt->variants[v].np > np)
            np = pt->variants[v].np;
    return np;
}

/* ---- comparisons with the first variant ---------------------------------- */

typedef struct compared {
    size_t variant;
    char name[PIPS_SPEC_MAX + 64]; /* "win rate of agent 1 (SPEC)" */
    double base, vs, diff, lo, hi, p, p_adj;
    bool has_interval, has_p;
} compared;

typedef struct compared_list {
    compared *c;
    size_t n, cap;
} compared_list;

static compared *add_compared(compared_list *l, size_t variant, const char *name)
{
    if (l->n == l->cap && !lab_grow((void **)&l->c, &l->cap, 32, sizeof *l->c))
        return NULL;
    compared *c = &l->c[l->n++];
    memset(c, 0, sizeof *c);
    c->variant = variant;
    snprintf(c->name, sizeof c->name, "%s", name);
    return c;
}

static void add_prop(compared_list *l, size_t v, const char *name, double xa, double na,
                     double xb, double nb)
{
    compared *c = add_compared(l, v, name);
    if (!c || na <= 0 || nb <= 0) {
        if (c)
            l->n--;
        return;
    }
    c->base = xa / na;
    c->vs = xb / nb;
    c->diff = c->vs - c->base;
    pips_diff_interval(c->vs, nb, c->base, na, LAB_Z95, &c->lo, &c->hi);
    c->has_interval = c->has_p = true;
    c->p = pips_two_prop_p(xb, nb, xa, na);
}

static void add_mean(compared_list *l, size_t v, const char *name, double ma, double sa,
                     double na, double mb, double sb, double nb)
{
    compared *c = add_compared(l, v, name);
    if (!c || na <= 0 || nb <= 0) {
        if (c)
            l->n--;
        return;
    }
    c->base = ma;
    c->vs = mb;
    c->diff = mb - ma;
    double se = sqrt(sa * sa / na + sb * sb / nb);
    c->lo = c->diff - LAB_Z95 * se;
    c->hi = c->diff + LAB_Z95 * se;
    c->has_interval = c->has_p = true;
    c->p = pips_mean_diff_p(mb, sb, nb, ma, sa, na);
}

static void add_plain(compared_list *l, size_t v, const char *name, double a, double b)
{
    compared *c = add_compared(l, v, name);
    if (!c)
        return;
    c->base = a;
    c->vs = b;
    c->diff = b - a;
}

/* Every figure of every variant against the first, with Holm-adjusted
 * p-values over the whole list. The caller frees list->c. */
static void comparisons(const pips_playtest *pt, compared_list *l)
{
    memset(l, 0, sizeof *l);
    const ruleset_stats *a = &pt->variants[0].st;
    char label[sizeof ((compared *)0)->name];
    for (size_t v = 1; v < pt->n_variants; v++) {
        const ruleset_stats *b = &pt->variants[v].st;
        add_prop(l, v, "draw rate", a->draws, (double)a->games, b->draws, (double)b->games);
        add_prop(l, v, "cap rate", a->capped, lab_cap_games(a), b->capped, lab_cap_games(b));
        /* the first seat's advantage over an even share: with the same seat
         * count a difference of scores; otherwise the shares differ too, and
         * the test is the unpooled (Wald) one */
        double pa = lab_rate(a->seat[0].score, a->seat[0].n);
        double pb = lab_rate(b->seat[0].score, b->seat[0].n);
        compared *c = add_compared(l, v, "first-seat advantage");
        if (c && a->seat[0].n > 0 && b->seat[0].n > 0) {
            c->base = pa - 1.0 / a->np;
            c->vs = pb - 1.0 / b->np;
            c->diff = c->vs - c->base;
            pips_diff_interval(pb, b->seat[0].n, pa, a->seat[0].n, LAB_Z95, &c->lo, &c->hi);
            c->lo += 1.0 / a->np - 1.0 / b->np;
            c->hi += 1.0 / a->np - 1.0 / b->np;
            c->has_interval = c->has_p = true;
            if (a->np == b->np) {
                c->p = pips_two_prop_p(b->seat[0].score, b->seat[0].n, a->seat[0].score,
                                       a->seat[0].n);
            } else {
                double se = sqrt(pa * (1 - pa) / a->seat[0].n + pb * (1 - pb) / b->seat[0].n);
                c->p = se > 0 ? pips_normal_p2(c->diff / se) : c->diff == 0 ? 1 : 0;
            }
        } else if (c) {
            l->n--;
        }
        for (int s = 1; a->np == b->np && s < a->np; s++) {
            snprintf(label, sizeof label, "score of seat %d", s + 1);
            add_prop(l, v, label, a->seat[s].score, a->seat[s].n, b->seat[s].score, b->seat[s].n);
        }
        for (size_t k = 0; pt->n_agents > 1 && k < pt->n_agents; k++) {
            snprintf(label, sizeof label, "win rate of agent %zu (%s)", k + 1, pt->agents[k]);
            add_prop(l, v, label, a->agent[k].w, a->agent[k].n, b->agent[k].w, b->agent[k].n);
        }
        add_mean(l, v, "mean game length (turns)", a->turns.mean, a->turns.sd,
                 (double)a->games, b->turns.mean, b->turns.sd, (double)b->games);
        add_mean(l, v, "mean game length (rounds)", a->rounds.mean, a->rounds.sd,
                 (double)a->games, b->rounds.mean, b->rounds.sd, (double)b->games);
        add_plain(l, v, "median game length (turns)", a->turns.median, b->turns.median);
        add_mean(l, v, "lead changes (mean per game)", a->lead_mean, a->lead_sd,
                 (double)a->lead_games, b->lead_mean, b->lead_sd, (double)b->lead_games);
        add_prop(l, v, "comeback rate", a->comeback_x, a->comeback_n, b->comeback_x,
                 b->comeback_n);
        add_mean(l, v, "drama (mean deficit of the winner behind)", a->drama_mean, a->drama_sd,
                 (double)a->drama_games, b->drama_mean, b->drama_sd, (double)b->drama_games);
        add_mean(l, v, "uncertainty (fraction before the winner leads for good)", a->unc_mean,
                 a->unc_sd, (double)a->drama_games, b->unc_mean, b->unc_sd,
                 (double)b->drama_games);
        add_mean(l, v, "mean game length (moves)", a->len_mean, a->len_sd, (double)a->games,
                 b->len_mean, b->len_sd, (double)b->games);
        add_plain(l, v, "median game length (moves)", a->len_median, b->len_median);
        add_plain(l, v, "mean branching factor", a->branch_overall, b->branch_overall);
        if (pt->has_mcts)
            add_mean(l, v, "decisive point (mean fraction of the game)", a->decisive_mean,
                     a->decisive_sd, (double)a->decisive_known, b->decisive_mean, b->decisive_sd,
                     (double)b->decisive_known);
    }
    size_t n_p = 0;
    for (size_t i = 0; i < l->n; i++)
        n_p += l->c[i].has_p;
    double *p = pips_malloc(NULL, (n_p ? n_p : 1) * sizeof *p);
    double *adj = pips_malloc(NULL, (n_p ? n_p : 1) * sizeof *adj);
    if (p && adj) {
        size_t k = 0;
        for (size_t i = 0; i < l->n; i++)
            if (l->c[i].has_p)
                p[k++] = l->c[i].p;
        pips_holm(p, n_p, adj);
        k = 0;
        for (size_t i = 0; i < l->n; i++)
            if (l->c[i].has_p)
                l->c[i].p_adj = adj[k++];
    } else {
        for (size_t i = 0; i < l->n; i++)
            l->c[i].p_adj = 1; /* out of memory: claim nothing */
    }
    pips_free(NULL, p);
    pips_free(NULL, adj);
}

/* ---- warnings ----------------------------------------------------------------- */

#define LAB_MAX_WARNINGS (LAB_MAX_VARIANTS + 4)

/* The run's warnings, one text each (the caller frees them): a variant
 * whose games repeat themselves. */
static size_t collect_warnings(const pips_playtest *pt, char **out, size_t cap)
{
    size_t n = 0;
    for (size_t v = 0; v < pt->n_variants && n < cap; v++) {
        const lab_variant *var = &pt->variants[v];
        const ruleset_stats *st = &var->st;
        if (st->distinct_games >= st->games)
            continue;
        pips_str s;
        pips_str_init(&s, NULL);
        if (pt->n_variants > 1)
            pips_str_catf(&s, "Variant %s: ", var->name);
        pips_str_catf(&s,
                      "only %lu distinct game%s among the %lu played: the same move sequences "
                      "repeat, so the figures rest on %lu different games, not %lu. Use a "
                      "stochastic agent (mcts, random) or vary the seed.",
                      st->distinct_games, st->distinct_games == 1 ? "" : "s", st->games,
                      st->distinct_games, st->games);
        out[n++] = pips_strdup(NULL, pips_str_cstr(&s));
        pips_str_free(&s);
        if (!out[n - 1])
            n--;
    }
    return n;
}

static void free_warnings(char **w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        pips_free(NULL, w[i]);
}

/* ---- JSON ------------------------------------------------------------------ */

static json_t *interval_json(lab_interval r)
{
    if (!r.known)
        return json_pack("{s:n,s:n,s:n}", "value", "lo", "hi");
    return json_pack("{s:f,s:f,s:f}", "value", r.value, "lo", r.lo, "hi", r.hi);
}

static json_t *count_json(double x) { return json_integer((json_int_t)llround(x)); }

static json_t *wdl_json(const wdl *x)
{
    json_t *o = json_object();
    json_object_set_new(o, "games", count_json(x->n));
    json_object_set_new(o, "wins", count_json(x->w));
    json_object_set_new(o, "draws", count_json(x->d));
    json_object_set_new(o, "losses", count_json(x->l));
    json_object_set_new(o, "win_rate", interval_json(lab_rate_interval(x->w, x->n)));
    json_object_set_new(o, "score", interval_json(lab_rate_interval(x->score, x->n)));
    json_object_set_new(o, "draw_rate", interval_json(lab_rate_interval(x->d, x->n)));
    return o;
}

/* A whole number as an integer, anything else as a real. */
static json_t *number_json(double x)
{
    if (x == floor(x) && fabs(x) < 9e15)
        return json_integer((json_int_t)x);
    return json_real(x);
}

/* A distribution in the shape of `length`. */
static json_t *summary_json(const lab_summary *x)
{
    json_t *hist = json_array();
    for (int b = 0; b < LAB_HIST_BINS; b++)
        json_array_append_new(hist, json_integer((json_int_t)x->hist[b]));
    json_t *o = json_object();
    json_object_set_new(o, "mean", json_real(x->mean));
    json_object_set_new(o, "sd", json_real(x->sd));
    json_object_set_new(o, "median", number_json(x->median));
    json_object_set_new(o, "p10", number_json(x->p10));
    json_object_set_new(o, "p25", number_json(x->p25));
    json_object_set_new(o, "p75", number_json(x->p75));
    json_object_set_new(o, "p90", number_json(x->p90));
    json_object_set_new(o, "min", count_json(x->min));
    json_object_set_new(o, "max", count_json(x->max));
    json_object_set_new(o, "histogram",
                        json_pack("{s:o,s:o,s:o}", "first", count_json(x->hist_lo), "width",
                                  count_json(x->hist_width), "counts", hist));
    return o;
}

static json_t *drama_json(const pips_playtest *pt, const ruleset_stats *st)
{
    json_t *o = json_object();
    json_object_set_new(o, "games", json_integer((json_int_t)st->lead_games));
    /* the games measured: those whose number this divides (0: none) */
    json_object_set_new(o, "every", json_integer((json_int_t)pt->drama_every));
    json_object_set_new(o, "lead_changes",
                        interval_json(lab_mean_interval(st->lead_mean, st->lead_sd,
                                                        (double)st->lead_games)));
    json_t *cb = interval_json(lab_rate_interval(st->comeback_x, st->comeback_n));
    json_object_set_new(cb, "games", count_json(st->comeback_n));
    json_object_set_new(o, "comeback_rate", cb);
    json_object_set_new(o, "decisive_games", json_integer((json_int_t)st->drama_games));
    json_object_set_new(o, "drama",
                        interval_json(lab_mean_interval(st->drama_mean, st->drama_sd,
                                                        (double)st->drama_games)));
    json_object_set_new(o, "uncertainty",
                        interval_json(lab_mean_interval(st->unc_mean, st->unc_sd,
                                                        (double)st->drama_games)));
    return o;
}

static json_t *exact_json(const lab_variant *var)
{
    const lab_exact *e = &var->exact;
    if (e->state == LAB_EXACT_OFF)
        return NULL;
    json_t *o = json_object();
    if (e->state == LAB_EXACT_UNKNOWN) {
        json_object_set_new(o, "status", json_string("unknown"));
        json_object_set_new(o, "note", json_string(e->note));
        return o;
    }
    json_object_set_new(o, "status", json_string("solved"));
    json_object_set_new(o, "first_mover_seat", json_integer(e->first_seat + 1));
    json_object_set_new(o, "value", json_string(lab_value_word(e->value)));
    json_object_set_new(o, "perfect_play_score", number_json(exact_score(e)));
    json_object_set_new(o, "positions", json_integer((json_int_t)e->positions));
    json_object_set_new(o, "measured_score", interval_json(first_mover_score(var)));
    json_object_set_new(o, "agrees", json_boolean(exact_agrees(var)));
    return o;
}

static json_t *variant_json(const pips_playtest *pt, const lab_variant *var)
{
    const ruleset_stats *st = &var->st;
    json_t *agents = json_array(), *seats = json_array();
    for (size_t k = 0; k < pt->n_agents; k++) {
        json_t *a = wdl_json(&st->agent[k]);
        json_object_set_new(a, "spec", json_string(pt->agents[k]));
        json_object_set_new(a, "seats", json_integer(lab_agent_seats(pt, k, st->np)));
        json_t *by_seat = json_array();
        for (int s = 0; s < st->np; s++)
            json_array_append_new(by_seat, wdl_json(&st->agent_seat[k][s]));
        json_object_set_new(a, "by_seat", by_seat);
        json_array_append_new(agents, a);
    }
    for (int s = 0; s < st->np; s++) {
        json_t *x = wdl_json(&st->seat[s]);
        json_object_set_new(x, "seat", json_integer(s + 1));
        json_array_append_new(seats, x);
    }
    json_t *hist = json_array(), *branch = json_array();
    for (int b = 0; b < LAB_HIST_BINS; b++)
        json_array_append_new(hist, json_integer((json_int_t)st->hist[b]));
    for (size_t k = 0; k < st->branch_plies; k++)
        json_array_append_new(branch, json_pack("{s:I,s:f,s:I}", "ply", (json_int_t)(k + 1),
                                                "mean_moves", st->branch_mean[k], "games",
                                                (json_int_t)st->branch_count[k]));
    lab_interval first = lab_rate_interval(st->seat[0].score, st->seat[0].n);
    json_t *fp = interval_json(first);
    json_object_set_new(fp, "advantage",
                        first.known ? json_real(first.value - 1.0 / st->np) : json_null());
    json_t *varied = json_object();
    for (size_t k = 0; k < pt->n_vary; k++)
        json_object_set_new(varied, pt->vary_keys[k], json_string(var->values[k]));
    json_t *r = json_object();
    json_object_set_new(r, "name", json_string(var->name));
    json_object_set_new(r, "varied", varied);
    json_object_set_new(r, "options", json_string(st->options));
    json_object_set_new(r, "players", json_integer(st->np));
    json_object_set_new(r, "games", json_integer((json_int_t)st->games));
    json_object_set_new(r, "draws", count_json(st->draws));
    json_object_set_new(r, "draw_rate",
                        interval_json(lab_rate_interval(st->draws, (double)st->games)));
    json_object_set_new(r, "unfinished", count_json(st->unfinished));
    json_object_set_new(r, "capped", count_json(st->capped));
    json_object_set_new(r, "cap_rate",
                        interval_json(lab_rate_interval(st->capped, lab_cap_games(st))));
    json_object_set_new(r, "agents", agents);
    json_object_set_new(r, "seats", seats);
    json_object_set_new(r, "first_player", fp);
    json_t *bal = json_object();
    json_object_set_new(bal, "chi2", json_real(st->chi2));
    json_object_set_new(bal, "df", json_integer(st->np - 1));
    json_object_set_new(bal, "p", json_real(st->chi2_p));
    json_object_set_new(bal, "decisive_games", count_json(st->decisive_games));
    json_object_set_new(bal, "seat_score_spread", json_real(st->seat_spread));
    json_object_set_new(r, "balance", bal);
    json_t *len = json_object();
    json_object_set_new(len, "mean", json_real(st->len_mean));
    json_object_set_new(len, "sd", json_real(st->len_sd));
    json_object_set_new(len, "median", number_json(st->len_median));
    json_object_set_new(len, "p10", number_json(st->len_p10));
    json_object_set_new(len, "p25", number_json(st->len_p25));
    json_object_set_new(len, "p75", number_json(st->len_p75));
    json_object_set_new(len, "p90", number_json(st->len_p90));
    json_object_set_new(len, "min", count_json(st->len_min));
    json_object_set_new(len, "max", count_json(st->len_max));
    json_object_set_new(len, "histogram",
                        json_pack("{s:o,s:o,s:o}", "first", count_json(st->hist_lo), "width",
                                  count_json(st->hist_width), "counts", hist));
    json_object_set_new(r, "length", len);
    json_object_set_new(r, "turns", summary_json(&st->turns));
    json_object_set_new(r, "rounds", summary_json(&st->rounds));
    json_object_set_new(r, "distinct_games", json_integer((json_int_t)st->distinct_games));
    json_object_set_new(r, "drama", drama_json(pt, st));
    json_object_set_new(r, "branching",
                        json_pack("{s:f,s:o}", "mean", st->branch_overall, "by_ply", branch));
    if (pt->has_mcts) {
        json_t *d = json_object();
        json_object_set_new(d, "threshold", json_real(pt->threshold));
        json_object_set_new(d, "games", json_integer((json_int_t)st->decisive_known));
        json_object_set_new(d, "mean_fraction",
                            st->decisive_known ? json_real(st->decisive_mean) : json_null());
        json_object_set_new(d, "median_fraction",
                            st->decisive_known ? json_real(st->decisive_median) : json_null());
        json_object_set_new(r, "decisiveness", d);
    }
    json_t *ex = exact_json(var);
    if (ex)
        json_object_set_new(r, "exact", ex);
    lab_trust_line trust;
    lab_trust(pt, var, &trust);
    json_object_set_new(r, "trust", json_pack("{s:s,s:s}", "kind", trust.kind, "text",
                                              trust.text));
    return r;
}

static json_t *run_json(const pips_playtest *pt)
{
    json_t *run = json_object();
    json_object_set_new(run, "command", json_string(pt->command));
    json_object_set_new(run, "version", json_string(pt->version));
    json_object_set_new(run, "date", json_string(pt->date));
    json_object_set_new(run, "machine", json_string(pt->machine));
    json_object_set_new(run, "ranks", json_integer(pt->ranks));
    json_object_set_new(run, "threads", json_integer(pt->threads));
    return run;
}

/* Agent k's decisions, mean and longest seconds per move over every variant. */
static void agent_timing(const pips_playtest *pt, size_t k, double *moves, double *mean,
                         double *max)
{
    double sum = 0;
    *moves = *max = 0;
    for (size_t v = 0; v < pt->n_variants; v++) {
        const ruleset_stats *st = &pt->variants[v].st;
        *moves += (double)st->time_moves[k];
        sum += st->time_mean[k] * (double)st->time_moves[k];
        *max = fmax(*max, st->time_max[k]);
    }
    *mean = *moves > 0 ? sum / *moves : 0;
}

static json_t *timing_json(const pips_playtest *pt)
{
    json_t *t = json_array();
    for (size_t k = 0; k < pt->n_agents; k++) {
        double moves, mean, max;
        agent_timing(pt, k, &moves, &mean, &max);
        json_array_append_new(t, json_pack("{s:s,s:I,s:f,s:f}", "spec", pt->agents[k], "moves",
                                           (json_int_t)moves, "mean_move_seconds", mean,
                                           "max_move_seconds", max));
    }
    json_t *exact = json_array();
    for (size_t v = 0; v < pt->n_variants; v++) {
        const lab_exact *e = &pt->variants[v].exact;
        if (e->state == LAB_EXACT_SOLVED)
            json_array_append_new(exact, json_pack("{s:s,s:f}", "variant", pt->variants[v].name,
                                                   "solve_seconds", e->seconds));
        else if (e->state == LAB_EXACT_UNKNOWN && e->detail[0])
            json_array_append_new(exact, json_pack("{s:s,s:s}", "variant", pt->variants[v].name,
                                                   "stopped", e->detail));
    }
    return json_pack("{s:f,s:f,s:o,s:o}", "seconds", pt->seconds, "games_per_second",
                     pips_playtest_games_per_second(pt), "agents", t, "exact", exact);
}

bool pips_playtest_json(const pips_playtest *pt, bool with_run, pips_str *out)
{
    json_t *root = json_object(), *agents = json_array(), *keys = json_array();
    for (size_t k = 0; k < pt->n_agents; k++)
        json_array_append_new(agents, json_string(pt->agents[k]));
    for (size_t k = 0; k < pt->n_vary; k++)
        json_array_append_new(keys, json_string(pt->vary_keys[k]));
    json_object_set_new(root, "game", json_string(pt->game));
    json_object_set_new(root, "title", json_string(pt->title));
    json_object_set_new(root, "seed", json_integer((json_int_t)pt->seed));
    json_object_set_new(root, "games", json_integer((json_int_t)pt->games));
    json_object_set_new(root, "partial", json_boolean(pt->partial));
    if (pt->failed)
        json_object_set_new(root, "failure", json_string(pt->failure.msg));
    json_object_set_new(root, "fixed_seats", json_boolean(pt->seating == PIPS_SEATING_FIXED));
    json_object_set_new(root, "seatings", json_string(pips_seating_name(pt->seating)));
    json_object_set_new(root, "agents", agents);
    json_object_set_new(root, "varied", keys);
    json_t *vars = json_array();
    for (size_t v = 0; v < pt->n_variants; v++)
        json_array_append_new(vars, variant_json(pt, &pt->variants[v]));
    json_object_set_new(root, "variants", vars);
    char *warn[LAB_MAX_WARNINGS];
    size_t n_warn = collect_warnings(pt, warn, LAB_MAX_WARNINGS);
    json_t *warnings = json_array();
    for (size_t i = 0; i < n_warn; i++)
        json_array_append_new(warnings, json_string(warn[i]));
    free_warnings(warn, n_warn);
    json_object_set_new(root, "warnings", warnings);
    if (pt->n_variants > 1) {
        compared_list l;
        comparisons(pt, &l);
        json_t *arr = json_array();
        for (size_t i = 0; i < l.n; i++) {
            const compared *c = &l.c[i];
            json_t *o = json_pack("{s:s,s:s,s:f,s:f,s:f}", "variant",
                                  pt->variants[c->variant].name, "figure", c->name, "first",
                                  c->base, "this", c->vs, "difference", c->diff);
            if (c->has_interval) {
                json_object_set_new(o, "lo", json_real(c->lo));
                json_object_set_new(o, "hi", json_real(c->hi));
            }
            if (c->has_p) {
                json_object_set_new(o, "p", json_real(c->p));
                json_object_set_new(o, "p_holm", json_real(c->p_adj));
            }
            json_array_append_new(arr, o);
        }
        pips_free(NULL, l.c);
        json_object_set_new(root, "comparisons", arr);
        json_object_set_new(root, "correction", json_string("holm-bonferroni"));
    }
    if (with_run) {
        json_object_set_new(root, "run", run_json(pt));
        json_object_set_new(root, "timing", timing_json(pt));
    }
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    json_decref(root);
    if (!text)
        return false;
    pips_str_cat(out, text);
    pips_str_cat(out, "\n");
    free(text);
    return !out->failed;
}

/* ---- Markdown ---------------------------------------------------------------- */

/* "0.523 [0.480, 0.566]", or "n/a" with no games */
static void cat_interval(pips_str *out, lab_interval r, const char *fmt_sign)
{
    if (!r.known) {
        pips_str_cat(out, "n/a");
        return;
    }
    if (fmt_sign[0] == '+')
        pips_str_catf(out, "%+.3f [%+.3f, %+.3f]", r.value, r.lo, r.hi);
    else
        pips_str_catf(out, "%.3f [%.3f, %.3f]", r.value, r.lo, r.hi);
}

/* A mean, or n/a with no games behind it. */
static void cat_mean(pips_str *out, double mean, unsigned long n, const char *fmt)
{
    if (n)
        pips_str_catf(out, fmt, mean);
    else
        pips_str_cat(out, "n/a");
}

static void cat_rate(pips_str *out, double x, double n)
{
    cat_interval(out, lab_rate_interval(x, n), "");
}

/* A distribution's line, with its histogram table when asked. */
static void markdown_summary(pips_str *out, const char *title, const char *unit,
                             const lab_summary *x, bool table)
{
    pips_str_catf(out,
                  "\n### %s\n\nmean %.2f (sd %.2f), median %.1f, p10 %.1f, p25 %.1f, p75 %.1f, "
                  "p90 %.1f, min %.0f, max %.0f\n\n",
                  title, x->mean, x->sd, x->median, x->p10, x->p25, x->p75, x->p90, x->min,
                  x->max);
    if (!table)
        return;
    pips_str_catf(out, "| %s | games |\n|---|---|\n", unit);
    for (int b = 0; b < LAB_HIST_BINS; b++) {
        if (!x->hist[b])
            continue;
        double lo = x->hist_lo + b * x->hist_width;
        if (x->hist_width > 1)
            pips_str_catf(out, "| %.0f-%.0f | %lu |\n", lo, lo + x->hist_width - 1, x->hist[b]);
        else
            pips_str_catf(out, "| %.0f | %lu |\n", lo, x->hist[b]);
    }
}

static void markdown_drama(pips_str *out, const pips_playtest *pt, const ruleset_stats *st)
{
    if (!st->lead_games) {
        pips_str_cat(out, "\n### Drama and tension\n\nNot measured (`--drama off`, or the "
                          "game has no evaluation).\n");
        return;
    }
    pips_str_cat(out, "\n### Drama and tension\n\nFrom each seat's evaluation after every "
                      "turn (docs/playtest.md).");
    if (pt->drama_by_default)
        pips_str_catf(out, " Measured only in the games numbered 0, %lu, %lu, ... (by default "
                           "at most %lu games a variant; `--drama-every 1` measures every "
                           "game): %lu of %lu games.",
                      pt->drama_every, 2 * pt->drama_every, PIPS_LAB_DRAMA_GAMES, st->lead_games,
                      st->games);
    else if (pt->drama_every > 1)
        pips_str_catf(out, " Measured only in the games numbered 0, %lu, %lu, ... "
                           "(`--drama-every %lu`): %lu of %lu games.",
                      pt->drama_every, 2 * pt->drama_every, pt->drama_every, st->lead_games,
                      st->games);
    pips_str_cat(out, "\n\n- lead changes per game: ");
    cat_interval(out, lab_mean_interval(st->lead_mean, st->lead_sd, (double)st->lead_games), "");
    pips_str_catf(out, " over %lu games\n- comeback rate (decisive games won by a seat not "
                       "leading at the halfway turn): ",
                  st->lead_games);
    cat_rate(out, st->comeback_x, st->comeback_n);
    pips_str_catf(out, " of %.0f\n- drama (the winner's mean deficit on its turns behind): ",
                  st->comeback_n);
    cat_interval(out, lab_mean_interval(st->drama_mean, st->drama_sd, (double)st->drama_games),
                 "");
    pips_str_cat(out, "\n- uncertainty (share of the game before the winner leads for good): ");
    cat_interval(out, lab_mean_interval(st->unc_mean, st->unc_sd, (double)st->drama_games), "");
    pips_str_catf(out, " over %lu decisive games\n", st->drama_games);
}

static void markdown_variant(const pips_playtest *pt, const lab_variant *var, pips_str *out)
{
    const ruleset_stats *st = &var->st;
    lab_trust_line trust;
    lab_trust(pt, var, &trust);
    pips_str_catf(out, "Options: `%s`.\n\n", st->options);
    for (size_t k = 0; k < pt->n_agents; k++) /* a level resolved for this seat count */
        if (strstr(pt->agent_labels[k], " (by seat count)"))
            pips_str_catf(out, "Agent %zu plays `%s` here.\n\n", k + 1, var->agents[k]);
    pips_str_catf(out, "Trust: %s.\n\n", trust.text);
    pips_str_cat(out, "### Results per agent\n\n| agent | games | W | D | L | win rate [95%] | "
                      "score [95%] |\n|---|---|---|---|---|---|---|\n");
    for (size_t k = 0; k < pt->n_agents; k++) {
        const wdl *x = &st->agent[k];
        pips_str_catf(out, "| %zu `%s` | %.0f | %.0f | %.0f | %.0f | ", k + 1, pt->agent_labels[k],
                      x->n, x->w, x->d, x->l);
        cat_rate(out, x->w, x->n);
        pips_str_cat(out, " | ");
        cat_rate(out, x->score, x->n);
        pips_str_cat(out, " |\n");
    }
    pips_str_cat(out, "\n### Results per seat\n\n| seat | games | W | D | L | win rate [95%] | "
                      "score [95%] |\n|---|---|---|---|---|---|---|\n");
    for (int s = 0; s < st->np; s++) {
        const wdl *x = &st->seat[s];
        pips_str_catf(out, "| %d | %.0f | %.0f | %.0f | %.0f | ", s + 1, x->n, x->w, x->d, x->l);
        cat_rate(out, x->w, x->n);
        pips_str_cat(out, " | ");
        cat_rate(out, x->score, x->n);
        pips_str_cat(out, " |\n");
    }
    if (pt->n_agents > 1) {
        pips_str_cat(out, "\n### Agent by seat (win rate [95%])\n\n| agent |");
        for (int s = 0; s < st->np; s++)
            pips_str_catf(out, " seat %d |", s + 1);
        pips_str_cat(out, "\n|---|");
        for (int s = 0; s < st->np; s++)
            pips_str_cat(out, "---|");
        pips_str_cat(out, "\n");
        for (size_t k = 0; k < pt->n_agents; k++) {
            pips_str_catf(out, "| %zu |", k + 1);
            for (int s = 0; s < st->np; s++) {
                const wdl *x = &st->agent_seat[k][s];
                pips_str_cat(out, " ");
                if (x->n > 0) {
                    cat_rate(out, x->w, x->n);
                    pips_str_catf(out, " (n=%.0f)", x->n);
                } else {
                    pips_str_cat(out, "-");
                }
                pips_str_cat(out, " |");
            }
            pips_str_cat(out, "\n");
        }
    }
    pips_str_cat(out, "\n### Balance\n\n- Draw rate: ");
    cat_rate(out, st->draws, (double)st->games);
    pips_str_cat(out, "\n- First seat's score: ");
    cat_rate(out, st->seat[0].score, st->seat[0].n);
    pips_str_cat(out, "; advantage over an even share: ");
    cat_interval(out, lab_first_seat_advantage(st), "+");
    pips_str_catf(out,
                  "\n- Seat balance: chi-square %.2f on %d degrees of freedom over %.0f decisive "
                  "games, p = %.4g; spread of seat scores %.3f\n",
                  st->chi2, st->np - 1, st->decisive_games, st->chi2_p, st->seat_spread);
    pips_str_cat(out, "- Cap rate (ended by a turn or move cap): ");
    cat_rate(out, st->capped, lab_cap_games(st));
    pips_str_cat(out, "\n");
    if (st->unfinished > 0)
        pips_str_catf(out, "- Unfinished games (cut by the lab at %d plies): %.0f\n",
                      LAB_MAX_PLIES, st->unfinished);
    markdown_summary(out, "Game length (turns)", "turns", &st->turns, true);
    markdown_summary(out, "Game length (rounds)", "rounds", &st->rounds, false);
    pips_str_catf(out, "- distinct games (move sequences): %lu of %lu\n", st->distinct_games,
                  st->games);
    markdown_drama(out, pt, st);
    pips_str_catf(out,
                  "\n### Game length (moves)\n\nmean %.2f (sd %.2f), median %.1f, p10 %.1f, "
                  "p25 %.1f, p75 %.1f, p90 %.1f, min %.0f, max %.0f\n\n",
                  st->len_mean, st->len_sd, st->len_median, st->len_p10, st->len_p25,
                  st->len_p75, st->len_p90, st->len_min, st->len_max);
    pips_str_cat(out, "| moves | games |\n|---|---|\n");
    for (int b = 0; b < LAB_HIST_BINS; b++) {
        if (!st->hist[b])
            continue;
        double lo = st->hist_lo + b * st->hist_width;
        if (st->hist_width > 1)
            pips_str_catf(out, "| %.0f-%.0f | %lu |\n", lo, lo + st->hist_width - 1, st->hist[b]);
        else
            pips_str_catf(out, "| %.0f | %lu |\n", lo, st->hist[b]);
    }
    pips_str_catf(out, "\n### Branching factor\n\nMean moves available per decision: %.2f.\n\n",
                  st->branch_overall);
    pips_str_cat(out, "| ply | mean moves | games |\n|---|---|---|\n");
    for (size_t k = 0; k < st->branch_plies; k++)
        pips_str_catf(out, "| %zu | %.2f | %lu |\n", k + 1, st->branch_mean[k],
                      st->branch_count[k]);
    if (pt->has_mcts) {
        pips_str_catf(out,
                      "\n### Decisiveness\n\nThe point (fraction of the game's moves) after "
                      "which the eventual winner's MCTS root value stays at or above %.2f: "
                      "known for %lu games",
                      pt->threshold, st->decisive_known);
        if (st->decisive_known)
            pips_str_catf(out, ", mean %.3f, median %.3f.\n", st->decisive_mean,
                          st->decisive_median);
        else
            pips_str_cat(out, ".\n");
    }
    pips_str_cat(out, "\n");
}

/* The agents-versus-the-game lines: the exact value beside the measured
 * score of the first mover, with a warning when they disagree. */
static void markdown_exact(const pips_playtest *pt, pips_str *out)
{
    bool any = false;
    for (size_t v = 0; v < pt->n_variants; v++)
        any |= pt->variants[v].exact.state != LAB_EXACT_OFF;
    if (!any)
        return;
    pips_str_cat(out, "## Agents against the game\n\nWhere the exact solver settles a variant, "
                      "its value with perfect play stands beside the measured score of the "
                      "seat that moves first (perfect play scores 1 for a win, 0.5 for a draw, "
                      "0 for a loss).\n\n");
    for (size_t v = 0; v < pt->n_variants; v++) {
        const lab_variant *var = &pt->variants[v];
        const lab_exact *e = &var->exact;
        char label[512];
        lab_variant_label(pt, var, label, sizeof label);
        if (pt->n_variants > 1)
            pips_str_catf(out, "- Variant %s (`%s`): ", var->name, label);
        else
            pips_str_cat(out, "- ");
        if (e->state == LAB_EXACT_OFF) {
            pips_str_catf(out, "not solved (%s).\n", e->note);
            continue;
        }
        if (e->state == LAB_EXACT_UNKNOWN) {
            pips_str_catf(out, "unknown: %s.\n", e->note);
            continue;
        }
        lab_interval m = first_mover_score(var);
        pips_str_catf(out,
                      "proven: the first mover (seat %d) %s with perfect play (%llu positions "
                      "solved). Measured score of seat %d: ",
                      e->first_seat + 1,
                      e->value == PIPS_WIN ? "wins" : e->value == PIPS_LOSS ? "loses" : "draws",
                      e->positions, e->first_seat + 1);
        cat_interval(out, m, "");
        if (exact_agrees(var)) {
            pips_str_cat(out, ", which agrees.\n");
            continue;
        }
        double ex = exact_score(e);
        /* only a proven win or loss has an "other side" to favour */
        bool wrong_side = (ex > 0.5 && m.hi < 0.5) || (ex < 0.5 && m.lo > 0.5);
        pips_str_catf(out,
                      ".\n  **Warning: the agents disagree with the game.** The interval excludes "
                      "the perfect-play score %.1f%s, so these agents do not play this variant "
                      "well enough; the rates above describe the agents, not the game.\n",
                      ex,
                      wrong_side ? " and even favours the other side" : "");
    }
    pips_str_cat(out, "\n");
}

static void markdown_sweep(const pips_playtest *pt, pips_str *out)
{
    int np_max = lab_max_seats(pt);
    pips_str_cat(out, "## Sweep\n\nOne row per variant (the same game seeds under each); ");
    pips_str_cat(out, "scores and rates with 95% Wilson intervals, means with 95% normal "
                      "intervals; a turn is one seat's whole turn, a round every seat's, "
                      "plies are decisions.\n\n| variant |");
    for (size_t k = 0; k < pt->n_vary; k++)
        pips_str_catf(out, " %s |", pt->vary_keys[k]);
    pips_str_cat(out, " games | mean turns | mean rounds | median turns |");
    for (int s = 0; s < np_max; s++)
        pips_str_catf(out, " seat %d score |", s + 1);
    pips_str_cat(out, " first-seat advantage | draw rate | mean plies | median plies | "
                      "cap rate | lead changes | comeback rate | drama | uncertainty | "
                      "distinct games | decisiveness | branching |\n|---|");
    for (size_t k = 0; k < pt->n_vary + 4 + (size_t)np_max + 12; k++)
        pips_str_cat(out, "---|");
    pips_str_cat(out, "\n");
    for (size_t v = 0; v < pt->n_variants; v++) {
        const lab_variant *var = &pt->variants[v];
        const ruleset_stats *st = &var->st;
        pips_str_catf(out, "| %s |", var->name);
        for (size_t k = 0; k < pt->n_vary; k++)
            pips_str_catf(out, " %s |", var->values[k]);
        pips_str_catf(out, " %lu | ", st->games);
        cat_interval(out, lab_mean_interval(st->turns.mean, st->turns.sd, (double)st->games),
                     "");
        pips_str_cat(out, " | ");
        cat_interval(out, lab_mean_interval(st->rounds.mean, st->rounds.sd, (double)st->games),
                     "");
        pips_str_catf(out, " | %.1f |", st->turns.median);
        for (int s = 0; s < np_max; s++) {
            pips_str_cat(out, " ");
            if (s < st->np)
                cat_rate(out, st->seat[s].score, st->seat[s].n);
            else
                pips_str_cat(out, "-");
            pips_str_cat(out, " |");
        }
        pips_str_cat(out, " ");
        cat_interval(out, lab_first_seat_advantage(st), "+");
        pips_str_cat(out, " | ");
        cat_rate(out, st->draws, (double)st->games);
        pips_str_catf(out, " | %.2f | %.1f | ", st->len_mean, st->len_median);
        cat_rate(out, st->capped, lab_cap_games(st));
        pips_str_cat(out, " | ");
        cat_mean(out, st->lead_mean, st->lead_games, "%.2f");
        pips_str_cat(out, " | ");
        cat_rate(out, st->comeback_x, st->comeback_n);
        pips_str_cat(out, " | ");
        cat_mean(out, st->drama_mean, st->drama_games, "%.3f");
        pips_str_cat(out, " | ");
        cat_mean(out, st->unc_mean, st->drama_games, "%.3f");
        pips_str_catf(out, " | %lu", st->distinct_games);
        if (pt->has_mcts && st->decisive_known)
            pips_str_catf(out, " | %.3f", st->decisive_mean);
        else
            pips_str_cat(out, " | n/a");
        pips_str_catf(out, " | %.2f |\n", st->branch_overall);
    }
    pips_str_cat(out, "\n");
    const char *plots[16];
    size_t n_plots = lab_sweep_metrics(pt, plots, 16);
    for (size_t i = 0; i < n_plots && !pt->no_plot_links; i++)
        pips_str_catf(out, "![%s](sweep-%s.svg)\n", plots[i], plots[i]);
    pips_str_cat(out, "\n");
}

static void markdown_comparisons(const pips_playtest *pt, pips_str *out)
{
    compared_list l;
    comparisons(pt, &l);
    size_t tests = 0;
    for (size_t i = 0; i < l.n; i++)
        tests += l.c[i].has_p;
    pips_str_catf(out,
                  "## Against variant A\n\nEach variant's figures against the first variant's "
                  "(the same game seeds, treated as independent samples: conservative). "
                  "Difference = variant - A with its 95%% interval (Newcombe for rates, "
                  "normal for means); p: two-sided z-test (pooled for rates, Welch for means); "
                  "p (Holm): Holm-Bonferroni adjusted over all %zu tests of this report, so "
                  "p (Holm) < 0.05 holds the chance of any false finding below 5%%.\n\n"
                  "| variant | figure | A | variant | difference | 95%% interval | p | p (Holm) |\n"
                  "|---|---|---|---|---|---|---|---|\n",
                  tests);
    for (size_t i = 0; i < l.n; i++) {
        const compared *c = &l.c[i];
        pips_str_catf(out, "| %s | %s | %.3f | %.3f | %+.3f | ", pt->variants[c->variant].name,
                      c->name, c->base, c->vs, c->diff);
        if (c->has_interval)
            pips_str_catf(out, "[%+.3f, %+.3f] | ", c->lo, c->hi);
        else
            pips_str_cat(out, "- | ");
        if (c->has_p)
            pips_str_catf(out, "%.3g | %.3g%s |\n", c->p, c->p_adj, c->p_adj < 0.05 ? " *" : "");
        else
            pips_str_cat(out, "- | - |\n");
    }
    pips_str_cat(out, "\n");
    pips_free(NULL, l.c);
}

/* The seats agent k held, as report.json's variants[].agents[].seats gives
 * them: "3 seats", or per variant when a players sweep changes the count
 * ("2 seats in A, B; 3 in C, D"), or its range when there are many variants. */
static void markdown_agent_seats(const pips_playtest *pt, size_t k, pips_str *out)
{
    int lo = lab_agent_seats(pt, k, pt->variants[0].np), hi = lo;
    for (size_t v = 1; v < pt->n_variants; v++) {
        int held = lab_agent_seats(pt, k, pt->variants[v].np);
        lo = held < lo ? held : lo;
        hi = held > hi ? held : hi;
    }
    if (lo == hi) {
        pips_str_catf(out, "%d seat%s", lo, lo == 1 ? "" : "s");
        return;
    }
    if (pt->n_variants > 8) {
        pips_str_catf(out, "%d to %d seats, by variant", lo, hi);
        return;
    }
    for (int held = lo; held <= hi; held++) {
        bool first = true;
        for (size_t v = 0; v < pt->n_variants; v++) {
            if (lab_agent_seats(pt, k, pt->variants[v].np) != held)
                continue;
            if (first)
                pips_str_catf(out, "%s%d%s in ", held == lo ? "" : "; ", held,
                              held == lo ? " seats" : "");
            pips_str_catf(out, "%s%s", first ? "" : ", ", pt->variants[v].name);
            first = false;
        }
    }
}

void pips_playtest_markdown(const pips_playtest *pt, pips_str *out)
{
    bool sweep = pt->n_variants > 1;
    pips_str_catf(out, "# Playtest: %s\n\n", pt->title);
    if (pt->partial) {
        unsigned long played = 0;
        for (size_t v = 0; v < pt->n_variants; v++)
            played += pt->variants[v].st.games;
        if (pt->failed)
            pips_str_catf(out,
                          "**Partial report: the run stopped after %lu of its %lu games because "
                          "a script failed: %s. Every figure below covers the games "
                          "finished.**\n\n",
                          played, pt->games * (unsigned long)pt->n_variants, pt->failure.msg);
        else
            pips_str_catf(out,
                          "**Partial report: the run was stopped after %lu of its %lu games; "
                          "every figure below covers the games finished. `--resume DIR` "
                          "completes it.**\n\n",
                          played, pt->games * (unsigned long)pt->n_variants);
    }
    size_t period = pips_seating_period(pt->seating, pt->spec_agent, pt->np);
    pips_str_catf(out, "Game `%s`, %lu games%s, seed %llu, seats %s", pt->game, pt->games,
                  sweep ? " per variant" : "", (unsigned long long)pt->seed,
                  pt->n_agents == 1 ? "all taken by one agent"
                  : pt->seating == PIPS_SEATING_FIXED
                      ? "fixed"
                  : pt->seating == PIPS_SEATING_ALL
                      ? "over every seating (--seatings all)"
                      : "rotated (each agent plays each seat in turn)");
    if (pt->n_agents > 1 && period > 1)
        pips_str_catf(out, " in a cycle of %zu game%s%s", period, period == 1 ? "" : "s",
                      pt->games % period ? " (the games are not a whole number of cycles, so "
                                           "the seatings are not played equally often)"
                                         : "");
    pips_str_cat(out, ".\n\nAgents (identical specs are one agent; its figures count every "
                      "seat it held):\n\n");
    for (size_t k = 0; k < pt->n_agents; k++) {
        pips_str_catf(out, "%zu. `%s` (", k + 1, pt->agent_labels[k]);
        markdown_agent_seats(pt, k, out);
        pips_str_cat(out, ")\n");
    }
    if (sweep) {
        pips_str_catf(out, "\nVariants (%zu, %s):\n\n", pt->n_variants,
                      pt->from_vs ? "the base rule set and --vs-opt"
                                  : "every combination of the --vary values");
        for (size_t v = 0; v < pt->n_variants; v++) {
            char label[512];
            lab_variant_label(pt, &pt->variants[v], label, sizeof label);
            pips_str_catf(out, "- %s: `%s`\n", pt->variants[v].name, label);
        }
    }
    pips_str_cat(out, "\nIntervals are 95% Wilson score intervals; a draw is a game without a "
                      "single best seat; n/a marks a figure with no games behind it.\n\n");
    if (!pt->no_plot_links)
        pips_str_cat(out, "![seat win rates](seats.svg)\n\n![game lengths](lengths.svg)\n\n");
    char *warn[LAB_MAX_WARNINGS];
    size_t n_warn = collect_warnings(pt, warn, LAB_MAX_WARNINGS);
    if (n_warn) {
        pips_str_cat(out, "## Warnings\n\n");
        for (size_t i = 0; i < n_warn; i++)
            pips_str_catf(out, "- **%s**\n", warn[i]);
        pips_str_cat(out, "\n");
    }
    free_warnings(warn, n_warn);
    markdown_exact(pt, out);
    if (sweep) {
        markdown_sweep(pt, out);
        markdown_comparisons(pt, out);
    }
    for (size_t v = 0; v < pt->n_variants; v++) {
        const lab_variant *var = &pt->variants[v];
        if (sweep) {
            char label[512];
            lab_variant_label(pt, var, label, sizeof label);
            pips_str_catf(out, "## Variant %s: %s\n\n", var->name, label);
        } else {
            pips_str_cat(out, "## Results\n\n");
        }
        markdown_variant(pt, var, out);
    }
}

void pips_playtest_set_plot_links(pips_playtest *pt, bool on) { pt->no_plot_links = !on; }

void pips_playtest_markdown_run(const pips_playtest *pt, pips_str *out)
{
    pips_str_catf(out, "## Run\n\n- command: `%s`\n- version: %s\n- date: %s\n- machine: %s\n",
                  pt->command[0] ? pt->command : "(library call)", pt->version, pt->date,
                  pt->machine);
    if (pt->ranks > 1)
        pips_str_catf(out, "- MPI ranks: %d\n", pt->ranks);
    pips_str_cat(out, "\n");
}

void pips_playtest_markdown_timing(const pips_playtest *pt, pips_str *out)
{
    pips_str_catf(out,
                  "## Timing\n\n%d thread%s, %.2f s in all, %.1f games/s.\n\n| agent | moves | "
                  "mean s/move | max s/move |\n|---|---|---|---|\n",
                  pt->threads, pt->threads == 1 ? "" : "s", pt->seconds,
                  pips_playtest_games_per_second(pt));
    for (size_t k = 0; k < pt->n_agents; k++) {
        double moves, mean, max;
        agent_timing(pt, k, &moves, &mean, &max);
        pips_str_catf(out, "| %zu `%s` | %.0f | %.5f | %.5f |\n", k + 1, pt->agent_labels[k], moves,
                      mean, max);
    }
    for (size_t v = 0; v < pt->n_variants; v++) {
        const lab_exact *e = &pt->variants[v].exact;
        if (e->state == LAB_EXACT_SOLVED)
            pips_str_catf(out, "\nExact solve of variant %s: %.3f s.\n", pt->variants[v].name,
                          e->seconds);
        else if (e->state == LAB_EXACT_UNKNOWN && e->detail[0])
            pips_str_catf(out, "\nExact solve of variant %s: %s.\n", pt->variants[v].name,
                          e->detail);
    }
    pips_str_cat(out, "\n");
}

/* ---- CSV ----------------------------------------------------------------------- */

static void csv_field(pips_str *out, const char *text)
{
    if (!strpbrk(text, ",\"\n")) {
        pips_str_cat(out, text);
        return;
    }
    pips_str_cat(out, "\"");
    for (const char *p = text; *p; p++)
        pips_str_cat(out, *p == '"' ? "\"\"" : (char[2]){*p, 0});
    pips_str_cat(out, "\"");
}

static void csv_interval(pips_str *out, lab_interval r)
{
    if (r.known)
        pips_str_catf(out, ",%.6f,%.6f,%.6f", r.value, r.lo, r.hi);
    else
        pips_str_cat(out, ",,,");
}

void pips_playtest_csv(const pips_playtest *pt, pips_str *out)
{
    int np_max = lab_max_seats(pt);
    pips_str_cat(out, "variant");
    for (size_t k = 0; k < pt->n_vary; k++) {
        pips_str_cat(out, ",");
        csv_field(out, pt->vary_keys[k]);
    }
    pips_str_cat(out, ",seats,games,mean_turns,mean_turns_lo,mean_turns_hi,mean_rounds,"
                      "mean_rounds_lo,mean_rounds_hi,median_turns");
    /* "seats": a varied "players" keeps its own column */
    for (int s = 0; s < np_max; s++)
        pips_str_catf(out, ",seat%d_score,seat%d_lo,seat%d_hi", s + 1, s + 1, s + 1);
    pips_str_cat(out, ",first_seat_advantage,first_seat_advantage_lo,first_seat_advantage_hi,"
                      "draw_rate,draw_rate_lo,draw_rate_hi,mean_plies,median_plies,cap_rate,"
                      "cap_rate_lo,cap_rate_hi,decisiveness,branching,exact_first_mover,"
                      "lead_changes,lead_changes_lo,lead_changes_hi,comeback_rate,"
                      "comeback_rate_lo,comeback_rate_hi,drama,drama_lo,drama_hi,uncertainty,"
                      "uncertainty_lo,uncertainty_hi,distinct_games\n");
    for (size_t v = 0; v < pt->n_variants; v++) {
        const lab_variant *var = &pt->variants[v];
        const ruleset_stats *st = &var->st;
        pips_str_cat(out, var->name);
        for (size_t k = 0; k < pt->n_vary; k++) {
            pips_str_cat(out, ",");
            csv_field(out, var->values[k]);
        }
        pips_str_catf(out, ",%d,%lu", st->np, st->games);
        csv_interval(out, lab_mean_interval(st->turns.mean, st->turns.sd, (double)st->games));
        csv_interval(out, lab_mean_interval(st->rounds.mean, st->rounds.sd, (double)st->games));
        pips_str_catf(out, ",%.1f", st->turns.median);
        for (int s = 0; s < np_max; s++)
            csv_interval(out, s < st->np ? lab_rate_interval(st->seat[s].score, st->seat[s].n)
                                         : (lab_interval){0, 0, 0, false});
        csv_interval(out, lab_first_seat_advantage(st));
        csv_interval(out, lab_rate_interval(st->draws, (double)st->games));
        pips_str_catf(out, ",%.4f,%.1f", st->len_mean, st->len_median);
        csv_interval(out, lab_rate_interval(st->capped, lab_cap_games(st)));
        if (pt->has_mcts && st->decisive_known)
            pips_str_catf(out, ",%.6f", st->decisive_mean);
        else
            pips_str_cat(out, ",");
        pips_str_catf(out, ",%.4f,%s", st->branch_overall,
                      var->exact.state == LAB_EXACT_SOLVED ? lab_value_word(var->exact.value) : "");
        csv_interval(out, lab_mean_interval(st->lead_mean, st->lead_sd, (double)st->lead_games));
        csv_interval(out, lab_rate_interval(st->comeback_x, st->comeback_n));
        csv_interval(out,
                     lab_mean_interval(st->drama_mean, st->drama_sd, (double)st->drama_games));
        csv_interval(out, lab_mean_interval(st->unc_mean, st->unc_sd, (double)st->drama_games));
        pips_str_catf(out, ",%lu\n", st->distinct_games);
    }
}

/* ---- files --------------------------------------------------------------------- */

static bool write_file(const char *dir, const char *name, const pips_str *text, pips_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (text->failed)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory writing %s", path);
    FILE *f = fopen(path, "w");
    if (!f)
        return pips_fail(err, PIPS_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    size_t len = strlen(pips_str_cstr(text));
    bool ok = fwrite(pips_str_cstr(text), 1, len, f) == len;
    ok &= fclose(f) == 0;
    if (!ok)
        return pips_fail(err, PIPS_ERR_IO, "cannot write %s", path);
    return true;
}

bool lab_write_file(const char *dir, const char *name, const pips_str *text, pips_error *err)
{
    return write_file(dir, name, text, err);
}

bool lab_make_dir(const char *dir, pips_error *err)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return pips_fail(err, PIPS_ERR_IO, "cannot create folder %s: %s", dir, strerror(errno));
    return true;
}

/* A record file name of ours: capital letters, '-', six or more digits, ".json". */
static bool is_record_name(const char *name)
{
    const char *p = name;
    while (*p >= 'A' && *p <= 'Z')
        p++;
    if (p == name || *p++ != '-')
        return false;
    const char *digits = p;
    while (*p >= '0' && *p <= '9')
        p++;
    return p - digits >= 6 && !strcmp(p, ".json");
}

/* Removes the record files an earlier run left in sub. */
static bool clear_records(const char *sub, unsigned long *removed, pips_error *err)
{
    DIR *d = opendir(sub);
    if (!d)
        return errno == ENOENT ? true
                               : pips_fail(err, PIPS_ERR_IO, "cannot read folder %s: %s", sub,
                                           strerror(errno));
    bool ok = true;
    struct dirent *e;
    while (ok && (e = readdir(d)) != NULL) {
        if (!is_record_name(e->d_name))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%.3800s/%.255s", sub, e->d_name);
        if (remove(path) != 0)
            ok = pips_fail(err, PIPS_ERR_IO, "cannot remove the old record %s: %s", path,
                           strerror(errno));
        else
            ++*removed;
    }
    closedir(d);
    return ok;
}

bool pips_playtest_write(const pips_playtest *pt, const char *dir, unsigned long *removed,
                         pips_error *err)
{
    unsigned long gone = 0;
    if (removed)
        *removed = 0;
    if (!lab_make_dir(dir, err))
        return false;
    char sub[4096];
    snprintf(sub, sizeof sub, "%s/records", dir);
    /* records of an earlier run would pass for this run's */
    bool ok = clear_records(sub, &gone, err);
    if (removed)
        *removed = gone;
    pips_str s;
    pips_str_init(&s, NULL);
    if (ok) {
        pips_playtest_markdown(pt, &s);
        pips_playtest_markdown_run(pt, &s);
        pips_playtest_markdown_timing(pt, &s);
        ok = write_file(dir, "report.md", &s, err);
    }
    pips_str_clear(&s);
    if (ok && !pips_playtest_json(pt, true, &s))
        ok = pips_fail(err, PIPS_ERR_NOMEM, "out of memory writing JSON");
    ok = ok && write_file(dir, "report.json", &s, err);
    pips_str_clear(&s);
    pips_playtest_csv(pt, &s);
    ok = ok && write_file(dir, "sweep.csv", &s, err);
    pips_str_clear(&s);
    pips_playtest_svg_seats(pt, &s);
    ok = ok && write_file(dir, "seats.svg", &s, err);
    pips_str_clear(&s);
    pips_playtest_svg_lengths(pt, &s);
    ok = ok && write_file(dir, "lengths.svg", &s, err);
    const char *metrics[16];
    size_t n_metrics = pt->n_variants > 1 ? lab_sweep_metrics(pt, metrics, 16) : 0;
    for (size_t i = 0; ok && i < n_metrics; i++) {
        char name[64];
        snprintf(name, sizeof name, "sweep-%s.svg", metrics[i]);
        pips_str_clear(&s);
        lab_svg_sweep_metric(pt, metrics[i], &s);
        ok = write_file(dir, name, &s, err);
    }
    pips_str_free(&s);
    bool records = pt->n_variants && pt->variants[0].records;
    if (ok && records) {
        if (!lab_make_dir(sub, err))
            return false;
        for (size_t v = 0; v < pt->n_variants && ok; v++)
            for (unsigned long i = 0; i < pt->games && ok; i++) {
                const lab_variant *var = &pt->variants[v];
                char name[64];
                pips_str t;
                snprintf(name, sizeof name, "%s-%06lu.json", var->name, i + 1);
                if (!var->records[i])
                    continue; /* not played: a stopped run */
                pips_str_init(&t, NULL);
                pips_str_cat(&t, var->records[i]);
                ok = write_file(sub, name, &t, err);
                pips_str_free(&t);
            }
    }
    return ok;
}
