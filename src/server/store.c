/*
 * store.c — the server's SQLite store: games and their moves.
 *
 * Schema (versioned with PRAGMA user_version; migrations below run in
 * order, each in its own transaction):
 *   games(id, game, options JSON, seats JSON, tokens JSON, seed, resigned,
 *         created, updated, finished)
 *   moves(game_id, ply, text, ms) — every move as played, chance outcomes
 *         too, with the time spent on it (schema 3).
 *   Schema 3 also adds games.clock: "" or JSON {"initial", "increment"
 *   (ms), "flagged" (a seat mask), "turn_ms" (the running seat's time
 *   spent in its turn when the server stopped cleanly)}.
 * The store hands rows back (store_scan) and server.c rebuilds each game by
 * replaying its moves on a fresh match, so the database never holds engine
 * state that a code change could invalidate silently; a game that fails to
 * replay is counted as broken, not served. This file knows nothing of live
 * games beyond the snapshot a write job takes.
 * Invariants: the database runs in WAL mode; every write is one transaction
 * committed before the server answers.
 */
#include "server/server_impl.h"

#include "play/play_json.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const migrations[] = {
    /* 1: games and moves */
    "CREATE TABLE games ("
    "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
    "  game TEXT NOT NULL,"
    "  options TEXT NOT NULL,"
    "  seats TEXT NOT NULL,"
    "  tokens TEXT NOT NULL,"
    "  seed INTEGER NOT NULL,"
    "  resigned INTEGER,"
    "  created TEXT NOT NULL,"
    "  updated TEXT NOT NULL,"
    "  finished TEXT NOT NULL DEFAULT '');"
    "CREATE TABLE moves ("
    "  game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
    "  ply INTEGER NOT NULL,"
    "  text TEXT NOT NULL,"
    "  PRIMARY KEY (game_id, ply)) WITHOUT ROWID;",
    /* 2: several seats may resign (3+ players play on): a bit mask */
    "ALTER TABLE games ADD COLUMN resigned_seats INTEGER NOT NULL DEFAULT 0;"
    "UPDATE games SET resigned_seats = 1 << resigned WHERE resigned IS NOT NULL;",
    /* 3: clocks and the time spent on each move (issue 27) */
    "ALTER TABLE games ADD COLUMN clock TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE moves ADD COLUMN ms INTEGER NOT NULL DEFAULT 0;",
};

static bool db_fail(pips_server *s, pips_error *err, const char *what)
{
    return pips_fail(err, PIPS_ERR_IO, "database: %s: %s", what, sqlite3_errmsg(s->db));
}

static bool exec(pips_server *s, const char *sql, pips_error *err)
{
    char *msg = NULL;
    if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) == SQLITE_OK)
        return true;
    pips_fail(err, PIPS_ERR_IO, "database: %s", msg ? msg : sqlite3_errmsg(s->db));
    sqlite3_free(msg);
    return false;
}

static bool migrate(pips_server *s, pips_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
        return db_fail(s, err, "reading the schema version");
    int version = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
    sqlite3_finalize(st);
    int latest = (int)(sizeof migrations / sizeof migrations[0]);
    if (version > latest)
        return pips_fail(err, PIPS_ERR_IO,
                         "database: schema version %d is newer than this server (%d)", version,
                         latest);
    for (int v = version; v < latest; v++) {
        char bump[64];
        snprintf(bump, sizeof bump, "PRAGMA user_version=%d;", v + 1);
        if (!exec(s, "BEGIN IMMEDIATE", err))
            return false;
        if (!exec(s, migrations[v], err) || !exec(s, bump, err)) {
            exec(s, "ROLLBACK", NULL);
            pips_error_prefix(err, "migration to schema %d: ", v + 1);
            return false;
        }
        if (!exec(s, "COMMIT", err))
            return false;
    }
    return true;
}

/* SQLite says only "unable to open database file" when the file or its
 * directory cannot be written (it needs both for the WAL): name the cause. */
static void explain_unwritable(const char *path, pips_error *err)
{
    if (!err || !strcmp(path, ":memory:"))
        return;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *(slash == dir ? slash + 1 : slash) = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    const char *what = NULL;
    int e = 0;
    if (access(path, F_OK) == 0 && access(path, W_OK) != 0) {
        what = "the file";
        e = errno;
    } else if (access(dir, W_OK) != 0) {
        what = "its directory";
        e = errno;
    }
    if (what) {
        size_t len = strlen(err->msg);
        snprintf(err->msg + len, sizeof err->msg - len, " (%s is not writable: %s)", what,
                 strerror(e));
    }
}

bool store_open(pips_server *s, pips_error *err)
{
    const char *path = s->cfg.db_path ? s->cfg.db_path : ":memory:";
    /* a device or a directory: SQLite would try it and leave a journal
     * file beside it (as in /dev/null-journal) */
    struct stat st;
    if (strcmp(path, ":memory:") != 0 && stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return pips_fail(err, PIPS_ERR_IO, "database '%s': not a regular file", path);
    if (sqlite3_open_v2(path, &s->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        NULL) != SQLITE_OK) {
        pips_fail(err, PIPS_ERR_IO, "database '%s': %s", path,
                  s->db ? sqlite3_errmsg(s->db) : "cannot open");
        explain_unwritable(path, err);
        sqlite3_close(s->db);
        s->db = NULL;
        return false;
    }
    sqlite3_busy_timeout(s->db, 5000);
    const char *sync = s->cfg.sync_full ? "PRAGMA synchronous=FULL;" : "PRAGMA synchronous=NORMAL;";
    if (!exec(s, "PRAGMA journal_mode=WAL;", err) || !exec(s, sync, err) ||
        !exec(s, "PRAGMA foreign_keys=ON;", err) || !migrate(s, err)) {
        pips_error_prefix(err, "'%s': ", path);
        explain_unwritable(path, err);
        store_close(s);
        return false;
    }
    return true;
}

void store_close(pips_server *s)
{
    if (s->db)
        sqlite3_close(s->db);
    s->db = NULL;
}

static char *options_json(const pips_game *g)
{
    json_t *o = play_options_to_json(g);
    char *t = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    return t;
}

static char *seats_json(const srv_game *g, bool tokens)
{
    json_t *a = json_array();
    for (int i = 0; i < g->m->n_seats; i++)
        json_array_append_new(a, tokens ? (g->tokens[i][0] ? json_string(g->tokens[i]) : json_null())
                                        : json_string(g->m->seats[i]));
    char *t = json_dumps(a, JSON_COMPACT);
    json_decref(a);
    return t;
}

/* ---- write jobs: snapshots taken under s->mu, written by the writer ---- */

enum job_kind { JOB_INSERT, JOB_APPEND, JOB_TRUNCATE, JOB_UPDATE };

struct store_job {
    enum job_kind kind;
    long long id;
    size_t from;  /* first ply written (append, insert) or kept count (truncate) */
    size_t n_texts;
    char (*texts)[PIPS_MOVE_TEXT_MAX];
    long long *ms; /* time spent on each text */
    char *clock;   /* games.clock */
    unsigned resigned; /* bit mask of seats */
    char updated[PIPS_TIME_MAX], finished[PIPS_TIME_MAX], created[PIPS_TIME_MAX];
    char *game, *options, *seats, *tokens; /* insert only */
    long long seed;
    bool done, ok;
    pips_error err;
    store_job *next;
};

static store_job *job_new(enum job_kind kind, const srv_game *g, size_t from)
{
    store_job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->kind = kind;
    j->id = g->id;
    j->resigned = pips_table_resigned(g->t);
    memcpy(j->updated, g->updated, sizeof j->updated);
    memcpy(j->finished, g->m->finished, sizeof j->finished);
    j->from = kind == JOB_TRUNCATE ? g->m->n_moves : from;
    json_t *clock = srv_clock_json(g, true, srv_now_ms());
    j->clock = clock ? json_dumps(clock, JSON_COMPACT) : strdup("");
    json_decref(clock);
    if (!j->clock) {
        free(j);
        return NULL;
    }
    if (kind == JOB_APPEND || kind == JOB_INSERT) {
        j->n_texts = g->m->n_moves > from ? g->m->n_moves - from : 0;
        j->texts = calloc(j->n_texts ? j->n_texts : 1, sizeof *j->texts);
        j->ms = calloc(j->n_texts ? j->n_texts : 1, sizeof *j->ms);
        if (!j->texts || !j->ms) {
            free(j->texts);
            free(j->ms);
            free(j->clock);
            free(j);
            return NULL;
        }
        for (size_t i = 0; i < j->n_texts; i++) {
            pips_match_move_text(g->m, from + i, j->texts[i]);
            j->ms[i] = from + i < g->move_ms_cap ? g->move_ms[from + i] : 0;
        }
    }
    return j;
}

static void job_free(store_job *j)
{
    if (!j)
        return;
    free(j->texts);
    free(j->ms);
    free(j->clock);
    free(j->game);
    free(j->options);
    free(j->seats);
    free(j->tokens);
    free(j);
}

store_job *store_job_insert(const srv_game *g)
{
    store_job *j = job_new(JOB_INSERT, g, 0);
    if (!j)
        return NULL;
    j->game = strdup(g->m->game->def->name);
    j->options = options_json(g->m->game);
    j->seats = seats_json(g, false);
    j->tokens = seats_json(g, true);
    j->seed = (long long)(g->m->seed & INT64_MAX);
    memcpy(j->created, g->created, sizeof j->created);
    if (!j->game || !j->options || !j->seats || !j->tokens) {
        job_free(j);
        return NULL;
    }
    return j;
}

store_job *store_job_append(const srv_game *g, size_t from) { return job_new(JOB_APPEND, g, from); }
store_job *store_job_truncate(const srv_game *g) { return job_new(JOB_TRUNCATE, g, 0); }
store_job *store_job_update(const srv_game *g) { return job_new(JOB_UPDATE, g, 0); }

static bool step_done(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc == SQLITE_DONE;
}

/* The old single-seat column keeps the first resigned seat (or NULL), so
 * a database stays readable by a server from before schema 2. */
static void bind_first_resigned(sqlite3_stmt *st, int col, unsigned mask)
{
    if (mask)
        sqlite3_bind_int(st, col, __builtin_ctz(mask));
    else
        sqlite3_bind_null(st, col);
}

static bool run_job(pips_server *s, store_job *j)
{
    sqlite3 *db = s->db;
    sqlite3_stmt *st = NULL;
    bool ok = true;
    if (j->kind == JOB_INSERT) {
        ok = sqlite3_prepare_v2(db,
                                "INSERT INTO games(game, options, seats, tokens, seed, resigned, "
                                "created, updated, finished, resigned_seats, clock) "
                                "VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11)",
                                -1, &st, NULL) == SQLITE_OK;
        if (ok) {
            sqlite3_bind_text(st, 1, j->game, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 2, j->options, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 3, j->seats, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 4, j->tokens, -1, SQLITE_STATIC);
            sqlite3_bind_int64(st, 5, j->seed);
            bind_first_resigned(st, 6, j->resigned);
            sqlite3_bind_int64(st, 10, j->resigned);
            sqlite3_bind_text(st, 7, j->created, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 8, j->updated, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 9, j->finished, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 11, j->clock, -1, SQLITE_STATIC);
            ok = step_done(st);
            j->id = sqlite3_last_insert_rowid(db);
        }
        sqlite3_finalize(st);
        st = NULL;
    } else if (j->kind == JOB_TRUNCATE) {
        ok = sqlite3_prepare_v2(db, "DELETE FROM moves WHERE game_id=?1 AND ply>=?2", -1, &st,
                                NULL) == SQLITE_OK;
        if (ok) {
            sqlite3_bind_int64(st, 1, j->id);
            sqlite3_bind_int64(st, 2, (sqlite3_int64)j->from);
            ok = step_done(st);
        }
        sqlite3_finalize(st);
        st = NULL;
    }
    if (ok && j->n_texts) {
        ok = sqlite3_prepare_v2(db, "INSERT INTO moves(game_id, ply, text, ms) VALUES (?1, ?2, ?3, ?4)",
                                -1, &st, NULL) == SQLITE_OK;
        for (size_t i = 0; ok && i < j->n_texts; i++) {
            sqlite3_bind_int64(st, 1, j->id);
            sqlite3_bind_int64(st, 2, (sqlite3_int64)(j->from + i));
            sqlite3_bind_text(st, 3, j->texts[i], -1, SQLITE_STATIC);
            sqlite3_bind_int64(st, 4, j->ms[i]);
            ok = step_done(st);
        }
        sqlite3_finalize(st);
        st = NULL;
    }
    if (ok && j->kind != JOB_INSERT) {
        ok = sqlite3_prepare_v2(db, "UPDATE games SET resigned=?1, updated=?2, finished=?3, "
                                    "resigned_seats=?5, clock=?6 WHERE id=?4", -1, &st, NULL) == SQLITE_OK;
        if (ok) {
            bind_first_resigned(st, 1, j->resigned);
            sqlite3_bind_int64(st, 5, j->resigned);
            sqlite3_bind_text(st, 2, j->updated, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 3, j->finished, -1, SQLITE_STATIC);
            sqlite3_bind_int64(st, 4, j->id);
            sqlite3_bind_text(st, 6, j->clock, -1, SQLITE_STATIC);
            ok = step_done(st);
        }
        sqlite3_finalize(st);
    }
    if (!ok)
        db_fail(s, &j->err, j->kind == JOB_INSERT ? "storing a game" : "storing a change");
    return ok;
}

/* Group commit: every job queued while the previous batch was being written
 * goes into one transaction (one fsync); each job has its own savepoint, so
 * a failing job is rolled back alone. */
static void *writer_main(void *arg)
{
    pips_server *s = arg;
    pthread_mutex_lock(&s->wq_mu);
    for (;;) {
        while (!s->wq_head && !s->wq_stop)
            pthread_cond_wait(&s->wq_cond, &s->wq_mu);
        if (!s->wq_head)
            break;
        store_job *batch = s->wq_head;
        s->wq_head = s->wq_tail = NULL;
        pthread_mutex_unlock(&s->wq_mu);

        pips_error err;
        bool began = exec(s, "BEGIN IMMEDIATE", &err);
        for (store_job *j = batch; j; j = j->next) {
            if (!began) {
                j->err = err;
                continue;
            }
            exec(s, "SAVEPOINT job", NULL);
            j->ok = run_job(s, j);
            if (!j->ok)
                exec(s, "ROLLBACK TO job", NULL);
            exec(s, "RELEASE job", NULL);
        }
        if (began && !exec(s, "COMMIT", &err)) {
            exec(s, "ROLLBACK", NULL);
            for (store_job *j = batch; j; j = j->next)
                if (j->ok) {
                    j->ok = false;
                    j->err = err;
                }
        }
        pthread_mutex_lock(&s->wq_mu);
        for (store_job *j = batch; j; j = j->next)
            j->done = true;
        pthread_cond_broadcast(&s->wq_done);
    }
    pthread_mutex_unlock(&s->wq_mu);
    return NULL;
}

bool store_start_writer(pips_server *s, pips_error *err)
{
    if (pthread_create(&s->writer, NULL, writer_main, s) != 0)
        return pips_fail(err, PIPS_ERR_IO, "cannot start the database writer");
    s->writer_running = true;
    return true;
}

void store_stop_writer(pips_server *s)
{
    if (!s->writer_running)
        return;
    pthread_mutex_lock(&s->wq_mu);
    s->wq_stop = true;
    pthread_cond_broadcast(&s->wq_cond);
    pthread_mutex_unlock(&s->wq_mu);
    pthread_join(s->writer, NULL);
    s->writer_running = false;
}

bool store_run(pips_server *s, store_job *job, long long *id, pips_error *err)
{
    if (!job)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory for a database write");
    pthread_mutex_lock(&s->wq_mu);
    if (s->wq_stop || !s->writer_running) {
        pthread_mutex_unlock(&s->wq_mu);
        job_free(job);
        return pips_fail(err, PIPS_ERR_IO, "the server is stopping");
    }
    job->next = NULL;
    if (s->wq_tail)
        s->wq_tail->next = job;
    else
        s->wq_head = job;
    s->wq_tail = job;
    pthread_cond_signal(&s->wq_cond);
    while (!job->done)
        pthread_cond_wait(&s->wq_done, &s->wq_mu);
    pthread_mutex_unlock(&s->wq_mu);
    bool ok = job->ok;
    if (ok && id)
        *id = job->id;
    if (!ok && err)
        *err = job->err;
    job_free(job);
    return ok;
}

/* Reads one games row and its moves into *row (texts in *texts, owned by
 * the caller: free each and the array); false with *err when unreadable. */
static bool read_row(sqlite3_stmt *rows, sqlite3_stmt *moves, store_row *row, json_t **json,
                     char ***texts, long long **ms, pips_error *err)
{
    json_error_t je;
    row->id = sqlite3_column_int64(rows, 0);
    row->game = (const char *)sqlite3_column_text(rows, 1);
    for (int k = 0; k < 3; k++)
        json[k] = json_loads((const char *)sqlite3_column_text(rows, 2 + k), 0, &je);
    row->options = json[0];
    row->seats = json[1];
    row->tokens = json[2];
    if (!row->game || !json_is_object(json[0]) || !json_is_array(json[1]) ||
        !json_is_array(json[2]))
        return pips_fail(err, PIPS_ERR_IO, "game %lld: unreadable row", row->id);
    row->seed = (uint64_t)sqlite3_column_int64(rows, 5);
    row->resigned = (unsigned)sqlite3_column_int64(rows, 6);
    row->created = (const char *)sqlite3_column_text(rows, 7);
    row->updated = (const char *)sqlite3_column_text(rows, 8);
    row->finished = (const char *)sqlite3_column_text(rows, 9);
    const char *clock = (const char *)sqlite3_column_text(rows, 10);
    row->clock = NULL;
    if (clock && *clock) {
        json[3] = json_loads(clock, 0, &je);
        if (!json_is_object(json[3]))
            return pips_fail(err, PIPS_ERR_IO, "game %lld: unreadable clock", row->id);
        row->clock = json[3];
    }
    size_t cap = 0;
    row->n_moves = 0;
    sqlite3_bind_int64(moves, 1, row->id);
    int rc;
    bool ok = true;
    while (ok && (rc = sqlite3_step(moves)) == SQLITE_ROW) {
        if (row->n_moves == cap) {
            cap = cap ? cap * 2 : 64;
            char **t = realloc(*texts, cap * sizeof *t);
            if (t)
                *texts = t;
            long long *m = t ? realloc(*ms, cap * sizeof *m) : NULL;
            if (!m) {
                ok = pips_fail(err, PIPS_ERR_NOMEM, "game %lld: out of memory", row->id);
                break;
            }
            *ms = m;
        }
        (*ms)[row->n_moves] = sqlite3_column_int64(moves, 1);
        const char *text = (const char *)sqlite3_column_text(moves, 0);
        if (!((*texts)[row->n_moves] = strdup(text ? text : "")))
            ok = pips_fail(err, PIPS_ERR_NOMEM, "game %lld: out of memory", row->id);
        else
            row->n_moves++;
    }
    /* a read error (corrupt page, I/O) must not pass for the end of the
     * moves: the game would be served with its last moves missing */
    if (ok && rc != SQLITE_DONE)
        ok = pips_fail(err, PIPS_ERR_IO, "game %lld: reading move %zu: %s", row->id,
                       row->n_moves + 1, sqlite3_errstr(rc));
    sqlite3_reset(moves);
    row->moves = (const char *const *)*texts;
    row->move_ms = *ms;
    return ok;
}

bool store_scan(pips_server *s, bool (*add)(pips_server *, const store_row *, bool *stop,
                                            pips_error *),
                size_t *unreadable, pips_error *err)
{
    sqlite3_stmt *rows, *moves;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT id, game, options, seats, tokens, seed, resigned_seats, "
                           "created, updated, finished, clock FROM games ORDER BY id",
                           -1, &rows, NULL) != SQLITE_OK)
        return db_fail(s, err, "reading games");
    if (sqlite3_prepare_v2(s->db, "SELECT text, ms FROM moves WHERE game_id=?1 ORDER BY ply", -1,
                           &moves, NULL) != SQLITE_OK) {
        sqlite3_finalize(rows);
        return db_fail(s, err, "reading moves");
    }
    bool ok = true;
    int rc = SQLITE_DONE;
    size_t seen = 0;
    while (ok && (rc = sqlite3_step(rows)) == SQLITE_ROW) {
        store_row row;
        json_t *json[4] = {NULL, NULL, NULL, NULL};
        char **texts = NULL;
        long long *ms = NULL;
        pips_error gerr;
        bool stop = false;
        if (!read_row(rows, moves, &row, json, &texts, &ms, &gerr) || !add(s, &row, &stop, &gerr)) {
            if (stop) {
                *err = gerr;
                ok = false;
            } else {
                ++*unreadable;
            }
        }
        seen++;
        for (size_t i = 0; texts && i < row.n_moves; i++)
            free(texts[i]);
        free(texts);
        free(ms);
        for (int k = 0; k < 4; k++)
            json_decref(json[k]);
    }
    /* the table of games cannot be read to its end: refuse to start rather
     * than serve some games and silently drop the others */
    if (ok && rc != SQLITE_DONE)
        ok = pips_fail(err, PIPS_ERR_IO,
                       "database: reading the games (after %zu): %s; check it with "
                       "sqlite3 (PRAGMA integrity_check, .recover)",
                       seen, sqlite3_errstr(rc));
    sqlite3_finalize(rows);
    sqlite3_finalize(moves);
    return ok;
}
