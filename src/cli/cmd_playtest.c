/*
 * cmd_playtest.c — `pips playtest`: runs the playtest lab (one rule set,
 * a --vs-opt pair or a --vary sweep) and prints the Markdown report (and
 * writes the report folder with --out). The progress bar, with the time
 * left, goes to stderr, and only when stderr is a terminal. The report
 * records this command line and the build's version.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "pips/lab.h"

#include "build_info.h" /* the version and git description, refreshed at every build */

/* The command line as one shell-quoted text (for the report). */
static void command_text(int argc, char **argv, char *out, size_t cap)
{
    size_t len = (size_t)snprintf(out, cap, "pips");
    for (int i = 0; i < argc && len < cap; i++) {
        const char *a = argv[i];
        bool plain = *a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                     "0123456789-_=:,./+@%") == strlen(a);
        if (plain) {
            len += (size_t)snprintf(out + len, cap - len, " %s", a);
            continue;
        }
        len += (size_t)snprintf(out + len, cap - len, " '");
        for (const char *p = a; *p && len < cap; p++)
            len += (size_t)snprintf(out + len, cap - len, *p == '\'' ? "'\\''" : "%c", *p);
        if (len < cap)
            len += (size_t)snprintf(out + len, cap - len, "'");
    }
}

static void playtest_usage(FILE *f) { cli_print_usage(f, cli_doc_find("playtest")); }

/* --drama on|off into "no drama" (a bool). */
static bool parse_drama_off(const char *text, void *no_drama)
{
    if (strcmp(text, "on") && strcmp(text, "off"))
        return false;
    *(bool *)no_drama = !strcmp(text, "off");
    return true;
}

static bool parse_seating(const char *text, void *seating)
{
    return pips_seating_parse(text, seating);
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
    const char *name = NULL, *out_dir = NULL, *resume_dir = NULL, *seats_text = NULL;
    const char *opts[PIPS_MAX_OPTIONS * 2], *vs_opts[PIPS_MAX_OPTIONS * 2];
    const char *vary[PIPS_MAX_OPTIONS];
    size_t nopts = 0, nvs = 0, nvary = 0;
    long games = 100, threads = 1, exact_mb = 256;
    uint64_t seed = 1;
    cli_progress_mode progress_mode = CLI_PROGRESS_AUTO;
    double threshold = 0.8, exact_seconds = 10;
    bool fixed = false, records = false;
    pips_seating seating = PIPS_SEATING_ROTATE;
    bool no_drama = false;
    long drama_every = 0; /* the default: every game up to PIPS_LAB_DRAMA_GAMES, then a sample */
    char command[2048];
    command_text(argc, argv, command, sizeof command);
    const cli_flag flags[] = {
        CLI_LIST("--opt", opts, &nopts, PIPS_MAX_OPTIONS * 2, "KEY=VALUE"),
        CLI_LIST("--vs-opt", vs_opts, &nvs, PIPS_MAX_OPTIONS * 2, "KEY=VALUE"),
        CLI_LIST("--vary", vary, &nvary, PIPS_MAX_OPTIONS, "KEY=V1,V2,..."),
        CLI_TEXT("--seats", &seats_text),
        CLI_LONG("--games", &games, 1, (long)PIPS_LAB_MAX_GAMES),
        CLI_DOUBLE("--exact-seconds", &exact_seconds, 0, 86400, "seconds from 0 (off) to 86400"),
        CLI_LONG("--exact-mb", &exact_mb, 1, 1L << 20),
        CLI_LONG("--threads", &threads, 1, 64),
        CLI_SEED(&seed),
        CLI_CHOICE("--progress", &progress_mode, cli_parse_progress, "auto, bar, lines or off"),
        CLI_DOUBLE("--threshold", &threshold, nextafter(0.5, 1), nextafter(1, 0),
                   "a number between 0.5 and 1"),
        CLI_TEXT("--out", &out_dir),
        CLI_CHOICE("--drama", &no_drama, parse_drama_off, "on or off"),
        CLI_LONG("--drama-every", &drama_every, 1, (long)PIPS_LAB_MAX_GAMES),
        CLI_TEXT("--resume", &resume_dir),
        CLI_SWITCH("--fixed-seats", &fixed),
        CLI_CHOICE("--seatings", &seating, parse_seating, "rotate, all or fixed"),
        CLI_SWITCH("--records", &records),
    };
    if (!cli_parse_flags(prog, argc, argv, flags, sizeof flags / sizeof *flags, &name))
        return 2;
    char state_path[4200];
    if (!cli_resume_dir(prog, resume_dir, &out_dir, state_path, sizeof state_path))
        return 2;
    if (records && !out_dir) {
        fprintf(stderr, "%s: --records needs --out DIR\n", prog);
        return 2;
    }
    if (!name || !seats_text) {
        fprintf(stderr, "%s: %s\n", prog, !name ? "missing GAME" : "missing --seats A,B,...");
        playtest_usage(stderr);
        return 2;
    }
    char *seats[PIPS_LAB_MAX_SEATS];
    size_t n_seats;
    int status;
    char *copy = cli_split_list(prog, seats_text, seats, PIPS_LAB_MAX_SEATS, "seats", &n_seats,
                                &status);
    if (!copy)
        return status;
    if (out_dir && !cli_check_out_dir(prog, out_dir)) {
        free(copy);
        return 2;
    }
    cli_progress progress = {.start = pips_now(), .prog = prog, .mode = progress_mode};
    char version[96];
    snprintf(version, sizeof version, "%s%s%s", PIPS_BUILD_VERSION,
             PIPS_BUILD_GIT[0] ? " git " : "", PIPS_BUILD_GIT);
    pips_playtest_opts o = {.game = name,
                            .opts = opts,
                            .n_opts = nopts,
                            .vs_opts = vs_opts,
                            .n_vs_opts = nvs,
                            .vary = vary,
                            .n_vary = nvary,
                            .seats = (const char *const *)seats,
                            .n_seats = n_seats,
                            .games = (unsigned long)games,
                            .seed = seed,
                            .threads = (int)threads,
                            .fixed_seats = fixed,
                            .seating = seating,
                            .decisive_threshold = threshold,
                            .keep_records = records,
                            .exact_seconds = exact_seconds,
                            .exact_mb = (size_t)exact_mb,
                            .command_line = command,
                            .version = version,
                            .progress = cli_progress_fn(&progress),
                            .progress_ud = &progress,
                            .stop = cli_catch_stop(),
                            .resume_state = resume_dir ? state_path : NULL,
                            .no_drama = no_drama,
                            .drama_every = (unsigned long)drama_every};
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
        return cli_exit_code(&err);
    }
    if (!root) { /* only rank 0 reports */
        pips_playtest_free(pt);
        pips_lab_mpi_end();
        return 0;
    }
    pips_str s;
    pips_str_init(&s, NULL);
    pips_playtest_set_plot_links(pt, out_dir != NULL); /* no folder, no plots to link */
    pips_playtest_markdown(pt, &s);
    pips_playtest_markdown_run(pt, &s);
    pips_playtest_markdown_timing(pt, &s);
    fputs(pips_str_cstr(&s), stdout);
    pips_str_free(&s);
    int rc = 0;
    unsigned long removed = 0;
    if (out_dir && !pips_playtest_write(pt, out_dir, &removed, &err)) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        rc = 1;
    }
    if (removed)
        fprintf(stderr, "%s: removed %lu record%s of an earlier run from %s/records\n", prog,
                removed, removed == 1 ? "" : "s", out_dir);
    if (pips_playtest_failure(pt, &err)) {
        /* a script failed in one game: the report covers the games finished,
         * and there is nothing to resume (the script would fail again) */
        fprintf(stderr, "%s: %s\n%s: stopped; the report covers the games finished%s\n", prog,
                err.msg, prog, out_dir ? " (report.json says \"partial\": true)" : "");
        rc = 1;
    } else if (pips_playtest_partial(pt)) {
        /* stopped: the report covers the games finished; the state lets
         * --resume finish the run */
        if (out_dir && rc == 0 && !records && pips_playtest_save_state(pt, state_path, &err))
            fprintf(stderr, "%s: stopped; the report covers the games finished. Continue with "
                            "the same command and --resume %s\n",
                    prog, out_dir);
        else if (out_dir && rc == 0 && !records)
            fprintf(stderr, "%s: stopped, and the state was not saved: %s\n", prog, err.msg);
        else
            fprintf(stderr, "%s: stopped; the report covers the games finished%s\n", prog,
                    records ? " (a run with --records cannot be resumed)"
                            : " (give --out DIR to be able to resume)");
        rc = rc ? rc : 130;
    } else if (out_dir && rc == 0) {
        unlink(state_path); /* a finished run leaves no state to resume */
    }
    pips_playtest_free(pt);
    pips_lab_mpi_end();
    return rc;
}
