/*
 * cli.h — the subcommands of the `pips` command (one cmd_*.c each) and the
 * helpers they share, all in cli.c (option collection, --seed values, game
 * creation with errors printed to stderr, terminal drawing options).
 */
#ifndef PIPS_CLI_H
#define PIPS_CLI_H

#include "pips/game.h"

int cli_list(int argc, char **argv);
/* One line of an option: "INDENTkey=default  (accepted values) description". */
void cli_print_option(const pips_option_def *od, const char *indent);
int cli_perft(int argc, char **argv);
int cli_serve(int argc, char **argv);
int cli_rules(int argc, char **argv);
int cli_solve(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_play(int argc, char **argv);
int cli_replay(int argc, char **argv);
int cli_playtest(int argc, char **argv);
int cli_analyze(int argc, char **argv);
int cli_state(int argc, char **argv);
int cli_engine(int argc, char **argv);

/* Takes the KEY=VALUE after argv[*i] (an --opt) into opts; 0 on error. */
int cli_collect_opt(const char *prog, int argc, char **argv, int *i, const char **opts,
                    size_t *nopts);
/* True when argv[i] is --help or -h. */
int cli_wants_help(int argc, char **argv);
/* Reads a --seed value (a whole number >= 0) into *seed; prints the error
 * and returns 0 when it is not one. */
int cli_parse_seed(const char *prog, const char *text, uint64_t *seed);
/* How to draw boards on a terminal (tty) or not: Unicode and colour on a
 * terminal, except no colour when NO_COLOR is set to a non-empty value
 * (https://no-color.org). */
pips_render_opts cli_render_opts(bool tty);
/* Creates GAME with the collected --opt values; prints the error on failure. */
pips_game *cli_make_game(const char *prog, const char *name, const char *const *opts,
                         size_t nopts);

#endif
