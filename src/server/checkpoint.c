/*
 * checkpoint.c — WAL checkpoints off the move path. The writer connection's
 * automatic checkpoints are off (its WAL hook only reports the log's size
 * here); a thread with its own connection copies the log back into the
 * database: PASSIVE once the log passes CKPT_PAGES (writers go on appending
 * meanwhile; the fsyncs happen on this thread), and TRUNCATE once the server
 * has been idle for CKPT_IDLE_SECONDS (it would make a writer wait, so only
 * when there is none, and without waiting for locks itself).
 *
 * Durability is unchanged: commits keep the writer's synchronous setting
 * (--sync), and the checkpoint connection syncs as the writer would have.
 *
 * The checkpoint connection opens the file through a thin VFS over the
 * default one whose only difference is a test hook in xSync, so a test can
 * hold a checkpoint in the middle of its fsync and see a move complete.
 * Invariants: one checkpoint connection per server, used only by the
 * checkpoint thread; mu guards the fields below except db and vfs.
 */
#include "server/server_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CKPT_PAGES 1000         /* as SQLite's automatic checkpoint */
#define CKPT_IDLE_SECONDS 1.0   /* no commit for this long: truncate the log */
#define CKPT_POLL_MS 250

struct srv_ckpt {
    pips_server *s;
    sqlite3 *db;
    sqlite3_vfs vfs;
    const sqlite3_vfs *real;
    char vfs_name[48];
    bool vfs_registered;
    pthread_t thread;
    bool running;
    pthread_mutex_t mu;
    pthread_cond_t cond;
    bool stop, requested;
    int wal_pages;        /* the log's size at the last commit */
    double last_commit;   /* pips_now() of that commit */
    bool truncated;       /* nothing committed since the last TRUNCATE */
    unsigned long long count;
    void (*hook)(void *ud);
    void *hook_ud;
};

/* ---- the VFS shim: the default VFS, with a hook in every file's xSync ---- */

/* Behind the real file's bytes: what xSync needs to find its way back. */
typedef struct shim_tail {
    struct srv_ckpt *ck;
    const sqlite3_io_methods *real_methods;
    sqlite3_io_methods methods; /* the real ones with xSync replaced */
} shim_tail;

static shim_tail *tail_of(sqlite3_file *f, const sqlite3_vfs *real)
{
    size_t off = ((size_t)real->szOsFile + _Alignof(shim_tail) - 1) / _Alignof(shim_tail) *
                 _Alignof(shim_tail);
    return (shim_tail *)((char *)f + off);
}

static int shim_sync(sqlite3_file *f, int flags)
{
    /* the real file's methods were replaced by ours: find the tail through
     * the vfs pointer every shim file carries in its methods' neighbour */
    shim_tail *t = (shim_tail *)((char *)f->pMethods - offsetof(shim_tail, methods));
    struct srv_ckpt *ck = t->ck;
    pthread_mutex_lock(&ck->mu);
    void (*hook)(void *) = ck->hook;
    void *ud = ck->hook_ud;
    pthread_mutex_unlock(&ck->mu);
    if (hook)
        hook(ud);
    return t->real_methods->xSync(f, flags);
}

static int shim_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags,
                     int *out_flags)
{
    struct srv_ckpt *ck = vfs->pAppData;
    sqlite3_vfs *real = (sqlite3_vfs *)ck->real;
    int rc = real->xOpen(real, name, f, flags, out_flags);
    if (rc != SQLITE_OK || !f->pMethods)
        return rc;
    shim_tail *t = tail_of(f, real);
    t->ck = ck;
    t->real_methods = f->pMethods;
    t->methods = *f->pMethods;
    t->methods.xSync = shim_sync;
    f->pMethods = &t->methods;
    return rc;
}

#define FORWARD(name, params, args)                                                            \
    static int shim_##name params                                                              \
    {                                                                                          \
        sqlite3_vfs *real = (sqlite3_vfs *)((struct srv_ckpt *)vfs->pAppData)->real;           \
        return real->x##name args;                                                             \
    }
FORWARD(Delete, (sqlite3_vfs * vfs, const char *n, int d), (real, n, d))
FORWARD(Access, (sqlite3_vfs * vfs, const char *n, int fl, int *out), (real, n, fl, out))
FORWARD(FullPathname, (sqlite3_vfs * vfs, const char *n, int size, char *out),
        (real, n, size, out))
FORWARD(Randomness, (sqlite3_vfs * vfs, int n, char *out), (real, n, out))
FORWARD(Sleep, (sqlite3_vfs * vfs, int us), (real, us))
FORWARD(CurrentTime, (sqlite3_vfs * vfs, double *out), (real, out))
FORWARD(GetLastError, (sqlite3_vfs * vfs, int n, char *out), (real, n, out))
FORWARD(CurrentTimeInt64, (sqlite3_vfs * vfs, sqlite3_int64 *out), (real, out))
#undef FORWARD

static void shim_init(struct srv_ckpt *ck)
{
    const sqlite3_vfs *real = sqlite3_vfs_find(NULL);
    ck->real = real;
    snprintf(ck->vfs_name, sizeof ck->vfs_name, "pips-ckpt-%p", (void *)ck);
    sqlite3_vfs *v = &ck->vfs;
    memset(v, 0, sizeof *v);
    v->iVersion = 2;
    size_t off = ((size_t)real->szOsFile + _Alignof(shim_tail) - 1) / _Alignof(shim_tail) *
                 _Alignof(shim_tail);
    v->szOsFile = (int)(off + sizeof(shim_tail));
    v->mxPathname = real->mxPathname;
    v->zName = ck->vfs_name;
    v->pAppData = ck;
    v->xOpen = shim_open;
    v->xDelete = shim_Delete;
    v->xAccess = shim_Access;
    v->xFullPathname = shim_FullPathname;
    v->xRandomness = shim_Randomness;
    v->xSleep = shim_Sleep;
    v->xCurrentTime = shim_CurrentTime;
    v->xGetLastError = shim_GetLastError;
    v->xCurrentTimeInt64 = real->iVersion >= 2 && real->xCurrentTimeInt64 ? shim_CurrentTimeInt64
                                                                          : NULL;
}

/* ---- the thread ---- */

/* The writer connection's WAL hook (on the writer thread, after a commit). */
static int on_wal_commit(void *arg, sqlite3 *db, const char *name, int pages)
{
    (void)db;
    (void)name;
    srv_ckpt_note_commit(arg, pages);
    return SQLITE_OK;
}

void srv_ckpt_note_commit(pips_server *s, int wal_pages)
{
    struct srv_ckpt *ck = s->ckpt;
    if (!ck)
        return;
    pthread_mutex_lock(&ck->mu);
    ck->wal_pages = wal_pages;
    ck->last_commit = pips_now();
    ck->truncated = false;
    if (wal_pages >= CKPT_PAGES)
        pthread_cond_signal(&ck->cond);
    pthread_mutex_unlock(&ck->mu);
}

static void *ckpt_main(void *arg)
{
    struct srv_ckpt *ck = arg;
    pthread_mutex_lock(&ck->mu);
    while (!ck->stop) {
        struct timespec dl;
        clock_gettime(CLOCK_MONOTONIC, &dl);
        dl.tv_nsec += CKPT_POLL_MS * 1000000L;
        if (dl.tv_nsec >= 1000000000L) {
            dl.tv_sec++;
            dl.tv_nsec -= 1000000000L;
        }
        if (!ck->requested && ck->wal_pages < CKPT_PAGES)
            pthread_cond_timedwait(&ck->cond, &ck->mu, &dl);
        if (ck->stop)
            break;
        bool passive = ck->requested || ck->wal_pages >= CKPT_PAGES;
        bool idle = !ck->truncated && pips_now() - ck->last_commit >= CKPT_IDLE_SECONDS;
        if (!passive && !idle)
            continue;
        ck->requested = false;
        if (passive)
            ck->wal_pages = 0; /* the next commit reports the log afresh */
        pthread_mutex_unlock(&ck->mu);
        int rc = sqlite3_wal_checkpoint_v2(ck->db, NULL,
                                           passive ? SQLITE_CHECKPOINT_PASSIVE
                                                   : SQLITE_CHECKPOINT_TRUNCATE,
                                           NULL, NULL);
        pthread_mutex_lock(&ck->mu);
        if (rc == SQLITE_OK) {
            ck->count++;
            if (!passive)
                ck->truncated = true;
        } else if (!passive) {
            ck->last_commit = pips_now(); /* busy: try again after another idle spell */
        }
        pthread_cond_broadcast(&ck->cond);
    }
    pthread_mutex_unlock(&ck->mu);
    return NULL;
}

bool srv_ckpt_start(pips_server *s, const char *path, pips_error *err)
{
    if (!path || !strcmp(path, ":memory:") || !path[0])
        return true; /* no log to checkpoint */
    struct srv_ckpt *ck = calloc(1, sizeof *ck);
    if (!ck)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory for the checkpoint thread");
    ck->s = s;
    pthread_mutex_init(&ck->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&ck->cond, &ca);
    pthread_condattr_destroy(&ca);
    ck->truncated = true;
    s->ckpt = ck;
    shim_init(ck);
    if (sqlite3_vfs_register(&ck->vfs, 0) != SQLITE_OK) {
        srv_ckpt_stop(s);
        return pips_fail(err, PIPS_ERR_IO, "database: cannot register the checkpoint VFS");
    }
    ck->vfs_registered = true;
    if (sqlite3_open_v2(path, &ck->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
                        ck->vfs_name) != SQLITE_OK) {
        pips_fail(err, PIPS_ERR_IO, "database '%s': checkpoint connection: %s", path,
                  ck->db ? sqlite3_errmsg(ck->db) : "cannot open");
        srv_ckpt_stop(s);
        return false;
    }
    /* never wait for a lock: a busy checkpoint is simply tried again */
    sqlite3_busy_timeout(ck->db, 0);
    const char *sync = s->cfg.sync_full ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL";
    if (sqlite3_exec(ck->db, sync, NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_exec(s->db, "PRAGMA wal_autocheckpoint=0", NULL, NULL, NULL) != SQLITE_OK) {
        pips_fail(err, PIPS_ERR_IO, "database '%s': %s", path, sqlite3_errmsg(ck->db));
        srv_ckpt_stop(s);
        return false;
    }
    /* replaces the automatic checkpoint: the writer only reports */
    sqlite3_wal_hook(s->db, on_wal_commit, s);
    if (pthread_create(&ck->thread, NULL, ckpt_main, ck) != 0) {
        srv_ckpt_stop(s);
        return pips_fail(err, PIPS_ERR_NOMEM, "cannot start the checkpoint thread");
    }
    ck->running = true;
    return true;
}

void srv_ckpt_stop(pips_server *s)
{
    struct srv_ckpt *ck = s->ckpt;
    if (!ck)
        return;
    if (ck->running) {
        pthread_mutex_lock(&ck->mu);
        ck->stop = true;
        pthread_cond_broadcast(&ck->cond);
        pthread_mutex_unlock(&ck->mu);
        pthread_join(ck->thread, NULL);
    }
    if (s->db)
        sqlite3_wal_hook(s->db, NULL, NULL);
    sqlite3_close(ck->db);
    if (ck->vfs_registered)
        sqlite3_vfs_unregister(&ck->vfs);
    pthread_cond_destroy(&ck->cond);
    pthread_mutex_destroy(&ck->mu);
    free(ck);
    s->ckpt = NULL;
}

unsigned long long srv_ckpt_count(pips_server *s)
{
    struct srv_ckpt *ck = s->ckpt;
    if (!ck)
        return 0;
    pthread_mutex_lock(&ck->mu);
    unsigned long long n = ck->count;
    pthread_mutex_unlock(&ck->mu);
    return n;
}

void srv_ckpt_set_sync_hook(pips_server *s, void (*hook)(void *ud), void *ud)
{
    struct srv_ckpt *ck = s->ckpt;
    if (!ck)
        return;
    pthread_mutex_lock(&ck->mu);
    ck->hook = hook;
    ck->hook_ud = ud;
    pthread_mutex_unlock(&ck->mu);
}

void srv_ckpt_request(pips_server *s)
{
    struct srv_ckpt *ck = s->ckpt;
    if (!ck)
        return;
    pthread_mutex_lock(&ck->mu);
    ck->requested = true;
    pthread_cond_signal(&ck->cond);
    pthread_mutex_unlock(&ck->mu);
}
