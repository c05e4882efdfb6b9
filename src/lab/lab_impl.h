/*
 * lab_impl.h — the private shape of a playtest: the result of one game, the
 * running sums of a variant (acc.c), the figures computed from them, the
 * variants of a sweep and their exact values, shared by the runner
 * (playtest.c, dist.c, exact.c) and the writers (report.c, svg.c).
 *
 * Invariant: every figure comes from order-independent sums, so it does not
 * depend on which thread or MPI rank played which game.
 */
#ifndef PIPS_LAB_IMPL_H
#define PIPS_LAB_IMPL_H

#include <sys/types.h>

#include "pips/lab.h"
#include "pips/match.h"

#define LAB_MAX_N PIPS_LAB_MAX_SEATS
#define LAB_HIST_BINS 20
#define LAB_MAX_PLIES 100000

/* A game's drama and tension figures (drama.c), from each seat's
 * evaluation of the position after every turn (docs/playtest.md). */
typedef struct lab_drama {
    int lead_changes;   /* times the unique leader changed; -1: not measured */
    int comeback;       /* 1: won by a seat not leading at the halfway turn; -1: no winner */
    double drama;       /* mean deficit of the winner on its turns behind; < 0: no winner */
    double uncertainty; /* turns before the winner leads for good, over turns; < 0: none */
} lab_drama;

/* eval[t * np + s]: seat s's evaluation after turn t (the last row the
 * returns); turn_seat[t] the seat whose turn t was (-1 unknown); winner
 * the seat with the unique best return or -1. */
void lab_drama_of(const double *eval, const int *turn_seat, size_t turns, int np, int winner,
                  lab_drama *out);

typedef struct game_result {
    int seat_agent[LAB_MAX_N]; /* which agent sat in each seat */
    double returns[LAB_MAX_N]; /* per seat */
    int winner;                /* seat with the unique best return, or -1 */
    bool unfinished;           /* stopped at LAB_MAX_PLIES */
    bool capped;               /* ended by the game's own turn or move cap */
    uint32_t length;           /* decision moves */
    uint32_t chance_plies;
    uint32_t *branching;       /* moves available at each decision (length entries) */
    double time_sum[LAB_MAX_N]; /* seconds spent choosing, per seat */
    double time_max[LAB_MAX_N];
    uint32_t moves[LAB_MAX_N];  /* decisions per seat */
    double decisive;           /* fraction of the game before the winner's value
                                  stays above the threshold; < 0 when unknown */
    uint32_t turns, rounds;    /* turns begun; rounds begun (turns / per round, up) */
    lab_drama drama;           /* from the evaluations after every turn */
    uint64_t hash;             /* of the whole move sequence (distinct games) */
    char *record;              /* JSON game record (pips/match.h) when kept */
} game_result;

/* Wins, draws, losses and summed returns, exact: the returns are summed in
 * fixed point (units of 2^-32) so that the total does not depend on the
 * order in which games are added (threads, MPI ranks). */
typedef struct lab_tally {
    uint64_t n, w, d, l;
    int64_t score_fx;
} lab_tally;

#define LAB_FX_ONE 4294967296.0 /* 2^32 */

/* The running sums of one variant's games (acc.c). Every field is a count,
 * a fixed-point sum or a multiset (decisive points, sorted before use), so
 * adding the same games in any order, or merging the sums of several
 * ranks, gives the same figures. Only the timing sums depend on order. */
typedef struct lab_acc {
    int np;
    uint64_t games, draws, unfinished, capped;
    uint64_t seat_wins[LAB_MAX_N];
    lab_tally agent[LAB_MAX_N], seat[LAB_MAX_N], agent_seat[LAB_MAX_N][LAB_MAX_N];
    size_t plies_cap;        /* entries of the three arrays below */
    uint64_t *len_count;     /* games by length (decisions) */
    uint64_t *branch_sum;    /* moves available at decision k, summed */
    uint64_t *branch_n;      /* games reaching decision k */
    double *decisive;        /* decisive points of the games that have one */
    size_t n_decisive, decisive_cap;
    uint64_t *turn_count;    /* games by turns (plies_cap entries: a game with skipped
                                turns may have more turns than decisions) */
    uint64_t *round_count;   /* games by rounds */
    /* drama: integer sums, and fixed-point (2^-32) sums of per-game figures */
    uint64_t lead_n, lead_sum, lead_sum2, comeback_n, comeback_x, drama_n;
    int64_t drama_fx, drama2_fx, unc_fx, unc2_fx;
    uint64_t *hashes;        /* one per game: distinct games (sorted before use) */
    size_t n_hashes, hashes_cap;
    double time_sum[LAB_MAX_N], time_max[LAB_MAX_N];
    uint64_t time_moves[LAB_MAX_N];
} lab_acc;

/* A distribution of whole numbers (lengths, turns, rounds) as reported. */
typedef struct lab_summary {
    double mean, sd, median, p10, p25, p75, p90, min, max;
    unsigned long hist[LAB_HIST_BINS];
    double hist_lo, hist_width;
} lab_summary;

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
    double draws, unfinished, capped, decisive_games;
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
    lab_summary turns, rounds;
    /* drama and tension (docs/playtest.md) */
    double lead_mean, lead_sd;       /* lead changes per game, over lead_games */
    unsigned long lead_games;        /* games whose drama was measured */
    double comeback_x, comeback_n;   /* decisive games won from behind at half time */
    unsigned long drama_games;       /* decisive games behind drama and uncertainty */
    double drama_mean, drama_sd, unc_mean, unc_sd;
    unsigned long distinct_games;    /* distinct move sequences */
    /* decisiveness */
    unsigned long decisive_known;
    double decisive_mean, decisive_median, decisive_sd;
    /* timing (per agent) */
    double time_mean[LAB_MAX_N], time_max[LAB_MAX_N];
    unsigned long time_moves[LAB_MAX_N];
} ruleset_stats;

/* What the exact solver says about a variant's start position (exact.c). */
typedef enum lab_exact_state {
    LAB_EXACT_OFF,     /* not tried: not asked, or not two-player deterministic */
    LAB_EXACT_SOLVED,  /* value holds the first player's value */
    LAB_EXACT_UNKNOWN  /* tried, not settled within the budget (note says why) */
} lab_exact_state;

typedef struct lab_exact {
    lab_exact_state state;
    pips_value value; /* for the first player, with perfect play on both sides */
    int first_seat;   /* the seat to move at the start (0-based) */
    double seconds;
    unsigned long long positions;
    char note[200];   /* why there is no value (the same for every unsettled solve) */
    char detail[200]; /* which limit stopped it (varies from run to run) */
} lab_exact;

#define LAB_MAX_VARY 8       /* --vary keys */
#define LAB_MAX_VARIANTS 256 /* rule sets in one run */

typedef struct lab_variant {
    char values[LAB_MAX_VARY][PIPS_OPT_VALUE_MAX]; /* each varied key's value */
    char name[16];       /* A, B, ..., Z, AA, ... (record file prefix) */
    int np;
    ruleset_stats st;
    lab_exact exact;
    char **records;      /* one JSON record per game, or NULL */
    /* each agent's spec as it resolves in this variant: a level ("hard")
     * resolves by the variant's seat count, so it may differ from agents[] */
    char agents[LAB_MAX_N][PIPS_SPEC_MAX];
} lab_variant;

struct pips_playtest {
    char game[64];
    char title[128];
    int np; /* seats of the variant being played (a per-variant view for play_one) */
    size_t n_agents;             /* distinct specs: identical specs are one agent */
    char agents[LAB_MAX_N][PIPS_SPEC_MAX]; /* normalised, each once, in order of first appearance */
    char agent_labels[LAB_MAX_N][PIPS_AGENT_LABEL_MAX]; /* for people: "hard (mcts:...)" */
    size_t n_specs;              /* the specs as given (1: one spec fills every seat) */
    int spec_agent[LAB_MAX_N];   /* the agent of each given spec (all 0 with one spec) */
    int agent_seats[LAB_MAX_N];  /* seats each agent holds in a game (0: every seat) */
    unsigned long games; /* per variant */
    uint64_t seed;
    int threads;
    pips_seating seating;
    double threshold;
    unsigned long drama_every; /* 0: drama off; K: measured in games whose number K divides */
    bool drama_by_default;     /* drama_every > 1 came from the default, not --drama-every */
    bool has_mcts;
    bool from_vs; /* the second variant came from --vs-opt */
    size_t n_vary;
    char vary_keys[LAB_MAX_VARY][PIPS_OPT_KEY_MAX];
    size_t n_variants;
    lab_variant *variants;
    bool partial;   /* stopped before every game was played */
    bool failed;    /* stopped because a game failed (a script's error): failure says how */
    pips_error failure;
    bool no_plot_links; /* the Markdown names no plot files (none written) */
    lab_acc *acc;   /* per variant: the sums, kept for a saved state */
    uint8_t *done;  /* a bit per job (variant * games + game): played */
    unsigned long played; /* games played by this run (a resumed one's are not) */
    double seconds; /* wall clock of the whole run */
    int ranks;      /* MPI ranks that played (1 without MPI) */
    /* the run, as the front end describes it */
    char command[2048], version[128], date[32], machine[256];
};

/* acc.c */
/* Doubles *cap (from first when 0) and reallocates *items (elem bytes
 * each) to it; false, leaving both as they were, when memory runs out. */
bool lab_grow(void **items, size_t *cap, size_t first, size_t elem);
bool lab_acc_init(lab_acc *acc, int np);
void lab_acc_free(lab_acc *acc);
/* Adds one game. */
bool lab_acc_add(lab_acc *acc, const game_result *r);
/* Makes room for plies entries in the per-length arrays (zero-filled). */
bool lab_acc_reserve(lab_acc *acc, size_t plies);
/* Every count of an accumulator as one flat array of lab_acc_fields(acc)
 * uint64 (for MPI sums and saved states): copied into p (store false) or
 * back from p (store true). */
size_t lab_acc_fields(const lab_acc *acc);
void lab_acc_pack(lab_acc *acc, uint64_t *p, bool store);
/* The figures of the report from the sums. */
bool lab_acc_finish(lab_acc *acc, int n_agents, ruleset_stats *st, pips_error *err);

/* exact.c: solves a variant's start position in a child process bounded by
 * seconds and table_mb; LAB_EXACT_OFF when the game is not two-player and
 * deterministic with enumerable moves. */
void lab_exact_solve(const pips_game *g, double seconds, size_t table_mb, lab_exact *out);
/* The processor seconds a live (or not yet reaped) child has used, from
 * /proc; -1 where that cannot be read (no such process, no /proc). */
double lab_child_cpu_seconds(pid_t pid);

/* MPI (dist.c): this process's rank and the rank count (0 and 1 without
 * MPI), and the exchange that gives every rank every game's result. */
void lab_dist_get(int *rank, int *size);
/* Sums every rank's accumulators (n of them) into every rank's, and gives
 * every rank every kept record (records[v][i] of variant v, game i; each
 * rank holds the games it played). local_ok false on any rank fails all. */
bool lab_dist_combine(lab_acc *acc, size_t n, char ***records, unsigned long games,
                      bool local_ok, pips_error *err);

/* state.c: a stopped run's sums and finished games, to resume it. */
typedef struct json_t json_t; /* jansson's */
bool lab_state_save(const pips_playtest *pt, const char *path, pips_error *err);
/* The same state as a JSON object (NULL when memory ran out), and applied
 * from one (where names the state in messages); the ladder and skill runs
 * keep the state of their playtest under way inside their own. */
json_t *lab_state_json(const pips_playtest *pt);
bool lab_state_apply(const pips_playtest *pt, json_t *root, const char *where, lab_acc *acc,
                     uint8_t *done, pips_error *err);
/* A JSON document written to / read from path (errors name it). */
bool lab_json_save(json_t *root, const char *path, pips_error *err);
json_t *lab_json_load(const char *path, pips_error *err);
/* Doubles by their bits as a hex string, and back (false unless exactly n). */
json_t *lab_hex_doubles(const double *d, size_t n);
bool lab_doubles_of(json_t *s, double *out, size_t n);
/* The checks that a saved state (root) belongs to this run, shared by the
 * playtest, ladder and skill states: each is true on a match, else false
 * with *err naming the difference ("the seed differs: the folder's run has
 * A, this one B"); the caller prefixes "cannot resume from PATH: ".
 * lab_is_state checks the form's marker root[key] == format ("PATH is not
 * a saved KIND state"). specs: "the WHAT differ"; per: after the saved
 * game count (" a table"). */
bool lab_is_state(json_t *root, const char *key, int format, const char *kind,
                  const char *path, pips_error *err);
/* lab_json_load, then lab_is_state; NULL with *err set on either failing. */
json_t *lab_state_open(const char *path, const char *key, int format, const char *kind,
                       pips_error *err);
bool lab_same_game(json_t *root, const char *game, pips_error *err);
bool lab_same_options(const char *theirs, const char *mine, pips_error *err);
bool lab_same_specs(json_t *theirs, json_t *mine, const char *what, pips_error *err);
bool lab_same_seed(json_t *root, uint64_t seed, pips_error *err);
bool lab_same_games(json_t *root, unsigned long games, const char *per, pips_error *err);
bool lab_same_number(const char *what, double theirs, double mine, pips_error *err);

/* A playtest as the ladder and skill runs play it: resumed from a state
 * object (resume, may be NULL), with on_result called (serialised) for
 * every game finished, with its number and returns. */
typedef struct lab_run_hooks {
    json_t *resume;
    const char *resume_where;
    void (*on_result)(void *ud, unsigned long game, const double *returns);
    /* When not NULL: called with every finished game's match as it ends,
     * from the worker thread that played it (not serialised). */
    void (*on_game)(void *ud, unsigned long game, const pips_match *m);
    void *ud;
} lab_run_hooks;
pips_playtest *lab_playtest_run(const pips_playtest_opts *o, const lab_run_hooks *h,
                                pips_error *err);

/* part.c: one playtest inside a longer run (a ladder's table, a skill
 * step). The run's settings, and where this part's games stand in it. */
typedef struct lab_part {
    const char *game;
    const char *const *opts;
    size_t n_opts;
    unsigned long games; /* this part's */
    int threads;
    const volatile int *stop;
    void (*progress)(void *ud, unsigned long done, unsigned long total); /* the run's */
    void *progress_ud;
    unsigned long before, total; /* the run's games before this part, and in all */
} lab_part;
/* The lab_part of run options o (a pips_ladder_opts or pips_skill_opts:
 * their fields have the same names). */
#define LAB_PART_OF(o, before_, total_)                                                    \
    {.game = (o)->game, .opts = (o)->opts, .n_opts = (o)->n_opts, .games = (o)->games,     \
     .threads = (o)->threads, .stop = (o)->stop, .progress = (o)->progress,                \
     .progress_ud = (o)->progress_ud, .before = (before_), .total = (total_)}
/* The part's playtest options: np seats, every seating at 3+ seats (each
 * rotation at 2), the seed; progress goes through part, which must outlive
 * the playtest. */
pips_playtest_opts lab_part_opts(const lab_part *part, const char *const *seats, int np,
                                 uint64_t seed);
/* games rounded up to a whole number of a part's seatings, so that each is
 * played equally often: the seatings lab_part_opts plays for np seats whose
 * specs are pooled as spec_agent[np] gives (*period receives their count). */
unsigned long lab_part_whole_games(unsigned long games, const int *spec_agent, int np,
                                   unsigned long *period);
/* Fills acc (n_variants, initialised) and done from the state at path,
 * after checking it is a state of the same run (game, variants, seats,
 * seatings, seed, games, threshold); false with *err naming a mismatch. */
bool lab_state_load(const pips_playtest *pt, const char *path, lab_acc *acc, uint8_t *done,
                    pips_error *err);

/* trust.c: what backs a variant's numbers (docs/playtest.md, "Trust"). */
typedef struct lab_trust_line {
    const char *kind; /* "exact", "measured" or "unmeasured" */
    char text[640];
} lab_trust_line;
void lab_trust(const pips_playtest *pt, const lab_variant *var, lab_trust_line *out);

/* Writes text to dir/name (report.c); false with *err naming the path. */
bool lab_write_file(const char *dir, const char *name, const pips_str *text, pips_error *err);
/* Creates folder dir unless it exists; false with *err naming it. */
bool lab_make_dir(const char *dir, pips_error *err);

/* Statistic helpers shared by the writers (stats.c). */
#define LAB_Z95 1.959963984540054 /* the normal quantile of a 95% interval */
double lab_rate(double x, double n);

/* A figure with its 95% interval; known is false with no games behind it. */
typedef struct lab_interval {
    double value, lo, hi;
    bool known;
} lab_interval;
lab_interval lab_rate_interval(double x, double n);                /* Wilson */
lab_interval lab_mean_interval(double mean, double sd, double n);  /* normal */
/* The first seat's score less an even share 1/np (the interval shifted alike). */
lab_interval lab_first_seat_advantage(const ruleset_stats *st);
/* The games the cap rate is a share of. */
double lab_cap_games(const ruleset_stats *st);

/* Report helpers (report.c) shared with plots.c. */
const char *lab_value_word(pips_value v); /* "win", "draw", "loss" */
/* "players=3 stashes=2": the varied keys (the options with nothing varied). */
void lab_variant_label(const pips_playtest *pt, const lab_variant *var, char *out, size_t cap);
int lab_max_seats(const pips_playtest *pt);
/* Seats agent k holds in each game of a variant with np seats. */
int lab_agent_seats(const pips_playtest *pt, size_t k, int np);
/* The sweep metrics that apply to pt (decisiveness only with an MCTS agent),
 * each plotted as sweep-NAME.svg; returns how many were written to names. */
size_t lab_sweep_metrics(const pips_playtest *pt, const char **names, size_t cap);
/* One sweep metric across the variants as an SVG plot (plots.c). */
void lab_svg_sweep_metric(const pips_playtest *pt, const char *metric, pips_str *out);
/* Round axis ticks covering [lo, hi]: the step is 1, 2, 2.5 or 5 times a
 * power of ten, giving at most max_ticks intervals; *first and *last are
 * multiples of *step with first <= lo and last >= hi. */
void lab_nice_ticks(double lo, double hi, int max_ticks, double *first, double *last,
                    double *step);

/* SVG writing (svg.c). */
typedef struct svg_series {
    const char *label;
    const double *value, *lo, *hi; /* one per group; lo/hi may be NULL */
} svg_series;
/* Grouped bars from 0 (a value may be negative; NaN values and intervals
 * are left out) with error bars where lo/hi are given; the y axis covers
 * [y_min, y_max] and the data, on round ticks. */
void lab_svg_bars(pips_str *out, const char *title, const char *y_label,
                  const char *const *groups, size_t n_groups, const svg_series *series,
                  size_t n_series, double y_min, double y_max);

#endif
