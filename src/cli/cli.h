/*
 * cli.h — the subcommands of the `pips` command and the helpers they share
 * (option collection, game creation with errors printed to stderr).
 */
#ifndef PIPS_CLI_H
#define PIPS_CLI_H

#include "pips/game.h"

int cli_list(int argc, char **argv);
int cli_perft(int argc, char **argv);
int cli_playtest(int argc, char **argv);
int cli_analyze(int argc, char **argv);

/* True when argv[i] is --help or -h. */
int cli_wants_help(int argc, char **argv);
/* Creates GAME with the collected --opt values; prints the error on failure. */
pips_game *cli_make_game(const char *prog, const char *name, const char *const *opts,
                         size_t nopts);

#endif
