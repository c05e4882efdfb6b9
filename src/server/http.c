/*
 * http.c — the HTTP listener: libmicrohttpd, event-driven (a pool of
 * polling threads; Server-Sent Events streams suspend their connection
 * while they have nothing to send, so idle and watching clients never hold
 * a thread and cannot starve moves). It gathers a request (headers, query, body up to the limit),
 * hands it to pips_server_handle and sends the answer back; for
 * /api/games/{id}/events it streams the game's JSON view on every change,
 * with a keep-alive comment every 15 s.
 * Invariants: never prints; bodies over the limit are drained and answered
 * 413 without being stored.
 */
#include "server/server_impl.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_HEADERS 64
#define SSE_KEEPALIVE_MS 15000
#define HTTP_THREADS 4            /* polling threads */
#define HTTP_MAX_CONNECTIONS 4000 /* open sockets at once, streams included */
#define HTTP_IDLE_SECONDS 30      /* an idle connection (not a stream) is closed after */

typedef struct header_list {
    pips_http_header h[MAX_HEADERS];
    size_t n;
} header_list;

typedef struct query_buf {
    char text[2048];
    size_t len;
} query_buf;

/* A request's state on its connection. A request that is not light is
 * handed to a worker (pool.c) with its connection suspended; the worker
 * fills res and resumes it, and the listener then sends res. */
enum { REQ_READING, REQ_WORKING, REQ_ANSWERED };

typedef struct conn_ctx {
    char *body;
    size_t len, cap;
    bool too_large;
    int state;
    pips_server *s;
    struct MHD_Connection *conn;
    srv_kind kind;
    header_list hl;
    query_buf q;
    char client[64];
    pips_http_request req;
    pips_http_response res;
} conn_ctx;

static enum MHD_Result collect_header(void *cls, enum MHD_ValueKind kind, const char *key,
                                      const char *value)
{
    (void)kind;
    header_list *hl = cls;
    if (hl->n < MAX_HEADERS) {
        hl->h[hl->n].name = key;
        hl->h[hl->n].value = value ? value : "";
        hl->n++;
    }
    return MHD_YES;
}

static enum MHD_Result collect_arg(void *cls, enum MHD_ValueKind kind, const char *key,
                                   const char *value)
{
    (void)kind;
    query_buf *q = cls;
    int n = snprintf(q->text + q->len, sizeof q->text - q->len, "%s%s=%s", q->len ? "&" : "",
                     key, value ? value : "");
    if (n > 0 && (size_t)n < sizeof q->text - q->len)
        q->len += (size_t)n;
    return MHD_YES;
}

/* An event stream. When it has nothing to send it suspends its connection
 * (MHD_suspend_connection from the content reader, as libmicrohttpd
 * allows) and waits on s->streams; a change of its game, the keep-alive
 * timer or the listener stopping resumes it. No thread waits per stream.
 * States (under s->mu): ARMED between registering and suspending, when a
 * wake-up is only noted (the reader resumes itself); SUSPENDED when a
 * wake-up must resume the connection. */
enum { STREAM_IDLE, STREAM_ARMED, STREAM_SUSPENDED };

struct srv_stream {
    pips_server *s;
    struct MHD_Connection *conn;
    long long id;
    unsigned long long version;
    int state;
    bool woken;
    double last_sent;
    char *pending;
    size_t len, off;
    bool started;
    struct srv_stream *prev, *next; /* in s->streams while ARMED or SUSPENDED */
};

static void stream_unlink(pips_server *s, struct srv_stream *c)
{
    if (c->prev)
        c->prev->next = c->next;
    else if (s->streams == c)
        s->streams = c->next;
    if (c->next)
        c->next->prev = c->prev;
    c->prev = c->next = NULL;
}

/* Under s->mu: wakes one stream (resumes it if it is suspended). */
static void stream_wake(pips_server *s, struct srv_stream *c)
{
    stream_unlink(s, c);
    if (c->state == STREAM_SUSPENDED)
        MHD_resume_connection(c->conn);
    else
        c->woken = true;
    c->state = STREAM_IDLE;
}

static void wake_streams(pips_server *s, long long id)
{
    for (struct srv_stream *c = s->streams, *next; c; c = next) {
        next = c->next;
        if (id < 0 || c->id == id)
            stream_wake(s, c);
    }
}

/* The listener's hook in srv_touch (s->mu held). */
static void notify_change(pips_server *s, long long id) { wake_streams(s, id); }

/* Fills c->pending with the next event, or returns 0 when there is none
 * yet (the stream then suspends), -1 at the end of the stream. */
static int stream_next(struct srv_stream *c)
{
    char *json = NULL;
    int r = pips_server_wait_change(c->s, c->id, &c->version, 0, &json);
    if (r < 0)
        return -1;
    double now = pips_now();
    if (r == 0 && c->started && now - c->last_sent < SSE_KEEPALIVE_MS / 1000.0)
        return 0;
    const char *prefix = c->started ? "" : "retry: 2000\n";
    size_t need = (json ? strlen(json) : 0) + 64;
    free(c->pending);
    c->pending = malloc(need);
    if (!c->pending) {
        free(json);
        return -1;
    }
    if (r == 1)
        c->len = (size_t)snprintf(c->pending, need, "%sevent: state\ndata: %s\n\n", prefix, json);
    else
        c->len = (size_t)snprintf(c->pending, need, "%s: keep-alive\n\n", prefix);
    c->off = 0;
    c->started = true;
    c->last_sent = now;
    free(json);
    return 1;
}

static ssize_t sse_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    struct srv_stream *c = cls;
    pips_server *s = c->s;
    while (c->off == c->len) {
        int r = stream_next(c);
        if (r < 0)
            return MHD_CONTENT_READER_END_OF_STREAM;
        if (r > 0)
            break;
        /* nothing to send: register, then suspend unless woken meanwhile */
        pthread_mutex_lock(&s->mu);
        if (s->http_closing) {
            pthread_mutex_unlock(&s->mu);
            return MHD_CONTENT_READER_END_OF_STREAM;
        }
        c->woken = false;
        c->state = STREAM_ARMED;
        c->next = s->streams;
        c->prev = NULL;
        if (s->streams)
            s->streams->prev = c;
        s->streams = c;
        pthread_mutex_unlock(&s->mu);
        MHD_suspend_connection(c->conn);
        pthread_mutex_lock(&s->mu);
        if (c->woken)
            MHD_resume_connection(c->conn);
        else
            c->state = STREAM_SUSPENDED;
        pthread_mutex_unlock(&s->mu);
        return 0;
    }
    size_t n = c->len - c->off < max ? c->len - c->off : max;
    memcpy(buf, c->pending + c->off, n);
    c->off += n;
    return (ssize_t)n;
}

static void sse_free(void *cls)
{
    struct srv_stream *c = cls;
    pthread_mutex_lock(&c->s->mu);
    if (c->state != STREAM_IDLE)
        stream_unlink(c->s, c);
    pthread_mutex_unlock(&c->s->mu);
    free(c->pending);
    free(c);
}

/* Resumes every suspended stream now and then, so each sends its
 * keep-alive comment (and notices a closed game). */
static void *keepalive_main(void *arg)
{
    pips_server *s = arg;
    pthread_mutex_lock(&s->mu);
    while (!s->http_closing) {
        struct timespec dl;
        clock_gettime(CLOCK_MONOTONIC, &dl);
        dl.tv_sec += SSE_KEEPALIVE_MS / 1000;
        pthread_cond_timedwait(&s->changed, &s->mu, &dl);
        double now = pips_now();
        for (struct srv_stream *c = s->streams, *next; c; c = next) {
            next = c->next;
            if (now - c->last_sent >= SSE_KEEPALIVE_MS / 1000.0 || s->http_closing)
                stream_wake(s, c);
        }
    }
    wake_streams(s, -1);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

static enum MHD_Result send_answer(struct MHD_Connection *conn, pips_http_response *res,
                                   pips_server *s)
{
    struct MHD_Response *r;
    if (res->stream_game) {
        struct srv_stream *c = calloc(1, sizeof *c);
        if (!c)
            return MHD_NO;
        c->s = s;
        c->conn = conn;
        c->id = res->stream_game;
        r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 8192, sse_read, c, sse_free);
        if (!r) {
            free(c);
            return MHD_NO;
        }
        MHD_add_response_header(r, "Content-Type", "text/event-stream");
        MHD_add_response_header(r, "Cache-Control", "no-store");
        MHD_add_response_header(r, "X-Accel-Buffering", "no");
    } else {
        r = MHD_create_response_from_buffer(res->body_len, res->body ? res->body : (void *)"",
                                            res->body ? MHD_RESPMEM_MUST_FREE
                                                      : MHD_RESPMEM_PERSISTENT);
        if (!r) {
            pips_http_response_free(res);
            return MHD_NO;
        }
        res->body = NULL; /* owned by the response now */
        if (res->content_type[0])
            MHD_add_response_header(r, "Content-Type", res->content_type);
        MHD_add_response_header(r, "Cache-Control",
                                res->cache_control[0] ? res->cache_control : "no-store");
        if (res->etag[0])
            MHD_add_response_header(r, "ETag", res->etag);
        if (res->content_encoding[0])
            MHD_add_response_header(r, "Content-Encoding", res->content_encoding);
        if (res->vary_encoding)
            MHD_add_response_header(r, "Vary", "Accept-Encoding");
        if (res->retry_after > 0) {
            char secs[16];
            snprintf(secs, sizeof secs, "%d", res->retry_after);
            MHD_add_response_header(r, "Retry-After", secs);
        }
        if (res->content_disposition[0])
            MHD_add_response_header(r, "Content-Disposition", res->content_disposition);
    }
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    enum MHD_Result ok = MHD_queue_response(conn, (unsigned)res->status, r);
    MHD_destroy_response(r);
    return ok;
}

static void client_address(struct MHD_Connection *conn, char *out, size_t size)
{
    out[0] = '\0';
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *sa = ci ? ci->client_addr : NULL;
    if (sa && sa->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, out, (socklen_t)size);
    else if (sa && sa->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, out, (socklen_t)size);
}

/* On a request worker: answers the request, then wakes its connection. */
static void run_on_worker(void *arg)
{
    conn_ctx *c = arg;
    srv_handle_admitted(c->s, &c->req, &c->res);
    srv_release(c->s, c->kind, c->req.client);
    __atomic_store_n(&c->state, REQ_ANSWERED, __ATOMIC_RELEASE); /* the answer, then the flag */
    MHD_resume_connection(c->conn);
}

/* A request that is not light goes to a worker with its connection
 * suspended (true). One refused by the limits gets its 429/503 in c->res
 * (false, REQ_ANSWERED); a light one is left to the caller (false). */
static bool hand_to_worker(pips_server *s, struct MHD_Connection *conn, conn_ctx *c,
                           const pips_http_request *req)
{
    srv_kind kind = srv_request_kind(s, req);
    pthread_mutex_lock(&s->mu);
    bool closing = s->http_closing;
    pthread_mutex_unlock(&s->mu);
    memset(&c->res, 0, sizeof c->res);
    if (!srv_admit(s, kind, req->client, &c->res)) {
        c->state = REQ_ANSWERED;
        return false;
    }
    /* with --sync normal a commit is a write to the log, no fsync: cheaper
     * than a hand-off, so changes are made here; with --sync full each group
     * commit waits for an fsync, which must not hold this thread's other
     * connections */
    bool inline_write = kind == SRV_WRITE && !s->cfg.sync_full;
    if (kind == SRV_LIGHT || inline_write || closing) {
        srv_release(s, kind, req->client); /* the caller admits it again */
        return false;
    }
    c->s = s;
    c->conn = conn;
    c->kind = kind;
    c->req = *req;
    c->state = REQ_WORKING;
    MHD_suspend_connection(conn);
    if (!srv_pool_submit(s, kind, run_on_worker, c)) {
        /* out of memory or stopping: answer 503 through the same resume */
        srv_release(s, kind, req->client);
        c->res.status = 503;
        c->res.retry_after = 1;
        snprintf(c->res.content_type, sizeof c->res.content_type, "application/json");
        c->res.body = strdup("{\"error\":\"the server is stopping or out of memory\"}");
        c->res.body_len = c->res.body ? strlen(c->res.body) : 0;
        __atomic_store_n(&c->state, REQ_ANSWERED, __ATOMIC_RELEASE);
        MHD_resume_connection(conn);
    }
    return true;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version,
                                  const char *upload_data, size_t *upload_data_size,
                                  void **con_cls)
{
    (void)version;
    pips_server *s = cls;
    conn_ctx *c = *con_cls;
    if (!c) {
        c = calloc(1, sizeof *c);
        if (!c)
            return MHD_NO;
        *con_cls = c;
        return MHD_YES;
    }
    int state = __atomic_load_n(&c->state, __ATOMIC_ACQUIRE);
    if (state == REQ_ANSWERED) /* a worker answered and resumed us */
        return send_answer(conn, &c->res, s);
    if (state == REQ_WORKING)
        return MHD_YES;
    if (*upload_data_size) {
        size_t n = *upload_data_size;
        if (c->too_large || c->len + n > s->cfg.max_body) {
            c->too_large = true; /* drain, answer 413 at the end */
        } else {
            if (c->len + n + 1 > c->cap) {
                size_t cap = (c->len + n + 1) * 2;
                char *b = realloc(c->body, cap);
                if (!b)
                    return MHD_NO;
                c->body = b;
                c->cap = cap;
            }
            memcpy(c->body + c->len, upload_data, n);
            c->len += n;
        }
        *upload_data_size = 0;
        return MHD_YES;
    }
    header_list *hl = &c->hl;
    hl->n = 0;
    MHD_get_connection_values(conn, MHD_HEADER_KIND, collect_header, hl);
    query_buf *q = &c->q;
    q->len = 0;
    q->text[0] = '\0';
    MHD_get_connection_values(conn, MHD_GET_ARGUMENT_KIND, collect_arg, q);
    client_address(conn, c->client, sizeof c->client);
    pips_http_request req = {
        .method = method, .path = url, .query = q->len ? q->text : NULL,
        .headers = hl->h, .n_headers = hl->n, .body = c->body ? c->body : "", .body_len = c->len,
        .client = c->client[0] ? c->client : NULL,
    };
    if (!c->too_large && hand_to_worker(s, conn, c, &req))
        return MHD_YES;
    if (c->state == REQ_ANSWERED) /* refused by the limits */
        return send_answer(conn, &c->res, s);
    pips_http_response res;
    if (c->too_large) {
        memset(&res, 0, sizeof res);
        res.status = 413;
        snprintf(res.content_type, sizeof res.content_type, "application/json");
        char msg[128];
        snprintf(msg, sizeof msg, "{\"error\":\"request body over %zu bytes\"}", s->cfg.max_body);
        res.body = strdup(msg);
        res.body_len = res.body ? strlen(res.body) : 0;
    } else {
        pips_server_handle(s, &req, &res);
    }
    enum MHD_Result ok = send_answer(conn, &res, s);
    pips_http_response_free(&res);
    return ok;
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)cls;
    (void)conn;
    (void)toe;
    conn_ctx *c = *con_cls;
    if (c) {
        pips_http_response_free(&c->res);
        free(c->body);
        free(c);
    }
    *con_cls = NULL;
}

static void http_stop(pips_server *s);

static bool http_start(pips_server *s, const char *bind_addr, int port, pips_error *err)
{
    if (s->mhd)
        return pips_fail(err, PIPS_ERR_ARG, "the server is already listening");
    if (port < 0 || port > 65535)
        return pips_fail(err, PIPS_ERR_ARG, "port %d: expected 0..65535", port);
    struct sockaddr_in a4;
    struct sockaddr_in6 a6;
    struct sockaddr *sa;
    /* event-driven: a few polling threads serve every connection; idle
     * keep-alive clients cost a socket, event streams are suspended */
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_ALLOW_SUSPEND_RESUME;
    const char *addr = bind_addr && *bind_addr ? bind_addr : "127.0.0.1";
    memset(&a4, 0, sizeof a4);
    memset(&a6, 0, sizeof a6);
    if (inet_pton(AF_INET, addr, &a4.sin_addr) == 1) {
        a4.sin_family = AF_INET;
        a4.sin_port = htons((uint16_t)port);
        sa = (struct sockaddr *)&a4;
    } else if (inet_pton(AF_INET6, addr, &a6.sin6_addr) == 1) {
        a6.sin6_family = AF_INET6;
        a6.sin6_port = htons((uint16_t)port);
        sa = (struct sockaddr *)&a6;
        flags |= MHD_USE_IPv6;
    } else {
        return pips_fail(err, PIPS_ERR_ARG, "bind address '%.64s': expected an IPv4 or IPv6 address",
                         addr);
    }
    pthread_mutex_lock(&s->mu);
    s->http_closing = false;
    pthread_mutex_unlock(&s->mu);
    s->mhd = MHD_start_daemon(flags, (uint16_t)port, NULL, NULL, on_request, s,
                              MHD_OPTION_SOCK_ADDR, sa,
                              MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
                              MHD_OPTION_THREAD_POOL_SIZE, (unsigned)HTTP_THREADS,
                              MHD_OPTION_CONNECTION_LIMIT, (unsigned)HTTP_MAX_CONNECTIONS,
                              MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)HTTP_IDLE_SECONDS,
                              MHD_OPTION_END);
    if (!s->mhd)
        return pips_fail(err, PIPS_ERR_IO, "cannot listen on %s port %d (in use or not allowed)",
                         addr, port);
    if (pthread_create(&s->keepalive, NULL, keepalive_main, s) != 0) {
        MHD_stop_daemon(s->mhd);
        s->mhd = NULL;
        return pips_fail(err, PIPS_ERR_NOMEM, "cannot start the event streams' timer");
    }
    pthread_mutex_lock(&s->mu);
    s->notify_change = notify_change;
    pthread_mutex_unlock(&s->mu);
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(s->mhd, MHD_DAEMON_INFO_BIND_PORT);
    s->port = info ? info->port : port;
    return true;
}

static void http_stop(pips_server *s)
{
    if (!s->mhd)
        return;
    pthread_mutex_lock(&s->mu);
    s->http_closing = true; /* ends the event streams */
    s->notify_change = NULL;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->mu);
    pthread_join(s->keepalive, NULL); /* it resumed every suspended stream */
    /* a stream resumed now ends at once; wait until none is suspended,
     * which MHD_stop_daemon requires */
    for (int i = 0; i < 500; i++) {
        pthread_mutex_lock(&s->mu);
        bool none = !s->streams;
        wake_streams(s, -1);
        pthread_mutex_unlock(&s->mu);
        if (none)
            break;
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    srv_pool_drain(s); /* workers resume the connections they hold */
    MHD_stop_daemon(s->mhd);
    s->mhd = NULL;
    s->port = 0;
}

bool pips_server_listen(pips_server *s, const char *bind_addr, int port, pips_error *err)
{
    s->stop_listener = http_stop;
    return http_start(s, bind_addr, port, err);
}

int pips_server_port(const pips_server *s) { return s->port; }

void pips_server_stop(pips_server *s) { http_stop(s); }
