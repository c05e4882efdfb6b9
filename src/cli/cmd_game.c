/*
 * cmd_game.c — `pips rules`, `pips solve` and `pips bench`: thin wrappers
 * over the library's rules text, exact solver and the fixed benchmark
 * workload (perft plus seeded random playouts per game).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

int cli_rules(int argc, char **argv)
{
    if (cli_wants_help(argc, argv) || argc != 2) {
        printf("usage: pips rules GAME\n\nPrints the rules as implemented, with ruling ids, "
               "the move notation and the options.\n");
        return argc == 2 ? 0 : 2;
    }
    const pips_game_def *d = pips_game_find(argv[1]);
    if (!d) {
        fprintf(stderr, "pips rules: unknown game '%s' (see 'pips list')\n", argv[1]);
        return 2;
    }
    printf("%s\n\n%s\nNotation\n%s", d->title, d->rules_text, d->notation_text);
    if (d->n_options) {
        printf("\nOptions (--opt KEY=VALUE)\n");
        for (size_t i = 0; i < d->n_options; i++)
            printf("  %s=%s  (%s)\n", d->options[i].key, d->options[i].default_value,
                   d->options[i].help);
    }
    return 0;
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

/* Progress of a long solve on stderr, at most once a second: a line that
 * redraws itself on a terminal, one line each time otherwise. */
typedef struct solve_meter {
    double last;
    bool tty;
} solve_meter;

static void solve_progress(void *ud, uint64_t positions, double seconds)
{
    solve_meter *m = ud;
    if (seconds < m->last + 1.0)
        return;
    m->last = seconds;
    fprintf(stderr, "%ssolving: %llu positions, %.0f s, %.0f positions/s%s",
            m->tty ? "\r" : "", (unsigned long long)positions, seconds,
            seconds > 0 ? (double)positions / seconds : 0.0, m->tty ? "" : "\n");
    fflush(stderr);
}

int cli_solve(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        printf("usage: pips solve GAME [--opt KEY=VALUE]... [--threads N] [--table-mb MB]\n\n"
               "Solves a two-player game exactly from its start. Earlier lines give positions\n"
               "searched, memory and time; the last line is win, loss or draw for the player\n"
               "to move at the start. --table-mb sizes the transposition table of solvers\n"
               "that take a budget (0 or absent: the solver's default).\n");
        return 0;
    }
    const char *name = NULL, *opts[PIPS_MAX_OPTIONS];
    size_t nopts = 0;
    long threads = 2, table_mb = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--opt")) {
            if (!cli_collect_opt("pips solve", argc, argv, &i, opts, &nopts))
                return 2;
        } else if (!strcmp(argv[i], "--threads")) {
            if (i + 1 >= argc || !pips_parse_int(argv[++i], 1, 64, &threads)) {
                fprintf(stderr, "pips solve: --threads needs a number 1..64\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "--table-mb")) {
            if (i + 1 >= argc || !pips_parse_int(argv[++i], 1, 1L << 20, &table_mb)) {
                fprintf(stderr, "pips solve: --table-mb needs a number of MiB 1..1048576\n");
                return 2;
            }
        } else if (argv[i][0] == '-' || name) {
            fprintf(stderr, "pips solve: unexpected argument '%s'\n", argv[i]);
            return 2;
        } else {
            name = argv[i];
        }
    }
    if (!name) {
        fprintf(stderr, "usage: pips solve GAME [--opt KEY=VALUE]... [--threads N]\n");
        return 2;
    }
    pips_game *g = cli_make_game("pips solve", name, opts, nopts);
    if (!g)
        return 2;
    solve_meter meter = {0.0, isatty(2)};
    pips_solve_opts so = {(int)threads, (size_t)table_mb, solve_progress, &meter};
    pips_solve_result res;
    pips_error err;
    bool ok = pips_solve(g, &so, &res, &err);
    if (meter.tty && meter.last > 0)
        fprintf(stderr, "\n");
    pips_game_free(g);
    if (!ok) {
        fprintf(stderr, "pips solve: %s\n", err.msg);
        return 1;
    }
    printf("positions: %llu\nnodes: %llu\nmemory: %.1f MiB\ntime: %.2f s\n",
           (unsigned long long)res.positions, (unsigned long long)res.nodes,
           (double)res.memory_bytes / (1024.0 * 1024.0), res.seconds);
    printf("%s\n", pips_value_name(res.value));
    return 0;
}

typedef size_t (*playout_fn)(const pips_game *g, void *state, pips_rng *rng, pips_move *buf,
                             size_t max_plies);

/* Plays the game's bench_playouts seeded games from the start with play;
 * returns the seconds taken and the plies played in *plies. */
static double time_playouts(const pips_game *g, void *s, pips_move *buf, playout_fn play,
                            uint64_t *plies)
{
    pips_rng rng;
    pips_rng_seed(&rng, 1);
    *plies = 0;
    double t0 = pips_now();
    for (int i = 0; i < g->def->bench_playouts; i++) {
        g->def->initial(g, s);
        *plies += play(g, s, &rng, buf, 1u << 20);
    }
    return pips_now() - t0;
}

int cli_bench(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        printf("usage: pips bench [GAME]...\n\n"
               "Runs a fixed workload per game on one core: perft from the start and seeded\n"
               "random playouts. Prints nodes/s and playouts/s per game, then one total node\n"
               "count that changes only when behaviour changes (a fingerprint). Games with a\n"
               "light playout policy add a line of policy playouts/s (not in the total).\n");
        return 0;
    }
    uint64_t signature = 0;
    for (size_t gi = 0; gi < pips_game_count(); gi++) {
        const pips_game_def *d = pips_game_def_at(gi);
        bool wanted = argc <= 1;
        for (int i = 1; i < argc; i++)
            wanted |= !strcmp(argv[i], d->name);
        if (!wanted)
            continue;
        pips_game *g = cli_make_game("pips bench", d->name, NULL, 0);
        if (!g)
            return 1;
        size_t ss = d->state_size;
        unsigned char *s = calloc(1, ss);
        pips_move *buf = calloc(pips_max_moves(g), sizeof *buf);
        if (!s || !buf) {
            fprintf(stderr, "pips bench: out of memory\n");
            return 1;
        }
        printf("%-10s", d->name);
        if (d->bench_perft_depth > 0 && !(d->flags & PIPS_GAME_NOT_ENUMERABLE)) {
            d->initial(g, s);
            double t0 = pips_now();
            uint64_t nodes = pips_perft(g, s, d->bench_perft_depth);
            double dt = pips_now() - t0;
            signature += nodes;
            printf(" perft(%d) %12llu nodes %7.3f s %8.1f Mnodes/s", d->bench_perft_depth,
                   (unsigned long long)nodes, dt, dt > 0 ? (double)nodes / dt / 1e6 : 0.0);
        }
        if (d->bench_playouts > 0) {
            uint64_t plies;
            double dt = time_playouts(g, s, buf, pips_random_playout, &plies);
            signature += plies;
            printf(" | %d playouts %7.3f s %10.0f playouts/s", d->bench_playouts, dt,
                   dt > 0 ? d->bench_playouts / dt : 0.0);
        }
        printf("\n");
        if (d->bench_playouts > 0 && d->playout_move) {
            /* the game's light policy (pips_policy_playout), for agents' playouts */
            uint64_t plies;
            double dt = time_playouts(g, s, buf, pips_policy_playout, &plies);
            printf("%-10s policy: %d playouts %7.3f s %10.0f playouts/s, %.0f plies/game\n", "",
                   d->bench_playouts, dt, dt > 0 ? d->bench_playouts / dt : 0.0,
                   (double)plies / d->bench_playouts);
        }
        if (d->bench_extra) {
            pips_str extra;
            pips_str_init(&extra, NULL);
            d->bench_extra(g, &extra);
            for (const char *line = pips_str_cstr(&extra); *line;) {
                const char *nl = strchr(line, '\n');
                int len = nl ? (int)(nl - line) : (int)strlen(line);
                printf("%-10s %.*s\n", "", len, line);
                line += len + (nl ? 1 : 0);
            }
            pips_str_free(&extra);
        }
        free(s);
        free(buf);
        pips_game_free(g);
    }
    printf("total nodes: %llu\n", (unsigned long long)signature);
    return 0;
}
