/*
 * agent_impl.h — the private shape of an agent: common fields plus the
 * methods a kind fills in at init. Kinds keep their own data in `impl`.
 */
#ifndef PIPS_AGENT_IMPL_H
#define PIPS_AGENT_IMPL_H

#include "pips/agent.h"

struct pips_agent {
    const pips_game *game;
    pips_rng rng;
    pips_move *moves; /* max_moves scratch */
    char spec[128];
    void *impl;
    bool (*choose)(pips_agent *a, const void *state, pips_move *out, pips_error *err);
    size_t (*analyze)(pips_agent *a, const void *state, pips_move_eval *out, size_t max,
                      pips_error *err);
    void (*observe)(pips_agent *a, const void *state_before, pips_move m);
    void (*destroy)(pips_agent *a);
};

#endif
