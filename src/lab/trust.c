/*
 * trust.c — what backs a variant's numbers: the exact value where the
 * solver settled it, otherwise what is known of the agents' strength at the
 * variant's seat count. The measurements are the lab's own table below,
 * each from a seeded run a reader can repeat (the source is named with it);
 * a spec or seat count not in it is reported as not measured.
 *
 * Invariant: the text depends only on the variant and the table, never on
 * the run, so reports stay reproducible.
 */
#include <stdio.h>
#include <string.h>

#include "lab/lab_impl.h"

/* A lone agent against a field of greedy (every seat position equally). */
typedef struct trust_entry {
    const char *game;
    int seats;
    const char *spec;
    const char *measured; /* "won 0.233 of 120 games as a lone agent against greedy" */
    const char *source;
} trust_entry;

static const trust_entry measured[] = {
    {"tictacdoh", 3, "mcts:iters=1000", "won 0.233 as a lone agent against greedy (baseline 0.333)",
     "issue 24"},
    {"tictacdoh", 4, "mcts:iters=1000", "won 0.167 as a lone agent against greedy (baseline 0.250)",
     "issue 24"},
    {"ziggurat", 3, "mcts:iters=1000", "won 0.533 as a lone agent against greedy (baseline 0.333)",
     "issue 24"},
    {"ziggurat", 4, "mcts:iters=1000", "won 0.550 as a lone agent against greedy (baseline 0.250)",
     "issue 24"},
    {"nimitz", 3, "mcts:iters=10000", "won 0.267 as a lone agent against greedy (baseline 0.333)",
     "issue 24"},
    {"noname", 3, "mcts:iters=10000", "won 0.333 as a lone agent against greedy (baseline 0.333)",
     "issue 24"},
};

void lab_trust(const pips_playtest *pt, const lab_variant *var, lab_trust_line *out)
{
    memset(out, 0, sizeof *out);
    if (var->exact.state == LAB_EXACT_SOLVED) {
        out->kind = "exact";
        snprintf(out->text, sizeof out->text,
                 "checked against the exact value: the first mover %s with perfect play",
                 var->exact.value == PIPS_WIN    ? "wins"
                 : var->exact.value == PIPS_LOSS ? "loses"
                                                 : "draws");
        return;
    }
    size_t len = 0;
    for (size_t k = 0; k < pt->n_agents; k++)
        for (size_t e = 0; e < sizeof measured / sizeof measured[0]; e++) {
            const trust_entry *m = &measured[e];
            if (strcmp(m->game, pt->game) || m->seats != var->np || strcmp(m->spec, pt->agents[k]))
                continue;
            len += (size_t)snprintf(out->text + len, len < sizeof out->text ? sizeof out->text - len : 0,
                                    "%s`%s` %s (%s)", len ? "; " : "", m->spec, m->measured,
                                    m->source);
        }
    if (len) {
        out->kind = "measured";
        char list[sizeof out->text];
        memcpy(list, out->text, sizeof list);
        snprintf(out->text, sizeof out->text, "not checked: %d seats; these agents were "
                                              "measured at this seat count: %.500s",
                 var->np, list);
        return;
    }
    out->kind = "unmeasured";
    snprintf(out->text, sizeof out->text,
             "not checked%s: %d seats; these agents were not measured at this seat count",
             var->exact.state == LAB_EXACT_UNKNOWN ? " (the exact solve did not settle)" : "",
             var->np);
}
