/*
 * server.c — the server's life cycle, its table of games, the agent worker
 * threads and the JSON view of a game.
 *
 * Agent moves: a game whose seat to move is an agent is queued; a worker
 * takes it, copies the position, thinks without the lock, then plays the
 * move only if the game did not change meanwhile (an undo or resignation
 * bumps the version and the stale move is dropped). Chance events are
 * rolled with the match dice right after the move that leads to them.
 * Invariants: see server_impl.h; a game is queued at most once and
 * thought about by at most one worker.
 */
#include "server/server_impl.h"
#include "pips/view.h"

#include "play/play_json.h"
#include "core/unchecked.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- randomness for tokens and default seeds (not game randomness) ---- */

static void random_bytes(unsigned char *buf, size_t n)
{
    size_t got = 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        while (got < n) {
            ssize_t r = read(fd, buf + got, n - got);
            if (r <= 0 && errno != EINTR)
                break;
            if (r > 0)
                got += (size_t)r;
        }
        close(fd);
    }
    if (got < n) { /* no urandom: fall back to clock-seeded mixing */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ (uint64_t)(uintptr_t)buf;
        for (size_t i = got; i < n; i++)
            buf[i] = (unsigned char)pips_splitmix64(&x);
    }
}

void srv_random_token(char *out)
{
    unsigned char b[SRV_TOKEN_LEN / 2];
    random_bytes(b, sizeof b);
    for (size_t i = 0; i < sizeof b; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

uint64_t srv_random_u64(void)
{
    uint64_t x;
    random_bytes((unsigned char *)&x, sizeof x);
    return x;
}

bool srv_hints_apply(const pips_game *game)
{
    const pips_game_def *d = game->def;
    return pips_num_players(game) == 2 && !(d->flags & PIPS_GAME_CHANCE) &&
           (d->solve || !(d->flags & PIPS_GAME_NOT_ENUMERABLE));
}

json_t *srv_json_text(const char *text)
{
    json_t *v = json_string(text);
    if (v)
        return v;
    /* not UTF-8 (a message quoting raw input, or cut inside a character by
     * a %.64s): json_string refuses it, so keep its ASCII and mark the rest */
    char *copy = strdup(text);
    if (!copy)
        return NULL;
    for (char *p = copy; *p; p++)
        if ((unsigned char)*p >= 0x80)
            *p = '?';
    v = json_string(copy);
    free(copy);
    return v;
}

/* ---- the game table ---- */

srv_game *srv_find(pips_server *s, long long id)
{
    size_t lo = 0, hi = s->n_games;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->games[mid]->id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->n_games && s->games[lo]->id == id ? s->games[lo] : NULL;
}

bool srv_add(pips_server *s, srv_game *g, pips_error *err)
{
    if (s->n_games == s->cap_games) {
        size_t cap = s->cap_games ? s->cap_games * 2 : 64;
        srv_game **t = realloc(s->games, cap * sizeof *t);
        if (!t)
            return pips_fail(err, PIPS_ERR_NOMEM, "out of memory for the game table");
        s->games = t;
        s->cap_games = cap;
    }
    /* ids grow, but concurrent inserts may finish out of order */
    size_t at = s->n_games;
    while (at > 0 && s->games[at - 1]->id > g->id)
        at--;
    memmove(s->games + at + 1, s->games + at, (s->n_games - at) * sizeof *s->games);
    s->games[at] = g;
    s->n_games++;
    srv_touch(s, g);
    return true;
}

/* Agent budgets a client may ask for on this server. */
#define SRV_MAX_AGENT_ITERS 200000L
#define SRV_MAX_AGENT_DEPTH 12L
#define SRV_MAX_AGENT_THREADS 2L        /* the machine the levels are sized for */
#define SRV_MAX_AGENT_TABLE_MB 256L     /* the oracle's default table */
#define SRV_MAX_AGENT_TREE_NODES 4000000L /* mcts's default arena, ~160 MB a tree */

srv_game *srv_game_new(pips_server *s, pips_match *m, pips_error *err)
{
    srv_game *g = calloc(1, sizeof *g);
    if (!g) {
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    pips_table_limits lim = {s->cfg.max_think_seconds, SRV_MAX_AGENT_ITERS,   SRV_MAX_AGENT_DEPTH,
                             SRV_MAX_AGENT_THREADS,      SRV_MAX_AGENT_TABLE_MB, SRV_MAX_AGENT_TREE_NODES};
    if (!srv_move_ms_reserve(g, m->n_moves + 1)) {
        free(g);
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    g->t = pips_table_new(m, NULL, 0, &lim, err);
    if (!g->t) {
        free(g->move_ms);
        free(g);
        return NULL;
    }
    g->m = pips_table_match(g->t);
    g->version = s->version_base;
    g->undo_by = -1;
    g->clock.running = -1;
    g->clock.turn_start = srv_now_ms();
    return g;
}

void srv_game_free(srv_game *g)
{
    if (!g)
        return;
    pips_table_free(g->t);
    free(g->view);
    free(g->move_ms);
    free(g);
}

/* Rebuilds a stored game by replaying its moves on a fresh match. */
static bool load_row(pips_server *s, const store_row *row, bool *stop, pips_error *err)
{
    *stop = false;
    pips_game *game = play_game_from_json(row->game, row->options, NULL, err);
    pips_match *m = game ? pips_match_from_game(game, row->seed, err) : NULL;
    if (!m)
        return pips_error_prefix(err, "game %lld: ", row->id), false;
    const char *seat_names[PIPS_MAX_PLAYERS];
    size_t ns = json_array_size(row->seats);
    bool ok = ns <= PIPS_MAX_PLAYERS;
    for (size_t i = 0; ok && i < ns; i++)
        ok = (seat_names[i] = json_string_value(json_array_get(row->seats, i))) != NULL;
    if (!ok) {
        pips_match_free(m);
        return pips_fail(err, PIPS_ERR_IO, "game %lld: unreadable seats", row->id);
    }
    ok = pips_match_set_seats(m, seat_names, (int)ns, err);
    for (size_t i = 0; ok && i < row->n_moves; i++)
        if (!pips_match_play_text(m, row->moves[i], err)) {
            pips_error_prefix(err, "move %zu: ", i + 1);
            ok = false;
        }
    if (ok) {
        snprintf(m->started, sizeof m->started, "%s", row->created);
        snprintf(m->finished, sizeof m->finished, "%s", row->finished);
    }
    srv_game *g = ok ? srv_game_new(s, m, err) : NULL;
    if (!g) {
        pips_match_free(m);
        return pips_error_prefix(err, "game %lld: ", row->id), false;
    }
    if (!pips_table_set_resigned(g->t, row->resigned, err)) {
        srv_game_free(g);
        return pips_error_prefix(err, "game %lld: ", row->id), false;
    }
    g->id = row->id;
    long long turn_ms = 0;
    if (!srv_move_ms_reserve(g, row->n_moves + 1)) {
        srv_game_free(g);
        return pips_fail(err, PIPS_ERR_NOMEM, "game %lld: out of memory", row->id);
    }
    for (size_t i = 0; i < row->n_moves; i++)
        g->move_ms[i] = row->move_ms ? row->move_ms[i] : 0;
    if (row->clock) {
        if (!srv_clock_parse(g, row->clock, err)) {
            srv_game_free(g);
            return pips_error_prefix(err, "game %lld: clock: ", row->id), false;
        }
        turn_ms = json_integer_value(json_object_get(row->clock, "turn_ms"));
    }
    /* the time the server was down is not charged: the running seat goes on
     * from what it had spent in its turn when the server stopped */
    srv_clock_rebuild(g, turn_ms);
    for (int i = 0; i < g->m->n_seats; i++) {
        const char *tok = json_string_value(json_array_get(row->tokens, (size_t)i));
        snprintf(g->tokens[i], sizeof g->tokens[i], "%s", tok ? tok : "");
    }
    snprintf(g->created, sizeof g->created, "%s", row->created);
    snprintf(g->updated, sizeof g->updated, "%s", row->updated);
    if (!srv_add(s, g, err)) {
        srv_game_free(g);
        *stop = true;
        return false;
    }
    return true;
}

bool srv_load_games(pips_server *s, pips_error *err)
{
    return store_scan(s, load_row, &s->broken, err);
}

void srv_wait_writable(pips_server *s, srv_game *g)
{
    while (g->writing)
        pthread_cond_wait(&s->changed, &s->mu);
}

bool srv_commit(pips_server *s, srv_game *g, store_job *job, long long *id, pips_error *err)
{
    if (g)
        g->writing = true;
    pthread_mutex_unlock(&s->mu);
    bool ok = store_run(s, job, id, err);
    pthread_mutex_lock(&s->mu);
    if (g) {
        g->writing = false;
        pthread_cond_broadcast(&s->changed);
    }
    return ok;
}

bool srv_play(pips_server *s, srv_game *g, pips_move mv, pips_error *err)
{
    size_t from = g->m->n_moves;
    char prev_updated[PIPS_TIME_MAX];
    memcpy(prev_updated, g->updated, sizeof prev_updated);
    srv_clock prev_clock = g->clock;
    long long now = srv_now_ms();
    int who = pips_table_to_move(g->t);
    if (!pips_table_play(g->t, mv, err))
        return false;
    if (!srv_move_ms_reserve(g, g->m->n_moves + 1)) {
        while (g->m->n_moves > from)
            pips_match_undo(g->m, NULL);
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
    }
    /* the mover is charged the time since its turn began, then gets the
     * increment; chance outcomes rolled after the move take no time */
    long long spent = now > g->clock.turn_start ? now - g->clock.turn_start : 0;
    for (size_t i = from; i < g->m->n_moves; i++)
        g->move_ms[i] = i == from ? spent : 0;
    if (g->clock.on && who >= 0 && who == g->clock.running)
        g->clock.remaining_ms[who] += g->clock.increment_ms - spent;
    g->clock.turn_start = now;
    g->clock.running = srv_clock_seat(g);
    pips_iso_time(g->updated);
    if (!srv_commit(s, g, store_job_append(g, from), NULL, err)) {
        while (g->m->n_moves > from)
            pips_match_undo(g->m, NULL);
        memcpy(g->updated, prev_updated, sizeof prev_updated);
        g->clock = prev_clock;
        return false;
    }
    g->undo_by = -1; /* any move clears a take-back request */
    g->undo_agreed = 0;
    return true;
}

/* ---- clocks (issue 27) ---- */

long long srv_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

bool srv_move_ms_reserve(srv_game *g, size_t n)
{
    if (n <= g->move_ms_cap)
        return true;
    size_t cap = g->move_ms_cap ? g->move_ms_cap : 64;
    while (cap < n)
        cap *= 2;
    long long *p = realloc(g->move_ms, cap * sizeof *p);
    if (!p)
        return false;
    memset(p + g->move_ms_cap, 0, (cap - g->move_ms_cap) * sizeof *p);
    g->move_ms = p;
    g->move_ms_cap = cap;
    return true;
}

unsigned srv_human_seats(const srv_game *g)
{
    unsigned mask = 0;
    for (int i = 0; i < g->m->n_seats; i++)
        if (!pips_table_agent(g->t, i))
            mask |= 1u << i;
    return mask;
}

int srv_clock_seat(const srv_game *g)
{
    if (!g->clock.on || pips_table_over(g->t))
        return -1;
    int who = pips_table_to_move(g->t);
    /* a seat out of the game (resigned or flagged, its autopilot moving) has no clock */
    if (who < 0 || (pips_table_resigned(g->t) >> who & 1))
        return -1;
    return who;
}

void srv_clock_rebuild(srv_game *g, long long turn_ms)
{
    srv_clock *c = &g->clock;
    const pips_match *m = g->m;
    size_t ss = m->game->def->state_size;
    for (int i = 0; i < m->n_seats; i++)
        c->remaining_ms[i] = c->initial_ms;
    for (size_t i = 0; i < m->n_moves; i++) {
        int who = pips_to_move(m->game, m->history + i * ss);
        if (who >= 0)
            c->remaining_ms[who] += c->increment_ms - g->move_ms[i];
    }
    for (int i = 0; i < m->n_seats; i++)
        if (c->flagged >> i & 1)
            c->remaining_ms[i] = 0;
    c->turn_start = srv_now_ms() - (turn_ms > 0 ? turn_ms : 0);
    c->running = srv_clock_seat(g);
}

long long srv_clock_left(const srv_game *g, int seat, long long now)
{
    const srv_clock *c = &g->clock;
    long long left = c->remaining_ms[seat];
    if (seat == c->running && now > c->turn_start)
        left -= now - c->turn_start;
    return left;
}

bool srv_clock_check(pips_server *s, srv_game *g, long long now, pips_error *err)
{
    int r = g->clock.running;
    /* an agent thinking on its own copy is flagged when it comes back
     * (the worker checks): resigning it now would free the agent under it */
    if (r < 0 || g->writing || g->thinking || srv_clock_left(g, r, now) > 0)
        return false;
    srv_clock prev = g->clock;
    unsigned before = pips_table_resigned(g->t);
    char prev_updated[PIPS_TIME_MAX];
    memcpy(prev_updated, g->updated, sizeof prev_updated);
    g->clock.flagged |= 1u << r;
    if (!pips_table_resign(g->t, r, err)) {
        g->clock = prev;
        return false;
    }
    g->clock.remaining_ms[r] = 0;
    g->clock.turn_start = now;
    g->clock.running = srv_clock_seat(g);
    pips_iso_time(g->updated);
    if (!srv_commit(s, g, store_job_update(g), NULL, err)) {
        pips_table_set_resigned(g->t, before, NULL);
        g->m->finished[0] = '\0';
        g->clock = prev;
        memcpy(g->updated, prev_updated, sizeof prev_updated);
        return false;
    }
    g->undo_by = -1;
    g->undo_agreed = 0;
    srv_touch(s, g);
    return true;
}

void srv_result_text(const srv_game *g, pips_str *out)
{
    pips_str t;
    pips_str_init(&t, NULL);
    pips_table_result_text(g->t, &t);
    const char *p = pips_str_cstr(&t);
    while (*p) {
        int seat, len = 0;
        if (sscanf(p, "seat %d resigns%n", &seat, &len) == 1 && len > 0 && seat >= 1 &&
            seat <= PIPS_MAX_PLAYERS && (g->clock.flagged >> (seat - 1) & 1)) {
            pips_str_catf(out, "seat %d loses on time", seat);
            p += len;
        } else {
            pips_str_catn(out, p, 1);
            p++;
        }
    }
    pips_str_free(&t);
}

static json_t *seconds_json(long long ms)
{
    return ms % 1000 ? json_real((double)ms / 1000.0) : json_integer(ms / 1000);
}

static json_t *mask_json(unsigned mask, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        if (mask >> i & 1)
            json_array_append_new(a, json_integer(i));
    return a;
}

json_t *srv_clock_json(const srv_game *g, bool with_turn, long long now)
{
    const srv_clock *c = &g->clock;
    if (!c->on)
        return NULL;
    json_t *o = json_object();
    json_object_set_new(o, "initial", seconds_json(c->initial_ms));
    json_object_set_new(o, "increment", seconds_json(c->increment_ms));
    json_object_set_new(o, "flagged", mask_json(c->flagged, g->m->n_seats));
    if (with_turn)
        json_object_set_new(o, "turn_ms",
                            json_integer(c->running >= 0 && now > c->turn_start ? now - c->turn_start : 0));
    return o;
}

/* Clock limits: up to 10 hours a seat and 10 minutes a move. */
#define CLOCK_MAX_INITIAL 36000.0
#define CLOCK_MAX_INCREMENT 600.0

bool srv_clock_parse(srv_game *g, const json_t *clock, pips_error *err)
{
    if (!json_is_object(clock))
        return pips_fail(err, PIPS_ERR_ARG,
                         "clock: expected {\"initial\": seconds, \"increment\": seconds}");
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)clock, key, v) {
        if (strcmp(key, "initial") && strcmp(key, "increment") && strcmp(key, "flagged") &&
            strcmp(key, "turn_ms"))
            return pips_fail(err, PIPS_ERR_ARG, "clock.%.32s: unknown field (initial, increment)",
                             key);
    }
    json_t *ini = json_object_get(clock, "initial"), *inc = json_object_get(clock, "increment");
    if (!json_is_number(ini) || json_number_value(ini) < 1 ||
        json_number_value(ini) > CLOCK_MAX_INITIAL)
        return pips_fail(err, PIPS_ERR_ARG, "clock.initial: expected seconds from 1 to %.0f",
                         CLOCK_MAX_INITIAL);
    if (inc && (!json_is_number(inc) || json_number_value(inc) < 0 ||
                json_number_value(inc) > CLOCK_MAX_INCREMENT))
        return pips_fail(err, PIPS_ERR_ARG, "clock.increment: expected seconds from 0 to %.0f",
                         CLOCK_MAX_INCREMENT);
    unsigned flagged = 0;
    json_t *fl = json_object_get(clock, "flagged");
    size_t i;
    json_array_foreach(fl, i, v) {
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) >= g->m->n_seats)
            return pips_fail(err, PIPS_ERR_ARG, "clock.flagged: expected seat numbers (0-based)");
        flagged |= 1u << json_integer_value(v);
    }
    if (fl && !json_is_array(fl))
        return pips_fail(err, PIPS_ERR_ARG, "clock.flagged: expected a list of seats (0-based)");
    g->clock.on = true;
    g->clock.initial_ms = llround(json_number_value(ini) * 1000);
    g->clock.increment_ms = inc ? llround(json_number_value(inc) * 1000) : 0;
    g->clock.flagged = flagged;
    return true;
}

/* Makes every flag that is due fall, about ten times a second. */
static void *clock_main(void *arg)
{
    pips_server *s = arg;
    pthread_mutex_lock(&s->mu);
    while (!s->stopping) {
        long long now = srv_now_ms();
        /* by index: a commit releases the lock and games may be added meanwhile */
        for (size_t i = 0; i < s->n_games && !s->stopping; i++) {
            srv_game *g = s->games[i];
            if (g->clock.running >= 0) {
                pips_error err;
                pips_error_clear(&err);
                srv_clock_check(s, g, now, &err);
            }
        }
        struct timespec dl;
        clock_gettime(CLOCK_MONOTONIC, &dl);
        dl.tv_nsec += 100 * 1000000L;
        if (dl.tv_nsec >= 1000000000L) {
            dl.tv_sec++;
            dl.tv_nsec -= 1000000000L;
        }
        if (!s->stopping)
            pthread_cond_timedwait(&s->clock_wake, &s->mu, &dl);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

static bool agent_due(const srv_game *g)
{
    return !g->thinking && !g->ai_error[0] && pips_table_agent_to_move(g->t);
}

void srv_touch(pips_server *s, srv_game *g)
{
    g->version++;
    if (agent_due(g) && !g->queued && !s->stopping) {
        if (s->q_len == s->q_cap) {
            size_t cap = s->q_cap ? s->q_cap * 2 : 64;
            long long *q = malloc(cap * sizeof *q);
            if (q) {
                for (size_t i = 0; i < s->q_len; i++)
                    q[i] = s->queue[(s->q_head + i) % s->q_cap];
                free(s->queue);
                s->queue = q;
                s->q_head = 0;
                s->q_cap = cap;
            }
        }
        if (s->q_len < s->q_cap) {
            s->queue[(s->q_head + s->q_len++) % s->q_cap] = g->id;
            g->queued = true;
            pthread_cond_signal(&s->work);
        } else {
            snprintf(g->ai_error, sizeof g->ai_error, "out of memory queueing the agent");
        }
    }
    pthread_cond_broadcast(&s->changed);
    if (s->notify_change)
        s->notify_change(s, g->id);
}

static void *worker_main(void *arg)
{
    pips_server *s = arg;
    srv_lower_thread_priority(); /* an agent's search yields to moves */
    pthread_mutex_lock(&s->mu);
    for (;;) {
        while (!s->stopping && s->q_len == 0)
            pthread_cond_wait(&s->work, &s->mu);
        if (s->stopping)
            break;
        long long id = s->queue[s->q_head];
        s->q_head = (s->q_head + 1) % s->q_cap;
        s->q_len--;
        srv_game *g = srv_find(s, id);
        if (!g)
            continue;
        g->queued = false;
        if (!agent_due(g))
            continue;
        const pips_game *game = g->m->game;
        int seat = pips_table_to_move(g->t);
        void *copy = malloc(game->def->state_size);
        if (!copy) {
            snprintf(g->ai_error, sizeof g->ai_error, "out of memory for the agent");
            srv_touch(s, g);
            continue;
        }
        memcpy(copy, g->m->state, game->def->state_size);
        g->thinking = true;
        s->busy++;
        srv_touch(s, g); /* clients see the thinking indicator */
        unsigned long long version = g->version;
        /* every search (of any kind) is capped at --max-think, since work
         * budgets (iters=, evals=, nodes=, positions=) say nothing of time;
         * on a clock, at its share of the time left: a twentieth, and most
         * of the increment (issue 27) */
        double cap = s->cfg.max_think_seconds;
        if (g->clock.running == seat) {
            cap = (srv_clock_left(g, seat, srv_now_ms()) / 20.0 + g->clock.increment_ms * 0.8) / 1000.0;
            if (cap < 0.05)
                cap = 0.05;
            if (cap > s->cfg.max_think_seconds)
                cap = s->cfg.max_think_seconds;
        }
        pips_agent_set_time_cap(pips_table_agent(g->t, seat), cap);
        pthread_mutex_unlock(&s->mu);

        /* the agent thinks on a copy, without the lock: the table is not
         * touched until the move is played below */
        pips_error err;
        pips_error_clear(&err);
        pips_move mv = PIPS_MOVE_NONE;
        bool ok = pips_table_think(g->t, seat, copy, &mv, NULL, &err);
        free(copy);

        pthread_mutex_lock(&s->mu);
        g->thinking = false;
        srv_wait_writable(s, g);
        if (g->version == version && !s->stopping && g->clock.running == seat &&
            srv_clock_left(g, seat, srv_now_ms()) <= 0) {
            /* it thought past its time: its flag falls instead */
            srv_clock_check(s, g, srv_now_ms(), &err);
        } else if (g->version == version && !s->stopping && !(ok && srv_play(s, g, mv, &err)))
            snprintf(g->ai_error, sizeof g->ai_error, "seat %d (%s): %s", seat + 1,
                     g->m->seats[seat], err.msg);
        s->busy--;
        srv_touch(s, g);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* ---- life cycle ---- */

pips_server *pips_server_new(const pips_server_config *cfg, pips_error *err)
{
    pips_server *s = calloc(1, sizeof *s);
    if (!s) {
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory for the server");
        return NULL;
    }
    if (cfg)
        s->cfg = *cfg;
    if (!s->cfg.max_games)
        s->cfg.max_games = 10000;
    if (!s->cfg.max_body)
        s->cfg.max_body = 256 * 1024;
    if (s->cfg.max_think_seconds <= 0)
        s->cfg.max_think_seconds = 10;
    if (s->cfg.ai_threads <= 0)
        s->cfg.ai_threads = 2;
    if (s->cfg.ai_threads > 16)
        s->cfg.ai_threads = 16;
    if (s->cfg.web_root)
        snprintf(s->web_root, sizeof s->web_root, "%s", s->cfg.web_root);
    s->cfg.web_root = s->web_root[0] ? s->web_root : NULL;
    s->cfg.db_path = NULL; /* the caller's string is not kept */
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    s->version_base = ((unsigned long long)now.tv_sec * 1000u + (unsigned long long)now.tv_nsec / 1000000u) * 1000u;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->changed, &ca);
    pthread_cond_init(&s->work, &ca);
    pthread_cond_init(&s->clock_wake, &ca);
    pthread_mutex_init(&s->wq_mu, NULL);
    pthread_cond_init(&s->wq_cond, NULL);
    pthread_cond_init(&s->wq_done, NULL);
    pthread_condattr_destroy(&ca);

    s->cfg.db_path = cfg && cfg->db_path ? cfg->db_path : ":memory:"; /* store_open only */
    bool ok = srv_scripts_load(s, cfg ? cfg->rules_dir : NULL, err) && store_open(s, err);
    s->cfg.rules_dir = NULL; /* the caller's string is not kept */
    pthread_mutex_lock(&s->mu);
    ok = ok && srv_load_games(s, err);
    pthread_mutex_unlock(&s->mu);
    ok = ok && srv_ckpt_start(s, s->cfg.db_path, err);
    s->cfg.db_path = NULL;
    if (ok && !srv_cache_init(s))
        ok = pips_fail(err, PIPS_ERR_NOMEM, "out of memory for the server");
    if (!ok || !srv_pool_start(s, err) || !store_start_writer(s, err)) {
        pips_server_free(s);
        return NULL;
    }
    for (int i = 0; i < s->cfg.ai_threads; i++) {
        if (pthread_create(&s->workers[i], NULL, worker_main, s) != 0) {
            pips_fail(err, PIPS_ERR_NOMEM, "cannot start agent worker %d", i + 1);
            pips_server_free(s);
            return NULL;
        }
        s->n_workers++;
    }
    if (pthread_create(&s->clock_thread, NULL, clock_main, s) != 0) {
        pips_fail(err, PIPS_ERR_NOMEM, "cannot start the clocks' thread");
        pips_server_free(s);
        return NULL;
    }
    s->clock_running = true;
    return s;
}

void pips_server_free(pips_server *s)
{
    if (!s)
        return;
    if (s->stop_listener)
        s->stop_listener(s);
    pthread_mutex_lock(&s->mu);
    s->stopping = true;
    pthread_cond_broadcast(&s->work);
    pthread_cond_broadcast(&s->changed);
    pthread_cond_broadcast(&s->clock_wake);
    pthread_mutex_unlock(&s->mu);
    for (int i = 0; i < s->n_workers; i++)
        pthread_join(s->workers[i], NULL);
    if (s->clock_running)
        pthread_join(s->clock_thread, NULL);
    /* running clocks keep the time spent in the current turn, so a restart
     * charges neither more nor less than was spent before the stop */
    pthread_mutex_lock(&s->mu);
    for (size_t i = 0; i < s->n_games; i++) {
        srv_game *g = s->games[i];
        pips_error err;
        if (g->clock.running >= 0 && !g->writing)
            srv_commit(s, g, store_job_update(g), NULL, &err);
    }
    pthread_mutex_unlock(&s->mu);
    srv_pool_stop(s);
    store_stop_writer(s);
    srv_ckpt_stop(s);
    srv_cache_free(s);
    for (size_t i = 0; i < s->n_games; i++)
        srv_game_free(s->games[i]);
    free(s->games);
    free(s->queue);
    store_close(s);
    srv_scripts_free(s);
    pthread_cond_destroy(&s->changed);
    pthread_cond_destroy(&s->work);
    pthread_cond_destroy(&s->clock_wake);
    pthread_cond_destroy(&s->wq_cond);
    pthread_cond_destroy(&s->wq_done);
    pthread_mutex_destroy(&s->wq_mu);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

size_t pips_server_broken_games(const pips_server *s) { return s->broken; }

void pips_server_get_stats(pips_server *s, pips_server_stats *st)
{
    memset(st, 0, sizeof *st);
    if (s->cache)
        srv_cache_counts(s, &st->cache_hits, &st->cache_misses, &st->cache_entries);
    if (s->pool)
        srv_pool_counts(s, &st->refused_busy, &st->refused_client, &st->heavy_in_flight);
    st->checkpoints = srv_ckpt_count(s);
}

static void deadline_after(struct timespec *ts, int ms)
{
    clock_gettime(CLOCK_MONOTONIC, ts);
    ts->tv_sec += ms / 1000;
    ts->tv_nsec += (long)(ms % 1000) * 1000000L;
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec++;
        ts->tv_nsec -= 1000000000L;
    }
}

bool pips_server_idle(pips_server *s, int timeout_ms)
{
    struct timespec dl;
    deadline_after(&dl, timeout_ms);
    pthread_mutex_lock(&s->mu);
    int rc = 0;
    while ((s->q_len || s->busy) && rc != ETIMEDOUT)
        rc = pthread_cond_timedwait(&s->changed, &s->mu, &dl);
    bool idle = !s->q_len && !s->busy;
    pthread_mutex_unlock(&s->mu);
    return idle;
}

int pips_server_wait_change(pips_server *s, long long id, unsigned long long *version,
                            int timeout_ms, char **json)
{
    struct timespec dl;
    deadline_after(&dl, timeout_ms);
    pthread_mutex_lock(&s->mu);
    int result = 0, rc = 0;
    for (;;) {
        srv_game *g = srv_find(s, id);
        if (s->stopping || s->http_closing || !g) {
            result = -1;
            break;
        }
        if (g->version > *version && !g->writing) { /* uncommitted changes are not shown */
            if (!g->view || g->view_version != g->version) {
                free(g->view);
                g->view = srv_game_json(s, g, -1);
                g->view_version = g->version;
            }
            *json = g->view ? strdup(g->view) : NULL;
            *version = g->version;
            result = *json ? 1 : -1;
            break;
        }
        if (rc == ETIMEDOUT)
            break;
        rc = pthread_cond_timedwait(&s->changed, &s->mu, &dl);
    }
    pthread_mutex_unlock(&s->mu);
    return result;
}

/* ---- the JSON view of a game ---- */

char *srv_game_json(pips_server *s, srv_game *g, long ply)
{
    (void)s;
    const pips_match *m = g->m;
    const pips_game *game = m->game;
    size_t ss = game->def->state_size;
    bool current = ply < 0 || (size_t)ply >= m->n_moves;
    size_t shown = current ? m->n_moves : (size_t)ply;
    const void *state = current ? m->state : m->history + shown * ss;
    json_t *o = json_object();
    json_object_set_new(o, "id", json_integer(g->id));
    json_object_set_new(o, "game", json_string(game->def->name));
    json_object_set_new(o, "title", json_string(game->def->title));
    json_t *opts = json_object();
    for (size_t i = 0; i < game->options.n; i++)
        json_object_set_new(opts, game->options.kv[i].key, json_string(game->options.kv[i].value));
    json_object_set_new(o, "options", opts);
    json_t *seats = json_array();
    for (int i = 0; i < m->n_seats; i++)
        json_array_append_new(seats, json_string(m->seats[i]));
    json_object_set_new(o, "seats", seats);
    json_object_set_new(o, "seed", json_integer((json_int_t)(m->seed & INT64_MAX)));
    json_object_set_new(o, "version", json_integer((json_int_t)g->version));
    json_object_set_new(o, "ply", json_integer((json_int_t)shown));
    json_object_set_new(o, "n_moves", json_integer((json_int_t)m->n_moves));
    json_t *moves = json_array();
    for (size_t i = 0; i < m->n_moves; i++) {
        char buf[PIPS_MOVE_TEXT_MAX];
        pips_match_move_text(m, i, buf);
        /* who made it: a seat, or null for a chance outcome */
        int who = pips_to_move(game, m->history + i * ss);
        json_t *mv = json_object();
        json_object_set_new(mv, "text", json_string(buf));
        json_object_set_new(mv, "seat", who >= 0 ? json_integer(who) : json_null());
        json_object_set_new(mv, "ms", json_integer(i < g->move_ms_cap ? g->move_ms[i] : 0));
        json_array_append_new(moves, mv);
    }
    json_object_set_new(o, "moves", moves);

    pips_str text;
    pips_str_init(&text, NULL);
    game->def->state_to_text(game, state, &text);
    json_object_set_new(o, "state", json_string(pips_str_cstr(&text)));
    pips_str_clear(&text);
    pips_render_opts ro = {false, false};
    game->def->render(game, state, &ro, &text);
    json_object_set_new(o, "render", json_string(pips_str_cstr(&text)));
    pips_str_clear(&text);
    /* the structured view the board modules draw from (pips/view.h) */
    json_t *view = state_view_unchecked(game, state, NULL);
    json_object_set_new(o, "view", view ? view : json_null());

    int who = current ? pips_table_to_move(g->t) : pips_to_move(game, state);
    bool over = who == PIPS_OVER;
    unsigned resigned = current ? pips_table_resigned(g->t) : 0;
    json_object_set_new(o, "to_move", who >= 0 && !over ? json_integer(who) : json_null());
    json_object_set_new(o, "over", json_boolean(over));
    json_t *result = json_object();
    json_t *res_seats = json_array();
    for (int i = 0; i < m->n_seats; i++)
        if (resigned >> i & 1)
            json_array_append_new(res_seats, json_integer(i));
    json_object_set_new(result, "resigned", res_seats);
    json_object_set_new(result, "on_time", mask_json(current ? g->clock.flagged : 0, m->n_seats));
    if (current)
        srv_result_text(g, &text);
    else
        game->def->result_text(game, state, &text);
    json_object_set_new(result, "text", json_string(pips_str_cstr(&text)));
    double r[PIPS_MAX_PLAYERS];
    bool ended = current ? pips_table_returns(g->t, r) : who == PIPS_OVER;
    if (!current && ended)
        game->def->returns(game, state, r);
    if (ended) {
        json_t *rets = json_array();
        for (int i = 0; i < m->n_seats; i++)
            json_array_append_new(rets, json_real(r[i]));
        json_object_set_new(result, "returns", rets);
    }
    if (game->def->scores) {
        int sc[PIPS_MAX_PLAYERS];
        game->def->scores(game, state, sc);
        json_t *scores = json_array();
        for (int i = 0; i < m->n_seats; i++)
            json_array_append_new(scores, json_integer(sc[i]));
        json_object_set_new(result, "scores", scores);
    }
    json_object_set_new(o, "result", result);
    pips_str_free(&text);

    bool enumerable = !(game->def->flags & PIPS_GAME_NOT_ENUMERABLE);
    json_object_set_new(o, "enumerable", json_boolean(enumerable));
    json_t *legal = json_array();
    if (current && !over && who >= 0) {
        size_t cap = pips_max_moves(game);
        pips_move *buf = malloc(cap * sizeof *buf);
        if (buf) {
            /* suggestions of a non-enumerable game are seeded by position, so
             * every client sees the same list */
            pips_rng rng;
            pips_rng_derive(&rng, m->seed ^ 0x5eedu, m->n_moves);
            size_t n = pips_node_moves(game, state, &rng, buf, NULL);
            for (size_t i = 0; i < n && i < 2000; i++) {
                char t[PIPS_MOVE_TEXT_MAX];
                game->def->move_to_text(game, state, buf[i], t);
                json_array_append_new(legal, json_string(t));
            }
            free(buf);
        }
    }
    json_object_set_new(o, "legal", legal);
    json_object_set_new(o, "hints", json_boolean(srv_hints_apply(game)));
    json_object_set_new(o, "thinking", json_boolean(g->thinking || g->queued));
    json_object_set_new(o, "ai_error", srv_json_text(g->ai_error));
    json_t *undo = json_null();
    if (g->undo_by >= 0) {
        undo = json_object();
        json_object_set_new(undo, "by", json_integer(g->undo_by));
        json_object_set_new(undo, "to_ply", json_integer((json_int_t)g->undo_to));
        json_object_set_new(undo, "waiting", mask_json(srv_human_seats(g) & ~g->undo_agreed, m->n_seats));
    }
    json_object_set_new(o, "undo_request", undo);
    json_t *clock = json_null();
    if (g->clock.on) {
        long long now = srv_now_ms();
        clock = json_object();
        json_object_set_new(clock, "initial", seconds_json(g->clock.initial_ms));
        json_object_set_new(clock, "increment", seconds_json(g->clock.increment_ms));
        json_t *rem = json_array();
        for (int i = 0; i < m->n_seats; i++)
            json_array_append_new(rem, json_integer(srv_clock_left(g, i, now)));
        json_object_set_new(clock, "remaining_ms", rem);
        json_object_set_new(clock, "running", g->clock.running >= 0 ? json_integer(g->clock.running) : json_null());
        json_object_set_new(clock, "as_of", json_integer(now));
        json_object_set_new(clock, "flagged", mask_json(g->clock.flagged, m->n_seats));
    }
    json_object_set_new(o, "clock", clock);
    json_object_set_new(o, "created", json_string(g->created));
    json_object_set_new(o, "updated", json_string(g->updated));
    char *out = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    return out;
}
