/*
 * cmd_playtest.c — `pips playtest`: runs the playtest lab and prints the
 * Markdown report (and writes the report folder with --out). The progress
 * bar goes to stderr, and only when stderr is a terminal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "pips/lab.h"

static void progress_bar(void *ud, unsigned long done, unsigned long total)
{
    (void)ud;
    int width = 40, fill = total ? (int)(width * done / total) : width;
    fprintf(stderr, "\r[%.*s%*s] %lu/%lu games", fill,
            "########################################", width - fill, "", done, total);
    if (done == total)
        fputc('\n', stderr);
    fflush(stderr);
}

static void playtest_usage(FILE *f)
{
    fprintf(f,
            "usage: pips playtest GAME --seats A,B,... [--games N] [--seed S] [--threads T]\n"
            "                     [--opt K=V]... [--vs-opt K=V]... [--fixed-seats]\n"
            "                     [--out DIR [--records]] [--threshold X]\n\n"
            "Plays N games (default 100) between the agents (one spec per seat, e.g.\n"
            "mcts:iters=1000,random) and prints a Markdown report: results per agent and\n"
            "per seat with 95%% Wilson intervals, first-player advantage, seat balance,\n"
            "draw rate, game length, branching factor by ply, time per move and, when an\n"
            "MCTS agent plays, decisiveness (when the winner's value first stays above\n"
            "--threshold, default 0.8). Seats rotate so every agent sits in every seat\n"
            "equally, unless --fixed-seats. --vs-opt replays the same seeds under a second\n"
            "rule set (the --opt values with these overrides) and compares every figure.\n"
            "--out DIR writes report.md, report.json, seats.svg and lengths.svg; with\n"
            "--records also DIR/records/A-000001.json... (B-... for --vs-opt games), each\n"
            "game as a JSON record that 'pips replay' reads.\n"
            "The same --seed gives the same report for any --threads (timing aside).\n"
            "An agent's own parameters also use ',': a ',' followed by KEY=VALUE continues\n"
            "the agent, e.g. --seats mcts:time=1,threads=2,alphabeta:depth=6.\n");
}

/* Splits the --seats list at commas, except a comma followed by KEY=VALUE
 * (an agent's own parameter): "mcts:iters=9,threads=2,random" is two seats. */
size_t cli_split_specs(char *list, char **out, size_t cap)
{
    size_t n = 0;
    char *start = list;
    for (char *p = list;; p++) {
        bool split = *p == '\0';
        if (*p == ',') {
            size_t k = strcspn(p + 1, "=:,");
            split = p[1 + k] != '=';
        }
        if (split) {
            bool end = *p == '\0';
            *p = '\0';
            if (n < cap)
                out[n] = start;
            n++;
            start = p + 1;
            if (end)
                break;
        }
    }
    return n;
}

int cli_playtest(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        playtest_usage(stdout);
        return 0;
    }
    const char *prog = "pips playtest";
    const char *name = NULL, *out_dir = NULL;
    const char *opts[PIPS_MAX_OPTIONS * 2], *vs_opts[PIPS_MAX_OPTIONS * 2];
    size_t nopts = 0, nvs = 0;
    char *seats_text = NULL;
    long games = 100, threads = 1;
    uint64_t seed = 1;
    double threshold = 0.8;
    bool fixed = false, records = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (!strcmp(a, "--opt") || !strcmp(a, "--vs-opt")) {
            bool vs = a[2] == 'v';
            if (!has_value) {
                fprintf(stderr, "%s: %s needs KEY=VALUE\n", prog, a);
                return 2;
            }
            if ((vs ? nvs : nopts) == PIPS_MAX_OPTIONS * 2) {
                fprintf(stderr, "%s: too many %s\n", prog, a);
                return 2;
            }
            if (vs)
                vs_opts[nvs++] = argv[++i];
            else
                opts[nopts++] = argv[++i];
        } else if (!strcmp(a, "--seats") && has_value) {
            seats_text = argv[++i];
        } else if (!strcmp(a, "--games") && has_value) {
            if (!pips_parse_int(argv[++i], 1, 100000000L, &games)) {
                fprintf(stderr, "%s: --games '%s': expected a whole number >= 1\n", prog,
                        argv[i]);
                return 2;
            }
        } else if (!strcmp(a, "--threads") && has_value) {
            if (!pips_parse_int(argv[++i], 1, 64, &threads)) {
                fprintf(stderr, "%s: --threads '%s': expected 1..64\n", prog, argv[i]);
                return 2;
            }
        } else if (!strcmp(a, "--seed") && has_value) {
            if (!cli_parse_seed(prog, argv[++i], &seed))
                return 2;
        } else if (!strcmp(a, "--threshold") && has_value) {
            char *end;
            const char *t = argv[++i];
            threshold = strtod(t, &end);
            if (!*t || *end || !(threshold > 0.5 && threshold < 1)) {
                fprintf(stderr, "%s: --threshold '%s': expected a number between 0.5 and 1\n",
                        prog, t);
                return 2;
            }
        } else if (!strcmp(a, "--out") && has_value) {
            out_dir = argv[++i];
        } else if (!strcmp(a, "--fixed-seats")) {
            fixed = true;
        } else if (!strcmp(a, "--records")) {
            records = true;
        } else if (a[0] == '-' && a[1] == '-') {
            fprintf(stderr, "%s: unknown flag '%s' (or a missing value)\n", prog, a);
            return 2;
        } else if (!name) {
            name = a;
        } else {
            fprintf(stderr, "%s: unexpected argument '%s'\n", prog, a);
            return 2;
        }
    }
    if (records && !out_dir) {
        fprintf(stderr, "%s: --records needs --out DIR\n", prog);
        return 2;
    }
    if (!name || !seats_text) {
        fprintf(stderr, "%s: %s\n", prog, !name ? "missing GAME" : "missing --seats A,B,...");
        playtest_usage(stderr);
        return 2;
    }
    char *copy = strdup(seats_text);
    char *seats[PIPS_LAB_MAX_SEATS];
    if (!copy) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return 1;
    }
    size_t n_seats = cli_split_specs(copy, seats, PIPS_LAB_MAX_SEATS);
    if (n_seats > PIPS_LAB_MAX_SEATS) {
        fprintf(stderr, "%s: at most %d seats\n", prog, PIPS_LAB_MAX_SEATS);
        free(copy);
        return 2;
    }
    pips_playtest_opts o = {.game = name,
                            .opts = opts,
                            .n_opts = nopts,
                            .vs_opts = vs_opts,
                            .n_vs_opts = nvs,
                            .seats = (const char *const *)seats,
                            .n_seats = n_seats,
                            .games = (unsigned long)games,
                            .seed = seed,
                            .threads = (int)threads,
                            .fixed_seats = fixed,
                            .decisive_threshold = threshold,
                            .keep_records = records,
                            .progress = isatty(2) ? progress_bar : NULL};
    pips_error err;
    if (!pips_lab_mpi_begin(&argc, &argv)) {
        fprintf(stderr, "%s: MPI did not start\n", prog);
        free(copy);
        return 1;
    }
    bool root = pips_lab_rank() == 0;
    if (!root)
        o.progress = NULL;
    pips_playtest *pt = pips_playtest_run(&o, &err);
    free(copy);
    if (!pt) {
        if (root)
            fprintf(stderr, "%s: %s\n", prog, err.msg);
        pips_lab_mpi_end();
        return err.code == PIPS_ERR_NOMEM || err.code == PIPS_ERR_IO ? 1 : 2;
    }
    if (!root) { /* only rank 0 reports */
        pips_playtest_free(pt);
        pips_lab_mpi_end();
        return 0;
    }
    pips_str s;
    pips_str_init(&s, NULL);
    pips_playtest_markdown(pt, &s);
    pips_playtest_markdown_timing(pt, &s);
    fputs(pips_str_cstr(&s), stdout);
    pips_str_free(&s);
    int rc = 0;
    if (out_dir && !pips_playtest_write(pt, out_dir, &err)) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        rc = 1;
    }
    pips_playtest_free(pt);
    pips_lab_mpi_end();
    return rc;
}
