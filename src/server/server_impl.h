/*
 * server_impl.h — the server's private parts shared by its files: the game
 * table, the SQLite store, the agent workers and the HTTP adapter.
 *
 * Invariants: s->mu guards every field of the server and of its games
 * except an agent's own search, which runs unlocked on a copy of the state;
 * a game's version grows by one on every change clients can see, and a
 * worker's move is discarded when the version moved on while it thought.
 */
#ifndef PIPS_SERVER_IMPL_H
#define PIPS_SERVER_IMPL_H

#include <jansson.h>
#include <pthread.h>
#include <sqlite3.h>

#include "pips/agent.h"
#include "pips/match.h"
#include "pips/table.h"
#include "pips/server.h"

/* ---- scripts.c: the Lua files of --rules-dir (docs/lua.md) ---- */
struct srv_scripts;
bool srv_scripts_load(pips_server *s, const char *dir, pips_error *err);
void srv_scripts_free(pips_server *s);
/* The folder's Lua game whose id is name, or NULL. */
const pips_game_def *srv_scripts_game(const pips_server *s, const char *name);
/* options with "rules": FILE mapped to the folder's script (a new reference),
 * or NULL with *err when FILE is not one of its rule scripts. */
json_t *srv_scripts_options(const pips_server *s, const json_t *options, pips_error *err);
/* Adds the folder's Lua games' and scripts' entries to GET /api/rules. */
void srv_scripts_rules_json(const pips_server *s, json_t *games, json_t *root);
size_t srv_scripts_games(const pips_server *s, const pips_game_def **out, size_t cap);

#define SRV_TOKEN_LEN 32 /* hex characters: 128 bits */

/* A game's clocks (issue 27). remaining_ms is each seat's time at
 * turn_start (wall-clock ms); the running seat's clock has been going since.
 * The server charges the time between moves, adds the increment after each
 * move and makes the seat whose time runs out lose (2 seats) or drop out
 * (3+, as a resigning seat) by itself. */
typedef struct srv_clock {
    bool on;
    long long initial_ms, increment_ms;
    long long remaining_ms[PIPS_MAX_PLAYERS];
    int running; /* the seat whose clock runs, -1 for none */
    long long turn_start;
    unsigned flagged; /* seats that ran out of time */
} srv_clock;

typedef struct srv_game {
    long long id;
    pips_table *t;  /* the match and its agents (pips/table.h) */
    pips_match *m;  /* t's match, for reading */
    char tokens[PIPS_MAX_PLAYERS][SRV_TOKEN_LEN + 1]; /* "" for agent seats */
    /* a take-back request (issue 27): undo_by asks to return to ply
     * undo_to (just before its last move); undo_agreed holds the seats that
     * said yes (the asker included). undo_by < 0: none. Any move clears it. */
    int undo_by;
    size_t undo_to;
    unsigned undo_agreed;
    srv_clock clock;
    long long *move_ms; /* time spent on each move (ms; 0 for chance), n_moves of them */
    size_t move_ms_cap;
    unsigned long long version;
    bool thinking, queued;
    bool writing; /* a change is being committed: other changes wait */
    char ai_error[PIPS_ERROR_MAX + PIPS_SEAT_MAX + 32]; /* the last agent failure, "" if none */
    char created[PIPS_TIME_MAX], updated[PIPS_TIME_MAX];
    /* the current view as last sent to event streams, for view_version:
     * every stream of the game shares it instead of building its own */
    char *view;
    unsigned long long view_version;
} srv_game;

struct pips_server {
    pips_server_config cfg;
    char web_root[1024];
    sqlite3 *db;
    pthread_mutex_t mu;
    pthread_cond_t changed; /* broadcast on every game change and at stop */
    pthread_cond_t work;    /* agent queue */
    srv_game **games;       /* sorted by id */
    size_t n_games, cap_games;
    long long *queue; /* game ids waiting for an agent move (FIFO) */
    size_t q_head, q_len, q_cap;
    pthread_t workers[16];
    int n_workers, busy;
    bool stopping;
    bool http_closing; /* SSE streams end */
    size_t broken;
    /* the database writer thread and its queue (guarded by wq_mu) */
    pthread_t writer;
    bool writer_running, wq_stop;
    pthread_mutex_t wq_mu;
    pthread_cond_t wq_cond, wq_done;
    struct store_job *wq_head, *wq_tail;
    size_t pending_inserts; /* games being stored, counted against max_games */
    struct MHD_Daemon *mhd;
    int port;
    /* set by the listener (http.c) when it starts, so the life cycle here
     * stops it without calling into the file that calls into it */
    void (*stop_listener)(pips_server *s);
    /* set by the listener: called under mu on every change of game id, to
     * wake the event streams suspended on it */
    void (*notify_change)(pips_server *s, long long id);
    struct srv_stream *streams; /* the listener's suspended event streams (under mu) */
    pthread_t keepalive;        /* the listener's keep-alive timer */
    /* every game's version starts here: the start time in ms x 1000, so
     * versions keep growing across restarts and open pages never see one
     * go back */
    unsigned long long version_base;
    struct srv_cache *cache; /* cache.c */
    struct srv_pool *pool;   /* pool.c: admission and the request workers */
    struct srv_ckpt *ckpt;   /* checkpoint.c: the WAL checkpoint thread */
    pthread_t clock_thread; /* makes flags fall (server.c) */
    bool clock_running;
    pthread_cond_t clock_wake;
    struct srv_scripts *scripts; /* --rules-dir (scripts.c); NULL without one */
};

/* ---- store.c: rows in and out of SQLite; knows nothing of live games ---- */
bool store_open(pips_server *s, pips_error *err);
void store_close(pips_server *s);

/* One stored game, as read back: the server builds the live game from it. */
typedef struct store_row {
    long long id;
    const char *game;     /* name */
    const json_t *options, *seats, *tokens; /* object, array, array */
    uint64_t seed;
    unsigned resigned;    /* resigned seats, a bit mask */
    const char *created, *updated, *finished;
    size_t n_moves;
    const char *const *moves; /* move texts as played */
    const long long *move_ms; /* time spent on each (ms) */
    const json_t *clock;      /* the clock settings and flags, NULL when none */
} store_row;
/* Calls add for every stored game in id order. A row that cannot be read is
 * counted in *unreadable; a failing add counts in *unreadable too unless it
 * returns false with *stop set, which ends the scan with its error. */
bool store_scan(pips_server *s, bool (*add)(pips_server *, const store_row *, bool *stop,
                                            pips_error *),
                size_t *unreadable, pips_error *err);

/* Write jobs: built under s->mu from a game (a snapshot of what to write),
 * then run with store_run WITHOUT s->mu held; store_run waits until the job
 * is committed (group commit with concurrent jobs) and frees it. A NULL job
 * (out of memory) fails. On an insert, *id receives the new game id. */
typedef struct store_job store_job;
store_job *store_job_insert(const srv_game *g);
store_job *store_job_append(const srv_game *g, size_t from); /* moves [from, n) + row */
store_job *store_job_truncate(const srv_game *g);            /* moves >= n dropped + row */
store_job *store_job_update(const srv_game *g);              /* row only */
bool store_run(pips_server *s, store_job *job, long long *id, pips_error *err);
bool store_start_writer(pips_server *s, pips_error *err);
void store_stop_writer(pips_server *s);

/* ---- server.c: the table of live games, their changes, agents, views ---- */
srv_game *srv_find(pips_server *s, long long id);
/* A live game over match m (owned on success) with its seats' agents built
 * within the server's limits. */
srv_game *srv_game_new(pips_server *s, pips_match *m, pips_error *err);
bool srv_add(pips_server *s, srv_game *g, pips_error *err);
void srv_game_free(srv_game *g);
/* Loads every stored game into the table (at start). */
bool srv_load_games(pips_server *s, pips_error *err);
/* Waits (releasing s->mu) until no change of g is being committed. */
void srv_wait_writable(pips_server *s, srv_game *g);
/* Runs a write job with s->mu released; g (may be NULL) is marked as
 * writing meanwhile so other changes to it wait. */
bool srv_commit(pips_server *s, srv_game *g, store_job *job, long long *id, pips_error *err);
/* The one way a move reaches a game, from a person or an agent: plays it
 * (with the chance that falls due), commits it, and takes it all back if
 * the commit fails. */
bool srv_play(pips_server *s, srv_game *g, pips_move mv, pips_error *err);
/* Marks a change: version++, wake waiters, queue an agent move if due. */
void srv_touch(pips_server *s, srv_game *g);
/* Whether perfect-play hints (GET /api/games/{id}/hints) can apply to game:
 * two players, no chance, moves that can be listed or a game's own solver. */
bool srv_hints_apply(const pips_game *game);
/* A JSON string of text; bytes of text that are not UTF-8 become '?'. */
json_t *srv_json_text(const char *text);
/* Wall-clock milliseconds (clocks and their as_of). */
long long srv_now_ms(void);
/* Makes room for n moves' times; false when out of memory. */
bool srv_move_ms_reserve(srv_game *g, size_t n);
/* Recomputes the clocks from the moves' times (after a load or a take-back);
 * the seat to move has already spent turn_ms of its turn. */
void srv_clock_rebuild(srv_game *g, long long turn_ms);
/* The seat whose clock runs now (the seat to move, if it has a clock and is
 * still in), or -1. */
int srv_clock_seat(const srv_game *g);
/* Seats played by people who are still in the game, as a bit mask. */
unsigned srv_human_seats(const srv_game *g);
/* A seat's remaining time now (ms; may be <= 0 when its flag is due). */
long long srv_clock_left(const srv_game *g, int seat, long long now);
/* Flags the seat to move if its time is out: under s->mu, not while it
 * is being written; true when the game changed. */
bool srv_clock_check(pips_server *s, srv_game *g, long long now, pips_error *err);
/* The result text, with "loses on time" for seats whose flag fell. */
void srv_result_text(const srv_game *g, pips_str *out);
/* The clock settings and flags as a JSON object (store and record), NULL when off. */
json_t *srv_clock_json(const srv_game *g, bool with_turn, long long now);
/* Reads clock settings {"initial", "increment"} in seconds into g (400s name the field). */
bool srv_clock_parse(srv_game *g, const json_t *clock, pips_error *err);
/* The game's JSON view; ply < 0 for the current position. */
char *srv_game_json(pips_server *s, srv_game *g, long ply);
void srv_random_token(char *out);
uint64_t srv_random_u64(void);

/* ---- cache.c: answers that never change while the server runs ---- */
#define SRV_ETAG_MAX ((int)sizeof(((pips_http_response *)0)->etag))
bool srv_cache_init(pips_server *s);
void srv_cache_free(pips_server *s);
/* Answers from the entry under key (200 with a copy, or 304 when
 * if_none_match names its ETag); false when there is none. */
bool srv_cache_reply(pips_server *s, const char *key, const char *if_none_match,
                     pips_http_response *res);
/* Keeps o (consumed) under key, unless the table is full, and answers with it. */
void srv_cache_store(pips_server *s, const char *key, json_t *o, const char *if_none_match,
                     pips_http_response *res);
void srv_cache_counts(pips_server *s, unsigned long long *hits, unsigned long long *misses,
                      size_t *entries);

/* ---- pool.c: request kinds, their limits and the request workers ---- */
typedef enum srv_kind {
    SRV_LIGHT,    /* reads and cached answers: on the listener's thread */
    SRV_WRITE,    /* a change that waits for its commit: the write lane */
    SRV_HINTS,    /* heavy, each kind with its own limit: the heavy lane */
    SRV_UPLOADS,
    SRV_LISTINGS,
    SRV_KINDS
} srv_kind;
srv_kind srv_request_kind(pips_server *s, const pips_http_request *req);
bool srv_kind_heavy(srv_kind kind);
/* Admits a request of this kind from client (NULL: not counted per
 * client). False when refused: res then holds the 503 or 429 with its
 * Retry-After. An admitted request is released with srv_release. */
bool srv_admit(pips_server *s, srv_kind kind, const char *client, pips_http_response *res);
void srv_release(pips_server *s, srv_kind kind, const char *client);
bool srv_pool_start(pips_server *s, pips_error *err);
void srv_pool_stop(pips_server *s);
/* Runs run(arg) on a worker of the kind's lane; false when it cannot be queued. */
bool srv_pool_submit(pips_server *s, srv_kind kind, void (*run)(void *), void *arg);
/* Lowers the calling thread's CPU priority by SRV_BACKGROUND_NICE: heavy
 * requests and agents' searches yield the CPU to moves. */
#define SRV_BACKGROUND_NICE 5
void srv_lower_thread_priority(void);
/* Waits until every submitted task has finished (the listener stopping). */
void srv_pool_drain(pips_server *s);
void srv_pool_counts(pips_server *s, unsigned long long *busy, unsigned long long *client,
                     int *heavy);

/* ---- api.c ---- */
/* pips_server_handle without admission: the listener admitted the request. */
void srv_handle_admitted(pips_server *s, const pips_http_request *req, pips_http_response *res);

/* ---- checkpoint.c: WAL checkpoints on their own thread and connection ---- */
/* Starts the checkpoint thread for a database file (none for :memory:) and
 * turns the writer connection's automatic checkpoints off. */
bool srv_ckpt_start(pips_server *s, const char *path, pips_error *err);
void srv_ckpt_stop(pips_server *s);
/* Called by the writer after each commit with the WAL's size in pages. */
void srv_ckpt_note_commit(pips_server *s, int wal_pages);
unsigned long long srv_ckpt_count(pips_server *s);
/* For tests: called on the checkpoint thread inside every sync of the
 * checkpoint connection (so a test can hold a checkpoint half-way). */
void srv_ckpt_set_sync_hook(pips_server *s, void (*hook)(void *ud), void *ud);
/* For tests: asks for a checkpoint now (PASSIVE). */
void srv_ckpt_request(pips_server *s);

/* ---- static.c ---- */
/* GET of a web UI file: gzip, ETag, content-hashed URLs (no lock taken). */
void srv_serve_static(pips_server *s, const pips_http_request *req, pips_http_response *res);

/* ---- http.c ---- */
/* Layers: http.c -> api.c -> server.c -> store.c, never back. */

#endif
