/*
 * agent.c — building agents from spec strings (kinds, parameters, named
 * strength levels), the helpers shared by the search kinds, and the uniform
 * random agent.
 *
 * Spec grammar: LEVEL | KIND | KIND:LEVEL | KIND:KEY=VALUE[,KEY=VALUE]...
 * A bare LEVEL resolves through the game's own levels (def->levels, falling
 * back to the generic row) to a full spec; KIND:LEVEL takes the kind's
 * generic parameters for that level. The stored spec is the resolved one.
 *
 * Invariant: an agent owns its rng, seeded from the seed it was made with,
 * so the same seed and budget reproduce the same moves.
 */
#include "pips/agent.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/agent_impl.h"
#include "core/unchecked.h"

/* ---- random ---------------------------------------------------------------- */

static bool random_choose(pips_agent *a, const void *state, pips_move *out, pips_error *err)
{
    const pips_game *g = a->game;
    size_t n = pips_node_moves(g, state, &a->rng, a->moves, NULL);
    if (n == 0)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "no legal move: the game is over");
    *out = a->moves[pips_rng_below(&a->rng, n)];
    return true;
}

bool agent_random_init(pips_agent *a, const char *params, pips_error *err)
{
    if (params && *params)
        return pips_fail(err, PIPS_ERR_ARG, "agent 'random' takes no parameters ('%s')", params);
    a->choose = random_choose;
    snprintf(a->spec, sizeof a->spec, "random");
    return true;
}

/* ---- kinds and levels --------------------------------------------------------- */

typedef struct agent_kind {
    const char *name;
    bool (*init)(pips_agent *a, const char *params, pips_error *err);
} agent_kind;

static const agent_kind agent_kinds[] = {
    {"random", agent_random_init},       {"greedy", agent_greedy_init},
    {"alphabeta", agent_alphabeta_init}, {"expectimax", agent_expectimax_init},
    {"mcts", agent_mcts_init},           {"oracle", agent_oracle_init},
    {"brs", agent_brs_init},
};
#define N_KINDS (sizeof agent_kinds / sizeof agent_kinds[0])

static const char *const level_names[] = {"easy", "medium", "hard", "max"};
#define N_LEVELS 4

/* A bare level with no spec in the game's definition (def->levels). */
static const char *const generic_levels[N_LEVELS] = {"greedy", "mcts:iters=1000",
                                                     "mcts:iters=10000",
                                                     "mcts:time=5,threads=2"};
/* The same with three or more seats (def->levels_n): the opponent model
 * (docs/ai.md, "Levels for three to six seats"). */
static const char *const generic_levels_n[N_LEVELS] = {
    "random", "greedy", "mcts:iters=1000,opp=greedy", "mcts:iters=3000,opp=greedy"};

/* KIND:LEVEL: the kind's parameters for each level (NULL = no levels). */
typedef struct kind_level {
    const char *kind;
    const char *params[N_LEVELS];
} kind_level;

static const kind_level kind_levels[] = {
    {"mcts", {"iters=200", "iters=1000", "iters=10000", "time=5,threads=2"}},
    {"alphabeta", {"depth=2", "depth=4", "depth=8", "time=5"}},
    {"expectimax", {"depth=1", "depth=2", "depth=3", "time=5"}},
    {"brs", {"depth=1", "depth=2", "depth=4", "time=5"}},
};

static int level_index(const char *text)
{
    for (int i = 0; i < N_LEVELS; i++)
        if (!strcmp(text, level_names[i]))
            return i;
    return -1;
}

const char *const *pips_agent_kinds(void)
{
    static const char *const names[] = {"random", "greedy", "alphabeta", "expectimax",
                                        "mcts",   "oracle", "brs",       "easy",
                                        "medium", "hard",   "max",       NULL};
    return names;
}

/* One line per kind for `pips agents`; docs/ai.md has the long form. */
static const pips_agent_kind_info kind_info[] = {
    {"random", "a uniformly random legal move", "none"},
    {"greedy", "the move with the best immediate evaluation (an immediate win first)",
     "noise=P (0; the chance of a uniformly random move instead)"},
    {"alphabeta", "alpha-beta search with iterative deepening and a transposition table",
     "depth=1..64 (4), time=SECONDS, nodes=N (no cap; nodes of a move's whole deepening, "
     "the same on any load), playouts=N (4), tt=MB (16), shuffle=0|1 (0), "
     "paranoid=0|1 (0; needed with three or more seats)"},
    {"expectimax", "search through chance events (dice), pruned with two seats",
     "depth=1..32 (2), time=SECONDS, nodes=N (no cap), playouts=N (4), prune=0|1 (1)"},
    {"mcts", "Monte Carlo tree search",
     "iters=N (1000) and/or time=SECONDS, evals=N (no cap; evaluate calls a search may make), "
     "threads=1..64 (1), c=X (1.0), leaf=playout|eval, "
     "playout=policy|uniform (policy), order=0|1|eval (0), "
     "opp=max|greedy|softmax|topk|search|adapt (max), temp=T (0.05), k=K (2), oppiters=N (300), "
     "oppsettle=0|1 (0), oppevals=N (0 = no cap), oppruns=1..64 (1), "
     "oppsample=K (0 = off; opp=search|adapt only; a searching seat with more than K moves plays the best of K drawn), "
     "sym=0|1|2 (0; games with a canonical form: 1 the root seat's moves one per symmetric "
     "set of results, 2 the seats modelled as searchers too), "
     "settle=0|1 (0), chance=sample|stratify (sample), exact=N (0), worst=W (0), "
     "pick=0..64 (0), pickply=0..64 (0 = no limit), pickobs=0..64 (0), draws=1..64 (1), "
     "treedepth=0..64 (0 = no cap), "
     "rollout=0..1000 (0; greedy plies before a leaf is valued), "
     "rerank=0|2..64 (0; the search's first M moves played out greedy to the end), "
     "reruns=N (16), rerundraws=1..64 (1; candidate samples a playout move looks at), "
     "rerunsolo=0|1 (0; a playout scores only a win alone), "
     "rerunhalve=0|1 (0; sequential halving: round k plays R*2^k more runs of the moves "
     "still in, then keeps the better half), "
     "rerunopp=N (0; the first round of replies in those playouts by searches of N passes), "
     "rerunoppdraws=1..64 (1; root samples of those searches), "
     "unknown=greedy|search (greedy), prior=P (0), ph=W (0), widen=A (0), widen_base=K (2), "
     "nodes=N (4000000), reuse=0|1 (1)"},
    {"brs", "Best-Reply Search for any seat count: one opponent searches, the others play "
            "a policy move",
     "depth=1..32 (2), time=SECONDS, nodes=N (no cap), others=greedy|order (greedy), "
     "playouts=N (4)"},
    {"oracle", "perfect play where the game's book or the exact solver settles the position "
               "in time, else the fallback (two seats)",
     "time=SECONDS (2), positions=N (no cap; the solver's nodes a move, alone: the same on "
     "any load with threads=1), table_mb=MB (256), threads=T (1), book=0|1 (1), "
     "fallback=SPEC (hard; last, it takes the rest of the spec, commas included)"},
};

size_t pips_agent_kind_count(void) { return sizeof kind_info / sizeof kind_info[0]; }

const pips_agent_kind_info *pips_agent_kind_at(size_t i)
{
    return i < pips_agent_kind_count() ? &kind_info[i] : NULL;
}

const char *pips_agent_level_spec(const pips_game *g, const char *level)
{
    int li = level_index(level);
    if (li < 0)
        return NULL;
    int np = pips_num_players(g);
    if (np <= 2) {
        const char *own = g->def->levels[li];
        return own ? own : generic_levels[li];
    }
    for (int row = (np > 5 ? 5 : np) - 3; row >= 0; row--)
        if (g->def->levels_n[row][li])
            return g->def->levels_n[row][li];
    return generic_levels_n[li];
}

const char *agent_nseat_kinds(void)
{
    return "random, greedy, expectimax, mcts, brs, alphabeta:paranoid=1";
}

static pips_agent *agent_alloc(const pips_game *g, uint64_t seed, pips_error *err)
{
    pips_agent *a = pips_calloc(g->alloc, 1, sizeof *a);
    if (!a) {
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory for an agent");
        return NULL;
    }
    a->game = g;
    a->seed = seed;
    pips_rng_seed(&a->rng, seed);
    a->moves = pips_calloc(g->alloc, pips_max_moves(g), sizeof *a->moves);
    if (!a->moves) {
        pips_free(g->alloc, a);
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory for an agent");
        return NULL;
    }
    return a;
}

pips_agent *pips_agent_new(const pips_game *g, const char *spec, uint64_t seed,
                           pips_error *err)
{
    if (!g || !g->def) {
        pips_fail(err, PIPS_ERR_ARG, "agent: no game (NULL)");
        return NULL;
    }
    if (!spec || !*spec) {
        pips_fail(err, PIPS_ERR_ARG, "agent: empty spec (agents: random, greedy, alphabeta, "
                                     "expectimax, mcts, oracle, brs; levels: easy, medium, "
                                     "hard, max)");
        return NULL;
    }
    if (strlen(spec) >= PIPS_SPEC_MAX) {
        pips_fail(err, PIPS_ERR_ARG, "agent '%.40s...': longer than %d characters", spec,
                  PIPS_SPEC_MAX - 1);
        return NULL;
    }
    char kind[64];
    const char *colon = strchr(spec, ':');
    size_t klen = colon ? (size_t)(colon - spec) : strlen(spec);
    if (klen == 0 || klen >= sizeof kind) {
        pips_fail(err, PIPS_ERR_ARG, "agent '%.64s': expected KIND or KIND:PARAMS", spec);
        return NULL;
    }
    memcpy(kind, spec, klen);
    kind[klen] = '\0';
    if (!colon && level_index(kind) >= 0) {
        /* the game's row for its seat count; never a silent fallback */
        const char *resolved = pips_agent_level_spec(g, kind);
        pips_agent *a = pips_agent_new(g, resolved, seed, err);
        if (a)
            snprintf(a->level, sizeof a->level, "%.8s", kind);
        else
            pips_error_prefix(err, "level '%s' (%s with %d seats): ", kind, g->def->name,
                              pips_num_players(g));
        return a;
    }
    const char *params = colon ? colon + 1 : "";
    for (size_t i = 0; i < N_KINDS; i++) {
        if (strcmp(agent_kinds[i].name, kind) != 0)
            continue;
        int li = level_index(params);
        if (li >= 0) {
            const char *lp = NULL;
            for (size_t k = 0; k < sizeof kind_levels / sizeof kind_levels[0]; k++)
                if (!strcmp(kind_levels[k].kind, kind))
                    lp = kind_levels[k].params[li];
            if (!lp) {
                pips_fail(err, PIPS_ERR_ARG, "agent '%s' has no strength levels ('%s')", kind,
                          params);
                return NULL;
            }
            params = lp;
        }
        pips_agent *a = agent_alloc(g, seed, err);
        if (!a)
            return NULL;
        if (!agent_kinds[i].init(a, params, err) ||
            (a->spec_overflow &&
             !pips_fail(err, PIPS_ERR_ARG, "longer than %d characters once normalised",
                        PIPS_SPEC_MAX - 1))) {
            pips_error_prefix(err, "agent '%.100s': ", spec);
            pips_agent_free(a);
            return NULL;
        }
        if (li >= 0)
            snprintf(a->level, sizeof a->level, "%.16s:%s", kind, level_names[li]);
        return a;
    }
    if (level_index(kind) >= 0) /* "hard:depth=3": a level with parameters */
        pips_fail(err, PIPS_ERR_ARG,
                  "agent '%.64s': a level takes no parameters; '%s' stands for '%s' in %s, "
                  "so give that kind with its parameters (or KIND:%s, e.g. mcts:%s)",
                  spec, kind, pips_agent_level_spec(g, kind), g->def->name, kind, kind);
    else
        pips_fail(err, PIPS_ERR_ARG,
                  "unknown agent '%s' (agents: random, greedy, alphabeta, expectimax, mcts, "
                  "oracle, brs; levels: easy, medium, hard, max)",
                  kind);
    return NULL;
}

void pips_agent_free(pips_agent *a)
{
    if (!a)
        return;
    if (a->destroy)
        a->destroy(a);
    pips_free(a->game->alloc, a->moves);
    pips_free(a->game->alloc, a);
}

const char *pips_agent_spec(const pips_agent *a) { return a->spec; }

const pips_game *pips_agent_game(const pips_agent *a) { return a ? a->game : NULL; }

const char *pips_agent_label(const pips_agent *a, char *buf, size_t size)
{
    if (a->level[0])
        snprintf(buf, size, "%s (%s)", a->level, a->spec);
    else
        snprintf(buf, size, "%s", a->spec);
    return buf;
}

static bool check_decision(const pips_agent *a, const void *state, pips_error *err)
{
    if (!a || !state)
        return pips_fail(err, PIPS_ERR_ARG, "agent: no %s (NULL)", !a ? "agent" : "state");
    int who = pips_to_move(a->game, state);
    if (who < 0)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "not a decision node (%s)",
                         who == PIPS_OVER ? "the game is over" : "a chance event is due");
    return true;
}

bool agent_choose_unchecked(pips_agent *a, const void *state, pips_move *out, pips_error *err)
{
    if (!out)
        return pips_fail(err, PIPS_ERR_ARG, "agent: nowhere to put the move (NULL)");
    if (!check_decision(a, state, err))
        return false;
    a->has_last_value = false;
    return a->choose(a, state, out, err);
}

size_t agent_analyze_unchecked(pips_agent *a, const void *state, pips_move_eval *out, size_t max,
                               pips_error *err)
{
    if (!check_decision(a, state, err))
        return 0;
    a->has_last_value = false;
    if (a->analyze)
        return a->analyze(a, state, out, max, err);
    pips_move m;
    if (max == 0 || !a->choose(a, state, &m, err))
        return 0;
    out[0].move = m;
    out[0].value = 0.5;
    out[0].visits = 0;
    out[0].proven = false;
    return 1;
}

void agent_observe_unchecked(pips_agent *a, const void *state_before, pips_move m)
{
    if (a->observe)
        a->observe(a, state_before, m);
}

/* The public calls take only states from pips_state_new, of the agent's game
 * and options (pips_state_check): a state of another game is an error, never
 * a read out of bounds. The library's own callers use the unchecked twins. */
bool pips_agent_choose(pips_agent *a, const void *state, pips_move *out, pips_error *err)
{
    if (!a)
        return pips_fail(err, PIPS_ERR_ARG, "agent: no agent (NULL)");
    if (!pips_state_check(a->game, state, err))
        return false;
    return agent_choose_unchecked(a, state, out, err);
}

size_t pips_agent_analyze(pips_agent *a, const void *state, pips_move_eval *out, size_t max,
                          pips_error *err)
{
    if (!a) {
        pips_fail(err, PIPS_ERR_ARG, "agent: no agent (NULL)");
        return 0;
    }
    if (!out && max > 0) {
        pips_fail(err, PIPS_ERR_ARG, "agent: nowhere to put the analysis (NULL)");
        return 0;
    }
    if (!pips_state_check(a->game, state, err))
        return 0;
    return agent_analyze_unchecked(a, state, out, max, err);
}

void pips_agent_observe(pips_agent *a, const void *state_before, pips_move m)
{
    if (a && pips_state_check(a->game, state_before, NULL))
        agent_observe_unchecked(a, state_before, m);
}

const char *pips_agent_note(const pips_agent *a) { return a->note; }

size_t pips_agent_analyze_max(const pips_agent *a)
{
    if (!a)
        return 0;
    size_t game_max = pips_max_moves(a->game);
    return a->analyze_max > game_max ? a->analyze_max : game_max;
}

void pips_agent_set_time_cap(pips_agent *a, double seconds)
{
    if (a)
        a->time_cap = seconds > 0 ? seconds : 0;
}

double agent_time_budget(const pips_agent *a, double own)
{
    if (a->time_cap <= 0)
        return own > 0 ? own : 0;
    return own > 0 && own < a->time_cap ? own : a->time_cap;
}

bool agent_budget_spent(uint64_t nodes, bool timed, double deadline, uint64_t node_cap)
{
    if (node_cap && nodes > node_cap)
        return true;
    return timed && (nodes & 15) == 0 && pips_now() > deadline;
}

void pips_move_eval_text(const pips_move_eval *e, int num_players, char *buf, size_t size)
{
    const double eps = 1e-9;
    if (!e->proven)
        snprintf(buf, size, "%.4f", e->value);
    else if (e->value >= 1 - eps)
        snprintf(buf, size, "win");
    else if (e->value <= eps)
        snprintf(buf, size, "loss");
    else if (num_players == 2 && fabs(e->value - 0.5) <= eps)
        snprintf(buf, size, "draw");
    else
        snprintf(buf, size, "=%.4f", e->value);
}

bool pips_agent_last_value(const pips_agent *a, double *value)
{
    if (a->has_last_value && value)
        *value = a->last_value;
    return a->has_last_value;
}

/* ---- parameter parsing ------------------------------------------------------- */

bool agent_param_next(const char **p, const char *kind, char *key, char *value, bool *bad,
                      pips_error *err)
{
    *bad = false;
    const char *s = *p;
    if (!*s)
        return false;
    const char *end = strchr(s, ',');
    size_t len = end ? (size_t)(end - s) : strlen(s);
    const char *eq = memchr(s, '=', len);
    if (!eq || eq == s) {
        *bad = true;
        return pips_fail(err, PIPS_ERR_ARG, "%s: expected KEY=VALUE, got '%.*s'", kind,
                         (int)(len > 60 ? 60 : len), s);
    }
    size_t klen = (size_t)(eq - s), vlen = len - klen - 1;
    if (klen >= AGENT_KEY_MAX || vlen >= AGENT_VALUE_MAX || vlen == 0) {
        *bad = true;
        return pips_fail(err, PIPS_ERR_ARG, "%s: bad parameter '%.*s'", kind,
                         (int)(len > 60 ? 60 : len), s);
    }
    memcpy(key, s, klen);
    key[klen] = '\0';
    memcpy(value, eq + 1, vlen);
    value[vlen] = '\0';
    *p = end ? end + 1 : s + len;
    if (end && !**p) {
        *bad = true;
        return pips_fail(err, PIPS_ERR_ARG, "%s: trailing ',' in parameters", kind);
    }
    return true;
}

bool agent_param_long(const char *kind, const char *key, const char *value, long lo, long hi,
                      long *out, pips_error *err)
{
    if (!pips_parse_int(value, lo, hi, out))
        return pips_fail(err, PIPS_ERR_ARG, "%s: %s='%s' must be a whole number in %ld..%ld",
                         kind, key, value, lo, hi);
    return true;
}

bool agent_param_double(const char *kind, const char *key, const char *value, double lo,
                        double hi, double *out, pips_error *err)
{
    char *end;
    errno = 0;
    double v = strtod(value, &end);
    if (errno || end == value || *end || !isfinite(v) || v < lo || v > hi)
        return pips_fail(err, PIPS_ERR_ARG, "%s: %s='%s' must be a number in %g..%g", kind,
                         key, value, lo, hi);
    *out = v;
    return true;
}

/* ---- search helpers -------------------------------------------------------------- */

size_t agent_search_moves(const pips_game *g, const void *state, uint64_t salt,
                          pips_move *out, double *prob)
{
    const pips_game_def *d = g->def;
    int who = d->to_move(g, state);
    if (who == PIPS_OVER)
        return 0;
    if (who == PIPS_CHANCE)
        return d->chance_outcomes(g, state, out, prob);
    if (d->legal_moves && !(d->flags & PIPS_GAME_NOT_ENUMERABLE))
        return d->legal_moves(g, state, out);
    pips_rng rng;
    pips_rng_derive(&rng, salt, d->hash(g, state));
    return pips_node_moves(g, state, &rng, out, NULL);
}

void agent_leaf_values(const pips_game *g, const void *state, pips_rng *rng, int playouts,
                       void *scratch, pips_move *moves, double *out)
{
    const pips_game_def *d = g->def;
    int np = pips_num_players(g);
    int who = d->to_move(g, state);
    if (who == PIPS_OVER) {
        d->returns(g, state, out);
        return;
    }
    if (d->evaluate) {
        d->evaluate(g, state, out);
        return;
    }
    double tmp[PIPS_MAX_PLAYERS];
    for (int p = 0; p < np; p++)
        out[p] = 0;
    if (playouts < 1)
        playouts = 1;
    for (int i = 0; i < playouts; i++) {
        memcpy(scratch, state, d->state_size);
        pips_policy_playout(g, scratch, rng, moves, AGENT_PLAYOUT_MAX_PLIES);
        if (d->to_move(g, scratch) == PIPS_OVER) {
            d->returns(g, scratch, tmp);
        } else {
            for (int p = 0; p < np; p++)
                tmp[p] = 1.0 / np;
        }
        for (int p = 0; p < np; p++)
            out[p] += tmp[p];
    }
    for (int p = 0; p < np; p++)
        out[p] /= playouts;
}

static int eval_cmp(const void *x, const void *y)
{
    const pips_move_eval *a = x, *b = y;
    if (a->value != b->value)
        return a->value > b->value ? -1 : 1;
    if (a->visits != b->visits)
        return a->visits > b->visits ? -1 : 1;
    return 0;
}

bool agent_ranked_choose(pips_agent *a, const void *state, pips_move *out, pips_error *err)
{
    if (!a->rank(a, state, false, err))
        return false;
    *out = a->ranked[0].move;
    return true;
}

size_t agent_ranked_analyze(pips_agent *a, const void *state, pips_move_eval *out, size_t max,
                            pips_error *err)
{
    size_t n = a->rank(a, state, true, err);
    if (n > max)
        n = max;
    memcpy(out, a->ranked, n * sizeof *out);
    return n;
}

void agent_spec_add(pips_agent *a, const char *fmt, ...)
{
    size_t len = strlen(a->spec);
    if (len + 2 >= sizeof a->spec) {
        a->spec_overflow = true;
        return;
    }
    char sep = strchr(a->spec, ':') ? ',' : ':';
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(a->spec + len + 1, sizeof a->spec - len - 1, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof a->spec - len - 1) {
        a->spec[len] = '\0'; /* the spec stays whole; the agent is refused */
        a->spec_overflow = true;
        return;
    }
    a->spec[len] = sep;
}

bool agent_buffers_new(agent_buffers *b, const pips_game *g, size_t plies)
{
    const pips_allocator *al = g->alloc;
    size_t rows = (plies + 1) * pips_max_moves(g);
    b->states = pips_calloc(al, plies + 1, g->def->state_size);
    b->moves = pips_calloc(al, rows, sizeof *b->moves);
    b->prob = pips_calloc(al, rows, sizeof *b->prob);
    b->scratch = pips_calloc(al, 1, g->def->state_size);
    b->playout_moves = pips_calloc(al, pips_max_moves(g), sizeof *b->playout_moves);
    b->root = pips_calloc(al, pips_max_moves(g), sizeof *b->root);
    return b->states && b->moves && b->prob && b->scratch && b->playout_moves && b->root;
}

void agent_buffers_free(agent_buffers *b, const pips_allocator *al)
{
    pips_free(al, b->states);
    pips_free(al, b->moves);
    pips_free(al, b->prob);
    pips_free(al, b->scratch);
    pips_free(al, b->playout_moves);
    pips_free(al, b->root);
}

void agent_sort_evals(pips_move_eval *ev, size_t n)
{
    /* insertion sort: stable, so equal moves keep their generation order */
    for (size_t i = 1; i < n; i++) {
        pips_move_eval t = ev[i];
        size_t j = i;
        while (j > 0 && eval_cmp(&t, &ev[j - 1]) < 0) {
            ev[j] = ev[j - 1];
            j--;
        }
        ev[j] = t;
    }
}
