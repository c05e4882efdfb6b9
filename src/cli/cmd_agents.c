/*
 * cmd_agents.c — `pips agents`: every agent kind with what it does and its
 * parameters (from the library's table, so none is missing), then the
 * levels and the spec each stands for: in every game, or in GAME with the
 * options given (a level's spec can depend on them, e.g. the seat count).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "pips/agent.h"

static const char *const levels[] = {"easy", "medium", "hard", "max"};

/* "hard (mcts:iters=10000)": the spec an agent made from the level has. */
static void print_level(const pips_game *g, const char *level, int width)
{
    pips_error err;
    pips_agent *a = pips_agent_new(g, level, 1, &err);
    char label[PIPS_AGENT_LABEL_MAX];
    pips_str line;
    pips_str_init(&line, NULL);
    pips_str_catf(&line, "%s", a ? pips_agent_label(a, label, sizeof label) : level);
    if (!a)
        pips_str_catf(&line, ": not available here (%s)", err.msg);
    printf("    ");
    cli_print_wrapped(stdout, pips_str_cstr(&line), 6, 4, width);
    pips_str_free(&line);
    pips_agent_free(a);
}

int cli_agents(int argc, char **argv)
{
    const char *prog = "pips agents";
    const char *name = NULL, *opts[PIPS_MAX_OPTIONS];
    size_t nopts = 0;
    const cli_flag flags[] = {CLI_LIST("--opt", opts, &nopts, PIPS_MAX_OPTIONS, "KEY=VALUE")};
    if (!cli_parse_flags(prog, argc, argv, flags, 1, &name))
        return 2;
    if (nopts && !name) {
        fprintf(stderr, "%s: --opt needs GAME\n", prog);
        return 2;
    }
    pips_game *one = name ? cli_make_game(prog, name, opts, nopts) : NULL;
    if (name && !one)
        return 2;
    int width = cli_text_width();
    printf("Seats are 'human' or an agent: KIND, KIND:KEY=VALUE[,KEY=VALUE]..., a level\n"
           "(easy, medium, hard, max) or KIND:LEVEL. Parameters, defaults in parentheses:\n\n");
    for (size_t i = 0; i < pips_agent_kind_count(); i++) {
        const pips_agent_kind_info *k = pips_agent_kind_at(i);
        pips_str line;
        pips_str_init(&line, NULL);
        pips_str_catf(&line, "%s: %s. Parameters: %s.", k->name, k->summary, k->params);
        cli_print_wrapped(stdout, pips_str_cstr(&line), 4, 0, width);
        pips_str_free(&line);
    }
    printf("\nLevels take no parameters; each stands for a spec chosen per game%s:\n",
           one ? " and options" : "");
    for (size_t gi = 0; gi < pips_game_count(); gi++) {
        const pips_game_def *d = pips_game_def_at(gi);
        if (one && one->def != d)
            continue;
        pips_game *g = one ? one : cli_make_game(prog, d->name, NULL, 0);
        if (!g)
            return 1;
        printf("  %s:\n", d->name);
        for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++)
            print_level(g, levels[l], width);
        if (g != one)
            pips_game_free(g);
    }
    pips_game_free(one);
    char path[4096];
    const char *page = cli_docs_path("ai.md", path, sizeof path);
    printf("\n%s says more about every kind, parameter and level.\n",
           page ? page : "docs/ai.md in the pips sources");
    return 0;
}
