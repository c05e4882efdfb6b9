/*
 * loadgen.c — a load generator for a running `pips serve` on loopback.
 *
 *   loadgen --port P [--rate 500] [--seconds 10] [--clients 16]
 *           [--idle N] [--rules K] [--hints K] [--uploads U] [--seed S]
 *
 * W keep-alive clients each play their own hotseat Tic Tac Doh! game
 * through POST /api/games/{id}/moves, choosing each move at random from the
 * `legal` list of the last answer (a new game when one ends); together they
 * send R moves a second, open loop: client c sends its k-th move at
 * (k*W + c)/R seconds, and latency counts from that scheduled time, so a
 * slow server or a late client both show (no coordinated omission).
 * Beside them, optionally: N idle connections that send nothing; K clients
 * fetching GET /api/rules in a loop; K clients asking perfect-play hints in
 * a loop (each on a game of its own a few moves in, a new one every 32
 * requests); a stream of U record uploads a second (a finished game's
 * record; each upload makes a game, so a stream, not a flood, or the
 * server's game limit ends the test). Floods run as fast as the server
 * answers them and ignore Retry-After, as a careless or hostile client
 * would.
 * Prints the move latencies (p50, p90, p99, p99.9, max), errors, the
 * achieved rate, each flood's answers by status, and one line starting
 * "RESULT" with the same figures as key=value pairs for scripts.
 * Exit status 0 when every move was answered 200.
 */
#define _GNU_SOURCE /* strcasestr */
#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_CLIENTS 512
#define MAX_FLOOD 64
#define RESPONSE_MAX (1 << 20)

static int port;
static double rate = 500, seconds = 10;
static int n_clients = 16, n_idle, n_rules, n_hints, n_uploads;
static uint64_t seed = 1;
static double t0;
static atomic_bool stop_floods;
static char *record_text; /* a finished game's record, for the uploads */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void sleep_until(double t)
{
    struct timespec ts;
    ts.tv_sec = (time_t)t;
    ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
    }
}

static uint64_t next_random(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int connect_server(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

/* A keep-alive connection that reconnects when the server closes it. */
typedef struct conn {
    int fd;
    char *buf; /* the last answer's body, NUL-terminated */
} conn;

static bool conn_open(conn *c)
{
    c->buf = malloc(RESPONSE_MAX);
    c->fd = connect_server();
    return c->buf && c->fd >= 0;
}

static void conn_close(conn *c)
{
    if (c->fd >= 0)
        close(c->fd);
    free(c->buf);
}

/* One request; returns the status (body in c->buf) or -1 on a transport
 * error, after which the connection is made again. */
static int request(conn *c, const char *method, const char *path, const char *body)
{
    size_t blen = body ? strlen(body) : 0;
    char head[512];
    int n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     "Content-Length: %zu\r\n\r\n",
                     method, path, blen);
    for (int attempt = 0; attempt < 2; attempt++) {
        if (c->fd < 0 && (c->fd = connect_server()) < 0)
            return -1;
        bool ok = write(c->fd, head, (size_t)n) == n &&
                  (!blen || write(c->fd, body, blen) == (ssize_t)blen);
        size_t got = 0;
        long need = -1;
        char *hdr_end = NULL;
        while (ok) {
            ssize_t r = read(c->fd, c->buf + got, RESPONSE_MAX - 1 - got);
            if (r <= 0) {
                ok = false;
                break;
            }
            got += (size_t)r;
            c->buf[got] = '\0';
            if (!hdr_end && (hdr_end = strstr(c->buf, "\r\n\r\n"))) {
                const char *cl = strcasestr(c->buf, "\r\ncontent-length:");
                need = (long)(hdr_end + 4 - c->buf) + (cl && cl < hdr_end ? atol(cl + 17) : 0);
            }
            if (hdr_end && (long)got >= need)
                break;
            if (got >= RESPONSE_MAX - 1)
                ok = false;
        }
        if (ok) {
            int status = atoi(c->buf + 9);
            memmove(c->buf, hdr_end + 4, got - (size_t)(hdr_end + 4 - c->buf) + 1);
            return status;
        }
        close(c->fd);
        c->fd = -1;
        if (got) /* a partial answer: do not send the request twice */
            return -1;
    }
    return -1;
}

/* ---- a game of one's own ---- */

typedef struct game {
    long long id;
    char tokens[2][40];
    json_t *view;
} game;

static bool new_game(conn *c, game *g)
{
    if (request(c, "POST", "/api/games", "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"human\"]}") !=
        201)
        return false;
    json_error_t je;
    json_t *o = json_loads(c->buf, 0, &je);
    json_t *toks = json_object_get(o, "tokens");
    for (int i = 0; i < 2; i++)
        snprintf(g->tokens[i], sizeof g->tokens[i], "%s",
                 json_string_value(json_array_get(toks, (size_t)i)) ? json_string_value(json_array_get(toks, (size_t)i)) : "");
    g->id = json_integer_value(json_object_get(o, "id"));
    json_decref(g->view);
    g->view = json_incref(json_object_get(o, "game"));
    json_decref(o);
    return g->id > 0 && g->view;
}

/* The body of a random legal move in g's view, or false when it is over. */
static bool pick_move(game *g, uint64_t *rng, char *body, size_t size)
{
    json_t *legal = json_object_get(g->view, "legal");
    size_t n = json_array_size(legal);
    json_t *to_move = json_object_get(g->view, "to_move");
    if (!n || !json_is_integer(to_move) || json_is_true(json_object_get(g->view, "over")))
        return false;
    const char *mv = json_string_value(json_array_get(legal, next_random(rng) % n));
    int seat = (int)json_integer_value(to_move);
    snprintf(body, size, "{\"move\":\"%s\",\"token\":\"%s\"}", mv, g->tokens[seat & 1]);
    return true;
}

/* ---- the move clients ---- */

typedef struct mover {
    int index;
    long sent;
    double *lat; /* ms from the scheduled send */
    long n_lat, cap_lat;
    long errors;
} mover;

static long moves_per_client(int c)
{
    long total = (long)(rate * seconds);
    return total / n_clients + (c < total % n_clients);
}

static void *mover_main(void *arg)
{
    mover *m = arg;
    uint64_t rng = seed * 1000003u + (uint64_t)m->index;
    conn c;
    game g = {0};
    if (!conn_open(&c)) {
        m->errors = moves_per_client(m->index);
        return NULL;
    }
    long n = moves_per_client(m->index);
    m->cap_lat = n;
    m->lat = calloc((size_t)(n ? n : 1), sizeof *m->lat);
    bool have = new_game(&c, &g);
    char path[64], body[256];
    for (long k = 0; k < n; k++) {
        double due = t0 + ((double)k * n_clients + m->index) / rate;
        /* a new game when the last one ended (not timed: not a move) */
        if (!have || !pick_move(&g, &rng, body, sizeof body)) {
            have = new_game(&c, &g) && pick_move(&g, &rng, body, sizeof body);
            if (!have) {
                m->errors++;
                continue;
            }
        }
        sleep_until(due);
        snprintf(path, sizeof path, "/api/games/%lld/moves", g.id);
        int st = request(&c, "POST", path, body);
        m->lat[m->n_lat++] = (now() - due) * 1e3;
        m->sent++;
        if (st != 200) {
            m->errors++;
            have = false;
            continue;
        }
        json_error_t je;
        json_decref(g.view);
        g.view = json_loads(c.buf, 0, &je);
        have = g.view != NULL;
    }
    json_decref(g.view);
    conn_close(&c);
    return NULL;
}

/* ---- floods ---- */

enum { FLOOD_RULES, FLOOD_HINTS, FLOOD_UPLOADS };

typedef struct flood {
    int kind, index;
    long requests;
    long by_status[6]; /* 2xx, 304, 429, 503, other, transport errors */
    double busy_ms;    /* time spent in requests */
} flood;

static void count_status(flood *f, int st)
{
    int slot = st >= 200 && st < 300 ? 0 : st == 304 ? 1 : st == 429 ? 2 : st == 503 ? 3
               : st < 0 ? 5 : 4;
    f->by_status[slot]++;
}

static void *flood_main(void *arg)
{
    flood *f = arg;
    conn c;
    if (!conn_open(&c))
        return NULL;
    uint64_t rng = seed * 7919u + (uint64_t)f->index;
    game g = {0};
    char path[96], body[256];
    while (!atomic_load(&stop_floods)) {
        double start = now();
        int st;
        if (f->kind == FLOOD_RULES) {
            st = request(&c, "GET", "/api/rules", NULL);
        } else if (f->kind == FLOOD_UPLOADS) {
            sleep_until(t0 + (double)f->requests / n_uploads); /* a paced stream */
            if (atomic_load(&stop_floods))
                break;
            st = request(&c, "POST", "/api/records", record_text);
        } else {
            /* a game a few random moves in, then its hints */
            if (!g.view || f->requests % 32 == 0) {
                if (!new_game(&c, &g))
                    break;
                for (int i = 0; i < 4 && pick_move(&g, &rng, body, sizeof body); i++) {
                    snprintf(path, sizeof path, "/api/games/%lld/moves", g.id);
                    if (request(&c, "POST", path, body) != 200)
                        break;
                    json_error_t je;
                    json_decref(g.view);
                    g.view = json_loads(c.buf, 0, &je);
                }
            }
            snprintf(path, sizeof path, "/api/games/%lld/hints", g.id);
            st = request(&c, "GET", path, NULL);
        }
        f->busy_ms += (now() - start) * 1e3;
        f->requests++;
        count_status(f, st);
    }
    json_decref(g.view);
    conn_close(&c);
    return NULL;
}

/* A finished game's record for the uploads: a random game played out. */
static bool make_record(void)
{
    conn c;
    game g = {0};
    uint64_t rng = seed;
    char path[64], body[256];
    if (!conn_open(&c) || !new_game(&c, &g))
        return false;
    while (pick_move(&g, &rng, body, sizeof body)) {
        snprintf(path, sizeof path, "/api/games/%lld/moves", g.id);
        if (request(&c, "POST", path, body) != 200)
            return false;
        json_error_t je;
        json_decref(g.view);
        g.view = json_loads(c.buf, 0, &je);
    }
    snprintf(path, sizeof path, "/api/games/%lld/record", g.id);
    bool ok = request(&c, "GET", path, NULL) == 200 && (record_text = strdup(c.buf));
    json_decref(g.view);
    conn_close(&c);
    return ok;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double pct(const double *v, long n, double p)
{
    if (n == 0)
        return 0;
    long i = (long)(p * (double)n);
    return v[i >= n ? n - 1 : i];
}

static void usage(void)
{
    fprintf(stderr, "usage: loadgen --port P [--rate 500] [--seconds 10] [--clients 16] "
                    "[--idle N] [--rules K] [--hints K] [--uploads PER_SECOND] [--seed S]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc)
            usage();
        const char *a = argv[i], *v = argv[++i];
        if (!strcmp(a, "--port"))
            port = atoi(v);
        else if (!strcmp(a, "--rate"))
            rate = atof(v);
        else if (!strcmp(a, "--seconds"))
            seconds = atof(v);
        else if (!strcmp(a, "--clients"))
            n_clients = atoi(v);
        else if (!strcmp(a, "--idle"))
            n_idle = atoi(v);
        else if (!strcmp(a, "--rules"))
            n_rules = atoi(v);
        else if (!strcmp(a, "--hints"))
            n_hints = atoi(v);
        else if (!strcmp(a, "--uploads"))
            n_uploads = atoi(v);
        else if (!strcmp(a, "--seed"))
            seed = strtoull(v, NULL, 10);
        else
            usage();
    }
    if (port <= 0 || rate <= 0 || seconds <= 0 || n_clients < 1 || n_clients > MAX_CLIENTS ||
        n_idle < 0 || n_rules < 0 || n_hints < 0 || n_uploads < 0 ||
        n_rules + n_hints + 1 > MAX_FLOOD)
        usage();
    if (n_uploads && !make_record()) {
        fprintf(stderr, "loadgen: cannot make a record to upload (is the server on port %d?)\n",
                port);
        return 1;
    }
    int *idle = calloc((size_t)n_idle + 1, sizeof *idle);
    int idle_open = 0;
    for (int i = 0; i < n_idle; i++)
        if ((idle[i] = connect_server()) >= 0)
            idle_open++;

    int n_flood = n_rules + n_hints + (n_uploads > 0);
    flood floods[MAX_FLOOD];
    pthread_t flood_threads[MAX_FLOOD];
    memset(floods, 0, sizeof floods);
    for (int i = 0; i < n_flood; i++) {
        floods[i].kind = i < n_rules ? FLOOD_RULES : i < n_rules + n_hints ? FLOOD_HINTS
                                                                          : FLOOD_UPLOADS;
        floods[i].index = i;
    }
    mover *movers = calloc((size_t)n_clients, sizeof *movers);
    pthread_t *threads = calloc((size_t)n_clients, sizeof *threads);
    t0 = now() + 0.5; /* every client has made its game by then */
    for (int i = 0; i < n_flood; i++)
        pthread_create(&flood_threads[i], NULL, flood_main, &floods[i]);
    for (int c = 0; c < n_clients; c++) {
        movers[c].index = c;
        pthread_create(&threads[c], NULL, mover_main, &movers[c]);
    }
    for (int c = 0; c < n_clients; c++)
        pthread_join(threads[c], NULL);
    double elapsed = now() - t0;
    atomic_store(&stop_floods, true);
    for (int i = 0; i < n_flood; i++)
        pthread_join(flood_threads[i], NULL);
    for (int i = 0; i < n_idle; i++)
        if (idle[i] >= 0)
            close(idle[i]);

    long total = 0, errors = 0;
    for (int c = 0; c < n_clients; c++) {
        total += movers[c].n_lat;
        errors += movers[c].errors;
    }
    double *all = malloc((size_t)(total ? total : 1) * sizeof *all);
    long k = 0;
    for (int c = 0; c < n_clients; c++) {
        memcpy(all + k, movers[c].lat, (size_t)movers[c].n_lat * sizeof *all);
        k += movers[c].n_lat;
        free(movers[c].lat);
    }
    qsort(all, (size_t)total, sizeof *all, cmp_double);
    double achieved = (double)total / elapsed;
    printf("moves: %ld in %.2f s (%.0f/s of %.0f asked), %d clients, %d idle connections "
           "held, errors %ld\n",
           total, elapsed, achieved, rate, n_clients, idle_open, errors);
    printf("move latency ms (from the scheduled send): p50 %.3f  p90 %.3f  p99 %.3f  "
           "p99.9 %.3f  max %.3f\n",
           pct(all, total, 0.5), pct(all, total, 0.9), pct(all, total, 0.99),
           pct(all, total, 0.999), total ? all[total - 1] : 0.0);
    static const char *const kinds[] = {"rules", "hints", "uploads"};
    long flood_sum[3][6] = {{0}};
    double flood_busy[3] = {0};
    for (int i = 0; i < n_flood; i++) {
        for (int s = 0; s < 6; s++)
            flood_sum[floods[i].kind][s] += floods[i].by_status[s];
        flood_busy[floods[i].kind] += floods[i].busy_ms;
    }
    char extra[512] = "";
    size_t el = 0;
    for (int f = 0; f < 3; f++) {
        int clients = f == 0 ? n_rules : f == 1 ? n_hints : n_uploads > 0;
        if (!clients)
            continue;
        long n = 0;
        for (int s = 0; s < 6; s++)
            n += flood_sum[f][s];
        printf("%s flood: %d clients, %ld requests (%.0f/s): 2xx %ld, 304 %ld, 429 %ld, 503 %ld, "
               "other %ld, transport errors %ld; mean answer %.2f ms\n",
               kinds[f], clients, n, (double)n / elapsed, flood_sum[f][0], flood_sum[f][1],
               flood_sum[f][2], flood_sum[f][3], flood_sum[f][4], flood_sum[f][5],
               n ? flood_busy[f] / (double)n : 0.0);
        el += (size_t)snprintf(extra + el, sizeof extra - el,
                               " %s_per_s=%.0f %s_ok=%ld %s_429=%ld %s_503=%ld", kinds[f],
                               (double)n / elapsed, kinds[f], flood_sum[f][0] + flood_sum[f][1],
                               kinds[f], flood_sum[f][2], kinds[f], flood_sum[f][3]);
    }
    printf("RESULT rate=%.0f asked=%.0f p50=%.3f p90=%.3f p99=%.3f p999=%.3f max=%.3f "
           "errors=%ld idle=%d%s\n",
           achieved, rate, pct(all, total, 0.5), pct(all, total, 0.9), pct(all, total, 0.99),
           pct(all, total, 0.999), total ? all[total - 1] : 0.0, errors, idle_open, extra);
    free(all);
    free(movers);
    free(threads);
    free(idle);
    free(record_text);
    return errors != 0;
}
