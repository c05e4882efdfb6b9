/*
 * core.c — error values, the allocator hook, xoshiro256** / splitmix64,
 * Zobrist keys, the growable string and small parsing helpers.
 *
 * Invariants: no globals; a pips_str is always NUL-terminated once it has
 * storage and never grows after an allocation failure.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS, madvise, mincore */
#include "pips/core.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>

/* ---- errors ---- */

bool pips_fail(pips_error *err, pips_status code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return false;
}

void pips_error_clear(pips_error *err)
{
    if (err) {
        err->code = PIPS_OK;
        err->msg[0] = '\0';
    }
}

void pips_error_prefix(pips_error *err, const char *fmt, ...)
{
    if (!err)
        return;
    char prefix[PIPS_ERROR_MAX], old[PIPS_ERROR_MAX], joined[2 * PIPS_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof old);
    snprintf(joined, sizeof joined, "%s%s", prefix, old);
    memcpy(err->msg, joined, sizeof err->msg - 1);
    err->msg[sizeof err->msg - 1] = '\0';
}

/* ---- allocator ---- */

void *pips_realloc(const pips_allocator *a, void *ptr, size_t size)
{
    if (a)
        return a->realloc(a->ud, ptr, size ? size : 1);
    return realloc(ptr, size ? size : 1);
}

void *pips_malloc(const pips_allocator *a, size_t size) { return pips_realloc(a, NULL, size); }

void *pips_calloc(const pips_allocator *a, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    /* the system's calloc maps a large block as fresh zero pages, touching
     * none of them; malloc + memset faulted in every page of an agent's
     * search tables just to build it (50 ms for a Noname alphabeta) */
    if (!a)
        return calloc(n ? n : 1, size ? size : 1);
    void *p = pips_malloc(a, n * size);
    if (p)
        memset(p, 0, n * size);
    return p;
}

void pips_free(const pips_allocator *a, void *ptr)
{
    if (!ptr)
        return;
    if (a)
        a->free(a->ud, ptr);
    else
        free(ptr);
}

/* Below this a table comes from malloc: mapping it saves nothing. */
#define TABLE_MAP_MIN ((size_t)1 << 21)

void *pips_tt_alloc(const pips_allocator *a, size_t bytes)
{
    if (a || bytes < TABLE_MAP_MIN)
        return pips_calloc(a, 1, bytes);
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    /* No MADV_HUGEPAGE: measured slower here (faulting huge pages in stalls
     * on compaction, and random probes ran no faster once mapped). */
    return p == MAP_FAILED ? NULL : p;
}

void pips_tt_free(const pips_allocator *a, void *table, size_t bytes)
{
    if (!table)
        return;
    if (a || bytes < TABLE_MAP_MIN)
        pips_free(a, table);
    else
        munmap(table, bytes);
}

size_t pips_tt_resident(const pips_allocator *a, const void *table, size_t bytes)
{
    long page = sysconf(_SC_PAGESIZE);
    if (a || bytes < TABLE_MAP_MIN || page <= 0)
        return bytes;
    size_t pages = (bytes + (size_t)page - 1) / (size_t)page, resident = 0;
    unsigned char vec[4096];
    for (size_t first = 0; first < pages; first += sizeof vec) {
        size_t n = pages - first < sizeof vec ? pages - first : sizeof vec;
        size_t len = n * (size_t)page;
        if (first * (size_t)page + len > bytes)
            len = bytes - first * (size_t)page;
        if (mincore((void *)((const char *)table + first * (size_t)page), len, vec) != 0)
            return bytes;
        for (size_t i = 0; i < n; i++)
            resident += vec[i] & 1;
    }
    return resident * (size_t)page < bytes ? resident * (size_t)page : bytes;
}

char *pips_strdup(const pips_allocator *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = pips_malloc(a, n);
    if (p)
        memcpy(p, s, n);
    return p;
}

static void *failing_realloc(void *ud, void *ptr, size_t size)
{
    pips_failing_allocator *fa = ud;
    fa->count++;
    if (fa->fail_at && fa->count >= fa->fail_at)
        return NULL;
    return realloc(ptr, size);
}

static void failing_free(void *ud, void *ptr)
{
    (void)ud;
    free(ptr);
}

void pips_failing_allocator_init(pips_failing_allocator *fa, unsigned long fail_at)
{
    fa->base.realloc = failing_realloc;
    fa->base.free = failing_free;
    fa->base.ud = fa;
    fa->count = 0;
    fa->fail_at = fail_at;
}

/* ---- PRNG ---- */

uint64_t pips_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t pips_splitmix64(uint64_t *state)
{
    *state += 0x9e3779b97f4a7c15ULL;
    return pips_mix64(*state);
}

void pips_rng_seed(pips_rng *rng, uint64_t seed)
{
    uint64_t sm = seed;
    for (int i = 0; i < 4; i++)
        rng->s[i] = pips_splitmix64(&sm);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t pips_rng_next(pips_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t pips_rng_below(pips_rng *rng, uint64_t n)
{
    /* Lemire's multiply-shift with rejection of the biased low zone. */
    uint64_t x = pips_rng_next(rng);
    __uint128_t m = (__uint128_t)x * n;
    uint64_t low = (uint64_t)m;
    if (low < n) {
        uint64_t threshold = (0 - n) % n;
        while (low < threshold) {
            x = pips_rng_next(rng);
            m = (__uint128_t)x * n;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

double pips_rng_double(pips_rng *rng) { return (double)(pips_rng_next(rng) >> 11) * 0x1.0p-53; }

void pips_rng_derive(pips_rng *out, uint64_t seed, uint64_t index)
{
    pips_rng_seed(out, pips_mix64(seed ^ pips_mix64(index + 0x632be59bd9b4e019ULL)));
}

/* ---- Zobrist ---- */

#define PIPS_ZOBRIST_SEED 0x5049505331ULL /* "PIPS1" */

uint64_t pips_zobrist_key(uint64_t index)
{
    return pips_mix64(PIPS_ZOBRIST_SEED + (index + 1) * 0x9e3779b97f4a7c15ULL);
}

/* ---- strings ---- */

void pips_str_init(pips_str *s, const pips_allocator *a)
{
    s->data = NULL;
    s->len = s->cap = 0;
    s->failed = false;
    s->alloc = a;
}

void pips_str_free(pips_str *s)
{
    pips_free(s->alloc, s->data);
    s->data = NULL;
    s->len = s->cap = 0;
}

void pips_str_clear(pips_str *s)
{
    s->len = 0;
    if (s->data)
        s->data[0] = '\0';
}

static bool str_reserve(pips_str *s, size_t extra)
{
    if (s->failed)
        return false;
    if (s->len + extra + 1 <= s->cap)
        return true;
    size_t cap = s->cap ? s->cap : 64;
    while (cap < s->len + extra + 1)
        cap *= 2;
    char *p = pips_realloc(s->alloc, s->data, cap);
    if (!p) {
        s->failed = true;
        return false;
    }
    s->data = p;
    s->cap = cap;
    return true;
}

void pips_str_catn(pips_str *s, const char *text, size_t n)
{
    if (!str_reserve(s, n))
        return;
    memcpy(s->data + s->len, text, n);
    s->len += n;
    s->data[s->len] = '\0';
}

void pips_str_cat(pips_str *s, const char *text) { pips_str_catn(s, text, strlen(text)); }

void pips_str_vcatf(pips_str *s, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0 || !str_reserve(s, (size_t)n))
        return;
    vsnprintf(s->data + s->len, (size_t)n + 1, fmt, ap);
    s->len += (size_t)n;
}

void pips_str_catf(pips_str *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pips_str_vcatf(s, fmt, ap);
    va_end(ap);
}

const char *pips_str_cstr(const pips_str *s) { return s->data ? s->data : ""; }

/* ---- parsing ---- */

bool pips_parse_int(const char *text, long lo, long hi, long *out)
{
    if (!text || !*text)
        return false;
    const char *p = text;
    if (*p == '-' || *p == '+')
        p++;
    if (*p < '0' || *p > '9')
        return false;
    errno = 0;
    char *end;
    long v = strtol(text, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

bool pips_parse_bool(const char *text, bool *out)
{
    if (!strcasecmp(text, "true") || !strcmp(text, "1") || !strcasecmp(text, "yes")) {
        *out = true;
        return true;
    }
    if (!strcasecmp(text, "false") || !strcmp(text, "0") || !strcasecmp(text, "no")) {
        *out = false;
        return true;
    }
    return false;
}

double pips_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
