/*
 * cli.h — the subcommands of the `pips` command (one cmd_*.c each) and the
 * helpers they share, all in cli.c (option collection, --seed values, game
 * creation with errors printed to stderr, terminal drawing options); the
 * list of a position's moves is shared from cmd_moves.c.
 */
#ifndef PIPS_CLI_H
#define PIPS_CLI_H

#include "pips/game.h"
#include "pips/match.h"

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
int cli_moves(int argc, char **argv);
int cli_agents(int argc, char **argv);

/* A flag of a command, for cli_parse_flags: its name ("--games"), how
 * its value is read, and where it goes (out). */
typedef enum cli_flag_kind {
    CLI_FLAG_TEXT,   /* const char **: the value as given */
    CLI_FLAG_LONG,   /* long *: a whole number min..max */
    CLI_FLAG_DOUBLE, /* double *: a number lo..hi ("expected EXPECTED" otherwise) */
    CLI_FLAG_SEED,   /* uint64_t *: a --seed */
    CLI_FLAG_SWITCH, /* bool *: set true; takes no value */
    CLI_FLAG_CHOICE, /* parse(value, out) reads it ("expected EXPECTED" when false) */
    CLI_FLAG_LIST,   /* const char *out[cap]: one more value at *count (of the form EXPECTED) */
} cli_flag_kind;
typedef struct cli_flag {
    const char *name;
    cli_flag_kind kind;
    void *out;
    long min, max;
    double lo, hi;
    const char *expected;
    bool (*parse)(const char *text, void *out);
    size_t *count, cap;
} cli_flag;
/* The table's rows, one a kind. */
#define CLI_TEXT(flag, p) {.name = (flag), .kind = CLI_FLAG_TEXT, .out = (p)}
#define CLI_LONG(flag, p, lo_, hi_)                                                        \
    {.name = (flag), .kind = CLI_FLAG_LONG, .out = (p), .min = (lo_), .max = (hi_)}
#define CLI_DOUBLE(flag, p, lo_, hi_, what)                                                \
    {.name = (flag), .kind = CLI_FLAG_DOUBLE, .out = (p), .lo = (lo_), .hi = (hi_),        \
     .expected = (what)}
#define CLI_SEED(p) {.name = "--seed", .kind = CLI_FLAG_SEED, .out = (p)}
#define CLI_SWITCH(flag, p) {.name = (flag), .kind = CLI_FLAG_SWITCH, .out = (p)}
#define CLI_CHOICE(flag, p, parse_, what)                                                  \
    {.name = (flag), .kind = CLI_FLAG_CHOICE, .out = (p), .parse = (parse_), .expected = (what)}
#define CLI_LIST(flag, array, n, cap_, what)                                               \
    {.name = (flag), .kind = CLI_FLAG_LIST, .out = (array), .count = (n), .cap = (cap_),    \
     .expected = (what)}
/* Reads argv[1..] by the table: each flag's value into its out, and the one
 * argument that is no flag (the GAME) into *name. False, with the message
 * on stderr, at the first flag that is unknown, lacks its value or has a
 * bad one ("pips ladder: --games '0': expected a whole number from 1 to
 * 100000000"). */
bool cli_parse_flags(const char *prog, int argc, char **argv, const cli_flag *flags,
                     size_t n_flags, const char **name);
/* The same for a command with several positional arguments (perft's GAME
 * and DEPTH): they fill names[0..n_names-1] in order, and one more is
 * "unexpected argument". */
bool cli_parse_flags_args(const char *prog, int argc, char **argv, const cli_flag *flags,
                          size_t n_flags, const char **names, size_t n_names);
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
/* Reads a --seed value (a whole number 0..2^64-1) into *seed; prints the
 * error, with the range, and returns 0 when it is not one. */
int cli_parse_seed(const char *prog, const char *text, uint64_t *seed);
/* How to draw boards on a terminal (tty) or not: Unicode and colour on a
 * terminal, except no colour when NO_COLOR is set to a non-empty value
 * (https://no-color.org). */
pips_render_opts cli_render_opts(bool tty);
/* The exit status for a failure reported in err (the scheme of
 * cli_doc_exit_status): 1 when the work failed (a file, a record, memory),
 * 3 when a budget ran out, 2 for bad input (usage, options, specs, states). */
int cli_exit_code(const pips_error *err);
/* Routes stderr through a filter that escapes control characters (other
 * than newline, tab and carriage return) and bytes that are not UTF-8 as
 * \xHH, so input echoed in a message cannot drive the terminal. */
void cli_escape_stderr(void);
/* Appends text to out with the same escaping (for messages on stdout). */
void cli_escape_text(const char *text, pips_str *out);
/* Prints move i of m (0-based) numbered the one way every command numbers
 * moves, as records and their errors do: the 1-based ply, then who moved,
 * "12. seat 2 (hard (mcts:iters=10000)): M@3,0" or "13. roll: 4"; who names
 * the seat's player (NULL: the match's seat, "human" or a spec). */
void cli_print_ply(const pips_match *m, size_t i, const char *who);
/* What a move's value means, for the line above a list of values (analyze,
 * the hint): the expected return of the seat to move, or its proven result. */
const char *cli_value_legend(const pips_game *g);
/* The width to wrap text for stdout: the terminal's columns, 80 when stdout
 * is not a terminal (at least 40). */
int cli_text_width(void);
/* Prints text reflowed to width: a paragraph starts at a blank line, at a
 * line that opens with a ruling id ("NIM-R4 ...") or "- "; an indented
 * line continues the paragraph and sets its
 * hanging indent (2 for a ruling or an item, else none). */
void cli_print_reflowed(const char *text, int width);
/* Where an installed pips keeps a file of the docs (PREFIX/share/doc/pips/
 * REL), else the source tree's docs/REL it was built from; NULL when
 * neither exists. buf holds the path. */
const char *cli_docs_path(const char *rel, char *buf, size_t size);
/* The folder of the running pips (PREFIX/bin) into buf; false when it
 * cannot be known. */
bool cli_exe_dir(char *buf, size_t size);
/* Prints the moves of state whose text holds filter ("" for all): a heading
 * with the seat to move and the count, then the moves grouped by piece
 * (cmd_moves.c); flat: one move a line and nothing else. Returns how many
 * were printed. */
size_t cli_print_moves(const pips_game *g, const void *state, const char *filter, bool flat);
/* Creates GAME with the collected --opt values; prints the error on failure. */
pips_game *cli_make_game(const char *prog, const char *name, const char *const *opts,
                         size_t nopts);

/* cli_lab.c: the lab's long commands (playtest, ladder, skill). */
/* --progress: the bar on a terminal (auto), always the bar, a line at
 * every tenth of the run and at least once a minute (lines: for logs and
 * scripts), or nothing. */
typedef enum {
    CLI_PROGRESS_AUTO,
    CLI_PROGRESS_BAR,
    CLI_PROGRESS_LINES,
    CLI_PROGRESS_OFF
} cli_progress_mode;
typedef struct cli_progress {
    double start;        /* pips_now() at the start */
    unsigned long first; /* work done before (a resumed run) */
    bool started;
    const char *unit;    /* "games" when NULL */
    const char *prog;    /* each line's prefix ("pips playtest") in lines mode */
    cli_progress_mode mode;
    double last_line;    /* pips_now() at the last line */
    unsigned long last_tenth;
} cli_progress;
/* A progress callback (ud: a cli_progress): the bar with the time left. */
void cli_progress_bar(void *ud, unsigned long done, unsigned long total);
/* A progress callback: one line with the time left at each tenth of the
 * run, and whenever a minute has passed since the last line. */
void cli_progress_lines(void *ud, unsigned long done, unsigned long total);
/* The callback --progress asked for (NULL for none): auto draws the bar
 * only when stderr is a terminal. */
void (*cli_progress_fn(const cli_progress *ps))(void *, unsigned long, unsigned long);
/* A CLI_CHOICE parser for --progress (auto, bar, lines or off). */
bool cli_parse_progress(const char *text, void *mode);
/* Turns SIGINT and SIGTERM into a stop flag (for the lab's opts.stop). */
const volatile int *cli_catch_stop(void);
bool cli_stopped(void);
/* True when --out DIR can be written (an existing writable folder, or a
 * new one in a writable folder); otherwise prints why and returns false. */
bool cli_check_out_dir(const char *prog, const char *dir);
/* --resume DIR: it becomes the --out folder (another --out is refused) and
 * must hold a stopped run's state.json; state_path receives OUT/state.json
 * ("" without a folder). False with a message on stderr. */
bool cli_resume_dir(const char *prog, const char *resume_dir, const char **out_dir,
                    char *state_path, size_t cap);
/* The --seats or --agents list split into a new copy of text (free it):
 * cli_split_specs, at most cap entries in out (*n of them). NULL, with the
 * message on stderr and the exit status in *status, when memory runs out
 * or the list is longer ("at most CAP WHAT"). */
char *cli_split_list(const char *prog, const char *text, char **out, size_t cap,
                     const char *what, size_t *n, int *status);
/* The end of a lab run whose reports are written (rc: 0, or 1 when they
 * could not be): a stopped run (partial) says what its results cover and
 * how to go on, and exits 130 unless rc already failed; a finished run with
 * a folder removes its state (nothing to resume). Returns the exit status. */
int cli_lab_end(const char *prog, bool partial, const char *covers, const char *out_dir,
                const char *state_path, int rc);
int cli_skill(int argc, char **argv);

#endif
