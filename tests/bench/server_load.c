/*
 * server_load.c — move round-trip latency of a running `pips serve` on
 * loopback under an open-loop load of human moves (each one a committed
 * SQLite transaction). Lighter than the node tool, so on a busy machine it
 * measures the server more than the client.
 *   bench_server_load PORT [RATE=500] [SECONDS=10] [CONNECTIONS=16]
 * Makes hotseat Tic Tac Doh! games, finds a line of 10 legal non-ending
 * moves, then sends move k at time k/RATE on connection k % CONNECTIONS
 * (keep-alive). Latency is measured from the scheduled send time, so a late
 * client or a slow server both show (no coordinated omission).
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <jansson.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define PLIES 10

static int port;
static double rate;
static long total, n_games;
static int n_conn;
static char line[PLIES][32];
static struct game { long long id; char tok[2][40]; } *games;
static double *lat_sched, *lat_send;
static long errors;
static struct timespec t0;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int connect_server(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        perror("connect");
        exit(1);
    }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

/* One request on a keep-alive connection; returns the status, body in buf. */
static int request(int fd, const char *method, const char *path, const char *body, char *buf,
                   size_t size)
{
    char req[1024];
    int n = snprintf(req, sizeof req,
                     "%s %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     "Content-Length: %zu\r\n\r\n%s",
                     method, path, body ? strlen(body) : 0, body ? body : "");
    if (write(fd, req, (size_t)n) != n)
        return -1;
    size_t got = 0;
    long need = -1;
    char *hdr_end = NULL;
    for (;;) {
        ssize_t r = read(fd, buf + got, size - 1 - got);
        if (r <= 0)
            return -1;
        got += (size_t)r;
        buf[got] = '\0';
        if (!hdr_end && (hdr_end = strstr(buf, "\r\n\r\n"))) {
            const char *cl = strstr(buf, "Content-Length:");
            if (!cl)
                cl = strstr(buf, "content-length:");
            need = (long)(hdr_end + 4 - buf) + (cl ? atol(cl + 15) : 0);
        }
        if (hdr_end && (long)got >= need)
            break;
        if (got >= size - 1)
            return -1;
    }
    int status = atoi(buf + 9);
    memmove(buf, hdr_end + 4, got - (size_t)(hdr_end + 4 - buf) + 1);
    return status;
}

static void *conn_main(void *arg)
{
    long c = (long)arg;
    int fd = connect_server();
    char buf[65536], body[512], path[64];
    for (long k = c; k < total; k += n_conn) {
        struct game *g = &games[k % n_games];
        long ply = k / n_games;
        double due = (double)k / rate;
        struct timespec ts = t0;
        ts.tv_sec += (time_t)due;
        ts.tv_nsec += (long)((due - (double)(time_t)due) * 1e9);
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
        double sched = (double)ts.tv_sec + ts.tv_nsec * 1e-9, sent = now();
        snprintf(path, sizeof path, "/api/games/%lld/moves", g->id);
        snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\"}", line[ply],
                 g->tok[ply % 2]);
        int st = request(fd, "POST", path, body, buf, sizeof buf);
        double done = now();
        lat_sched[k] = (done - sched) * 1e3;
        lat_send[k] = (done - sent) * 1e3;
        if (st != 200) {
            pthread_mutex_lock(&mu);
            errors++;
            pthread_mutex_unlock(&mu);
            if (st < 0) {
                close(fd);
                fd = connect_server();
            }
        }
    }
    close(fd);
    return NULL;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void report(const char *what, double *v)
{
    qsort(v, (size_t)total, sizeof *v, cmp);
    printf("%s ms: p50 %.3f  p90 %.3f  p99 %.3f  p99.9 %.3f  max %.3f\n", what,
           v[total / 2], v[total * 9 / 10], v[total * 99 / 100], v[total * 999 / 1000],
           v[total - 1]);
}

static long long create_game(int fd, char tok[2][40])
{
    char buf[65536];
    if (request(fd, "POST", "/api/games", "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"human\"]}",
                buf, sizeof buf) != 201) {
        fprintf(stderr, "create failed: %s\n", buf);
        exit(1);
    }
    json_error_t je;
    json_t *o = json_loads(buf, 0, &je);
    for (int i = 0; i < 2; i++)
        snprintf(tok[i], 40, "%s", json_string_value(json_array_get(json_object_get(o, "tokens"), (size_t)i)));
    long long id = json_integer_value(json_object_get(o, "id"));
    json_decref(o);
    return id;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_server_load PORT [RATE] [SECONDS] [CONNECTIONS]\n");
        return 2;
    }
    port = atoi(argv[1]);
    rate = argc > 2 ? atof(argv[2]) : 500;
    double seconds = argc > 3 ? atof(argv[3]) : 10;
    n_conn = argc > 4 ? atoi(argv[4]) : 16;
    total = (long)(rate * seconds);
    n_games = (total + PLIES - 1) / PLIES;
    int fd = connect_server();
    char buf[65536], path[64], body[512];
    /* the line: legal moves that do not end the game */
    for (int tries = 0;; tries++) {
        char tok[2][40];
        long long id = create_game(fd, tok);
        int i = 0;
        for (; i < PLIES; i++) {
            snprintf(path, sizeof path, "/api/games/%lld", id);
            request(fd, "GET", path, NULL, buf, sizeof buf);
            json_error_t je;
            json_t *v = json_loads(buf, 0, &je);
            json_t *legal = json_object_get(v, "legal");
            size_t n = json_array_size(legal);
            snprintf(line[i], sizeof line[i], "%s",
                     json_string_value(json_array_get(legal, ((size_t)i * 7 + 3 + (size_t)tries) % n)));
            json_decref(v);
            snprintf(path, sizeof path, "/api/games/%lld/moves", id);
            snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\"}", line[i], tok[i % 2]);
            request(fd, "POST", path, body, buf, sizeof buf);
            if (strstr(buf, "\"over\":true"))
                break;
        }
        if (i == PLIES)
            break;
    }
    games = calloc((size_t)n_games, sizeof *games);
    lat_sched = calloc((size_t)total, sizeof *lat_sched);
    lat_send = calloc((size_t)total, sizeof *lat_send);
    for (long g = 0; g < n_games; g++)
        games[g].id = create_game(fd, games[g].tok);
    close(fd);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    double start = now();
    pthread_t th[256];
    if (n_conn > 256)
        n_conn = 256;
    for (long c = 0; c < n_conn; c++)
        pthread_create(&th[c], NULL, conn_main, (void *)c);
    for (int c = 0; c < n_conn; c++)
        pthread_join(th[c], NULL);
    double secs = now() - start;
    printf("moves %ld in %.2f s (%.0f/s), %d connections, errors %ld\n", total, secs,
           (double)total / secs, n_conn, errors);
    report("from scheduled send", lat_sched);
    report("from actual send   ", lat_send);
    return errors != 0;
}
