/*
 * pips/ladder.h — ratings for a pool of agents: a round robin played
 * through the playtest lab (pips/lab.h) and Elo ratings from a
 * Bradley-Terry fit, with 95% intervals from the Fisher information.
 *
 * Every table of the round robin seats a different combination of agents
 * (pairs in a two-player game, triples in a three-player game, ...) and
 * plays the same number of games with seats rotated. Each game counts once
 * for every pair of agents at its table: the one with the higher return
 * scores 1, equal returns score half each (draws are half points).
 *
 * The fit: P(i beats j) = g_i / (g_i + g_j) with Elo_i = 400 log10 g_i,
 * found by Hunter's MM iterations and anchored so the ratings average 0.
 * A perfect score has no finite maximum-likelihood rating, so every pair
 * that met also gets `prior` virtual games scored as draws (1 by default in
 * the ladder; 0 in tests of the fit). The interval of a rating is +-1.96
 * standard errors from the inverse Fisher information under the anchor.
 */
#ifndef PIPS_LADDER_H
#define PIPS_LADDER_H

#include "pips/lab.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* exported from libpips.so */
#endif

#define PIPS_LADDER_MAX_AGENTS 16

/* Fits ratings to k agents' pairwise results: points[i * k + j] is what i
 * scored against j (wins plus half the draws), games[i * k + j] the games
 * they played (symmetric; points[i*k+j] + points[j*k+i] = games[i*k+j]).
 * Writes elo[k] (mean 0) and se[k] (standard errors in Elo). False with
 * *err when the pool is not connected by games or k is out of range. */
bool pips_bt_fit(size_t k, const double *points, const double *games, double prior,
                 double *elo, double *se, pips_error *err);

typedef struct pips_ladder_opts {
    const char *game;
    const char *const *opts; /* "key=value" game options */
    size_t n_opts;
    const char *const *agents; /* at least as many as the game has seats */
    size_t n_agents;
    unsigned long games; /* per table: rounded up to a whole number of seatings */
    uint64_t seed;
    int threads;
    double prior; /* virtual drawn games per pair; < 0 means the default 1 */
    /* Called after each game: games done, games in all (every table's). */
    void (*progress)(void *ud, unsigned long done, unsigned long total);
    void *progress_ud;
    /* When not NULL and set (a signal handler may set it), the round robin
     * stops at the next game boundary and rates the games finished. */
    const volatile int *stop;
    /* When not NULL: a stopped run's state is written there (the folder is
     * created when missing), for resume_state to continue it. */
    const char *save_state;
    /* A state saved by a stopped run: the round robin continues where it
     * stopped and ends with the ratings an uninterrupted run gives (time
     * aside). The state must come from the same game, options, agents,
     * games, seed and prior (the error names what differs). NULL: a fresh run. */
    const char *resume_state;
} pips_ladder_opts;

typedef struct pips_ladder_agent {
    char spec[PIPS_SPEC_MAX]; /* normalised */
    char label[PIPS_AGENT_LABEL_MAX]; /* for people: the spec after its level, "hard (mcts:iters=10000)" */
    double elo, se, lo, hi; /* lo/hi: the 95% interval */
    double games, points; /* pairwise games and points over the round robin */
    double wins, draws, losses;
} pips_ladder_agent;

typedef struct pips_ladder {
    char game[64], title[128], options[1024];
    int np;
    size_t n; /* agents */
    unsigned long games_per_table, tables;
    /* games_per_table is the games asked for rounded up to a whole number of
     * the table's seatings (every order of its agents at 3+ seats, each
     * rotation at two), so that each is played equally often */
    unsigned long games_asked, seatings;
    uint64_t seed;
    double prior, seconds;
    bool partial; /* stopped before every table was played */
    pips_ladder_agent agent[PIPS_LADDER_MAX_AGENTS]; /* in the order given */
    size_t order[PIPS_LADDER_MAX_AGENTS];             /* indices, best first */
    /* pairwise: points of i against j and their games */
    double points[PIPS_LADDER_MAX_AGENTS][PIPS_LADDER_MAX_AGENTS];
    double games[PIPS_LADDER_MAX_AGENTS][PIPS_LADDER_MAX_AGENTS];
} pips_ladder;

/* Plays the round robin and fits the ratings; NULL with *err on a bad game,
 * option or agent, fewer agents than seats, or repeated agents. */
pips_ladder *pips_ladder_run(const pips_ladder_opts *o, pips_error *err);
void pips_ladder_free(pips_ladder *l);

/* One line per agent, best first: rank, Elo, interval, score, spec. */
void pips_ladder_text(const pips_ladder *l, pips_str *out);
/* ratings.csv: one row per agent, best first; pairs.csv: one row per pair. */
void pips_ladder_csv(const pips_ladder *l, pips_str *out);
void pips_ladder_pairs_csv(const pips_ladder *l, pips_str *out);
/* ratings.svg: Elo above the weakest agent with its interval, best first. */
void pips_ladder_svg(const pips_ladder *l, pips_str *out);
/* The ladder as one JSON document: {"game", "title", "options", "players",
 * "games_per_table", "games_asked", "seatings", "tables", "seed", "prior", "seconds", "agents": [{"rank",
 * "spec", "elo", "se", "lo", "hi", "games", "points", "score", "wins",
 * "draws", "losses"}...] best first, "pairs": [{"a", "b", "games",
 * "points_a", "score_a", "score_a_lo", "score_a_hi"}...]} (ratings.csv and
 * pairs.csv in one). False when an allocation failed. */
bool pips_ladder_json(const pips_ladder *l, pips_str *out);
/* Writes ratings.txt, ratings.csv, pairs.csv and ratings.svg into dir
 * (created when missing). */
bool pips_ladder_write(const pips_ladder *l, const char *dir, pips_error *err);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
