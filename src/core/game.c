/*
 * game.c — configuring games from options, and the generic helpers every
 * front end and agent uses over the game interface: validated play, perft,
 * random playouts and chance sampling.
 *
 * Invariants: a pips_game's options always hold every key of its game, in
 * the order of the game's option table; a failed call leaves states as they
 * were.
 */
#include "pips/game.h"

#include "lua/lua_games.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *pips_options_get(const pips_options *o, const char *key)
{
    for (size_t i = 0; i < o->n; i++)
        if (!strcmp(o->kv[i].key, key))
            return o->kv[i].value;
    return NULL;
}

bool pips_option_int(const pips_options *o, const char *key, long lo, long hi, long *out,
                     pips_error *err)
{
    const char *v = pips_options_get(o, key);
    if (v && pips_parse_int(v, lo, hi, out))
        return true;
    return pips_fail(err, PIPS_ERR_ARG, "option '%s': '%.64s' is not %ld..%ld", key,
                     v ? v : "", lo, hi);
}

bool pips_option_bool(const pips_options *o, const char *key, bool *out, pips_error *err)
{
    /* Only the two spellings records and `pips list` show: accepting "yes"
     * or "1" would store a value that reads differently from the default. */
    const char *v = pips_options_get(o, key);
    if (v && (!strcmp(v, "true") || !strcmp(v, "false"))) {
        *out = v[0] == 't';
        return true;
    }
    return pips_fail(err, PIPS_ERR_ARG, "option '%s': '%.64s' is not true or false", key,
                     v ? v : "");
}

bool pips_option_choice(const pips_options *o, const char *key, const char *const *choices,
                        int *out, pips_error *err)
{
    const char *v = pips_options_get(o, key);
    int n = 0;
    for (; choices[n]; n++)
        if (v && !strcmp(v, choices[n])) {
            *out = n;
            return true;
        }
    char list[PIPS_ERROR_MAX];
    size_t len = 0;
    list[0] = '\0';
    for (int i = 0; i < n; i++) {
        const char *sep = i == 0 ? "" : i == n - 1 ? " or " : ", ";
        int w = snprintf(list + len, sizeof list - len, "%s%s", sep, choices[i]);
        if (w < 0 || (size_t)w >= sizeof list - len)
            break;
        len += (size_t)w;
    }
    return pips_fail(err, PIPS_ERR_ARG, "option '%s': '%.64s' is not %s", key, v ? v : "",
                     list);
}

static bool set_option(pips_options *o, const pips_game_def *def, const char *key,
                       const char *value, bool *seen, pips_error *err)
{
    for (size_t i = 0; i < def->n_options; i++) {
        if (strcmp(def->options[i].key, key) != 0)
            continue;
        if (seen[i])
            return pips_fail(err, PIPS_ERR_ARG, "option '%s' given twice", key);
        if (strlen(value) >= PIPS_OPT_VALUE_MAX)
            return pips_fail(err, PIPS_ERR_ARG, "option '%s': value too long (max %d chars)",
                             key, PIPS_OPT_VALUE_MAX - 1);
        seen[i] = true;
        strcpy(o->kv[i].value, value);
        return true;
    }
    char buf[PIPS_ERROR_MAX] = "";
    size_t used = 0;
    for (size_t i = 0; i < def->n_options && used + 40 < sizeof buf; i++)
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", i ? ", " : "",
                                 def->options[i].key);
    return pips_fail(err, PIPS_ERR_ARG, "%s has no option '%.64s' (options: %s)", def->name,
                     key, def->n_options ? buf : "none");
}

static void default_options(const pips_game_def *def, pips_options *o)
{
    memset(o, 0, sizeof *o);
    o->n = def->n_options;
    for (size_t i = 0; i < def->n_options; i++) {
        snprintf(o->kv[i].key, PIPS_OPT_KEY_MAX, "%s", def->options[i].key);
        snprintf(o->kv[i].value, PIPS_OPT_VALUE_MAX, "%s", def->options[i].default_value);
    }
}

/* A digest of the option values (the keys are the definition's). */
static uint64_t options_hash(const pips_options *o)
{
    uint64_t h = o->n;
    for (size_t i = 0; i < o->n; i++)
        for (const char *p = o->kv[i].value; ; p++) {
            h = pips_mix64(h ^ (unsigned char)*p);
            if (!*p)
                break;
        }
    return h;
}

static pips_game *game_build(const pips_game_def *def, const pips_options *opts,
                             const pips_allocator *alloc, pips_error *err)
{
    for (size_t i = 0; i < def->n_options; i++) /* every value against its schema */
        if (!pips_option_check(&def->options[i], opts->kv[i].value, err))
            return NULL;
    pips_game *g = pips_calloc(alloc, 1, sizeof *g);
    if (!g) {
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory creating %s", def->name);
        return NULL;
    }
    g->def = def;
    g->options = *opts;
    g->options_key = options_hash(opts);
    g->alloc = alloc;
    g->config = pips_calloc(alloc, 1, def->config_size ? def->config_size : 1);
    if (!g->config) {
        pips_free(alloc, g);
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory creating %s", def->name);
        return NULL;
    }
    if (!def->configure(g, g->config, err)) {
        pips_free(alloc, g->config);
        pips_free(alloc, g);
        return NULL;
    }
    if (def->hold)
        def->hold(def, +1);
    return g;
}

/* The value of key among "key=value" pairs, or NULL. */
static const char *kv_value(const char *const *kv, size_t n, const char *key)
{
    size_t kl = strlen(key);
    for (size_t i = 0; i < n; i++)
        if (!strncmp(kv[i], key, kl) && kv[i][kl] == '=')
            return kv[i] + kl + 1;
    return NULL;
}

/* Builds def with kv, or the variant the option rules=FILE.lua names (a rule
 * script over a built-in game, src/lua/): text, when given, is the script's
 * text from a record. "rules=none" leaves the game as it is. */
static pips_game *new_def_script(const pips_game_def *def, const char *const *kv, size_t n,
                                 const char *text, const pips_allocator *alloc, pips_error *err)
{
    const pips_game_def *use = def;
    bool held = false;
    if (!plua_resolve(def, kv_value(kv, n, "rules"), text, kv_value(kv, n, "lua_steps"), &use,
                      &held, err))
        return NULL;
    bool has_rules = pips_option_def_find(use, "rules") != NULL;
    pips_options o;
    default_options(use, &o);
    bool seen[PIPS_MAX_OPTIONS] = {false};
    pips_game *g = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *eq = strchr(kv[i], '=');
        if (!eq || eq == kv[i]) {
            pips_fail(err, PIPS_ERR_ARG, "option '%.64s' is not of the form key=value", kv[i]);
            goto done;
        }
        char key[PIPS_OPT_KEY_MAX];
        size_t klen = (size_t)(eq - kv[i]);
        if (klen >= sizeof key) {
            pips_fail(err, PIPS_ERR_ARG, "option key '%.40s...' is too long", kv[i]);
            goto done;
        }
        memcpy(key, kv[i], klen);
        key[klen] = '\0';
        if (!has_rules && !strcmp(key, "rules") && !strcmp(eq + 1, "none"))
            continue;
        if (!set_option(&o, use, key, eq + 1, seen, err))
            goto done;
    }
    g = game_build(use, &o, alloc, err);
done:
    if (held)
        use->hold(use, -1);
    return g;
}

pips_game *pips_game_new_def(const pips_game_def *def, const char *const *kv, size_t n,
                             const pips_allocator *alloc, pips_error *err)
{
    return new_def_script(def, kv, n, NULL, alloc, err);
}

pips_game *pips_game_new_def_text(const pips_game_def *def, const char *const *kv, size_t n,
                                  const char *text, const pips_allocator *alloc,
                                  pips_error *err)
{
    return new_def_script(def, kv, n, text, alloc, err);
}

pips_game *pips_game_new_opts(const pips_game_def *def, const pips_options *opts,
                              const pips_allocator *alloc, pips_error *err)
{
    const char *kv[PIPS_MAX_OPTIONS];
    char buf[PIPS_MAX_OPTIONS][PIPS_OPT_KEY_MAX + PIPS_OPT_VALUE_MAX + 1];
    size_t n = opts->n < PIPS_MAX_OPTIONS ? opts->n : PIPS_MAX_OPTIONS;
    for (size_t i = 0; i < n; i++) {
        snprintf(buf[i], sizeof buf[i], "%s=%s", opts->kv[i].key, opts->kv[i].value);
        kv[i] = buf[i];
    }
    return new_def_script(def, kv, n, NULL, alloc, err);
}

const pips_script *pips_game_script(const pips_game *g) { return g->def->script; }

bool pips_game_failed(const pips_game *g, pips_error *err)
{
    return g->def->failure && g->def->failure(g, err, false);
}

void pips_game_clear_failure(const pips_game *g)
{
    if (g->def->failure)
        g->def->failure(g, NULL, true);
}

void pips_game_free(pips_game *g)
{
    if (!g)
        return;
    const pips_game_def *def = g->def;
    if (def->release)
        def->release(g, g->config);
    pips_free(g->alloc, g->config);
    pips_free(g->alloc, g);
    if (def->hold) /* last: a run-time definition may go with it */
        def->hold(def, -1);
}

/* A state from pips_state_new carries a tag just before its bytes: which game
 * and which options made it, so pips_state_check can refuse a state of
 * another game. The tag's size keeps the state maximally aligned. */
typedef struct state_tag {
    uint64_t magic;
    const pips_game_def *def;
    uint64_t options_hash;
    const pips_allocator *alloc; /* the game's: pips_state_free needs no live game */
} state_tag;
#define STATE_TAG_MAGIC 0x7069707353746174ull /* "pipsStat" */
#define STATE_TAG_SIZE                                                                      \
    ((sizeof(state_tag) + _Alignof(max_align_t) - 1) / _Alignof(max_align_t) *              \
     _Alignof(max_align_t))

static state_tag *tag_of(const void *state)
{
    return (state_tag *)(void *)((unsigned char *)(uintptr_t)state - STATE_TAG_SIZE);
}

void *pips_state_new(const pips_game *g, pips_error *err)
{
    if (!g || !g->def) {
        pips_fail(err, PIPS_ERR_ARG, "no game (NULL) for a new state");
        return NULL;
    }
    unsigned char *block = pips_calloc(g->alloc, 1, STATE_TAG_SIZE + g->def->state_size);
    if (!block) {
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory for a %s state", g->def->name);
        return NULL;
    }
    state_tag *tag = (state_tag *)(void *)block;
    *tag = (state_tag){STATE_TAG_MAGIC, g->def, g->options_key, g->alloc};
    void *s = block + STATE_TAG_SIZE;
    g->def->initial(g, s);
    return s;
}

bool pips_state_check(const pips_game *g, const void *state, pips_error *err)
{
    if (!g || !g->def)
        return pips_fail(err, PIPS_ERR_ARG, "no game (NULL)");
    if (!state)
        return pips_fail(err, PIPS_ERR_ARG, "no %s state (NULL)", g->def->name);
    const state_tag *tag = tag_of(state);
    if (tag->magic != STATE_TAG_MAGIC)
        return pips_fail(err, PIPS_ERR_ARG, "not a state from pips_state_new");
    if (tag->def != g->def)
        return pips_fail(err, PIPS_ERR_ARG, "a state of %s given to %s", tag->def->name,
                         g->def->name);
    if (tag->options_hash != g->options_key)
        return pips_fail(err, PIPS_ERR_ARG,
                         "a state of %s with other options than this game's", g->def->name);
    return true;
}

void pips_state_free(const pips_game *g, void *state)
{
    if (!g || !state)
        return;
    state_tag *tag = tag_of(state);
    if (tag->magic != STATE_TAG_MAGIC)
        return; /* not one of pips_state_new's: leave it */
    tag->magic = 0;
    pips_free(tag->alloc, tag);
}

size_t pips_node_moves(const pips_game *g, const void *state, pips_rng *rng, pips_move *out,
                       double *prob)
{
    const pips_game_def *d = g->def;
    int who = d->to_move(g, state);
    if (who == PIPS_OVER)
        return 0;
    if (who == PIPS_CHANCE) {
        if (prob)
            return d->chance_outcomes(g, state, out, prob);
        double *tmp = pips_malloc(g->alloc, d->max_moves(g) * sizeof *tmp);
        if (!tmp)
            return 0;
        size_t n = d->chance_outcomes(g, state, out, tmp);
        pips_free(g->alloc, tmp);
        return n;
    }
    if (d->legal_moves && !(d->flags & PIPS_GAME_NOT_ENUMERABLE))
        return d->legal_moves(g, state, out);
    if (d->candidates && rng)
        return d->candidates(g, state, rng, out);
    return d->legal_moves ? d->legal_moves(g, state, out) : 0;
}

/* The NULL checks of the calls programs make with a game and a state. */
static bool game_state_given(const pips_game *g, const void *state, pips_error *err)
{
    if (!g || !g->def)
        return pips_fail(err, PIPS_ERR_ARG, "no game (NULL)");
    if (!state)
        return pips_fail(err, PIPS_ERR_ARG, "no %s state (NULL)", g->def->name);
    return true;
}

bool pips_check_move(const pips_game *g, const void *state, pips_move m, pips_error *err)
{
    if (!game_state_given(g, state, err))
        return false;
    const pips_game_def *d = g->def;
    int who = d->to_move(g, state);
    if (who == PIPS_OVER)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "the game is over");
    if (d->check_move)
        return d->check_move(g, state, m, err);
    size_t cap = d->max_moves(g);
    pips_move *moves = pips_malloc(g->alloc, cap * sizeof *moves);
    double *prob = NULL;
    if (!moves)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory checking a move");
    size_t n;
    if (who == PIPS_CHANCE) {
        prob = pips_malloc(g->alloc, cap * sizeof *prob);
        if (!prob) {
            pips_free(g->alloc, moves);
            return pips_fail(err, PIPS_ERR_NOMEM, "out of memory checking a move");
        }
        n = d->chance_outcomes(g, state, moves, prob);
    } else {
        n = d->legal_moves(g, state, moves);
    }
    bool found = false;
    for (size_t i = 0; i < n && !found; i++)
        found = moves[i] == m;
    pips_free(g->alloc, moves);
    pips_free(g->alloc, prob);
    if (!found) {
        char text[PIPS_MOVE_TEXT_MAX];
        d->move_to_text(g, state, m, text);
        return pips_fail(err, PIPS_ERR_ILLEGAL, "%s '%s' is not legal here",
                         who == PIPS_CHANCE ? "chance outcome" : "move", text);
    }
    return true;
}

bool pips_parse_move(const pips_game *g, const void *state, const char *text, pips_move *m,
                     pips_error *err)
{
    if (!game_state_given(g, state, err))
        return false;
    if (!text || !m)
        return pips_fail(err, PIPS_ERR_ARG, "no move %s (NULL)", !text ? "text" : "out");
    pips_move mv;
    if (!g->def->move_from_text(g, state, text, &mv, err))
        return false;
    if (!pips_check_move(g, state, mv, err))
        return false;
    *m = mv;
    return true;
}

bool pips_play_text(const pips_game *g, void *state, const char *text, pips_error *err)
{
    pips_move m;
    if (!pips_parse_move(g, state, text, &m, err))
        return false;
    g->def->apply(g, state, m);
    return true;
}

/* perft: recursion with one move buffer and one state buffer per ply. */
typedef struct perft_ctx {
    const pips_game *g;
    size_t max_moves, state_size;
    pips_move *moves;    /* depth * max_moves */
    unsigned char *states; /* depth * state_size */
    double *prob;
} perft_ctx;

static uint64_t perft_rec(perft_ctx *c, const void *state, int depth, int ply)
{
    const pips_game_def *d = c->g->def;
    int who = d->to_move(c->g, state);
    if (who == PIPS_OVER)
        return 0;
    if (depth == 1 && who != PIPS_CHANCE && d->count_moves)
        return d->count_moves(c->g, state);
    pips_move *moves = c->moves + (size_t)ply * c->max_moves;
    size_t n = who == PIPS_CHANCE ? d->chance_outcomes(c->g, state, moves, c->prob)
                                  : d->legal_moves(c->g, state, moves);
    if (depth == 1)
        return n;
    unsigned char *child = c->states + (size_t)ply * c->state_size;
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        memcpy(child, state, c->state_size);
        d->apply(c->g, child, moves[i]);
        total += perft_rec(c, child, depth - 1, ply + 1);
    }
    return total;
}

bool pips_perft_count(const pips_game *g, const void *state, int depth, uint64_t *count,
                      pips_error *err)
{
    if (!count)
        return pips_fail(err, PIPS_ERR_ARG, "perft: nowhere to put the count (NULL)");
    *count = 0;
    if (!game_state_given(g, state, err))
        return false;
    *count = 1;
    if (depth <= 0)
        return true;
    perft_ctx c = {g, g->def->max_moves(g), g->def->state_size, NULL, NULL, NULL};
    c.moves = pips_malloc(g->alloc, (size_t)depth * c.max_moves * sizeof *c.moves);
    c.states = pips_malloc(g->alloc, (size_t)depth * c.state_size);
    c.prob = pips_malloc(g->alloc, c.max_moves * sizeof *c.prob);
    bool ok = c.moves && c.states && c.prob;
    *count = ok ? perft_rec(&c, state, depth, 0) : 0;
    pips_free(g->alloc, c.moves);
    pips_free(g->alloc, c.states);
    pips_free(g->alloc, c.prob);
    if (!ok)
        return pips_fail(err, PIPS_ERR_NOMEM, "%s: out of memory for perft to depth %d",
                         g->def->name, depth);
    return true;
}

uint64_t pips_perft(const pips_game *g, const void *state, int depth)
{
    uint64_t total = 0;
    pips_perft_count(g, state, depth, &total, NULL);
    return total;
}

size_t pips_sample_chance(pips_rng *rng, const double *prob, size_t n)
{
    double r = pips_rng_double(rng), acc = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        acc += prob[i];
        if (r < acc)
            return i;
    }
    return n - 1;
}

size_t pips_sample_equal(pips_rng *rng, size_t n)
{
    double r = pips_rng_double(rng);
    /* for a power of two the running sums k/n are exact, so the index is floor(r * n) */
    if (!(n & (n - 1)))
        return (size_t)(r * (double)n);
    double p = 1.0 / (double)n, acc = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        acc += p;
        if (r < acc)
            return i;
    }
    return n - 1;
}

/* The playout loop: decisions from decide (random_move or playout_move) when
 * the game has it, else uniformly from the legal list (or candidates);
 * chance from sample_chance when present, else by chance_outcomes. */
typedef bool (*pick_fn)(const pips_game *g, const void *state, pips_rng *rng, pips_move *out);

static size_t playout(const pips_game *g, void *state, pips_rng *rng, pips_move *buf,
                      size_t max_plies, pick_fn decide)
{
    const pips_game_def *d = g->def;
    double prob_small[64];
    double *prob = prob_small;
    size_t cap = d->max_moves(g);
    bool heap = false;
    if ((d->flags & PIPS_GAME_CHANCE) && !d->sample_chance && cap > 64) {
        prob = pips_malloc(g->alloc, cap * sizeof *prob);
        if (!prob)
            return 0;
        heap = true;
    }
    bool enumerable = d->legal_moves && !(d->flags & PIPS_GAME_NOT_ENUMERABLE);
    size_t plies = 0;
    while (plies < max_plies) {
        int who = d->to_move(g, state);
        if (who == PIPS_OVER)
            break;
        size_t n, pick;
        if (who == PIPS_CHANCE && d->sample_chance) {
            pips_move m;
            if (!d->sample_chance(g, state, rng, &m))
                break;
            d->apply(g, state, m);
            plies++;
            continue;
        }
        if (who == PIPS_CHANCE) {
            n = d->chance_outcomes(g, state, buf, prob);
            if (!n)
                break;
            pick = pips_sample_chance(rng, prob, n);
        } else if (decide) {
            pips_move m;
            if (!decide(g, state, rng, &m))
                break;
            d->apply(g, state, m);
            plies++;
            continue;
        } else {
            n = enumerable ? d->legal_moves(g, state, buf) : d->candidates(g, state, rng, buf);
            if (!n)
                break;
            pick = (size_t)pips_rng_below(rng, n);
        }
        d->apply(g, state, buf[pick]);
        plies++;
    }
    if (heap)
        pips_free(g->alloc, prob);
    return plies;
}

size_t pips_random_playout(const pips_game *g, void *state, pips_rng *rng, pips_move *buf,
                           size_t max_plies)
{
    return playout(g, state, rng, buf, max_plies, g->def->random_move);
}

size_t pips_policy_playout(const pips_game *g, void *state, pips_rng *rng, pips_move *buf,
                           size_t max_plies)
{
    pick_fn decide = g->def->playout_move ? g->def->playout_move : g->def->random_move;
    return playout(g, state, rng, buf, max_plies, decide);
}

const char *pips_value_name(pips_value v)
{
    return v == PIPS_WIN ? "win" : v == PIPS_LOSS ? "loss" : "draw";
}
