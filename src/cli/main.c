/*
 * main.c — the `pips` command: dispatches subcommands to their handlers.
 * A thin front end: every rule and algorithm lives in libpips.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"list", cli_list, "games with their options and defaults"},
    {"rules", cli_rules, "the rules of a game as implemented, with ruling ids"},
    {"play", cli_play, "play in the terminal against people or AI"},
    {"replay", cli_replay, "validate a game record and show its positions"},
    {"perft", cli_perft, "count move sequences of a given depth"},
    {"serve", cli_serve, "run the game server: web UI and JSON API"},
    {"solve", cli_solve, "solve a small game exactly: win, loss or draw"},
    {"bench", cli_bench, "fixed benchmark workload per game"},
    {"playtest", cli_playtest, "play many games between agents and report statistics"},
    {"analyze", cli_analyze, "rank the moves of a position with an agent"},
    {"ladder", cli_ladder, "rate agents: a round robin and Elo ratings with intervals"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: pips COMMAND [ARGS]...\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n'pips COMMAND --help' describes each command.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "pips: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
