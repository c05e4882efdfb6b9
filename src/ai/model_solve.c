/*
 * model_solve.c — an exact search of the rest of a game under an opponent
 * model, for mcts's exact=N (issue 24; docs/ai.md, "Max: opponents that
 * search").
 *
 * The model: the root seat maximises its chance of winning (a return of 1),
 * then its expected return; a greedy seat plays as the greedy agent does,
 * each of its best moves by agent_greedy_value equally likely (greedy breaks
 * ties with its rng); a searching seat plays, each equally likely, the moves
 * that maximise its own expected return in a game where every other seat,
 * the root's too, is greedy: the model the hard levels search with
 * (mcts opp=greedy), solved exactly. Chance nodes take the mean over their
 * outcomes. A searcher with several moves of its best value may not pick
 * among them at random (a search picks by visits, and a seat that has lost
 * may hand the game to anyone), so the root's chance of a win is also kept
 * with every such tie going against the root seat (model_value.worst), and
 * the root plays for a weighted mean of the two (mcts worst=W); or the
 * caller's pick function says which move the searcher plays there (mcts's
 * pick=1: its own search, as opp=search's).
 *
 * Values are kept in one open-addressed table of 64-bit keys: the hash of
 * the position mixed with what the value depends on (the root seat and which seats
 * search, or the searching seat of a searcher's own value), so the table
 * stays valid from move to move and from game to game. Two positions with
 * one 64-bit key would share a value; at a million positions that has odds
 * near 1e-7, and it can only make a move worse, never illegal.
 *
 * Budget: at most max_positions positions are stored; a solve that would
 * store more gives up (so does one past its deadline, or deeper than
 * MODEL_MAX_PLY), and the caller plays its own search's move. The table is
 * emptied before a solve once it is half full; after
 * model_solver_begin_move, only there: the solves of one move under
 * several models (mcts prior=P) share the table, so a searcher's own
 * values, which no model changes, are solved once a move, and the
 * move's solves together store at most max_positions.
 */
#include <math.h>
#include <string.h>

#include "ai/agent_impl.h"
#include "ai/model_solve.h"

#define MODEL_MAX_PLY 64
#define MODEL_TIE 1e-6 /* values are stored as floats */
/* model_observe: the chance that a searcher plays a move off the model's
 * best (a search of a few thousand passes is not exact) */
#define MODEL_SLIP 0.1
/* pick's answers kept per position for the solves of one move (mcts
 * prior=P solves one position under several models: the searcher's own
 * search does not depend on the model, so it is asked once) */
#define MODEL_PICK_SLOTS 4096

typedef struct model_entry {
    uint64_t key; /* 0 = empty */
    float win;    /* the root seat's chance of a win; a searcher's own value */
    float ret;    /* the root seat's expected return */
    float worst;  /* its chance of a win when indifferent searchers choose against it */
} model_entry;

typedef struct model_frame {
    unsigned char *child;
    pips_move *moves;
    double *prob, *value;
    size_t *best; /* indices of the moves the mover may play */
    model_value *tied; /* a searcher's tied moves' values, by best[] */
} model_frame;

struct model_solver {
    const pips_game *g;
    size_t ss, mm, max_positions, used, slots;
    model_entry *table;
    model_frame frames[MODEL_MAX_PLY];
    unsigned char *scratch;
    pips_move *outcomes;
    double *oprob;
    int np, root_seat;
    bool searcher[PIPS_MAX_PLAYERS];
    uint64_t context; /* the root seat and the searching seats, mixed into keys */
    double worst; /* weight of model_value.worst in the root seat's objective */
    model_pick_fn pick; /* a searcher's choice where its tie matters, or NULL */
    int picks;          /* how many times pick is asked there */
    int pick_plies;     /* ties asked only this many plies below the root move (0: all) */
    int observe_picks;  /* model_observe: answers of pick that weigh a seat's move (0: none) */
    uint64_t *pick_keys; /* MODEL_PICK_SLOTS: position and seat asked, 0 = empty */
    int *pick_count;     /* answers kept per slot */
    pips_move *pick_moves; /* picks per slot */
    int root_turns;     /* the root seat's turns on the path being solved: 0 in
                           the first round of replies to the root's move */
    /* model_observe's evidence per seat: the log-likelihood of its moves so
     * far as a greedy seat and as a searcher (-INFINITY once ruled out) */
    double greedy_ll[PIPS_MAX_PLAYERS], search_ll[PIPS_MAX_PLAYERS];
    void *pick_ctx;
    double deadline;
    uint64_t visited;
    bool gave_up;
    bool per_move; /* model_solver_begin_move was called: solves keep the table */
};

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ull;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dull;
    return x ^ (x >> 33);
}

/* The position's key: its hash (not of its canonical form: in three-seat
 * Tic Tac Doh! that merged 2.7 times fewer positions than it cost, 0.89 s
 * against 1.99 s for one move) mixed with the context. */
static uint64_t position_key(model_solver *ms, const void *st, uint64_t context)
{
    return (ms->g->def->hash(ms->g, st) ^ mix(context)) | 1;
}

static model_entry *lookup(model_solver *ms, uint64_t key, bool *found)
{
    size_t mask = ms->slots - 1;
    for (size_t i = key & mask;; i = (i + 1) & mask) {
        if (ms->table[i].key == key || ms->table[i].key == 0) {
            *found = ms->table[i].key == key;
            return &ms->table[i];
        }
    }
}

/* Whether the solve must stop: the table is at its budget or time is up. */
static bool out_of_budget(model_solver *ms)
{
    if (ms->used >= ms->max_positions)
        ms->gave_up = true;
    else if (ms->deadline > 0 && (++ms->visited & 1023) == 0 && pips_now() > ms->deadline)
        ms->gave_up = true;
    return ms->gave_up;
}

/* The moves at st for the frame at ply (chance outcomes with prob). */
static size_t frame_moves(model_solver *ms, int ply, const void *st)
{
    return agent_search_moves(ms->g, st, 0, ms->frames[ply].moves, ms->frames[ply].prob);
}

/* Fills frame ply's best[] with the greedy seat who's best moves at st
 * (value within 1e-12 of the best, as greedy compares); returns how many. */
static size_t greedy_moves(model_solver *ms, int ply, const void *st, size_t n, int who)
{
    model_frame *f = &ms->frames[ply];
    const pips_game_def *d = ms->g->def;
    double best = -1;
    size_t ties = 0;
    for (size_t i = 0; i < n; i++) {
        memcpy(f->child, st, ms->ss);
        d->apply(ms->g, f->child, f->moves[i]);
        double v = agent_greedy_value(ms->g, f->child, who, true, ms->scratch, ms->outcomes,
                                      ms->oprob);
        if (v > best + 1e-12) {
            best = v;
            ties = 0;
        }
        if (fabs(v - best) <= 1e-12)
            f->best[ties++] = i;
    }
    return ties;
}

/* Seat h's expected return at st when h maximises it and every other seat
 * is greedy. */
static double own_value(model_solver *ms, const void *st, int ply, int h)
{
    const pips_game_def *d = ms->g->def;
    int who = d->to_move(ms->g, st);
    if (who == PIPS_OVER) {
        double r[PIPS_MAX_PLAYERS];
        d->returns(ms->g, st, r);
        return r[h];
    }
    if (ply >= MODEL_MAX_PLY) {
        ms->gave_up = true;
        return 0;
    }
    bool found;
    uint64_t key = position_key(ms, st, 0x5ea5c4e7ull + (uint64_t)h);
    model_entry *e = lookup(ms, key, &found);
    if (found)
        return e->win;
    if (out_of_budget(ms))
        return 0;
    model_frame *f = &ms->frames[ply];
    size_t n = frame_moves(ms, ply, st);
    double v = 0;
    if (who == PIPS_CHANCE) {
        for (size_t i = 0; i < n && !ms->gave_up; i++) {
            memcpy(f->child, st, ms->ss);
            d->apply(ms->g, f->child, f->moves[i]);
            v += f->prob[i] * own_value(ms, f->child, ply + 1, h);
        }
    } else if (who == h) {
        v = -1;
        for (size_t i = 0; i < n && !ms->gave_up; i++) {
            memcpy(f->child, st, ms->ss);
            d->apply(ms->g, f->child, f->moves[i]);
            double c = own_value(ms, f->child, ply + 1, h);
            if (c > v)
                v = c;
        }
    } else {
        size_t k = greedy_moves(ms, ply, st, n, who);
        for (size_t i = 0; i < k && !ms->gave_up; i++) {
            memcpy(f->child, st, ms->ss);
            d->apply(ms->g, f->child, f->moves[f->best[i]]);
            v += own_value(ms, f->child, ply + 1, h) / (double)k;
        }
    }
    if (ms->gave_up)
        return 0;
    e = lookup(ms, key, &found); /* the recursion may have taken the free slot */
    e->key = key;
    e->win = (float)v;
    ms->used++;
    return e->win; /* as a later lookup will read it */
}

/* The root seat's values at st under the model (model_value). */
static void root_value(model_solver *ms, const void *st, int ply, model_value *out);

/* The root seat's values after move i of frame ply at st. */
static void child_value(model_solver *ms, const void *st, int ply, size_t i, model_value *out)
{
    model_frame *f = &ms->frames[ply];
    memcpy(f->child, st, ms->ss);
    ms->g->def->apply(ms->g, f->child, f->moves[i]);
    root_value(ms, f->child, ply + 1, out);
}

/* What the root seat plays for: its chance of a win, the searchers'
 * indifference taken as a mean and as the worst with weight ms->worst. */
static double objective(const model_solver *ms, const model_value *v)
{
    return (1 - ms->worst) * v->win + ms->worst * v->worst;
}

static bool better_for_root(const model_solver *ms, const model_value *a, const model_value *b)
{
    double oa = objective(ms, a), ob = objective(ms, b);
    return oa > ob + MODEL_TIE || (oa > ob - MODEL_TIE && a->ret > b->ret + MODEL_TIE);
}

static void add_scaled(model_value *sum, const model_value *v, double w)
{
    sum->win += w * v->win;
    sum->ret += w * v->ret;
    sum->worst += w * v->worst;
}

/* The s-th answer of pick for seat who at st: kept from an earlier solve
 * of this move where there is one (model_solver_begin_move empties the
 * store), else asked and kept while there is room. */
static pips_move asked_pick(model_solver *ms, const void *st, int who, int s)
{
    uint64_t key = position_key(ms, st, 0x91c4a3b5ull + (uint64_t)who);
    size_t slot = key & (MODEL_PICK_SLOTS - 1);
    for (size_t probe = 0; probe < 8; probe++, slot = (slot + 1) & (MODEL_PICK_SLOTS - 1)) {
        if (ms->pick_keys[slot] == key && s < ms->pick_count[slot])
            return ms->pick_moves[slot * (size_t)ms->picks + (size_t)s];
        if (ms->pick_keys[slot] == key || ms->pick_keys[slot] == 0) {
            pips_move m = ms->pick(ms->pick_ctx, st, who);
            if (s == (ms->pick_keys[slot] == key ? ms->pick_count[slot] : 0)) {
                ms->pick_keys[slot] = key;
                ms->pick_moves[slot * (size_t)ms->picks + (size_t)s] = m;
                ms->pick_count[slot] = s + 1;
            }
            return m;
        }
    }
    return ms->pick(ms->pick_ctx, st, who); /* no room nearby: asked, not kept */
}

/* A searcher's value from the moves its own search plays: pick asked
 * ms->picks times (a fresh search each time, so the answers sample how a
 * search breaks ties or errs; when the first two agree, that move alone),
 * their mean, worst the least of theirs. Where
 * the tie among the k moves of the frame's best[] matters (k > 0), a move
 * pick does not know counts as the model's mean, already in out; with k = 0
 * it leaves out untouched and returns false. */
static bool picked_value(model_solver *ms, const void *st, int ply, int who, size_t n, size_t k,
                         model_value *out)
{
    model_frame *f = &ms->frames[ply];
    model_value sum = {0, 0, 2}, c;
    pips_move first = PIPS_MOVE_NONE;
    int asked = ms->picks;
    for (int s = 0; s < asked && !ms->gave_up; s++) {
        pips_move m = asked_pick(ms, st, who, s);
        if (s == 0)
            first = m;
        else if (s == 1 && m == first) { /* two searches agree: taken as its move */
            asked = 1;
            break;
        }
        size_t i = 0, j = 0;
        while (i < n && f->moves[i] != m)
            i++;
        while (j < k && f->best[j] != i)
            j++;
        if (i == n && k == 0)
            return false;
        if (i == n)
            c = *out;
        else if (j < k)
            c = f->tied[j];
        else
            child_value(ms, st, ply, i, &c);
        sum.win += c.win;
        sum.ret += c.ret;
        sum.worst = c.worst < sum.worst ? c.worst : sum.worst;
    }
    if (!ms->gave_up)
        *out = (model_value){sum.win / asked, sum.ret / asked, sum.worst};
    return true;
}

/* A searcher's value under the model: its moves of the best own value, each
 * as likely; where that tie matters to the root seat and pick is set, as its
 * search plays (picked_value). */
static void searcher_value(model_solver *ms, const void *st, int ply, int who, size_t n,
                           model_value *out)
{
    const pips_game_def *d = ms->g->def;
    model_frame *f = &ms->frames[ply];
    size_t k = 0;
    double best = -1;
    for (size_t i = 0; i < n && !ms->gave_up; i++) {
        memcpy(f->child, st, ms->ss);
        d->apply(ms->g, f->child, f->moves[i]);
        f->value[i] = own_value(ms, f->child, ply + 1, who);
        if (f->value[i] > best)
            best = f->value[i];
    }
    for (size_t i = 0; i < n; i++)
        if (f->value[i] >= best - MODEL_TIE)
            f->best[k++] = i;
    out->worst = 1;
    double lo = 2, hi = -1;
    for (size_t i = 0; i < k && !ms->gave_up; i++) {
        child_value(ms, st, ply, f->best[i], &f->tied[i]);
        out->win += f->tied[i].win / (double)k;
        out->ret += f->tied[i].ret / (double)k;
        if (f->tied[i].worst < out->worst)
            out->worst = f->tied[i].worst;
        double o = objective(ms, &f->tied[i]);
        lo = o < lo ? o : lo;
        hi = o > hi ? o : hi;
    }
    if (ms->pick && !ms->gave_up && hi - lo > MODEL_TIE && /* the tie matters: ask */
        (ms->pick_plies == 0 || ply <= ms->pick_plies))
        picked_value(ms, st, ply, who, n, k, out);
}

static void root_value(model_solver *ms, const void *st, int ply, model_value *out)
{
    const pips_game_def *d = ms->g->def;
    int who = d->to_move(ms->g, st);
    *out = (model_value){0, 0, 0};
    if (who == PIPS_OVER) {
        double r[PIPS_MAX_PLAYERS];
        d->returns(ms->g, st, r);
        out->win = out->worst = r[ms->root_seat] >= 1 - 1e-9 ? 1.0 : 0.0;
        out->ret = r[ms->root_seat];
        return;
    }
    if (ply >= MODEL_MAX_PLY) {
        ms->gave_up = true;
        return;
    }
    bool found;
    /* a node in the first round of replies, where searchers play as pick
     * says, keeps its own value (the same position later in the game is
     * valued under the model) */
    bool first_round = ms->pick && ms->root_turns == 0 && who != ms->root_seat;
    /* under pickply=D a node within D plies of the root's move asks ties
     * down to that horizon, so its value depends on its ply */
    uint64_t near = ms->pick_plies > 0 && ply <= ms->pick_plies ? (uint64_t)ply + 1 : 0;
    uint64_t key = position_key(ms, st, ms->context + ((uint64_t)first_round << 40) + (near << 41));
    model_entry *e = lookup(ms, key, &found);
    if (found) {
        *out = (model_value){e->win, e->ret, e->worst};
        return;
    }
    if (out_of_budget(ms))
        return;
    model_frame *f = &ms->frames[ply];
    size_t n = frame_moves(ms, ply, st), k = 0;
    model_value c;
    if (who == PIPS_CHANCE) {
        for (size_t i = 0; i < n && !ms->gave_up; i++) {
            child_value(ms, st, ply, i, &c);
            add_scaled(out, &c, f->prob[i]);
        }
    } else if (who == ms->root_seat) {
        ms->root_turns++;
        for (size_t i = 0; i < n && !ms->gave_up; i++) {
            child_value(ms, st, ply, i, &c);
            if (i == 0 || better_for_root(ms, &c, out))
                *out = c;
        }
        ms->root_turns--;
    } else if (ms->searcher[who]) { /* in the first round as its search plays, else the model */
        if (!first_round || !picked_value(ms, st, ply, who, n, 0, out))
            searcher_value(ms, st, ply, who, n, out);
    } else { /* greedy: its best moves, each as likely (its rng breaks ties) */
        k = greedy_moves(ms, ply, st, n, who);
        for (size_t i = 0; i < k && !ms->gave_up; i++) {
            child_value(ms, st, ply, f->best[i], &c);
            add_scaled(out, &c, 1.0 / (double)k);
        }
    }
    if (ms->gave_up)
        return;
    e = lookup(ms, key, &found);
    e->key = key;
    e->win = (float)out->win;
    e->ret = (float)out->ret;
    e->worst = (float)out->worst;
    ms->used++;
    *out = (model_value){e->win, e->ret, e->worst}; /* as a later lookup will read them */
}

/* Empties the table once it is half full, before a solve. */
static void make_room(model_solver *ms)
{
    if (ms->used * 2 > ms->max_positions) {
        memset(ms->table, 0, ms->slots * sizeof *ms->table);
        ms->used = 0;
    }
}

/* Readies a solve for root seat who with the seats in searcher[]. */
static void begin_solve(model_solver *ms, int who, const bool *searcher, double deadline)
{
    if (!ms->per_move)
        make_room(ms);
    ms->root_seat = who;
    ms->context = 1 + (uint64_t)who;
    for (int p = 0; p < ms->np; p++) {
        ms->searcher[p] = p != who && searcher[p];
        ms->context = ms->context * 3 + ms->searcher[p];
    }
    ms->deadline = deadline;
    ms->gave_up = false;
    ms->root_turns = 0;
}

bool model_solve_moves(model_solver *ms, const void *state, const bool *searcher,
                       const pips_move *moves, size_t n, double deadline, model_value *out)
{
    const pips_game_def *d = ms->g->def;
    int who = d->to_move(ms->g, state);
    if (who < 0)
        return false;
    begin_solve(ms, who, searcher, deadline);
    unsigned char *child = ms->frames[0].child;
    for (size_t i = 0; i < n && !ms->gave_up; i++) {
        memcpy(child, state, ms->ss);
        d->apply(ms->g, child, moves[i]);
        root_value(ms, child, 1, &out[i]);
    }
    return !ms->gave_up;
}

bool model_solve_value(model_solver *ms, const void *state, int root_seat, const bool *searcher,
                       model_value *out)
{
    if (root_seat < 0 || root_seat >= ms->np)
        return false;
    begin_solve(ms, root_seat, searcher, 0);
    root_value(ms, state, 0, out);
    return !ms->gave_up;
}

bool model_own_values(model_solver *ms, const void *state, const pips_move *moves, size_t n,
                      double *out)
{
    const pips_game_def *d = ms->g->def;
    int who = d->to_move(ms->g, state);
    if (who < 0)
        return false;
    ms->deadline = 0;
    ms->gave_up = false;
    unsigned char *child = ms->frames[0].child;
    for (size_t i = 0; i < n && !ms->gave_up; i++) {
        memcpy(child, state, ms->ss);
        d->apply(ms->g, child, moves[i]);
        out[i] = own_value(ms, child, 1, who);
    }
    return !ms->gave_up;
}

size_t model_solve_best(const model_solver *ms, const model_value *v, size_t n, bool *best)
{
    size_t top = 0, k = 0;
    for (size_t i = 1; i < n; i++)
        if (better_for_root(ms, &v[i], &v[top]))
            top = i;
    for (size_t i = 0; i < n; i++) {
        best[i] = !better_for_root(ms, &v[top], &v[i]);
        k += best[i];
    }
    return k;
}

void model_observe(model_solver *ms, const void *state, pips_move m)
{
    const pips_game_def *d = ms->g->def;
    int who = d->to_move(ms->g, state);
    if (who < 0 || ms->greedy_ll[who] == -INFINITY) /* a searcher for good */
        return;
    make_room(ms);
    model_frame *f = &ms->frames[0];
    size_t n = frame_moves(ms, 0, state), played = n;
    for (size_t i = 0; i < n; i++)
        if (f->moves[i] == m)
            played = i;
    if (played == n)
        return;
    size_t k = greedy_moves(ms, 0, state, n, who);
    bool in = false;
    for (size_t i = 0; i < k; i++)
        in = in || f->best[i] == played;
    ms->greedy_ll[who] += in ? -log((double)k) : -INFINITY;
    /* as a searcher: the moves of its best own value */
    ms->deadline = 0;
    ms->gave_up = false;
    double best = -1;
    for (size_t i = 0; i < n && !ms->gave_up; i++) {
        memcpy(f->child, state, ms->ss);
        d->apply(ms->g, f->child, f->moves[i]);
        f->value[i] = own_value(ms, f->child, 1, who);
        best = f->value[i] > best ? f->value[i] : best;
    }
    if (ms->gave_up)
        return; /* no evidence either way */
    k = 0;
    for (size_t i = 0; i < n; i++)
        k += f->value[i] >= best - MODEL_TIE;
    /* a search only approximates the model: a move off it keeps MODEL_SLIP */
    double like = f->value[played] >= best - MODEL_TIE ? (k < n ? 1 - MODEL_SLIP : 1.0) / (double)k
                                                       : MODEL_SLIP / (double)(n - k);
    if (ms->pick && ms->observe_picks > 0) {
        /* the searcher's own search asked observe_picks times: the share of
         * its answers that are m, the model's likelihood counting as one
         * more answer (early in a game a search is far from the model, and
         * greedy's tied best moves are often the model's best as well) */
        int same = 0;
        for (int a = 0; a < ms->observe_picks; a++)
            same += ms->pick(ms->pick_ctx, state, who) == m;
        like = (same + like) / (ms->observe_picks + 1);
    }
    ms->search_ll[who] += log(like);
}

bool model_is_searcher(const model_solver *ms, int seat, bool unknown_searches)
{
    double s = ms->search_ll[seat], gr = ms->greedy_ll[seat];
    return s > gr || (s == gr && unknown_searches);
}

double model_searcher_chance(const model_solver *ms, int seat, double prior)
{
    double s = ms->search_ll[seat], gr = ms->greedy_ll[seat];
    if (gr == -INFINITY)
        return 1;
    if (prior <= 0)
        return 0;
    /* prior odds times the likelihood ratio, as 1 / (1 + odds against) */
    return 1 / (1 + (1 - prior) / prior * exp(gr - s));
}

size_t model_solver_positions(const model_solver *ms) { return ms->used; }

bool model_solver_set_pick(model_solver *ms, model_pick_fn pick, void *ctx, int picks,
                           int max_ply)
{
    const pips_allocator *al = ms->g->alloc;
    pips_free(al, ms->pick_keys);
    pips_free(al, ms->pick_count);
    pips_free(al, ms->pick_moves);
    ms->pick_keys = pips_calloc(al, MODEL_PICK_SLOTS, sizeof *ms->pick_keys);
    ms->pick_count = pips_calloc(al, MODEL_PICK_SLOTS, sizeof *ms->pick_count);
    ms->pick_moves = pips_calloc(al, MODEL_PICK_SLOTS * (size_t)(picks > 0 ? picks : 1),
                                 sizeof *ms->pick_moves);
    bool ok = ms->pick_keys && ms->pick_count && ms->pick_moves;
    ms->pick = ok ? pick : NULL;
    ms->picks = picks;
    ms->pick_plies = max_ply > 0 ? max_ply : 0;
    ms->pick_ctx = ctx;
    return ok;
}

void model_solver_set_observe_picks(model_solver *ms, int picks)
{
    ms->observe_picks = picks > 0 ? picks : 0;
}

void model_solver_begin_move(model_solver *ms)
{
    make_room(ms);
    ms->per_move = true;
    if (ms->pick_keys) {
        memset(ms->pick_keys, 0, MODEL_PICK_SLOTS * sizeof *ms->pick_keys);
        memset(ms->pick_count, 0, MODEL_PICK_SLOTS * sizeof *ms->pick_count);
    }
}

void model_solver_free(model_solver *ms)
{
    if (!ms)
        return;
    const pips_allocator *al = ms->g->alloc;
    for (int p = 0; p < MODEL_MAX_PLY; p++) {
        model_frame *f = &ms->frames[p];
        pips_free(al, f->child);
        pips_free(al, f->moves);
        pips_free(al, f->prob);
        pips_free(al, f->value);
        pips_free(al, f->best);
        pips_free(al, f->tied);
    }
    pips_free(al, ms->table);
    pips_free(al, ms->pick_keys);
    pips_free(al, ms->pick_count);
    pips_free(al, ms->pick_moves);
    pips_free(al, ms->scratch);
    pips_free(al, ms->outcomes);
    pips_free(al, ms->oprob);
    pips_free(al, ms);
}

model_solver *model_solver_new(const pips_game *g, size_t max_positions, double worst)
{
    const pips_allocator *al = g->alloc;
    model_solver *ms = pips_calloc(al, 1, sizeof *ms);
    if (!ms)
        return NULL;
    ms->g = g;
    ms->ss = g->def->state_size;
    ms->mm = pips_max_moves(g);
    ms->np = pips_num_players(g);
    ms->max_positions = max_positions;
    ms->worst = worst;
    ms->slots = 1024;
    while (ms->slots < max_positions + max_positions / 2) /* load at most 2/3 */
        ms->slots *= 2;
    bool ok = true;
    for (int p = 0; p < MODEL_MAX_PLY && ok; p++) {
        model_frame *f = &ms->frames[p];
        f->child = pips_calloc(al, 1, ms->ss);
        f->moves = pips_calloc(al, ms->mm, sizeof *f->moves);
        f->prob = pips_calloc(al, ms->mm, sizeof *f->prob);
        f->value = pips_calloc(al, ms->mm, sizeof *f->value);
        f->best = pips_calloc(al, ms->mm, sizeof *f->best);
        f->tied = pips_calloc(al, ms->mm, sizeof *f->tied);
        ok = f->child && f->moves && f->prob && f->value && f->best && f->tied;
    }
    ms->table = pips_calloc(al, ms->slots, sizeof *ms->table);
    ms->scratch = pips_calloc(al, 1, ms->ss);
    ms->outcomes = pips_calloc(al, ms->mm, sizeof *ms->outcomes);
    ms->oprob = pips_calloc(al, ms->mm, sizeof *ms->oprob);
    if (!ok || !ms->table || !ms->scratch || !ms->outcomes || !ms->oprob) {
        model_solver_free(ms);
        return NULL;
    }
    return ms;
}
