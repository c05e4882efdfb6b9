/*
 * help.h — the one description of the `pips` command line: every command
 * with its synopsis, description and options. `pips --help`, `pips CMD
 * --help`, the man page pips.1 and the bash/zsh completion scripts are all
 * printed from this table (the last two by the build's pips_docgen tool), so
 * they cannot drift apart. The shared argument helper (--key=value) reads
 * it to know which long options take a value.
 *
 * Invariants: every command that main.c dispatches has an entry; an option
 * with arg == NULL is a switch and takes no value.
 */
#ifndef PIPS_CLI_HELP_H
#define PIPS_CLI_HELP_H

#include <stdio.h>

typedef struct cli_opt_doc {
    const char *flag; /* "--seed" */
    const char *arg;  /* "N", or NULL for a switch */
    const char *help; /* one sentence */
} cli_opt_doc;

typedef struct cli_cmd_doc {
    const char *name;        /* "perft" */
    const char *summary;     /* one line for the command list */
    const char *synopsis;    /* after "pips NAME "; lines split by '\n' */
    const char *description; /* paragraphs split by a blank line */
    const cli_opt_doc *opts; /* ends with a {NULL} entry */
    const char *args;        /* what the positional arguments complete to:
                                "game", "file", "command" or NULL */
} cli_cmd_doc;

size_t cli_doc_count(void);
const cli_cmd_doc *cli_doc_at(size_t i);
const cli_cmd_doc *cli_doc_find(const char *name);
/* The option `flag` of d, or NULL. */
const cli_opt_doc *cli_doc_option(const cli_cmd_doc *d, const char *flag);

/* The overview: what pips is, the command list, where to read more. */
void cli_print_overview(FILE *f);
/* The full help of one command (`pips CMD --help`). */
void cli_print_help(FILE *f, const cli_cmd_doc *d);
/* The usage lines of one command and a pointer to --help (after an error). */
void cli_print_usage(FILE *f, const cli_cmd_doc *d);

/* Prints text from column col (the cursor's), wrapping at spaces so no line
 * passes width - 1 columns (a word longer than that stands alone); lines
 * after the first start at column indent. Ends with a newline. */
void cli_print_wrapped(FILE *f, const char *text, int indent, int col, int width);

/* The extra sections of the man page, shared with the overview. */
extern const char cli_doc_environment[];
extern const char cli_doc_exit_status[];

/* Rewrites every `--key=value` in argv[1..argc-1] of command d into the two
 * arguments `--key` `value` (in place into out, which has room for 2*argc
 * entries); a value after an option that takes one is never split. Returns
 * the new argc, or -1 after printing an error for a flag d does not list
 * ("unknown flag") or a switch given a value (`--divide=1`). */
int cli_split_long_opts(const cli_cmd_doc *d, int argc, char **argv, char **out);

#endif
