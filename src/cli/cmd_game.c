/*
 * cmd_game.c — `pips rules`, `pips solve` and `pips bench`: thin wrappers
 * over the library's rules text, exact solver and the fixed benchmark
 * workload (perft plus seeded random playouts per game).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "pips/match.h"
#include "core/unchecked.h"

int cli_rules(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, argc < 2 ? "pips rules: missing GAME\n"
                                 : "pips rules: unexpected argument '%s'\n", argv[argc - 1]);
        cli_print_usage(stderr, cli_doc_find("rules"));
        return 2;
    }
    pips_error err;
    const pips_game_def *d = pips_game_def_load(argv[1], &err); /* a FILE.lua too */
    if (!d) {
        if (pips_game_name_is_lua(argv[1]))
            fprintf(stderr, "pips rules: %s\n", err.msg);
        else
            fprintf(stderr, "pips rules: unknown game '%s' (see 'pips list')\n", argv[1]);
        return pips_game_name_is_lua(argv[1]) ? 1 : 2;
    }
    int width = cli_text_width();
    printf("%s\n\n", d->title);
    cli_print_reflowed(d->rules_text, width);
    printf("\nNotation\n");
    cli_print_reflowed(d->notation_text, width);
    /* every game is played with the same pieces (the sizes NON §2 makes normative) */
    printf("\nPieces\n");
    cli_print_wrapped(stdout,
                      "Looney Pyramids, in three sizes (base width x height): small S 14.3 x "
                      "25.4 mm, medium M 19.8 x 34.9 mm, large L 25.4 x 44.5 mm (9/16, 25/32 "
                      "and 1 inch wide; 1, 1 3/8 and 1 3/4 inch tall). Lying, a piece reaches "
                      "26.4, 36.3 or 46.3 mm from base to tip.",
                      0, 0, width);
    if (d->n_options) {
        printf("\nOptions (--opt KEY=VALUE)\n");
        for (size_t i = 0; i < d->n_options; i++) {
            pips_str line, acc;
            pips_str_init(&line, NULL);
            pips_str_init(&acc, NULL);
            pips_option_accepts(&d->options[i], &acc);
            pips_str_catf(&line, "%s=%s (%s) %s", d->options[i].key,
                          d->options[i].default_value, pips_str_cstr(&acc), d->options[i].help);
            printf("  ");
            cli_print_wrapped(stdout, pips_str_cstr(&line), 6, 2, width);
            pips_str_free(&line);
            pips_str_free(&acc);
        }
    }
    if (d->script) { /* a Lua game: its own file, not a page of docs/games/ */
        pips_game_def_release(d);
        return 0;
    }
    char rel[128], path[4096];
    snprintf(rel, sizeof rel, "games/%s.md", d->name);
    const char *page = cli_docs_path(rel, path, sizeof path);
    printf("\n");
    pips_str more;
    pips_str_init(&more, NULL);
    pips_str_catf(&more, "Every ruling id above is explained, with figures and examples, in %s%s",
                  page ? page : "docs/games/", page ? "" : d->name);
    pips_str_cat(&more, page ? "." : ".md of the pips sources.");
    cli_print_wrapped(stdout, pips_str_cstr(&more), 0, 0, width);
    pips_str_free(&more);
    return 0;
}

/* Progress of a long solve on stderr, about once a second: a line that
 * redraws itself on a terminal, one line each time otherwise. */
typedef struct solve_meter {
    bool tty, shown;
    double next; /* seconds */
} solve_meter;

static void solve_progress(void *ud, const pips_solve_progress *p)
{
    solve_meter *m = ud;
    if (p->seconds < m->next)
        return;
    m->next = p->seconds + 1.0;
    m->shown = true;
    fprintf(stderr, "%ssolving: %llu positions, %llu nodes, %.0f s, %.0f positions/s, table %.1f%% "
            "of %.0f MiB%s",
            m->tty ? "\r" : "", (unsigned long long)p->positions, (unsigned long long)p->nodes,
            p->seconds, p->seconds > 0 ? (double)p->positions / p->seconds : 0.0,
            100.0 * p->table_fill, (double)p->table_bytes / (1024.0 * 1024.0),
            m->tty ? "" : "\n");
    fflush(stderr);
}

/* Reads the position for --state or --record/--ply into state. */
static bool solve_position(const pips_game *g, const char *state_text, const char *record,
                           long ply, void *state, pips_error *err)
{
    if (state_text)
        return g->def->state_from_text(g, state_text, state, err);
    pips_match *m = pips_match_load(record, NULL, err);
    if (!m)
        return false;
    bool ok = !strcmp(m->game->def->name, g->def->name);
    if (!ok)
        pips_fail(err, PIPS_ERR_ARG, "--record %s is a %s game, not %s", record,
                  m->game->def->name, g->def->name);
    else if ((size_t)ply > m->n_moves)
        ok = pips_fail(err, PIPS_ERR_ARG, "--ply %ld: the record has only %zu moves", ply,
                       m->n_moves);
    else if (memcmp(&m->game->options, &g->options, sizeof g->options) != 0)
        ok = pips_fail(err, PIPS_ERR_ARG,
                       "--record %s was played with other options than the --opt given (leave "
                       "out --opt: the record's are used)",
                       record);
    if (ok)
        memcpy(state,
               (size_t)ply == m->n_moves ? m->state
                                         : m->history + (size_t)ply * g->def->state_size,
               g->def->state_size);
    pips_match_free(m);
    return ok;
}

int cli_solve(int argc, char **argv)
{
    const char *prog = "pips solve";
    const char *name = NULL, *opts[PIPS_MAX_OPTIONS], *state_text = NULL, *record = NULL;
    size_t nopts = 0;
    long threads = 2, table_mb = 0, ply = -1;
    double seconds = 0;
    bool best_only = false;
    const cli_flag flags[] = {
        CLI_LIST("--opt", opts, &nopts, PIPS_MAX_OPTIONS, "KEY=VALUE"),
        CLI_SWITCH("--best", &best_only),
        CLI_LONG("--threads", &threads, 1, 64),
        CLI_LONG("--table-mb", &table_mb, 1, 1L << 20),
        CLI_DOUBLE("--time", &seconds, nextafter(0, 1), HUGE_VAL, "a number of seconds > 0"),
        CLI_TEXT("--state", &state_text),
        CLI_TEXT("--record", &record),
        CLI_LONG("--ply", &ply, 0, 1L << 30),
    };
    if (!cli_parse_flags(prog, argc, argv, flags, sizeof flags / sizeof *flags, &name))
        return 2;
    if (!name || (state_text && record) || (!record) != (ply < 0) ||
        (best_only && !state_text && !record)) {
        fprintf(stderr, "%s: %s\n", prog,
                !name                  ? "missing GAME"
                : state_text && record ? "give --state or --record, not both"
                : best_only && !state_text && !record
                    ? "--best goes with --state or --record (from the start it is the default)"
                    : "--record FILE and --ply N go together");
        cli_print_usage(stderr, cli_doc_find("solve"));
        return 2;
    }
    pips_game *g;
    if (record && nopts == 0) { /* the record's own options */
        pips_error lerr;
        pips_match *m = pips_match_load(record, NULL, &lerr);
        if (!m) {
            fprintf(stderr, "%s: %s\n", prog, lerr.msg);
            return cli_exit_code(&lerr);
        }
        const pips_game_def *d = pips_game_find(name);
        g = d ? pips_game_new_opts(d, &m->game->options, NULL, &lerr) : NULL;
        if (!d)
            pips_fail(&lerr, PIPS_ERR_ARG, "unknown game '%s' (see 'pips list')", name);
        pips_match_free(m);
        if (!g) {
            fprintf(stderr, "%s: %s\n", prog, lerr.msg);
            return 2;
        }
    } else {
        g = cli_make_game(prog, name, opts, nopts);
    }
    if (!g)
        return 2;
    solve_meter meter = {isatty(2), false, 1.0};
    size_t cap = pips_max_moves(g);
    pips_solve_opts so = {(int)threads, (size_t)table_mb, solve_progress, &meter, seconds, 0,
                          NULL, NULL};
    pips_solve_result res;
    pips_error err;
    void *state = pips_state_new(g, &err);
    so.moves = calloc(cap + 1, sizeof *so.moves);
    so.move_values = calloc(cap + 1, sizeof *so.move_values);
    int rc = 1;
    bool ok = state && so.moves && so.move_values;
    if (!ok && state)
        pips_fail(&err, PIPS_ERR_NOMEM, "out of memory");
    bool from_start = !state_text && !record;
    if (ok) {
        if (from_start)
            g->def->initial(g, state);
        else
            ok = solve_position(g, state_text, record, ply, state, &err);
        if (!ok)
            rc = cli_exit_code(&err);
    }
    if (ok && !from_start && pips_to_move(g, state) < 0) {
        ok = false;
        rc = 2;
        pips_fail(&err, PIPS_ERR_ARG, "%s",
                  pips_to_move(g, state) == PIPS_OVER ? "the game is over: nothing to solve"
                                                      : "a chance event is due: not solvable");
    }
    if (ok && (from_start || best_only)) {
        ok = solve_position_unchecked(g, state, &so, &res, &err);
    } else if (ok) {
        ok = solve_moves_unchecked(g, state, &so, &res, &err);
    }
    if (meter.tty && meter.shown)
        fprintf(stderr, "\n");
    pips_error failure;
    if (ok && pips_game_failed(g, &failure)) { /* a Lua script's: the value is not one */
        ok = false;
        err = failure;
        rc = 1;
    }
    if (!ok) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        if (err.code == PIPS_ERR_LIMIT)
            rc = 3;
    } else {
        rc = 0;
        char text[PIPS_MOVE_TEXT_MAX];
        if (from_start || best_only) {
            const char *which = from_start ? "first move" : "move";
            printf("positions: %llu\nnodes: %llu\nmemory: %.1f MiB\ntime: %.2f s\n",
                   (unsigned long long)res.positions, (unsigned long long)res.nodes,
                   (double)res.memory_bytes / (1024.0 * 1024.0), res.seconds);
            if (res.value == PIPS_WIN && res.best_move != PIPS_MOVE_NONE) {
                g->def->move_to_text(g, state, res.best_move, text);
                printf("winning %s: %s\n", which, text);
            } else {
                printf("no winning %s\n", which);
            }
        } else {
            fprintf(stderr, "%s: %llu positions, %.2f s\n", prog,
                    (unsigned long long)res.positions, res.seconds);
            for (size_t i = 0; i < res.n_moves; i++) {
                g->def->move_to_text(g, state, so.moves[i], text);
                printf("%s %s\n", text, pips_value_name(so.move_values[i]));
            }
        }
        printf("%s\n", pips_value_name(res.value));
    }
    free(so.moves);
    free(so.move_values);
    pips_state_free(g, state);
    pips_game_free(g);
    return rc;
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
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-') {
            fprintf(stderr, "pips bench: unknown flag '%s'\n", argv[i]);
            cli_print_usage(stderr, cli_doc_find("bench"));
            return 2;
        }
        if (!pips_game_find(argv[i])) {
            fprintf(stderr, "pips bench: unknown game '%s' (see 'pips list')\n", argv[i]);
            return 2;
        }
    }
    uint64_t signature = 0;
    for (size_t gi = 0; gi < pips_game_count(); gi++) {
        const pips_game_def *d = pips_game_def_at(gi);
        bool wanted = argc <= 1;
        for (int i = 1; i < argc; i++)
            wanted |= pips_game_find(argv[i]) == d;
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
