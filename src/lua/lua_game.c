/*
 * lua_game.c — whole games written in Lua (docs/lua.md): a file returning a
 * table with name, title, players, options and the functions start,
 * to_move, moves, play, result, render (and optionally key, chance,
 * evaluate, view, canonical) becomes one more pips_game_def.
 *
 * Invariants: a state is the canonical text of the script's Lua state table
 * (lrt_canon: keys sorted, so equal positions are byte-equal) in a fixed
 * buffer of state_size bytes: a 4-byte length, the text, zeros after it.
 * A move is the index of its notation in the position's move list, which is
 * sorted (so a seed reproduces a game whatever order the script's pairs()
 * gives); a chance outcome is its index in chance()'s list. Each thread keeps
 * the Lua tables of the positions it saw last (64 slots by hash), so a hook
 * seldom parses a state text again. play must not change its argument: a
 * table play was given is checked against its text when it is used again
 * (a table never used again cannot mislead, so a playout pays nothing).
 */
#include "lua/lua_games.h"
#include "lua/lua_rt.h"

#include <jansson.h>
#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CACHE_SLOTS 64
#define DEFAULT_STATE_BYTES 1024
#define DEFAULT_MAX_MOVES 512
enum { WHO_UNKNOWN = -3 };

enum { F_START, F_TO_MOVE, F_MOVES, F_PLAY, F_RESULT, F_RENDER, F_KEY, F_CHANCE, F_EVALUATE,
       F_VIEW, F_CANONICAL, N_FN };
static const char *const FN_NAMES[N_FN] = {"start",  "to_move", "moves",    "play",
                                           "result", "render",  "key",      "chance",
                                           "evaluate", "view",  "canonical"};
#define N_REQUIRED 6

typedef struct lgame_def {
    pips_game_def def; /* first */
    atomic_int refs;
    pips_script script;
    char *file, *text, *description, *name, *title, *rules_text;
    int min_players, max_players;
    size_t state_cap; /* bytes of state text (with its NUL) */
    size_t max_moves;
    bool has[N_FN];
    size_t n_opts;
    pips_option_def options[PIPS_MAX_OPTIONS];
    char *owned[PIPS_MAX_OPTIONS * 4];
    size_t n_owned;
    const char **choices[PIPS_MAX_OPTIONS];
} lgame_def;

typedef struct lgame_cfg {
    lrt_pool pool;
    int np;
} lgame_cfg;

typedef struct gentry {
    uint64_t hash;
    uint32_t len;
    int tref, mref; /* the state table; its sorted moves or chance outcomes */
    int n, who;
    long played; /* the move last played from this table, to check it later (-1: none) */
    char *text;
} gentry;

/* A move of the script's list while sorting it: its text (anchored in the
 * list) and its index there. */
typedef struct mref_sort {
    const char *s;
    size_t len;
    int idx;
} mref_sort;

typedef struct gctx {
    int game_ref;
    int fn[N_FN];
    gentry cache[CACHE_SLOTS];
    char *texts;   /* CACHE_SLOTS * state_cap */
    char *scratch; /* state_cap */
    mref_sort *order; /* max_moves: sorting a move list */
    gentry *recent;   /* the entry fetched or remembered last (hooks come in runs) */
} gctx;

static const lgame_def *ldef_of(const pips_game *g) { return (const lgame_def *)g->def; }
static lgame_cfg *cfg_of(const pips_game *g) { return g->config; }

static uint64_t fnv(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static uint32_t state_len(const void *s)
{
    uint32_t n;
    memcpy(&n, s, sizeof n);
    return n;
}
static const char *state_text(const void *s) { return (const char *)s + sizeof(uint32_t); }

/* ---- the Lua side ------------------------------------------------------------- */

typedef struct gcall {
    const pips_game *g;
    const void *s;
    void *out_state;
    pips_move m;
    pips_move *out;
    double *vals;
    size_t n;
    int who;
    const char *text;
    char *buf;
    pips_str *str;
    json_t *view;
    uint64_t hash;
    bool ok;
} gcall;

static void push_fn(lua_State *L, gctx *gc, int f)
{
    lua_rawgeti(L, LUA_REGISTRYINDEX, gc->fn[f]);
    lrt_of(L)->hook = FN_NAMES[f];
}

/* play must leave its argument alone: the cached table stands for the text. */
static void check_unchanged(lua_State *L, const pips_game *g, gentry *e)
{
    const lgame_def *ld = ldef_of(g);
    gctx *gc = lrt_of(L)->user;
    long m = e->played;
    e->played = -1;
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->tref);
    size_t len = lrt_canon(L, -1, gc->scratch, ld->state_cap, "the state play was given");
    lua_pop(L, 1);
    if (len == e->len && !memcmp(gc->scratch, e->text, len))
        return;
    lrt_of(L)->hook = "play";
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->mref);
    lua_rawgeti(L, -1, m + 1);
    lrt_raise(L, "%s: play changed the state it was given (move '%s'): return a new table "
                 "instead", ld->file, lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "?");
}

static gentry *fetch(lua_State *L, const pips_game *g, const void *s)
{
    gctx *gc = lrt_of(L)->user;
    const lgame_def *ld = ldef_of(g);
    uint32_t len = state_len(s);
    if (len >= ld->state_cap)
        lrt_raise(L, "%s: a state buffer holds no valid state", ld->file);
    const char *text = state_text(s);
    gentry *e = gc->recent; /* to_move, legal_moves and apply ask about one position */
    if (e && e->tref != LUA_NOREF && e->len == len && !memcmp(e->text, text, len)) {
        if (e->played >= 0)
            check_unchanged(L, g, e);
        return e;
    }
    uint64_t h = fnv(text, len);
    e = gc->recent = &gc->cache[h % CACHE_SLOTS];
    if (e->tref != LUA_NOREF && e->hash == h && e->len == len && !memcmp(e->text, text, len)) {
        if (e->played >= 0)
            check_unchanged(L, g, e);
        return e;
    }
    luaL_unref(L, LUA_REGISTRYINDEX, e->tref);
    luaL_unref(L, LUA_REGISTRYINDEX, e->mref);
    e->tref = e->mref = LUA_NOREF;
    pips_error perr;
    if (!lrt_parse(L, text, len, &perr))
        lrt_raise(L, "%s: %s", ld->file, perr.msg);
    e->tref = luaL_ref(L, LUA_REGISTRYINDEX);
    e->hash = h;
    e->len = len;
    memcpy(e->text, text, len);
    e->who = WHO_UNKNOWN;
    e->n = -1;
    e->played = -1;
    return e;
}

/* Calls result(state): true with the returns in r (when r) if it ended. */
static bool call_result(lua_State *L, const pips_game *g, gentry *e, double *r)
{
    gctx *gc = lrt_of(L)->user;
    const lgame_def *ld = ldef_of(g);
    int np = cfg_of(g)->np;
    push_fn(L, gc, F_RESULT);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->tref);
    lua_call(L, 1, 1);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return false;
    }
    if (!lua_istable(L, -1) || lua_rawlen(L, -1) != (lua_Unsigned)np)
        lrt_raise(L, "%s: result must return nil or a sequence of %d returns", ld->file, np);
    for (int i = 0; i < np; i++) {
        lua_rawgeti(L, -1, i + 1);
        int isnum;
        double v = lua_tonumberx(L, -1, &isnum);
        if (!isnum || !(v >= 0 && v <= 1))
            lrt_raise(L, "%s: result: the return of seat %d must be a number in 0..1",
                       ld->file, i);
        if (r)
            r[i] = v;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return true;
}

static int ensure_who(lua_State *L, const pips_game *g, gentry *e)
{
    if (e->who != WHO_UNKNOWN)
        return e->who;
    gctx *gc = lrt_of(L)->user;
    const lgame_def *ld = ldef_of(g);
    if (call_result(L, g, e, NULL))
        return e->who = PIPS_OVER;
    if (ld->has[F_CHANCE]) {
        push_fn(L, gc, F_CHANCE);
        lua_rawgeti(L, LUA_REGISTRYINDEX, e->tref);
        lua_call(L, 1, 1);
        bool chance = !lua_isnil(L, -1);
        lua_pop(L, 1);
        if (chance)
            return e->who = PIPS_CHANCE;
    }
    push_fn(L, gc, F_TO_MOVE);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->tref);
    lua_call(L, 1, 1);
    int isint;
    lua_Integer who = lua_tointegerx(L, -1, &isint);
    if (!isint || who < 0 || who >= cfg_of(g)->np)
        lrt_raise(L, "%s: to_move must return a seat 0..%d, got %s", ld->file,
                   cfg_of(g)->np - 1, luaL_tolstring(L, -1, NULL));
    lua_pop(L, 1);
    return e->who = (int)who;
}

static int str_cmp(const void *pa, const void *pb)
{
    const mref_sort *a = pa, *b = pb;
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->s, b->s, n);
    return c ? c : (a->len > b->len) - (a->len < b->len);
}

/* The position's moves (sorted) or chance outcomes as a table in e->mref;
 * for chance, probabilities go to prob when given. Returns the count. */
static int ensure_moves(lua_State *L, const pips_game *g, gentry *e, double *prob)
{
    int who = ensure_who(L, g, e);
    if (who == PIPS_OVER)
        return 0;
    if (e->mref != LUA_NOREF && !(who == PIPS_CHANCE && prob))
        return e->n;
    gctx *gc = lrt_of(L)->user;
    const lgame_def *ld = ldef_of(g);
    luaL_unref(L, LUA_REGISTRYINDEX, e->mref);
    e->mref = LUA_NOREF;
    if (who == PIPS_CHANCE) {
        push_fn(L, gc, F_CHANCE);
        lua_rawgeti(L, LUA_REGISTRYINDEX, e->tref);
        lua_call(L, 1, 1);
        int list = lua_gettop(L);
        lua_Integer n = lua_istable(L, list) ? (lua_Integer)lua_rawlen(L, list) : -1;
        if (n < 1 || (size_t)n > ld->max_moves)
            lrt_raise(L, "%s: chance must return nil or 1..%zu {outcome, probability} pairs",
                       ld->file, ld->max_moves);
        lua_createtable(L, (int)n, 0);
        double sum = 0;
        for (lua_Integer i = 1; i <= n; i++) {
            lua_rawgeti(L, list, i);
            if (!lua_istable(L, -1))
                lrt_raise(L, "%s: chance: entry %d is not {outcome, probability}", ld->file,
                           (int)i);
            lua_rawgeti(L, -1, 1);
            lua_rawgeti(L, -2, 2);
            int isnum;
            double p = lua_tonumberx(L, -1, &isnum);
            size_t len;
            if (lua_type(L, -2) != LUA_TSTRING || !isnum || !(p > 0 && p <= 1) ||
                (lua_tolstring(L, -2, &len), len >= PIPS_MOVE_TEXT_MAX))
                lrt_raise(L, "%s: chance: entry %d needs an outcome string and a "
                              "probability in (0, 1]", ld->file, (int)i);
            if (prob)
                prob[i - 1] = p;
            sum += p;
            lua_pop(L, 1);
            lua_rawseti(L, -4, i);
            lua_pop(L, 1);
        }
        if (sum < 1 - 1e-9 || sum > 1 + 1e-9)
            lrt_raise(L, "%s: chance: the probabilities sum to %g, not 1", ld->file, sum);
        e->mref = luaL_ref(L, LUA_REGISTRYINDEX);
        lua_pop(L, 1);
        return e->n = (int)n;
    }
    push_fn(L, gc, F_MOVES);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->tref);
    lua_call(L, 1, 1);
    int list = lua_gettop(L);
    if (!lua_istable(L, list))
        lrt_raise(L, "%s: moves must return a sequence of move strings, got a %s", ld->file,
                   luaL_typename(L, list));
    lua_Integer n = (lua_Integer)lua_rawlen(L, list);
    if (n < 1)
        lrt_raise(L, "%s: moves returned no move for seat %d while result is nil (a forced "
                      "pass is a move)", ld->file, who);
    if ((size_t)n > ld->max_moves)
        lrt_raise(L, "%s: moves returned %d moves, more than max_moves = %zu", ld->file, (int)n,
                   ld->max_moves);
    mref_sort *ms = gc->order;
    for (lua_Integer i = 1; i <= n; i++) {
        if (lua_rawgeti(L, list, i) != LUA_TSTRING)
            lrt_raise(L, "%s: moves: entry %d is a %s, not a string", ld->file, (int)i,
                       luaL_typename(L, -1));
        mref_sort m = {.idx = (int)i};
        m.s = lua_tolstring(L, -1, &m.len); /* anchored in list */
        if (m.len == 0 || m.len >= PIPS_MOVE_TEXT_MAX)
            lrt_raise(L, "%s: moves: entry %d is empty or longer than %d bytes", ld->file,
                       (int)i, PIPS_MOVE_TEXT_MAX - 1);
        lua_pop(L, 1);
        /* insertion sort: lists are short, and often nearly sorted */
        lua_Integer j = i - 1;
        for (; j > 0 && str_cmp(&ms[j - 1], &m) > 0; j--)
            ms[j] = ms[j - 1];
        ms[j] = m;
    }
    /* a copy of the script's list, sorted: the script may reuse its own */
    lua_createtable(L, (int)n, 0);
    for (lua_Integer i = 0; i < n; i++) {
        if (i && !str_cmp(&ms[i - 1], &ms[i]))
            lrt_raise(L, "%s: moves lists '%s' twice", ld->file, ms[i].s);
        lua_rawgeti(L, list, ms[i].idx);
        lua_rawseti(L, -2, i + 1);
    }
    e->mref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_pop(L, 1);
    return e->n = (int)n;
}

static const char *move_string(lua_State *L, const pips_game *g, gentry *e, pips_move m)
{
    int n = ensure_moves(L, g, e, NULL);
    if (m >= (pips_move)n)
        lrt_raise(L, "%s: move %llu is not in the position's list", ldef_of(g)->file,
                   (unsigned long long)m);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->mref);
    lua_rawgeti(L, -1, (lua_Integer)m + 1);
    lua_remove(L, -2);
    return lua_tostring(L, -1);
}

/* Writes the canonical text of the table on the stack top into state s. */
static void store(lua_State *L, const pips_game *g, void *s, const char *what)
{
    const lgame_def *ld = ldef_of(g);
    gctx *gc = lrt_of(L)->user;
    if (!lua_istable(L, -1))
        lrt_raise(L, "%s: %s must return a table, got a %s", ld->file, what,
                   luaL_typename(L, -1));
    size_t len = lrt_canon(L, -1, gc->scratch, ld->state_cap, what);
    uint32_t old = state_len(s);
    uint32_t n = (uint32_t)len;
    memcpy(s, &n, sizeof n);
    memcpy((char *)s + sizeof n, gc->scratch, len);
    if (old > len && old < ld->state_cap)
        memset((char *)s + sizeof n + len, 0, old - len);
}

/* Caches the table on the stack top (popped) as the position of state s. */
static void remember(lua_State *L, const void *s)
{
    gctx *gc = lrt_of(L)->user;
    const char *text = state_text(s);
    uint32_t n = state_len(s);
    uint64_t h = fnv(text, n);
    gentry *e = gc->recent = &gc->cache[h % CACHE_SLOTS];
    luaL_unref(L, LUA_REGISTRYINDEX, e->tref);
    luaL_unref(L, LUA_REGISTRYINDEX, e->mref);
    e->mref = LUA_NOREF;
    e->tref = luaL_ref(L, LUA_REGISTRYINDEX);
    e->hash = h;
    e->len = n;
    memcpy(e->text, text, n);
    e->who = WHO_UNKNOWN;
    e->n = -1;
    e->played = -1;
}

static int p_to_move(lua_State *L)
{
    gcall *a = lua_touserdata(L, 1);
    gentry *e = fetch(L, a->g, a->s);
    a->who = ensure_who(L, a->g, e);
    if (a->who >= 0 && a->out) /* legal_moves comes next: one protected call for both */
        ensure_moves(L, a->g, e, NULL);
    return 0;
}

static int p_moves(lua_State *L)
{
    gcall *a = lua_touserdata(L, 1);
    gentry *e = fetch(L, a->g, a->s);
    a->who = ensure_who(L, a->g, e);
    a->n = 0;
    if (a->who == PIPS_OVER || (a->who == PIPS_CHANCE) != (a->vals != NULL))
        return 0;
    a->n = (size_t)ensure_moves(L, a->g, e, a->vals);
    for (size_t i = 0; a->out && i < a->n; i++)
        a->out[i] = i;
    return 0;
}

static int p_play(lua_State *L)
{
    gcall *a = lua_touserdata(L, 1);
    gctx *gc = lrt_of(L)->user;
    gentry *e = fetch(L, a->g, a->s);
    move_string(L, a->g, e, a->m);
    int tref = e->tref;
    push_fn(L, gc, F_PLAY);
    lua_rawgeti(L, LUA_REGISTRYINDEX, tref);
    lua_pushvalue(L, -3);
    lua_call(L, 2, 1);
    e->played = (long)a->m; /* checked when the table is used again (check_unchanged) */
    store(L, a->g, a->out_state, "play");
    remember(L, a->out_state);
    lua_pop(L, 1); /* the move string */
    return 0;
}

static int p_start(lua_State *L)
{
    gcall *a = lua_touserdata(L, 1);
    const pips_game *g = a->g;
    const lgame_def *ld = ldef_of(g);
    gctx *gc = lrt_of(L)->user;
    push_fn(L, gc, F_START);
    lua_createtable(L, 0, (int)g->options.n);
    for (size_t i = 0; i < ld->n_opts; i++) {
        const pips_option_def *od = &ld->options[i];
        const char *v = pips_options_get(&g->options, od->key);
        if (!v || !strncmp(od->key, "lua_", 4))
            continue;
        if (od->type == PIPS_OPT_INT) {
            long x = 0;
            if (pips_parse_int(v, od->min, od->max, &x))
                lua_pushinteger(L, x);
            else
                lua_pushstring(L, v);
        } else if (od->type == PIPS_OPT_BOOL) {
            bool b = false;
            pips_parse_bool(v, &b);
            lua_pushboolean(L, b);
        } else {
            lua_pushstring(L, v);
        }
        lua_setfield(L, -2, od->key);
    }
    lua_call(L, 1, 1);
    memset(a->out_state, 0, g->def->state_size);
    store(L, g, a->out_state, "start");
    remember(L, a->out_state); /* pops the table */
    return 0;
}

static int p_returns(lua_State *L)
{
    gcall *a = lua_touserdata(L, 1);
    a->ok = call_result(L, a->g, fetch(L, a->g, a->s), a->vals);
    return 0;
}

static int p_move_text(lua_State *L)
{
    gcall *a = lua_touserdata(L, 1);
    const char *mv = move_string(L, a->g, fetch(L, a->g, a->s), a->m);
    snprintf(a->buf, PIPS_MOVE_TEXT_MAX, "%s", mv);
    lua_pop(L, 1);
    return 0;
}

static int p_find(lua_State *L)
{
    gcall *a = lua_touserdata(L, 1);
    gentry *e = fetch(L, a->g, a->s);
    int n = ensure_moves(L, a->g, e, NULL);
    a->ok = false;
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->mref);
    for (int i = 0; i < n && !a->ok; i++) {
        lua_rawgeti(L, -1, i + 1);
        if (!strcmp(lua_tostring(L, -1), a->text))
            a->ok = true, a->m = (pips_move)i;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return 0;
}

static int p_parse(lua_State *L)
{
    gcall *a = lua_touserdata(L, 1);
    pips_error perr;
    if (!lrt_parse(L, a->text, strlen(a->text), &perr))
        return lrt_raise(L, "%s", perr.msg);
    if (!lua_istable(L, -1))
        return lrt_raise(L, "state text: a state is a table ({...})");
    memset(a->out_state, 0, a->g->def->state_size);
    store(L, a->g, a->out_state, "the state text");
    return 0;
}

static int p_string_fn(lua_State *L)
{
    gcall *a = lua_touserdata(L, 1);
    gctx *gc = lrt_of(L)->user;
    gentry *e = fetch(L, a->g, a->s);
    int f = (int)a->n;
    push_fn(L, gc, f);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->tref);
    lua_call(L, 1, 1);
    size_t len;
    const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : NULL;
    if (!s)
        lrt_raise(L, "%s: %s must return a string, got a %s", ldef_of(a->g)->file,
                   FN_NAMES[f], luaL_typename(L, -1));
    if (f == F_KEY)
        a->hash = fnv(s, len);
    else
        pips_str_catn(a->str, s, len);
    lua_pop(L, 1);
    return 0;
}

static int p_evaluate(lua_State *L)
{
    gcall *a = lua_touserdata(L, 1);
    gctx *gc = lrt_of(L)->user;
    gentry *e = fetch(L, a->g, a->s);
    int np = cfg_of(a->g)->np;
    push_fn(L, gc, F_EVALUATE);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->tref);
    lua_call(L, 1, 1);
    if (!lua_istable(L, -1) || lua_rawlen(L, -1) != (lua_Unsigned)np)
        lrt_raise(L, "%s: evaluate must return %d numbers in 0..1", ldef_of(a->g)->file, np);
    for (int i = 0; i < np; i++) {
        lua_rawgeti(L, -1, i + 1);
        int isnum;
        double v = lua_tonumberx(L, -1, &isnum);
        if (!isnum || !(v >= 0 && v <= 1))
            lrt_raise(L, "%s: evaluate: seat %d's value must be a number in 0..1",
                       ldef_of(a->g)->file, i);
        a->vals[i] = v;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return 0;
}

static int p_view(lua_State *L)
{
    gcall *a = lua_touserdata(L, 1);
    gctx *gc = lrt_of(L)->user;
    gentry *e = fetch(L, a->g, a->s);
    push_fn(L, gc, F_VIEW);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->tref);
    lua_call(L, 1, 1);
    if (!lua_istable(L, -1))
        lrt_raise(L, "%s: view must return a table", ldef_of(a->g)->file);
    json_t *v = lrt_to_json(L, -1, "view", 0);
    a->ok = json_is_object(v) && json_object_update(a->view, v) == 0;
    json_decref(v);
    if (!a->ok)
        lrt_raise(L, "%s: view must return a table with string keys", ldef_of(a->g)->file);
    lua_pop(L, 1);
    return 0;
}

/* canonical(state): the position every symmetric variant of state maps to,
 * as a new table (the solver's symmetry reduction). Like play it must leave
 * its argument alone, which is checked at once (the solver calls it once a
 * node, so the check is cheap beside the solve). */
static int p_canonical(lua_State *L)
{
    gcall *a = lua_touserdata(L, 1);
    const lgame_def *ld = ldef_of(a->g);
    gctx *gc = lrt_of(L)->user;
    gentry *e = fetch(L, a->g, a->s);
    push_fn(L, gc, F_CANONICAL);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->tref);
    lua_call(L, 1, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->tref);
    size_t len = lrt_canon(L, -1, gc->scratch, ld->state_cap, "the state canonical was given");
    lua_pop(L, 1);
    if (len != e->len || memcmp(gc->scratch, e->text, len) != 0)
        lrt_raise(L, "%s: canonical changed the state it was given: return a new table",
                  ld->file);
    store(L, a->g, a->out_state, "canonical");
    remember(L, a->out_state); /* pops the table */
    return 0;
}

static lrt_ctx *ctx(const pips_game *g)
{
    lgame_cfg *cfg = cfg_of(g);
    return lrt_failed(&cfg->pool, NULL) ? NULL : lrt_get(&cfg->pool);
}

static bool run(const pips_game *g, const char *hook, lua_CFunction fn, gcall *a)
{
    lrt_ctx *c = ctx(g);
    return c && lrt_run(c, hook, fn, a, 0);
}

/* The thread's cache entry of state s when s is the position it looked at
 * last and its table needs no check: to_move and legal_moves then answer
 * without calling into Lua. NULL otherwise. */
static const gentry *recent_entry(const pips_game *g, const void *s)
{
    lrt_ctx *c = ctx(g);
    if (!c)
        return NULL;
    const gentry *e = ((gctx *)c->user)->recent;
    uint32_t len = state_len(s);
    if (!e || e->tref == LUA_NOREF || e->played >= 0 || e->len != len ||
        memcmp(e->text, state_text(s), len) != 0)
        return NULL;
    return e;
}

/* ---- the interface's hooks ------------------------------------------------------- */

static int g_num_players(const pips_game *g) { return cfg_of(g)->np; }
static size_t g_max_moves(const pips_game *g) { return ldef_of(g)->max_moves; }

static void g_initial(const pips_game *g, void *s)
{
    gcall a = {.g = g, .out_state = s};
    if (!run(g, "start", p_start, &a))
        memset(s, 0, g->def->state_size);
}

static int g_to_move(const pips_game *g, const void *s)
{
    const gentry *e = recent_entry(g, s);
    if (e && e->who != WHO_UNKNOWN)
        return e->who;
    pips_move spare;
    gcall a = {.g = g, .s = s, .out = &spare}; /* (out: list the moves too) */
    return run(g, "to_move", p_to_move, &a) ? a.who : PIPS_OVER;
}

static size_t g_legal_moves(const pips_game *g, const void *s, pips_move *out)
{
    const gentry *e = recent_entry(g, s);
    if (e && e->who >= 0 && e->n >= 0 && e->mref != LUA_NOREF) {
        for (int i = 0; i < e->n; i++)
            out[i] = (pips_move)i;
        return (size_t)e->n;
    }
    gcall a = {.g = g, .s = s, .out = out};
    return run(g, "moves", p_moves, &a) ? a.n : 0;
}

static size_t g_chance_outcomes(const pips_game *g, const void *s, pips_move *out, double *prob)
{
    double dummy[1];
    gcall a = {.g = g, .s = s, .out = out, .vals = prob ? prob : dummy};
    (void)dummy;
    return run(g, "chance", p_moves, &a) ? a.n : 0;
}

static bool g_check_move(const pips_game *g, const void *s, pips_move m, pips_error *err)
{
    pips_error why;
    gcall a = {.g = g, .s = s, .vals = NULL};
    bool ok = run(g, "moves", p_to_move, &a);
    if (ok && a.who == PIPS_CHANCE) {
        double *p = malloc(ldef_of(g)->max_moves * sizeof *p);
        a.vals = p;
        ok = p && run(g, "chance", p_moves, &a);
        free(p);
    } else if (ok && a.who >= 0) {
        ok = run(g, "moves", p_moves, &a);
    }
    if (pips_game_failed(g, &why))
        return pips_fail(err, why.code, "%s", why.msg);
    if (a.who == PIPS_OVER)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "the game is over");
    if (!ok || m >= a.n)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "move %llu is not legal here",
                         (unsigned long long)m);
    return true;
}

static void g_apply(const pips_game *g, void *s, pips_move m)
{
    gcall a = {.g = g, .s = s, .out_state = s, .m = m};
    run(g, "play", p_play, &a);
}

static void g_returns(const pips_game *g, const void *s, double *out)
{
    int np = cfg_of(g)->np;
    gcall a = {.g = g, .s = s, .vals = out};
    if (!run(g, "result", p_returns, &a) || !a.ok)
        for (int i = 0; i < np; i++)
            out[i] = 1.0 / np; /* after a failure: equal shares */
}

static void g_result_text(const pips_game *g, const void *s, pips_str *out)
{
    double r[PIPS_MAX_PLAYERS];
    int np = cfg_of(g)->np;
    if (pips_game_failed(g, NULL)) {
        pips_str_catf(out, "stopped: %s failed", ldef_of(g)->file);
        return;
    }
    gcall a = {.g = g, .s = s, .vals = r};
    if (!run(g, "result", p_returns, &a) || !a.ok) {
        pips_str_cat(out, "in progress");
        return;
    }
    plua_returns_text(r, np, out);
}

static void g_move_to_text(const pips_game *g, const void *s, pips_move m, char *buf)
{
    gcall a = {.g = g, .s = s, .m = m, .buf = buf};
    if (!run(g, "moves", p_move_text, &a))
        snprintf(buf, PIPS_MOVE_TEXT_MAX, "?");
}

static bool g_move_from_text(const pips_game *g, const void *s, const char *text, pips_move *m,
                             pips_error *err)
{
    pips_error why;
    gcall a = {.g = g, .s = s, .text = text};
    if (!run(g, "moves", p_find, &a) && pips_game_failed(g, &why))
        return pips_fail(err, why.code, "%s", why.msg);
    if (!a.ok)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "'%.60s' is not a legal move here", text);
    *m = a.m;
    return true;
}

static void g_state_to_text(const pips_game *g, const void *s, pips_str *out)
{
    (void)g;
    pips_str_catn(out, state_text(s), state_len(s));
}

static bool g_state_from_text(const pips_game *g, const char *text, void *s, pips_error *err)
{
    lrt_ctx *c = ctx(g);
    if (!c)
        return pips_game_failed(g, err), false;
    void *tmp = calloc(1, g->def->state_size);
    if (!tmp)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
    gcall a = {.g = g, .text = text, .out_state = tmp};
    bool ok = lrt_run_err(c, "state text", p_parse, &a, 0, err);
    if (ok)
        memcpy(s, tmp, g->def->state_size);
    else if (err)
        err->code = PIPS_ERR_ARG; /* the text given is at fault, not the script */
    free(tmp);
    return ok;
}

static uint64_t g_hash(const pips_game *g, const void *s)
{
    if (ldef_of(g)->has[F_KEY]) {
        gcall a = {.g = g, .s = s, .n = F_KEY};
        return run(g, "key", p_string_fn, &a) ? a.hash : 0;
    }
    return fnv(state_text(s), state_len(s));
}

static void g_render(const pips_game *g, const void *s, const pips_render_opts *ro, pips_str *out)
{
    (void)ro;
    size_t before = out->len;
    gcall a = {.g = g, .s = s, .n = F_RENDER, .str = out};
    if (!run(g, "render", p_string_fn, &a))
        pips_str_catf(out, "(render failed)");
    if (out->len == before || out->data[out->len - 1] != '\n')
        pips_str_cat(out, "\n");
}

static bool g_state_view(const pips_game *g, const void *s, struct json_t *view)
{
    gcall a = {.g = g, .s = s, .view = view};
    run(g, "view", p_view, &a);
    return true; /* a script failure is reported through pips_game_failed */
}

static void g_evaluate(const pips_game *g, const void *s, double *out)
{
    int np = cfg_of(g)->np;
    gcall a = {.g = g, .s = s, .vals = out};
    if (!run(g, "evaluate", p_evaluate, &a))
        for (int i = 0; i < np; i++)
            out[i] = 0.5;
}

static void g_canonical(const pips_game *g, const void *s, void *out)
{
    gcall a = {.g = g, .s = s, .out_state = out};
    if (!run(g, "canonical", p_canonical, &a) && out != s)
        memcpy(out, s, g->def->state_size); /* after a failure: the state itself */
}

static bool g_failure(const pips_game *g, pips_error *err, bool clear)
{
    lgame_cfg *cfg = cfg_of(g);
    if (clear) {
        lrt_clear(&cfg->pool);
        return false;
    }
    return lrt_failed(&cfg->pool, err);
}

/* ---- per-thread setup -------------------------------------------------------------- */

static int gsetup(lua_State *L)
{
    lrt_ctx *c = lrt_of(L);
    const lgame_def *ld = c->user; /* the pool's setup_arg */
    gctx *gc = lua_newuserdatauv(L, sizeof *gc, 0);
    memset(gc, 0, sizeof *gc);
    luaL_ref(L, LUA_REGISTRYINDEX); /* anchored for the state's life */
    for (int i = 0; i < CACHE_SLOTS; i++)
        gc->cache[i].tref = gc->cache[i].mref = LUA_NOREF;
    for (int f = 0; f < N_FN; f++)
        gc->fn[f] = LUA_NOREF;
    c->user = gc;
    gc->texts = calloc(CACHE_SLOTS, ld->state_cap);
    gc->scratch = calloc(1, ld->state_cap);
    gc->order = calloc(ld->max_moves, sizeof *gc->order);
    if (!gc->texts || !gc->scratch || !gc->order)
        return lrt_raise(L, "out of memory for the state cache");
    for (int i = 0; i < CACHE_SLOTS; i++)
        gc->cache[i].text = gc->texts + (size_t)i * ld->state_cap;
    if (!lua_istable(L, -1))
        return lrt_raise(L, "%s must return the game's table", ld->file);
    for (int f = 0; f < N_FN; f++) {
        lua_getfield(L, -1, FN_NAMES[f]);
        if (lua_isfunction(L, -1))
            gc->fn[f] = luaL_ref(L, LUA_REGISTRYINDEX);
        else
            lua_pop(L, 1);
    }
    gc->game_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

static void gcleanup(lrt_ctx *c)
{
    gctx *gc = c->user;
    if (!gc || gc == c->pool->setup_arg)
        return; /* setup failed before making its cache */
    free(gc->texts);
    free(gc->scratch);
    free(gc->order);
}

static bool g_configure(const pips_game *g, void *config, pips_error *err)
{
    const lgame_def *ld = ldef_of(g);
    lgame_cfg *cfg = config;
    long steps, mb, np = ld->min_players;
    if (!plua_limits(g, &steps, &mb, err))
        return false;
    if (pips_option_def_find(g->def, "players") && !pips_game_opt_int(g, "players", &np, err))
        return false;
    if (np < ld->min_players || np > ld->max_players)
        return pips_fail(err, PIPS_ERR_ARG, "option 'players': '%ld' is not %d..%d", np,
                         ld->min_players, ld->max_players);
    cfg->np = (int)np;
    lrt_pool_init(&cfg->pool, ld->file, ld->text, ld->script.len, steps, mb, gsetup, gcleanup);
    cfg->pool.setup_arg = (void *)ld;
    if (!lrt_get(&cfg->pool)) { /* load it now, so a broken script fails here */
        lrt_failed(&cfg->pool, err);
        lrt_pool_destroy(&cfg->pool);
        return false;
    }
    return true;
}

static void g_release(const pips_game *g, void *config)
{
    (void)g;
    lrt_pool_destroy(&((lgame_cfg *)config)->pool);
}

/* ---- loading a definition ------------------------------------------------------ */

static char *own(lgame_def *ld, const char *s)
{
    if (ld->n_owned == sizeof ld->owned / sizeof ld->owned[0])
        return NULL;
    char *copy = strdup(s);
    if (copy)
        ld->owned[ld->n_owned++] = copy;
    return copy;
}

static void ldef_free(lgame_def *ld)
{
    for (size_t i = 0; i < ld->n_owned; i++)
        free(ld->owned[i]);
    for (size_t i = 0; i < PIPS_MAX_OPTIONS; i++)
        free(ld->choices[i]);
    free(ld->file);
    free(ld->text);
    free(ld->description);
    free(ld->name);
    free(ld->title);
    free(ld->rules_text);
    free(ld);
}

static void g_hold(const pips_game_def *def, int delta)
{
    lgame_def *ld = (lgame_def *)def;
    if (atomic_fetch_add(&ld->refs, delta) + delta == 0)
        ldef_free(ld);
}

static const char *field_string(lua_State *L, int t, const char *key, bool required,
                                const char *file)
{
    lua_getfield(L, t, key);
    if (lua_isnil(L, -1) && !required) {
        lua_pop(L, 1);
        return NULL;
    }
    if (lua_type(L, -1) != LUA_TSTRING)
        lrt_raise(L, "%s: '%s' must be a string", file, key);
    const char *s = lua_tostring(L, -1);
    lua_pop(L, 1); /* still anchored in the table */
    return s;
}

static lua_Integer field_int(lua_State *L, int t, const char *key, lua_Integer dflt,
                             lua_Integer lo, lua_Integer hi, const char *file)
{
    lua_getfield(L, t, key);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return dflt;
    }
    int isint;
    lua_Integer v = lua_tointegerx(L, -1, &isint);
    if (!isint || v < lo || v > hi)
        lrt_raise(L, "%s: '%s' must be a whole number in %d..%d", file, key, (int)lo, (int)hi);
    lua_pop(L, 1);
    return v;
}

static void read_option(lua_State *L, lgame_def *ld, const char *key, int spec)
{
    const char *file = ld->file;
    size_t i = ld->n_opts;
    pips_option_def *od = &ld->options[i];
    if (strlen(key) >= PIPS_OPT_KEY_MAX || !strncmp(key, "lua_", 4) || !strcmp(key, "rules"))
        lrt_raise(L, "%s: option name '%s' is reserved or too long", file, key);
    if (!lua_istable(L, spec))
        lrt_raise(L, "%s: option '%s' must be a table {type = ...}", file, key);
    const char *type = field_string(L, spec, "type", true, file);
    const char *help = field_string(L, spec, "description", false, file);
    char dflt[PIPS_OPT_VALUE_MAX] = "";
    od->key = own(ld, key);
    od->help = own(ld, help ? help : key);
    lua_getfield(L, spec, "default");
    int dt = lua_type(L, -1);
    if (!strcmp(type, "int")) {
        od->type = PIPS_OPT_INT;
        od->min = (long)field_int(L, spec, "min", 0, -1000000000, 1000000000, file);
        od->max = (long)field_int(L, spec, "max", 1000000000, od->min, 1000000000, file);
        lua_Integer d = dt == LUA_TNIL ? od->min : lua_tointeger(L, -1);
        if (dt != LUA_TNIL && (!lua_isinteger(L, -1) || d < od->min || d > od->max))
            lrt_raise(L, "%s: option '%s': default must be a whole number in %ld..%ld", file,
                       key, od->min, od->max);
        snprintf(dflt, sizeof dflt, "%lld", (long long)d);
    } else if (!strcmp(type, "bool")) {
        od->type = PIPS_OPT_BOOL;
        if (dt != LUA_TNIL && dt != LUA_TBOOLEAN)
            lrt_raise(L, "%s: option '%s': default must be true or false", file, key);
        snprintf(dflt, sizeof dflt, "%s", lua_toboolean(L, -1) ? "true" : "false");
    } else if (!strcmp(type, "choice")) {
        od->type = PIPS_OPT_CHOICE;
        lua_getfield(L, spec, "choices");
        lua_Integer n = lua_istable(L, -1) ? (lua_Integer)lua_rawlen(L, -1) : 0;
        if (n < 1 || n > 64)
            lrt_raise(L, "%s: option '%s': choices must be a sequence of 1..64 strings", file,
                       key);
        const char **ch = calloc((size_t)n + 1, sizeof *ch);
        if (!ch)
            lrt_raise(L, "out of memory");
        ld->choices[i] = ch;
        for (lua_Integer k = 1; k <= n; k++) {
            if (lua_rawgeti(L, -1, k) != LUA_TSTRING)
                lrt_raise(L, "%s: option '%s': choice %d is not a string", file, key, (int)k);
            ch[k - 1] = own(ld, lua_tostring(L, -1));
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        od->choices = ch;
        if (dt != LUA_TNIL && dt != LUA_TSTRING)
            lrt_raise(L, "%s: option '%s': default must be one of the choices", file, key);
        snprintf(dflt, sizeof dflt, "%s", dt == LUA_TSTRING ? lua_tostring(L, -1) : ch[0]);
    } else {
        lrt_raise(L, "%s: option '%s': type must be \"int\", \"bool\" or \"choice\"", file, key);
    }
    lua_pop(L, 1); /* default */
    od->default_value = own(ld, dflt);
    if (!od->key || !od->help || !od->default_value)
        lrt_raise(L, "out of memory");
    pips_error e;
    if (!pips_option_check(od, od->default_value, &e))
        lrt_raise(L, "%s: %s", file, e.msg);
    ld->def.n_options = ++ld->n_opts;
}

static int key_sort(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Reads the table the file returns (on the stack top) into the definition. */
static int inspect(lua_State *L)
{
    lgame_def *ld = lrt_of(L)->user;
    const char *file = ld->file;
    if (!lua_istable(L, -1))
        return lrt_raise(L, "%s must return the game's table (name, title, players, ...)", file);
    int t = lua_gettop(L);
    const char *name = field_string(L, t, "name", true, file);
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
            return lrt_raise(L, "%s: name '%s' may hold only a-z, 0-9, _ and -", file, name);
    if (!*name || strlen(name) > 40)
        return lrt_raise(L, "%s: name must be 1..40 characters", file);
    const char *title = field_string(L, t, "title", true, file);
    const char *desc = field_string(L, t, "description", false, file);
    const char *rules = field_string(L, t, "rules", false, file);
    ld->name = strdup(name);
    ld->title = strdup(title);
    ld->description = desc ? strdup(desc) : NULL;
    size_t rl = (rules ? strlen(rules) : 0) + (desc ? strlen(desc) : 0) + strlen(file) +
                strlen(name) + 80;
    ld->rules_text = malloc(rl);
    if (!ld->name || !ld->title || (desc && !ld->description) || !ld->rules_text)
        return lrt_raise(L, "out of memory");
    snprintf(ld->rules_text, rl, "%s\n%s\n(%s, a game written in Lua: %s)\n",
             desc ? desc : title, rules ? rules : "", name, file);
    lua_getfield(L, t, "players");
    if (!lua_istable(L, -1))
        return lrt_raise(L, "%s: players must be {min, max}", file);
    int pt = lua_gettop(L);
    lua_rawgeti(L, pt, 1);
    lua_rawgeti(L, pt, 2);
    int i1, i2;
    lua_Integer lo = lua_tointegerx(L, -2, &i1), hi = lua_tointegerx(L, -1, &i2);
    if (!i1 || !i2 || lo < 1 || hi < lo || hi > PIPS_MAX_PLAYERS)
        return lrt_raise(L, "%s: players must be {min, max} with 1 <= min <= max <= %d", file,
                          PIPS_MAX_PLAYERS);
    lua_settop(L, t);
    ld->min_players = (int)lo;
    ld->max_players = (int)hi;
    ld->max_moves = (size_t)field_int(L, t, "max_moves", DEFAULT_MAX_MOVES, 1, 100000, file);
    ld->state_cap =
        (size_t)field_int(L, t, "state_bytes", DEFAULT_STATE_BYTES, 16, 1 << 20, file) + 1;
    for (int f = 0; f < N_FN; f++) {
        lua_getfield(L, t, FN_NAMES[f]);
        bool fn = lua_isfunction(L, -1);
        if (!fn && (f < N_REQUIRED || !lua_isnil(L, -1)))
            return lrt_raise(L, "%s: '%s' must be a function", file, FN_NAMES[f]);
        ld->has[f] = fn;
        lua_pop(L, 1);
    }
    /* options, in key order */
    lua_getfield(L, t, "options");
    int ot = lua_gettop(L);
    if (!lua_isnil(L, ot)) {
        if (!lua_istable(L, ot))
            return lrt_raise(L, "%s: options must be a table { KEY = {type = ...} }", file);
        const char *keys[PIPS_MAX_OPTIONS];
        size_t nk = 0;
        lua_pushnil(L);
        while (lua_next(L, ot)) {
            lua_pop(L, 1);
            if (lua_type(L, -1) != LUA_TSTRING)
                return lrt_raise(L, "%s: option names must be strings", file);
            if (nk == PIPS_MAX_OPTIONS - 3)
                return lrt_raise(L, "%s: at most %d options", file, PIPS_MAX_OPTIONS - 3);
            keys[nk++] = lua_tostring(L, -1); /* anchored in the table */
        }
        qsort(keys, nk, sizeof *keys, key_sort);
        for (size_t k = 0; k < nk; k++) {
            lua_getfield(L, ot, keys[k]);
            read_option(L, ld, keys[k], lua_gettop(L));
            lua_pop(L, 1);
        }
    }
    lua_settop(L, t);
    if (lo < hi && !pips_option_def_find(&ld->def, "players")) {
        char dflt[8];
        snprintf(dflt, sizeof dflt, "%d", (int)lo);
        pips_option_def *od = &ld->options[ld->n_opts];
        *od = (pips_option_def){.key = "players", .default_value = own(ld, dflt),
                                .help = "number of players", .type = PIPS_OPT_INT, .min = lo,
                                .max = hi};
        if (!od->default_value)
            return lrt_raise(L, "out of memory");
        ld->n_opts++;
    } else if (pips_option_def_find(&ld->def, "players")) {
        const pips_option_def *od = pips_option_def_find(&ld->def, "players");
        if (od->type != PIPS_OPT_INT || od->min < lo || od->max > hi)
            return lrt_raise(L, "%s: option 'players' must be an int within players", file);
    }
    plua_limit_options(&ld->options[ld->n_opts], &ld->options[ld->n_opts + 1]);
    ld->n_opts += 2;
    return 0;
}

const pips_game_def *plua_game_def(const char *file, const char *text, pips_error *err)
{
    lgame_def *ld = calloc(1, sizeof *ld);
    size_t len = 0;
    if (!ld || !(ld->file = strdup(file))) {
        free(ld);
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory loading %s", file);
        return NULL;
    }
    ld->text = text ? strdup(text) : lrt_read_file(file, &len, err);
    if (text)
        len = strlen(text);
    if (!ld->text) {
        if (text)
            pips_fail(err, PIPS_ERR_NOMEM, "out of memory loading %s", file);
        ldef_free(ld);
        return NULL;
    }
    /* the options table is read while def.options points at it */
    ld->def.options = ld->options;
    ld->def.n_options = 0;
    if (!lrt_inspect(ld->file, ld->text, len, 0, 0, inspect, ld, err)) {
        ldef_free(ld);
        return NULL;
    }
    atomic_init(&ld->refs, 1);
    ld->script = (pips_script){.file = ld->file, .text = ld->text, .len = len,
                               .description = ld->description};
    lrt_sha256_hex(ld->text, len, ld->script.sha256);
    pips_game_def *d = &ld->def;
    /* the file is the game's id: every tool (and a server after a restart) finds
     * the game again by it; records carry the text too */
    d->name = ld->file;
    d->title = ld->title;
    d->rules_text = ld->rules_text;
    d->notation_text = "Moves are the strings the script's moves() lists (pips lists them sorted).";
    d->options = ld->options;
    d->n_options = ld->n_opts;
    d->config_size = sizeof(lgame_cfg);
    d->state_size = (sizeof(uint32_t) + ld->state_cap + 7) / 8 * 8;
    d->flags = ld->has[F_CHANCE] ? PIPS_GAME_CHANCE : 0;
    d->bench_perft_depth = 3;
    d->bench_playouts = 200;
    d->configure = g_configure;
    d->release = g_release;
    d->num_players = g_num_players;
    d->max_moves = g_max_moves;
    d->initial = g_initial;
    d->to_move = g_to_move;
    d->legal_moves = g_legal_moves;
    d->chance_outcomes = ld->has[F_CHANCE] ? g_chance_outcomes : NULL;
    d->check_move = g_check_move;
    d->apply = g_apply;
    d->returns = g_returns;
    d->result_text = g_result_text;
    d->move_to_text = g_move_to_text;
    d->move_from_text = g_move_from_text;
    d->state_to_text = g_state_to_text;
    d->state_from_text = g_state_from_text;
    d->hash = g_hash;
    d->render = g_render;
    d->state_view = ld->has[F_VIEW] ? g_state_view : NULL;
    d->evaluate = ld->has[F_EVALUATE] ? g_evaluate : NULL;
    d->canonical = ld->has[F_CANONICAL] ? g_canonical : NULL;
    d->script = &ld->script;
    d->hold = g_hold;
    d->failure = g_failure;
    return d;
}
