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
#include "pips/agent.h"

static void analyze_usage(FILE *f)
{
    fprintf(f,
            "usage: pips analyze GAME --state TEXT [--opt K=V]... [--agent SPEC] [--seed N]\n"
            "                    [--top K]\n\n"
            "Ranks the moves of the position TEXT (the game's state text, see\n"
            "'pips list' and the game's notation) with the agent SPEC (default 'hard';\n"
            "e.g. alphabeta:depth=6, mcts:iters=20000, expectimax:depth=2, greedy) and\n"
            "prints them best first by value: rank, move, value for the player to move\n"
            "(an estimate in [0, 1], or 'win', 'loss', 'draw' when the search proved\n"
            "the result), and visits (MCTS) or searched nodes. --top K prints only the\n"
            "K best.\n"
            "The last line is the best move alone.\n");
}

int cli_analyze(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        analyze_usage(stdout);
        return 0;
    }
    const char *prog = "pips analyze";
    const char *name = NULL, *state_text = NULL, *spec = "hard";
    const char *opts[PIPS_MAX_OPTIONS * 2];
    size_t nopts = 0;
    uint64_t seed = 1;
    long top = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (!strcmp(a, "--opt") && has_value) {
            if (nopts == sizeof opts / sizeof opts[0]) {
                fprintf(stderr, "%s: too many --opt\n", prog);
                return 2;
            }
            opts[nopts++] = argv[++i];
        } else if (!strcmp(a, "--state") && has_value) {
            state_text = argv[++i];
        } else if (!strcmp(a, "--agent") && has_value) {
            spec = argv[++i];
        } else if (!strcmp(a, "--seed") && has_value) {
            if (!cli_parse_seed(prog, argv[++i], &seed))
                return 2;
        } else if (!strcmp(a, "--top") && has_value) {
            if (!pips_parse_int(argv[++i], 1, 1000000, &top)) {
                fprintf(stderr, "%s: --top '%s': expected a whole number >= 1\n", prog,
                        argv[i]);
                return 2;
            }
        } else if (a[0] == '-' && a[1] == '-') {
            fprintf(stderr, "%s: unknown flag '%s' (or a missing value)\n", prog, a);
            return 2;
        } else if (!name) {
            name = a;
        } else {
            fprintf(stderr, "%s: unexpected argument '%s'\n", prog, a);
            return 2;
        }
    }
    if (!name || !state_text) {
        fprintf(stderr, "%s: %s\n", prog, !name ? "missing GAME" : "missing --state TEXT");
        analyze_usage(stderr);
        return 2;
    }
    pips_game *g = cli_make_game(prog, name, opts, nopts);
    if (!g)
        return 2;
    int rc = 2;
    pips_error err;
    pips_agent *agent = NULL;
    pips_move_eval *evals = NULL;
    void *state = pips_state_new(g, &err);
    if (!state)
        goto fail;
    if (!g->def->state_from_text(g, state_text, state, &err))
        goto fail;
    int who = pips_to_move(g, state);
    if (who < 0) {
        pips_fail(&err, PIPS_ERR_ILLEGAL, "--state: %s; nothing to analyse",
                  who == PIPS_OVER ? "the game is over" : "a chance event is due");
        goto fail;
    }
    agent = pips_agent_new(g, spec, seed, &err);
    if (!agent)
        goto fail;
    size_t cap = 2 * pips_max_moves(g);
    evals = calloc(cap, sizeof *evals);
    if (!evals) {
        pips_fail(&err, PIPS_ERR_NOMEM, "out of memory");
        rc = 1;
        goto fail;
    }
    double t0 = pips_now();
    size_t n = pips_agent_analyze(agent, state, evals, cap, &err);
    double dt = pips_now() - t0;
    if (n == 0)
        goto fail;
    printf("# %s, seat %d to move, agent %s, %.3f s\n", g->def->title, who + 1,
           pips_agent_spec(agent), dt);
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
    pips_game_free(g);
    return rc;
}
