/*
 * agent.c — building agents from spec strings and the uniform random agent.
 * Search agents register their constructor in agent_kinds below.
 *
 * Invariant: an agent owns its rng, seeded from the seed it was made with,
 * so the same seed and budget reproduce the same moves.
 */
#include "pips/agent.h"

#include <stdio.h>
#include <string.h>

#include "ai/agent_impl.h"

static bool random_choose(pips_agent *a, const void *state, pips_move *out, pips_error *err)
{
    const pips_game *g = a->game;
    size_t n = pips_node_moves(g, state, &a->rng, a->moves, NULL);
    if (n == 0)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "no legal move: the game is over");
    *out = a->moves[pips_rng_below(&a->rng, n)];
    return true;
}

static bool random_init(pips_agent *a, const char *params, pips_error *err)
{
    if (params && *params)
        return pips_fail(err, PIPS_ERR_ARG, "agent 'random' takes no parameters ('%s')", params);
    a->choose = random_choose;
    snprintf(a->spec, sizeof a->spec, "random");
    return true;
}

typedef struct agent_kind {
    const char *name;
    bool (*init)(pips_agent *a, const char *params, pips_error *err);
} agent_kind;

static const agent_kind agent_kinds[] = {
    {"random", random_init},
};

const char *const *pips_agent_kinds(void)
{
    static const char *const names[] = {"random", NULL};
    return names;
}

pips_agent *pips_agent_new(const pips_game *g, const char *spec, uint64_t seed,
                           pips_error *err)
{
    char kind[64];
    const char *colon = strchr(spec, ':');
    size_t klen = colon ? (size_t)(colon - spec) : strlen(spec);
    if (klen == 0 || klen >= sizeof kind) {
        pips_fail(err, PIPS_ERR_ARG, "agent '%.64s': expected KIND or KIND:PARAMS", spec);
        return NULL;
    }
    memcpy(kind, spec, klen);
    kind[klen] = '\0';
    for (size_t i = 0; i < sizeof agent_kinds / sizeof agent_kinds[0]; i++) {
        if (strcmp(agent_kinds[i].name, kind) != 0)
            continue;
        pips_agent *a = pips_calloc(g->alloc, 1, sizeof *a);
        if (!a) {
            pips_fail(err, PIPS_ERR_NOMEM, "out of memory for agent '%s'", kind);
            return NULL;
        }
        a->game = g;
        pips_rng_seed(&a->rng, seed);
        a->moves = pips_calloc(g->alloc, pips_max_moves(g), sizeof *a->moves);
        if (!a->moves) {
            pips_free(g->alloc, a);
            pips_fail(err, PIPS_ERR_NOMEM, "out of memory for agent '%s'", kind);
            return NULL;
        }
        if (!agent_kinds[i].init(a, colon ? colon + 1 : "", err)) {
            pips_agent_free(a);
            return NULL;
        }
        return a;
    }
    pips_fail(err, PIPS_ERR_ARG, "unknown agent '%s' (agents: random)", kind);
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

bool pips_agent_choose(pips_agent *a, const void *state, pips_move *out, pips_error *err)
{
    int who = pips_to_move(a->game, state);
    if (who < 0)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "not a decision node (%s)",
                         who == PIPS_OVER ? "the game is over" : "a chance event is due");
    return a->choose(a, state, out, err);
}

size_t pips_agent_analyze(pips_agent *a, const void *state, pips_move_eval *out, size_t max,
                          pips_error *err)
{
    if (a->analyze)
        return a->analyze(a, state, out, max, err);
    pips_move m;
    if (max == 0 || !pips_agent_choose(a, state, &m, err))
        return 0;
    out[0].move = m;
    out[0].value = 0.5;
    out[0].visits = 0;
    return 1;
}

void pips_agent_observe(pips_agent *a, const void *state_before, pips_move m)
{
    if (a->observe)
        a->observe(a, state_before, m);
}
