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
#include "pips/server.h"

#define SRV_TOKEN_LEN 32 /* hex characters: 128 bits */

typedef struct srv_game {
    long long id;
    pips_match *m;
    char tokens[PIPS_MAX_PLAYERS][SRV_TOKEN_LEN + 1]; /* "" for agent seats */
    pips_agent *agents[PIPS_MAX_PLAYERS];             /* NULL for human seats */
    int resigned;        /* seat that resigned, or -1 */
    unsigned undo_votes; /* human seats asking to take back, at n_moves */
    unsigned long long version;
    bool thinking, queued;
    bool writing; /* a change is being committed: other changes wait */
    char ai_error[PIPS_ERROR_MAX + PIPS_SEAT_MAX + 32]; /* the last agent failure, "" if none */
    char created[PIPS_TIME_MAX], updated[PIPS_TIME_MAX];
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
};

/* ---- store.c ---- */
bool store_open(pips_server *s, pips_error *err);
void store_close(pips_server *s);
/* Loads every stored game (replaying its moves) into the table. */
bool store_load_all(pips_server *s, pips_error *err);
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

/* ---- server.c ---- */
srv_game *srv_find(pips_server *s, long long id);
bool srv_add(pips_server *s, srv_game *g, pips_error *err);
void srv_game_free(srv_game *g);
/* Waits (releasing s->mu) until no change of g is being committed. */
void srv_wait_writable(pips_server *s, srv_game *g);
/* Runs a write job with s->mu released; g (may be NULL) is marked as
 * writing meanwhile so other changes to it wait. */
bool srv_commit(pips_server *s, srv_game *g, store_job *job, long long *id, pips_error *err);
/* Builds the agents of g's non-human seats. */
bool srv_make_agents(srv_game *g, pips_error *err);
/* Plays every due chance event with the match dice. */
bool srv_roll_chance(srv_game *g, pips_error *err);
/* Marks a change: version++, wake waiters, queue an agent move if due. */
void srv_touch(pips_server *s, srv_game *g);
bool srv_is_human(const char *seat);
/* A JSON string of text; bytes of text that are not UTF-8 become '?'. */
json_t *srv_json_text(const char *text);
/* The game's JSON view; ply < 0 for the current position. */
char *srv_game_json(pips_server *s, srv_game *g, long ply);
void srv_random_token(char *out);
uint64_t srv_random_u64(void);

/* ---- http.c ---- */
bool srv_http_start(pips_server *s, const char *bind_addr, int port, pips_error *err);
void srv_http_stop(pips_server *s);

#endif
