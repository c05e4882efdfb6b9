/*
 * match.c — a game in progress (state, moves, history for exact undo,
 * seeded dice) and its JSON record (jansson).
 *
 * Invariants: history holds n_moves states, history[i] being the state
 * before moves[i]; state equals the start position with moves applied; a
 * failed call changes nothing.
 */
#include "pips/match.h"

#include "play/play_json.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pips/agent.h"

_Static_assert(PIPS_SEAT_MAX >= PIPS_SPEC_MAX, "a seat holds any agent spec");

void pips_iso_time(char *buf)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, PIPS_TIME_MAX, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static pips_match *match_start(pips_game *g, uint64_t seed, bool borrowed, pips_error *err)
{
    if (!g) {
        pips_fail(err, PIPS_ERR_ARG, "no game (NULL) for a match");
        return NULL;
    }
    pips_match *m = pips_calloc(g->alloc, 1, sizeof *m);
    if (!m) {
        if (!borrowed)
            pips_game_free(g);
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory for a match");
        return NULL;
    }
    m->game = g;
    m->game_borrowed = borrowed;
    m->seed = seed;
    m->state = pips_state_new(g, err);
    if (!m->state) {
        pips_match_free(m);
        return NULL;
    }
    g->def->initial(g, m->state);
    m->n_seats = pips_num_players(g);
    for (int i = 0; i < m->n_seats; i++)
        snprintf(m->seats[i], PIPS_SEAT_MAX, "human");
    pips_iso_time(m->started);
    return m;
}

pips_match *pips_match_from_game(pips_game *g, uint64_t seed, pips_error *err)
{
    return match_start(g, seed, false, err);
}

pips_match *pips_match_on_game(pips_game *g, uint64_t seed, pips_error *err)
{
    return match_start(g, seed, true, err);
}

pips_match *pips_match_new(const char *game, const char *const *kv, size_t n_opts,
                           uint64_t seed, const pips_allocator *alloc, pips_error *err)
{
    pips_game *g = pips_game_new(game, kv, n_opts, alloc, err);
    return g ? pips_match_from_game(g, seed, err) : NULL;
}

void pips_match_free(pips_match *m)
{
    if (!m)
        return;
    const pips_allocator *a = m->game->alloc;
    pips_free(a, m->moves);
    pips_free(a, m->history);
    pips_state_free(m->game, m->state);
    if (!m->game_borrowed)
        pips_game_free(m->game);
    pips_free(a, m);
}

bool pips_match_set_seats(pips_match *m, const char *const *seats, int n, pips_error *err)
{
    if (!m || !seats)
        return pips_fail(err, PIPS_ERR_ARG, "no %s (NULL)", !m ? "match" : "seats");
    if (n != m->n_seats)
        return pips_fail(err, PIPS_ERR_ARG, "%s needs %d seats, got %d", m->game->def->name,
                         m->n_seats, n);
    for (int i = 0; i < n; i++) {
        if (!seats[i] || !*seats[i])
            return pips_fail(err, PIPS_ERR_ARG, "seat %d: empty", i + 1);
        if (strlen(seats[i]) >= PIPS_SEAT_MAX)
            return pips_fail(err, PIPS_ERR_ARG, "seat %d: '%.40s...' is longer than %d characters",
                             i + 1, seats[i], PIPS_SEAT_MAX - 1);
    }
    for (int i = 0; i < n; i++)
        snprintf(m->seats[i], PIPS_SEAT_MAX, "%s", seats[i]);
    return true;
}

static bool reserve(pips_match *m, pips_error *err)
{
    if (m->n_moves < m->cap)
        return true;
    size_t cap = m->cap ? m->cap * 2 : 64, ss = m->game->def->state_size;
    pips_move *mv = pips_realloc(m->game->alloc, m->moves, cap * sizeof *mv);
    if (!mv)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory growing the move list");
    m->moves = mv;
    unsigned char *h = pips_realloc(m->game->alloc, m->history, cap * ss);
    if (!h)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory growing the history");
    m->history = h;
    m->cap = cap;
    return true;
}

bool pips_match_over(const pips_match *m)
{
    return !m || pips_to_move(m->game, m->state) == PIPS_OVER;
}

/* A scripted game's failure (src/lua/) during this ply: the message gets the
 * ply, the failure is cleared (the position is the one before the move). */
static bool script_failed(pips_match *m, pips_error *err)
{
    pips_error why;
    if (!pips_game_failed(m->game, &why))
        return false;
    pips_game_clear_failure(m->game);
    pips_fail(err, why.code, "ply %zu: %s", m->n_moves + 1, why.msg);
    return true;
}

bool pips_match_play(pips_match *m, pips_move mv, pips_error *err)
{
    if (!m)
        return pips_fail(err, PIPS_ERR_ARG, "no match (NULL)");
    if (!pips_check_move(m->game, m->state, mv, err)) {
        script_failed(m, err);
        return false;
    }
    if (!reserve(m, err))
        return false;
    size_t ss = m->game->def->state_size;
    bool chance = pips_to_move(m->game, m->state) == PIPS_CHANCE;
    memcpy(m->history + m->n_moves * ss, m->state, ss);
    m->moves[m->n_moves++] = mv;
    m->game->def->apply(m->game, m->state, mv);
    bool over = pips_match_over(m);
    if (pips_game_failed(m->game, NULL)) { /* the move never happened */
        m->n_moves--;
        memcpy(m->state, m->history + m->n_moves * ss, ss);
        return !script_failed(m, err);
    }
    if (chance)
        m->chance_events++;
    if (over && !m->finished[0])
        pips_iso_time(m->finished);
    return true;
}

bool pips_match_play_text(pips_match *m, const char *text, pips_error *err)
{
    if (!m || !text)
        return pips_fail(err, PIPS_ERR_ARG, "no %s (NULL)", !m ? "match" : "move text");
    pips_move mv;
    if (!m->game->def->move_from_text(m->game, m->state, text, &mv, err))
        return false;
    return pips_match_play(m, mv, err);
}

bool pips_match_draw(const pips_match *m, pips_move *out, pips_error *err)
{
    if (!m)
        return pips_fail(err, PIPS_ERR_ARG, "no match (NULL)");
    if (pips_to_move(m->game, m->state) != PIPS_CHANCE)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "no chance event is due");
    size_t cap = pips_max_moves(m->game);
    pips_move *moves = pips_malloc(m->game->alloc, cap * sizeof *moves);
    double *prob = pips_malloc(m->game->alloc, cap * sizeof *prob);
    bool ok = moves && prob;
    if (!ok) {
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory rolling dice");
    } else {
        size_t n = m->game->def->chance_outcomes(m->game, m->state, moves, prob);
        pips_rng rng;
        pips_rng_derive(&rng, m->seed, m->chance_events);
        *out = moves[pips_sample_chance(&rng, prob, n)];
    }
    pips_free(m->game->alloc, moves);
    pips_free(m->game->alloc, prob);
    return ok;
}

bool pips_match_roll(pips_match *m, pips_move *out, pips_error *err)
{
    pips_move mv;
    if (!pips_match_draw(m, &mv, err) || !pips_match_play(m, mv, err))
        return false;
    if (out)
        *out = mv;
    return true;
}

bool pips_match_undo(pips_match *m, pips_error *err)
{
    if (!m)
        return pips_fail(err, PIPS_ERR_ARG, "no match (NULL)");
    if (m->n_moves == 0)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "nothing to undo");
    size_t ss = m->game->def->state_size;
    m->n_moves--;
    memcpy(m->state, m->history + m->n_moves * ss, ss);
    if (pips_to_move(m->game, m->state) == PIPS_CHANCE)
        m->chance_events--;
    m->finished[0] = '\0';
    return true;
}

void pips_match_move_text(const pips_match *m, size_t i, char *buf)
{
    const void *before = m->history + i * m->game->def->state_size;
    m->game->def->move_to_text(m->game, before, m->moves[i], buf);
}

/* ---- records ---- */

char *pips_match_to_record(const pips_match *m, pips_error *err)
{
    if (!m) {
        pips_fail(err, PIPS_ERR_ARG, "no match (NULL)");
        return NULL;
    }
    const pips_game *g = m->game;
    json_t *root = json_object(), *opts = json_object(), *seats = json_array(),
           *moves = json_array(), *result = json_object(), *rets = json_array();
    char *out = NULL;
    if (!root || !opts || !seats || !moves || !result || !rets)
        goto fail;
    json_object_set_new(root, "format", json_string("pips-record"));
    json_object_set_new(root, "version", json_integer(1));
    json_object_set_new(root, "game", json_string(g->def->name));
    for (size_t i = 0; i < g->options.n; i++)
        json_object_set_new(opts, g->options.kv[i].key, json_string(g->options.kv[i].value));
    json_object_set(root, "options", opts);
    const pips_script *script = g->def->script;
    if (script) { /* the script itself travels with the record (docs/lua.md) */
        json_t *js = json_object();
        json_object_set_new(js, "file", json_string(script->file));
        json_object_set_new(js, "sha256", json_string(script->sha256));
        json_object_set_new(js, "text", json_stringn(script->text, script->len));
        if (json_object_set_new(root, "script", js) != 0 || !json_object_get(js, "text"))
            goto fail;
    }
    for (int i = 0; i < m->n_seats; i++)
        json_array_append_new(seats, json_string(m->seats[i]));
    json_object_set(root, "seats", seats);
    if (m->seed <= INT64_MAX)
        json_object_set_new(root, "seed", json_integer((json_int_t)m->seed));
    else { /* past JSON's safe integers: the decimal digits as a string */
        char digits[24];
        snprintf(digits, sizeof digits, "%llu", (unsigned long long)m->seed);
        json_object_set_new(root, "seed", json_string(digits));
    }
    for (size_t i = 0; i < m->n_moves; i++) {
        char buf[PIPS_MOVE_TEXT_MAX];
        pips_match_move_text(m, i, buf);
        json_array_append_new(moves, json_string(buf));
    }
    json_object_set(root, "moves", moves);
    bool over = pips_match_over(m);
    json_object_set_new(result, "over", json_boolean(over));
    pips_str text;
    pips_str_init(&text, g->alloc);
    g->def->result_text(g, m->state, &text);
    if (text.failed) { /* a truncated result text must not be written */
        pips_str_free(&text);
        goto fail;
    }
    json_object_set_new(result, "text", json_string(pips_str_cstr(&text)));
    pips_str_free(&text);
    if (over) {
        double r[PIPS_MAX_PLAYERS];
        g->def->returns(g, m->state, r);
        for (int i = 0; i < m->n_seats; i++)
            json_array_append_new(rets, json_real(r[i]));
        json_object_set(result, "returns", rets);
    }
    if (g->def->scores) {
        int sc[PIPS_MAX_PLAYERS];
        json_t *scores = json_array();
        g->def->scores(g, m->state, sc);
        for (int i = 0; i < m->n_seats; i++)
            json_array_append_new(scores, json_integer(sc[i]));
        json_object_set_new(result, "scores", scores);
    }
    json_object_set(root, "result", result);
    json_object_set_new(root, "started", json_string(m->started));
    json_object_set_new(root, "finished", json_string(m->finished));
    char *dumped = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (!dumped)
        goto fail;
    out = pips_strdup(g->alloc, dumped);
    free(dumped);
    if (!out)
        goto fail;
    goto done;
fail:
    pips_fail(err, PIPS_ERR_NOMEM, "out of memory writing the record");
done:
    json_decref(root);
    json_decref(opts);
    json_decref(seats);
    json_decref(moves);
    json_decref(result);
    json_decref(rets);
    return out;
}

static const char *json_type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

static bool copy_time(json_t *root, const char *key, char *dst, pips_error *err)
{
    json_t *v = json_object_get(root, key);
    if (!v)
        return true;
    if (!json_is_string(v) || strlen(json_string_value(v)) >= PIPS_TIME_MAX)
        return pips_fail(err, PIPS_ERR_RECORD, "record: '%s' must be a short string", key);
    snprintf(dst, PIPS_TIME_MAX, "%s", json_string_value(v));
    return true;
}

/* The top-level keys a record may hold (docs/records.md; "resigned",
 * "clock" and "move_ms" are the server's, which checks them; "script" the
 * Lua script the game runs, docs/lua.md); any other key is refused, so a
 * typo ("seeds") is not silently ignored. */
static const char *const record_keys[] = {"format",  "version",  "game",     "options",
                                          "seats",   "seed",     "moves",    "result",
                                          "started", "finished", "resigned", "clock",
                                          "move_ms", "script"};

static bool check_record_keys(json_t *root, pips_error *err)
{
    const char *key;
    json_t *val;
    json_object_foreach(root, key, val)
    {
        bool known = false;
        for (size_t i = 0; i < sizeof record_keys / sizeof record_keys[0]; i++)
            known |= !strcmp(key, record_keys[i]);
        if (!known)
            return pips_fail(err, PIPS_ERR_RECORD, "record: unknown key '%.40s'", key);
    }
    return true;
}

/* A seat is "human" or a spec an agent can be built from. */
static bool check_record_seat(const pips_game *g, int i, const char *seat, pips_error *err)
{
    if (!strcmp(seat, "human"))
        return true;
    pips_agent *a = pips_agent_new(g, seat, 0, err);
    if (!a) {
        if (err && err->code != PIPS_ERR_NOMEM)
            err->code = PIPS_ERR_RECORD;
        pips_error_prefix(err, "record: seat %d '%.40s' is neither 'human' nor an agent: ",
                          i + 1, seat);
        return false;
    }
    pips_agent_free(a);
    return true;
}

/* The stored result (when present) must be what the moves lead to. */
static bool check_record_result(const pips_match *m, json_t *result, pips_error *err)
{
    const pips_game *g = m->game;
    if (!json_is_object(result))
        return pips_fail(err, PIPS_ERR_RECORD, "record: 'result' must be an object, got %s",
                         json_type_name(result));
    bool over = pips_match_over(m);
    json_t *jover = json_object_get(result, "over");
    if (jover && (!json_is_boolean(jover) || json_is_true(jover) != over))
        return pips_fail(err, PIPS_ERR_RECORD, "record: says the game is %s but the moves %s it",
                         json_is_true(jover) ? "over" : "not over", over ? "end" : "do not end");
    json_t *text = json_object_get(result, "text");
    if (text && over) {
        pips_str want;
        pips_str_init(&want, g->alloc);
        g->def->result_text(g, m->state, &want);
        bool same = json_is_string(text) && !strcmp(json_string_value(text), pips_str_cstr(&want));
        if (!same && !want.failed)
            pips_fail(err, PIPS_ERR_RECORD, "record: result '%.60s' but the moves give '%.60s'",
                      json_is_string(text) ? json_string_value(text) : "?", pips_str_cstr(&want));
        else if (want.failed)
            pips_fail(err, PIPS_ERR_NOMEM, "out of memory checking the result");
        pips_str_free(&want);
        if (!same)
            return false;
    }
    json_t *rets = json_object_get(result, "returns");
    if (rets && over) {
        double r[PIPS_MAX_PLAYERS];
        g->def->returns(g, m->state, r);
        bool same = json_is_array(rets) && (int)json_array_size(rets) == m->n_seats;
        for (int i = 0; same && i < m->n_seats; i++) {
            json_t *v = json_array_get(rets, (size_t)i);
            same = json_is_number(v) && fabs(json_number_value(v) - r[i]) < 1e-9;
        }
        if (!same)
            return pips_fail(err, PIPS_ERR_RECORD,
                             "record: 'result.returns' disagrees with the moves' result");
    }
    return true;
}

pips_match *pips_match_from_record(const char *json, const pips_allocator *alloc,
                                   pips_error *err)
{
    if (!json) {
        pips_fail(err, PIPS_ERR_ARG, "no record text (NULL)");
        return NULL;
    }
    json_error_t jerr;
    json_t *root = json_loads(json, JSON_REJECT_DUPLICATES, &jerr);
    pips_match *m = NULL;
    if (!root) {
        pips_fail(err, PIPS_ERR_RECORD, "record: invalid JSON at line %d column %d: %s",
                  jerr.line, jerr.column, jerr.text);
        return NULL;
    }
    if (!json_is_object(root)) {
        pips_fail(err, PIPS_ERR_RECORD, "record: expected an object, got %s",
                  json_type_name(root));
        goto out;
    }
    if (!check_record_keys(root, err))
        goto out;
    json_t *fmt = json_object_get(root, "format");
    if (fmt && (!json_is_string(fmt) || strcmp(json_string_value(fmt), "pips-record") != 0)) {
        pips_fail(err, PIPS_ERR_RECORD, "record: 'format' must be \"pips-record\"");
        goto out;
    }
    json_t *ver = json_object_get(root, "version");
    if (ver && (!json_is_integer(ver) || json_integer_value(ver) != 1)) {
        pips_fail(err, PIPS_ERR_RECORD, "record: unsupported 'version' (this build reads 1)");
        goto out;
    }
    json_t *game = json_object_get(root, "game");
    if (!json_is_string(game)) {
        pips_fail(err, PIPS_ERR_RECORD, "record: 'game' must be a string");
        goto out;
    }
    json_t *opts = json_object_get(root, "options");
    if (opts && !json_is_object(opts)) {
        pips_fail(err, PIPS_ERR_RECORD, "record: 'options' must be an object, got %s",
                  json_type_name(opts));
        goto out;
    }
    uint64_t seed = 0;
    json_t *jseed = json_object_get(root, "seed");
    if (jseed) {
        const char *digits = json_is_string(jseed) ? json_string_value(jseed) : "";
        char *end = NULL;
        errno = 0;
        unsigned long long big = *digits >= '0' && *digits <= '9' ? strtoull(digits, &end, 10) : 0;
        if (json_is_integer(jseed) && json_integer_value(jseed) >= 0) {
            seed = (uint64_t)json_integer_value(jseed);
        } else if (end && !*end && errno == 0 && big <= UINT64_MAX) {
            seed = big; /* a seed past 2^63-1, written as its digits */
        } else {
            pips_fail(err, PIPS_ERR_RECORD,
                      "record: 'seed' must be a whole number from 0 to 2^64-1 (digits in a "
                      "string past 2^63-1)");
            goto out;
        }
    }
    pips_game *built = play_game_from_json_script(json_string_value(game), opts,
                                                  json_object_get(root, "script"), alloc, err);
    m = built ? pips_match_from_game(built, seed, err) : NULL;
    if (!m) {
        pips_error_prefix(err, "record: ");
        goto out;
    }
    json_t *seats = json_object_get(root, "seats");
    if (seats) {
        if (!json_is_array(seats) || (int)json_array_size(seats) != m->n_seats) {
            pips_fail(err, PIPS_ERR_RECORD, "record: 'seats' must be an array of %d strings",
                      m->n_seats);
            goto fail;
        }
        const char *names[PIPS_MAX_PLAYERS];
        for (int i = 0; i < m->n_seats; i++) {
            json_t *s = json_array_get(seats, (size_t)i);
            if (!json_is_string(s)) {
                pips_fail(err, PIPS_ERR_RECORD, "record: seat %d must be a string", i + 1);
                goto fail;
            }
            names[i] = json_string_value(s);
            if (!check_record_seat(m->game, i, names[i], err))
                goto fail;
        }
        if (!pips_match_set_seats(m, names, m->n_seats, err)) {
            pips_error_prefix(err, "record: ");
            goto fail;
        }
    }
    json_t *moves = json_object_get(root, "moves");
    if (!json_is_array(moves)) {
        pips_fail(err, PIPS_ERR_RECORD, "record: 'moves' must be an array of move texts");
        goto fail;
    }
    for (size_t i = 0; i < json_array_size(moves); i++) {
        json_t *mv = json_array_get(moves, i);
        if (!json_is_string(mv)) {
            pips_fail(err, PIPS_ERR_RECORD, "record: move %zu is %s, not a string", i + 1,
                      json_type_name(mv));
            goto fail;
        }
        if (!pips_match_play_text(m, json_string_value(mv), err)) {
            if (err && err->code != PIPS_ERR_NOMEM) /* out of memory stays NOMEM */
                err->code = PIPS_ERR_RECORD;
            pips_error_prefix(err, "record: move %zu '%.40s': ", i + 1, json_string_value(mv));
            goto fail;
        }
    }
    json_t *result = json_object_get(root, "result");
    if (result && !check_record_result(m, result, err))
        goto fail;
    m->started[0] = m->finished[0] = '\0';
    if (!copy_time(root, "started", m->started, err) ||
        !copy_time(root, "finished", m->finished, err))
        goto fail;
    goto out;
fail:
    pips_match_free(m);
    m = NULL;
out:
    json_decref(root);
    return m;
}

/* Writes text to path atomically: a new file beside it (so the rename stays
 * on one file system) that replaces path only once fully written, so a
 * reader or a crash mid-write sees the old record or the new, never a part. */
static bool write_atomically(const char *path, const char *text, pips_error *err)
{
    char tmp[4096];
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        if (snprintf(tmp, sizeof tmp, "%s.%ld-%d.tmp", path, (long)getpid(), attempt) >=
            (int)sizeof tmp)
            return pips_fail(err, PIPS_ERR_IO, "cannot write record '%.200s': path too long",
                             path);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0)
        return pips_fail(err, PIPS_ERR_IO, "cannot write record '%s': %s", path,
                         strerror(errno));
    FILE *f = fdopen(fd, "w");
    bool ok = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
    int saved = errno;
    if (f ? fclose(f) != 0 : close(fd) != 0)
        ok = false, saved = errno;
    if (ok && rename(tmp, path) != 0)
        ok = false, saved = errno;
    if (!ok) {
        remove(tmp);
        return pips_fail(err, PIPS_ERR_IO, "cannot write record '%s': %s", path,
                         strerror(saved));
    }
    return true;
}

bool pips_match_save(const pips_match *m, const char *path, pips_error *err)
{
    char *text = pips_match_to_record(m, err);
    if (!text)
        return false;
    bool ok = write_atomically(path, text, err);
    pips_free(m->game->alloc, text);
    return ok;
}

pips_match *pips_match_load(const char *path, const pips_allocator *alloc, pips_error *err)
{
    if (!path) {
        pips_fail(err, PIPS_ERR_ARG, "no record path (NULL)");
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        pips_fail(err, PIPS_ERR_IO, "cannot open record '%s': %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        pips_fail(err, PIPS_ERR_IO, "'%s' is a directory, not a record file", path);
        return NULL;
    }
    pips_str text;
    pips_str_init(&text, alloc);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0 && text.len < (64u << 20))
        pips_str_catn(&text, buf, n);
    int read_errno = ferror(f) ? errno : 0;
    fclose(f);
    pips_match *m = NULL;
    if (read_errno)
        pips_fail(err, PIPS_ERR_IO, "cannot read record '%s': %s", path, strerror(read_errno));
    else if (text.failed)
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory reading '%s'", path);
    else if (text.len >= (64u << 20))
        pips_fail(err, PIPS_ERR_RECORD, "record '%s' is larger than 64 MiB", path);
    else
        m = pips_match_from_record(pips_str_cstr(&text), alloc, err);
    pips_str_free(&text);
    return m;
}
