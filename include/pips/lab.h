/*
 * pips/lab.h — the playtest lab: plays many seeded games between agents,
 * aggregates statistics (results per agent and per seat with Wilson
 * intervals, first-player advantage, seat balance, draw rate, game length,
 * branching factor by ply, time per move, decisiveness) and writes a
 * Markdown report with SVG plots and a JSON file with every figure. With a
 * second rule set (vs) the same seeds are replayed under it and every
 * figure is reported side by side with the difference and its interval.
 *
 * Determinism: game i uses an rng derived from (seed, i) with
 * pips_rng_derive, and results are aggregated in game order, so the report
 * (everything except the timing figures) is the same for any thread count.
 */
#ifndef PIPS_LAB_H
#define PIPS_LAB_H

#include "pips/agent.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PIPS_LAB_MAX_SEATS PIPS_MAX_PLAYERS

typedef struct pips_playtest_opts {
    const char *game;             /* game name (looked up in the table) */
    const pips_game_def *def;     /* or a game definition outside the table (tests) */
    const char *const *opts;      /* "key=value" game options */
    size_t n_opts;
    const char *const *vs_opts;   /* second rule set: overrides of opts; NULL/0 = none */
    size_t n_vs_opts;
    const char *const *seats;     /* one agent spec per seat */
    size_t n_seats;
    unsigned long games;
    uint64_t seed;
    int threads;                  /* worker threads (>= 1) */
    bool fixed_seats;             /* false: seat s of game i gets agent (s + i) % n */
    double decisive_threshold;    /* 0 means 0.8 */
    bool keep_records;            /* keep every game as a JSON record (pips/match.h) */
    /* Called after each finished game (from worker threads, serialised). */
    void (*progress)(void *ud, unsigned long done, unsigned long total);
    void *progress_ud;
} pips_playtest_opts;

typedef struct pips_playtest pips_playtest;

/* Plays every game and aggregates; NULL with *err on a bad game, option,
 * agent spec or seat count. */
pips_playtest *pips_playtest_run(const pips_playtest_opts *o, pips_error *err);
void pips_playtest_free(pips_playtest *pt);

/* The JSON document with every figure; timing figures only when asked
 * (they vary between runs). */
bool pips_playtest_json(const pips_playtest *pt, bool with_timing, pips_str *out);
/* The Markdown report; plots are referenced as seats.svg and lengths.svg. */
void pips_playtest_markdown(const pips_playtest *pt, pips_str *out);
/* The timing section (wall clock: varies between runs and thread counts). */
void pips_playtest_markdown_timing(const pips_playtest *pt, pips_str *out);
/* The SVG plots. */
void pips_playtest_svg_seats(const pips_playtest *pt, pips_str *out);
void pips_playtest_svg_lengths(const pips_playtest *pt, pips_str *out);
/* Writes report.md, report.json, seats.svg and lengths.svg into dir
 * (created when missing), and with kept records records/A-000001.json ...
 * (B-... for the second rule set), one per game. */
bool pips_playtest_write(const pips_playtest *pt, const char *dir, pips_error *err);

/* Games per second of the whole run (wall clock). */
double pips_playtest_games_per_second(const pips_playtest *pt);

/* ---- MPI (a -DPIPS_MPI=ON build; no-ops otherwise) ----------------------------
 * Between begin and end, pips_playtest_run splits the games over the ranks
 * (rank r plays the games numbered r modulo the rank count) and gathers all
 * results on every rank, so every rank computes the same report as a single
 * process would. Only rank 0 should print or write it. */
bool pips_lab_mpi_begin(int *argc, char ***argv);
void pips_lab_mpi_end(void);
int pips_lab_rank(void);

/* ---- statistics ------------------------------------------------------------- */

/* Wilson score interval for a proportion p_hat observed in n trials at
 * normal quantile z (1.96 for 95%). n == 0 gives [0, 1]. */
void pips_wilson(double p_hat, double n, double z, double *lo, double *hi);
/* Newcombe's interval for the difference p1 - p2 of two proportions. */
void pips_diff_interval(double p1, double n1, double p2, double n2, double z, double *lo,
                        double *hi);
/* Upper tail P(X >= x) of a chi-square distribution with k degrees of freedom. */
double pips_chi2_sf(double x, int k);

#ifdef __cplusplus
}
#endif
#endif
