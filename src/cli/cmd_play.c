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
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "pips/agent.h"
#include "pips/match.h"
#include "pips/table.h"
#include "core/unchecked.h"

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
    size_t n = a ? agent_analyze_unchecked(a, m->state, ev, 5, &err) : 0;
    if (!n) {
        printf("no hint: %s\n", err.msg);
    } else {
        char label[PIPS_AGENT_LABEL_MAX];
        printf("hint from %s, best first:\n", pips_agent_label(a, label, sizeof label));
        for (size_t i = 0; i < n; i++) {
            char buf[PIPS_MOVE_TEXT_MAX], value[32];
            m->game->def->move_to_text(m->game, m->state, ev[i].move, buf);
            pips_move_eval_text(&ev[i], pips_num_players(m->game), value, sizeof value);
            printf("  %s %s\n", buf, value);
        }
        printf("(value: %s)\n", cli_value_legend(m->game));
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

/* What the table's listener needs: where the record goes, and whether the
 * last write failed (said once, not after every move). */
typedef struct play_log {
    const char *record_path;
    bool write_failed;
} play_log;

/* Writes the record (atomically; see pips_match_save). Says so on stderr
 * when a write fails, and again when writing works after a failure. */
static bool save_record(play_log *log, const pips_match *m)
{
    pips_error err;
    if (!log->record_path)
        return true;
    if (!pips_match_save(m, log->record_path, &err)) {
        if (!log->write_failed)
            fprintf(stderr, "pips play: %s (the game goes on; the record is tried again after "
                            "every move)\n",
                    err.msg);
        log->write_failed = true;
        return false;
    }
    if (log->write_failed)
        fprintf(stderr, "pips play: the record is written again to %s\n", log->record_path);
    log->write_failed = false;
    return true;
}

/* Prints each agent move and roll as the table plays it, numbered as in
 * records (cli_print_ply), and saves the record after every change. */
static void on_table_event(void *ud, const pips_table *t, const pips_table_event *ev)
{
    play_log *log = ud;
    const pips_match *m = pips_table_match(t);
    char label[PIPS_AGENT_LABEL_MAX];
    if (ev->kind == PIPS_TABLE_CHANCE) {
        cli_print_ply(m, ev->ply, NULL);
    } else if (ev->kind == PIPS_TABLE_MOVE && ev->by_agent) {
        const pips_agent *a = pips_table_agent(t, ev->seat);
        cli_print_ply(m, ev->ply, a ? pips_agent_label(a, label, sizeof label) : "autopilot");
    } else if (ev->kind == PIPS_TABLE_RESIGN) {
        printf("seat %d resigns\n", ev->seat + 1);
    }
    if (ev->kind != PIPS_TABLE_OVER) /* OVER follows the move that ended the game */
        save_record(log, m);
}

/* Checks at the start that the record can be written: a file that exists
 * is refused unless overwrite (--force); the file is opened for appending
 * (created only for the check) so a directory or a missing folder is found
 * before the first move. */
static bool record_writable(const char *path, bool overwrite, pips_error *err)
{
    struct stat st;
    bool existed = stat(path, &st) == 0;
    if (existed && !overwrite)
        return pips_fail(err, PIPS_ERR_ARG,
                         "--record '%s' exists; give --force to overwrite it, or --resume "
                         "'%s' to continue its game",
                         path, path);
    if (existed && S_ISDIR(st.st_mode))
        return pips_fail(err, PIPS_ERR_IO, "--record '%s' is a directory", path);
    FILE *f = fopen(path, "a");
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
            printf("type a move (%s), or: moves [TEXT] (the legal moves, those holding TEXT;\n"
                   "suggest for Noname), undo, hint, state, quit\n",
                   "see 'pips rules' for notation");
            fputs(g->def->notation_text, stdout);
            continue;
        }
        if (!strcmp(line, "moves") || !strcmp(line, "suggest") || !strncmp(line, "moves ", 6)) {
            cli_print_moves(g, m->state, line[5] == ' ' ? line + 6 : "", false);
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
            pips_str msg; /* it quotes the line typed: control bytes come out escaped */
            pips_str_init(&msg, NULL);
            cli_escape_text(err.msg, &msg);
            printf("illegal: %s\n", pips_str_cstr(&msg));
            pips_str_free(&msg);
            continue;
        }
        return;
    }
}

/* The match `pips play --resume path` continues: the record's game, options,
 * seed and moves. NULL (with the message printed and *status set) when it
 * cannot be read or its game is over. */
static pips_match *resume_match(const char *path, int *status)
{
    pips_error err;
    pips_match *m = pips_match_load(path, NULL, &err);
    if (!m) {
        fprintf(stderr, "pips play: --resume: %s\n", err.msg);
        *status = cli_exit_code(&err);
        return NULL;
    }
    if (pips_match_over(m)) {
        pips_str text;
        pips_str_init(&text, NULL);
        m->game->def->result_text(m->game, m->state, &text);
        fprintf(stderr, "pips play: --resume: the game in '%s' is over after %zu moves (%s); "
                        "there is nothing to continue\n",
                path, m->n_moves, pips_str_cstr(&text));
        pips_str_free(&text);
        pips_match_free(m);
        *status = 2;
        return NULL;
    }
    return m;
}

int cli_play(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        cli_print_help(stdout, cli_doc_find("play"));
        return 0;
    }
    const char *prog = "pips play";
    const char *name = NULL, *opts[PIPS_MAX_OPTIONS], *seats[PIPS_MAX_PLAYERS],
               *record_path = NULL, *resume_path = NULL;
    size_t nopts = 0;
    size_t nseats = 0;
    uint64_t seed = 1;
    bool force = false;
    const char *seed_text = NULL; /* read after: --resume refuses a --seed given */
    const cli_flag flags[] = {
        CLI_LIST("--opt", opts, &nopts, PIPS_MAX_OPTIONS, "KEY=VALUE"),
        CLI_LIST("--seat", seats, &nseats, PIPS_MAX_PLAYERS, "human or an agent spec"),
        CLI_TEXT("--seed", &seed_text),
        CLI_TEXT("--record", &record_path),
        CLI_TEXT("--resume", &resume_path),
        CLI_SWITCH("--force", &force),
    };
    if (!cli_parse_flags(prog, argc, argv, flags, sizeof flags / sizeof *flags, &name) ||
        (seed_text && !cli_parse_seed(prog, seed_text, &seed)))
        return 2;
    bool seed_given = seed_text != NULL;
    const char *problem = resume_path && name ? "--resume takes the game from the record; "
                                                "leave out GAME"
                          : resume_path && nopts ? "--resume plays on with the record's "
                                                   "options; leave out --opt"
                          : resume_path && seed_given ? "--resume plays on with the record's "
                                                        "seed; leave out --seed"
                          : !resume_path && !name ? "missing GAME"
                                                  : NULL;
    if (problem) {
        fprintf(stderr, "%s: %s\n", prog, problem);
        cli_print_usage(stderr, cli_doc_find("play"));
        return 2;
    }
    pips_error err;
    if (record_path && (!resume_path || strcmp(record_path, resume_path) != 0) &&
        !record_writable(record_path, force, &err)) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        return 2; /* an output checked before the work is bad input, as for --out */
    }
    int status = 0;
    pips_match *m = resume_path ? resume_match(resume_path, &status)
                                : pips_match_new(name, opts, nopts, seed, NULL, &err);
    if (!m) {
        if (!resume_path)
            fprintf(stderr, "%s: %s\n", prog, err.msg);
        return resume_path ? status : cli_exit_code(&err);
    }
    if (resume_path && !record_path)
        record_path = resume_path; /* the continued game goes on in its own record */
    seed = m->seed;
    size_t np = (size_t)pips_num_players(m->game);
    char record_seats[PIPS_MAX_PLAYERS][PIPS_SEAT_MAX]; /* the table rewrites m->seats */
    if (nseats == 0 && resume_path) {
        for (size_t s = 0; s < np; s++) {
            memcpy(record_seats[s], m->seats[s], PIPS_SEAT_MAX);
            seats[nseats++] = record_seats[s];
        }
    } else if (nseats == 0) {
        seats[nseats++] = "human";
        while (nseats < np)
            seats[nseats++] = "random";
    }
    if (nseats != np) {
        fprintf(stderr, "%s: %s with these options has %zu seats; give one --seat each\n", prog,
                m->game->def->name, np);
        pips_match_free(m);
        return 2;
    }
    pips_table *t = pips_table_new(m, seats, (int)np, NULL, &err);
    if (!t) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        pips_match_free(m);
        return 2;
    }
    play_log log = {record_path, false};
    pips_table_listen(t, on_table_event, &log);
    if (resume_path)
        printf("resuming %s after move %zu\n", resume_path, m->n_moves);
    if (!save_record(&log, m) && !resume_path) { /* the file exists from the start */
        pips_table_free(t);
        return 1;
    }
    struct sigaction sa, old_sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint; /* no SA_RESTART: a read at the prompt returns */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_sa);

    const pips_game *g = m->game;
    bool tty = isatty(1);
    bool quit = false;
    while (!quit && !play_interrupted && !pips_table_over(t)) {
        if (!pips_table_run(t, 0, &err)) {
            fprintf(stderr, "%s: %s\n", prog, err.msg);
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
        if (save_record(&log, m))
            printf("record saved to %s\n%s%s%s", record_path,
                   pips_table_over(t) ? "" : "continue the game with: pips play --resume ",
                   pips_table_over(t) ? "" : record_path, pips_table_over(t) ? "" : "\n");
        else if (status == 0)
            status = 1;
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

/* A record read from standard input (`pips replay -`). */
static pips_match *load_stdin(pips_error *err)
{
    pips_str text;
    pips_str_init(&text, NULL);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, stdin)) > 0 && text.len < (64u << 20))
        pips_str_catn(&text, buf, n);
    pips_match *m = NULL;
    if (ferror(stdin))
        pips_fail(err, PIPS_ERR_IO, "cannot read the record from standard input: %s",
                  strerror(errno));
    else if (text.failed)
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory reading standard input");
    else if (text.len >= (64u << 20))
        pips_fail(err, PIPS_ERR_RECORD, "the record on standard input is larger than 64 MiB");
    else
        m = pips_match_from_record(pips_str_cstr(&text), NULL, err);
    pips_str_free(&text);
    return m;
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
    bool from_stdin = !strcmp(argv[1], "-");
    pips_match *m = from_stdin ? load_stdin(&err) : pips_match_load(argv[1], NULL, &err);
    if (!m) {
        fprintf(stderr, "pips replay: %s\n", err.msg);
        return cli_exit_code(&err);
    }
    const pips_game *g = m->game;
    warn_script_on_disk(g);
    size_t ss = g->def->state_size;
    bool tty = !from_stdin && isatty(0) && isatty(1); /* keys come from stdin */
    if (tty) {
        size_t at = 0;
        char line[128];
        for (;;) {
            const void *st = at < m->n_moves ? m->history + at * ss : m->state;
            printf("\nposition after %zu of %zu moves%s\n", at, m->n_moves, at ? ", the last:" : "");
            if (at > 0)
                cli_print_ply(m, at - 1, NULL);
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
