/*
 * cmd_engine.c — `pips engine`: a line protocol on stdin/stdout for other
 * programs, in the spirit of Go's GTP (docs/engine-protocol.md). One command
 * a line; every reply starts "= " (success) or "? " (error and message) and
 * ends with an empty line, so a client reads up to the blank line.
 *
 * Invariants: the engine holds at most one match (pips_match, from the
 * library); a failed command leaves it unchanged; chance outcomes come from
 * the match's seeded dice (pips_match_roll) unless `play` names one, and
 * every agent is seeded from the engine seed and the move number, so a
 * session replays identically.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_info.h"
#include "cli/cli.h"
#include "cli/help.h"
#include "pips/agent.h"
#include "pips/match.h"
#include "core/unchecked.h"

#define ENGINE_DEFAULT_AGENT "hard"
#define ENGINE_LINE_MAX (1u << 20)

typedef struct engine {
    pips_match *m; /* NULL until `game` */
    uint64_t seed;
    pips_str reply;
    bool quit;
} engine;

typedef bool (*engine_fn)(engine *e, char *args, pips_error *err);

typedef struct engine_command {
    const char *name;
    engine_fn run;
    bool needs_game;
} engine_command;

static bool eng_list_commands(engine *e, char *args, pips_error *err);

static bool no_args(const char *args, pips_error *err)
{
    return !*args || pips_fail(err, PIPS_ERR_ARG, "unexpected argument '%.60s'", args);
}

static bool eng_name(engine *e, char *args, pips_error *err)
{
    pips_str_cat(&e->reply, "pips");
    return no_args(args, err);
}

static bool eng_version(engine *e, char *args, pips_error *err)
{
    pips_str_cat(&e->reply, PIPS_BUILD_VERSION);
    return no_args(args, err);
}

static bool eng_quit(engine *e, char *args, pips_error *err)
{
    if (!no_args(args, err))
        return false;
    e->quit = true;
    return true;
}

/* Splits args at spaces into words (in place); returns how many. */
static size_t split_words(char *args, char **words, size_t cap)
{
    size_t n = 0;
    char *save = NULL;
    for (char *p = strtok_r(args, " \t", &save); p; p = strtok_r(NULL, " \t", &save)) {
        if (n == cap)
            return cap + 1;
        words[n++] = p;
    }
    return n;
}

static bool eng_game(engine *e, char *args, pips_error *err)
{
    char *words[PIPS_MAX_OPTIONS + 2];
    size_t n = split_words(args, words, PIPS_MAX_OPTIONS + 1);
    if (n == 0)
        return pips_fail(err, PIPS_ERR_ARG, "usage: game NAME [KEY=VALUE]...");
    if (n > PIPS_MAX_OPTIONS + 1)
        return pips_fail(err, PIPS_ERR_ARG, "too many options (at most %d)", PIPS_MAX_OPTIONS);
    pips_match *m = pips_match_new(words[0], (const char *const *)words + 1, n - 1, e->seed,
                                   NULL, err);
    if (!m)
        return false;
    pips_match_free(e->m);
    e->m = m;
    pips_str_catf(&e->reply, "%s players=%d", m->game->def->name, pips_num_players(m->game));
    return true;
}

static void cat_state(engine *e)
{
    e->m->game->def->state_to_text(e->m->game, e->m->state, &e->reply);
}

/* `state` prints the position; `state TEXT` makes TEXT the new start (the
 * moves played so far are forgotten: undo stops there). */
static bool eng_state(engine *e, char *args, pips_error *err)
{
    if (!*args) {
        cat_state(e);
        return true;
    }
    const pips_game *g = e->m->game;
    void *s = pips_state_new(g, err);
    if (!s)
        return false;
    bool ok = g->def->state_from_text(g, args, s, err);
    pips_match *m = NULL;
    if (ok) {
        char *opts[PIPS_MAX_OPTIONS];
        char buf[PIPS_MAX_OPTIONS][PIPS_OPT_KEY_MAX + PIPS_OPT_VALUE_MAX + 2];
        for (size_t i = 0; i < g->options.n; i++) {
            snprintf(buf[i], sizeof buf[i], "%s=%s", g->options.kv[i].key,
                     g->options.kv[i].value);
            opts[i] = buf[i];
        }
        m = pips_match_new(g->def->name, (const char *const *)opts, g->options.n, e->seed,
                           NULL, err);
        ok = m != NULL;
        if (ok)
            memcpy(m->state, s, g->def->state_size);
    }
    pips_state_free(g, s); /* before g goes with the old match */
    if (ok) {
        pips_match_free(e->m);
        e->m = m;
        cat_state(e);
    }
    return ok;
}

static bool eng_turn(engine *e, char *args, pips_error *err)
{
    int who = pips_to_move(e->m->game, e->m->state);
    if (who == PIPS_OVER)
        pips_str_cat(&e->reply, "over");
    else if (who == PIPS_CHANCE)
        pips_str_cat(&e->reply, "chance");
    else
        pips_str_catf(&e->reply, "%d", who + 1);
    return no_args(args, err);
}

static bool eng_legal(engine *e, char *args, pips_error *err)
{
    if (!no_args(args, err))
        return false;
    const pips_game *g = e->m->game;
    size_t cap = pips_max_moves(g);
    pips_move *moves = pips_calloc(NULL, cap ? cap : 1, sizeof *moves);
    double *prob = pips_calloc(NULL, cap ? cap : 1, sizeof *prob);
    if (!moves || !prob) {
        pips_free(NULL, moves);
        pips_free(NULL, prob);
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
    }
    pips_rng rng; /* candidates of a continuous game: the same list every time */
    pips_rng_derive(&rng, e->seed, e->m->n_moves);
    size_t n = pips_node_moves(g, e->m->state, &rng, moves, prob);
    bool chance = pips_to_move(g, e->m->state) == PIPS_CHANCE;
    for (size_t i = 0; i < n; i++) {
        char text[PIPS_MOVE_TEXT_MAX];
        g->def->move_to_text(g, e->m->state, moves[i], text);
        pips_str_catf(&e->reply, "%s%s", i ? "\n" : "", text);
        if (chance)
            pips_str_catf(&e->reply, " %.6f", prob[i]);
    }
    pips_free(NULL, moves);
    pips_free(NULL, prob);
    return true;
}

static void cat_last_move(engine *e)
{
    char text[PIPS_MOVE_TEXT_MAX];
    pips_match_move_text(e->m, e->m->n_moves - 1, text);
    pips_str_cat(&e->reply, text);
}

static bool eng_play(engine *e, char *args, pips_error *err)
{
    if (!*args)
        return pips_fail(err, PIPS_ERR_ARG, "usage: play MOVE");
    if (!pips_match_play_text(e->m, args, err))
        return false;
    cat_last_move(e);
    return true;
}

static bool eng_roll(engine *e, char *args, pips_error *err)
{
    if (!no_args(args, err) || !pips_match_roll(e->m, NULL, err))
        return false;
    cat_last_move(e);
    return true;
}

static bool eng_undo(engine *e, char *args, pips_error *err)
{
    if (!no_args(args, err) || !pips_match_undo(e->m, err))
        return false;
    pips_str_catf(&e->reply, "%zu", e->m->n_moves);
    return true;
}

static pips_agent *new_agent(engine *e, const char *spec, pips_error *err)
{
    int who = pips_to_move(e->m->game, e->m->state);
    if (who == PIPS_OVER) {
        pips_fail(err, PIPS_ERR_ILLEGAL, "the game is over");
        return NULL;
    }
    uint64_t seed = pips_mix64(e->seed ^ pips_mix64(e->m->n_moves + 1));
    return pips_agent_new(e->m->game, *spec ? spec : ENGINE_DEFAULT_AGENT, seed, err);
}

/* Plays the agent's choice; at a chance node rolls the dice instead. */
static bool eng_genmove(engine *e, char *args, pips_error *err)
{
    if (pips_to_move(e->m->game, e->m->state) == PIPS_CHANCE)
        return pips_match_roll(e->m, NULL, err) && (cat_last_move(e), true);
    pips_agent *a = new_agent(e, args, err);
    if (!a)
        return false;
    pips_move mv;
    bool ok = agent_choose_unchecked(a, e->m->state, &mv, err) && pips_match_play(e->m, mv, err);
    pips_agent_free(a);
    if (ok)
        cat_last_move(e);
    return ok;
}

static bool eng_analyze(engine *e, char *args, pips_error *err)
{
    if (pips_to_move(e->m->game, e->m->state) == PIPS_CHANCE)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "a chance event is due: roll or play it");
    pips_agent *a = new_agent(e, args, err);
    if (!a)
        return false;
    size_t cap = pips_agent_analyze_max(a);
    pips_move_eval *ev = pips_calloc(NULL, cap, sizeof *ev);
    size_t n = ev ? agent_analyze_unchecked(a, e->m->state, ev, cap, err) : 0;
    if (!ev)
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        char text[PIPS_MOVE_TEXT_MAX];
        e->m->game->def->move_to_text(e->m->game, e->m->state, ev[i].move, text);
        pips_str_catf(&e->reply, "%s%s %.4f %llu", i ? "\n" : "", text, ev[i].value,
                      (unsigned long long)ev[i].visits);
    }
    pips_free(NULL, ev);
    pips_agent_free(a);
    return n > 0;
}

static bool eng_result(engine *e, char *args, pips_error *err)
{
    if (!no_args(args, err))
        return false;
    const pips_game *g = e->m->game;
    if (!pips_match_over(e->m)) {
        pips_str_cat(&e->reply, "not over");
        return true;
    }
    g->def->result_text(g, e->m->state, &e->reply);
    double r[PIPS_MAX_PLAYERS];
    g->def->returns(g, e->m->state, r);
    pips_str_cat(&e->reply, "\nreturns");
    for (int i = 0; i < pips_num_players(g); i++)
        pips_str_catf(&e->reply, " %g", r[i]);
    return true;
}

static bool eng_showboard(engine *e, char *args, pips_error *err)
{
    if (!no_args(args, err))
        return false;
    pips_render_opts ro = {false, false};
    pips_str_cat(&e->reply, "\n");
    e->m->game->def->render(e->m->game, e->m->state, &ro, &e->reply);
    return true;
}

static bool eng_seed(engine *e, char *args, pips_error *err)
{
    uint64_t seed;
    char *end;
    if (!*args || !isdigit((unsigned char)*args))
        return pips_fail(err, PIPS_ERR_ARG, "usage: seed N (a whole number >= 0)");
    seed = strtoull(args, &end, 10);
    if (*end)
        return pips_fail(err, PIPS_ERR_ARG, "seed '%.40s': expected a whole number >= 0", args);
    e->seed = seed;
    if (e->m && e->m->n_moves == 0)
        e->m->seed = seed;
    pips_str_catf(&e->reply, "%llu", (unsigned long long)seed);
    return true;
}

static const engine_command engine_commands[] = {
    {"list_commands", eng_list_commands, false},
    {"name", eng_name, false},
    {"version", eng_version, false},
    {"game", eng_game, false},
    {"seed", eng_seed, false},
    {"state", eng_state, true},
    {"turn", eng_turn, true},
    {"legal", eng_legal, true},
    {"play", eng_play, true},
    {"roll", eng_roll, true},
    {"undo", eng_undo, true},
    {"genmove", eng_genmove, true},
    {"analyze", eng_analyze, true},
    {"result", eng_result, true},
    {"showboard", eng_showboard, true},
    {"quit", eng_quit, false},
};

static bool eng_list_commands(engine *e, char *args, pips_error *err)
{
    for (size_t i = 0; i < sizeof engine_commands / sizeof engine_commands[0]; i++)
        pips_str_catf(&e->reply, "%s%s", i ? "\n" : "", engine_commands[i].name);
    return no_args(args, err);
}

/* Runs one command line (already without its newline) and prints the reply. */
static void engine_line(engine *e, char *line)
{
    while (*line == ' ' || *line == '\t')
        line++;
    size_t len = strlen(line);
    while (len && (line[len - 1] == ' ' || line[len - 1] == '\t' || line[len - 1] == '\r'))
        line[--len] = '\0';
    if (!*line || *line == '#') /* blank lines and comments get no reply */
        return;
    char *args = line + strcspn(line, " \t");
    if (*args) {
        *args++ = '\0';
        while (*args == ' ' || *args == '\t')
            args++;
    }
    pips_error err;
    pips_error_clear(&err);
    pips_str_clear(&e->reply);
    const engine_command *c = NULL;
    for (size_t i = 0; i < sizeof engine_commands / sizeof engine_commands[0]; i++)
        if (!strcmp(line, engine_commands[i].name))
            c = &engine_commands[i];
    bool ok;
    if (!c)
        ok = pips_fail(&err, PIPS_ERR_ARG, "unknown command '%.60s' (see list_commands)", line);
    else if (c->needs_game && !e->m)
        ok = pips_fail(&err, PIPS_ERR_ARG, "no game yet: start one with 'game NAME'");
    else
        ok = c->run(e, args, &err);
    if (ok && e->reply.failed)
        ok = pips_fail(&err, PIPS_ERR_NOMEM, "out of memory for the reply");
    if (ok) {
        /* an empty line ends a reply, so none may appear inside one */
        const char *r = pips_str_cstr(&e->reply);
        fputs("= ", stdout);
        for (size_t i = 0; r[i]; i++)
            if (r[i] != '\n' || (r[i + 1] != '\n' && r[i + 1] != '\0'))
                putchar(r[i]);
        fputs("\n\n", stdout);
    }
    else { /* the message may quote the input: its control bytes come out escaped */
        pips_str msg;
        pips_str_init(&msg, NULL);
        cli_escape_text(err.msg, &msg);
        printf("? %s\n\n", pips_str_cstr(&msg));
        pips_str_free(&msg);
    }
    fflush(stdout);
}

int cli_engine(int argc, char **argv)
{
    const cli_cmd_doc *doc = cli_doc_find("engine");
    engine e = {NULL, 1, {0}, false};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            if (!cli_parse_seed("pips engine", argv[++i], &e.seed))
                return 2;
        } else {
            fprintf(stderr, "pips engine: unexpected argument '%s'\n", argv[i]);
            cli_print_usage(stderr, doc);
            return 2;
        }
    }
    pips_str_init(&e.reply, NULL);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while (!e.quit && (n = getline(&line, &cap, stdin)) >= 0) {
        if (n > 0 && line[n - 1] == '\n')
            line[--n] = '\0';
        if ((size_t)n > ENGINE_LINE_MAX || strlen(line) != (size_t)n) {
            printf("? line %s\n\n", (size_t)n > ENGINE_LINE_MAX ? "longer than 1 MiB"
                                                                 : "contains a NUL byte");
            fflush(stdout);
            continue;
        }
        engine_line(&e, line);
    }
    free(line);
    pips_str_free(&e.reply);
    pips_match_free(e.m);
    return 0;
}
