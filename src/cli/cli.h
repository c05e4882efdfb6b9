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
int cli_ladder(int argc, char **argv);

/* Takes the KEY=VALUE after argv[*i] (an --opt) into opts; 0 on error. */
int cli_collect_opt(const char *prog, int argc, char **argv, int *i, const char **opts,
                    size_t *nopts);
/* Splits a list of agent specs in place at commas, except a comma followed
 * by KEY=VALUE (an agent's own parameter): "mcts:iters=9,threads=2,random"
 * is two specs. Returns the count (entries past cap are not stored). */
size_t cli_split_specs(char *list, char **out, size_t cap);
/* The positional argument of a command (its GAME): stores it in *name, or
 * prints why not (an unknown flag, a second name) and returns 0. */
int cli_take_name(const char *prog, const char *arg, const char **name);
/* Reads a whole number lo..hi given to flag; prints the error and returns
 * 0 when it is not one. */
int cli_parse_long(const char *prog, const char *flag, const char *text, long lo, long hi,
                   long *out);
/* Reads a number given to flag into *out when lo <= it <= hi (an open
 * bound: pass nextafter of it); otherwise prints "flag 'text': expected
 * EXPECTED" and returns 0. */
int cli_parse_double(const char *prog, const char *flag, const char *text, double lo, double hi,
                     const char *expected, double *out);
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

/* cli_lab.c: the lab's long commands (playtest, ladder, skill). */
typedef struct cli_progress {
    double start;        /* pips_now() at the start */
    unsigned long first; /* work done before (a resumed run) */
    bool started;
    const char *unit;    /* "games" when NULL */
} cli_progress;
/* A progress callback (ud: a cli_progress): the bar with the time left. */
void cli_progress_bar(void *ud, unsigned long done, unsigned long total);
/* Turns SIGINT and SIGTERM into a stop flag (for the lab's opts.stop). */
const volatile int *cli_catch_stop(void);
bool cli_stopped(void);
/* True when --out DIR can be written (an existing writable folder, or a
 * new one in a writable folder); otherwise prints why and returns false. */
bool cli_check_out_dir(const char *prog, const char *dir);
int cli_skill(int argc, char **argv);

#endif
