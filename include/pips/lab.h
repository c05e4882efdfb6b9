/*
 * pips/lab.h — the playtest lab: plays many seeded games between agents,
 * aggregates statistics (results per agent and per seat with Wilson
 * intervals, first-player advantage, seat balance, draw rate, cap rate, game
 * length, branching factor by ply, time per move, decisiveness) and writes a
 * Markdown report with SVG plots, a JSON file with every figure and a CSV
 * with one row per variant. A sweep replays the same seeds under every
 * variant (the grid of the vary values, or a base and a vs rule set) and
 * compares every variant with the first, with Holm-corrected p-values.
 * Where the exact solver settles a two-player variant within a budget, the
 * report sets its value beside the measured rates.
 *
 * Determinism: game i uses an rng derived from (seed, i) with
 * pips_rng_derive, and results are summed exactly (counts, fixed-point
 * returns), so the report (everything except the run's date, the timing
 * figures and an exact solve that ran out of time) is the same for any
 * thread count and any number of MPI ranks.
 */
#ifndef PIPS_LAB_H
#define PIPS_LAB_H

#include "pips/agent.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* exported from libpips.so */
#endif

#define PIPS_LAB_MAX_SEATS PIPS_MAX_PLAYERS
/* Games per variant: the returns are summed in 64-bit fixed point. */
#define PIPS_LAB_MAX_GAMES 100000000UL

/* Who sits where in game i (see "Seatings" in docs/playtest.md):
 * - ROTATE: seat s of game i gets spec (s + i) mod n;
 * - ALL: every distinct order of the specs once per cycle; from 5 seats,
 *   when those outnumber it, a balanced design in which each spec takes
 *   each seat, and follows each other spec around the table, equally often;
 * - FIXED: seat s always gets spec s. */
typedef enum pips_seating {
    PIPS_SEATING_ROTATE,
    PIPS_SEATING_ALL,
    PIPS_SEATING_FIXED
} pips_seating;

/* "rotate", "all" or "fixed"; false for anything else. */
bool pips_seating_parse(const char *name, pips_seating *out);
const char *pips_seating_name(pips_seating s);
/* Pools identical specs: agent_of[i] is the agent of specs[i], numbered in
 * order of first appearance; returns the number of distinct agents. */
size_t pips_pool_specs(const char *const *specs, size_t n, int *agent_of);
/* Games in one cycle of the seating, given each seat spec's pooled agent
 * (spec_agent[np], values 0..np-1): with a multiple of it every order of
 * the cycle is played equally often. 0 for a bad seat count. */
size_t pips_seating_period(pips_seating s, const int *spec_agent, int np);
/* seat_agent[t]: the pooled agent in seat t of game `game`; false on a bad
 * seat count or agent number. */
bool pips_seating_order(pips_seating s, const int *spec_agent, int np, unsigned long game,
                        int *seat_agent);

typedef struct pips_playtest_opts {
    const char *game;             /* game name (looked up in the table) */
    const pips_game_def *def;     /* or a game definition outside the table (tests) */
    const char *const *opts;      /* "key=value" game options */
    size_t n_opts;
    const char *const *vs_opts;   /* second rule set: overrides of opts; NULL/0 = none */
    size_t n_vs_opts;
    const char *const *vary;      /* "KEY=V1,V2,..." each (';' between values that hold
                                     commas); the variants are the grid of all of them */
    size_t n_vary;
    const char *const *seats;     /* one agent spec per seat, or one for every seat */
    size_t n_seats;
    unsigned long games;          /* per variant, 1..PIPS_LAB_MAX_GAMES */
    uint64_t seed;
    int threads;                  /* worker threads (>= 1) */
    bool fixed_seats;             /* the same as seating = PIPS_SEATING_FIXED */
    pips_seating seating;         /* ROTATE by default */
    double decisive_threshold;    /* 0 means 0.8 */
    bool keep_records;            /* keep every game as a JSON record (pips/match.h) */
    double exact_seconds;         /* exact solve of each two-player deterministic variant,
                                     in a child process given this much processor time
                                     (whole seconds, rounded up); 0 = none */
    size_t exact_mb;              /* its table budget; 0 means 64 */
    const char *command_line;     /* recorded in the report (may be NULL) */
    const char *version;          /* likewise */
    /* Called after each finished game (from worker threads, serialised). */
    void (*progress)(void *ud, unsigned long done, unsigned long total);
    void *progress_ud;
    /* When not NULL and set (a signal handler may set it), the workers take
     * no new game: the run ends at the next game boundary with a partial
     * report of the games finished (pips_playtest_partial). */
    const volatile int *stop;
    /* A state saved by pips_playtest_save_state: the run continues where it
     * stopped and ends with the report an uninterrupted run gives (timing
     * aside). The state must come from the same game, options, variants,
     * seats, seatings, seed, games and threshold (the error names what
     * differs); not with keep_records or under MPI. NULL: a fresh run. */
    const char *resume_state;
    /* Leave out the drama and tension figures (they evaluate the position
     * after every turn, the costliest part of a run with cheap agents). */
    bool no_drama;
    /* Measure drama only in the games whose number (from 0) is a multiple
     * of drama_every; 1: every game. 0, the default: every game up to
     * PIPS_LAB_DRAMA_GAMES games a variant, beyond that a sample of at most
     * that many, spread evenly (pips_playtest_drama_every). For agents so
     * cheap that the evaluations after every turn cost more than the play
     * (random agents in Nimitz, whose evaluation plays 24 playouts;
     * docs/playtest.md, "Speed"). The figures then rest on that subset, and
     * report its size. */
    unsigned long drama_every;
} pips_playtest_opts;

/* The games a variant's drama is measured in by default: every game up to
 * this many, then an even sample of at most this many. */
#define PIPS_LAB_DRAMA_GAMES 1000UL

/* The K of the games 0, K, 2K, ... whose drama a run of `games` games a
 * variant measures, for a drama_every option (see above; 0: the default,
 * ceil(games / PIPS_LAB_DRAMA_GAMES), so at most PIPS_LAB_DRAMA_GAMES games).
 * It depends on the game count alone, never on threads or timing. */
unsigned long pips_playtest_drama_every(unsigned long games, unsigned long drama_every);

typedef struct pips_playtest pips_playtest;

/* Plays every game and aggregates; NULL with *err on a bad game, option,
 * agent spec or seat count. */
pips_playtest *pips_playtest_run(const pips_playtest_opts *o, pips_error *err);
void pips_playtest_free(pips_playtest *pt);

/* The JSON document with every figure; the run (date, machine, command)
 * and timing figures only when asked (they vary between runs). */
bool pips_playtest_json(const pips_playtest *pt, bool with_run, pips_str *out);
/* The Markdown report without the run's description and timing; plots are
 * referenced by their file names. */
void pips_playtest_markdown(const pips_playtest *pt, pips_str *out);
/* Whether the Markdown links the plot files (default true); false when
 * the report is printed with no folder written beside it. */
void pips_playtest_set_plot_links(pips_playtest *pt, bool on);
/* The run (command, version, date, machine) and timing sections. */
void pips_playtest_markdown_run(const pips_playtest *pt, pips_str *out);
void pips_playtest_markdown_timing(const pips_playtest *pt, pips_str *out);
/* One CSV row per variant (sweep.csv). */
void pips_playtest_csv(const pips_playtest *pt, pips_str *out);
/* The SVG plots. */
void pips_playtest_svg_seats(const pips_playtest *pt, pips_str *out);
void pips_playtest_svg_lengths(const pips_playtest *pt, pips_str *out);
/* Writes report.md, report.json, sweep.csv, seats.svg and lengths.svg into
 * dir (created when missing), with two or more variants also one
 * sweep-METRIC.svg per metric, and with kept records records/A-000001.json
 * ... (B-... for the second variant), one per game. Record files left in
 * dir/records by an earlier run (names LETTERS-NUMBER.json) are removed
 * first; *removed (may be NULL) says how many. */
bool pips_playtest_write(const pips_playtest *pt, const char *dir, unsigned long *removed,
                         pips_error *err);

/* True when the run was stopped (opts.stop) before every game was played;
 * the report then covers the games finished and says so. */
bool pips_playtest_partial(const pips_playtest *pt);
/* True when the run stopped because a game's script failed (PIPS_ERR_SCRIPT,
 * docs/lua.md): *err (may be NULL) gets the message, which names the game
 * and its seed; the run is partial and its report covers the games finished.
 * Such a run is not resumed: the script would fail again. */
bool pips_playtest_failure(const pips_playtest *pt, pips_error *err);
/* Writes the run's state (its sums and which games were played) to path,
 * for opts.resume_state. */
bool pips_playtest_save_state(const pips_playtest *pt, const char *path, pips_error *err);

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
/* Two-sided p-value of a standard normal statistic z. */
double pips_normal_p2(double z);
/* Two-sided p-value of the pooled two-proportion z-test of x1/n1 against
 * x2/n2 (1 when both samples are all successes or all failures). */
double pips_two_prop_p(double x1, double n1, double x2, double n2);
/* Two-sided p-value of the difference of two means (Welch's statistic with
 * the normal distribution: for the large samples of a playtest). */
double pips_mean_diff_p(double m1, double sd1, double n1, double m2, double sd2, double n2);
/* Holm-Bonferroni step-down adjustment of n p-values (family-wise error):
 * adj[i] is the smallest level at which test i is rejected. */
void pips_holm(const double *p, size_t n, double *adj);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
