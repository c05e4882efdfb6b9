/*
 * pips/skill.h — skill depth: does a stronger player win more, and for how
 * many doublings of effort? Each budget of one agent kind plays the budget
 * before it through the playtest lab (pips/lab.h): at two seats each side
 * in each seat equally often; at three or more the lone stronger agent
 * against a field of the weaker over every seating. For each step the
 * stronger side's win rate and score come with 95% Wilson intervals; the
 * skill chain length is the number of consecutive steps, from the first,
 * in which the stronger side scores significantly more than its fair share
 * 1/n (the lower end of its score interval above 1/n), after Lantz,
 * Isaksen, Jaffe, Nealen and Togelius, "Depth in Strategic Games" (2017).
 *
 * Determinism: step k plays with the seed pips_rng_derive(seed, k), so a
 * seed gives the same table for any thread count.
 */
#ifndef PIPS_SKILL_H
#define PIPS_SKILL_H

#include "pips/lab.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* exported from libpips.so */
#endif

#define PIPS_SKILL_MAX_BUDGETS 32

typedef struct pips_skill_opts {
    const char *game;
    const char *const *opts; /* "key=value" game options */
    size_t n_opts;
    const char *agent;       /* a kind that takes a budget ("mcts", "alphabeta",
                                "expectimax"), optionally with other parameters:
                                "mcts:c=1.4" */
    const long *budgets;     /* increasing: mcts iters, alphabeta/expectimax depth */
    size_t n_budgets;        /* 2..PIPS_SKILL_MAX_BUDGETS */
    unsigned long games;     /* per step */
    uint64_t seed;
    int threads;
    /* Called after each game (serialised): games done, games in all. */
    void (*progress)(void *ud, unsigned long done, unsigned long total);
    void *progress_ud;
    /* When not NULL and set (a signal handler may set it), the run stops at
     * the next game boundary and reports the steps finished. */
    const volatile int *stop;
    /* When not NULL: a stopped run's state is written there (the folder is
     * created when missing), for resume_state to continue it. */
    const char *save_state;
    /* A state saved by a stopped run: the run continues where it stopped
     * (inside a step too) and ends with the table an uninterrupted run gives
     * (time aside). It must come from the same game, options, agent, budgets,
     * games and seed (the error names what differs). NULL: a fresh run. */
    const char *resume_state;
    /* Processor seconds for the exact solver on the start position (two
     * seats, no chance); when it settles it, every move of every budget
     * along the run's games is checked against the solved values (the
     * perfect-play check, docs/playtest.md). 0: no check. */
    double exact_seconds;
    size_t exact_mb; /* the solver's table budget; 0 means 256 */
} pips_skill_opts;

/* One budget's moves along its games, against the solved values. */
typedef struct pips_skill_perfect {
    long budget;
    double games;     /* games it played in (both its steps) */
    double moves;     /* moves it made in them */
    double kept;      /* of those, moves that kept the solved value of their position */
    double unsettled; /* moves whose position the solver did not settle in its budget */
    bool perfect;     /* moves > 0 and every one kept the value (none unsettled) */
} pips_skill_perfect;

typedef struct pips_skill_step {
    long weaker, stronger;  /* budgets */
    char weaker_spec[PIPS_SPEC_MAX], stronger_spec[PIPS_SPEC_MAX];
    unsigned long games;
    double wins, draws, score; /* the stronger side's, over its games */
    double win_rate, win_lo, win_hi;
    double score_rate, score_lo, score_hi;
    bool significant;       /* score interval wholly above 1/n */
} pips_skill_step;

typedef struct pips_skill {
    char game[64], title[128], options[1024];
    char kind[64], param[16]; /* "mcts", "iters" */
    int np;
    uint64_t seed;
    /* the games asked for, rounded up to a whole number of seatings (the lone
     * stronger agent in each seat at 3+ seats, each rotation at two) */
    unsigned long games_per_step, games_asked, seatings;
    size_t n_steps;           /* finished steps (fewer when stopped) */
    bool partial;             /* stopped before the last step */
    pips_skill_step steps[PIPS_SKILL_MAX_BUDGETS - 1];
    int chain_length;
    double seconds;
    /* the perfect-play check: solved is true when the solver settled the
     * start (value: for the first player); otherwise exact_note says why */
    bool solved;
    pips_value value;
    char exact_note[200];
    size_t n_budgets;
    pips_skill_perfect perfect[PIPS_SKILL_MAX_BUDGETS]; /* per budget, in order */
    long perfect_budget; /* the smallest budget that played perfectly; 0: none */
} pips_skill;

/* Checks everything (game, kind, budgets increasing and taken by the kind)
 * before any game, then plays every step. NULL with *err otherwise. */
pips_skill *pips_skill_run(const pips_skill_opts *o, pips_error *err);
void pips_skill_free(pips_skill *s);

/* The table for people: one line per step, then the chain length. */
void pips_skill_text(const pips_skill *s, pips_str *out);
bool pips_skill_json(const pips_skill *s, pips_str *out);
void pips_skill_csv(const pips_skill *s, pips_str *out);
void pips_skill_svg(const pips_skill *s, pips_str *out);
/* Writes report.json, skill.csv and skill.svg into dir (created). */
bool pips_skill_write(const pips_skill *s, const char *dir, pips_error *err);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
