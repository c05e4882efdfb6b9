/*
 * test_ziggurat_reference.c — the legal step generator checked against a
 * slow reference written straight from sections 3-6 of the rulings
 * (ZIG-R4..R22, R27..R29), on positions from random games and on random
 * scrambled positions (any piles, Queens anywhere, any dice and flags).
 * Lists compare as sorted token sets (ZIG-R31).
 */
#include "zig_helpers.h"

#include "games/ziggurat/ziggurat_internal.h"

typedef struct tokens {
    char t[ZIG_MAX_MOVES][16];
    int n;
} tokens;

static void add(tokens *ts, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ts->t[ts->n++], 16, fmt, ap);
    va_end(ap);
}

static const char *nm(const zig_config *k, int loc)
{
    static const char *const names[ZIG_LOCS] = {
        "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2",
        "g2", "h2", "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "a4", "b4", "c4", "d4",
        "e4", "f4", "g4", "h4", "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "a6", "b6",
        "c6", "d6", "e6", "f6", "g6", "h6", "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7",
        "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8", "h0", "i8", "a9", "@1"};
    (void)k;
    return names[loc];
}

static int colour(int p) { return (p - 1) & 3; }
static bool queen(int p) { return p > 4; }
static int lvl(int x, int y)
{
    if (x < 1 || x > 8 || y < 1 || y > 8)
        return 0;
    int a = x < 9 - x ? x : 9 - x, b = y < 9 - y ? y : 9 - y;
    return a < b ? a : b;
}
static int sq(int x, int y) { return (x < 1 || x > 8 || y < 1 || y > 8) ? -1 : (y - 1) * 8 + x - 1; }
static bool is_goal(const zig_config *k, int l)
{
    for (int c = 0; c < 4; c++)
        if (k->goal[c] == l)
            return true;
    return false;
}

enum { PLAIN, AIM, HOP };

/* Section 4, literally. */
static int ref_walk(const zig_config *k, const zig_state *s, int c, int o, int how, int P,
                    bool is_queen, bool foreign)
{
    int goal = k->path[c][61], entry = k->path[c][1];
    int walls[3] = {k->path[c][28], k->path[c][48], k->path[c][60]};
    bool from_start = o >= 64;
    int cost = is_queen ? 2 : 1, i = k->pidx[c][o], cur = o;
#define STOP(q)                                                                              \
    ((q) == goal || (how != AIM && ((q) == walls[0] || (q) == walls[1] || (q) == walls[2] ||    \
                                    ((k->lx[q] == k->ly[q] || k->lx[q] + k->ly[q] == 9) &&      \
                                     !(from_start && (q) == entry)))))
    while (P >= cost && i < 61) {
        int q = k->path[c][i + 1];
        if (how == HOP) {
            int j = i + 1;
            if (s->height[q] && !STOP(q))
                while (s->height[k->path[c][j]] && !STOP(k->path[c][j]))
                    j++;
            int t = k->path[c][j];
            if (is_queen && foreign && t == goal)
                break;
            cur = t;
            i = j;
            P -= cost;
            if (STOP(t))
                break;
        } else {
            if (is_queen && foreign && q == goal)
                break;
            if (!is_queen && q != goal) {
                bool has_q = false;
                for (int h = 0; h < s->height[q]; h++)
                    has_q |= queen(s->pile[q][h]);
                if (s->height[q] >= 2 || has_q)
                    break;
            }
            cur = q;
            i++;
            P -= cost;
            if (STOP(q))
                break;
        }
    }
#undef STOP
    return cur;
}

static int ref_leap(const zig_config *k, const zig_state *s, int c, int o)
{
    int goal = k->path[c][61], entry = k->path[c][1];
    int i = k->pidx[c][o], cur = o;
    while (i < 61) {
        int q = k->path[c][i + 1];
        if (s->height[q])
            break;
        cur = q;
        i++;
        bool corner = k->lx[q] == k->ly[q] || k->lx[q] + k->ly[q] == 9;
        if (q == goal || q == k->path[c][28] || q == k->path[c][48] || q == k->path[c][60] ||
            (corner && !(o >= 64 && q == entry)))
            break;
    }
    return cur;
}

static void ref_steps(const zig_config *k, const zig_state *s, tokens *ts)
{
    static const char *const D[8] = {"N", "NE", "E", "SE", "S", "SW", "W", "NW"};
    static const int DX[8] = {0, 1, 1, 1, 0, -1, -1, -1}, DY[8] = {1, 1, 0, -1, -1, -1, 0, 1};
    int c = s->mover, goal = k->path[c][61], start = 64 + c;
    bool mv = s->flags & F_MOVE, act = s->flags & F_ACT;
    bool has[8] = {false};
    if (act) {
        if (s->action == ACT_WILD) {
            for (int a = 0; a < (k->treehouse ? 6 : 8); a++)
                has[a] = a != ACT_WILD;
            if (s->flags & F_RB)
                has[ACT_REDO] = false;
        } else if (!(s->action == ACT_REDO && (s->flags & F_RB))) {
            has[s->action] = true;
        }
    }
    int P = s->move_val, b = k->d6 ? 2 : 1;
    bool enh = mv && !(s->flags & F_PLAIN);
    ts->n = 0;
    for (int o = 0; o < ZIG_LOCS; o++) {
        int h = s->height[o];
        if (!h || o == goal || (o >= 64 && o != start))
            continue;
        int top = s->pile[o][h - 1];
        if (colour(top) == c && !queen(top)) {
            int t;
            if (mv && (t = ref_walk(k, s, c, o, PLAIN, P, false, false)) != o)
                add(ts, "M%s-%s", nm(k, o), nm(k, t));
            if (enh && has[ACT_AIM] && (t = ref_walk(k, s, c, o, AIM, P + b, false, false)) != o)
                add(ts, "A%s-%s", nm(k, o), nm(k, t));
            if (enh && has[ACT_HOP] && (t = ref_walk(k, s, c, o, HOP, P + b, false, false)) != o)
                add(ts, "H%s-%s", nm(k, o), nm(k, t));
        }
        if (colour(top) == c && has[ACT_LEAP]) {
            int t = ref_leap(k, s, c, o);
            if (t != o)
                add(ts, "L%s-%s", nm(k, o), nm(k, t));
        }
        int qi = -1;
        for (int i = 0; i < h; i++)
            if (queen(s->pile[o][i]))
                qi = i;
        if (qi >= 0 && colour(s->pile[o][qi]) == c && mv) {
            bool foreign = false;
            for (int i = qi + 1; i < h; i++)
                foreign |= colour(s->pile[o][i]) != c;
            int t;
            if ((t = ref_walk(k, s, c, o, PLAIN, P, true, foreign)) != o)
                add(ts, "QM%s-%s", nm(k, o), nm(k, t));
            if (enh && has[ACT_AIM] && (t = ref_walk(k, s, c, o, AIM, P + b, true, foreign)) != o)
                add(ts, "QA%s-%s", nm(k, o), nm(k, t));
            if (enh && has[ACT_HOP] && (t = ref_walk(k, s, c, o, HOP, P + b, true, foreign)) != o)
                add(ts, "QH%s-%s", nm(k, o), nm(k, t));
        }
    }
    for (int o = 0; o < 64; o++) {
        int x = k->lx[o], y = k->ly[o], h = s->height[o];
        if (!h || is_goal(k, o))
            continue;
        if (has[ACT_DIG] && colour(s->pile[o][0]) == c)
            for (int d = 0; d < 8; d++) {
                int t = sq(x + DX[d], y + DY[d]);
                if (t >= 0 && !is_goal(k, t) && lvl(x + DX[d], y + DY[d]) <= lvl(x, y))
                    add(ts, "D%s-%s", nm(k, o), nm(k, t));
            }
        if (has[ACT_SWAP])
            for (int q = o + 1; q < 64; q++) {
                if (!s->height[q] || is_goal(k, q) || abs(k->lx[q] - x) > 1 ||
                    abs(k->ly[q] - y) > 1)
                    continue;
                int a = s->pile[o][h - 1], z = s->pile[q][s->height[q] - 1];
                if (a != z && (colour(a) == c || colour(z) == c))
                    add(ts, "S%s-%s", nm(k, o), nm(k, q));
            }
        if (has[ACT_TIP])
            for (int d = 0; d < 8; d++) {
                if (lvl(x + DX[d], y + DY[d]) > lvl(x, y))
                    continue;
                bool ok = false;
                int bx = x - DX[d], by = y - DY[d], behind = sq(bx, by);
                if (behind < 0 && bx == k->lx[start] && by == k->ly[start])
                    behind = start;
                if (behind >= 0 && s->height[behind] &&
                    colour(s->pile[behind][s->height[behind] - 1]) == c)
                    ok = true; /* (A) */
                if (h >= 2)
                    for (int i = 0; i < h; i++)
                        ok |= colour(s->pile[o][i]) == c; /* (B) */
                if (h == 1 && colour(s->pile[o][0]) == c) {
                    int f = k->path[c][k->pidx[c][o] + 1];
                    ok |= k->lx[f] == x + DX[d] && k->ly[f] == y + DY[d]; /* (C) */
                }
                if (ok)
                    add(ts, "T%s%s", nm(k, o), D[d]);
            }
    }
    if (has[ACT_SWAP])
        for (int o = 0; o < ZIG_LOCS; o++) {
            int h = s->height[o];
            if (h < 2 || (o < 64 && is_goal(k, o)) || (o >= 64 && o != start))
                continue;
            for (int i = 0; i < h; i++)
                for (int j = i + 1; j < h; j++) {
                    int a = s->pile[o][i], z = s->pile[o][j];
                    if (a != z && (colour(a) == c || colour(z) == c))
                        add(ts, "S%s:%d-%d", nm(k, o), i + 1, j + 1);
                }
        }
    if (has[ACT_TIP] && s->height[start]) {
        static const char *const fwd[4] = {"N", "W", "S", "E"};
        add(ts, "T%s%s", nm(k, start), fwd[c]);
    }
    if (has[ACT_REDO]) {
        bool off = false;
        for (int l = 0; l < ZIG_LOCS; l++)
            for (int i = 0; l != goal && i < s->height[l]; i++)
                off |= colour(s->pile[l][i]) == c;
        if (off)
            add(ts, "RA");
        if (!(s->flags & F_STEPPED))
            add(ts, "RB");
    }
    add(ts, "end");
}

static int cmp_tok(const void *a, const void *b) { return strcmp(a, b); }

static void compare(const pips_game *g, const zig_state *s)
{
    static tokens ref, got;
    ref_steps(g->config, s, &ref);
    pips_move mv[ZIG_MAX_MOVES];
    size_t n = g->def->legal_moves(g, s, mv);
    got.n = (int)n;
    for (size_t i = 0; i < n; i++)
        g->def->move_to_text(g, s, mv[i], got.t[i]);
    qsort(ref.t, (size_t)ref.n, sizeof ref.t[0], cmp_tok);
    qsort(got.t, (size_t)got.n, sizeof got.t[0], cmp_tok);
    bool same = ref.n == got.n;
    for (int i = 0; same && i < ref.n; i++)
        same = !strcmp(ref.t[i], got.t[i]);
    if (!same) {
        pips_str st;
        pips_str_init(&st, NULL);
        g->def->state_to_text(g, s, &st);
        char a[4096] = "", b[4096] = "";
        for (int i = 0; i < ref.n; i++) strcat(strcat(a, " "), ref.t[i]);
        for (int i = 0; i < got.n; i++) strcat(strcat(b, " "), got.t[i]);
        fail_msg("state %s\nreference:%s\nengine:   %s", pips_str_cstr(&st), a, b);
    }
}

/* Positions reached in random games, several option sets. */
static void test_reference_random_games(void **st)
{
    (void)st;
    static const char *const sets[][3] = {
        {"players=4", "queen=false", "move_die=d8"}, {"players=4", "queen=true", "queen_height=2"},
        {"players=2", "move_die=d6", "action_die=treehouse"},
        {"mode=teams", "queen=true", "queen_height=4"}};
    int compared = 0;
    for (size_t v = 0; v < 4; v++) {
        pips_game *g = zig_game(sets[v], 3);
        zig_state s;
        pips_move mv[ZIG_MAX_MOVES];
        double pr[ZIG_MAX_MOVES];
        pips_rng rng;
        pips_rng_seed(&rng, 7 + v);
        for (int game = 0; game < 6; game++) {
            g->def->initial(g, &s);
            while (pips_to_move(g, &s) != PIPS_OVER) {
                size_t n = pips_node_moves(g, &s, &rng, mv, pr);
                if (pips_to_move(g, &s) >= 0) {
                    compare(g, &s);
                    compared++;
                }
                size_t pick = pips_to_move(g, &s) == PIPS_CHANCE ? pips_sample_chance(&rng, pr, n)
                                                                 : (size_t)pips_rng_below(&rng, n);
                g->def->apply(g, &s, mv[pick]);
            }
        }
        pips_game_free(g);
    }
    assert_true(compared > 10000);
}

/* Scrambled positions: every piece on a random square, pile order random,
 * any mover, dice and flags. */
static void test_reference_scrambled(void **st)
{
    (void)st;
    const char *o[] = {"queen=true"};
    for (int variant = 0; variant < 2; variant++) {
        pips_game *g = zig_game(o, (size_t)variant);
        const zig_config *k = g->config;
        pips_rng rng;
        pips_rng_seed(&rng, 4242 + variant);
        for (int iter = 0; iter < 20000; iter++) {
            char text[1024];
            int mover = (int)pips_rng_below(&rng, 4);
            /* movement and action mostly unused; P, B, S now and then */
            char clean[8];
            int nc = 0;
            if (pips_rng_below(&rng, 4)) clean[nc++] = 'M';
            if (pips_rng_below(&rng, 4)) clean[nc++] = 'A';
            if (!pips_rng_below(&rng, 3)) clean[nc++] = 'P';
            if (!pips_rng_below(&rng, 3)) clean[nc++] = 'B';
            if (!pips_rng_below(&rng, 3)) clean[nc++] = 'S';
            clean[nc] = 0;
            int len = snprintf(text, sizeof text,
                               "mover=%c phase=step move=%d action=%c flags=%s turns=0 result=- |",
                               ZIG_COLOUR_CH[mover], 1 + (int)pips_rng_below(&rng, 8),
                               ZIG_ACT_CH[pips_rng_below(&rng, 8)], nc ? clean : "-");
            /* piles: each piece to its Start, its Goal or one of a few busy squares */
            char piles[ZIG_LOCS][64];
            memset(piles, 0, sizeof piles);
            int busy[6];
            for (int i = 0; i < 6; i++) {
                int l;
                do l = (int)pips_rng_below(&rng, 64);
                while (k->goal_mask >> l & 1);
                busy[i] = l;
            }
            for (int c = 0; c < 4; c++)
                for (int p = 0; p < k->npieces; p++) {
                    int r = (int)pips_rng_below(&rng, 10), loc;
                    if (r == 0) loc = 64 + c;
                    else if (r == 1) loc = k->goal[c];
                    else if (r < 6) loc = busy[pips_rng_below(&rng, 6)];
                    else {
                        do loc = (int)pips_rng_below(&rng, 64);
                        while (k->goal_mask >> loc & 1);
                    }
                    size_t pl = strlen(piles[loc]);
                    snprintf(piles[loc] + pl, sizeof piles[loc] - pl, "%s%c%s", pl ? "," : "",
                             ZIG_COLOUR_CH[c], k->queen && p == 0 ? "Q" : "");
                }
            for (int l = 0; l < ZIG_LOCS; l++)
                if (piles[l][0])
                    len += snprintf(text + len, sizeof text - (size_t)len, " %s:%s", nm(k, l),
                                    piles[l]);
            zig_state s;
            pips_error err;
            if (!g->def->state_from_text(g, text, &s, &err))
                fail_msg("scrambled '%s': %s", text, err.msg);
            compare(g, &s);
            if (iter % 8 == 0) { /* every step keeps the derived masks exact */
                pips_move mv[ZIG_MAX_MOVES];
                size_t n = g->def->legal_moves(g, &s, mv);
                for (size_t i = 0; i < n; i++) {
                    zig_state t = s, u;
                    g->def->apply(g, &t, mv[i]);
                    pips_str tx;
                    pips_str_init(&tx, NULL);
                    g->def->state_to_text(g, &t, &tx);
                    if (!g->def->state_from_text(g, pips_str_cstr(&tx), &u, &err))
                        fail_msg("'%s': %s", pips_str_cstr(&tx), err.msg);
                    assert_memory_equal(&t, &u, sizeof t);
                    pips_str_free(&tx);
                }
            }
        }
        pips_game_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_random_games),
        cmocka_unit_test(test_reference_scrambled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
