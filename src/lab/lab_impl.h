/*
 * lab_impl.h — the private shape of a playtest: the raw result of every game
 * and the figures aggregated from them per rule set, shared by the runner
 * (playtest.c) and the writers (report.c, svg.c).
 *
 * Invariant: every aggregate is computed from the game results in game
 * order, so it does not depend on which thread played which game.
 */
#ifndef PIPS_LAB_IMPL_H
#define PIPS_LAB_IMPL_H

#include "pips/lab.h"

#define LAB_MAX_N PIPS_LAB_MAX_SEATS
#define LAB_HIST_BINS 20
#define LAB_MAX_PLIES 100000

typedef struct game_result {
    int seat_agent[LAB_MAX_N]; /* which agent sat in each seat */
    double returns[LAB_MAX_N]; /* per seat */
    int winner;                /* seat with the unique best return, or -1 */
    bool unfinished;           /* stopped at LAB_MAX_PLIES */
    uint32_t length;           /* decision moves */
    uint32_t chance_plies;
    uint32_t *branching;       /* moves available at each decision (length entries) */
    double time_sum[LAB_MAX_N]; /* seconds spent choosing, per seat */
    double time_max[LAB_MAX_N];
    uint32_t moves[LAB_MAX_N];  /* decisions per seat */
    double decisive;           /* fraction of the game before the winner's value
                                  stays above the threshold; < 0 when unknown */
    char *record;              /* JSON game record (pips/match.h) when kept */
} game_result;

typedef struct wdl {
    double n, w, d, l, score; /* score: summed returns */
} wdl;

typedef struct ruleset_stats {
    char options[1024]; /* "key=value ..." of the rule set */
    unsigned long games;
    int np, n_agents;
    wdl agent[LAB_MAX_N];
    wdl seat[LAB_MAX_N];
    wdl agent_seat[LAB_MAX_N][LAB_MAX_N];
    double draws, unfinished, decisive_games;
    double chi2, chi2_p; /* seat wins (decisive games) against an even split */
    double seat_spread;  /* best seat score rate minus worst */
    /* length */
    double len_mean, len_sd, len_median, len_p10, len_p25, len_p75, len_p90, len_min, len_max;
    unsigned long hist[LAB_HIST_BINS];
    double hist_lo, hist_width;
    /* branching by ply: mean moves at decision ply k over games reaching it */
    size_t branch_plies;
    double *branch_mean;
    unsigned long *branch_count;
    double branch_overall;
    /* decisiveness */
    unsigned long decisive_known;
    double decisive_mean, decisive_median;
    /* timing (per agent) */
    double time_mean[LAB_MAX_N], time_max[LAB_MAX_N];
    unsigned long time_moves[LAB_MAX_N];
} ruleset_stats;

struct pips_playtest {
    char game[64];
    char title[128];
    int np;
    size_t n_agents;
    char agents[LAB_MAX_N][128]; /* normalised specs */
    unsigned long games;
    uint64_t seed;
    int threads;
    bool fixed_seats;
    double threshold;
    bool has_mcts;
    bool has_vs;
    ruleset_stats base, vs;
    char **records[2]; /* per rule set, one JSON record per game, or NULL */
    double seconds; /* wall clock of the whole run */
};

/* MPI (dist.c): this process's rank and the rank count (0 and 1 without
 * MPI), and the exchange that gives every rank every game's result. */
void lab_dist_get(int *rank, int *size);
bool lab_dist_exchange(game_result *res, unsigned long games, int np, bool records,
                       bool local_ok, pips_error *err);

/* Writes text to dir/name (report.c); false with *err naming the path. */
bool lab_write_file(const char *dir, const char *name, const pips_str *text, pips_error *err);

/* Statistic helpers shared by the writers. */
double lab_rate(double x, double n);

/* SVG writing (svg.c). */
typedef struct svg_series {
    const char *label;
    const double *value, *lo, *hi; /* one per group; lo/hi may be NULL */
} svg_series;
void lab_svg_bars(pips_str *out, const char *title, const char *y_label,
                  const char *const *groups, size_t n_groups, const svg_series *series,
                  size_t n_series, double y_max);

#endif
