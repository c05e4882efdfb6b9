/*
 * lua_rt.c — the sandboxed Lua runtime (see lua_rt.h): states with a memory
 * cap and an instruction budget, the per-thread pool, protected calls whose
 * errors name the file, line and function, conversions between Lua values,
 * JSON and canonical state text, and SHA-256 for records.
 *
 * Every Lua API call that may allocate runs inside lrt_run's lua_pcall, so
 * a memory error or a limit never escapes as a panic.
 */
#include "lua/lua_rt.h"

#include <errno.h>
#include <jansson.h>
#include <lauxlib.h>
#include <lualib.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOOK_EVERY 1000 /* instructions between two looks at the budget */
#define MAX_DEPTH 64

_Static_assert(sizeof(pthread_t) <= sizeof(unsigned long), "pthread_t fits an unsigned long");

lrt_ctx *lrt_of(lua_State *L) { return *(lrt_ctx **)lua_getextraspace(L); }

static void *capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    lrt_ctx *c = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        c->mem_used -= old;
        return NULL;
    }
    if (nsize > old && c->mem_used - old + nsize > c->mem_cap)
        return NULL;
    void *q = realloc(ptr, nsize);
    if (q)
        c->mem_used = c->mem_used - old + nsize;
    return q;
}

int lrt_raise(lua_State *L, const char *fmt, ...)
{
    char msg[PIPS_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    lua_pushstring(L, msg);
    return lua_error(L);
}

static void count_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    lrt_ctx *c = lrt_of(L);
    c->steps_used += HOOK_EVERY;
    if (c->steps_used > c->steps_cap)
        lrt_raise(L, "instruction limit reached (%ld steps per call; --lua-steps)",
                   c->steps_cap);
}

/* ---- failures ------------------------------------------------------------- */

void lrt_failf(lrt_pool *p, pips_status code, const char *fmt, ...)
{
    pthread_mutex_lock(&p->mu);
    if (!atomic_load(&p->failed)) {
        va_list ap;
        va_start(ap, fmt);
        p->failure.code = code;
        vsnprintf(p->failure.msg, sizeof p->failure.msg, fmt, ap);
        va_end(ap);
        atomic_store(&p->failed, true);
    }
    pthread_mutex_unlock(&p->mu);
}

bool lrt_failed(lrt_pool *p, pips_error *err)
{
    if (!atomic_load_explicit(&p->failed, memory_order_acquire))
        return false;
    if (err) {
        pthread_mutex_lock(&p->mu);
        *err = p->failure;
        pthread_mutex_unlock(&p->mu);
    }
    return true;
}

void lrt_clear(lrt_pool *p)
{
    pthread_mutex_lock(&p->mu);
    atomic_store(&p->failed, false);
    pips_error_clear(&p->failure);
    pthread_mutex_unlock(&p->mu);
}

/* The message handler: "FILE:LINE: in function 'F': MESSAGE", from the
 * innermost Lua function on the stack. */
static int message_handler(lua_State *L)
{
    lrt_ctx *c = lrt_of(L);
    const char *msg = lua_type(L, 1) == LUA_TSTRING ? lua_tostring(L, 1) : NULL;
    if (!msg)
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    lua_Debug ar;
    for (int level = 1; lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "Sln", &ar) || strcmp(ar.what, "C") == 0)
            continue;
        /* drop the "src:line: " prefix Lua put on the message itself */
        size_t sl = strlen(ar.short_src);
        if (!strncmp(msg, ar.short_src, sl) && msg[sl] == ':') {
            const char *rest = strchr(msg + sl + 1, ':');
            if (rest && rest[1] == ' ')
                msg = rest + 2;
        }
        const char *hook = c->hook ? c->hook : "?";
        const char *fn = ar.name ? ar.name : strcmp(ar.what, "main") == 0 ? "main chunk" : hook;
        if (strcmp(fn, hook) != 0)
            lua_pushfstring(L, "%s:%d: in function '%s' (called from %s): %s", ar.short_src,
                            ar.currentline, fn, hook, msg);
        else
            lua_pushfstring(L, "%s:%d: in function '%s': %s", ar.short_src, ar.currentline,
                            fn, msg);
        return 1;
    }
    size_t fl = strlen(c->pool->file);
    if (!strncmp(msg, c->pool->file, fl) && msg[fl] == ':')
        lua_pushstring(L, msg); /* our own message, which names the file already */
    else
        lua_pushfstring(L, "%s: in %s: %s", c->pool->file, c->hook ? c->hook : "?", msg);
    return 1;
}

bool lrt_run(lrt_ctx *c, const char *hook, lua_CFunction fn, void *arg, int nres)
{
    return lrt_run_err(c, hook, fn, arg, nres, NULL);
}

bool lrt_run_err(lrt_ctx *c, const char *hook, lua_CFunction fn, void *arg, int nres,
                 pips_error *err)
{
    lua_State *L = c->L;
    int base = lua_gettop(L);
    lua_pushcfunction(L, message_handler);
    lua_pushcfunction(L, fn);
    lua_pushlightuserdata(L, arg);
    c->hook = hook;
    c->steps_used = 0;
    int rc = lua_pcall(L, 1, nres, base + 1);
    if (rc == LUA_OK) {
        lua_remove(L, base + 1);
        return true;
    }
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "script error";
    pips_status code = PIPS_ERR_SCRIPT; /* a limit too: the message says which */
    if (rc == LUA_ERRMEM && err)
        pips_fail(err, code, "%s: in %s: memory limit of %ld MiB reached (--lua-mb)",
                  c->pool->file, hook, c->pool->mb);
    else if (rc == LUA_ERRMEM)
        lrt_failf(c->pool, code, "%s: in %s: memory limit of %ld MiB reached (--lua-mb)",
                  c->pool->file, hook, c->pool->mb);
    else if (err)
        pips_fail(err, code, "%s", msg);
    else
        lrt_failf(c->pool, code, "%s", msg);
    lua_settop(L, base);
    return false;
}

/* ---- states and the pool ---------------------------------------------------- */

static int open_sandbox(lua_State *L)
{
    static const struct {
        const char *name;
        lua_CFunction open;
    } libs[] = {{LUA_GNAME, luaopen_base},
                {LUA_STRLIBNAME, luaopen_string},
                {LUA_TABLIBNAME, luaopen_table},
                {LUA_MATHLIBNAME, luaopen_math},
                {LUA_UTF8LIBNAME, luaopen_utf8}};
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++) {
        luaL_requiref(L, libs[i].name, libs[i].open, 1);
        lua_pop(L, 1);
    }
    static const char *const no_base[] = {"load", "loadfile", "dofile", "require",
                                          "collectgarbage", "print"};
    lua_pushglobaltable(L);
    for (size_t i = 0; i < sizeof no_base / sizeof no_base[0]; i++) {
        lua_pushnil(L);
        lua_setfield(L, -2, no_base[i]);
    }
    lua_getfield(L, -1, LUA_STRLIBNAME);
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    lua_pop(L, 1);
    lua_getfield(L, -1, LUA_MATHLIBNAME);
    lua_pushnil(L);
    lua_setfield(L, -2, "random");
    lua_pushnil(L);
    lua_setfield(L, -2, "randomseed");
    lua_pop(L, 2);
    return 0;
}

/* Loads and runs the script (text only), then the pool's setup with the
 * returned value on top. */
static int load_script(lua_State *L)
{
    lrt_ctx *c = lrt_of(L);
    open_sandbox(L);
    char name[300];
    snprintf(name, sizeof name, "@%s", c->pool->file);
    int rc = luaL_loadbufferx(L, c->pool->text, c->pool->text_len, name, "t");
    if (rc != LUA_OK)
        return lua_error(L); /* a syntax error or a binary chunk */
    lua_call(L, 0, 1);
    return c->pool->setup(L);
}

static lrt_ctx *ctx_new(lrt_pool *p, void *user)
{
    lrt_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        lrt_failf(p, PIPS_ERR_NOMEM, "%s: out of memory for a Lua state", p->file);
        return NULL;
    }
    c->pool = p;
    c->mem_cap = (size_t)p->mb << 20;
    c->steps_cap = p->steps;
    c->user = user;
    c->L = lua_newstate(capped_alloc, c);
    if (!c->L) {
        lrt_failf(p, PIPS_ERR_NOMEM, "%s: out of memory for a Lua state", p->file);
        free(c);
        return NULL;
    }
    *(lrt_ctx **)lua_getextraspace(c->L) = c;
    lua_sethook(c->L, count_hook, LUA_MASKCOUNT, HOOK_EVERY);
    if (!lrt_run(c, "loading", load_script, NULL, 0)) {
        if (p->cleanup)
            p->cleanup(c);
        lua_close(c->L);
        free(c);
        return NULL;
    }
    return c;
}

static void ctx_free(lrt_ctx *c)
{
    if (!c)
        return;
    if (c->pool->cleanup)
        c->pool->cleanup(c);
    lua_close(c->L);
    free(c->keys);
    free(c);
}

void lrt_pool_init(lrt_pool *p, const char *file, const char *text, size_t len, long steps,
                   long mb, int (*setup)(lua_State *L), void (*cleanup)(lrt_ctx *c))
{
    memset(p, 0, sizeof *p);
    pthread_mutex_init(&p->mu, NULL);
    atomic_init(&p->n, 0);
    atomic_init(&p->failed, false);
    p->file = file;
    p->text = text;
    p->text_len = len;
    p->steps = steps > 0 ? steps : LRT_DEFAULT_STEPS;
    p->mb = mb > 0 ? mb : LRT_DEFAULT_MB;
    p->setup = setup;
    p->cleanup = cleanup;
}

void lrt_pool_destroy(lrt_pool *p)
{
    int n = atomic_load(&p->n);
    for (int i = 0; i < n; i++)
        ctx_free(p->slot[i].ctx);
    atomic_store(&p->n, 0);
    pthread_mutex_destroy(&p->mu);
}

lrt_ctx *lrt_get(lrt_pool *p)
{
    unsigned long self = (unsigned long)pthread_self();
    int n = atomic_load_explicit(&p->n, memory_order_acquire);
    for (int i = 0; i < n; i++)
        if (atomic_load_explicit(&p->slot[i].tid, memory_order_relaxed) == self)
            return p->slot[i].ctx;
    /* only this thread adds its own slot, so a second scan is not needed */
    lrt_ctx *c = ctx_new(p, p->setup_arg);
    if (!c)
        return NULL;
    pthread_mutex_lock(&p->mu);
    n = atomic_load(&p->n);
    if (n == LRT_MAX_THREADS) {
        pthread_mutex_unlock(&p->mu);
        ctx_free(c);
        lrt_failf(p, PIPS_ERR_LIMIT, "%s: more than %d threads use one Lua game", p->file,
                  LRT_MAX_THREADS);
        return NULL;
    }
    p->slot[n].ctx = c;
    atomic_store_explicit(&p->slot[n].tid, self, memory_order_relaxed);
    atomic_store_explicit(&p->n, n + 1, memory_order_release);
    pthread_mutex_unlock(&p->mu);
    return c;
}

bool lrt_inspect(const char *file, const char *text, size_t len, long steps, long mb,
                 lua_CFunction fn, void *arg, pips_error *err)
{
    lrt_pool p;
    lrt_pool_init(&p, file, text, len, steps, mb, fn, NULL);
    lrt_ctx *c = calloc(1, sizeof *c);
    bool ok = false;
    if (!c) {
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory for a Lua state");
        goto done;
    }
    c->pool = &p;
    c->mem_cap = (size_t)p.mb << 20;
    c->steps_cap = p.steps;
    c->user = arg;
    c->L = lua_newstate(capped_alloc, c);
    if (!c->L) {
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory for a Lua state");
        goto done;
    }
    *(lrt_ctx **)lua_getextraspace(c->L) = c;
    lua_sethook(c->L, count_hook, LUA_MASKCOUNT, HOOK_EVERY);
    ok = lrt_run(c, "loading", load_script, NULL, 0);
    if (!ok)
        lrt_failed(&p, err);
done:
    if (c && c->L)
        lua_close(c->L);
    if (c)
        free(c->keys);
    free(c);
    pthread_mutex_destroy(&p.mu);
    return ok;
}

/* ---- JSON ------------------------------------------------------------------- */

void lrt_push_json(lua_State *L, const json_t *v, int depth)
{
    if (depth > MAX_DEPTH)
        lrt_raise(L, "value nests deeper than %d", MAX_DEPTH);
    luaL_checkstack(L, 4, "value nests too deep");
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        lua_createtable(L, 0, (int)json_object_size(v));
        const char *key;
        json_t *val;
        json_object_foreach((json_t *)v, key, val)
        {
            lrt_push_json(L, val, depth + 1);
            lua_setfield(L, -2, key);
        }
        break;
    }
    case JSON_ARRAY:
        lua_createtable(L, (int)json_array_size(v), 0);
        for (size_t i = 0; i < json_array_size(v); i++) {
            lrt_push_json(L, json_array_get(v, i), depth + 1);
            lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
        break;
    case JSON_STRING: lua_pushlstring(L, json_string_value(v), json_string_length(v)); break;
    case JSON_INTEGER: lua_pushinteger(L, (lua_Integer)json_integer_value(v)); break;
    case JSON_REAL: lua_pushnumber(L, json_real_value(v)); break;
    case JSON_TRUE: lua_pushboolean(L, 1); break;
    case JSON_FALSE: lua_pushboolean(L, 0); break;
    default: lua_pushnil(L); break;
    }
}

/* Entries of the table at idx when its keys are exactly 1..n, else -1. */
static lua_Integer sequence_length(lua_State *L, int idx)
{
    idx = lua_absindex(L, idx);
    lua_Integer count = 0;
    bool seq = true;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1)
            seq = false;
        count++;
    }
    if (!seq)
        return -1;
    for (lua_Integer i = 1; i <= count; i++) {
        bool present = lua_rawgeti(L, idx, i) != LUA_TNIL;
        lua_pop(L, 1);
        if (!present)
            return -1;
    }
    return count;
}

/* Builds the value; json_check has run first, so only memory can fail here. */
static json_t *to_json_rec(lua_State *L, int idx, const char *what, int depth)
{
    if (depth > MAX_DEPTH)
        lrt_raise(L, "%s nests deeper than %d (or holds a cycle)", what, MAX_DEPTH);
    luaL_checkstack(L, 6, "value nests too deep");
    idx = lua_absindex(L, idx);
    switch (lua_type(L, idx)) {
    case LUA_TNIL: return json_null();
    case LUA_TBOOLEAN: return json_boolean(lua_toboolean(L, idx));
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx))
            return json_integer((json_int_t)lua_tointeger(L, idx));
        if (!isfinite(lua_tonumber(L, idx)))
            lrt_raise(L, "%s holds a number JSON cannot write (inf or nan)", what);
        return json_real(lua_tonumber(L, idx));
    case LUA_TSTRING: {
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        return json_stringn_nocheck(s, len);
    }
    case LUA_TTABLE: break;
    default: lrt_raise(L, "%s holds a %s, which JSON cannot hold", what, luaL_typename(L, idx));
    }
    lua_Integer n = sequence_length(L, idx);
    if (n >= 0) {
        json_t *arr = json_array();
        for (lua_Integer i = 1; arr && i <= n; i++) {
            lua_rawgeti(L, idx, i);
            json_t *item = to_json_rec(L, -1, what, depth + 1);
            lua_pop(L, 1);
            json_array_append_new(arr, item);
        }
        return arr;
    }
    json_t *obj = json_object();
    lua_pushnil(L);
    while (obj && lua_next(L, idx)) {
        if (lua_type(L, -2) != LUA_TSTRING) {
            json_decref(obj);
            lrt_raise(L, "%s has a %s key: JSON objects have string keys", what,
                       luaL_typename(L, -2));
        }
        json_t *item = to_json_rec(L, -1, what, depth + 1);
        json_object_set_new(obj, lua_tostring(L, -2), item);
        lua_pop(L, 1);
    }
    return obj;
}

/* Checks first (raising on anything JSON cannot hold) so that building,
 * which then cannot raise except on memory, leaks nothing on a bad value. */
static void json_check(lua_State *L, int idx, const char *what, int depth)
{
    if (depth > MAX_DEPTH)
        lrt_raise(L, "%s nests deeper than %d (or holds a cycle)", what, MAX_DEPTH);
    luaL_checkstack(L, 6, "value nests too deep");
    idx = lua_absindex(L, idx);
    int t = lua_type(L, idx);
    if (t == LUA_TNUMBER && !lua_isinteger(L, idx) && !isfinite(lua_tonumber(L, idx)))
        lrt_raise(L, "%s holds a number JSON cannot write (inf or nan)", what);
    if (t == LUA_TFUNCTION || t == LUA_TUSERDATA || t == LUA_TTHREAD ||
        t == LUA_TLIGHTUSERDATA)
        lrt_raise(L, "%s holds a %s, which JSON cannot hold", what, luaL_typename(L, idx));
    if (t != LUA_TTABLE)
        return;
    bool seq = sequence_length(L, idx) >= 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (!seq && lua_type(L, -2) != LUA_TSTRING)
            lrt_raise(L, "%s has a %s key: JSON objects have string keys", what,
                       luaL_typename(L, -2));
        json_check(L, -1, what, depth + 1);
        lua_pop(L, 1);
    }
}

json_t *lrt_to_json(lua_State *L, int idx, const char *what, int depth)
{
    json_check(L, idx, what, depth);
    return to_json_rec(L, idx, what, depth);
}

/* ---- canonical state text --------------------------------------------------- */

typedef struct canon_out {
    lua_State *L;
    char *buf;
    size_t len, cap;
    const char *what;
    size_t keys_top; /* entries of the ctx's key scratch in use by the tables being written */
} canon_out;

static void put(canon_out *o, const char *s, size_t n)
{
    if (o->len + n >= o->cap)
        lrt_raise(o->L, "%s: its text is longer than %zu bytes (set state_bytes higher)",
                   o->what, o->cap - 1);
    memcpy(o->buf + o->len, s, n);
    o->len += n;
}

static void put_string(canon_out *o, const char *s, size_t n)
{
    put(o, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        size_t run = i; /* the plain bytes from i, copied at once */
        while (run < n && s[run] != '"' && s[run] != '\\' && (unsigned char)s[run] >= 32 &&
               s[run] != 127)
            run++;
        if (run > i) {
            put(o, s + i, run - i);
            i = run - 1;
            continue;
        }
        unsigned char ch = (unsigned char)s[i];
        char esc[8];
        if (ch == '"' || ch == '\\') {
            esc[0] = '\\';
            esc[1] = (char)ch;
            put(o, esc, 2);
        } else if (ch < 32 || ch == 127) {
            snprintf(esc, sizeof esc, "\\%03u", ch);
            put(o, esc, 4);
        } else {
            put(o, (const char *)&s[i], 1);
        }
    }
    put(o, "\"", 1);
}

static void put_number(canon_out *o, int idx)
{
    char num[40];
    int n;
    if (lua_isinteger(o->L, idx)) { /* by hand: states are mostly small integers */
        lua_Integer v = lua_tointeger(o->L, idx);
        unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
        char digits[24];
        int k = 0;
        do
            digits[k++] = (char)('0' + u % 10);
        while ((u /= 10) > 0);
        n = 0;
        if (v < 0)
            num[n++] = '-';
        while (k > 0)
            num[n++] = digits[--k];
    } else {
        double d = lua_tonumber(o->L, idx);
        if (!isfinite(d))
            lrt_raise(o->L, "%s holds inf or nan", o->what);
        n = snprintf(num, sizeof num, "%.17g", d);
        if (!strpbrk(num, ".e"))
            n += snprintf(num + n, sizeof num - (size_t)n, ".0");
    }
    put(o, num, (size_t)n);
}

static bool is_ident(const char *s, size_t n)
{
    if (!n || !(s[0] == '_' || ((s[0] | 32) >= 'a' && (s[0] | 32) <= 'z')))
        return false;
    for (size_t i = 1; i < n; i++)
        if (!(s[i] == '_' || (s[i] >= '0' && s[i] <= '9') ||
              ((s[i] | 32) >= 'a' && (s[i] | 32) <= 'z')))
            return false;
    return !(n == 4 && !memcmp(s, "true", 4)) && !(n == 5 && !memcmp(s, "false", 5));
}

typedef struct key_ref {
    int rank; /* 0 boolean, 1 number, 2 string */
    double num;
    const char *s;
    size_t len;
    int slot; /* the key's stack index */
} key_ref;

static int key_cmp(const void *pa, const void *pb)
{
    const key_ref *a = pa, *b = pb;
    if (a->rank != b->rank)
        return a->rank - b->rank;
    if (a->rank < 2)
        return (a->num > b->num) - (a->num < b->num);
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->s, b->s, n);
    return c ? c : (a->len > b->len) - (a->len < b->len);
}

static void canon_value(canon_out *o, int idx, int depth);

/* The key scratch with room for need entries (it may move: callers keep
 * offsets, not pointers, across a nested table). */
static key_ref *canon_keys(canon_out *o, size_t need)
{
    lrt_ctx *c = lrt_of(o->L);
    if (need > c->keys_cap) {
        size_t cap = c->keys_cap ? c->keys_cap : 64;
        while (cap < need)
            cap *= 2;
        void *p = realloc(c->keys, cap * sizeof(key_ref));
        if (!p)
            lrt_raise(o->L, "out of memory writing %s", o->what);
        c->keys = p;
        c->keys_cap = cap;
    }
    return c->keys;
}

/* The array part 1..n in order, then the other keys sorted (booleans,
 * numbers, strings). The keys wait on the Lua stack and are sorted in the
 * ctx's scratch: writing a state allocates nothing on the Lua side. */
static void canon_table(canon_out *o, int idx, int depth)
{
    lua_State *L = o->L;
    put(o, "{", 1);
    lua_Integer n = 0;
    while (lua_rawgeti(L, idx, n + 1) != LUA_TNIL) {
        if (n)
            put(o, ",", 1);
        canon_value(o, lua_gettop(L), depth + 1);
        lua_pop(L, 1);
        n++;
    }
    lua_pop(L, 1);
    int base = lua_gettop(L);
    size_t start = o->keys_top, nk = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (lua_isinteger(L, -2) && lua_tointeger(L, -2) >= 1 && lua_tointeger(L, -2) <= n) {
            lua_pop(L, 1);
            continue;
        }
        int t = lua_type(L, -2);
        if (t != LUA_TSTRING && t != LUA_TNUMBER && t != LUA_TBOOLEAN)
            lrt_raise(L, "%s has a %s as a key", o->what, luaL_typename(L, -2));
        luaL_checkstack(L, 4, "a table of the state has too many keys");
        /* the key and its value stay on the stack, below the key lua_next
         * goes on from: [key value key] */
        lua_pushvalue(L, -2);
        lua_rotate(L, -3, 1);
        lua_rotate(L, -2, 1);
        int slot = base + 2 * (int)nk + 1;
        key_ref *kr = canon_keys(o, start + nk + 1) + start + nk;
        kr->slot = slot;
        kr->rank = t == LUA_TBOOLEAN ? 0 : t == LUA_TNUMBER ? 1 : 2;
        kr->num = t == LUA_TBOOLEAN ? lua_toboolean(L, slot) : t == LUA_TNUMBER ? lua_tonumber(L, slot) : 0;
        kr->s = t == LUA_TSTRING ? lua_tolstring(L, slot, &kr->len) : NULL; /* on the stack */
        nk++;
    }
    if (nk) {
        key_ref *ks = canon_keys(o, start + nk) + start;
        if (nk > 16) {
            qsort(ks, nk, sizeof *ks, key_cmp);
        } else { /* most tables have a few keys: insertion sort */
            for (size_t i = 1; i < nk; i++) {
                key_ref k = ks[i];
                size_t j = i;
                for (; j > 0 && key_cmp(&ks[j - 1], &k) > 0; j--)
                    ks[j] = ks[j - 1];
                ks[j] = k;
            }
        }
        o->keys_top = start + nk;
        for (size_t i = 0; i < nk; i++) {
            key_ref kr = canon_keys(o, 0)[start + i]; /* a copy: nested tables may move it */
            if (n || i)
                put(o, ",", 1);
            if (kr.rank == 2 && is_ident(kr.s, kr.len)) {
                put(o, kr.s, kr.len);
            } else {
                put(o, "[", 1);
                canon_value(o, kr.slot, depth + 1);
                put(o, "]", 1);
            }
            put(o, "=", 1);
            canon_value(o, kr.slot + 1, depth + 1);
        }
        o->keys_top = start;
    }
    lua_settop(L, base);
    put(o, "}", 1);
}

static void canon_value(canon_out *o, int idx, int depth)
{
    lua_State *L = o->L;
    if (depth > MAX_DEPTH)
        lrt_raise(L, "%s nests deeper than %d (or holds a cycle)", o->what, MAX_DEPTH);
    luaL_checkstack(L, 8, "state nests too deep");
    switch (lua_type(L, idx)) {
    case LUA_TBOOLEAN:
        if (lua_toboolean(L, idx))
            put(o, "true", 4);
        else
            put(o, "false", 5);
        break;
    case LUA_TNUMBER: put_number(o, idx); break;
    case LUA_TSTRING: {
        size_t n;
        const char *s = lua_tolstring(L, idx, &n);
        put_string(o, s, n);
        break;
    }
    case LUA_TTABLE: canon_table(o, idx, depth); break;
    default:
        lrt_raise(L, "%s holds a %s value; states hold tables, strings, numbers and booleans",
                   o->what, luaL_typename(L, idx));
    }
}

size_t lrt_canon(lua_State *L, int idx, char *out, size_t cap, const char *what)
{
    canon_out o = {L, out, 0, cap, what, 0};
    canon_value(&o, lua_absindex(L, idx), 0);
    out[o.len] = '\0';
    return o.len;
}

/* ---- parsing canonical text ---------------------------------------------- */

typedef struct parser {
    lua_State *L;
    const char *p, *end, *start;
    pips_error *err;
} parser;

static bool perr(parser *ps, const char *what)
{
    return pips_fail(ps->err, PIPS_ERR_ARG, "state text: %s at byte %zu", what,
                     (size_t)(ps->p - ps->start));
}

static bool parse_value(parser *ps, int depth);

static bool parse_string(parser *ps)
{
    ps->p++; /* the opening quote */
    luaL_Buffer b;
    luaL_buffinit(ps->L, &b);
    while (ps->p < ps->end && *ps->p != '"') {
        char ch = *ps->p++;
        if (ch == '\\') {
            if (ps->p >= ps->end)
                break;
            char e = *ps->p++;
            if (e >= '0' && e <= '9') {
                int v = e - '0';
                for (int k = 0; k < 2 && ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9'; k++)
                    v = v * 10 + (*ps->p++ - '0');
                if (v > 255) {
                    luaL_pushresult(&b);
                    lua_pop(ps->L, 1);
                    return perr(ps, "escape above \\255");
                }
                ch = (char)v;
            } else if (e == 'n') {
                ch = '\n';
            } else if (e == 't') {
                ch = '\t';
            } else if (e == 'r') {
                ch = '\r';
            } else {
                ch = e;
            }
        }
        luaL_addchar(&b, ch);
    }
    luaL_pushresult(&b);
    if (ps->p >= ps->end) {
        lua_pop(ps->L, 1);
        return perr(ps, "unterminated string");
    }
    ps->p++;
    return true;
}

static bool parse_number(parser *ps)
{
    const char *s = ps->p;
    bool is_float = false;
    if (ps->p < ps->end && *ps->p == '-')
        ps->p++;
    while (ps->p < ps->end &&
           ((*ps->p >= '0' && *ps->p <= '9') || *ps->p == '.' || *ps->p == 'e' ||
            *ps->p == 'E' || ((*ps->p == '+' || *ps->p == '-') && (ps->p[-1] | 32) == 'e'))) {
        if (*ps->p == '.' || (*ps->p | 32) == 'e')
            is_float = true;
        ps->p++;
    }
    char num[64];
    size_t n = (size_t)(ps->p - s);
    if (n == 0 || n >= sizeof num)
        return perr(ps, "bad number");
    memcpy(num, s, n);
    num[n] = '\0';
    char *endp;
    errno = 0;
    if (!is_float) {
        long long v = strtoll(num, &endp, 10);
        if (*endp || errno)
            return perr(ps, "bad integer");
        lua_pushinteger(ps->L, (lua_Integer)v);
    } else {
        double d = strtod(num, &endp);
        if (*endp || !isfinite(d))
            return perr(ps, "bad number");
        lua_pushnumber(ps->L, d);
    }
    return true;
}

static bool parse_table(parser *ps, int depth)
{
    lua_State *L = ps->L;
    ps->p++; /* { */
    lua_newtable(L);
    lua_Integer next_index = 1;
    if (ps->p < ps->end && *ps->p == '}') {
        ps->p++;
        return true;
    }
    for (;;) {
        if (ps->p >= ps->end)
            return lua_pop(L, 1), perr(ps, "unterminated table");
        if (*ps->p == '[') {
            ps->p++;
            if (!parse_value(ps, depth + 1))
                return lua_pop(L, 1), false;
            if (lua_type(L, -1) == LUA_TTABLE)
                return lua_pop(L, 2), perr(ps, "a table as a key");
            if (ps->end - ps->p < 2 || ps->p[0] != ']' || ps->p[1] != '=')
                return lua_pop(L, 2), perr(ps, "expected ]=");
            ps->p += 2;
            if (!parse_value(ps, depth + 1))
                return lua_pop(L, 2), false;
            lua_rawset(L, -3);
        } else if (*ps->p == '_' || ((*ps->p | 32) >= 'a' && (*ps->p | 32) <= 'z')) {
            const char *s = ps->p;
            while (ps->p < ps->end && (*ps->p == '_' || (*ps->p >= '0' && *ps->p <= '9') ||
                                       ((*ps->p | 32) >= 'a' && (*ps->p | 32) <= 'z')))
                ps->p++;
            size_t n = (size_t)(ps->p - s);
            if (ps->p < ps->end && *ps->p == '=' && is_ident(s, n)) {
                ps->p++;
                lua_pushlstring(L, s, n);
                if (!parse_value(ps, depth + 1))
                    return lua_pop(L, 2), false;
                lua_rawset(L, -3);
            } else {
                ps->p = s;
                if (!parse_value(ps, depth + 1))
                    return lua_pop(L, 1), false;
                lua_rawseti(L, -2, next_index++);
            }
        } else {
            if (!parse_value(ps, depth + 1))
                return lua_pop(L, 1), false;
            lua_rawseti(L, -2, next_index++);
        }
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == '}') {
            ps->p++;
            return true;
        }
        return lua_pop(L, 1), perr(ps, "expected , or }");
    }
}

static bool parse_value(parser *ps, int depth)
{
    if (depth > MAX_DEPTH)
        return perr(ps, "nests too deep");
    luaL_checkstack(ps->L, 6, "state text nests too deep");
    if (ps->p >= ps->end)
        return perr(ps, "missing value");
    char ch = *ps->p;
    if (ch == '{')
        return parse_table(ps, depth);
    if (ch == '"')
        return parse_string(ps);
    if (ch == '-' || (ch >= '0' && ch <= '9'))
        return parse_number(ps);
    if (ps->end - ps->p >= 4 && !memcmp(ps->p, "true", 4)) {
        ps->p += 4;
        lua_pushboolean(ps->L, 1);
        return true;
    }
    if (ps->end - ps->p >= 5 && !memcmp(ps->p, "false", 5)) {
        ps->p += 5;
        lua_pushboolean(ps->L, 0);
        return true;
    }
    return perr(ps, "unexpected character");
}

bool lrt_parse(lua_State *L, const char *text, size_t len, pips_error *err)
{
    parser ps = {L, text, text + len, text, err};
    int top = lua_gettop(L);
    if (!parse_value(&ps, 0)) {
        lua_settop(L, top);
        return false;
    }
    if (ps.p != ps.end) {
        lua_settop(L, top);
        return perr(&ps, "text after the value");
    }
    return true;
}

/* ---- SHA-256 (FIPS 180-4) ------------------------------------------------ */

static const uint32_t SHA_K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};

static inline uint32_t ror(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void sha_block(uint32_t h[8], const unsigned char *blk)
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)blk[4 * i] << 24 | (uint32_t)blk[4 * i + 1] << 16 |
               (uint32_t)blk[4 * i + 2] << 8 | blk[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = hh + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) +
                      SHA_K[i] + w[i];
        uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

void lrt_sha256_hex(const void *data, size_t len, char out[65])
{
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    const unsigned char *p = data;
    size_t full = len / 64;
    for (size_t i = 0; i < full; i++)
        sha_block(h, p + 64 * i);
    unsigned char tail[128] = {0};
    size_t rest = len - full * 64;
    memcpy(tail, p + full * 64, rest);
    tail[rest] = 0x80;
    size_t tl = rest + 9 <= 64 ? 64 : 128;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++)
        tail[tl - 1 - i] = (unsigned char)(bits >> (8 * i));
    sha_block(h, tail);
    if (tl == 128)
        sha_block(h, tail + 64);
    for (int i = 0; i < 8; i++)
        snprintf(out + 8 * i, 9, "%08x", h[i]);
}

void pips_sha256_hex(const void *data, size_t len, char out[65]) { lrt_sha256_hex(data, len, out); }

char *lrt_read_file(const char *path, size_t *len, pips_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        pips_fail(err, PIPS_ERR_IO, "cannot open '%.200s': %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = (1u << 20) + 1;
    char *buf = malloc(cap + 1);
    if (!buf) {
        fclose(f);
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory reading '%.200s'", path);
        return NULL;
    }
    size_t n = fread(buf, 1, cap, f);
    bool bad = ferror(f);
    fclose(f);
    if (bad || n == cap) {
        free(buf);
        pips_fail(err, bad ? PIPS_ERR_IO : PIPS_ERR_ARG, "'%.200s': %s", path,
                  bad ? "read error" : "larger than 1 MiB");
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}
