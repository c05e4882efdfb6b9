/*
 * pips/core.h — services shared by every game and agent: error values, the
 * allocator hook, a seeded PRNG, Zobrist keys and a growable string.
 *
 * Invariants: nothing here keeps mutable global state; every random value
 * comes from a pips_rng the caller owns; every function that can fail takes a
 * pips_error * (which may be NULL) and returns false/NULL on failure.
 */
#ifndef PIPS_CORE_H
#define PIPS_CORE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* exported from libpips.so */
#endif

/* ---- errors ------------------------------------------------------------ */

#define PIPS_ERROR_MAX 512

typedef enum pips_status {
    PIPS_OK = 0,
    PIPS_ERR_ARG,      /* malformed input: option, move text, state text */
    PIPS_ERR_ILLEGAL,  /* well-formed but not legal here */
    PIPS_ERR_RECORD,   /* a record that fails to replay */
    PIPS_ERR_NOMEM,    /* allocation failed */
    PIPS_ERR_IO,       /* file or database */
    PIPS_ERR_UNSUPPORTED,
    PIPS_ERR_LIMIT,    /* a budget (time, nodes, memory) ran out */
    PIPS_ERR_SCRIPT    /* a Lua script failed while it ran (docs/lua.md): an error, the
                          sandbox's step or memory limit, a wrong value returned */
} pips_status;

/* An error value: a code and a message saying what was wrong and where. */
typedef struct pips_error {
    pips_status code;
    char msg[PIPS_ERROR_MAX];
} pips_error;

/* Sets *err (when err is non-NULL) and returns false, so callers can write
 * `return pips_fail(err, PIPS_ERR_ARG, "bad %s", x);`. */
bool pips_fail(pips_error *err, pips_status code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void pips_error_clear(pips_error *err);
/* Prefixes an existing message, e.g. "move 7: " + "cell b4 is full". */
void pips_error_prefix(pips_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- allocator hook ----------------------------------------------------- */

/* Every library allocation goes through one of these; NULL means malloc.
 * realloc(ud, NULL, n) allocates; free(ud, NULL) is a no-op. */
typedef struct pips_allocator {
    void *(*realloc)(void *ud, void *ptr, size_t size);
    void (*free)(void *ud, void *ptr);
    void *ud;
} pips_allocator;

void *pips_malloc(const pips_allocator *a, size_t size);
void *pips_calloc(const pips_allocator *a, size_t n, size_t size);
void *pips_realloc(const pips_allocator *a, void *ptr, size_t size);
void pips_free(const pips_allocator *a, void *ptr);
char *pips_strdup(const pips_allocator *a, const char *s);

/* A large zero-filled table (a solver's transposition table). With the
 * default allocator it is mapped from the system, so its pages are filled
 * only when first touched: a table sized by a budget costs what the search
 * uses, and nothing is cleared up front. A custom allocator gets pips_calloc. Free with pips_tt_free and the same size. */
void *pips_tt_alloc(const pips_allocator *a, size_t bytes);
void pips_tt_free(const pips_allocator *a, void *table, size_t bytes);
/* Bytes of the table now resident in memory (the whole table when the
 * system cannot tell, or for a custom allocator's table). */
size_t pips_tt_resident(const pips_allocator *a, const void *table, size_t bytes);

/* A test allocator that fails the Nth allocation (1-based; 0 = never). */
typedef struct pips_failing_allocator {
    pips_allocator base;
    unsigned long count;   /* allocations attempted so far */
    unsigned long fail_at; /* this one and every later one fails */
} pips_failing_allocator;
void pips_failing_allocator_init(pips_failing_allocator *fa, unsigned long fail_at);

/* ---- PRNG: xoshiro256** seeded through splitmix64 ------------------------ */

typedef struct pips_rng {
    uint64_t s[4];
} pips_rng;

uint64_t pips_splitmix64(uint64_t *state);
/* A stateless 64-bit mix (splitmix64's finaliser): equal input, equal output. */
uint64_t pips_mix64(uint64_t x);
void pips_rng_seed(pips_rng *rng, uint64_t seed);
uint64_t pips_rng_next(pips_rng *rng);
/* Uniform in [0, n) without modulo bias; n > 0. */
uint64_t pips_rng_below(pips_rng *rng, uint64_t n);
/* Uniform double in [0, 1). */
double pips_rng_double(pips_rng *rng);
/* An independent stream for sub-task `index` (thread, game number...). */
void pips_rng_derive(pips_rng *out, uint64_t seed, uint64_t index);

/* ---- Zobrist keys --------------------------------------------------------- */

/* The Zobrist key of feature `index`, from a fixed seed, equal on every run
 * and every machine. Games usually cache the keys they need in their config. */
uint64_t pips_zobrist_key(uint64_t index);

/* ---- growable string -------------------------------------------------------- */

/* A NUL-terminated growable string. When an allocation fails `failed` is set,
 * later appends are ignored and the text stays a valid (truncated) string. */
typedef struct pips_str {
    char *data;
    size_t len, cap;
    bool failed;
    const pips_allocator *alloc;
} pips_str;

void pips_str_init(pips_str *s, const pips_allocator *a);
void pips_str_free(pips_str *s);
void pips_str_clear(pips_str *s);
void pips_str_cat(pips_str *s, const char *text);
void pips_str_catn(pips_str *s, const char *text, size_t n);
void pips_str_catf(pips_str *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void pips_str_vcatf(pips_str *s, const char *fmt, va_list ap);
/* The text, never NULL ("" before the first append). */
const char *pips_str_cstr(const pips_str *s);

/* ---- small text helpers used by parsers ----------------------------------- */

/* Parses a whole decimal integer in [lo, hi]; false on any trailing junk. */
bool pips_parse_int(const char *text, long lo, long hi, long *out);
/* Parses "true"/"false" (also 1/0, yes/no). */
bool pips_parse_bool(const char *text, bool *out);

/* Monotonic clock in seconds, for budgets and reports. */
double pips_now(void);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
