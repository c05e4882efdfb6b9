/*
 * cmd_play.c — `pips play` (a game in the terminal between humans and
 * agents) and `pips replay` (validate a record, show its final position,
 * step through it on a terminal). The game runs on a pips_table (the
 * library's match driver); this file only reads lines, prints boards and
 * saves records.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "pips/agent.h"
#include "pips/match.h"
#include "pips/table.h"

#define HINT_AGENT "hard"

static void print_board(const pips_game *g, const void *state, bool tty)
{
    pips_render_opts ro = cli_render_opts(tty);
    pips_str out;
    pips_str_init(&out, NULL);
    g->def->render(g, state, &ro, &out);
    fputs(pips_str_cstr(&out), stdout);
    pips_str_free(&out);
}

static void print_legal(const pips_game *g, const void *state)
{
    size_t cap = pips_max_moves(g);
    pips_move *moves = calloc(cap, sizeof *moves);
    if (!moves)
        return;
    pips_rng rng;
    pips_rng_seed(&rng, 0);
    size_t n = pips_node_moves(g, state, &rng, moves, NULL);
    printf("%s (%zu):", g->def->flags & PIPS_GAME_NOT_ENUMERABLE ? "suggested moves" : "legal moves",
           n);
    size_t col = 80; /* wrap between moves, never inside one, before column 80 */
    for (size_t i = 0; i < n; i++) {
        char buf[PIPS_MOVE_TEXT_MAX];
        g->def->move_to_text(g, state, moves[i], buf);
        size_t len = strlen(buf);
        if (col + 1 + len >= 80) {
            printf("\n ");
            col = 1;
        }
        printf(" %s", buf);
        col += 1 + len;
    }
    printf("\n");
    free(moves);
}

static void print_game_result(const pips_match *m)
{
    pips_str out;
    pips_str_init(&out, NULL);
    m->game->def->result_text(m->game, m->state, &out);
    printf("result: %s\n", pips_str_cstr(&out));
    pips_str_free(&out);
}

static void print_result(const pips_table *t)
{
    pips_str out;
    pips_str_init(&out, NULL);
    pips_table_result_text(t, &out);
    printf("result: %s\n", pips_str_cstr(&out));
    pips_str_free(&out);
}

static void strip_line(char *line)
{
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
        line[--n] = '\0';
}

/* Reads one line of input into line (size bytes). A line longer than that
 * is read to its end and reported as too long (false with *too_long), so
 * its tail is never taken for the next command. False at end of input. */
static bool read_line(char *line, size_t size, bool *too_long)
{
    *too_long = false;
    if (!fgets(line, (int)size, stdin))
        return false;
    size_t n = strlen(line);
    if (n == size - 1 && line[n - 1] != '\n') {
        int c;
        while ((c = getchar()) != EOF && c != '\n')
            ;
        *too_long = true;
    }
    return true;
}

static void print_hint(pips_match *m, uint64_t seed)
{
    pips_error err;
    pips_agent *a = pips_agent_new(m->game, HINT_AGENT, seed, &err);
    if (!a)
        a = pips_agent_new(m->game, "random", seed, &err);
    pips_move_eval ev[5];
    size_t n = a ? pips_agent_analyze(a, m->state, ev, 5, &err) : 0;
    if (!n) {
        printf("no hint: %s\n", err.msg);
    } else {
        printf("hint (%s):", pips_agent_spec(a));
        for (size_t i = 0; i < n; i++) {
            char buf[PIPS_MOVE_TEXT_MAX];
            m->game->def->move_to_text(m->game, m->state, ev[i].move, buf);
            printf(" %s (%.2f)", buf, ev[i].value);
        }
        printf("\n");
    }
    pips_agent_free(a);
}

/* Set by SIGINT: the game stops after the current step and the record is kept. */
static volatile sig_atomic_t play_interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    play_interrupted = 1;
}

/* Prints each agent move and roll as the table plays it. */
static void print_event(void *ud, const pips_table *t, const pips_table_event *ev)
{
    (void)ud;
    const pips_match *m = pips_table_match(t);
    char buf[PIPS_MOVE_TEXT_MAX];
    if (ev->kind == PIPS_TABLE_CHANCE) {
        pips_match_move_text(m, ev->ply, buf);
        printf("roll: %s\n", buf);
    } else if (ev->kind == PIPS_TABLE_MOVE && ev->by_agent) {
        pips_match_move_text(m, ev->ply, buf);
        printf("%zu. seat %d (%s): %s\n", ev->ply + 1, ev->seat + 1, m->seats[ev->seat], buf);
    } else if (ev->kind == PIPS_TABLE_RESIGN) {
        printf("seat %d resigns\n", ev->seat + 1);
    }
}

/* Checks at the start that the record can be written at the end: opens the
 * file for appending (creating it only for the check). */
static bool record_writable(const char *path, pips_error *err)
{
    FILE *f = fopen(path, "r");
    bool existed = f != NULL;
    if (f)
        fclose(f);
    f = fopen(path, "a");
    if (!f)
        return pips_fail(err, PIPS_ERR_IO, "cannot write the record to '%s': %s", path,
                         strerror(errno));
    fclose(f);
    if (!existed)
        remove(path);
    return true;
}

/* The prompt loop of a human seat: returns when a move was played (or
 * taken back), or sets *quit. */
static void human_turn(pips_table *t, int who, uint64_t seed, bool *quit)
{
    pips_match *m = pips_table_match(t);
    const pips_game *g = m->game;
    pips_error err;
    char line[1024];
    for (;;) {
        printf("seat %d> ", who + 1);
        fflush(stdout);
        bool too_long;
        if (play_interrupted || !read_line(line, sizeof line, &too_long)) {
            *quit = true;
            printf("\n");
            return;
        }
        if (too_long) {
            printf("illegal: the line is longer than %zu characters\n", sizeof line - 2);
            continue;
        }
        strip_line(line);
        if (!line[0])
            continue;
        if (!strcmp(line, "quit") || !strcmp(line, "q")) {
            *quit = true;
            return;
        }
        if (!strcmp(line, "help") || !strcmp(line, "?")) {
            printf("type a move (%s), or: moves (suggest), undo, hint, state, quit\n",
                   "see 'pips rules' for notation");
            fputs(g->def->notation_text, stdout);
            continue;
        }
        if (!strcmp(line, "moves") || !strcmp(line, "suggest")) {
            print_legal(g, m->state);
            continue;
        }
        if (!strcmp(line, "state")) {
            pips_str st;
            pips_str_init(&st, NULL);
            g->def->state_to_text(g, m->state, &st);
            printf("%s\n", pips_str_cstr(&st));
            pips_str_free(&st);
            continue;
        }
        if (!strcmp(line, "hint")) {
            print_hint(m, seed + m->n_moves);
            continue;
        }
        if (!strcmp(line, "undo")) {
            if (!pips_table_take_back(t, &err)) {
                printf("cannot undo: %s\n", err.msg);
                continue;
            }
            return; /* redraw */
        }
        if (!pips_table_play_text(t, line, &err)) {
            printf("illegal: %s\n", err.msg);
            continue;
        }
        return;
    }
}

int cli_play(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        cli_print_help(stdout, cli_doc_find("play"));
        return 0;
    }
    const char *name = NULL, *opts[PIPS_MAX_OPTIONS], *seats[PIPS_MAX_PLAYERS],
               *record_path = NULL;
    size_t nopts = 0;
    int nseats = 0;
    uint64_t seed = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--opt")) {
            if (!cli_collect_opt("pips play", argc, argv, &i, opts, &nopts))
                return 2;
        } else if (!strcmp(argv[i], "--seat")) {
            if (i + 1 >= argc || nseats == PIPS_MAX_PLAYERS) {
                fprintf(stderr, "pips play: --seat needs a value (at most %d seats)\n",
                        PIPS_MAX_PLAYERS);
                return 2;
            }
            seats[nseats++] = argv[++i];
        } else if (!strcmp(argv[i], "--seed")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "pips play: --seed needs a value\n");
                return 2;
            }
            if (!cli_parse_seed("pips play", argv[++i], &seed))
                return 2;
        } else if (!strcmp(argv[i], "--record")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "pips play: --record needs a file name\n");
                return 2;
            }
            record_path = argv[++i];
        } else if (argv[i][0] == '-' || name) {
            fprintf(stderr, "pips play: unexpected argument '%s'\n", argv[i]);
            return 2;
        } else {
            name = argv[i];
        }
    }
    if (!name) {
        cli_print_usage(stderr, cli_doc_find("play"));
        return 2;
    }
    pips_error err;
    if (record_path && !record_writable(record_path, &err)) {
        fprintf(stderr, "pips play: %s\n", err.msg);
        return 2;
    }
    pips_match *m = pips_match_new(name, opts, nopts, seed, NULL, &err);
    if (!m) {
        fprintf(stderr, "pips play: %s\n", err.msg);
        return 2;
    }
    int np = pips_num_players(m->game);
    if (nseats == 0) {
        seats[nseats++] = "human";
        while (nseats < np)
            seats[nseats++] = "random";
    }
    if (nseats != np) {
        fprintf(stderr, "pips play: %s with these options has %d seats; give one --seat each\n",
                name, np);
        pips_match_free(m);
        return 2;
    }
    pips_table *t = pips_table_new(m, seats, np, NULL, &err);
    if (!t) {
        fprintf(stderr, "pips play: %s\n", err.msg);
        pips_match_free(m);
        return 2;
    }
    pips_table_listen(t, print_event, NULL);
    struct sigaction sa, old_sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint; /* no SA_RESTART: a read at the prompt returns */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_sa);

    const pips_game *g = m->game;
    bool tty = isatty(1);
    int status = 0;
    bool quit = false;
    while (!quit && !play_interrupted && !pips_table_over(t)) {
        if (!pips_table_run(t, 0, &err)) {
            fprintf(stderr, "pips play: %s\n", err.msg);
            status = 1;
            break;
        }
        int who = pips_table_to_move(t);
        if (who < 0 || play_interrupted)
            continue;
        print_board(g, m->state, tty);
        human_turn(t, who, seed, &quit);
    }
    sigaction(SIGINT, &old_sa, NULL);
    if (play_interrupted) {
        printf("\ninterrupted after %zu moves\n", m->n_moves);
        status = 130;
    }
    print_board(g, m->state, tty);
    print_result(t);
    if (record_path) {
        if (pips_match_save(m, record_path, &err))
            printf("record saved to %s\n", record_path);
        else {
            fprintf(stderr, "pips play: %s\n", err.msg);
            status = 1;
        }
    }
    pips_table_free(t);
    return status;
}

/* A record runs the script text it carries (docs/lua.md); say when the file
 * of that name on disk is not that text. */
static void warn_script_on_disk(const pips_game *g)
{
    const pips_script *sc = pips_game_script(g);
    if (!sc)
        return;
    FILE *f = fopen(sc->file, "rb");
    if (!f) {
        fprintf(stderr, "pips replay: note: %s is not on disk; replaying the record's copy\n",
                sc->file);
        return;
    }
    size_t cap = sc->len + 2, n;
    char *buf = malloc(cap);
    n = buf ? fread(buf, 1, cap, f) : 0;
    fclose(f);
    char sha[65] = "";
    if (buf)
        pips_sha256_hex(buf, n, sha);
    if (!buf || strcmp(sha, sc->sha256) != 0)
        fprintf(stderr,
                "pips replay: warning: %s on disk differs from the record's copy (sha256 "
                "%.12s...); replaying the record's copy\n",
                sc->file, sc->sha256);
    free(buf);
}

int cli_replay(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, argc < 2 ? "pips replay: missing FILE\n"
                                 : "pips replay: unexpected argument '%s'\n", argv[argc - 1]);
        cli_print_usage(stderr, cli_doc_find("replay"));
        return 2;
    }
    pips_error err;
    pips_match *m = pips_match_load(argv[1], NULL, &err);
    if (!m) {
        fprintf(stderr, "pips replay: %s\n", err.msg);
        return 1;
    }
    const pips_game *g = m->game;
    warn_script_on_disk(g);
    size_t ss = g->def->state_size;
    bool tty = isatty(0) && isatty(1);
    if (tty) {
        size_t at = 0;
        char line[128];
        for (;;) {
            const void *st = at < m->n_moves ? m->history + at * ss : m->state;
            printf("\nposition after %zu of %zu moves", at, m->n_moves);
            if (at > 0) {
                char buf[PIPS_MOVE_TEXT_MAX];
                pips_match_move_text(m, at - 1, buf);
                printf(" (last: %s)", buf);
            }
            printf("\n");
            print_board(g, st, true);
            printf("[Enter/n next, p previous, NUMBER jump, q quit] ");
            fflush(stdout);
            if (!fgets(line, sizeof line, stdin))
                break;
            strip_line(line);
            long v;
            if (!strcmp(line, "q"))
                break;
            else if (!strcmp(line, "p"))
                at = at ? at - 1 : 0;
            else if (!line[0] || !strcmp(line, "n"))
                at += at < m->n_moves;
            else if (pips_parse_int(line, 0, (long)m->n_moves, &v))
                at = (size_t)v;
            else /* a bad key never moves */
                printf("'%s': type Enter or n, p, a move number 0..%zu, or q\n", line,
                       m->n_moves);
        }
    }
    printf("%s, %zu moves\n", g->def->title, m->n_moves);
    print_board(g, m->state, isatty(1));
    print_game_result(m);
    pips_match_free(m);
    return 0;
}
