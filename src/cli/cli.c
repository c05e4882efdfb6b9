/*
 * cli.c — the helpers every `pips` command shares: --opt collection, --help
 * detection, --seed values, making a game with its error printed, and how a
 * board is drawn on this terminal. Commands call in here and never into
 * each other.
 */
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_parse_double(const char *prog, const char *flag, const char *text, double lo, double hi,
                     const char *expected, double *out)
{
    char *end;
    double v = strtod(text, &end);
    if (*text && !*end && v >= lo && v <= hi) {
        *out = v;
        return 1;
    }
    fprintf(stderr, "%s: %s '%s': expected %s\n", prog, flag, text, expected);
    return 0;
}

int cli_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return 1;
    return 0;
}

int cli_parse_seed(const char *prog, const char *text, uint64_t *seed)
{
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (!*text || *end || *text == '-') {
        fprintf(stderr, "%s: --seed '%s': expected a whole number >= 0\n", prog, text);
        return 0;
    }
    *seed = v;
    return 1;
}

pips_game *cli_make_game(const char *prog, const char *name, const char *const *opts,
                         size_t nopts)
{
    pips_error err;
    pips_game *g = pips_game_new(name, opts, nopts, NULL, &err);
    if (!g)
        fprintf(stderr, "%s: %s\n", prog, err.msg);
    return g;
}

void cli_print_option(const pips_option_def *od, const char *indent)
{
    pips_str acc;
    pips_str_init(&acc, NULL);
    pips_option_accepts(od, &acc);
    printf("%s%s=%s  (%s) %s\n", indent, od->key, od->default_value, pips_str_cstr(&acc),
           od->help);
    pips_str_free(&acc);
}

pips_render_opts cli_render_opts(bool tty)
{
    const char *no_color = getenv("NO_COLOR");
    pips_render_opts ro = {tty, tty && !(no_color && *no_color)};
    return ro;
}

int cli_collect_opt(const char *prog, int argc, char **argv, int *i, const char **opts,
                    size_t *nopts)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "%s: --opt needs KEY=VALUE\n", prog);
        return 0;
    }
    if (*nopts >= PIPS_MAX_OPTIONS) {
        fprintf(stderr, "%s: too many --opt (at most %d)\n", prog, PIPS_MAX_OPTIONS);
        return 0;
    }
    opts[(*nopts)++] = argv[++*i];
    return 1;
}

int cli_take_name(const char *prog, const char *arg, const char **name)
{
    if (arg[0] == '-' && arg[1] == '-') {
        fprintf(stderr, "%s: unknown flag '%s' (or a missing value)\n", prog, arg);
        return 0;
    }
    if (*name) {
        fprintf(stderr, "%s: unexpected argument '%s'\n", prog, arg);
        return 0;
    }
    *name = arg;
    return 1;
}

int cli_parse_long(const char *prog, const char *flag, const char *text, long lo, long hi,
                   long *out)
{
    if (pips_parse_int(text, lo, hi, out))
        return 1;
    fprintf(stderr, "%s: %s '%s': expected a whole number from %ld to %ld\n", prog, flag, text,
            lo, hi);
    return 0;
}
