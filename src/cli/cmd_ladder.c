/*
 * cmd_ladder.c — `pips ladder`: a round robin between agents and their Elo
 * ratings (pips/ladder.h); prints one line per agent, best first, and with
 * --out writes ratings.txt, ratings.csv, pairs.csv and ratings.svg.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "pips/ladder.h"

static void ladder_usage(FILE *f) { cli_print_usage(f, cli_doc_find("ladder")); }


int cli_ladder(int argc, char **argv)
{
    const char *prog = "pips ladder";
    const char *name = NULL, *out_dir = NULL, *agents_text = NULL, *resume_dir = NULL;
    const char *opts[PIPS_MAX_OPTIONS * 2];
    size_t nopts = 0;
    long games = 100, threads = 1;
    uint64_t seed = 1;
    cli_progress_mode progress_mode = CLI_PROGRESS_AUTO;
    double prior = 1;
    const cli_flag flags[] = {
        CLI_LIST("--opt", opts, &nopts, PIPS_MAX_OPTIONS, "KEY=VALUE"),
        CLI_TEXT("--agents", &agents_text),
        CLI_LONG("--games", &games, 1, (long)PIPS_LAB_MAX_GAMES),
        CLI_LONG("--threads", &threads, 1, 64),
        CLI_SEED(&seed),
        CLI_CHOICE("--progress", &progress_mode, cli_parse_progress, "auto, bar, lines or off"),
        CLI_DOUBLE("--prior", &prior, 0, 1000, "a number of games in 0..1000"),
        CLI_TEXT("--out", &out_dir),
        CLI_TEXT("--resume", &resume_dir),
    };
    if (!cli_parse_flags(prog, argc, argv, flags, sizeof flags / sizeof *flags, &name))
        return 2;
    if (!name || !agents_text) {
        fprintf(stderr, "%s: %s\n", prog, !name ? "missing GAME" : "missing --agents A,B,...");
        ladder_usage(stderr);
        return 2;
    }
    char state_path[4200] = "";
    if (!cli_resume_dir(prog, resume_dir, &out_dir, state_path, sizeof state_path))
        return 2;
    char *agents[PIPS_LADDER_MAX_AGENTS];
    size_t n;
    int status;
    char *copy = cli_split_list(prog, agents_text, agents, PIPS_LADDER_MAX_AGENTS, "agents", &n,
                                &status);
    if (!copy)
        return status;
    if (out_dir && !cli_check_out_dir(prog, out_dir)) {
        free(copy);
        return 2;
    }
    cli_progress progress = {.start = pips_now(), .prog = prog, .mode = progress_mode};
    pips_ladder_opts o = {.game = name,
                          .opts = opts,
                          .n_opts = nopts,
                          .agents = (const char *const *)agents,
                          .n_agents = n,
                          .games = (unsigned long)games,
                          .seed = seed,
                          .threads = (int)threads,
                          .prior = prior,
                          .progress = cli_progress_fn(&progress),
                          .progress_ud = &progress,
                          .stop = cli_catch_stop(),
                          .save_state = out_dir ? state_path : NULL,
                          .resume_state = resume_dir ? state_path : NULL};
    pips_error err;
    pips_ladder *l = pips_ladder_run(&o, &err);
    free(copy);
    if (!l) {
        if (cli_stopped() && err.code != PIPS_ERR_IO && err.code != PIPS_ERR_NOMEM) {
            fprintf(stderr, "%s: stopped before the games could rate every agent (%s)%s%s\n",
                    prog, err.msg, out_dir ? "; continue with the same command and --resume "
                                           : "",
                    out_dir ? out_dir : "");
            return 130;
        }
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        return cli_exit_code(&err);
    }
    pips_str s;
    pips_str_init(&s, NULL);
    pips_ladder_text(l, &s);
    fputs(pips_str_cstr(&s), stdout);
    pips_str_free(&s);
    int rc = 0;
    if (out_dir && !pips_ladder_write(l, out_dir, &err)) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        rc = 1;
    }
    rc = cli_lab_end(prog, l->partial, "the ratings rest on the games finished", out_dir,
                     state_path, rc);
    pips_ladder_free(l);
    return rc;
}
