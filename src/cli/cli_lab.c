/*
 * cli_lab.c — what the lab's long commands (playtest, ladder, skill)
 * share: progress with the time left (--progress: a bar, drawn by default
 * only when stderr is a terminal, or a line at each tenth of the run);
 * SIGINT and SIGTERM turned into a stop at the next game boundary (the
 * command then reports the games finished and exits 130);
 * the check that an --out folder can be written, made before any game is
 * played; the split of their --seats/--agents lists; and how a run that
 * was stopped ends.
 *
 * The stop flag is the one piece of process state: a signal handler can
 * only reach a global.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

const volatile int *cli_catch_stop(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    return &stop_requested;
}

bool cli_stopped(void) { return stop_requested != 0; }

/* "1h02m", "3m07s", "12s" */
static void format_duration(double seconds, char *buf, size_t cap)
{
    long s = (long)(seconds + 0.5);
    if (s >= 3600)
        snprintf(buf, cap, "%ldh%02ldm", s / 3600, s / 60 % 60);
    else if (s >= 60)
        snprintf(buf, cap, "%ldm%02lds", s / 60, s % 60);
    else
        snprintf(buf, cap, "%lds", s);
}

/* The first call of a run: a resumed run starts part way. */
static void progress_begin(cli_progress *ps, unsigned long done)
{
    if (ps->started)
        return;
    ps->started = true;
    ps->first = done ? done - 1 : 0;
    ps->last_line = ps->start;
}

/* "12/200 games, 3m07s left"; with in_all, once done: "200/200 games, 41m10s in all" */
static void progress_text(const cli_progress *ps, unsigned long done, unsigned long total,
                          bool in_all, char *buf, size_t cap)
{
    double elapsed = pips_now() - ps->start;
    char when[32] = "?";
    in_all = in_all && done >= total;
    if (in_all)
        format_duration(elapsed, when, sizeof when);
    else if (done > ps->first && done <= total)
        format_duration(elapsed / (double)(done - ps->first) * (double)(total - done), when,
                        sizeof when);
    snprintf(buf, cap, "%lu/%lu %s, %s %s", done, total, ps->unit ? ps->unit : "games", when,
             in_all ? "in all" : "left");
}

void cli_progress_bar(void *ud, unsigned long done, unsigned long total)
{
    cli_progress *ps = ud;
    progress_begin(ps, done);
    char text[128];
    progress_text(ps, done, total, false, text, sizeof text);
    int width = 40, fill = total ? (int)(width * (double)done / (double)total) : width;
    fprintf(stderr, "\r[%.*s%*s] %s   ", fill, "########################################",
            width - fill, "", text);
    if (done == total)
        fputc('\n', stderr);
    fflush(stderr);
}

void cli_progress_lines(void *ud, unsigned long done, unsigned long total)
{
    cli_progress *ps = ud;
    progress_begin(ps, done);
    unsigned long tenth = total ? (unsigned long)(10.0 * (double)done / (double)total) : 10;
    double now = pips_now();
    if (tenth == ps->last_tenth && now - ps->last_line < 60 && done != total)
        return;
    char text[128];
    progress_text(ps, done, total, true, text, sizeof text);
    ps->last_tenth = tenth;
    ps->last_line = now;
    fprintf(stderr, "%s: %s\n", ps->prog ? ps->prog : "pips", text);
    fflush(stderr);
}

void (*cli_progress_fn(const cli_progress *ps))(void *, unsigned long, unsigned long)
{
    switch (ps->mode) {
    case CLI_PROGRESS_BAR:
        return cli_progress_bar;
    case CLI_PROGRESS_LINES:
        return cli_progress_lines;
    case CLI_PROGRESS_OFF:
        return NULL;
    default:
        return isatty(2) ? cli_progress_bar : NULL;
    }
}

bool cli_parse_progress(const char *text, void *mode)
{
    static const char *const names[] = {"auto", "bar", "lines", "off"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(text, names[i])) {
            *(cli_progress_mode *)mode = (cli_progress_mode)i;
            return true;
        }
    return false;
}

bool cli_check_out_dir(const char *prog, const char *dir)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) {
            fprintf(stderr, "%s: --out %s: not a folder\n", prog, dir);
            return false;
        }
        if (access(dir, W_OK | X_OK) != 0) {
            fprintf(stderr, "%s: --out %s: cannot write there: %s\n", prog, dir,
                    strerror(errno));
            return false;
        }
        return true;
    }
    if (errno != ENOENT) {
        fprintf(stderr, "%s: --out %s: %s\n", prog, dir, strerror(errno));
        return false;
    }
    /* a new folder: its parent must take it */
    char parent[4096];
    snprintf(parent, sizeof parent, "%s", dir);
    size_t len = strlen(parent);
    while (len > 1 && parent[len - 1] == '/')
        parent[--len] = '\0';
    char *slash = strrchr(parent, '/');
    if (!slash)
        snprintf(parent, sizeof parent, ".");
    else if (slash == parent)
        parent[1] = '\0';
    else
        *slash = '\0';
    if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "%s: --out %s: the folder %s does not exist\n", prog, dir, parent);
        return false;
    }
    if (access(parent, W_OK | X_OK) != 0) {
        fprintf(stderr, "%s: --out %s: cannot create it in %s: %s\n", prog, dir, parent,
                strerror(errno));
        return false;
    }
    return true;
}

bool cli_resume_dir(const char *prog, const char *resume_dir, const char **out_dir,
                    char *state_path, size_t cap)
{
    if (resume_dir) {
        if (*out_dir && strcmp(*out_dir, resume_dir)) {
            fprintf(stderr, "%s: --resume %s writes there; --out %s names another folder\n",
                    prog, resume_dir, *out_dir);
            return false;
        }
        *out_dir = resume_dir;
    }
    state_path[0] = '\0';
    if (*out_dir)
        snprintf(state_path, cap, "%s/state.json", *out_dir);
    if (resume_dir && access(state_path, R_OK) != 0) {
        fprintf(stderr, "%s: --resume %s: no stopped run there (%s: %s)\n", prog, resume_dir,
                state_path, strerror(errno));
        return false;
    }
    return true;
}

char *cli_split_list(const char *prog, const char *text, char **out, size_t cap,
                     const char *what, size_t *n, int *status)
{
    char *copy = strdup(text);
    if (!copy) {
        fprintf(stderr, "%s: out of memory\n", prog);
        *status = 1;
        return NULL;
    }
    *n = cli_split_specs(copy, out, cap);
    if (*n > cap) {
        fprintf(stderr, "%s: at most %zu %s\n", prog, cap, what);
        free(copy);
        *status = 2;
        return NULL;
    }
    return copy;
}

int cli_lab_end(const char *prog, bool partial, const char *covers, const char *out_dir,
                const char *state_path, int rc)
{
    if (partial) {
        if (out_dir)
            fprintf(stderr, "%s: stopped; %s. Continue with the same command and --resume %s\n",
                    prog, covers, out_dir);
        else
            fprintf(stderr, "%s: stopped; %s (give --out DIR to be able to resume)\n", prog,
                    covers);
        return rc ? rc : 130;
    }
    if (out_dir && rc == 0)
        unlink(state_path); /* a finished run leaves no state to resume */
    return rc;
}
