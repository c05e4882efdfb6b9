/*
 * lua_rules.c — rule scripts: a Lua file that changes a built-in game
 * (docs/lua.md). The variant is a pips_game_def wrapping the base game: every
 * hook runs the base's on an inner configured base game, and the script's
 * globals filter it:
 *   legal(state, move) -> boolean   removes generated moves (and submitted ones);
 *   result(state) -> nil | returns  ends the game now with those returns;
 *   description                     a string for lists, the lobby and reports.
 * `state` is the object `pips state GAME --json` prints, built only when the
 * script reads it (a proxy table whose first read fills it in).
 *
 * Invariants: states are the base game's states; the options are the base's
 * plus rules, lua_steps and lua_mb; search shortcuts that would bypass the
 * script (random_move with legal, canonical forms, the game's own solver,
 * books) are left out, so every tool sees the filtered game and nothing else.
 * Each thread keeps the last position it examined (its filtered moves and
 * whether the script ended it), so to_move then legal_moves cost one pass.
 * Without a result hook, to_move is the base game's and a random move is
 * drawn from the base game's random_move until legal() allows one (a
 * uniform draw among the allowed moves, as from the filtered list, which is
 * made only when a few draws were refused): a playout asks legal() about
 * about one move a ply, with a state table made once and reused while the
 * script does not read it, and with move texts cached per move code when the
 * base game's texts depend on the move alone (PIPS_GAME_MOVE_TEXT_FIXED).
 */
#include "lua/lua_games.h"
#include "lua/lua_rt.h"

#include "pips/view.h"
#include "core/unchecked.h"

#include <jansson.h>
#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct variant_def {
    pips_game_def def; /* first: a def pointer is a variant_def pointer */
    atomic_int refs;
    const pips_game_def *base;
    pips_script script;
    char *file, *text, *description;
    char title[160];
    char *rules_text;
    bool has_legal, has_result;
    pips_option_def options[PIPS_MAX_OPTIONS];
} variant_def;

typedef struct variant_cfg {
    pips_game *inner; /* the base game, configured with the base options */
    lrt_pool pool;
    int np;
} variant_cfg;

/* One thread's Lua side: the script's functions and the last position. */
typedef struct vctx {
    int legal_ref, result_ref, meta_ref;
    int proxy_ref;         /* the cached position's state table */
    const void *proxy;     /* that table (a table from another position is stale) */
    const pips_game *cur_g; /* the inner game and state the proxy describes */
    const void *cur_state;
    unsigned char *last;   /* state_size bytes: the position cached below */
    bool last_valid;
    bool ended;            /* result() ended it */
    double rets[PIPS_MAX_PLAYERS];
    /* decision nodes of enumerable games: the base game's moves, of which
     * moves[first_ok] is the first that legal() allows; once `filtered`,
     * moves[0..n) are exactly the allowed ones */
    size_t n, first_ok;
    bool filtered;
    pips_move *moves;
    pips_move *scratch;
    /* the state table of single legal() calls: made unread, reused until a
     * script reads it (then it is that position's snapshot and a new one is made) */
    int fresh_ref;
    const void *fresh;
    bool fresh_read;
    int texts_ref; /* move code -> text, for PIPS_GAME_MOVE_TEXT_FIXED base games */
    int n_texts;
} vctx;

#define MAX_CACHED_TEXTS 65536 /* then the text cache starts again */
#define REJECTION_TRIES 8      /* refused draws before the filtered list is made */

static const variant_def *vdef_of(const pips_game *g) { return (const variant_def *)g->def; }
static variant_cfg *cfg_of(const pips_game *g) { return g->config; }
static const pips_game *inner_of(const pips_game *g) { return cfg_of(g)->inner; }

/* ---- the lazy state table ----------------------------------------------------- */

static int proxy_index(lua_State *L)
{
    vctx *vc = lrt_of(L)->user;
    if (lua_topointer(L, 1) != vc->proxy)
        return lrt_raise(L, "a state table is only valid during the call it was given to");
    if (vc->proxy == vc->fresh)
        vc->fresh_read = true;
    pips_error e = {0};
    json_t *obj = state_object_unchecked(vc->cur_g, vc->cur_state, &e);
    if (!obj)
        return lrt_raise(L, "cannot build the state object: %s", e.msg);
    const char *key;
    json_t *val;
    json_object_foreach(obj, key, val)
    {
        lua_pushstring(L, key);
        lrt_push_json(L, val, 0);
        lua_rawset(L, 1);
    }
    json_decref(obj);
    lua_pushnil(L);
    lua_setmetatable(L, 1); /* a plain snapshot from now on */
    lua_pushvalue(L, 2);
    lua_rawget(L, 1);
    return 1;
}

static void push_proxy(lua_State *L, vctx *vc, const pips_game *inner, const void *state)
{
    lua_createtable(L, 0, 6);
    lua_rawgeti(L, LUA_REGISTRYINDEX, vc->meta_ref);
    lua_setmetatable(L, -2);
    vc->proxy = lua_topointer(L, -1);
    vc->cur_g = inner;
    vc->cur_state = state;
}

/* The state table of one call about state: the unread table of the last
 * such call again, or a new one when the script read that (its snapshot may
 * be kept by the script). */
static void push_fresh_proxy(lua_State *L, vctx *vc, const pips_game *inner, const void *state)
{
    if (vc->fresh_ref == LUA_NOREF || vc->fresh_read) {
        lua_createtable(L, 0, 6);
        lua_rawgeti(L, LUA_REGISTRYINDEX, vc->meta_ref);
        lua_setmetatable(L, -2);
        vc->fresh = lua_topointer(L, -1);
        vc->fresh_read = false;
        if (vc->fresh_ref == LUA_NOREF)
            vc->fresh_ref = luaL_ref(L, LUA_REGISTRYINDEX);
        else
            lua_rawseti(L, LUA_REGISTRYINDEX, vc->fresh_ref);
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, vc->fresh_ref);
    vc->proxy = vc->fresh;
    vc->cur_g = inner;
    vc->cur_state = state;
}

/* The state table of the cached position (made with it, filled on first read). */
static void push_position_proxy(lua_State *L, vctx *vc)
{
    lua_rawgeti(L, LUA_REGISTRYINDEX, vc->proxy_ref);
    vc->proxy = lua_topointer(L, -1);
    vc->cur_state = vc->last;
}

static int setup(lua_State *L)
{
    vctx *vc = lua_newuserdatauv(L, sizeof *vc, 0); /* freed by cleanup via the registry */
    memset(vc, 0, sizeof *vc);
    lrt_ctx *c = lrt_of(L);
    c->user = vc;
    luaL_ref(L, LUA_REGISTRYINDEX); /* keeps vc alive as long as the state */
    lua_getglobal(L, "legal");
    vc->legal_ref = lua_isfunction(L, -1) ? luaL_ref(L, LUA_REGISTRYINDEX) : (lua_pop(L, 1), LUA_NOREF);
    lua_getglobal(L, "result");
    vc->result_ref = lua_isfunction(L, -1) ? luaL_ref(L, LUA_REGISTRYINDEX) : (lua_pop(L, 1), LUA_NOREF);
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, proxy_index);
    lua_setfield(L, -2, "__index");
    vc->meta_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    vc->proxy_ref = LUA_NOREF;
    vc->fresh_ref = LUA_NOREF;
    lua_newtable(L);
    vc->texts_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

static void cleanup(lrt_ctx *c)
{
    vctx *vc = c->user;
    if (!vc)
        return;
    free(vc->last);
    free(vc->moves);
    free(vc->scratch);
}

/* ---- the position's facts, once per position per thread -------------------- */

typedef struct pos_call {
    const pips_game *g;
    const void *state;
    vctx *vc;
} pos_call;

/* Calls result(proxy) (on the stack top): true when it ended the game. */
static bool ask_result(lua_State *L, const pips_game *g, vctx *vc, int proxy)
{
    if (vc->result_ref == LUA_NOREF)
        return false;
    lrt_of(L)->hook = "result";
    lua_rawgeti(L, LUA_REGISTRYINDEX, vc->result_ref);
    lua_pushvalue(L, proxy);
    lua_call(L, 1, 1);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return false;
    }
    int np = cfg_of(g)->np;
    if (!lua_istable(L, -1))
        lrt_raise(L, "%s: result must return nil or a sequence of %d returns, got a %s",
                   vdef_of(g)->file, np, luaL_typename(L, -1));
    for (int s = 0; s < np; s++) {
        lua_rawgeti(L, -1, s + 1);
        int isnum;
        double v = lua_tonumberx(L, -1, &isnum);
        if (!isnum || !(v >= 0 && v <= 1))
            lrt_raise(L, "%s: result: the return of seat %d must be a number in 0..1",
                       vdef_of(g)->file, s);
        vc->rets[s] = v;
        lua_pop(L, 1);
    }
    if (lua_rawlen(L, -1) != (lua_Unsigned)np)
        lrt_raise(L, "%s: result must return %d returns, one per seat, got %d",
                   vdef_of(g)->file, np, (int)lua_rawlen(L, -1));
    lua_pop(L, 1);
    return true;
}

/* Pushes the text of move m: from the cache when the base game's texts
 * depend on the move alone. */
static void push_move_text(lua_State *L, const pips_game *g, vctx *vc, const void *state,
                           pips_move m)
{
    const pips_game *inner = inner_of(g);
    char buf[PIPS_MOVE_TEXT_MAX];
    if (!(inner->def->flags & PIPS_GAME_MOVE_TEXT_FIXED)) {
        inner->def->move_to_text(inner, state, m, buf);
        lua_pushstring(L, buf);
        return;
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, vc->texts_ref);
    if (lua_rawgeti(L, -1, (lua_Integer)m) == LUA_TSTRING) {
        lua_remove(L, -2);
        return;
    }
    lua_pop(L, 1);
    if (vc->n_texts >= MAX_CACHED_TEXTS) { /* a huge move space: start again */
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_rawseti(L, LUA_REGISTRYINDEX, vc->texts_ref);
        vc->n_texts = 0;
    }
    inner->def->move_to_text(inner, state, m, buf);
    lua_pushstring(L, buf);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, (lua_Integer)m);
    vc->n_texts++;
    lua_remove(L, -2);
}

/* legal(proxy, m) for one move. */
static bool allows(lua_State *L, const pips_game *g, vctx *vc, int proxy, const void *state,
                   pips_move m)
{
    lrt_of(L)->hook = "legal";
    lua_rawgeti(L, LUA_REGISTRYINDEX, vc->legal_ref);
    lua_pushvalue(L, proxy);
    push_move_text(L, g, vc, state, m);
    lua_call(L, 2, 1);
    if (!lua_isboolean(L, -1)) {
        push_move_text(L, g, vc, state, m);
        lrt_raise(L, "%s: legal must return a boolean, got a %s for move '%s'",
                  vdef_of(g)->file, luaL_typename(L, -2), lua_tostring(L, -1));
    }
    bool ok = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return ok;
}

/* Keeps the moves of list[0..n) that legal(proxy, move) allows. */
static size_t filter(lua_State *L, const pips_game *g, vctx *vc, int proxy, const void *state,
                     pips_move *list, size_t n)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (allows(L, g, vc, proxy, state, list[i]))
            list[kept++] = list[i];
    return kept;
}

/* A new position: result(), the base moves and the first one legal() allows
 * (the rest are asked only when a caller needs the whole list). */
static int p_position(lua_State *L)
{
    pos_call *a = lua_touserdata(L, 1);
    const pips_game *g = a->g, *inner = inner_of(g);
    vctx *vc = a->vc;
    luaL_unref(L, LUA_REGISTRYINDEX, vc->proxy_ref);
    vc->proxy_ref = LUA_NOREF;
    push_proxy(L, vc, inner, vc->last);
    int proxy = lua_gettop(L);
    lua_pushvalue(L, proxy);
    vc->proxy_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    vc->ended = false;
    vc->n = vc->first_ok = 0;
    vc->filtered = true;
    int who = inner->def->to_move(inner, vc->last);
    if (who == PIPS_OVER)
        return 0;
    vc->ended = ask_result(L, g, vc, proxy);
    if (vc->ended || who == PIPS_CHANCE || !inner->def->legal_moves)
        return 0;
    vc->n = inner->def->legal_moves(inner, vc->last, vc->moves);
    if (vc->legal_ref == LUA_NOREF || vc->n == 0)
        return 0;
    vc->filtered = false;
    while (vc->first_ok < vc->n && !allows(L, g, vc, proxy, vc->last, vc->moves[vc->first_ok]))
        vc->first_ok++;
    if (vc->first_ok == vc->n) {
        /* every move removed and result() (asked above) returned nil */
        pips_str text;
        pips_str_init(&text, NULL);
        inner->def->state_to_text(inner, vc->last, &text);
        lua_pushstring(L, pips_str_cstr(&text));
        pips_str_free(&text);
        lrt_of(L)->hook = "legal";
        lrt_raise(L, "%s: legal removed every move of position '%s' and result returned nil",
                  vdef_of(g)->file, lua_tostring(L, -1));
    }
    return 0;
}

/* The whole list: legal() on the moves after first_ok. */
static int p_filter_rest(lua_State *L)
{
    pos_call *a = lua_touserdata(L, 1);
    vctx *vc = a->vc;
    push_position_proxy(L, vc);
    size_t first = vc->first_ok;
    vc->moves[0] = vc->moves[first];
    size_t rest = filter(L, a->g, vc, lua_gettop(L), vc->last, vc->moves + first + 1,
                         vc->n - first - 1);
    memmove(vc->moves + 1, vc->moves + first + 1, rest * sizeof *vc->moves);
    vc->n = rest + 1;
    vc->first_ok = 0;
    vc->filtered = true;
    return 0;
}

/* This thread's Lua side with its buffers; NULL after a failure. */
static vctx *thread_vctx(const pips_game *g)
{
    variant_cfg *cfg = cfg_of(g);
    if (lrt_failed(&cfg->pool, NULL))
        return NULL;
    lrt_ctx *c = lrt_get(&cfg->pool);
    if (!c)
        return NULL;
    vctx *vc = c->user;
    size_t ss = g->def->state_size;
    if (!vc->last || !vc->moves || !vc->scratch) {
        size_t mm = pips_max_moves(inner_of(g));
        if (!vc->last)
            vc->last = calloc(1, ss);
        if (!vc->moves)
            vc->moves = calloc(mm ? mm : 1, sizeof *vc->moves);
        if (!vc->scratch)
            vc->scratch = calloc(mm ? mm : 1, sizeof *vc->scratch);
        if (!vc->last || !vc->moves || !vc->scratch) {
            lrt_failf(&cfg->pool, PIPS_ERR_NOMEM, "out of memory for %s", vdef_of(g)->file);
            return NULL;
        }
    }
    return vc;
}

/* The thread's facts about state, computed when it is a new position.
 * NULL after a failure (then the game reads as over). */
static vctx *position(const pips_game *g, const void *state)
{
    vctx *vc = thread_vctx(g);
    if (!vc)
        return NULL;
    lrt_ctx *c = lrt_get(&cfg_of(g)->pool);
    size_t ss = g->def->state_size;
    if (vc->last_valid && !memcmp(vc->last, state, ss))
        return vc;
    memcpy(vc->last, state, ss); /* the position's own copy: its state table reads it */
    vc->last_valid = false;
    pos_call a = {g, state, vc};
    if (!lrt_run(c, "legal", p_position, &a, 0))
        return NULL;
    vc->last_valid = true;
    return vc;
}

/* The position's allowed moves, all of them. NULL after a failure. */
static vctx *position_filtered(const pips_game *g, const void *state)
{
    vctx *vc = position(g, state);
    if (!vc || vc->filtered)
        return vc;
    pos_call a = {g, state, vc};
    lrt_ctx *c = lrt_get(&cfg_of(g)->pool);
    if (!lrt_run(c, "legal", p_filter_rest, &a, 0)) {
        vc->last_valid = false;
        return NULL;
    }
    return vc;
}

typedef struct pick_call {
    const pips_game *g;
    vctx *vc;
    pips_move m;
    bool ok;
} pick_call;

static int p_allows(lua_State *L)
{
    pick_call *a = lua_touserdata(L, 1);
    push_position_proxy(L, a->vc);
    a->ok = allows(L, a->g, a->vc, lua_gettop(L), a->vc->last, a->m);
    return 0;
}

/* A uniformly random allowed move without asking legal() of every move:
 * draw among the moves not yet refused until legal() allows one (the first
 * allowed move is known already). */
typedef struct light_call {
    const pips_game *g;
    const void *state;
    pips_move m;
    bool ok;
} light_call;

/* legal(state, m) about one move of any position. */
static int p_light(lua_State *L)
{
    light_call *a = lua_touserdata(L, 1);
    vctx *vc = lrt_of(L)->user;
    push_fresh_proxy(L, vc, inner_of(a->g), a->state);
    a->ok = allows(L, a->g, vc, lua_gettop(L), a->state, a->m);
    vc->proxy = NULL;
    return 0;
}

/* Draws base moves (the base game's random_move) until legal() allows one,
 * at most REJECTION_TRIES times: *drawn says whether one was found. False
 * after a failure, or when the base game has no move. */
static bool draw_allowed(const pips_game *g, const void *s, pips_rng *rng, pips_move *out,
                         bool *drawn)
{
    const pips_game *inner = inner_of(g);
    variant_cfg *cfg = cfg_of(g);
    *drawn = false;
    if (!thread_vctx(g))
        return false;
    lrt_ctx *c = lrt_get(&cfg->pool);
    for (int t = 0; t < REJECTION_TRIES; t++) {
        light_call a = {g, s, 0, false};
        if (!inner->def->random_move(inner, s, rng, &a.m))
            return false;
        if (!lrt_run(c, "legal", p_light, &a, 0))
            return false;
        if (a.ok) {
            *out = a.m;
            *drawn = true;
            return true;
        }
    }
    return true; /* refused each time: the caller lists the allowed moves */
}

static size_t v_candidates(const pips_game *g, const void *s, pips_rng *rng, pips_move *out);

static bool v_random_move_filtered(const pips_game *g, const void *s, pips_rng *rng,
                                   pips_move *out)
{
    const pips_game *inner = inner_of(g);
    if (inner->def->to_move(inner, s) < 0)
        return false;
    bool drawn = false;
    if (!vdef_of(g)->has_result && inner->def->random_move) {
        bool ok = draw_allowed(g, s, rng, out, &drawn);
        if (drawn || !ok)
            return ok;
    }
    if (inner->def->flags & PIPS_GAME_NOT_ENUMERABLE) { /* the allowed candidates */
        vctx *vc = thread_vctx(g);
        size_t n = vc ? v_candidates(g, s, rng, vc->scratch) : 0;
        if (!n)
            return false;
        *out = vc->scratch[pips_rng_below(rng, n)];
        return true;
    }
    vctx *vc = position(g, s);
    if (!vc || vc->ended || vc->n == 0)
        return false;
    if (vc->filtered) {
        *out = vc->moves[pips_rng_below(rng, vc->n)];
        return true;
    }
    size_t m = vc->n - vc->first_ok;
    memcpy(vc->scratch, vc->moves + vc->first_ok, m * sizeof *vc->scratch);
    lrt_ctx *c = lrt_get(&cfg_of(g)->pool);
    for (;;) {
        size_t j = (size_t)pips_rng_below(rng, m);
        pick_call a = {g, vc, vc->scratch[j], j == 0};
        if (j != 0 && !lrt_run(c, "legal", p_allows, &a, 0)) {
            vc->last_valid = false;
            return false;
        }
        if (a.ok) {
            *out = a.m;
            return true;
        }
        /* refused: never drawn again; scratch[0], the known allowed move, stays */
        vc->scratch[j] = vc->scratch[--m];
    }
}

/* ---- the wrapped hooks -------------------------------------------------------- */

static int v_num_players(const pips_game *g) { return cfg_of(g)->np; }
static size_t v_max_moves(const pips_game *g) { return pips_max_moves(inner_of(g)); }
static void v_initial(const pips_game *g, void *s) { inner_of(g)->def->initial(inner_of(g), s); }

static int v_to_move(const pips_game *g, const void *s)
{
    const pips_game *inner = inner_of(g);
    int who = inner->def->to_move(inner, s);
    if (who == PIPS_OVER || (who == PIPS_CHANCE && !vdef_of(g)->has_result))
        return who; /* legal() is not asked about chance outcomes */
    if (lrt_failed(&cfg_of(g)->pool, NULL))
        return PIPS_OVER;
    if (!vdef_of(g)->has_result)
        return who; /* moves are asked about when they are wanted */
    vctx *vc = position(g, s);
    if (!vc || vc->ended)
        return PIPS_OVER;
    return who;
}

static size_t v_legal_moves(const pips_game *g, const void *s, pips_move *out)
{
    const pips_game *inner = inner_of(g);
    if (inner->def->to_move(inner, s) < 0)
        return 0;
    vctx *vc = position_filtered(g, s);
    if (!vc || vc->ended)
        return 0;
    memcpy(out, vc->moves, vc->n * sizeof *out);
    return vc->n;
}

static size_t v_chance_outcomes(const pips_game *g, const void *s, pips_move *out, double *prob)
{
    return inner_of(g)->def->chance_outcomes(inner_of(g), s, out, prob);
}

static bool v_sample_chance(const pips_game *g, const void *s, pips_rng *rng, pips_move *out)
{
    return inner_of(g)->def->sample_chance(inner_of(g), s, rng, out);
}

typedef struct one_call {
    const pips_game *g;
    const void *state;
    pips_move *list;
    size_t n;
} one_call;

static int p_filter(lua_State *L)
{
    one_call *a = lua_touserdata(L, 1);
    vctx *vc = lrt_of(L)->user;
    push_fresh_proxy(L, vc, inner_of(a->g), a->state);
    a->n = filter(L, a->g, vc, lua_gettop(L), a->state, a->list, a->n);
    vc->proxy = NULL;
    return 0;
}

/* legal() over a list outside the cached position (submitted moves of games
 * whose moves cannot be listed, candidates). False after a failure. */
static bool filter_list(const pips_game *g, const void *s, pips_move *list, size_t *n)
{
    variant_cfg *cfg = cfg_of(g);
    if (vdef_of(g)->has_legal == false)
        return true;
    lrt_ctx *c = lrt_failed(&cfg->pool, NULL) ? NULL : lrt_get(&cfg->pool);
    if (!c)
        return false;
    one_call a = {g, s, list, *n};
    bool ok = lrt_run(c, "legal", p_filter, &a, 0);
    ((vctx *)c->user)->proxy = NULL;
    *n = ok ? a.n : 0;
    return ok;
}

static bool v_check_move(const pips_game *g, const void *s, pips_move m, pips_error *err)
{
    const pips_game *inner = inner_of(g);
    const variant_def *vd = vdef_of(g);
    pips_error why;
    if (pips_game_failed(g, &why))
        return pips_fail(err, why.code, "%s", why.msg);
    int who = v_to_move(g, s);
    if (pips_game_failed(g, &why))
        return pips_fail(err, why.code, "%s", why.msg);
    if (who == PIPS_OVER)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "the game is over");
    if (!pips_check_move(inner, s, m, err))
        return false;
    if (who == PIPS_CHANCE)
        return true;
    if (inner->def->legal_moves) {
        vctx *vc = position_filtered(g, s);
        for (size_t i = 0; vc && i < vc->n; i++)
            if (vc->moves[i] == m)
                return true;
    } else {
        size_t n = 1;
        pips_move one = m;
        if (filter_list(g, s, &one, &n) && n == 1)
            return true;
    }
    if (pips_game_failed(g, &why))
        return pips_fail(err, why.code, "%s", why.msg);
    char buf[PIPS_MOVE_TEXT_MAX];
    inner->def->move_to_text(inner, s, m, buf);
    return pips_fail(err, PIPS_ERR_ILLEGAL, "%s is not allowed by %s", buf, vd->file);
}

static size_t v_candidates(const pips_game *g, const void *s, pips_rng *rng, pips_move *out)
{
    size_t n = inner_of(g)->def->candidates(inner_of(g), s, rng, out);
    return filter_list(g, s, out, &n) ? n : 0;
}

static void v_apply(const pips_game *g, void *s, pips_move m)
{
    inner_of(g)->def->apply(inner_of(g), s, m);
}

static void v_undo(const pips_game *g, void *s, pips_move m)
{
    inner_of(g)->def->undo(inner_of(g), s, m);
}

static bool ended_by_script(const pips_game *g, const void *s, double *rets)
{
    const pips_game *inner = inner_of(g);
    if (inner->def->to_move(inner, s) == PIPS_OVER)
        return false;
    vctx *vc = position(g, s);
    int np = cfg_of(g)->np;
    for (int i = 0; i < np; i++)
        rets[i] = vc && vc->ended ? vc->rets[i] : 1.0 / np; /* a failure: shares */
    return true;
}

static void v_returns(const pips_game *g, const void *s, double *out)
{
    if (!ended_by_script(g, s, out))
        inner_of(g)->def->returns(inner_of(g), s, out);
}

static void v_scores(const pips_game *g, const void *s, int *out)
{
    inner_of(g)->def->scores(inner_of(g), s, out);
}

void plua_returns_text(const double *r, int np, pips_str *out)
{
    int winner = -1, ones = 0;
    bool equal = true;
    for (int i = 0; i < np; i++) {
        if (r[i] == 1.0)
            ones++, winner = i;
        else if (r[i] != 0.0)
            winner = -2;
        equal = equal && r[i] == r[0];
    }
    if (ones == 1 && winner >= 0)
        pips_str_catf(out, "player %d wins", winner + 1);
    else if (equal)
        pips_str_cat(out, "draw");
    else
        for (int i = 0; i < np; i++)
            pips_str_catf(out, "%s%g", i ? "/" : "returns ", r[i]);
}

/* The result the script declared, then the script's name. */
static void returns_text(const pips_game *g, const double *r, const char *file, pips_str *out)
{
    plua_returns_text(r, pips_num_players(g), out);
    pips_str_catf(out, " (%s)", file);
}

static void v_result_text(const pips_game *g, const void *s, pips_str *out)
{
    const pips_game *inner = inner_of(g);
    vctx *vc = inner->def->to_move(inner, s) == PIPS_OVER ? NULL : position(g, s);
    if (inner->def->to_move(inner, s) == PIPS_OVER || (vc && !vc->ended))
        inner->def->result_text(inner, s, out);
    else if (vc)
        returns_text(g, vc->rets, vdef_of(g)->file, out);
    else
        pips_str_catf(out, "stopped: %s failed", vdef_of(g)->file);
}

static bool v_capped(const pips_game *g, const void *s)
{
    return inner_of(g)->def->to_move(inner_of(g), s) == PIPS_OVER &&
           inner_of(g)->def->capped(inner_of(g), s);
}

static void v_move_to_text(const pips_game *g, const void *s, pips_move m, char *buf)
{
    inner_of(g)->def->move_to_text(inner_of(g), s, m, buf);
}

static bool v_move_from_text(const pips_game *g, const void *s, const char *text, pips_move *m,
                             pips_error *err)
{
    return inner_of(g)->def->move_from_text(inner_of(g), s, text, m, err);
}

static void v_state_to_text(const pips_game *g, const void *s, pips_str *out)
{
    inner_of(g)->def->state_to_text(inner_of(g), s, out);
}

static bool v_state_from_text(const pips_game *g, const char *text, void *s, pips_error *err)
{
    return inner_of(g)->def->state_from_text(inner_of(g), text, s, err);
}

static uint64_t v_hash(const pips_game *g, const void *s)
{
    return inner_of(g)->def->hash(inner_of(g), s);
}

static void v_render(const pips_game *g, const void *s, const pips_render_opts *ro, pips_str *out)
{
    inner_of(g)->def->render(inner_of(g), s, ro, out);
}

static bool v_state_view(const pips_game *g, const void *s, struct json_t *view)
{
    return inner_of(g)->def->state_view(inner_of(g), s, view);
}

static bool v_random_move(const pips_game *g, const void *s, pips_rng *rng, pips_move *out)
{
    return inner_of(g)->def->random_move(inner_of(g), s, rng, out);
}

static bool v_playout_move(const pips_game *g, const void *s, pips_rng *rng, pips_move *out)
{
    return inner_of(g)->def->playout_move(inner_of(g), s, rng, out);
}

static void v_evaluate(const pips_game *g, const void *s, double *out)
{
    inner_of(g)->def->evaluate(inner_of(g), s, out);
}

static void v_order_moves(const pips_game *g, const void *s, const pips_move *moves, size_t n,
                          int *scores)
{
    inner_of(g)->def->order_moves(inner_of(g), s, moves, n, scores);
}

static bool v_failure(const pips_game *g, pips_error *err, bool clear)
{
    variant_cfg *cfg = cfg_of(g);
    if (clear) {
        lrt_clear(&cfg->pool);
        return false;
    }
    return lrt_failed(&cfg->pool, err);
}

/* ---- configuring ----------------------------------------------------------------- */

static bool v_configure(const pips_game *g, void *config, pips_error *err)
{
    const variant_def *vd = vdef_of(g);
    variant_cfg *cfg = config;
    pips_options base_opts;
    memset(&base_opts, 0, sizeof base_opts);
    for (size_t i = 0; i < g->options.n; i++) {
        const char *k = g->options.kv[i].key;
        if (!strcmp(k, "rules") || !strcmp(k, "lua_steps") || !strcmp(k, "lua_mb"))
            continue;
        base_opts.kv[base_opts.n++] = g->options.kv[i];
    }
    long steps, mb;
    if (!plua_limits(g, &steps, &mb, err))
        return false;
    cfg->inner = pips_game_new_opts(vd->base, &base_opts, g->alloc, err);
    if (!cfg->inner)
        return false;
    cfg->np = pips_num_players(cfg->inner);
    lrt_pool_init(&cfg->pool, vd->file, vd->text, vd->script.len, steps, mb, setup, cleanup);
    if (!lrt_get(&cfg->pool)) { /* load it now, so a broken script fails here */
        lrt_failed(&cfg->pool, err);
        lrt_pool_destroy(&cfg->pool);
        pips_game_free(cfg->inner);
        return false;
    }
    return true;
}

static void v_release(const pips_game *g, void *config)
{
    (void)g;
    variant_cfg *cfg = config;
    lrt_pool_destroy(&cfg->pool);
    pips_game_free(cfg->inner);
}

static void vdef_free(variant_def *vd)
{
    free(vd->file);
    free(vd->text);
    free(vd->description);
    free(vd->rules_text);
    free(vd);
}

static void v_hold(const pips_game_def *def, int delta)
{
    variant_def *vd = (variant_def *)def;
    if (atomic_fetch_add(&vd->refs, delta) + delta == 0)
        vdef_free(vd);
}

/* Reads the script's globals at load time. */
static int inspect(lua_State *L)
{
    variant_def *vd = lrt_of(L)->user;
    static const char *const fns[] = {"legal", "result"};
    for (int i = 0; i < 2; i++) {
        int t = lua_getglobal(L, fns[i]);
        if (t != LUA_TNIL && t != LUA_TFUNCTION)
            return lrt_raise(L, "%s: '%s' must be a function, got a %s", vd->file, fns[i],
                              lua_typename(L, t));
        if (i == 0)
            vd->has_legal = t == LUA_TFUNCTION;
        else
            vd->has_result = t == LUA_TFUNCTION;
        lua_pop(L, 1);
    }
    int t = lua_getglobal(L, "description");
    if (t != LUA_TNIL && t != LUA_TSTRING)
        return lrt_raise(L, "%s: 'description' must be a string, got a %s", vd->file,
                          lua_typename(L, t));
    if (t == LUA_TSTRING && !(vd->description = strdup(lua_tostring(L, -1))))
        return lrt_raise(L, "out of memory");
    lua_pop(L, 1);
    if (!vd->has_legal && !vd->has_result)
        return lrt_raise(L, "%s: defines neither legal nor result, so it changes nothing",
                          vd->file);
    return 0;
}

void plua_limit_options(pips_option_def *steps, pips_option_def *mb)
{
    *steps = (pips_option_def){.key = "lua_steps", .default_value = "10000000",
                               .help = PLUA_STEPS_HELP, .type = PIPS_OPT_INT, .min = 1000,
                               .max = 2000000000L};
    *mb = (pips_option_def){.key = "lua_mb", .default_value = "64", .help = PLUA_MB_HELP,
                            .type = PIPS_OPT_INT, .min = 1, .max = 4096};
}

bool plua_limits(const pips_game *g, long *steps, long *mb, pips_error *err)
{
    return pips_game_opt_int(g, "lua_steps", steps, err) && pips_game_opt_int(g, "lua_mb", mb, err);
}

static variant_def *variant_new(const pips_game_def *base, const char *file, const char *text,
                                long steps, pips_error *err)
{
    if (base->n_options + 3 > PIPS_MAX_OPTIONS) {
        pips_fail(err, PIPS_ERR_UNSUPPORTED, "%s has too many options for a rule script",
                  base->name);
        return NULL;
    }
    variant_def *vd = calloc(1, sizeof *vd);
    size_t len = 0;
    if (!vd || !(vd->file = strdup(file))) {
        free(vd);
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory loading %s", file);
        return NULL;
    }
    if (text) {
        len = strlen(text);
        vd->text = strdup(text);
    } else {
        vd->text = lrt_read_file(file, &len, err);
        if (!vd->text) {
            pips_error_prefix(err, "--rules: ");
            vdef_free(vd);
            return NULL;
        }
    }
    if (!vd->text) {
        vdef_free(vd);
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory loading %s", file);
        return NULL;
    }
    if (!lrt_inspect(vd->file, vd->text, len, steps, 0, inspect, vd, err)) {
        vdef_free(vd);
        return NULL;
    }
    atomic_init(&vd->refs, 1);
    vd->base = base;
    vd->script = (pips_script){.file = vd->file, .text = vd->text, .len = len,
                               .description = vd->description};
    lrt_sha256_hex(vd->text, len, vd->script.sha256);
    memcpy(vd->options, base->options, base->n_options * sizeof *vd->options);
    size_t no = base->n_options;
    vd->options[no++] = (pips_option_def){
        .key = "rules", .default_value = "none",
        .help = "a Lua rule script changing the game (docs/lua.md), or none",
        .type = PIPS_OPT_TEXT, .pattern = "FILE.lua or none"};
    plua_limit_options(&vd->options[no], &vd->options[no + 1]);
    no += 2;
    snprintf(vd->title, sizeof vd->title, "%s with %s", base->title, file);
    size_t rl = strlen(base->rules_text) + strlen(file) +
                (vd->description ? strlen(vd->description) : 0) + 64;
    vd->rules_text = malloc(rl);
    if (!vd->rules_text) {
        vdef_free(vd);
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory loading %s", file);
        return NULL;
    }
    snprintf(vd->rules_text, rl, "%s\nChanged by the rule script %s%s%s\n", base->rules_text,
             file, vd->description ? ": " : ".", vd->description ? vd->description : "");

    pips_game_def *d = &vd->def;
    *d = *base;
    d->title = vd->title;
    d->rules_text = vd->rules_text;
    d->options = vd->options;
    d->n_options = no;
    d->config_size = sizeof(variant_cfg);
    d->bench_extra = NULL;
    d->configure = v_configure;
    d->release = v_release;
    d->num_players = v_num_players;
    d->max_moves = v_max_moves;
    d->initial = v_initial;
    d->to_move = v_to_move;
    d->legal_moves = base->legal_moves ? v_legal_moves : NULL;
    d->count_moves = NULL;
    d->chance_outcomes = base->chance_outcomes ? v_chance_outcomes : NULL;
    d->check_move = v_check_move;
    d->apply = v_apply;
    d->undo = base->undo ? v_undo : NULL;
    d->returns = v_returns;
    d->scores = base->scores ? v_scores : NULL;
    d->result_text = v_result_text;
    d->capped = base->capped ? v_capped : NULL;
    d->move_to_text = v_move_to_text;
    d->move_from_text = v_move_from_text;
    d->state_to_text = v_state_to_text;
    d->state_from_text = v_state_from_text;
    d->hash = v_hash;
    d->render = v_render;
    d->state_view = base->state_view ? v_state_view : NULL;
    d->candidates = base->candidates ? v_candidates : NULL;
    /* shortcuts that skip legal() go when the script filters moves */
    d->random_move = !vd->has_legal ? (base->random_move ? v_random_move : NULL)
                     : (base->legal_moves && !(base->flags & PIPS_GAME_NOT_ENUMERABLE)) ||
                             (base->random_move && base->candidates)
                         ? v_random_move_filtered
                         : NULL;
    d->playout_move = base->playout_move && !vd->has_legal ? v_playout_move : NULL;
    d->sample_chance = base->sample_chance ? v_sample_chance : NULL;
    d->evaluate = base->evaluate ? v_evaluate : NULL;
    d->order_moves = base->order_moves ? v_order_moves : NULL;
    d->canonical = NULL; /* a script may break the board's symmetries */
    d->solve = NULL;     /* the game's own solver does not know the script */
    d->known_value = NULL; /* books were built without it */
    d->script = &vd->script;
    d->hold = v_hold;
    d->failure = v_failure;
    return vd;
}

bool plua_resolve(const pips_game_def *def, const char *rules, const char *text,
                  const char *steps, const pips_game_def **out, bool *held, pips_error *err)
{
    *held = false;
    *out = def;
    const pips_game_def *base = def;
    if (def->script) {
        if (def->configure != v_configure) { /* a whole Lua game */
            if (rules && strcmp(rules, "none") != 0)
                return pips_fail(err, PIPS_ERR_UNSUPPORTED,
                                 "rule scripts apply to the built-in games, not to %s",
                                 def->script->file);
            return true;
        }
        base = ((const variant_def *)def)->base;
        if (rules && !strcmp(rules, def->script->file) &&
            (!text || !strcmp(text, def->script->text)))
            return true; /* the same script again */
    }
    if (!rules || !strcmp(rules, "none")) {
        *out = base;
        return true;
    }
    if (!text) {
        size_t n = strlen(rules);
        if (n < 5 || strcmp(rules + n - 4, ".lua") != 0)
            return pips_fail(err, PIPS_ERR_ARG,
                             "option 'rules': '%.200s' is not a .lua file or none", rules);
    }
    long load_steps = 0;
    if (steps && !pips_parse_int(steps, 1000, 2000000000L, &load_steps))
        load_steps = 0; /* the option check reports it */
    variant_def *vd = variant_new(base, rules, text, load_steps, err);
    if (!vd)
        return false;
    *out = &vd->def;
    *held = true;
    return true;
}
