/*
 * pool.c — what a request costs and where it runs: request kinds, their
 * concurrency limits, per-client limits, and the request workers.
 *
 * Light requests (views, cached answers, static files) are answered on the
 * listener's thread. Everything else runs on a worker, so no listener thread
 * ever waits for a commit or a solve while other connections need it:
 *   - the write lane (moves, undo, resign, new games) never refuses: a move
 *     must not be starved; its workers mostly wait for the group commit;
 *   - the heavy lane (hints, record uploads, agent listings not yet cached)
 *     runs at most max_<kind> requests of each kind (past it: 503 with
 *     Retry-After) and at most per_client heavy requests per client address
 *     (past it: 429). An HTTP/1.1 connection carries one request at a time,
 *     so per connection the limit is one.
 * Invariants: every admitted request is released exactly once; the heavy
 * lane's queue never holds more than the sum of the kind limits; mu guards
 * everything here and is never held while a task runs.
 */
#define _DEFAULT_SOURCE 1 /* syscall(SYS_gettid): a thread's own nice value */
#include "server/server_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#define WRITE_WORKERS 4     /* mostly waiting for a commit, not computing */
#define MAX_CLIENTS 1024    /* addresses with a heavy request in flight */
#define CLIENT_TEXT_MAX 64  /* an IPv6 address with its zone fits */
#define RETRY_AFTER_BUSY 1  /* seconds: a hint takes about one */
#define RETRY_AFTER_CLIENT 2

typedef struct task {
    void (*run)(void *);
    void *arg;
    struct task *next;
} task;

typedef struct lane {
    task *head, *tail;
    pthread_cond_t cond;
    pthread_t threads[16];
    int n_threads;
} lane;

typedef struct client_count {
    char addr[CLIENT_TEXT_MAX];
    int n;
} client_count;

struct srv_pool {
    pthread_mutex_t mu;
    pthread_cond_t idle;
    int limit[SRV_KINDS];
    int in_flight[SRV_KINDS];
    int per_client;
    client_count clients[MAX_CLIENTS];
    size_t n_clients;
    lane lanes[2]; /* 0: writes, 1: heavy */
    int queued_or_running;
    bool stopping;
    unsigned long long refused_busy, refused_client;
};

/* ---- kinds ---- */

bool srv_kind_heavy(srv_kind kind)
{
    return kind == SRV_HINTS || kind == SRV_UPLOADS || kind == SRV_LISTINGS;
}

srv_kind srv_request_kind(pips_server *s, const pips_http_request *req)
{
    const char *m = req->method ? req->method : "", *p = req->path ? req->path : "/";
    bool get = !strcmp(m, "GET") || !strcmp(m, "HEAD"), post = !strcmp(m, "POST");
    if (strncmp(p, "/api/", 5) != 0)
        return SRV_LIGHT;
    const char *api = p + 5;
    if (get && !strcmp(api, "agents")) {
        /* a listing already computed is a copy: light */
        char key[2300];
        snprintf(key, sizeof key, "agents?%s", req->query ? req->query : "");
        pips_http_response probe;
        memset(&probe, 0, sizeof probe);
        bool hit = srv_cache_reply(s, key, NULL, &probe);
        pips_http_response_free(&probe);
        return hit ? SRV_LIGHT : SRV_LISTINGS;
    }
    if (post && !strcmp(api, "records"))
        return SRV_UPLOADS;
    if (!strncmp(api, "games/", 6)) {
        const char *slash = strchr(api + 6, '/');
        if (get && slash && !strcmp(slash, "/hints"))
            return SRV_HINTS;
    }
    if (post && (!strcmp(api, "games") || !strncmp(api, "games/", 6)))
        return SRV_WRITE;
    return SRV_LIGHT;
}

/* ---- admission ---- */

static client_count *client_slot(struct srv_pool *p, const char *addr, bool add)
{
    for (size_t i = 0; i < p->n_clients; i++)
        if (!strcmp(p->clients[i].addr, addr))
            return &p->clients[i];
    if (!add || p->n_clients == MAX_CLIENTS)
        return NULL;
    client_count *c = &p->clients[p->n_clients++];
    snprintf(c->addr, sizeof c->addr, "%s", addr);
    c->n = 0;
    return c;
}

static void refuse(pips_http_response *res, int status, int retry_after, const char *msg)
{
    res->status = status;
    res->retry_after = retry_after;
    snprintf(res->content_type, sizeof res->content_type, "application/json");
    char body[256];
    snprintf(body, sizeof body, "{\"error\":\"%s\"}", msg);
    free(res->body);
    res->body = strdup(body);
    res->body_len = res->body ? strlen(res->body) : 0;
}

bool srv_admit(pips_server *s, srv_kind kind, const char *client, pips_http_response *res)
{
    struct srv_pool *p = s->pool;
    if (!srv_kind_heavy(kind)) {
        pthread_mutex_lock(&p->mu);
        p->in_flight[kind]++;
        pthread_mutex_unlock(&p->mu);
        return true;
    }
    static const char *const names[SRV_KINDS] = {
        [SRV_HINTS] = "perfect-play hints", [SRV_UPLOADS] = "record uploads",
        [SRV_LISTINGS] = "agent listings"};
    char msg[160];
    pthread_mutex_lock(&p->mu);
    client_count *c = client ? client_slot(p, client, true) : NULL;
    bool busy = p->in_flight[kind] >= p->limit[kind];
    /* a full client table counts every new address as one busy client */
    bool crowded = client && (!c || c->n >= p->per_client);
    if (busy) {
        p->refused_busy++;
    } else if (crowded) {
        p->refused_client++;
    } else {
        p->in_flight[kind]++;
        if (c)
            c->n++;
    }
    if (c && c->n == 0) /* added just now and refused */
        *c = p->clients[--p->n_clients];
    pthread_mutex_unlock(&p->mu);
    if (busy) {
        snprintf(msg, sizeof msg, "the server runs %d %s at once and is at that limit; ask "
                                  "again in a moment", p->limit[kind], names[kind]);
        refuse(res, 503, RETRY_AFTER_BUSY, msg);
        return false;
    }
    if (crowded) {
        snprintf(msg, sizeof msg, "this client has %d heavy requests in flight already (hints, "
                                  "uploads, listings); wait for them", p->per_client);
        refuse(res, 429, RETRY_AFTER_CLIENT, msg);
        return false;
    }
    return true;
}

void srv_release(pips_server *s, srv_kind kind, const char *client)
{
    struct srv_pool *p = s->pool;
    pthread_mutex_lock(&p->mu);
    p->in_flight[kind]--;
    client_count *c = srv_kind_heavy(kind) && client ? client_slot(p, client, false) : NULL;
    if (c && --c->n == 0)
        *c = p->clients[--p->n_clients];
    pthread_mutex_unlock(&p->mu);
}

void srv_pool_counts(pips_server *s, unsigned long long *busy, unsigned long long *client,
                     int *heavy)
{
    struct srv_pool *p = s->pool;
    pthread_mutex_lock(&p->mu);
    *busy = p->refused_busy;
    *client = p->refused_client;
    *heavy = p->in_flight[SRV_HINTS] + p->in_flight[SRV_UPLOADS] + p->in_flight[SRV_LISTINGS];
    pthread_mutex_unlock(&p->mu);
}

/* ---- workers ---- */

typedef struct worker_arg {
    pips_server *s;
    lane *ln;
    bool background;
} worker_arg;

void srv_lower_thread_priority(void)
{
    /* Linux gives each thread its own nice value: a heavy request or an
     * agent's search then gets the CPU only when moves do not need it
     * (a failure just leaves the thread as it was) */
    errno = 0;
    int now = getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid));
    if (errno == 0)
        setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), now + SRV_BACKGROUND_NICE);
}

static void *worker_main(void *arg)
{
    worker_arg *wa = arg;
    struct srv_pool *p = wa->s->pool;
    lane *ln = wa->ln;
    if (wa->background)
        srv_lower_thread_priority();
    free(wa);
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!ln->head && !p->stopping)
            pthread_cond_wait(&ln->cond, &p->mu);
        if (!ln->head)
            break;
        task *t = ln->head;
        ln->head = t->next;
        if (!ln->head)
            ln->tail = NULL;
        pthread_mutex_unlock(&p->mu);
        t->run(t->arg);
        free(t);
        pthread_mutex_lock(&p->mu);
        if (--p->queued_or_running == 0)
            pthread_cond_broadcast(&p->idle);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static int clamp(int v, int dflt)
{
    return v <= 0 ? dflt : v > 16 ? 16 : v;
}

bool srv_pool_start(pips_server *s, pips_error *err)
{
    struct srv_pool *p = calloc(1, sizeof *p);
    if (!p)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory for the request workers");
    s->pool = p;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->idle, NULL);
    p->limit[SRV_HINTS] = clamp(s->cfg.max_hints, 1);
    p->limit[SRV_UPLOADS] = clamp(s->cfg.max_uploads, 2);
    p->limit[SRV_LISTINGS] = clamp(s->cfg.max_listings, 2);
    p->per_client = s->cfg.per_client <= 0 ? 2 : s->cfg.per_client;
    s->cfg.max_hints = p->limit[SRV_HINTS];
    s->cfg.max_uploads = p->limit[SRV_UPLOADS];
    s->cfg.max_listings = p->limit[SRV_LISTINGS];
    s->cfg.per_client = p->per_client;
    int heavy = p->limit[SRV_HINTS] + p->limit[SRV_UPLOADS] + p->limit[SRV_LISTINGS];
    int want[2] = {WRITE_WORKERS, heavy > 16 ? 16 : heavy};
    for (int l = 0; l < 2; l++) {
        lane *ln = &p->lanes[l];
        pthread_cond_init(&ln->cond, NULL);
        for (int i = 0; i < want[l]; i++) {
            worker_arg *wa = malloc(sizeof *wa);
            if (wa) {
                wa->s = s;
                wa->ln = ln;
                wa->background = l == 1;
            }
            if (!wa || pthread_create(&ln->threads[i], NULL, worker_main, wa) != 0) {
                free(wa);
                return pips_fail(err, PIPS_ERR_NOMEM, "cannot start request worker %d", i + 1);
            }
            ln->n_threads++;
        }
    }
    return true;
}

void srv_pool_stop(pips_server *s)
{
    struct srv_pool *p = s->pool;
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stopping = true;
    for (int l = 0; l < 2; l++)
        pthread_cond_broadcast(&p->lanes[l].cond);
    pthread_mutex_unlock(&p->mu);
    for (int l = 0; l < 2; l++) {
        for (int i = 0; i < p->lanes[l].n_threads; i++)
            pthread_join(p->lanes[l].threads[i], NULL);
        pthread_cond_destroy(&p->lanes[l].cond);
    }
    pthread_cond_destroy(&p->idle);
    pthread_mutex_destroy(&p->mu);
    free(p);
    s->pool = NULL;
}

bool srv_pool_submit(pips_server *s, srv_kind kind, void (*run)(void *), void *arg)
{
    struct srv_pool *p = s->pool;
    task *t = malloc(sizeof *t);
    if (!t)
        return false;
    t->run = run;
    t->arg = arg;
    t->next = NULL;
    lane *ln = &p->lanes[srv_kind_heavy(kind) ? 1 : 0];
    pthread_mutex_lock(&p->mu);
    if (p->stopping) {
        pthread_mutex_unlock(&p->mu);
        free(t);
        return false;
    }
    if (ln->tail)
        ln->tail->next = t;
    else
        ln->head = t;
    ln->tail = t;
    p->queued_or_running++;
    pthread_cond_signal(&ln->cond);
    pthread_mutex_unlock(&p->mu);
    return true;
}

void srv_pool_drain(pips_server *s)
{
    struct srv_pool *p = s->pool;
    pthread_mutex_lock(&p->mu);
    while (p->queued_or_running > 0)
        pthread_cond_wait(&p->idle, &p->mu);
    pthread_mutex_unlock(&p->mu);
}
