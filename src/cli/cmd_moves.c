/*
 * cmd_moves.c — `pips moves`: the legal moves of a position (the start, or
 * --state TEXT), filtered by --filter TEXT and grouped so a long list reads:
 * a move written PIECE@WHERE[:POSE] (Nimitz, Tic Tac Doh!, Noname) goes on
 * its piece's line, each place followed by its poses ("rL: a1:U,N,E,S,W
 * b2:N"); other moves are listed as they are. --flat prints one move a line
 * for scripts. For a game without a finite move list (Noname) the moves are
 * the engine's suggested candidates, and say so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/help.h"

/* A move text split for grouping: piece "rL", place "b2", pose "N" (each
 * may be empty: a move without '@' is all piece). */
typedef struct move_parts {
    char text[PIPS_MOVE_TEXT_MAX];
    size_t piece_len, place_start, place_len, pose_start;
} move_parts;

static void split_move(const char *text, move_parts *p)
{
    snprintf(p->text, sizeof p->text, "%s", text);
    const char *at = strchr(p->text, '@');
    size_t n = strlen(p->text);
    if (!at) {
        p->piece_len = n;
        p->place_start = p->place_len = p->pose_start = n;
        return;
    }
    p->piece_len = (size_t)(at - p->text);
    p->place_start = p->piece_len + 1;
    size_t place = strcspn(p->text + p->place_start, ":/>");
    p->place_len = place;
    p->pose_start = p->place_start + place + (p->place_start + place < n);
}

static bool same_span(const char *a, size_t alen, const char *b, size_t blen)
{
    return alen == blen && !memcmp(a, b, alen);
}

/* True when text holds filter, letters compared without case. */
static bool contains(const char *text, const char *filter)
{
    size_t n = strlen(filter);
    for (const char *p = text; *p; p++) {
        size_t k = 0;
        while (k < n && p[k]) {
            char a = p[k], b = filter[k];
            if (a >= 'A' && a <= 'Z')
                a = (char)(a - 'A' + 'a');
            if (b >= 'A' && b <= 'Z')
                b = (char)(b - 'A' + 'a');
            if (a != b)
                break;
            k++;
        }
        if (k == n)
            return true;
    }
    return n == 0;
}

/* Prints the moves grouped: one line per piece (in the order met), its
 * places in order with their poses joined by ','. */
static void print_grouped(const move_parts *mv, size_t n, int width)
{
    bool *done = calloc(n ? n : 1, sizeof *done);
    if (!done)
        return;
    pips_str line;
    pips_str_init(&line, NULL);
    for (size_t i = 0; i < n; i++) {
        if (done[i])
            continue;
        const move_parts *lead = &mv[i];
        size_t count = 0;
        for (size_t j = i; j < n; j++)
            count += same_span(mv[j].text, mv[j].piece_len, lead->text, lead->piece_len);
        pips_str_clear(&line);
        if (lead->piece_len == strlen(lead->text)) { /* no '@': the moves as they are */
            for (size_t j = i; j < n; j++)
                if (!done[j] && mv[j].piece_len == strlen(mv[j].text)) {
                    pips_str_catf(&line, "%s%s", line.len ? " " : "", mv[j].text);
                    done[j] = true;
                }
            cli_print_wrapped(stdout, pips_str_cstr(&line), 2, 0, width);
            continue;
        }
        pips_str_catf(&line, "%.*s (%zu):", (int)lead->piece_len, lead->text, count);
        for (size_t j = i; j < n; j++) {
            const move_parts *p = &mv[j];
            if (done[j] || !same_span(p->text, p->piece_len, lead->text, lead->piece_len))
                continue;
            pips_str_catf(&line, " %.*s", (int)p->place_len, p->text + p->place_start);
            char sep[2] = {p->text[p->place_start + p->place_len], '\0'}; /* ':' '/' '>' */
            for (size_t k = j; k < n; k++) { /* every pose of this piece on this place */
                const move_parts *q = &mv[k];
                if (done[k] || !same_span(q->text, q->piece_len, lead->text, lead->piece_len) ||
                    !same_span(q->text + q->place_start, q->place_len, p->text + p->place_start,
                               p->place_len))
                    continue;
                if (q->text[q->pose_start]) {
                    pips_str_catf(&line, "%s%s", sep, q->text + q->pose_start);
                    sep[0] = ',';
                }
                done[k] = true;
            }
        }
        cli_print_wrapped(stdout, pips_str_cstr(&line), 4, 0, width);
    }
    pips_str_free(&line);
    free(done);
}

size_t cli_print_moves(const pips_game *g, const void *state, const char *filter, bool flat)
{
    size_t cap = pips_max_moves(g);
    pips_move *moves = calloc(cap ? cap : 1, sizeof *moves);
    move_parts *parts = calloc(cap ? cap : 1, sizeof *parts);
    if (!moves || !parts) {
        free(moves);
        free(parts);
        printf("out of memory listing the moves\n");
        return 0;
    }
    pips_rng rng;
    pips_rng_seed(&rng, 0);
    int who = pips_to_move(g, state);
    size_t n = who == PIPS_OVER ? 0 : pips_node_moves(g, state, &rng, moves, NULL);
    size_t shown = 0;
    for (size_t i = 0; i < n; i++) {
        char text[PIPS_MOVE_TEXT_MAX];
        g->def->move_to_text(g, state, moves[i], text);
        if (contains(text, filter))
            split_move(text, &parts[shown++]);
    }
    const char *what = who == PIPS_CHANCE                           ? "chance outcomes"
                       : g->def->flags & PIPS_GAME_NOT_ENUMERABLE ? "suggested moves"
                                                                    : "legal moves";
    if (flat) {
        for (size_t i = 0; i < shown; i++)
            printf("%s\n", parts[i].text);
    } else {
        printf("# %s, ", g->def->title);
        if (who >= 0)
            printf("seat %d to move: ", who + 1);
        else
            printf("%s: ", who == PIPS_CHANCE ? "a chance event" : "the game is over");
        printf("%zu %s", n, what);
        if (*filter)
            printf(", %zu with '%s'", shown, filter);
        printf("\n");
        print_grouped(parts, shown, cli_text_width());
    }
    free(parts);
    free(moves);
    return shown;
}

int cli_moves(int argc, char **argv)
{
    const char *prog = "pips moves";
    const char *name = NULL, *state_text = NULL, *filter = "";
    const char *opts[PIPS_MAX_OPTIONS];
    size_t nopts = 0;
    bool flat = false;
    const cli_flag flags[] = {
        CLI_LIST("--opt", opts, &nopts, PIPS_MAX_OPTIONS, "KEY=VALUE"),
        CLI_TEXT("--state", &state_text),
        CLI_TEXT("--filter", &filter),
        CLI_SWITCH("--flat", &flat),
    };
    if (!cli_parse_flags(prog, argc, argv, flags, sizeof flags / sizeof *flags, &name))
        return 2;
    if (!name) {
        fprintf(stderr, "%s: missing GAME\n", prog);
        cli_print_usage(stderr, cli_doc_find("moves"));
        return 2;
    }
    pips_game *g = cli_make_game(prog, name, opts, nopts);
    if (!g)
        return 2;
    pips_error err;
    int rc = 2;
    void *state = pips_state_new(g, &err);
    if (!state) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        rc = 1;
    } else if (state_text && !g->def->state_from_text(g, state_text, state, &err)) {
        fprintf(stderr, "%s: --state: %s\n", prog, err.msg);
    } else {
        if (!state_text)
            g->def->initial(g, state);
        cli_print_moves(g, state, filter, flat);
        rc = 0;
    }
    pips_state_free(g, state);
    pips_game_free(g);
    return rc;
}
