/*
 * cmd_skill.c — `pips skill`: skill depth (pips/skill.h). Each budget of
 * an agent kind plays the one before it; prints one line per step and the
 * skill chain length, and with --out writes report.json, skill.csv and
 * skill.svg. Ctrl-C (or SIGTERM) stops at the next game: the steps
 * finished are reported and the exit status is 130.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "pips/skill.h"

static void skill_usage(FILE *f) { cli_print_usage(f, cli_doc_find("skill")); }

/* "B1,B2,...": whole numbers >= 1; false with a message otherwise. */
static bool parse_budgets(const char *prog, const char *text, long *out, size_t *n)
{
    *n = 0;
    const char *p = text;
    for (;;) {
        size_t len = strcspn(p, ",");
        char buf[32];
        if (len == 0 || len >= sizeof buf) {
            fprintf(stderr, "%s: --budgets '%s': expected whole numbers B1,B2,...\n", prog,
                    text);
            return false;
        }
        memcpy(buf, p, len);
        buf[len] = '\0';
        if (*n == PIPS_SKILL_MAX_BUDGETS) {
            fprintf(stderr, "%s: --budgets: at most %d budgets\n", prog,
                    PIPS_SKILL_MAX_BUDGETS);
            return false;
        }
        if (!pips_parse_int(buf, 1, 1000000000L, &out[*n])) {
            fprintf(stderr, "%s: --budgets '%s': '%s' is not a whole number from 1\n", prog,
                    text, buf);
            return false;
        }
        (*n)++;
        if (!p[len])
            return true;
        p += len + 1;
    }
}

int cli_skill(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        skill_usage(stdout);
        return 0;
    }
    const char *prog = "pips skill";
    const char *name = NULL, *out_dir = NULL, *agent = NULL, *budgets_text = NULL,
               *resume_dir = NULL;
    const char *opts[PIPS_MAX_OPTIONS * 2];
    size_t nopts = 0;
    long games = 100, threads = 1, exact_mb = 256;
    uint64_t seed = 1;
    cli_progress_mode progress_mode = CLI_PROGRESS_AUTO;
    double exact_seconds = 10;
    const cli_flag flags[] = {
        CLI_LIST("--opt", opts, &nopts, PIPS_MAX_OPTIONS, "KEY=VALUE"),
        CLI_TEXT("--agent", &agent),
        CLI_TEXT("--budgets", &budgets_text),
        CLI_LONG("--games", &games, 1, (long)PIPS_LAB_MAX_GAMES),
        CLI_LONG("--threads", &threads, 1, 64),
        CLI_SEED(&seed),
        CLI_CHOICE("--progress", &progress_mode, cli_parse_progress, "auto, bar, lines or off"),
        CLI_DOUBLE("--exact-seconds", &exact_seconds, 0, 86400, "seconds from 0 (off) to 86400"),
        CLI_LONG("--exact-mb", &exact_mb, 1, 1L << 20),
        CLI_TEXT("--out", &out_dir),
        CLI_TEXT("--resume", &resume_dir),
    };
    if (!cli_parse_flags(prog, argc, argv, flags, sizeof flags / sizeof *flags, &name))
        return 2;
    if (!name || !agent || !budgets_text) {
        fprintf(stderr, "%s: %s\n", prog,
                !name ? "missing GAME" : !agent ? "missing --agent KIND" : "missing --budgets B1,B2,...");
        skill_usage(stderr);
        return 2;
    }
    long budgets[PIPS_SKILL_MAX_BUDGETS];
    size_t n_budgets;
    if (!parse_budgets(prog, budgets_text, budgets, &n_budgets))
        return 2;
    char state_path[4200];
    if (!cli_resume_dir(prog, resume_dir, &out_dir, state_path, sizeof state_path))
        return 2;
    if (out_dir && !cli_check_out_dir(prog, out_dir))
        return 2;
    cli_progress progress = {.start = pips_now(), .prog = prog, .mode = progress_mode};
    pips_skill_opts o = {.game = name,
                         .opts = opts,
                         .n_opts = nopts,
                         .agent = agent,
                         .budgets = budgets,
                         .n_budgets = n_budgets,
                         .games = (unsigned long)games,
                         .seed = seed,
                         .threads = (int)threads,
                         .progress = cli_progress_fn(&progress),
                         .progress_ud = &progress,
                         .stop = cli_catch_stop(),
                         .save_state = out_dir ? state_path : NULL,
                         .resume_state = resume_dir ? state_path : NULL,
                         .exact_seconds = exact_seconds,
                         .exact_mb = (size_t)exact_mb};
    pips_error err;
    pips_skill *s = pips_skill_run(&o, &err);
    if (!s) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        return cli_exit_code(&err);
    }
    pips_str t;
    pips_str_init(&t, NULL);
    pips_skill_text(s, &t);
    fputs(pips_str_cstr(&t), stdout);
    pips_str_free(&t);
    int rc = 0;
    if (out_dir && !pips_skill_write(s, out_dir, &err)) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        rc = 1;
    }
    rc = cli_lab_end(prog, s->partial, "the table covers the steps finished", out_dir,
                     state_path, rc);
    pips_skill_free(s);
    return rc;
}
