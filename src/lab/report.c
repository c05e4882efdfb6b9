/*
 * report.c — the writers of a playtest: the JSON document (jansson) with
 * every figure, the Markdown report, the two SVG plots and the files in an
 * output folder. Rates come with 95% Wilson intervals; rule-set comparisons
 * with Newcombe intervals (proportions) or normal intervals (means).
 *
 * Invariant: nothing here depends on the thread count or the clock except
 * the "timing" parts, which are kept separate (JSON "timing", Markdown
 * section "Timing") so the rest can be compared byte for byte.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "lab/lab_impl.h"

#define Z95 1.959963984540054

static json_t *interval_json(double x, double n)
{
    double p = lab_rate(x, n), lo, hi;
    pips_wilson(p, n, Z95, &lo, &hi);
    return json_pack("{s:f,s:f,s:f}", "value", p, "lo", lo, "hi", hi);
}

static json_t *wdl_json(const wdl *x)
{
    return json_pack("{s:f,s:f,s:f,s:f,s:o,s:o,s:o}", "games", x->n, "wins", x->w, "draws",
                     x->d, "losses", x->l, "win_rate", interval_json(x->w, x->n), "score",
                     interval_json(x->score, x->n), "draw_rate", interval_json(x->d, x->n));
}

static json_t *ruleset_json(const pips_playtest *pt, const ruleset_stats *st)
{
    json_t *agents = json_array(), *seats = json_array();
    for (size_t k = 0; k < pt->n_agents; k++) {
        json_t *a = wdl_json(&st->agent[k]);
        json_object_set_new(a, "spec", json_string(pt->agents[k]));
        json_t *by_seat = json_array();
        for (int s = 0; s < pt->np; s++)
            json_array_append_new(by_seat, wdl_json(&st->agent_seat[k][s]));
        json_object_set_new(a, "by_seat", by_seat);
        json_array_append_new(agents, a);
    }
    for (int s = 0; s < pt->np; s++) {
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
    double p0 = lab_rate(st->seat[0].score, st->seat[0].n), lo, hi;
    pips_wilson(p0, st->seat[0].n, Z95, &lo, &hi);
    json_t *first = json_pack("{s:f,s:f,s:f,s:f}", "score", p0, "lo", lo, "hi", hi,
                              "advantage", p0 - 1.0 / pt->np);
    json_t *r = json_object();
    json_object_set_new(r, "options", json_string(st->options));
    json_object_set_new(r, "games", json_integer((json_int_t)st->games));
    json_object_set_new(r, "draws", json_real(st->draws));
    json_object_set_new(r, "draw_rate", interval_json(st->draws, (double)st->games));
    json_object_set_new(r, "unfinished", json_real(st->unfinished));
    json_object_set_new(r, "agents", agents);
    json_object_set_new(r, "seats", seats);
    json_object_set_new(r, "first_player", first);
    json_object_set_new(r, "balance",
                        json_pack("{s:f,s:i,s:f,s:f,s:f}", "chi2", st->chi2, "df", pt->np - 1,
                                  "p", st->chi2_p, "decisive_games", st->decisive_games,
                                  "seat_score_spread", st->seat_spread));
    json_object_set_new(
        r, "length",
        json_pack("{s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:{s:f,s:f,s:o}}", "mean", st->len_mean,
                  "sd", st->len_sd, "median", st->len_median, "p10", st->len_p10, "p25",
                  st->len_p25, "p75", st->len_p75, "p90", st->len_p90, "min", st->len_min, "max",
                  st->len_max, "histogram", "first", st->hist_lo, "width", st->hist_width,
                  "counts", hist));
    json_object_set_new(r, "branching",
                        json_pack("{s:f,s:o}", "mean", st->branch_overall, "by_ply", branch));
    if (pt->has_mcts)
        json_object_set_new(r, "decisiveness",
                            json_pack("{s:f,s:I,s:f,s:f}", "threshold", pt->threshold, "games",
                                      (json_int_t)st->decisive_known, "mean_fraction",
                                      st->decisive_mean, "median_fraction",
                                      st->decisive_median));
    return r;
}

/* One compared figure: base, vs, difference and its 95% interval. */
typedef struct compared {
    char name[256];
    double base, vs, diff, lo, hi;
    bool has_interval;
} compared;

static size_t comparisons(const pips_playtest *pt, compared *out, size_t cap)
{
    const ruleset_stats *a = &pt->base, *b = &pt->vs;
    size_t n = 0;
#define ADD_PROP(label, xa, na, xb, nb)                                                         \
    do {                                                                                       \
        if (n < cap) {                                                                         \
            compared *c = &out[n++];                                                           \
            snprintf(c->name, sizeof c->name, "%s", label);                                    \
            c->base = lab_rate(xa, na);                                                        \
            c->vs = lab_rate(xb, nb);                                                          \
            c->diff = c->vs - c->base;                                                         \
            pips_diff_interval(c->vs, nb, c->base, na, Z95, &c->lo, &c->hi);                   \
            c->has_interval = true;                                                            \
        }                                                                                      \
    } while (0)
    char label[200];
    ADD_PROP("draw rate", a->draws, (double)a->games, b->draws, (double)b->games);
    for (size_t k = 0; k < pt->n_agents; k++) {
        snprintf(label, sizeof label, "win rate of agent %zu (%s)", k + 1, pt->agents[k]);
        ADD_PROP(label, a->agent[k].w, a->agent[k].n, b->agent[k].w, b->agent[k].n);
    }
    for (int s = 0; s < pt->np; s++) {
        snprintf(label, sizeof label, "score of seat %d", s + 1);
        ADD_PROP(label, a->seat[s].score, a->seat[s].n, b->seat[s].score, b->seat[s].n);
    }
#undef ADD_PROP
    if (n < cap) {
        compared *c = &out[n++];
        snprintf(c->name, sizeof c->name, "mean game length (moves)");
        c->base = a->len_mean;
        c->vs = b->len_mean;
        c->diff = c->vs - c->base;
        double se = sqrt(a->len_sd * a->len_sd / (double)a->games +
                         b->len_sd * b->len_sd / (double)b->games);
        c->lo = c->diff - Z95 * se;
        c->hi = c->diff + Z95 * se;
        c->has_interval = true;
    }
    if (n < cap) {
        compared *c = &out[n++];
        snprintf(c->name, sizeof c->name, "median game length (moves)");
        c->base = a->len_median;
        c->vs = b->len_median;
        c->diff = c->vs - c->base;
        c->has_interval = false;
    }
    if (n < cap) {
        compared *c = &out[n++];
        snprintf(c->name, sizeof c->name, "mean branching factor");
        c->base = a->branch_overall;
        c->vs = b->branch_overall;
        c->diff = c->vs - c->base;
        c->has_interval = false;
    }
    if (pt->has_mcts && n < cap) {
        compared *c = &out[n++];
        snprintf(c->name, sizeof c->name, "decisive point (mean fraction of the game)");
        c->base = a->decisive_mean;
        c->vs = b->decisive_mean;
        c->diff = c->vs - c->base;
        c->has_interval = false;
    }
    return n;
}

#define MAX_COMPARED (8 + 2 * LAB_MAX_N)

bool pips_playtest_json(const pips_playtest *pt, bool with_timing, pips_str *out)
{
    json_t *root = json_object(), *agents = json_array();
    for (size_t k = 0; k < pt->n_agents; k++)
        json_array_append_new(agents, json_string(pt->agents[k]));
    json_object_set_new(root, "game", json_string(pt->game));
    json_object_set_new(root, "title", json_string(pt->title));
    json_object_set_new(root, "seed", json_integer((json_int_t)pt->seed));
    json_object_set_new(root, "games", json_integer((json_int_t)pt->games));
    json_object_set_new(root, "seats", json_integer(pt->np));
    json_object_set_new(root, "fixed_seats", json_boolean(pt->fixed_seats));
    json_object_set_new(root, "agents", agents);
    json_object_set_new(root, "base", ruleset_json(pt, &pt->base));
    if (pt->has_vs) {
        json_object_set_new(root, "vs", ruleset_json(pt, &pt->vs));
        compared cmp[MAX_COMPARED];
        size_t n = comparisons(pt, cmp, MAX_COMPARED);
        json_t *arr = json_array();
        for (size_t i = 0; i < n; i++) {
            json_t *c = json_pack("{s:s,s:f,s:f,s:f}", "figure", cmp[i].name, "base",
                                  cmp[i].base, "vs", cmp[i].vs, "difference", cmp[i].diff);
            if (cmp[i].has_interval) {
                json_object_set_new(c, "lo", json_real(cmp[i].lo));
                json_object_set_new(c, "hi", json_real(cmp[i].hi));
            }
            json_array_append_new(arr, c);
        }
        json_object_set_new(root, "comparison", arr);
    }
    if (with_timing) {
        json_t *t = json_array();
        for (size_t k = 0; k < pt->n_agents; k++) {
            const ruleset_stats *st = &pt->base;
            json_array_append_new(
                t, json_pack("{s:s,s:I,s:f,s:f}", "spec", pt->agents[k], "moves",
                             (json_int_t)st->time_moves[k], "mean_move_seconds",
                             st->time_mean[k], "max_move_seconds", st->time_max[k]));
        }
        json_object_set_new(root, "timing",
                            json_pack("{s:i,s:f,s:f,s:o}", "threads", pt->threads, "seconds",
                                      pt->seconds, "games_per_second",
                                      pips_playtest_games_per_second(pt), "agents", t));
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

/* "0.523 [0.480, 0.566]" */
static void cat_rate(pips_str *out, double x, double n)
{
    double p = lab_rate(x, n), lo, hi;
    pips_wilson(p, n, Z95, &lo, &hi);
    pips_str_catf(out, "%.3f [%.3f, %.3f]", p, lo, hi);
}

static void markdown_ruleset(const pips_playtest *pt, const ruleset_stats *st, pips_str *out)
{
    pips_str_catf(out, "Options: `%s`. Games: %lu.\n\n", st->options, st->games);
    pips_str_cat(out, "### Results per agent\n\n| agent | games | W | D | L | win rate [95%] | "
                      "score [95%] |\n|---|---|---|---|---|---|---|\n");
    for (size_t k = 0; k < pt->n_agents; k++) {
        const wdl *x = &st->agent[k];
        pips_str_catf(out, "| %zu `%s` | %.0f | %.0f | %.0f | %.0f | ", k + 1, pt->agents[k],
                      x->n, x->w, x->d, x->l);
        cat_rate(out, x->w, x->n);
        pips_str_cat(out, " | ");
        cat_rate(out, x->score, x->n);
        pips_str_cat(out, " |\n");
    }
    pips_str_cat(out, "\n### Results per seat\n\n| seat | games | W | D | L | win rate [95%] | "
                      "score [95%] |\n|---|---|---|---|---|---|---|\n");
    for (int s = 0; s < pt->np; s++) {
        const wdl *x = &st->seat[s];
        pips_str_catf(out, "| %d | %.0f | %.0f | %.0f | %.0f | ", s + 1, x->n, x->w, x->d, x->l);
        cat_rate(out, x->w, x->n);
        pips_str_cat(out, " | ");
        cat_rate(out, x->score, x->n);
        pips_str_cat(out, " |\n");
    }
    pips_str_cat(out, "\n### Agent by seat (win rate [95%])\n\n| agent |");
    for (int s = 0; s < pt->np; s++)
        pips_str_catf(out, " seat %d |", s + 1);
    pips_str_cat(out, "\n|---|");
    for (int s = 0; s < pt->np; s++)
        pips_str_cat(out, "---|");
    pips_str_cat(out, "\n");
    for (size_t k = 0; k < pt->n_agents; k++) {
        pips_str_catf(out, "| %zu |", k + 1);
        for (int s = 0; s < pt->np; s++) {
            pips_str_cat(out, " ");
            cat_rate(out, st->agent_seat[k][s].w, st->agent_seat[k][s].n);
            pips_str_catf(out, " (n=%.0f) |", st->agent_seat[k][s].n);
        }
        pips_str_cat(out, "\n");
    }
    double p0 = lab_rate(st->seat[0].score, st->seat[0].n);
    pips_str_cat(out, "\n### Balance\n\n- Draw rate: ");
    cat_rate(out, st->draws, (double)st->games);
    pips_str_cat(out, "\n- First seat's score: ");
    cat_rate(out, st->seat[0].score, st->seat[0].n);
    pips_str_catf(out, " (advantage over an even share %+.3f)\n", p0 - 1.0 / pt->np);
    pips_str_catf(out,
                  "- Seat balance: chi-square %.2f on %d degrees of freedom over %.0f decisive "
                  "games, p = %.4g; spread of seat scores %.3f\n",
                  st->chi2, pt->np - 1, st->decisive_games, st->chi2_p, st->seat_spread);
    if (st->unfinished > 0)
        pips_str_catf(out, "- Unfinished games (cut at %d plies): %.0f\n", LAB_MAX_PLIES,
                      st->unfinished);
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
                      "known for %lu games, mean %.3f, median %.3f.\n",
                      pt->threshold, st->decisive_known, st->decisive_mean,
                      st->decisive_median);
    }
    pips_str_cat(out, "\n");
}

void pips_playtest_markdown(const pips_playtest *pt, pips_str *out)
{
    pips_str_catf(out, "# Playtest: %s\n\n", pt->title);
    pips_str_catf(out, "Game `%s`, %lu games%s, seed %llu, seats %s.\n\nAgents:\n\n", pt->game,
                  pt->games, pt->has_vs ? " per rule set" : "", (unsigned long long)pt->seed,
                  pt->fixed_seats ? "fixed" : "rotated (each agent plays each seat in turn)");
    for (size_t k = 0; k < pt->n_agents; k++)
        pips_str_catf(out, "%zu. `%s`\n", k + 1, pt->agents[k]);
    pips_str_cat(out, "\nIntervals are 95% Wilson score intervals; a draw is a game without a "
                      "single best seat.\n\n![seat win rates](seats.svg)\n\n"
                      "![game lengths](lengths.svg)\n\n");
    pips_str_catf(out, "## Rule set A%s\n\n", pt->has_vs ? "" : " (the only one)");
    markdown_ruleset(pt, &pt->base, out);
    if (pt->has_vs) {
        pips_str_cat(out, "## Rule set B (--vs-opt)\n\n");
        markdown_ruleset(pt, &pt->vs, out);
        pips_str_cat(out, "## A against B\n\nThe same game seeds under both rule sets; "
                          "difference = B - A with its 95% interval (Newcombe for rates, "
                          "normal for means).\n\n| figure | A | B | B - A | 95% interval |\n"
                          "|---|---|---|---|---|\n");
        compared cmp[MAX_COMPARED];
        size_t n = comparisons(pt, cmp, MAX_COMPARED);
        for (size_t i = 0; i < n; i++) {
            pips_str_catf(out, "| %s | %.3f | %.3f | %+.3f | ", cmp[i].name, cmp[i].base,
                          cmp[i].vs, cmp[i].diff);
            if (cmp[i].has_interval)
                pips_str_catf(out, "[%+.3f, %+.3f] |\n", cmp[i].lo, cmp[i].hi);
            else
                pips_str_cat(out, "- |\n");
        }
        pips_str_cat(out, "\n");
    }
}

static void markdown_timing(const pips_playtest *pt, pips_str *out)
{
    pips_str_catf(out,
                  "## Timing\n\n%d thread%s, %.2f s in all, %.1f games/s.\n\n| agent | moves | "
                  "mean s/move | max s/move |\n|---|---|---|---|\n",
                  pt->threads, pt->threads == 1 ? "" : "s", pt->seconds,
                  pips_playtest_games_per_second(pt));
    for (size_t k = 0; k < pt->n_agents; k++)
        pips_str_catf(out, "| %zu `%s` | %lu | %.5f | %.5f |\n", k + 1, pt->agents[k],
                      pt->base.time_moves[k], pt->base.time_mean[k], pt->base.time_max[k]);
}

void pips_playtest_svg_seats(const pips_playtest *pt, pips_str *out)
{
    /* one group per seat; bars: each agent's win rate in that seat, or with
     * a second rule set the seat's win rate under each rule set */
    char labels[LAB_MAX_N][16], names[LAB_MAX_N][64];
    const char *groups[LAB_MAX_N];
    double v[LAB_MAX_N][LAB_MAX_N], lo[LAB_MAX_N][LAB_MAX_N], hi[LAB_MAX_N][LAB_MAX_N];
    svg_series series[LAB_MAX_N];
    size_t n_series = pt->has_vs ? 2 : pt->n_agents;
    for (size_t k = 0; k < n_series; k++) {
        if (pt->has_vs)
            snprintf(names[k], sizeof names[k], "rule set %c", k ? 'B' : 'A');
        else
            snprintf(names[k], sizeof names[k], "%zu %.40s", k + 1, pt->agents[k]);
        for (int s = 0; s < pt->np; s++) {
            const wdl *x = pt->has_vs ? &(k ? &pt->vs : &pt->base)->seat[s]
                                      : &pt->base.agent_seat[k][s];
            v[k][s] = lab_rate(x->w, x->n);
            pips_wilson(v[k][s], x->n, Z95, &lo[k][s], &hi[k][s]);
        }
        series[k] = (svg_series){names[k], v[k], lo[k], hi[k]};
    }
    for (int s = 0; s < pt->np; s++) {
        snprintf(labels[s], sizeof labels[s], "seat %d", s + 1);
        groups[s] = labels[s];
    }
    lab_svg_bars(out,
                 pt->has_vs ? "Win rate by seat (95% Wilson intervals)"
                            : "Win rate by agent and seat (95% Wilson intervals)",
                 "win rate", groups, (size_t)pt->np, series, n_series, 1.0);
}

void pips_playtest_svg_lengths(const pips_playtest *pt, pips_str *out)
{
    /* common bins over both rule sets */
    const ruleset_stats *a = &pt->base, *b = &pt->vs;
    double lo = a->len_min, hi = a->len_max;
    if (pt->has_vs) {
        lo = fmin(lo, b->len_min);
        hi = fmax(hi, b->len_max);
    }
    double width = ceil((hi - lo + 1) / LAB_HIST_BINS);
    if (width < 1)
        width = 1;
    int bins = (int)ceil((hi - lo + 1) / width);
    if (bins > LAB_HIST_BINS)
        bins = LAB_HIST_BINS;
    double counts[2][LAB_HIST_BINS] = {{0}};
    const ruleset_stats *sets[2] = {a, b};
    double y_max = 0;
    for (int r = 0; r < (pt->has_vs ? 2 : 1); r++)
        for (int k = 0; k < LAB_HIST_BINS; k++) {
            if (!sets[r]->hist[k])
                continue;
            /* re-bin by the bin's first length */
            double first = sets[r]->hist_lo + k * sets[r]->hist_width;
            int nb = (int)((first - lo) / width);
            if (nb >= bins)
                nb = bins - 1;
            counts[r][nb] += (double)sets[r]->hist[k];
        }
    for (int r = 0; r < 2; r++)
        for (int k = 0; k < bins; k++)
            if (counts[r][k] > y_max)
                y_max = counts[r][k];
    char labels[LAB_HIST_BINS][24];
    const char *groups[LAB_HIST_BINS];
    for (int k = 0; k < bins; k++) {
        double first = lo + k * width;
        if (width > 1)
            snprintf(labels[k], sizeof labels[k], "%.0f-%.0f", first, first + width - 1);
        else
            snprintf(labels[k], sizeof labels[k], "%.0f", first);
        groups[k] = labels[k];
    }
    svg_series series[2] = {{pt->has_vs ? "rule set A" : "games", counts[0], NULL, NULL},
                            {"rule set B", counts[1], NULL, NULL}};
    lab_svg_bars(out, "Game length (moves)", "games", groups, (size_t)bins, series,
                 pt->has_vs ? 2 : 1, y_max > 0 ? y_max * 1.1 : 1);
}

static bool write_file(const char *dir, const char *name, const pips_str *text, pips_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
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

bool pips_playtest_write(const pips_playtest *pt, const char *dir, pips_error *err)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return pips_fail(err, PIPS_ERR_IO, "cannot create folder %s: %s", dir, strerror(errno));
    pips_str s;
    pips_str_init(&s, NULL);
    bool ok = true;
    pips_playtest_markdown(pt, &s);
    markdown_timing(pt, &s);
    ok = ok && write_file(dir, "report.md", &s, err);
    pips_str_clear(&s);
    if (ok && !pips_playtest_json(pt, true, &s))
        ok = pips_fail(err, PIPS_ERR_NOMEM, "out of memory writing JSON");
    ok = ok && write_file(dir, "report.json", &s, err);
    pips_str_clear(&s);
    pips_playtest_svg_seats(pt, &s);
    ok = ok && write_file(dir, "seats.svg", &s, err);
    pips_str_clear(&s);
    pips_playtest_svg_lengths(pt, &s);
    ok = ok && write_file(dir, "lengths.svg", &s, err);
    pips_str_free(&s);
    if (ok && pt->records[0]) {
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/records", dir);
        if (mkdir(sub, 0777) != 0 && errno != EEXIST)
            return pips_fail(err, PIPS_ERR_IO, "cannot create folder %s: %s", sub,
                             strerror(errno));
        for (int r = 0; r < 2 && ok; r++)
            for (unsigned long i = 0; pt->records[r] && i < pt->games && ok; i++) {
                char name[64];
                pips_str t;
                snprintf(name, sizeof name, "%c-%06lu.json", r ? 'B' : 'A', i + 1);
                pips_str_init(&t, NULL);
                pips_str_cat(&t, pt->records[r][i]);
                ok = write_file(sub, name, &t, err);
                pips_str_free(&t);
            }
    }
    return ok;
}

void pips_playtest_markdown_timing(const pips_playtest *pt, pips_str *out)
{
    markdown_timing(pt, out);
}
