/*
 * api.c — the request handler: routes (method, path, query, headers, body)
 * to the JSON API under /api/ and to the static UI files, and answers with
 * (status, content type, body). No sockets here, so tests and fuzzers call
 * pips_server_handle directly.
 *
 * Seats are guarded by tokens: 128-bit random hex strings, one per human
 * seat, returned once when a game is made. A move needs the token of the
 * seat to move; a take-back needs every human seat's consent (one request
 * holding all tokens, as in hotseat play, or a request that the others
 * accept or decline); resigning needs any human seat's token.
 * Invariants: every handler validates all input before changing anything;
 * a failed database write is rolled back in memory too, so the game and the
 * database never disagree.
 */
#include "server/server_impl.h"

#include "play/play_json.h"
#include "core/unchecked.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define MAX_AGENT_ITERS 200000L
#define MAX_AGENT_DEPTH 12L

/* ---- responses ---- */

static void set_body(pips_http_response *res, int status, const char *type, char *body,
                     size_t len)
{
    res->status = status;
    snprintf(res->content_type, sizeof res->content_type, "%s", type);
    free(res->body);
    res->body = body;
    res->body_len = len;
}

static void reply_json(pips_http_response *res, int status, json_t *o)
{
    char *t = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(o);
    if (!t) {
        t = strdup("{\"error\":\"out of memory\"}");
        status = 500;
    }
    set_body(res, status, "application/json", t, t ? strlen(t) : 0);
}

static void reply_text_json(pips_http_response *res, int status, char *text)
{
    if (!text) {
        reply_json(res, 500, NULL);
        return;
    }
    set_body(res, status, "application/json", text, strlen(text));
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void reply_error(pips_http_response *res, int status, const char *fmt, ...)
{
    char msg[PIPS_ERROR_MAX + 64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    json_t *o = json_object();
    json_object_set_new(o, "error", srv_json_text(msg)); /* msg may quote raw input */
    reply_json(res, status, o);
}

static int status_of(const pips_error *err)
{
    switch (err->code) {
    case PIPS_ERR_ILLEGAL: return 422;
    case PIPS_ERR_NOMEM:
    case PIPS_ERR_IO: return 500;
    default: return 400;
    }
}

void pips_http_response_free(pips_http_response *res)
{
    free(res->body);
    res->body = NULL;
    res->body_len = 0;
}

/* ---- request helpers ---- */

static const char *header(const pips_http_request *req, const char *name)
{
    for (size_t i = 0; i < req->n_headers; i++)
        if (req->headers[i].name && !strcasecmp(req->headers[i].name, name))
            return req->headers[i].value;
    return NULL;
}

/* The value of `key` in a query string into buf; false when absent. */
static bool query_param(const char *query, const char *key, char *buf, size_t size)
{
    size_t klen = strlen(key);
    for (const char *p = query; p && *p;) {
        const char *amp = strchr(p, '&');
        size_t len = amp ? (size_t)(amp - p) : strlen(p);
        if (len > klen && !strncmp(p, key, klen) && p[klen] == '=') {
            size_t vlen = len - klen - 1;
            if (vlen >= size)
                vlen = size - 1;
            memcpy(buf, p + klen + 1, vlen);
            buf[vlen] = '\0';
            return true;
        }
        p = amp ? amp + 1 : NULL;
    }
    return false;
}

/* Parses the body as a JSON object; replies 400 and returns NULL otherwise.
 * An empty body is an empty object. */
static json_t *body_object(const pips_http_request *req, pips_http_response *res)
{
    if (req->body_len == 0)
        return json_object();
    json_error_t je;
    json_t *o = json_loadb(req->body, req->body_len, JSON_REJECT_DUPLICATES, &je);
    if (!o) {
        reply_error(res, 400, "malformed JSON at line %d column %d: %s", je.line, je.column,
                    je.text);
        return NULL;
    }
    if (!json_is_object(o)) {
        json_decref(o);
        reply_error(res, 400, "expected a JSON object");
        return NULL;
    }
    return o;
}

static bool token_equal(const char *a, const char *b)
{
    /* constant time over the token length: no early exit on a mismatch */
    size_t la = strlen(a), lb = strlen(b);
    unsigned diff = la != lb || la != SRV_TOKEN_LEN;
    for (size_t i = 0; i < SRV_TOKEN_LEN; i++)
        diff |= (unsigned)(unsigned char)(i < la ? a[i] : 0) ^ (unsigned char)(i < lb ? b[i] : 0);
    return diff == 0;
}

/* The seats whose token appears in the request (body "token", "tokens"
 * or the X-Pips-Token header), as a bit mask. */
static unsigned token_seats(const srv_game *g, const pips_http_request *req, json_t *body)
{
    const char *list[2 * PIPS_MAX_PLAYERS + 2];
    char hbuf[2 * PIPS_MAX_PLAYERS * (SRV_TOKEN_LEN + 1) + 1];
    size_t n = 0;
    const char *h = header(req, "X-Pips-Token");
    if (h) { /* one token or a comma-separated list */
        snprintf(hbuf, sizeof hbuf, "%s", h);
        for (char *save = NULL, *t = strtok_r(hbuf, ", ", &save); t && n < PIPS_MAX_PLAYERS;
             t = strtok_r(NULL, ", ", &save))
            list[n++] = t;
    }
    json_t *t = json_object_get(body, "token");
    if (json_is_string(t))
        list[n++] = json_string_value(t);
    json_t *ts = json_object_get(body, "tokens");
    size_t i;
    json_t *v;
    if (json_is_array(ts))
        json_array_foreach(ts, i, v) if (json_is_string(v) && n < sizeof list / sizeof list[0])
            list[n++] = json_string_value(v);
    unsigned seats = 0;
    for (int s = 0; s < g->m->n_seats; s++)
        for (size_t k = 0; k < n; k++)
            if (g->tokens[s][0] && token_equal(g->tokens[s], list[k]))
                seats |= 1u << s;
    return seats;
}

static bool game_over(const srv_game *g) { return pips_table_over(g->t); }

/* Stores a freshly built game (tokens made, agents checked) and replies 201
 * with its id, its tokens and its view. Takes ownership of g. */
static void register_game(pips_server *s, srv_game *g, pips_http_response *res)
{
    pips_error err;
    pips_error_clear(&err);
    if (s->n_games + s->pending_inserts >= s->cfg.max_games) {
        srv_game_free(g);
        reply_error(res, 503, "this server holds its maximum of %zu games", s->cfg.max_games);
        return;
    }
    for (int i = 0; i < g->m->n_seats; i++)
        if (pips_seat_is_human(g->m->seats[i]))
            srv_random_token(g->tokens[i]);
    pips_iso_time(g->created);
    snprintf(g->updated, sizeof g->updated, "%s", g->created);
    bool ok = pips_table_to_move(g->t) != PIPS_CHANCE || pips_table_roll(g->t, &err);
    if (ok) {
        s->pending_inserts++;
        ok = srv_commit(s, NULL, store_job_insert(g), &g->id, &err);
        s->pending_inserts--;
    }
    if (!ok || !srv_add(s, g, &err)) {
        srv_game_free(g);
        reply_error(res, status_of(&err), "%s", err.msg);
        return;
    }
    json_t *o = json_object();
    json_object_set_new(o, "id", json_integer(g->id));
    json_t *tokens = json_array();
    for (int i = 0; i < g->m->n_seats; i++)
        json_array_append_new(tokens, g->tokens[i][0] ? json_string(g->tokens[i]) : json_null());
    json_object_set_new(o, "tokens", tokens);
    char *view = srv_game_json(s, g, -1);
    json_error_t je;
    json_t *v = view ? json_loads(view, 0, &je) : NULL;
    free(view);
    json_object_set_new(o, "game", v ? v : json_null());
    reply_json(res, 201, o);
}

/* Reads the "seats" of a new game: NULL keeps the match's seats. */
static bool read_seats(const json_t *seats, int n, const char **names, pips_error *err)
{
    if (!json_is_array(seats) || json_array_size(seats) != (size_t)n)
        return pips_fail(err, PIPS_ERR_ARG, "seats: expected an array of %d strings", n);
    for (int i = 0; i < n; i++) {
        json_t *v = json_array_get(seats, (size_t)i);
        if (!json_is_string(v))
            return pips_fail(err, PIPS_ERR_ARG, "seat %d: expected \"human\" or an agent spec",
                             i + 1);
        names[i] = json_string_value(v);
    }
    return true;
}

/* ---- handlers ---- */

/* The agent kinds that can play game g (some refuse a game: bare alphabeta
 * needs two players and no dice), with their normalised spec. */
static json_t *agents_for(const pips_game *g)
{
    json_t *a = json_array();
    for (const char *const *k = pips_agent_kinds(); *k; k++) {
        if (pips_agent_level_spec(g, *k)) /* a level: levels_for describes those */
            continue;
        pips_error err;
        pips_agent *ag = pips_agent_new(g, *k, 1, &err);
        if (!ag)
            continue;
        json_array_append_new(a, json_string(*k));
        pips_agent_free(ag);
    }
    return a;
}

/* What each strength level stands for in game g ("hard": "mcts:iters=10000"). */
static json_t *levels_for(const pips_game *g)
{
    static const char *const names[] = {"easy", "medium", "hard", "max"};
    json_t *o = json_object();
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *spec = pips_agent_level_spec(g, names[i]);
        pips_error err;
        pips_agent *ag = spec ? pips_agent_new(g, names[i], 1, &err) : NULL;
        if (ag) /* a level whose agent refuses this game is not offered */
            json_object_set_new(o, names[i], json_string(pips_agent_spec(ag)));
        pips_agent_free(ag);
    }
    return o;
}

/* One game's entry of GET /api/rules: its schema, seats, agents, rules. */
static json_t *game_entry(const pips_game_def *d)
{
    pips_str schema;
    pips_str_init(&schema, NULL);
    json_error_t je;
    json_t *gj = pips_game_schema_json(d, &schema, NULL)
                     ? json_loads(pips_str_cstr(&schema), 0, &je)
                     : NULL;
    pips_str_free(&schema);
    if (!gj)
        gj = json_object();
    pips_game *g = pips_game_new_def(d, NULL, 0, NULL, NULL);
    json_object_set_new(gj, "name", json_string(d->name));
    json_object_set_new(gj, "title", json_string(d->title));
    json_object_set_new(gj, "players", g ? json_integer(pips_num_players(g)) : json_null());
    json_object_set_new(gj, "chance", json_boolean(d->flags & PIPS_GAME_CHANCE));
    json_object_set_new(gj, "enumerable", json_boolean(!(d->flags & PIPS_GAME_NOT_ENUMERABLE)));
    json_object_set_new(gj, "agents", g ? agents_for(g) : json_array());
    json_object_set_new(gj, "levels", g ? levels_for(g) : json_object());
    pips_game_free(g);
    json_object_set_new(gj, "rules", json_string(d->rules_text ? d->rules_text : ""));
    json_object_set_new(gj, "notation", json_string(d->notation_text ? d->notation_text : ""));
    return gj;
}

static json_t *rules_json(const pips_server *s)
{
    json_t *o = json_object(), *games = json_array();
    for (size_t i = 0; i < pips_game_count(); i++)
        json_array_append_new(games, game_entry(pips_game_def_at(i)));
    srv_scripts_rules_json(s, games, o); /* --rules-dir: scripts, then its Lua games */
    const pips_game_def *lua_games[64];
    size_t n_lua = srv_scripts_games(s, lua_games, 64);
    for (size_t i = 0; i < n_lua; i++)
        json_array_append_new(games, game_entry(lua_games[i]));
    json_object_set_new(o, "games", games);
    json_t *agents = json_array();
    for (const char *const *k = pips_agent_kinds(); *k; k++)
        json_array_append_new(agents, json_string(*k));
    json_object_set_new(o, "agents", agents);
    json_t *levels = json_array();
    static const char *const level_names[] = {"easy", "medium", "hard", "max"};
    for (size_t i = 0; i < 4; i++)
        json_array_append_new(levels, json_string(level_names[i]));
    json_object_set_new(o, "levels", levels);
    json_t *limits = json_object();
    json_object_set_new(limits, "max_games", json_integer((json_int_t)s->cfg.max_games));
    json_object_set_new(limits, "max_body", json_integer((json_int_t)s->cfg.max_body));
    json_object_set_new(limits, "max_think_seconds", json_real(s->cfg.max_think_seconds));
    json_object_set_new(o, "limits", limits);
    return o;
}

/* GET /api/agents?game=G&options={...}: what can play G with these options
 * (the lobby asks again when an option such as players changes). Cached
 * (cache.c) under the query as sent and under the game with its options as
 * the library normalises them; runs without s->mu. */
static void agents_for_options(pips_server *s, const pips_http_request *req,
                               pips_http_response *res)
{
    char raw_key[2300];
    const char *inm = header(req, "If-None-Match");
    snprintf(raw_key, sizeof raw_key, "agents?%s", req->query ? req->query : "");
    if (srv_cache_reply(s, raw_key, inm, res))
        return;
    char name[1024], opts[2048];
    if (!query_param(req->query, "game", name, sizeof name)) {
        reply_error(res, 400, "game: expected ?game=NAME");
        return;
    }
    json_t *o = NULL;
    json_error_t je;
    if (query_param(req->query, "options", opts, sizeof opts) &&
        !(o = json_loads(opts, 0, &je))) {
        reply_error(res, 400, "options: invalid JSON: %s", je.text);
        return;
    }
    pips_error err;
    pips_error_clear(&err);
    if (!pips_game_find(name) && !srv_scripts_game(s, name)) {
        json_decref(o);
        reply_error(res, 404, "unknown game '%.64s'", name);
        return;
    }
    json_t *mapped = srv_scripts_options(s, o, &err);
    json_decref(o);
    pips_game *g = err.msg[0] ? NULL : play_game_from_json(name, mapped, NULL, &err);
    json_decref(mapped);
    if (!g) {
        reply_error(res, 400, "%s", err.msg);
        return;
    }
    json_t *canon = play_options_to_json(g);
    char *canon_text = canon ? json_dumps(canon, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(canon);
    char key[2600];
    snprintf(key, sizeof key, "agents %s %s", g->def->name, canon_text ? canon_text : "?");
    free(canon_text);
    if (!srv_cache_reply(s, key, inm, res)) {
        json_t *r = json_object();
        json_object_set_new(r, "players", json_integer(pips_num_players(g)));
        json_object_set_new(r, "agents", agents_for(g));
        json_object_set_new(r, "levels", levels_for(g));
        srv_cache_store(s, key, r, inm, res);
    }
    pips_game_free(g);
    if (res->status == 200 || res->status == 304) { /* the query as sent, for the next time */
        pips_http_response alias;
        memset(&alias, 0, sizeof alias);
        if (srv_cache_reply(s, key, NULL, &alias)) {
            json_error_t je2;
            srv_cache_store(s, raw_key, json_loadb(alias.body, alias.body_len, 0, &je2), NULL,
                            &alias);
        }
        pips_http_response_free(&alias);
    }
}

static void list_games(pips_server *s, pips_http_response *res)
{
    json_t *a = json_array();
    for (size_t k = s->n_games; k-- > 0 && json_array_size(a) < 500;) {
        srv_game *g = s->games[k];
        const pips_game *game = g->m->game;
        json_t *o = json_object();
        json_object_set_new(o, "id", json_integer(g->id));
        json_object_set_new(o, "game", json_string(game->def->name));
        json_object_set_new(o, "title", json_string(game->def->title));
        json_t *seats = json_array();
        for (int i = 0; i < g->m->n_seats; i++)
            json_array_append_new(seats, json_string(g->m->seats[i]));
        json_object_set_new(o, "seats", seats);
        json_object_set_new(o, "n_moves", json_integer((json_int_t)g->m->n_moves));
        json_object_set_new(o, "over", json_boolean(game_over(g)));
        pips_str t;
        pips_str_init(&t, NULL);
        srv_result_text(g, &t);
        json_object_set_new(o, "result", json_string(pips_str_cstr(&t)));
        pips_str_free(&t);
        int who = pips_to_move(game, g->m->state);
        json_object_set_new(o, "to_move", who >= 0 && !game_over(g) ? json_integer(who) : json_null());
        json_object_set_new(o, "created", json_string(g->created));
        json_object_set_new(o, "updated", json_string(g->updated));
        json_array_append_new(a, o);
    }
    json_t *o = json_object();
    json_object_set_new(o, "games", a);
    json_object_set_new(o, "total", json_integer((json_int_t)s->n_games));
    reply_json(res, 200, o);
}

static void create_game(pips_server *s, json_t *body, pips_http_response *res)
{
    pips_error err;
    pips_error_clear(&err);
    json_t *name = json_object_get(body, "game");
    if (!json_is_string(name)) {
        reply_error(res, 400, "\"game\": expected the name of a game");
        return;
    }
    const pips_game_def *lua_def = srv_scripts_game(s, json_string_value(name));
    if (!pips_game_find(json_string_value(name)) && !lua_def) {
        reply_error(res, 404, "unknown game '%.64s'", json_string_value(name));
        return;
    }
    json_t *seed = json_object_get(body, "seed");
    uint64_t sd;
    if (!seed || json_is_null(seed))
        sd = srv_random_u64() & ((1ull << 53) - 1); /* exact in JavaScript numbers */
    else if (json_is_integer(seed) && json_integer_value(seed) >= 0)
        sd = (uint64_t)json_integer_value(seed);
    else {
        reply_error(res, 400, "\"seed\": expected a non-negative integer");
        return;
    }
    /* a rule script by its file name in --rules-dir; never any other file */
    json_t *options = srv_scripts_options(s, json_object_get(body, "options"), &err);
    pips_game *game = err.msg[0] ? NULL
                                 : play_game_from_json(json_string_value(name), options, NULL, &err);
    json_decref(options);
    pips_match *m = game ? pips_match_from_game(game, sd, &err) : NULL;
    const char *names[PIPS_MAX_PLAYERS];
    json_t *seats = json_object_get(body, "seats");
    bool ok = m && (!seats || json_is_null(seats) || (read_seats(seats, m->n_seats, names, &err) &&
                                                     pips_match_set_seats(m, names, m->n_seats, &err)));
    srv_game *g = ok ? srv_game_new(s, m, &err) : NULL;
    if (!g) {
        pips_match_free(m);
        reply_error(res, status_of(&err), "%s", err.msg);
        return;
    }
    json_t *clock = json_object_get(body, "clock");
    if (clock && !json_is_null(clock)) {
        bool ok_clock = true;
        if (json_is_object(clock) &&
            (json_object_get(clock, "flagged") || json_object_get(clock, "turn_ms")))
            ok_clock = pips_fail(&err, PIPS_ERR_ARG, "clock: only initial and increment may be given");
        if (!ok_clock || !srv_clock_parse(g, clock, &err)) {
            srv_game_free(g);
            reply_error(res, 400, "%s", err.msg);
            return;
        }
        srv_clock_rebuild(g, 0);
    }
    register_game(s, g, res);
}

/* The game a record describes, replayed move by move; NULL when it is
 * refused (res holds why). Needs no lock: it touches no live game. */
static srv_game *record_game(pips_server *s, const pips_http_request *req,
                             pips_http_response *res)
{
    pips_error err;
    pips_error_clear(&err);
    char *text = malloc(req->body_len + 1);
    if (!text) {
        reply_error(res, 500, "out of memory");
        return NULL;
    }
    memcpy(text, req->body, req->body_len);
    text[req->body_len] = '\0';
    if (strlen(text) != req->body_len) {
        free(text);
        reply_error(res, 400, "record: NUL byte in the body");
        return NULL;
    }
    /* A resigned game (this server's "resigned" key: a seat or a list of
     * seats, 0-based) ends without its moves ending it: drop the result the
     * replay would check against. */
    unsigned resigned = 0;
    json_error_t je;
    json_t *root = json_loads(text, JSON_PRESERVE_ORDER, &je);
    json_t *r = json_object_get(root, "resigned");
    bool bad = false;
    if (json_is_integer(r)) {
        json_int_t v = json_integer_value(r);
        bad = v < 0 || v >= PIPS_MAX_PLAYERS;
        resigned = bad ? 0 : 1u << v;
    } else if (json_is_array(r)) {
        size_t i;
        json_t *v;
        json_array_foreach(r, i, v) {
            bool ok = json_is_integer(v) && json_integer_value(v) >= 0 &&
                      json_integer_value(v) < PIPS_MAX_PLAYERS;
            bad |= !ok;
            if (ok)
                resigned |= 1u << json_integer_value(v);
        }
    } else {
        bad = r && !json_is_null(r);
    }
    if (bad) {
        json_decref(root);
        free(text);
        reply_error(res, 400, "record: \"resigned\" must be a seat number or a list of them (0-based)");
        return NULL;
    }
    if (resigned) {
        json_object_del(root, "result");
        json_object_del(root, "resigned");
        char *d = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
        if (d) {
            free(text);
            text = d;
        }
    }
    /* the server's clock settings and move times (issue 27) */
    json_t *clock = json_incref(json_object_get(root, "clock"));
    json_t *move_ms = json_incref(json_object_get(root, "move_ms"));
    json_decref(root);
    pips_match *m = pips_match_from_record(text, NULL, &err);
    free(text);
    srv_game *g = NULL;
    if (m)
        g = srv_game_new(s, m, &err);
    if (g && resigned && !pips_table_set_resigned(g->t, resigned, &err)) {
        srv_game_free(g);
        g = NULL;
        m = NULL;
    }
    if (g && move_ms && (!json_is_array(move_ms) || json_array_size(move_ms) != g->m->n_moves)) {
        pips_fail(&err, PIPS_ERR_ARG, "\"move_ms\": expected one time (ms) per move, %zu",
                  g->m->n_moves);
        srv_game_free(g);
        g = NULL;
        m = NULL;
    }
    for (size_t i = 0; g && move_ms && i < g->m->n_moves; i++) {
        json_t *v = json_array_get(move_ms, i);
        if (!json_is_integer(v) || json_integer_value(v) < 0) {
            pips_fail(&err, PIPS_ERR_ARG, "\"move_ms\" %zu: expected milliseconds", i + 1);
            srv_game_free(g);
            g = NULL;
            m = NULL;
        } else {
            g->move_ms[i] = json_integer_value(v);
        }
    }
    if (g && clock && !json_is_null(clock)) {
        bool ok_clock = srv_clock_parse(g, clock, &err);
        if (ok_clock && (g->clock.flagged & ~resigned))
            ok_clock = pips_fail(&err, PIPS_ERR_ARG, "clock.flagged: a seat whose flag fell is "
                                                     "also in \"resigned\"");
        if (!ok_clock) {
            srv_game_free(g);
            g = NULL;
            m = NULL;
        }
    }
    if (g)
        srv_clock_rebuild(g, 0);
    json_decref(clock);
    json_decref(move_ms);
    if (!g) {
        pips_match_free(m);
        reply_error(res, status_of(&err) == 500 ? 500 : 400, "record: %s", err.msg);
        return NULL;
    }
    return g;
}

/* POST /api/records: parsed and replayed without s->mu (its cost grows with
 * the record), registered under it. */
static void upload_record(pips_server *s, const pips_http_request *req, pips_http_response *res)
{
    pthread_mutex_unlock(&s->mu);
    srv_game *g = record_game(s, req, res);
    pthread_mutex_lock(&s->mu);
    if (g)
        register_game(s, g, res);
}

/* GET /api/games/{id}/record: the library's record plus what the server
 * adds: resignations (and the result they make), the clock settings with
 * the seats whose flag fell, and the time spent on each move. */
static void get_record(pips_server *s, srv_game *g, pips_http_response *res)
{
    (void)s;
    pips_error err;
    char *rec = pips_match_to_record(g->m, &err);
    if (!rec) {
        reply_error(res, 500, "%s", err.msg);
        return;
    }
    json_error_t je;
    json_t *root = json_loads(rec, JSON_PRESERVE_ORDER, &je);
    pips_free(NULL, rec);
    if (!root) {
        reply_error(res, 500, "out of memory writing the record");
        return;
    }
    unsigned resigned = pips_table_resigned(g->t);
    if (resigned) {
        json_t *result = json_object_get(root, "result");
        pips_str t;
        pips_str_init(&t, NULL);
        srv_result_text(g, &t);
        json_object_set_new(result, "over", json_boolean(game_over(g)));
        json_object_set_new(result, "text", json_string(pips_str_cstr(&t)));
        pips_str_free(&t);
        double r[PIPS_MAX_PLAYERS];
        if (pips_table_returns(g->t, r)) {
            json_t *rets = json_array();
            for (int i = 0; i < g->m->n_seats; i++)
                json_array_append_new(rets, json_real(r[i]));
            json_object_set_new(result, "returns", rets);
        }
        json_t *seats = json_array();
        for (int i = 0; i < g->m->n_seats; i++)
            if (resigned >> i & 1)
                json_array_append_new(seats, json_integer(i));
        json_object_set_new(root, "resigned", seats);
    }
    json_t *clock = srv_clock_json(g, false, 0);
    if (clock)
        json_object_set_new(root, "clock", clock);
    json_t *ms = json_array();
    for (size_t i = 0; i < g->m->n_moves; i++)
        json_array_append_new(ms, json_integer(i < g->move_ms_cap ? g->move_ms[i] : 0));
    json_object_set_new(root, "move_ms", ms);
    char *body = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (!body) {
        reply_error(res, 500, "out of memory");
        return;
    }
    set_body(res, 200, "application/json", body, strlen(body));
    snprintf(res->content_disposition, sizeof res->content_disposition,
             "attachment; filename=\"pips-%s-%lld.json\"", g->m->game->def->name, g->id);
}

/* Checks the optional "ply" precondition: the client's view must be current. */
static bool ply_matches(srv_game *g, json_t *body, pips_http_response *res)
{
    json_t *ply = json_object_get(body, "ply");
    if (ply && !json_is_null(ply) &&
        (!json_is_integer(ply) || json_integer_value(ply) != (json_int_t)g->m->n_moves)) {
        reply_error(res, 409, "the game has moved on: it is at ply %zu", g->m->n_moves);
        return false;
    }
    return true;
}

/* The optional "ply" query (a position of the game's history) into *ply,
 * -1 when absent; replies 400 and returns false when it is bad. */
static bool read_ply(const srv_game *g, const pips_http_request *req, pips_http_response *res,
                     long *ply)
{
    char buf[32];
    *ply = -1;
    if (!query_param(req->query, "ply", buf, sizeof buf))
        return true;
    char *end;
    errno = 0;
    *ply = strtol(buf, &end, 10);
    if (end == buf || *end || errno || *ply < 0 || (size_t)*ply > g->m->n_moves) {
        reply_error(res, 400, "ply: expected 0..%zu", g->m->n_moves);
        return false;
    }
    return true;
}

/* ---- perfect-play hints (issue 14) ---- */

/* The solver's budget per request: hints answer within about a second. */
#define HINT_SECONDS 1.0
#define HINT_TABLE_MB 64

/* GET /api/games/{id}/hints[?ply=N]: the exact value of every legal move of
 * the position (win, loss or draw for the player to move), or "unknown"
 * when the solver's budget runs out. The solve runs WITHOUT s->mu, on a
 * game configured afresh from the same definition and options and a copy
 * of the state, so nothing it reads can change or be freed meanwhile. */
static void get_hints(pips_server *s, srv_game *g, const pips_http_request *req,
                      pips_http_response *res)
{
    long ply;
    srv_wait_writable(s, g);
    if (!read_ply(g, req, res, &ply))
        return;
    const pips_game *live = g->m->game;
    if (!srv_hints_apply(live)) {
        reply_error(res, 409,
                    "perfect-play hints need two players, no chance and moves that can be "
                    "listed (or a solver of the game's own); %s here has %d players%s",
                    live->def->name, pips_num_players(live),
                    live->def->flags & PIPS_GAME_CHANCE ? " and chance" : "");
        return;
    }
    size_t ss = live->def->state_size;
    bool current = ply < 0 || (size_t)ply == g->m->n_moves;
    size_t at = current ? g->m->n_moves : (size_t)ply;
    const void *state = current ? g->m->state : g->m->history + at * ss;
    if ((current && game_over(g)) || pips_to_move(live, state) < 0) {
        reply_error(res, 409, "the game is over at ply %zu: nothing to solve", at);
        return;
    }
    pips_error err;
    pips_error_clear(&err);
    pips_game *game = pips_game_new_opts(live->def, &live->options, NULL, &err);
    void *copy = game ? pips_state_new(game, &err) : NULL;
    size_t cap = game ? pips_max_moves(game) : 0;
    pips_move *moves = game ? malloc(cap * sizeof *moves) : NULL;
    pips_value *values = game ? malloc(cap * sizeof *values) : NULL;
    if (!copy || !moves || !values) {
        if (copy)
            pips_state_free(game, copy);
        pips_game_free(game);
        free(moves);
        free(values);
        reply_error(res, 500, "%s", err.msg[0] ? err.msg : "out of memory");
        return;
    }
    memcpy(copy, state, ss);
    pthread_mutex_unlock(&s->mu);

    double budget = s->cfg.hint_seconds > 0 ? s->cfg.hint_seconds : HINT_SECONDS;
    size_t table_mb = s->cfg.hint_table_mb ? s->cfg.hint_table_mb : HINT_TABLE_MB;
    pips_solve_opts so = {1, table_mb, NULL, NULL, budget, 0, moves, values};
    pips_solve_result sr;
    bool ok = solve_moves_unchecked(game, copy, &so, &sr, &err);
    int status = 200;
    json_t *o = json_object();
    json_object_set_new(o, "ply", json_integer((json_int_t)at));
    if (ok) {
        json_object_set_new(o, "status", json_string("solved"));
        json_object_set_new(o, "value", json_string(pips_value_name(sr.value)));
        json_t *list = json_array();
        for (size_t i = 0; i < sr.n_moves; i++) {
            char text[PIPS_MOVE_TEXT_MAX];
            game->def->move_to_text(game, copy, moves[i], text);
            json_t *mv = json_object();
            json_object_set_new(mv, "move", srv_json_text(text));
            json_object_set_new(mv, "value", json_string(pips_value_name(values[i])));
            json_array_append_new(list, mv);
        }
        json_object_set_new(o, "moves", list);
        json_object_set_new(o, "positions", json_integer((json_int_t)sr.positions));
        json_object_set_new(o, "seconds", json_real(sr.seconds));
    } else if (err.code == PIPS_ERR_LIMIT) {
        json_object_set_new(o, "status", json_string("unknown"));
        json_object_set_new(o, "reason", srv_json_text(err.msg));
    } else {
        /* the solver refuses this game or position (too long to search) */
        status = err.code == PIPS_ERR_UNSUPPORTED || err.code == PIPS_ERR_ARG ? 409 : 500;
    }
    pips_state_free(game, copy);
    pips_game_free(game);
    free(moves);
    free(values);

    pthread_mutex_lock(&s->mu);
    if (status == 200)
        reply_json(res, 200, o);
    else {
        json_decref(o);
        reply_error(res, status, "%s", err.msg);
    }
}

static void play_move(pips_server *s, srv_game *g, const pips_http_request *req, json_t *body,
                      pips_http_response *res)
{
    json_t *mv = json_object_get(body, "move");
    if (!json_is_string(mv)) {
        reply_error(res, 400, "\"move\": expected the move as text");
        return;
    }
    srv_wait_writable(s, g);
    if (game_over(g)) {
        reply_error(res, 409, "the game is over");
        return;
    }
    int who = pips_table_to_move(g->t);
    unsigned holder = token_seats(g, req, body);
    if (who < 0 || !(holder & (1u << who)) || pips_table_agent(g->t, who)) {
        reply_error(res, 403, who >= 0 && pips_table_agent(g->t, who)
                                  ? "seat %d is played by an agent"
                                  : "this token does not hold seat %d, the seat to move",
                    who + 1);
        return;
    }
    if (!ply_matches(g, body, res))
        return;
    long long now = srv_now_ms();
    if (g->clock.running == who && srv_clock_left(g, who, now) <= 0) {
        pips_error ferr;
        pips_error_clear(&ferr);
        srv_clock_check(s, g, now, &ferr);
        reply_error(res, 409, "seat %d ran out of time", who + 1);
        return;
    }
    const char *text = json_string_value(mv);
    if (json_string_length(mv) >= PIPS_MOVE_TEXT_MAX || strlen(text) != json_string_length(mv)) {
        reply_error(res, 400, "move text too long or holding NUL bytes");
        return;
    }
    pips_error err;
    pips_error_clear(&err);
    pips_move move;
    if (!pips_parse_move(g->m->game, g->m->state, text, &move, &err)) {
        reply_error(res, status_of(&err), "%s", err.msg);
        return;
    }
    if (json_is_true(json_object_get(body, "check"))) {
        /* only asks whether the move is legal (the page explains a click) */
        json_t *o = json_object();
        json_object_set_new(o, "legal", json_true());
        reply_json(res, 200, o);
        return;
    }
    if (!srv_play(s, g, move, &err)) { /* a script's failure, or out of memory */
        reply_error(res, status_of(&err), "%s", err.msg);
        return;
    }
    srv_touch(s, g);
    reply_text_json(res, 200, srv_game_json(s, g, -1));
}

/* The ply of seat's last move (the position just before it), or -1. */
static long last_move_of(const srv_game *g, int seat)
{
    size_t ss = g->m->game->def->state_size;
    for (size_t i = g->m->n_moves; i-- > 0;)
        if (pips_to_move(g->m->game, g->m->history + i * ss) == seat)
            return (long)i;
    return -1;
}

/* Takes the game back to `target` moves and commits; on failure nothing
 * changes (the moves are played again in memory). */
static bool take_back_to(pips_server *s, srv_game *g, size_t target, pips_error *err)
{
    size_t n_old = g->m->n_moves;
    pips_move *saved = malloc((n_old - target) * sizeof *saved);
    if (!saved)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
    char prev_finished[PIPS_TIME_MAX], prev_updated[PIPS_TIME_MAX];
    memcpy(prev_finished, g->m->finished, sizeof prev_finished);
    memcpy(prev_updated, g->updated, sizeof prev_updated);
    srv_clock prev_clock = g->clock;
    memcpy(saved, g->m->moves + target, (n_old - target) * sizeof *saved);
    bool ok = true;
    while (ok && g->m->n_moves > target)
        ok = pips_table_undo(g->t, err);
    if (ok) {
        /* the clocks return to what they showed at that ply; the asker's
         * turn starts again now */
        srv_clock_rebuild(g, 0);
        pips_iso_time(g->updated);
        ok = srv_commit(s, g, store_job_truncate(g), NULL, err);
    }
    if (!ok) {
        for (size_t i = g->m->n_moves - target; i < n_old - target; i++)
            pips_match_play(g->m, saved[i], NULL);
        memcpy(g->m->finished, prev_finished, sizeof prev_finished);
        memcpy(g->updated, prev_updated, sizeof prev_updated);
        g->clock = prev_clock;
    }
    free(saved);
    return ok;
}

/* POST /api/games/{id}/undo: a take-back by consent. A seat asks to return
 * to just before its own last move (that move and everything after it are
 * taken back); every other human seat still in the game must agree (a
 * request from one of them agrees) or may decline ({"decline": true}); any
 * move clears the request. A request holding every human seat's token
 * (hotseat, or one person against agents) takes back at once, to the
 * previous turn of the held seat that moved last. */
static void undo_move(pips_server *s, srv_game *g, const pips_http_request *req, json_t *body,
                      pips_http_response *res)
{
    srv_wait_writable(s, g);
    unsigned humans = srv_human_seats(g), holder = token_seats(g, req, body) & humans;
    json_t *decline = json_object_get(body, "decline");
    if (decline && !json_is_boolean(decline)) {
        reply_error(res, 400, "\"decline\": expected true or false");
        return;
    }
    if (!holder) {
        reply_error(res, 403, "a take-back needs the token of a human seat still in the game");
        return;
    }
    if (json_is_true(decline)) {
        if (g->undo_by < 0) {
            reply_error(res, 409, "there is no take-back request to decline");
            return;
        }
        g->undo_by = -1;
        g->undo_agreed = 0;
        srv_touch(s, g);
        reply_text_json(res, 200, srv_game_json(s, g, -1));
        return;
    }
    if (game_over(g) && (pips_table_resigned(g->t) || g->clock.flagged)) {
        reply_error(res, 409, g->clock.flagged ? "the game ended on time" : "the game was resigned");
        return;
    }
    if (!ply_matches(g, body, res))
        return;
    if (g->undo_by >= 0) {
        g->undo_agreed |= holder; /* agrees (asking again changes nothing) */
    } else {
        int by = -1;
        long to = -1;
        for (int seat = 0; seat < g->m->n_seats; seat++) {
            long at = holder >> seat & 1 ? last_move_of(g, seat) : -1;
            if (at > to) {
                to = at;
                by = seat;
            }
        }
        if (by < 0) {
            reply_error(res, 409, "nothing to take back: this token's seats have not moved");
            return;
        }
        g->undo_by = by;
        g->undo_to = (size_t)to;
        g->undo_agreed = holder;
    }
    if ((g->undo_agreed & humans) == humans) {
        pips_error err;
        pips_error_clear(&err);
        if (!take_back_to(s, g, g->undo_to, &err)) {
            g->undo_by = -1;
            g->undo_agreed = 0;
            reply_error(res, err.code == PIPS_ERR_ILLEGAL ? 409 : 500, "%s", err.msg);
            return;
        }
        g->undo_by = -1;
        g->undo_agreed = 0;
        g->ai_error[0] = '\0';
    }
    srv_touch(s, g);
    reply_text_json(res, 200, srv_game_json(s, g, -1));
}

static void resign_game(pips_server *s, srv_game *g, const pips_http_request *req, json_t *body,
                        pips_http_response *res)
{
    srv_wait_writable(s, g);
    unsigned holder = token_seats(g, req, body);
    if (!holder) {
        reply_error(res, 403, "resigning needs the token of a human seat");
        return;
    }
    if (game_over(g)) {
        reply_error(res, 409, "the game is over");
        return;
    }
    unsigned before = pips_table_resigned(g->t);
    holder &= ~before;
    if (!holder) {
        reply_error(res, 409, "this token's seats have resigned already");
        return;
    }
    int seat = 0;
    int who = pips_table_to_move(g->t);
    if (who >= 0 && (holder & (1u << who)))
        seat = who; /* hotseat: the seat to move resigns */
    else
        while (!(holder & (1u << seat)))
            seat++;
    pips_error err;
    pips_error_clear(&err);
    char prev_updated[PIPS_TIME_MAX];
    memcpy(prev_updated, g->updated, sizeof prev_updated);
    if (!pips_table_resign(g->t, seat, &err)) {
        reply_error(res, 409, "%s", err.msg);
        return;
    }
    pips_iso_time(g->updated);
    if (!srv_commit(s, g, store_job_update(g), NULL, &err)) {
        pips_table_set_resigned(g->t, before, NULL);
        g->m->finished[0] = '\0';
        memcpy(g->updated, prev_updated, sizeof prev_updated);
        reply_error(res, 500, "%s", err.msg);
        return;
    }
    g->undo_by = -1;
    g->undo_agreed = 0;
    srv_touch(s, g);
    reply_text_json(res, 200, srv_game_json(s, g, -1));
}

/* ---- routing ---- */

/* Parses "/api/games/{id}[/action]"; false when the id is not a number. */
static bool parse_game_path(const char *rest, long long *id, const char **action)
{
    char *end;
    if (!isdigit((unsigned char)rest[0]))
        return false;
    errno = 0;
    long long v = strtoll(rest, &end, 10);
    if (errno || v <= 0)
        return false;
    if (*end == '\0')
        *action = "";
    else if (*end == '/')
        *action = end + 1;
    else
        return false;
    *id = v;
    return true;
}

static void route(pips_server *s, const pips_http_request *req, pips_http_response *res)
{
    const char *m = req->method ? req->method : "", *p = req->path ? req->path : "/";
    bool get = !strcmp(m, "GET") || !strcmp(m, "HEAD"), post = !strcmp(m, "POST");
    if (strncmp(p, "/api/", 5) != 0) {
        if (get)
            srv_serve_static(s, req, res);
        else
            reply_error(res, 405, "method %.16s not allowed here", m);
        return;
    }
    if (req->body_len > s->cfg.max_body) {
        reply_error(res, 413, "request body over %zu bytes", s->cfg.max_body);
        return;
    }
    const char *api = p + 5;
    if (!strcmp(api, "games")) {
        if (get) {
            list_games(s, res);
        } else if (post) {
            json_t *body = body_object(req, res);
            if (body)
                create_game(s, body, res);
            json_decref(body);
        } else {
            reply_error(res, 405, "use GET or POST");
        }
        return;
    }
    if (!strcmp(api, "records")) {
        if (post)
            upload_record(s, req, res);
        else
            reply_error(res, 405, "use POST");
        return;
    }
    long long id;
    const char *action;
    if (strncmp(api, "games/", 6) != 0 || !parse_game_path(api + 6, &id, &action)) {
        reply_error(res, 404, "no such resource");
        return;
    }
    srv_game *g = srv_find(s, id);
    if (!g) {
        reply_error(res, 404, "no game %lld", id);
        return;
    }
    if (!*action || !strcmp(action, "record") || !strcmp(action, "events") ||
        !strcmp(action, "hints")) {
        if (!get) {
            reply_error(res, 405, "use GET");
        } else if (!*action) {
            long ply;
            /* a view never shows a change before its commit: it might still be
             * rolled back (disk full, database locked) */
            srv_wait_writable(s, g);
            if (!read_ply(g, req, res, &ply))
                return;
            if (!header(req, "X-Pips-Token")) {
                reply_text_json(res, 200, srv_game_json(s, g, ply));
                return;
            }
            /* with tokens: "held" says which seats they hold (a page
             * reports a stale or foreign link on load) */
            char *text = srv_game_json(s, g, ply);
            json_error_t je;
            json_t *v = text ? json_loads(text, JSON_PRESERVE_ORDER, &je) : NULL;
            free(text);
            unsigned held = token_seats(g, req, NULL);
            json_t *a = json_array();
            for (int i = 0; i < g->m->n_seats; i++)
                if (held >> i & 1)
                    json_array_append_new(a, json_integer(i));
            json_object_set_new(v, "held", a);
            reply_json(res, v ? 200 : 500, v);
        } else if (!strcmp(action, "hints")) {
            get_hints(s, g, req, res);
        } else if (!strcmp(action, "record")) {
            srv_wait_writable(s, g);
            get_record(s, g, res);
        } else {
            /* the listener streams; the handler only vouches for the game */
            set_body(res, 200, "text/event-stream", NULL, 0);
            res->stream_game = id;
        }
        return;
    }
    if (!post) {
        reply_error(res, 405, "use POST");
        return;
    }
    void (*handler)(pips_server *, srv_game *, const pips_http_request *, json_t *,
                    pips_http_response *) = NULL;
    if (!strcmp(action, "moves"))
        handler = play_move;
    else if (!strcmp(action, "undo"))
        handler = undo_move;
    else if (!strcmp(action, "resign"))
        handler = resign_game;
    if (!handler) {
        reply_error(res, 404, "no such resource");
        return;
    }
    json_t *body = body_object(req, res);
    if (body)
        handler(s, g, req, body, res);
    json_decref(body);
}

/* Requests that read nothing of the live games, answered without s->mu. */
static bool route_unlocked(pips_server *s, const pips_http_request *req, pips_http_response *res)
{
    const char *m = req->method ? req->method : "", *p = req->path ? req->path : "/";
    bool get = !strcmp(m, "GET") || !strcmp(m, "HEAD");
    if (strncmp(p, "/api/", 5) != 0 && get) {
        srv_serve_static(s, req, res); /* reads only immutable fields */
        return true;
    }
    bool rules = !strcmp(p, "/api/rules"), agents = !strcmp(p, "/api/agents");
    if (!rules && !agents)
        return false;
    if (!get)
        reply_error(res, 405, "use GET");
    else if (agents)
        agents_for_options(s, req, res);
    else if (!srv_cache_reply(s, "rules", header(req, "If-None-Match"), res))
        srv_cache_store(s, "rules", rules_json(s), header(req, "If-None-Match"), res);
    return true;
}

void srv_handle_admitted(pips_server *s, const pips_http_request *req, pips_http_response *res)
{
    memset(res, 0, sizeof *res);
    if (route_unlocked(s, req, res))
        return;
    pthread_mutex_lock(&s->mu);
    route(s, req, res);
    pthread_mutex_unlock(&s->mu);
}

void pips_server_handle(pips_server *s, const pips_http_request *req, pips_http_response *res)
{
    memset(res, 0, sizeof *res);
    srv_kind kind = srv_request_kind(s, req);
    if (!srv_admit(s, kind, req->client, res))
        return;
    srv_handle_admitted(s, req, res);
    srv_release(s, kind, req->client);
}
