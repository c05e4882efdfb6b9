/*
 * record.c — Ziggurat game records (ziggurat.h): writing a move sequence as
 * the section-10 record and reading one back into moves.
 *
 * Invariant: read(write(moves)) yields exactly the same moves (chance
 * outcomes included), so the record replays to the same final position.
 */
#include "games/ziggurat/ziggurat.h"

#include "games/ziggurat/ziggurat_internal.h"

#include <stdlib.h>
#include <string.h>

static const char *const HEADER_KEYS[] = {"players", "mode", "omit", "pair", "move_die",
                                          "action_die", "queen", "queen_height", "first",
                                          "turn_direction", "max_turns"};
#define N_HEADER_KEYS (sizeof HEADER_KEYS / sizeof HEADER_KEYS[0])

static void seats_text(const zig_config *k, char *buf)
{
    size_t n = 0;
    for (int seat = 0; seat < k->n_seats; seat++) {
        if (seat) buf[n++] = ',';
        static const int CW[4] = {ZIG_RED, ZIG_BLUE, ZIG_YELLOW, ZIG_GREEN};
        for (int i = 0; i < 4; i++)
            if (k->seat_of[CW[i]] == seat && (k->present >> CW[i] & 1))
                buf[n++] = ZIG_COLOUR_CH[CW[i]];
    }
    buf[n] = '\0';
}

bool pips_ziggurat_record_write(const pips_game *g, const pips_move *moves, size_t n,
                                uint64_t seed, pips_str *out, pips_error *err)
{
    if (strcmp(g->def->name, "ziggurat") != 0)
        return pips_fail(err, PIPS_ERR_ARG, "record: not a Ziggurat game");
    const zig_config *k = g->config;
    char seats[16];
    seats_text(k, seats);
    pips_str_catf(out, "Ziggurat seats=%s", seats);
    for (size_t i = 0; i < N_HEADER_KEYS; i++)
        pips_str_catf(out, " %s=%s", HEADER_KEYS[i], pips_options_get(&g->options, HEADER_KEYS[i]));
    pips_str_catf(out, " seed=%llu\n", (unsigned long long)seed);
    zig_state s;
    g->def->initial(g, &s);
    bool line_open = false, last_end = false;
    int steps = 0;
    for (size_t i = 0; i < n; i++) {
        pips_error e;
        char tok[PIPS_MOVE_TEXT_MAX];
        if (!pips_check_move(g, &s, moves[i], &e))
            return pips_fail(err, PIPS_ERR_RECORD, "record: move %zu: %s", i + 1, e.msg);
        pips_zig_move_text(k, moves[i], tok);
        int kind = zig_kind(moves[i]);
        if (kind == K_ROLL) {
            if (line_open)
                pips_str_cat(out, steps ? "\n" : " -\n");
            pips_str_catf(out, "%c%s", ZIG_COLOUR_CH[s.mover], tok);
            line_open = true;
            steps = 0;
        } else if (kind == K_ROLL_RA || kind == K_ROLL_RB) {
            pips_str_cat(out, tok + 2); /* ":6" after the RA/RB already written */
        } else if (kind != K_END) {
            pips_str_catf(out, " %s", tok);
            steps++;
        }
        last_end = kind == K_END;
        g->def->apply(g, &s, moves[i]);
    }
    if (line_open) {
        bool ended = s.phase == PH_ROLL || s.phase == PH_OVER;
        pips_str_cat(out, steps || !ended ? "\n" : " -\n");
    }
    if (s.phase == PH_OVER) {
        pips_str_cat(out, "= ");
        g->def->result_text(g, &s, out);
        pips_str_cat(out, "\n");
    } else if (last_end) {
        pips_str_catf(out, "%c\n", ZIG_COLOUR_CH[s.mover]);
    }
    return true;
}

typedef struct reader {
    const pips_game *g;
    zig_state s;
    pips_move *moves;
    size_t n, cap;
    const pips_allocator *alloc;
} reader;

static bool play(reader *r, const char *text, int line, pips_error *err)
{
    pips_move m;
    if (!pips_parse_move(r->g, &r->s, text, &m, err)) {
        pips_error_prefix(err, "record line %d: ", line);
        if (err && err->code != PIPS_ERR_NOMEM) /* out of memory is not a bad record */
            err->code = PIPS_ERR_RECORD;
        return false;
    }
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 256;
        pips_move *nm = pips_realloc(r->alloc, r->moves, cap * sizeof *nm);
        if (!nm)
            return pips_fail(err, PIPS_ERR_NOMEM, "record: out of memory");
        r->moves = nm;
        r->cap = cap;
    }
    r->moves[r->n++] = m;
    r->g->def->apply(r->g, &r->s, m);
    return true;
}

static bool read_lines(reader *r, const char *body, pips_error *err)
{
    int line = 1;
    const char *p = body;
    char buf[4096];
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        line++;
        if (len >= sizeof buf)
            return pips_fail(err, PIPS_ERR_RECORD, "record line %d: too long", line);
        memcpy(buf, p, len);
        buf[len] = '\0';
        if (len && buf[len - 1] == '\r')
            buf[--len] = '\0';
        p = eol ? eol + 1 : p + len;
        if (!len)
            continue;
        /* A new line ends a turn still open (its `end` is implied). */
        if (r->s.phase == PH_STEP && !play(r, "end", line, err))
            return false;
        if (buf[0] == '=') {
            if (r->s.phase != PH_OVER)
                return pips_fail(err, PIPS_ERR_RECORD, "record line %d: the game is not over",
                                 line);
            continue;
        }
        if (r->s.phase == PH_OVER)
            return pips_fail(err, PIPS_ERR_RECORD, "record line %d: the game is already over",
                             line);
        if (buf[0] != ZIG_COLOUR_CH[r->s.mover])
            return pips_fail(err, PIPS_ERR_RECORD, "record line %d: expected a turn of %c",
                             line, ZIG_COLOUR_CH[r->s.mover]);
        char *save = NULL;
        char *tok = strtok_r(buf + 1, " ", &save);
        if (!tok)
            continue; /* dice not rolled yet */
        if (!play(r, tok, line, err))
            return false;
        while ((tok = strtok_r(NULL, " ", &save))) {
            if (!strcmp(tok, "-"))
                continue;
            if ((!strncmp(tok, "RA:", 3) || !strncmp(tok, "RB:", 3))) {
                char step[3] = {tok[0], tok[1], 0};
                if (!play(r, step, line, err) || !play(r, tok, line, err))
                    return false;
            } else if (!play(r, tok, line, err)) {
                return false;
            }
        }
    }
    return true;
}

bool pips_ziggurat_record_read(const char *text, const pips_allocator *alloc, pips_game **game,
                               pips_move **moves, size_t *n_moves, uint64_t *seed,
                               pips_error *err)
{
    const char *eol = strchr(text, '\n');
    size_t hlen = eol ? (size_t)(eol - text) : strlen(text);
    char header[1024];
    if (hlen >= sizeof header || strncmp(text, "Ziggurat ", 9) != 0)
        return pips_fail(err, PIPS_ERR_RECORD, "record line 1: expected 'Ziggurat key=value...'");
    memcpy(header, text, hlen);
    header[hlen] = '\0';
    char kvbuf[PIPS_MAX_OPTIONS][80];
    const char *kv[PIPS_MAX_OPTIONS];
    size_t nkv = 0;
    const char *seats = NULL;
    unsigned long long sd = 0;
    char *save = NULL;
    for (char *tok = strtok_r(header + 9, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        if (!strncmp(tok, "seats=", 6)) {
            seats = tok + 6;
        } else if (!strncmp(tok, "seed=", 5)) {
            char *end;
            sd = strtoull(tok + 5, &end, 10);
            if (*end || !tok[5])
                return pips_fail(err, PIPS_ERR_RECORD, "record line 1: bad seed '%.40s'", tok);
        } else {
            if (nkv == PIPS_MAX_OPTIONS || strlen(tok) >= sizeof kvbuf[0])
                return pips_fail(err, PIPS_ERR_RECORD, "record line 1: bad option '%.40s'", tok);
            strcpy(kvbuf[nkv], tok);
            kv[nkv] = kvbuf[nkv];
            nkv++;
        }
    }
    pips_error e;
    pips_game *g = pips_game_new("ziggurat", kv, nkv, alloc, &e);
    if (!g)
        return pips_fail(err, e.code == PIPS_ERR_NOMEM ? PIPS_ERR_NOMEM : PIPS_ERR_RECORD,
                         "record line 1: %s", e.msg);
    char want[16];
    seats_text(g->config, want);
    if (seats && strcmp(seats, want) != 0) {
        pips_game_free(g);
        return pips_fail(err, PIPS_ERR_RECORD,
                         "record line 1: seats=%.20s does not match the options (%s)", seats,
                         want);
    }
    reader r;
    memset(&r, 0, sizeof r);
    r.g = g;
    r.alloc = alloc;
    g->def->initial(g, &r.s);
    if (!read_lines(&r, eol ? eol + 1 : "", err)) {
        pips_free(alloc, r.moves);
        pips_game_free(g);
        return false;
    }
    *game = g;
    *moves = r.moves;
    *n_moves = r.n;
    if (seed)
        *seed = sd;
    return true;
}
