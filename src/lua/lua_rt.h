/*
 * lua_rt.h — the sandboxed Lua runtime behind rule scripts and Lua games
 * (docs/lua.md), internal to the library.
 *
 * A script runs in Lua states that open only base (without load, loadfile,
 * dofile, require, collectgarbage, print), string (without dump), table, math
 * (without random, randomseed: every random choice comes from pips' seeded
 * generators) and utf8. Chunks are text only. Every call into a script is
 * bounded by an instruction budget (a count hook) and every state by a
 * memory cap (its allocator).
 *
 * Lua states are per thread: an lrt_pool keeps one lrt_ctx (a lua_State and
 * the game's caches) per thread that uses the game, found by thread id
 * without a lock once made. No Lua value crosses threads: what threads share
 * is text (the script, state texts) and the pool's failure.
 *
 * Hooks of the game interface cannot return errors, so a failing call
 * (a script error, a limit, a wrong return type) records the pool's first
 * failure; from then on every position of the game reads as over and
 * pips_game_failed() reports the message, which names the file, line,
 * function and hook. A front end clears it once it has reported it.
 */
#ifndef PIPS_LUA_RT_H
#define PIPS_LUA_RT_H

#include "pips/game.h"

#include <lua.h>
#include <pthread.h>
#include <stdatomic.h>

#define LRT_MAX_THREADS 128
#define LRT_DEFAULT_STEPS 10000000L /* instructions per call into a script */
#define LRT_DEFAULT_MB 64L          /* memory per Lua state */

typedef struct lrt_pool lrt_pool;

/* One thread's Lua state for one game. `user` is the game kind's cache. */
typedef struct lrt_ctx {
    lua_State *L;
    lrt_pool *pool;
    size_t mem_used, mem_cap;
    long steps_cap, steps_used;
    const char *hook; /* the script function being called, for messages */
    void *user;
    void *keys; /* lrt_canon's scratch: the keys of the tables being written */
    size_t keys_cap;
} lrt_ctx;

struct lrt_pool {
    pthread_mutex_t mu;
    atomic_int n;
    struct {
        atomic_ulong tid;
        lrt_ctx *ctx;
    } slot[LRT_MAX_THREADS];
    atomic_bool failed;
    pips_error failure; /* the first failure (under mu) */
    const char *file;   /* the script's name, for messages */
    const char *text;   /* the script's text */
    size_t text_len;
    long steps, mb;
    /* Run once in each new state, protected, with the script's chunk result on
     * the stack top (the value the file returns): sets ctx->user. */
    int (*setup)(lua_State *L);
    void (*cleanup)(lrt_ctx *c); /* frees ctx->user (the state is still open) */
    void *setup_arg;             /* ctx->user when setup starts */
};

/* Starts a pool (no Lua state yet). file and text must outlive it. */
void lrt_pool_init(lrt_pool *p, const char *file, const char *text, size_t len, long steps,
                   long mb, int (*setup)(lua_State *L), void (*cleanup)(lrt_ctx *c));
void lrt_pool_destroy(lrt_pool *p);
/* This thread's context, made on first use; NULL (and the pool failed)
 * when the state cannot be made or the script does not load. */
lrt_ctx *lrt_get(lrt_pool *p);
/* The ctx of a state (its extra space holds it). */
lrt_ctx *lrt_of(lua_State *L);

/* Runs fn(L) with one light userdata argument, protected, with a fresh
 * step budget; hook names the script function for messages. On an error
 * records the pool's failure and returns false. fn's results are left on
 * the stack (nres of them) when it succeeds; the caller pops them. */
bool lrt_run(lrt_ctx *c, const char *hook, lua_CFunction fn, void *arg, int nres);
/* The same, but an error goes to *err and leaves the pool's failure alone
 * (for calls on the user's input, such as parsing a state text). */
bool lrt_run_err(lrt_ctx *c, const char *hook, lua_CFunction fn, void *arg, int nres,
                 pips_error *err);
/* Records a failure (the first one wins), prefixed with the file. */
void lrt_failf(lrt_pool *p, pips_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
bool lrt_failed(lrt_pool *p, pips_error *err);
void lrt_clear(lrt_pool *p);

/* Loads a script once in a throw-away sandbox to check it and read its
 * returned value: fn(L) runs protected with that value on the stack top.
 * For reading a game's name, options and description at load time. */
bool lrt_inspect(const char *file, const char *text, size_t len, long steps, long mb,
                 lua_CFunction fn, void *arg, pips_error *err);

/* Raises a Lua error with a printf-style message (luaL_error takes only a
 * few formats). Never returns. */
int lrt_raise(lua_State *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- values ------------------------------------------------------------- */

/* Pushes a jansson value as Lua (arrays become sequences, null nil). Raises
 * a Lua error on a failure. */
void lrt_push_json(lua_State *L, const struct json_t *v, int depth);
/* The Lua value at idx as jansson (sequences become arrays, tables with
 * string keys objects). Raises a Lua error naming `what` on a value JSON
 * cannot hold (checked before anything is built, so nothing leaks). */
struct json_t *lrt_to_json(lua_State *L, int idx, const char *what, int depth);
/* Writes the canonical text of the Lua value at idx into out (cap bytes,
 * NUL-terminated): equal values give equal text (keys sorted), so states
 * compare with memcmp. Raises a Lua error naming `what` on functions,
 * cycles, non-finite numbers or a text longer than cap - 1. Returns the length. */
size_t lrt_canon(lua_State *L, int idx, char *out, size_t cap, const char *what);
/* Parses canonical text (or any text of that grammar) and pushes the value;
 * false with *err (nothing pushed) on malformed text. Raises only on memory. */
bool lrt_parse(lua_State *L, const char *text, size_t len, pips_error *err);

/* SHA-256 of data as 64 lower-case hex digits and a NUL. */
void lrt_sha256_hex(const void *data, size_t len, char out[65]);

/* Reads a whole file (at most 1 MiB) into a malloc'ed NUL-terminated buffer. */
char *lrt_read_file(const char *path, size_t *len, pips_error *err);

#endif
