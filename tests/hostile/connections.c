/*
 * connections.c — many clients at once against `pips serve` on 127.0.0.1:
 * opens IDLE connections that never send a byte and STREAMS event streams
 * on one hotseat game, then plays MOVES moves through the API, timing each
 * round trip, and checks that every stream saw the last move (nothing
 * acknowledged is lost to a watcher). Prints the timings; exits non-zero
 * with a message when a move fails, a move takes over a second (starved),
 * the median is over 100 ms, or a stream missed the end.
 * usage: pips_connections PORT [IDLE] [STREAMS] [MOVES]
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int port;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what)
{
    fprintf(stderr, "FAIL: %s (%s)\n", what, strerror(errno));
    exit(1);
}

static int dial(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        die("socket");
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0)
        die("connect");
    return fd;
}

/* One request on a fresh connection; the whole answer into buf. */
static size_t request(const char *method, const char *path, const char *body, char *buf,
                      size_t cap)
{
    int fd = dial();
    char head[512];
    int n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     "Content-Length: %zu\r\nConnection: close\r\n\r\n",
                     method, path, body ? strlen(body) : 0);
    if (write(fd, head, (size_t)n) != n || (body && write(fd, body, strlen(body)) < 0))
        die("write");
    size_t len = 0;
    ssize_t r;
    while (len + 1 < cap && (r = read(fd, buf + len, cap - 1 - len)) > 0)
        len += (size_t)r;
    buf[len] = '\0';
    close(fd);
    return len;
}

/* Reads what the streams have (waiting up to ms), looking for marker in
 * each stream's bytes; seen[i] keeps only a tail long enough to find a
 * marker split between reads. Returns how many streams have not shown the
 * marker yet (an empty marker is never found). */
#define TAIL 64
static int drain(struct pollfd *sp, int n, char **seen, size_t *seen_len, char *found,
                 const char *marker, int ms)
{
    poll(sp, (nfds_t)n, ms);
    int missing = 0;
    for (int i = 0; i < n; i++) {
        if (sp[i].revents & POLLIN) {
            ssize_t r = read(sp[i].fd, seen[i] + seen_len[i], (1 << 16) - 1 - seen_len[i]);
            if (r > 0)
                seen_len[i] += (size_t)r;
            seen[i][seen_len[i]] = '\0';
            if (*marker && strstr(seen[i], marker))
                found[i] = 1;
            if (seen_len[i] > TAIL) {
                memmove(seen[i], seen[i] + seen_len[i] - TAIL, TAIL);
                seen_len[i] = TAIL;
            }
        }
        missing += !found[i];
    }
    return missing;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return fprintf(stderr, "usage: pips_connections PORT [IDLE] [STREAMS] [MOVES]\n"), 2;
    port = atoi(argv[1]);
    int idle = argc > 2 ? atoi(argv[2]) : 1000, streams = argc > 3 ? atoi(argv[3]) : 200,
        moves = argc > 4 ? atoi(argv[4]) : 10;
    static char buf[1 << 16];
    /* Nimitz on an 8x8 board, 4 sets, two people: plenty of moves, no dice */
    request("POST", "/api/games",
            "{\"game\":\"nimitz\",\"options\":{\"board\":\"8x8\",\"sets\":4},\"seats\":[\"human\",\"human\"],"
            "\"seed\":1}",
            buf, sizeof buf);
    char *body = strstr(buf, "\r\n\r\n");
    long long id;
    char tok[2][64];
    if (!body || sscanf(body, "\r\n\r\n{\"id\":%lld,\"tokens\":[\"%63[0-9a-f]\",\"%63[0-9a-f]\"]",
                        &id, tok[0], tok[1]) != 3) {
        fprintf(stderr, "FAIL: create: %.300s\n", buf);
        return 1;
    }
    int *idle_fd = malloc((size_t)idle * sizeof *idle_fd);
    struct pollfd *sp = malloc((size_t)streams * sizeof *sp);
    char **seen = calloc((size_t)streams, sizeof *seen);
    size_t *seen_len = calloc((size_t)streams, sizeof *seen_len);
    char *found = calloc((size_t)streams, 1);
    if (!idle_fd || !sp || !seen || !seen_len || !found)
        die("malloc");
    for (int i = 0; i < idle; i++)
        idle_fd[i] = dial();
    char path[128];
    snprintf(path, sizeof path, "/api/games/%lld/events", id);
    for (int i = 0; i < streams; i++) {
        sp[i].fd = dial();
        sp[i].events = POLLIN;
        char req[256];
        int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path);
        if (write(sp[i].fd, req, (size_t)n) != n)
            die("write stream");
        seen[i] = malloc(1 << 16);
    }
    double *rt = malloc((size_t)moves * sizeof *rt);
    char last[64] = "";
    for (int k = 0; k < moves; k++) {
        snprintf(path, sizeof path, "/api/games/%lld", id);
        request("GET", path, NULL, buf, sizeof buf);
        char *legal = strstr(buf, "\"legal\":[\"");
        if (!legal)
            return fprintf(stderr, "FAIL: no legal move at %d: %.200s\n", k, buf), 1;
        char mv[64];
        sscanf(legal + 10, "%63[^\"]", mv);
        char req[256];
        snprintf(req, sizeof req, "{\"move\":\"%s\",\"token\":\"%s\"}", mv, tok[k % 2]);
        snprintf(path, sizeof path, "/api/games/%lld/moves", id);
        double t0 = now();
        request("POST", path, req, buf, sizeof buf);
        rt[k] = now() - t0;
        if (!strstr(buf, " 200 "))
            return fprintf(stderr, "FAIL: move %d: %.300s\n", k + 1, buf), 1;
        if (rt[k] > 1.0)
            return fprintf(stderr, "FAIL: move %d took %.3f s: starved\n", k + 1, rt[k]), 1;
        snprintf(last, sizeof last, "\"n_moves\":%d,", k + 1);
        memset(found, 0, (size_t)streams);
        drain(sp, streams, seen, seen_len, found, last, 0);
    }
    /* every stream must show the last move within 5 s */
    double deadline = now() + 5;
    int missing = streams;
    while ((missing = drain(sp, streams, seen, seen_len, found, last, 50)) && now() < deadline)
        ;
    qsort(rt, (size_t)moves, sizeof *rt, cmp);
    printf("%d idle connections, %d event streams: %d moves, round trip median %.1f ms, "
           "max %.1f ms; streams that saw the last move: %d of %d\n",
           idle, streams, moves, rt[moves / 2] * 1000, rt[moves - 1] * 1000, streams - missing,
           streams);
    int status = 0;
    if (missing) {
        fprintf(stderr, "FAIL: %d streams missed the last move\n", missing);
        status = 1;
    } else if (rt[moves / 2] > 0.1) {
        fprintf(stderr, "FAIL: median round trip over 100 ms\n");
        status = 1;
    }
    for (int i = 0; i < idle; i++)
        close(idle_fd[i]);
    for (int i = 0; i < streams; i++) {
        close(sp[i].fd);
        free(seen[i]);
    }
    free(idle_fd);
    free(sp);
    free(seen);
    free(seen_len);
    free(found);
    free(rt);
    return status;
}
