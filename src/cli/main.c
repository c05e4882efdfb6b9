/*
 * main.c — the `pips` command: dispatches subcommands to their handlers.
 * A thin front end: every rule and algorithm lives in libpips. Help for
 * every command (`--help`, `-h`, `pips help CMD`) comes from the table in
 * help.c, always on stdout with exit 0; `--key=value` is split here, once,
 * for every command.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_info.h"
#include "cli/cli.h"
#include "cli/help.h"
#include "pips/version.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
} command;

static int cli_version(int argc, char **argv);
static int cli_help(int argc, char **argv);

static const command commands[] = {
    {"list", cli_list},         {"rules", cli_rules},       {"play", cli_play},
    {"replay", cli_replay},     {"perft", cli_perft},       {"serve", cli_serve},
    {"solve", cli_solve},       {"bench", cli_bench},       {"playtest", cli_playtest},
    {"analyze", cli_analyze},   {"engine", cli_engine},     {"version", cli_version},
    {"help", cli_help},         {"state", cli_state},
    {"ladder", cli_ladder},
    {"skill", cli_skill},
    {"moves", cli_moves},
    {"agents", cli_agents},
};

static int cli_version(int argc, char **argv)
{
    if (argc > 1) {
        fprintf(stderr, "pips version: unexpected argument '%s'\n", argv[1]);
        return 2;
    }
    printf("pips %s", PIPS_BUILD_VERSION);
    if (PIPS_BUILD_GIT[0])
        printf(" (git %s)", PIPS_BUILD_GIT);
    printf("\nlibpips %s\n", pips_version());
    return 0;
}

static int cli_help(int argc, char **argv)
{
    if (argc == 1) {
        cli_print_overview(stdout);
        return 0;
    }
    bool self = !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h");
    const cli_cmd_doc *d = cli_doc_find(self ? "help" : argv[1]);
    if (!d || argc > 2) {
        fprintf(stderr, "pips help: %s '%s'\n", d ? "unexpected argument" : "unknown command",
                argv[d ? 2 : 1]);
        cli_print_overview(stderr);
        return 2;
    }
    cli_print_help(stdout, d);
    return 0;
}

/* --rules FILE, --lua-steps N and --lua-mb N are the game options rules=,
 * lua_steps= and lua_mb= (docs/lua.md): rewritten in place as --opt K=V, so
 * every command takes them the way it takes any option. Returns the count,
 * or -1 after printing an error. */
static int script_flags(const cli_cmd_doc *doc, int n, char **args, char **owned, int cap)
{
    if (!doc || !cli_doc_option(doc, "--rules"))
        return n;
    static const char *const flags[][2] = {
        {"--rules", "rules"}, {"--lua-steps", "lua_steps"}, {"--lua-mb", "lua_mb"}};
    int used = 0;
    for (int k = 1; k < n; k++)
        for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++) {
            if (strcmp(args[k], flags[f][0]) != 0)
                continue;
            if (k + 1 >= n) {
                fprintf(stderr, "pips %s: %s needs a value\n", args[0], flags[f][0]);
                return -1;
            }
            if (used == cap) {
                fprintf(stderr, "pips %s: too many script flags\n", args[0]);
                return -1;
            }
            size_t len = strlen(flags[f][1]) + strlen(args[k + 1]) + 2;
            char *kv = malloc(len);
            if (!kv) {
                fprintf(stderr, "pips: out of memory\n");
                return -1;
            }
            snprintf(kv, len, "%s=%s", flags[f][1], args[k + 1]);
            owned[used++] = kv;
            args[k] = "--opt";
            args[k + 1] = kv;
            k++;
            break;
        }
    return n;
}

int main(int argc, char **argv)
{
    cli_escape_stderr();
    if (argc < 2) {
        cli_print_overview(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        cli_print_overview(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))
        return cli_version(1, argv + 1);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(argv[1], commands[i].name) != 0)
            continue;
        /* every command has an entry in help.c (tests/cli/unix.sh checks); without
         * one the command prints its own help */
        const cli_cmd_doc *doc = cli_doc_find(commands[i].name);
        if (doc && strcmp(commands[i].name, "help") != 0 && cli_wants_help(argc - 1, argv + 1)) {
            cli_print_help(stdout, doc);
            return 0;
        }
        char **args = malloc(sizeof *args * (2 * (size_t)argc + 1));
        if (!args) {
            fprintf(stderr, "pips: out of memory\n");
            return 1;
        }
        int n = cli_split_long_opts(doc, argc - 1, argv + 1, args);
        char *owned[16] = {NULL};
        n = n < 0 ? n : script_flags(doc, n, args, owned, 16);
        int rc = n < 0 ? 2 : commands[i].run(n, args);
        for (int k = 0; k < 16; k++)
            free(owned[k]);
        free(args);
        return rc;
    }
    fprintf(stderr, "pips: unknown command '%s'\n", argv[1]);
    cli_print_overview(stderr);
    return 2;
}
