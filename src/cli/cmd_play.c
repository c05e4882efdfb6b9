/*
 * cmd_play.c — `pips play` (a game in the terminal between humans and
 * agents) and `pips replay` (validate a record, show its final position,
 * step through it on a terminal). All rules come from the library; this file
 * only reads lines, prints boards and saves records.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "pips/agent.h"
#include "pips/match.h"

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

static void print_result(const pips_match *m)
{
    pips_str out;
    pips_str_init(&out, NULL);
    m->game->def->result_text(m->game, m->state, &out);
    printf("result: %s\n", pips_str_cstr(&out));
    pips_str_free(&out);
}

static void strip_line(char *line)
{
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
        line[--n] = '\0';
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

static const char PLAY_HELP[] =
    "usage: pips play GAME [--opt KEY=VALUE]... [--seat human|AGENT]... [--seed N]\n"
    "                 [--record FILE]\n\n"
    "Plays GAME in the terminal. One --seat per player in seat order: 'human' or an\n"
    "agent spec such as 'random' (default: seat 1 human, the others random). With no\n"
    "human seat the game plays itself to the end without reading input. The board uses\n"
    "Unicode and colour when stdout is a terminal.\n\n"
    "At the prompt type a move, or: help, moves (legal moves; for Noname, 'suggest'\n"
    "lists candidate placements), undo, hint, state, quit.\n";

int cli_play(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs(PLAY_HELP, stdout);
        return 0;
    }
    const char *name = NULL, *opts[PIPS_MAX_OPTIONS], *seats[PIPS_MAX_PLAYERS],
               *record_path = NULL;
    size_t nopts = 0;
    int nseats = 0;
    long long seed = 1;
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
            long v;
            if (i + 1 >= argc || !pips_parse_int(argv[++i], 0, 0x7fffffffffffffffL, &v)) {
                fprintf(stderr, "pips play: --seed needs a non-negative integer\n");
                return 2;
            }
            seed = v;
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
        fputs(PLAY_HELP, stderr);
        return 2;
    }
    pips_error err;
    pips_match *m = pips_match_new(name, opts, nopts, (uint64_t)seed, NULL, &err);
    if (!m) {
        fprintf(stderr, "pips play: %s\n", err.msg);
        return 2;
    }
    const pips_game *g = m->game;
    int np = pips_num_players(g);
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
    pips_agent *agents[PIPS_MAX_PLAYERS] = {NULL};
    for (int i = 0; i < np; i++) {
        if (!strcmp(seats[i], "human"))
            continue;
        agents[i] = pips_agent_new(g, seats[i], (uint64_t)seed * 7919u + (uint64_t)i, &err);
        if (!agents[i]) {
            fprintf(stderr, "pips play: seat %d: %s\n", i + 1, err.msg);
            for (int k = 0; k < i; k++)
                pips_agent_free(agents[k]);
            pips_match_free(m);
            return 2;
        }
    }
    if (!pips_match_set_seats(m, seats, np, &err)) {
        fprintf(stderr, "pips play: %s\n", err.msg);
        return 2;
    }
    bool tty = isatty(1);
    int status = 0;
    bool quit = false;
    char line[1024];
    while (!quit && !pips_match_over(m)) {
        int who = pips_to_move(g, m->state);
        if (who == PIPS_CHANCE) {
            pips_move mv;
            char buf[PIPS_MOVE_TEXT_MAX];
            if (!pips_match_roll(m, &mv, &err)) {
                fprintf(stderr, "pips play: %s\n", err.msg);
                status = 1;
                break;
            }
            pips_match_move_text(m, m->n_moves - 1, buf);
            printf("roll: %s\n", buf);
            continue;
        }
        if (agents[who]) {
            pips_move mv;
            char buf[PIPS_MOVE_TEXT_MAX];
            if (!pips_agent_choose(agents[who], m->state, &mv, &err) ||
                !pips_match_play(m, mv, &err)) {
                fprintf(stderr, "pips play: seat %d (%s): %s\n", who + 1, seats[who], err.msg);
                status = 1;
                break;
            }
            pips_match_move_text(m, m->n_moves - 1, buf);
            printf("%zu. seat %d (%s): %s\n", m->n_moves, who + 1, seats[who], buf);
            for (int k = 0; k < np; k++)
                if (agents[k] && k != who)
                    pips_agent_observe(agents[k], m->history + (m->n_moves - 1) *
                                                                   g->def->state_size, mv);
            continue;
        }
        print_board(g, m->state, tty);
        for (;;) {
            printf("seat %d> ", who + 1);
            fflush(stdout);
            if (!fgets(line, sizeof line, stdin)) {
                quit = true;
                printf("\n");
                break;
            }
            strip_line(line);
            if (!line[0])
                continue;
            if (!strcmp(line, "quit") || !strcmp(line, "q")) {
                quit = true;
                break;
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
                print_hint(m, (uint64_t)seed + m->n_moves);
                continue;
            }
            if (!strcmp(line, "undo")) {
                if (!pips_match_undo_to_seat(m, who, &err))
                    printf("cannot undo: %s\n", err.msg);
                break; /* redraw */
            }
            if (!pips_match_play_text(m, line, &err)) {
                printf("illegal: %s\n", err.msg);
                continue;
            }
            for (int k = 0; k < np; k++)
                if (agents[k])
                    pips_agent_observe(agents[k],
                                       m->history + (m->n_moves - 1) * g->def->state_size,
                                       m->moves[m->n_moves - 1]);
            break;
        }
    }
    print_board(g, m->state, tty);
    print_result(m);
    if (record_path) {
        if (pips_match_save(m, record_path, &err))
            printf("record saved to %s\n", record_path);
        else {
            fprintf(stderr, "pips play: %s\n", err.msg);
            status = 1;
        }
    }
    for (int k = 0; k < np; k++)
        pips_agent_free(agents[k]);
    pips_match_free(m);
    return status;
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
    print_result(m);
    pips_match_free(m);
    return 0;
}
