/*
 * cmd_analyze.c — `pips analyze`: ranks the moves of a position with an
 * agent and prints them best first by value (proven results as win, loss,
 * draw) with their visits; the last line is the best move's text alone, for
 * scripts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "pips/agent.h"
#include "pips/match.h"
#include "core/unchecked.h"

/* Loads the record at path, which must be of the game `name` with at least
 * `ply` moves. Prints the error and returns NULL on failure, with *status 1
 * when the file cannot be read or is no valid record, 2 when it does not fit. */
static pips_match *load_record(const char *prog, const char *name, const char *path, long ply,
                               int *status)
{
    pips_error err;
    pips_match *m = pips_match_load(path, NULL, &err);
    *status = 2;
    if (!m) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        *status = cli_exit_code(&err);
        return NULL;
    }
    if (m->game->def != pips_game_find(name)) {
        fprintf(stderr, "%s: '%s' is a record of %s, not %s\n", prog, path,
                m->game->def->name, name);
    } else if (ply > (long)m->n_moves) {
        fprintf(stderr, "%s: --ply %ld: '%s' has only %zu moves\n", prog, ply, path,
                m->n_moves);
    } else {
        return m;
    }
    pips_match_free(m);
    return NULL;
}

int cli_analyze(int argc, char **argv)
{
    const char *prog = "pips analyze";
    const char *name = NULL, *state_text = NULL, *record = NULL, *spec = "hard";
    const char *opts[PIPS_MAX_OPTIONS * 2];
    size_t nopts = 0;
    uint64_t seed = 1;
    long top = 0, ply = -1;
    const cli_flag flags[] = {
        CLI_LIST("--opt", opts, &nopts, sizeof opts / sizeof opts[0], "KEY=VALUE"),
        CLI_TEXT("--state", &state_text),
        CLI_TEXT("--record", &record),
        CLI_LONG("--ply", &ply, 0, 100000000L),
        CLI_TEXT("--agent", &spec),
        CLI_SEED(&seed),
        CLI_LONG("--top", &top, 1, 1000000),
    };
    if (!cli_parse_flags(prog, argc, argv, flags, sizeof flags / sizeof *flags, &name))
        return 2;
    const char *problem = !name                   ? "missing GAME"
                          : !state_text == !record  ? "give one of --state TEXT and --record FILE"
                          : ply >= 0 && !record      ? "--ply needs --record"
                          : record && nopts           ? "--opt cannot change a record's options"
                                                      : NULL;
    if (problem) {
        fprintf(stderr, "%s: %s\n", prog, problem);
        cli_print_usage(stderr, cli_doc_find("analyze"));
        return 2;
    }
    int load_status = 2;
    pips_match *rec = record ? load_record(prog, name, record, ply, &load_status) : NULL;
    pips_game *g = rec ? rec->game : record ? NULL : cli_make_game(prog, name, opts, nopts);
    if (!g)
        return load_status;
    int rc = 2;
    pips_error err;
    pips_agent *agent = NULL;
    pips_move_eval *evals = NULL;
    void *state = pips_state_new(g, &err);
    if (!state)
        goto fail;
    if (rec) { /* the position after the first `ply` moves (-1: all) */
        size_t at = ply < 0 ? rec->n_moves : (size_t)ply, ss = g->def->state_size;
        memcpy(state, at < rec->n_moves ? rec->history + at * ss : rec->state, ss);
    } else if (!g->def->state_from_text(g, state_text, state, &err)) {
        goto fail;
    }
    int who = pips_to_move(g, state);
    if (who < 0) {
        pips_fail(&err, PIPS_ERR_ILLEGAL, "%s: %s; nothing to analyse",
                  record ? "the position" : "--state",
                  who == PIPS_OVER ? "the game is over" : "a chance event is due");
        goto fail;
    }
    agent = pips_agent_new(g, spec, seed, &err);
    if (!agent)
        goto fail;
    size_t cap = pips_agent_analyze_max(agent);
    evals = calloc(cap, sizeof *evals);
    if (!evals) {
        pips_fail(&err, PIPS_ERR_NOMEM, "out of memory");
        rc = 1;
        goto fail;
    }
    double t0 = pips_now();
    size_t n = agent_analyze_unchecked(agent, state, evals, cap, &err);
    double dt = pips_now() - t0;
    if (n == 0)
        goto fail;
    char label[PIPS_AGENT_LABEL_MAX];
    size_t ply_next = rec ? (ply < 0 ? rec->n_moves : (size_t)ply) + 1 : 0;
    if (ply_next)
        printf("# %s, move %zu: seat %d to move, agent %s, %.3f s\n", g->def->title, ply_next,
               who + 1, pips_agent_label(agent, label, sizeof label), dt);
    else
        printf("# %s, seat %d to move, agent %s, %.3f s\n", g->def->title, who + 1,
               pips_agent_label(agent, label, sizeof label), dt);
    if (*pips_agent_note(agent))
        printf("# %s\n", pips_agent_note(agent));
    printf("# value: %s\n", cli_value_legend(g));
    printf("# rank move value visits\n");
    size_t show = top > 0 && (size_t)top < n ? (size_t)top : n;
    char text[PIPS_MOVE_TEXT_MAX];
    for (size_t i = 0; i < show; i++) {
        g->def->move_to_text(g, state, evals[i].move, text);
        char value[32];
        pips_move_eval_text(&evals[i], pips_num_players(g), value, sizeof value);
        printf("%zu %s %s %llu\n", i + 1, text, value, (unsigned long long)evals[i].visits);
    }
    g->def->move_to_text(g, state, evals[0].move, text);
    printf("%s\n", text);
    rc = 0;
fail:
    if (rc)
        fprintf(stderr, "%s: %s\n", prog, err.msg);
    free(evals);
    pips_agent_free(agent);
    pips_state_free(g, state);
    if (rec)
        pips_match_free(rec);
    else
        pips_game_free(g);
    return rc;
}
