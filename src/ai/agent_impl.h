/*
 * agent_impl.h — the private shape of an agent: common fields plus the
 * methods a kind fills in at init, and the helpers every search kind shares
 * (parameter parsing, budgets, move generation, leaf evaluation). Kinds keep
 * their own data in `impl`.
 *
 * Invariant: every helper here is deterministic for a given rng/seed; the
 * only non-determinism an agent may show comes from a time budget.
 */
#ifndef PIPS_AGENT_IMPL_H
#define PIPS_AGENT_IMPL_H

#include "pips/agent.h"

struct pips_agent {
    const pips_game *game;
    uint64_t seed;
    pips_rng rng;
    pips_move *moves; /* max_moves scratch */
    char spec[PIPS_SPEC_MAX];
    bool spec_overflow; /* agent_spec_add ran out of room: pips_agent_new refuses it */
    char level[32]; /* the level it was asked for ("hard", "mcts:hard"), else "" */
    void *impl;
    bool has_last_value;
    double last_value; /* root value of the last search, for the mover */
    char note[PIPS_ERROR_MAX + 96]; /* what the last choose/analyze did, "" if nothing */
    double time_cap; /* pips_agent_set_time_cap: seconds per move, 0 = none */
    size_t analyze_max; /* pips_agent_analyze_max when above pips_max_moves, else 0 */
    bool (*choose)(pips_agent *a, const void *state, pips_move *out, pips_error *err);
    size_t (*analyze)(pips_agent *a, const void *state, pips_move_eval *out, size_t max,
                      pips_error *err);
    void (*observe)(pips_agent *a, const void *state_before, pips_move m);
    void (*destroy)(pips_agent *a);
    /* The depth-first kinds (alphabeta, expectimax, brs): a search that
     * leaves the root moves, best first, in ranked and returns their count
     * (0 with *err set); exact asks every move's value with a full window
     * (analysis). choose and analyze are then agent_ranked_choose/analyze. */
    size_t (*rank)(pips_agent *a, const void *state, bool exact, pips_error *err);
    const pips_move_eval *ranked;
};

/* choose: the first of the ranked moves; analyze: as many of them as fit. */
bool agent_ranked_choose(pips_agent *a, const void *state, pips_move *out, pips_error *err);
size_t agent_ranked_analyze(pips_agent *a, const void *state, pips_move_eval *out, size_t max,
                            pips_error *err);

/* Appends a parameter to the stored spec: "kind" becomes "kind:KEY=VALUE",
 * then "kind:KEY=VALUE,KEY=VALUE" (printf-style). One that does not fit
 * marks the spec overflowed, and pips_agent_new then refuses the agent. */
void agent_spec_add(pips_agent *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Kind constructors: params is the text after "kind:" ("" when none), with
 * any strength level already replaced by its parameters. */
bool agent_random_init(pips_agent *a, const char *params, pips_error *err);
bool agent_greedy_init(pips_agent *a, const char *params, pips_error *err);
bool agent_alphabeta_init(pips_agent *a, const char *params, pips_error *err);
bool agent_expectimax_init(pips_agent *a, const char *params, pips_error *err);
bool agent_mcts_init(pips_agent *a, const char *params, pips_error *err);
bool agent_oracle_init(pips_agent *a, const char *params, pips_error *err);
bool agent_brs_init(pips_agent *a, const char *params, pips_error *err);

/* The kinds that can play three or more seats, for error messages. */
const char *agent_nseat_kinds(void);

/* ---- parameters: "key=value,key=value" ---------------------------------- */

#define AGENT_KEY_MAX 32
#define AGENT_VALUE_MAX 64

/* Reads the next key=value pair from *p (advancing it). Returns false at the
 * end (with err untouched) or on a malformed pair (with *err set and
 * *bad = true). */
bool agent_param_next(const char **p, const char *kind, char *key, char *value, bool *bad,
                      pips_error *err);
bool agent_param_long(const char *kind, const char *key, const char *value, long lo, long hi,
                      long *out, pips_error *err);
bool agent_param_double(const char *kind, const char *key, const char *value, double lo,
                        double hi, double *out, pips_error *err);

/* ---- budgets ------------------------------------------------------------- */

/* A time budget is honoured by stopping the search at this fraction of it,
 * leaving room for bookkeeping, so the whole move stays within +10%. */
#define AGENT_TIME_SAFETY 0.9

/* The seconds a search may take: the kind's own time budget (0: none) or the
 * caller's cap, whichever is smaller; 0 when neither is set. */
double agent_time_budget(const pips_agent *a, double own);

/* Whether a depth-first search (alphabeta, expectimax, brs) has spent its budget
 * at its nodes-th node: when timed, the clock (read every 16 nodes) is past
 * deadline; or nodes is above node_cap (0: no cap). A node cap never reads
 * the clock, so it stops the search at the same node on any load. */
bool agent_budget_spent(uint64_t nodes, bool timed, double deadline, uint64_t node_cap);

/* ---- search helpers ------------------------------------------------------- */

/* Moves at a node for a search that must see the same moves whenever it
 * meets the same state: decisions, chance outcomes (prob filled), or, for a
 * non-enumerable game, candidates drawn from an rng derived from salt and
 * the state's hash. */
size_t agent_search_moves(const pips_game *g, const void *state, uint64_t salt,
                          pips_move *out, double *prob);

/* Per-seat value of state in [0, 1]: the returns at a terminal, otherwise the
 * evaluate hook, otherwise the mean of `playouts` random playouts (a playout
 * cut off before the end counts as an even share). state is not changed;
 * scratch holds state_size bytes and moves max_moves entries. */
void agent_leaf_values(const pips_game *g, const void *state, pips_rng *rng, int playouts,
                       void *scratch, pips_move *moves, double *out);

/* Longest random playout before it is cut off. */
#define AGENT_PLAYOUT_MAX_PLIES 100000

/* The greedy agent's value of st for mover: the returns at the end, else
 * (with expand_chance, at a chance node) the mean over its outcomes of the
 * same without expanding, else the evaluate hook, else 0.5. scratch holds
 * state_size bytes, outcomes and prob max_moves entries (unused unless
 * expand_chance). */
double agent_greedy_value(const pips_game *g, const void *st, int mover, bool expand_chance,
                          void *scratch, pips_move *outcomes, double *prob);

/* The buffers a depth-first search (expectimax, brs) keeps: for each ply
 * up to plies its state (plies + 1 of them), its moves and their chance
 * probabilities (max_moves a ply); a scratch state; a playout's moves; and
 * the root moves with their values. */
typedef struct agent_buffers {
    unsigned char *states;
    pips_move *moves;
    double *prob;
    unsigned char *scratch;
    pips_move *playout_moves;
    pips_move_eval *root;
} agent_buffers;
/* Allocates them (false when memory ran out: free them all the same). */
bool agent_buffers_new(agent_buffers *b, const pips_game *g, size_t plies);
void agent_buffers_free(agent_buffers *b, const pips_allocator *al);

/* Sorts evaluations best first (value, then visits, then move order kept). */
void agent_sort_evals(pips_move_eval *ev, size_t n);

#endif
