/*
 * exact.c — the exact value of a variant's start position, for "agents
 * versus the game": where the solver (pips_solve) settles a two-player
 * deterministic variant, the report sets the proven result beside the
 * measured rates.
 *
 * A report must never stall on a big game, and the solvers take a memory
 * budget but no time budget, so the solve runs in a child process (fork)
 * that reports through a pipe. Its budget is processor time (RLIMIT_CPU:
 * the kernel stops it), so a loaded machine gives the same verdict as an
 * idle one. The parent's wall-clock allowance (three times the budget plus
 * two seconds) only guards against a stuck child: when it runs out while the
 * child is still gaining processor time (read from /proc), the parent waits
 * another allowance, so a slow machine cannot turn a solve that fits the
 * budget into "not settled" (the findings pages rerun on loaded machines);
 * a child that gained none, or a system without /proc, is killed. The check
 * before it is cheap: two seats, no chance, enumerable moves. The lab calls
 * it before any worker thread starts (a fork while other threads allocate
 * can leave the child stuck on an allocator lock: seen under
 * AddressSanitizer); the child only runs the solver and leaves with _exit,
 * touching no lock or stream of the parent.
 *
 * The note of an unsettled solve is the same whichever limit stopped it
 * (processor time or the table budget, which race), so reports stay
 * comparable; the particular limit goes into the detail. A solver that
 * declines the game says why in the note.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab/lab_impl.h"

/* What the child writes to the pipe. */
typedef struct exact_msg {
    int ok;
    int code; /* the pips_error code when not ok */
    int value;
    double seconds;
    unsigned long long positions;
    char error[160];
} exact_msg;

static void child_solve(const pips_game *g, size_t table_mb, int fd)
{
    exact_msg m;
    memset(&m, 0, sizeof m);
    pips_solve_opts so = {.threads = 1, .table_mb = table_mb};
    pips_solve_result res;
    pips_error err;
    if (pips_solve(g, &so, &res, &err)) {
        m.ok = 1;
        m.value = res.value;
        m.seconds = res.seconds;
        m.positions = (unsigned long long)res.positions;
    } else {
        m.code = err.code;
        snprintf(m.error, sizeof m.error, "%.159s", err.msg);
    }
    ssize_t w = write(fd, &m, sizeof m);
    (void)w;
}

/* Processor seconds a child process has used so far (Linux /proc/PID/stat:
 * utime and stime, fields 14 and 15), or -1 where that cannot be read. */
double lab_child_cpu_seconds(pid_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* the command name may hold spaces */
    unsigned long utime, stime;
    long ticks = sysconf(_SC_CLK_TCK);
    if (!p || ticks <= 0 ||
        sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime,
               &stime) != 2)
        return -1;
    return (double)(utime + stime) / (double)ticks;
}

void lab_exact_solve(const pips_game *g, double seconds, size_t table_mb, lab_exact *out)
{
    memset(out, 0, sizeof *out);
    out->state = LAB_EXACT_OFF;
    if (pips_num_players(g) != 2 ||
        (g->def->flags & (PIPS_GAME_CHANCE | PIPS_GAME_NOT_ENUMERABLE))) {
        snprintf(out->note, sizeof out->note, "not a two-player deterministic game");
        return;
    }
    out->state = LAB_EXACT_UNKNOWN;
    void *start = pips_state_new(g, NULL);
    if (start) {
        g->def->initial(g, start);
        out->first_seat = g->def->to_move(g, start);
        pips_state_free(g, start);
    }
    if (!start || out->first_seat < 0) {
        out->state = LAB_EXACT_OFF;
        snprintf(out->note, sizeof out->note, "no decision at the start");
        return;
    }
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(out->note, sizeof out->note, "no pipe for the solver: %s", strerror(errno));
        return;
    }
    double t0 = pips_now();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(out->note, sizeof out->note, "cannot start the solver: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return;
    }
    if (pid == 0) {
        close(fds[0]);
        rlim_t cpu = (rlim_t)ceil(seconds);
        struct rlimit lim = {cpu, cpu + 1};
        setrlimit(RLIMIT_CPU, &lim);
        child_solve(g, table_mb, fds[1]);
        _exit(0);
    }
    close(fds[1]);
    exact_msg m;
    size_t got = 0;
    bool timed_out = false;
    double allowance = 3 * seconds + 2, deadline = t0 + allowance, cpu_seen = 0;
    while (got < sizeof m) {
        int left = (int)((deadline - pips_now()) * 1000);
        if (left <= 0) {
            double cpu = lab_child_cpu_seconds(pid);
            if (cpu > cpu_seen) { /* slow, not stuck: RLIMIT_CPU still bounds it */
                cpu_seen = cpu;
                deadline = pips_now() + allowance;
                continue;
            }
            timed_out = true;
            break;
        }
        struct pollfd p = {.fd = fds[0], .events = POLLIN};
        int r = poll(&p, 1, left);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            continue; /* the allowance ran out: the check above decides */
        if (r < 0)
            break;
        ssize_t n = read(fds[0], (char *)&m + got, sizeof m - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fds[0]);
    if (got < sizeof m)
        kill(pid, SIGKILL); /* our own child, still solving (or dead) */
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    snprintf(out->note, sizeof out->note,
             "not settled within the exact solver's budget (%.3g s of processor time, %zu MB)",
             seconds, table_mb);
    if (got < sizeof m) {
        snprintf(out->detail, sizeof out->detail, "%s",
                 timed_out ? "stopped waiting (wall clock)"
                 : WIFSIGNALED(status) ? "out of processor time"
                                       : "the solver stopped without an answer");
        return;
    }
    if (!m.ok) {
        /* a solver that declines the game says why, the same every time */
        if (m.code != PIPS_ERR_NOMEM)
            snprintf(out->note, sizeof out->note, "%.159s", m.error);
        snprintf(out->detail, sizeof out->detail, "%.159s", m.error);
        return;
    }
    out->note[0] = '\0';
    out->state = LAB_EXACT_SOLVED;
    out->value = m.value > 0 ? PIPS_WIN : m.value < 0 ? PIPS_LOSS : PIPS_DRAW;
    out->seconds = m.seconds;
    out->positions = m.positions;
}
