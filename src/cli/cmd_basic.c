/*
 * cmd_basic.c — `pips list` and `pips perft`.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/help.h"

/* The games `pips list` shows: the built-in ones, or the Lua games named
 * (held: release each). Returns the count, or 0 after printing an error. */
static size_t listed_games(int argc, char **argv, const pips_game_def **out)
{
    size_t n = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            continue;
        pips_error err;
        if (!pips_game_name_is_lua(argv[i]) || n == 64 ||
            !(out[n] = pips_game_def_load(argv[i], &err))) {
            fprintf(stderr, "pips list: %s\n",
                    pips_game_name_is_lua(argv[i]) ? err.msg : "expected --json or FILE.lua");
            while (n)
                pips_game_def_release(out[--n]);
            return 0;
        }
        n++;
    }
    if (n)
        return n;
    for (size_t i = 0; i < pips_game_count(); i++)
        out[n++] = pips_game_def_at(i);
    return n;
}

/* `pips list --json`: {"games": [each game's schema]}. */
static int list_json(const pips_game_def *const *defs, size_t n)
{
    pips_str out;
    pips_str_init(&out, NULL);
    pips_str_cat(&out, "{\"games\":[");
    for (size_t i = 0; i < n; i++) {
        pips_error err;
        if (i)
            pips_str_cat(&out, ",");
        if (!pips_game_schema_json(defs[i], &out, &err)) {
            fprintf(stderr, "pips list: %s\n", err.msg);
            pips_str_free(&out);
            return 1;
        }
    }
    pips_str_cat(&out, "]}");
    printf("%s\n", pips_str_cstr(&out));
    pips_str_free(&out);
    return 0;
}

int cli_list(int argc, char **argv)
{
    bool json = false;
    for (int i = 1; i < argc; i++)
        json |= !strcmp(argv[i], "--json");
    const pips_game_def *defs[64];
    size_t n = listed_games(argc, argv, defs);
    if (!n)
        return 2;
    int rc = 0;
    if (json)
        rc = list_json(defs, n);
    else
        for (size_t i = 0; i < n; i++) {
            const pips_game_def *d = defs[i];
            printf("%-10s %s\n", d->name, d->title);
            if (d->script && d->script->description)
                printf("    %s\n", d->script->description);
            for (size_t k = 0; k < d->n_options; k++)
                cli_print_option(&d->options[k], "    ");
            if (!d->n_options)
                printf("    (no options)\n");
        }
    for (size_t i = 0; i < n; i++)
        pips_game_def_release(defs[i]);
    return rc;
}

int cli_perft(int argc, char **argv)
{
    const char *args[2] = {NULL, NULL}; /* GAME and DEPTH */
    const char *opts[PIPS_MAX_OPTIONS];
    size_t nopts = 0;
    bool divide = false;
    const cli_flag flags[] = {
        CLI_LIST("--opt", opts, &nopts, PIPS_MAX_OPTIONS, "KEY=VALUE"),
        CLI_SWITCH("--divide", &divide),
    };
    if (!cli_parse_flags_args("pips perft", argc, argv, flags, sizeof flags / sizeof *flags,
                              args, 2))
        return 2;
    const char *name = args[0], *depth_text = args[1];
    long depth;
    if (!name || !depth_text) {
        fprintf(stderr, "pips perft: missing %s\n", !name ? "GAME" : "DEPTH");
        cli_print_usage(stderr, cli_doc_find("perft"));
        return 2;
    }
    if (!pips_parse_int(depth_text, 0, 64, &depth)) {
        fprintf(stderr, "pips perft: DEPTH must be an integer 0..64, not '%s'\n", depth_text);
        return 2;
    }
    pips_game *g = cli_make_game("pips perft", name, opts, nopts);
    if (!g)
        return 2;
    if (g->def->flags & PIPS_GAME_NOT_ENUMERABLE) {
        fprintf(stderr, "pips perft: %s has a continuous move space; perft is undefined\n",
                name);
        pips_game_free(g);
        return 2;
    }
    size_t ss = g->def->state_size, cap = pips_max_moves(g);
    unsigned char *s = calloc(1, ss), *child = calloc(1, ss);
    pips_move *moves = calloc(cap, sizeof *moves);
    double *prob = calloc(cap, sizeof *prob);
    if (!s || !child || !moves || !prob) {
        fprintf(stderr, "pips perft: out of memory\n");
        return 1;
    }
    g->def->initial(g, s);
    double t0 = pips_now();
    uint64_t total = 0;
    if (divide && depth >= 1) {
        size_t n = pips_node_moves(g, s, NULL, moves, prob);
        for (size_t i = 0; i < n; i++) {
            char buf[PIPS_MOVE_TEXT_MAX];
            memcpy(child, s, ss);
            g->def->apply(g, child, moves[i]);
            uint64_t c = pips_perft(g, child, (int)depth - 1);
            g->def->move_to_text(g, s, moves[i], buf);
            printf("%s: %llu\n", buf, (unsigned long long)c);
            total += c;
        }
    } else {
        total = pips_perft(g, s, (int)depth);
    }
    double dt = pips_now() - t0;
    pips_error failure;
    if (pips_game_failed(g, &failure)) { /* a Lua script's: the count is not one */
        fprintf(stderr, "pips perft: %s\n", failure.msg);
        free(s);
        free(child);
        free(moves);
        free(prob);
        pips_game_free(g);
        return 1;
    }
    fprintf(stderr, "perft(%ld) %s: %.3f s, %.0f nodes/s\n", depth, name, dt,
            dt > 0 ? (double)total / dt : 0.0);
    printf("%llu\n", (unsigned long long)total);
    free(s);
    free(child);
    free(moves);
    free(prob);
    pips_game_free(g);
    return 0;
}
