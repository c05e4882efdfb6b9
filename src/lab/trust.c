/*
 * trust.c — what backs a variant's numbers: the exact value where the
 * solver settled it, otherwise what is known of the agents' strength at the
 * variant's seat count. The measurements are docs/ai.md's N-seat ladder
 * table (its rows of a lone agent against greedy), compiled in from there,
 * so the figures are kept in one place; a spec or seat count not in it is
 * reported as not measured.
 *
 * Invariant: the text depends only on the variant and the table, never on
 * the run, so reports stay reproducible.
 */
#include <stdio.h>
#include <string.h>

#include "lab/lab_impl.h"

/* A lone agent against a field of greedy (every seating equally). */
typedef struct trust_entry {
    const char *game;
    int seats;
    const char *spec; /* as docs/ai.md writes it */
    int games, wins;
    double rate, lo, hi; /* the lone agent's win rate and its 95% Wilson interval */
    double baseline;     /* 1/n */
} trust_entry;

/* The rows of docs/ai.md's N-seat ladder table ("The ladder") where the
 * field is greedy, generated at build time by cmake/trust_table.cmake. */
#include "trust_table.h"

/* The spec as the lab writes it (pt->agents), or the text when the agent
 * cannot be made. */
static void normalised(const pips_game *g, const char *spec, char *out, size_t cap)
{
    pips_agent *a = g ? pips_agent_new(g, spec, 0, NULL) : NULL;
    snprintf(out, cap, "%s", a ? pips_agent_spec(a) : spec);
    pips_agent_free(a);
}

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
    pips_game *g = pips_game_new(pt->game, NULL, 0, NULL, NULL);
    for (size_t k = 0; k < pt->n_agents; k++)
        for (size_t e = 0; e < sizeof measured / sizeof measured[0]; e++) {
            const trust_entry *m = &measured[e];
            char spec[sizeof pt->agents[0]];
            if (strcmp(m->game, pt->game) || m->seats != var->np)
                continue;
            normalised(g, m->spec, spec, sizeof spec);
            if (strcmp(spec, var->agents[k]))
                continue;
            len += (size_t)snprintf(
                out->text + len, len < sizeof out->text ? sizeof out->text - len : 0,
                "%s`%s` won %.3f [%.3f, %.3f] (%d of %d games) as a lone agent against greedy "
                "(1/n = %.3f)",
                len ? "; " : "", m->spec, m->rate, m->lo, m->hi, m->wins, m->games, m->baseline);
        }
    pips_game_free(g);
    if (len) {
        out->kind = "measured";
        char list[sizeof out->text];
        memcpy(list, out->text, sizeof list);
        snprintf(out->text, sizeof out->text,
                 "not checked: %d seats; these agents measured against greedy at this seat "
                 "count: %.500s (docs/ai.md)",
                 var->np, list);
        return;
    }
    out->kind = "unmeasured";
    snprintf(out->text, sizeof out->text,
             "not checked%s: %d seats; these agents were not measured at this seat count",
             var->exact.state == LAB_EXACT_UNKNOWN ? " (the exact solve did not settle)" : "",
             var->np);
}
