/*
 * plots.c — the SVG plots of a playtest: win rates by seat (per agent, or
 * per variant in a sweep), the game-length histogram (turns) on bins common to the
 * variants, and one plot per metric of a sweep across its variants, with
 * 95% intervals as error bars. Drawing is svg.c's; a figure with no games
 * behind it is left out (NaN), never drawn as 0.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lab/lab_impl.h"

void pips_playtest_svg_seats(const pips_playtest *pt, pips_str *out)
{
    /* one group per seat; bars: each agent's win rate in that seat, or with
     * several variants the seat's win rate under each (at most 8 bars) */
    bool sweep = pt->n_variants > 1;
    int np = lab_max_seats(pt);
    size_t n_series = sweep ? pt->n_variants : pt->n_agents;
    if (n_series > LAB_MAX_N)
        n_series = LAB_MAX_N;
    char labels[LAB_MAX_N][16], names[LAB_MAX_N][64];
    const char *groups[LAB_MAX_N];
    double v[LAB_MAX_N][LAB_MAX_N], lo[LAB_MAX_N][LAB_MAX_N], hi[LAB_MAX_N][LAB_MAX_N];
    svg_series series[LAB_MAX_N];
    for (size_t k = 0; k < n_series; k++) {
        if (sweep)
            snprintf(names[k], sizeof names[k], "variant %s", pt->variants[k].name);
        else
            snprintf(names[k], sizeof names[k], "%zu %.40s", k + 1, pt->agents[k]);
        const ruleset_stats *st = &pt->variants[sweep ? k : 0].st;
        for (int s = 0; s < np; s++) {
            const wdl *x = sweep ? &st->seat[s] : &st->agent_seat[k][s];
            lab_interval r = lab_rate_interval(x->w, x->n);
            bool known = r.known && s < st->np;
            v[k][s] = known ? r.value : NAN;
            lo[k][s] = known ? r.lo : NAN;
            hi[k][s] = known ? r.hi : NAN;
        }
        series[k] = (svg_series){names[k], v[k], lo[k], hi[k]};
    }
    for (int s = 0; s < np; s++) {
        snprintf(labels[s], sizeof labels[s], "seat %d", s + 1);
        groups[s] = labels[s];
    }
    lab_svg_bars(out,
                 sweep ? "Win rate by seat and variant (95% Wilson intervals)"
                       : "Win rate by agent and seat (95% Wilson intervals)",
                 "win rate", groups, (size_t)np, series, n_series, 0, 1.0);
}

void pips_playtest_svg_lengths(const pips_playtest *pt, pips_str *out)
{
    /* common bins over every variant (at most 8 drawn) */
    size_t n_sets = pt->n_variants < LAB_MAX_N ? pt->n_variants : LAB_MAX_N;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t r = 0; r < n_sets; r++) {
        lo = fmin(lo, pt->variants[r].st.turns.min);
        hi = fmax(hi, pt->variants[r].st.turns.max);
    }
    double width = ceil((hi - lo + 1) / LAB_HIST_BINS);
    if (width < 1)
        width = 1;
    int bins = (int)ceil((hi - lo + 1) / width);
    if (bins > LAB_HIST_BINS)
        bins = LAB_HIST_BINS;
    double counts[LAB_MAX_N][LAB_HIST_BINS] = {{0}};
    for (size_t r = 0; r < n_sets; r++) {
        const lab_summary *t = &pt->variants[r].st.turns;
        for (int k = 0; k < LAB_HIST_BINS; k++) {
            if (!t->hist[k])
                continue;
            /* re-bin by the bin's first length */
            double first = t->hist_lo + k * t->hist_width;
            int nb = (int)((first - lo) / width);
            if (nb >= bins)
                nb = bins - 1;
            counts[r][nb] += (double)t->hist[k];
        }
    }
    char labels[LAB_HIST_BINS][24], names[LAB_MAX_N][32];
    const char *groups[LAB_HIST_BINS];
    for (int k = 0; k < bins; k++) {
        double first = lo + k * width;
        if (width > 1)
            snprintf(labels[k], sizeof labels[k], "%.0f-%.0f", first, first + width - 1);
        else
            snprintf(labels[k], sizeof labels[k], "%.0f", first);
        groups[k] = labels[k];
    }
    svg_series series[LAB_MAX_N];
    for (size_t r = 0; r < n_sets; r++) {
        snprintf(names[r], sizeof names[r], n_sets > 1 ? "variant %s" : "games",
                 pt->variants[r].name);
        series[r] = (svg_series){names[r], counts[r], NULL, NULL};
    }
    lab_svg_bars(out, "Game length (turns)", "games", groups, (size_t)bins, series, n_sets, 0, 1);
}

/* The metrics of a sweep, one plot each (sweep-NAME.svg). */
enum {
    M_SEAT_SCORES, M_FIRST_SEAT, M_DRAW, M_MEAN_TURNS, M_MEAN_ROUNDS, M_MEDIAN_TURNS,
    M_MEAN_PLIES, M_MEDIAN_PLIES, M_CAP, M_LEAD, M_COMEBACK, M_DRAMA, M_UNCERTAINTY,
    M_DECISIVE, M_BRANCHING, M_COUNT
};

static const struct sweep_metric {
    const char *name, *title, *y_label;
    double y_max; /* the axis reaches at least this (1 for rates) */
} metrics[M_COUNT] = {
    {"seat-scores", "Score by seat (95% Wilson intervals)", "score", 1},
    {"first-seat-advantage", "First seat's score less an even share (95% intervals)",
     "advantage", 0},
    {"draw-rate", "Draw rate (95% Wilson intervals)", "draw rate", 1},
    {"mean-turns", "Mean game length in turns (95% intervals)", "turns", 0},
    {"mean-rounds", "Mean game length in rounds (95% intervals)", "rounds", 0},
    {"median-turns", "Median game length in turns", "turns", 0},
    {"mean-plies", "Mean game length in moves (95% intervals)", "moves", 0},
    {"median-plies", "Median game length in moves", "moves", 0},
    {"cap-rate", "Games ended by a turn or move cap (95% Wilson intervals)", "cap rate", 1},
    {"lead-changes", "Lead changes per game (95% intervals)", "lead changes", 0},
    {"comeback-rate", "Decisive games won from behind at half time (95% Wilson intervals)",
     "comeback rate", 1},
    {"drama", "Drama: the winner's mean deficit while behind (95% intervals)", "deficit", 0},
    {"uncertainty", "Uncertainty: turns before the winner leads for good (95% intervals)",
     "fraction", 1},
    {"decisiveness", "Decisive point, fraction of the game (95% intervals)", "fraction", 1},
    {"branching", "Mean moves available per decision", "moves", 0},
};

size_t lab_sweep_metrics(const pips_playtest *pt, const char **names, size_t cap)
{
    size_t n = 0;
    for (int m = 0; m < M_COUNT && n < cap; m++)
        if (m != M_DECISIVE || pt->has_mcts)
            names[n++] = metrics[m].name;
    return n;
}

/* Metric m of one variant (seat s for the seat scores). */
static lab_interval metric_of(int m, const ruleset_stats *st, int s)
{
    lab_interval none = {0, 0, 0, false}, plain = {NAN, NAN, NAN, true};
    switch (m) {
    case M_SEAT_SCORES:
        return s < st->np ? lab_rate_interval(st->seat[s].score, st->seat[s].n) : none;
    case M_FIRST_SEAT: return lab_first_seat_advantage(st);
    case M_DRAW: return lab_rate_interval(st->draws, (double)st->games);
    case M_MEAN_TURNS:
        return lab_mean_interval(st->turns.mean, st->turns.sd, (double)st->games);
    case M_MEAN_ROUNDS:
        return lab_mean_interval(st->rounds.mean, st->rounds.sd, (double)st->games);
    case M_MEDIAN_TURNS: plain.value = st->turns.median; return plain;
    case M_LEAD: return lab_mean_interval(st->lead_mean, st->lead_sd, (double)st->lead_games);
    case M_COMEBACK: return lab_rate_interval(st->comeback_x, st->comeback_n);
    case M_DRAMA:
        return lab_mean_interval(st->drama_mean, st->drama_sd, (double)st->drama_games);
    case M_UNCERTAINTY:
        return lab_mean_interval(st->unc_mean, st->unc_sd, (double)st->drama_games);
    case M_MEAN_PLIES: return lab_mean_interval(st->len_mean, st->len_sd, (double)st->games);
    case M_MEDIAN_PLIES: plain.value = st->len_median; return plain;
    case M_CAP: return lab_rate_interval(st->capped, lab_cap_games(st));
    case M_DECISIVE:
        return lab_mean_interval(st->decisive_mean, st->decisive_sd, (double)st->decisive_known);
    default: plain.value = st->branch_overall; return plain;
    }
}

/* One metric across the variants: a bar per variant (per seat for the seat
 * scores) with its interval where it has one. */
void lab_svg_sweep_metric(const pips_playtest *pt, const char *metric, pips_str *out)
{
    int m = 0;
    while (m < M_COUNT && strcmp(metrics[m].name, metric))
        m++;
    if (m == M_COUNT)
        m = M_BRANCHING;
    size_t n = pt->n_variants;
    char(*labels)[64] = pips_calloc(NULL, n, sizeof *labels);
    const char **groups = pips_calloc(NULL, n, sizeof *groups);
    double *v = pips_calloc(NULL, n * 3 * LAB_MAX_N, sizeof *v);
    if (!labels || !groups || !v) {
        pips_free(NULL, labels);
        pips_free(NULL, groups);
        pips_free(NULL, v);
        out->failed = true;
        return;
    }
    double *lo = v + n * LAB_MAX_N, *hi = lo + n * LAB_MAX_N;
    for (size_t i = 0; i < n; i++) {
        char label[512];
        lab_variant_label(pt, &pt->variants[i], label, sizeof label);
        snprintf(labels[i], sizeof labels[i], "%.63s", label);
        groups[i] = labels[i];
    }
    bool seats = m == M_SEAT_SCORES;
    size_t n_series = seats ? (size_t)lab_max_seats(pt) : 1;
    char names[LAB_MAX_N][32];
    svg_series series[LAB_MAX_N];
    for (size_t s = 0; s < n_series; s++) {
        for (size_t i = 0; i < n; i++) {
            lab_interval r = metric_of(m, &pt->variants[i].st, (int)s);
            size_t at = s * n + i;
            v[at] = r.known ? r.value : NAN;
            lo[at] = r.known ? r.lo : NAN;
            hi[at] = r.known ? r.hi : NAN;
        }
        if (seats)
            snprintf(names[s], sizeof names[s], "seat %zu", s + 1);
        else
            snprintf(names[s], sizeof names[s], "by variant");
        series[s] = (svg_series){names[s], v + s * n, lo + s * n, hi + s * n};
    }
    lab_svg_bars(out, metrics[m].title, metrics[m].y_label, groups, n, series, n_series, 0,
                 metrics[m].y_max);
    pips_free(NULL, labels);
    pips_free(NULL, groups);
    pips_free(NULL, v);
}
