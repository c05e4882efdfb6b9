/*
 * ziggurat.c — Ziggurat (Bryan Stout, 2009) under the project's rulings
 * ZIG-R1..R31 (shared/rules/ziggurat.md): a dice race round and up a
 * four-level board, with pushing (Tip), swapping, digging and hopping.
 *
 * A turn is a chance node (the opening roll of both dice, ZIG-R30) followed
 * by decision steps, one interface move each (the section-10 tokens, `end`
 * included); RA and RB are followed by their own reroll chance node. When
 * `end` would be the only legal step the turn ends by itself (ZIG-R22), so a
 * decision node always offers at least two moves.
 *
 * Invariants: height[] matches the piles and unused pile slots are zero;
 * phase PH_OVER iff result != RES_NONE; unused state bytes are zero.
 */
#include "games/ziggurat/ziggurat_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- geometry ------------------------------------------------------------ */

static int loc_of_xy(const zig_config *k, int x, int y)
{
    if (x >= 1 && x <= 8 && y >= 1 && y <= 8)
        return (y - 1) * 8 + (x - 1);
    for (int c = 0; c < 4; c++)
        if (k->lx[64 + c] == x && k->ly[64 + c] == y)
            return 64 + c;
    return -1;
}

static inline bool on_board(int x, int y) { return x >= 1 && x <= 8 && y >= 1 && y <= 8; }

static int level_xy(int x, int y)
{
    if (!on_board(x, y))
        return 0;
    int m = x;
    if (y < m) m = y;
    if (9 - x < m) m = 9 - x;
    if (9 - y < m) m = 9 - y;
    return m;
}

/* ZIG-R1/R2: Red's path, rotated (x, y) -> (9-y, x) for Green, Yellow, Blue. */
static void build_geometry(zig_config *k)
{
    int px[ZIG_PATH], py[ZIG_PATH], n = 0;
    px[n] = 8, py[n] = 0, n++;
    for (int l = 1; l <= 3; l++) {
        int lo = l, hi = 9 - l;
        for (int y = lo; y <= hi; y++) px[n] = hi, py[n] = y, n++;
        for (int x = hi - 1; x >= lo; x--) px[n] = x, py[n] = hi, n++;
        for (int y = hi - 1; y >= lo; y--) px[n] = lo, py[n] = y, n++;
        for (int x = lo + 1; x <= hi - 1; x++) px[n] = x, py[n] = lo, n++;
    }
    px[n] = 5, py[n] = 4, n++;
    /* Start coordinates first, so loc_of_xy can name them. */
    int sx = 8, sy = 0;
    for (int c = 0; c < 4; c++) {
        k->lx[64 + c] = (int8_t)sx;
        k->ly[64 + c] = (int8_t)sy;
        int t = sx;
        sx = 9 - sy;
        sy = t;
    }
    for (int l = 0; l < 64; l++) {
        k->lx[l] = (int8_t)(l % 8 + 1);
        k->ly[l] = (int8_t)(l / 8 + 1);
        k->level[l] = (uint8_t)level_xy(k->lx[l], k->ly[l]);
    }
    for (int c = 64; c < ZIG_LOCS; c++)
        k->level[c] = 0;
    memset(k->pidx, ZIG_NOLOC, sizeof k->pidx);
    uint64_t corners = 0;
    for (int l = 0; l < 64; l++)
        if (k->lx[l] == k->ly[l] || k->lx[l] + k->ly[l] == 9)
            corners |= 1ull << l;
    k->goal_mask = 0;
    for (int c = 0; c < 4; c++) {
        for (int i = 0; i < ZIG_PATH; i++) {
            int x = px[i], y = py[i];
            for (int r = 0; r < c; r++) {
                int t = x;
                x = 9 - y;
                y = t;
            }
            int loc = loc_of_xy(k, x, y);
            k->path[c][i] = (uint8_t)loc;
            k->pidx[c][loc] = (uint8_t)i;
        }
        k->goal[c] = k->path[c][61];
        k->entry[c] = k->path[c][1];
        k->goal_mask |= 1ull << k->goal[c];
        /* walls: the last square of each ring (indices 28, 48, 60) */
        k->stops[c] = corners | 1ull << k->goal[c] | 1ull << k->path[c][28] |
                      1ull << k->path[c][48] | 1ull << k->path[c][60];
        for (int l = 0; l < 64; l++) {
            int f = k->path[c][k->pidx[c][l] + 1 < ZIG_PATH ? k->pidx[c][l] + 1 : 0];
            k->fwd_dir[c][l] = 0;
            if (k->pidx[c][l] != ZIG_NOLOC && k->pidx[c][l] < ZIG_PATH - 1)
                for (int d = 0; d < 8; d++)
                    if (ZIG_DX[d] == k->lx[f] - k->lx[l] && ZIG_DY[d] == k->ly[f] - k->ly[l])
                        k->fwd_dir[c][l] = (uint8_t)d;
        }
        int dx = k->lx[k->entry[c]] - k->lx[64 + c], dy = k->ly[k->entry[c]] - k->ly[64 + c];
        for (int d = 0; d < 8; d++)
            if (ZIG_DX[d] == dx && ZIG_DY[d] == dy)
                k->entry_dir[c] = (int8_t)d;
    }
    /* Neighbour, Dig and Tip tables (ZIG-R11, R13). */
    for (int l = 0; l < ZIG_LOCS; l++) {
        int x = k->lx[l], y = k->ly[l];
        for (int d = 0; d < 8; d++) {
            int nx = x + ZIG_DX[d], ny = y + ZIG_DY[d];
            k->nb[l][d] = on_board(nx, ny) ? (uint8_t)((ny - 1) * 8 + nx - 1) : ZIG_NOLOC;
        }
        if (l >= 64)
            continue;
        k->n_dig[l] = 0;
        k->tip_ok[l] = 0;
        for (int d = 0; d < 8; d++) {
            int t = k->nb[l][d];
            if (t != ZIG_NOLOC && k->level[t] <= k->level[l] && !(k->goal_mask >> t & 1))
                k->dig_to[l][k->n_dig[l]++] = (uint8_t)t;
            if (level_xy(x + ZIG_DX[d], y + ZIG_DY[d]) <= k->level[l])
                k->tip_ok[l] |= (uint8_t)(1u << d);
        }
    }
    memset(k->ahead, ZIG_NOLOC, sizeof k->ahead);
    for (int c = 0; c < 4; c++)
        for (int i = 0; i + 1 < ZIG_PATH; i++)
            k->ahead[c][k->path[c][i]] = k->path[c][i + 1];
    memset(k->nb_mask, 0, sizeof k->nb_mask);
    memset(k->start_nb, 0, sizeof k->start_nb);
    memset(k->fwd_mask, 0, sizeof k->fwd_mask);
    memset(k->tip_mask, 0, sizeof k->tip_mask);
    for (int l = 0; l < ZIG_LOCS; l++)
        for (int d = 0; d < 8; d++) {
            if (k->nb[l][d] == ZIG_NOLOC)
                continue;
            if (l < 64)
                k->nb_mask[l] |= 1ull << k->nb[l][d];
            else
                k->start_nb[l - 64][d] = 1ull << k->nb[l][d];
        }
    for (int l = 0; l < 64; l++)
        for (int d = 0; d < 8; d++) {
            if (k->tip_ok[l] >> d & 1)
                k->tip_mask[d] |= 1ull << l;
            for (int c = 0; c < 4; c++)
                if (k->fwd_dir[c][l] == d)
                    k->fwd_mask[c][d] |= 1ull << l;
        }
}

/* ---- small queries ---------------------------------------------------------- */

static inline int pc_colour(int p) { return (p - 1) & 3; }
static inline bool pc_queen(int p) { return p > 4; }
static inline int pc_make(int colour, bool queen) { return 1 + colour + (queen ? 4 : 0); }

static inline int top_of(const zig_state *s, int loc)
{
    return s->height[loc] ? s->pile[loc][s->height[loc] - 1] : 0;
}

/* Recomputes the derived masks of board square loc (Starts have none). */
static inline void refresh(zig_state *s, int loc)
{
    if (loc >= 64)
        return;
    uint64_t b = 1ull << loc;
    s->occ &= ~b;
    s->stacks &= ~b;
    for (int c = 0; c < 4; c++) {
        s->top[c] &= ~b;
        s->bottom[c] &= ~b;
    }
    int h = s->height[loc];
    if (!h)
        return;
    s->occ |= b;
    if (h >= 2)
        s->stacks |= b;
    s->top[pc_colour(s->pile[loc][h - 1])] |= b;
    s->bottom[pc_colour(s->pile[loc][0])] |= b;
}

static inline bool is_stop(const zig_config *k, int c, int loc, bool from_start)
{
    if (loc >= 64)
        return false;
    if (from_start && loc == k->entry[c])
        return false; /* ZIG-R4 */
    return k->stops[c] >> loc & 1;
}

/* Blocked for a Drone of colour c (ZIG-R5, R6, queen rule of section 8). */
static inline bool blocked_for_drone(const zig_config *k, const zig_state *s, int c, int loc)
{
    if (loc == k->goal[c])
        return false;
    return s->height[loc] >= 2 || (k->queen && s->height[loc] == 1 && pc_queen(s->pile[loc][0]));
}

/* ZIG-R23: all of c's pieces on its Goal (at least a full set: test
 * positions may hold extra pieces, and never fewer count as finished). */
static bool colour_finished(const zig_config *k, const zig_state *s, int c)
{
    int goal = k->goal[c];
    if (s->height[goal] < k->npieces)
        return false;
    for (int l = 0; l < ZIG_LOCS; l++)
        if (l != goal)
            for (int i = 0; i < s->height[l]; i++)
                if (pc_colour(s->pile[l][i]) == c)
                    return false;
    return true;
}

/* ---- movement (section 4) ------------------------------------------------- */

enum { WALK_PLAIN, WALK_AIM, WALK_HOP };

/* Where a piece of colour c starting on o ends with P points, or o. */
static int walk(const zig_config *k, const zig_state *s, int c, int o, int how, int P,
                bool queen, bool foreign_load)
{
    const uint8_t *path = k->path[c];
    int idx = k->pidx[c][o];
    bool from_start = o == 64 + c;
    int cost = queen ? 2 : 1;
    int goal = k->goal[c];
    bool goal_blocked = queen && foreign_load; /* section 8: she halts before her Goal */
    int cur = o;
    while (P >= cost && idx < ZIG_PATH - 1) {
        int q = path[idx + 1];
        if (how == WALK_HOP) {
            bool stop_q = is_stop(k, c, q, from_start);
            if (s->height[q] == 0 || stop_q) {
                if (q == goal && goal_blocked)
                    break;
                cur = q;
                idx++;
                P -= cost;
                if (stop_q)
                    break;
            } else { /* ZIG-R9: a run of occupied squares and the landing cost one point */
                int j = idx + 1;
                while (s->height[path[j]] != 0 && !is_stop(k, c, path[j], from_start))
                    j++;
                int t = path[j];
                if (t == goal && goal_blocked)
                    break;
                cur = t;
                idx = j;
                P -= cost;
                if (is_stop(k, c, t, from_start))
                    break;
            }
        } else {
            if (q == goal && goal_blocked)
                break;
            if (!queen && blocked_for_drone(k, s, c, q))
                break;
            cur = q;
            idx++;
            P -= cost;
            if (how == WALK_AIM ? q == goal : is_stop(k, c, q, from_start))
                break;
        }
    }
    return cur;
}

/* ZIG-R10 Leap: over and onto empty squares, to the next stop. */
static int leap(const zig_config *k, const zig_state *s, int c, int o)
{
    const uint8_t *path = k->path[c];
    int idx = k->pidx[c][o];
    bool from_start = o == 64 + c;
    int cur = o;
    while (idx < ZIG_PATH - 1) {
        int q = path[idx + 1];
        if (s->height[q])
            break;
        cur = q;
        idx++;
        if (is_stop(k, c, q, from_start))
            break;
    }
    return cur;
}

/* ---- the legal steps -------------------------------------------------------- */

/* Bit set of actions the mover may use now (bits ACT_*), Wild expanded. */
static unsigned actions_open(const zig_config *k, const zig_state *s)
{
    if (!(s->flags & F_ACT) || s->action >= ACT_NONE)
        return 0;
    if (s->action == ACT_WILD) { /* ZIG-R21 */
        unsigned m = 1u << ACT_TIP | 1u << ACT_SWAP | 1u << ACT_HOP | 1u << ACT_DIG |
                     1u << ACT_AIM;
        if (!k->treehouse) {
            m |= 1u << ACT_LEAP;
            if (!(s->flags & F_RB)) /* ZIG-R20: a rerolled Wild is not Redo */
                m |= 1u << ACT_REDO;
        }
        return m;
    }
    if (s->action == ACT_REDO && (s->flags & F_RB))
        return 0; /* ZIG-R20: a rerolled Redo is blank */
    return 1u << s->action;
}

typedef struct gen_ctx {
    pips_move *out;
    size_t n;
    bool first_only; /* stop at the first step other than end */
} gen_ctx;

#define EMIT(m)                                                                              \
    do {                                                                                     \
        if (g->out)                                                                          \
            g->out[g->n] = (m);                                                              \
        g->n++;                                                                              \
        if (g->first_only)                                                                   \
            return;                                                                          \
    } while (0)

static void gen_moves_from(const zig_config *k, const zig_state *s, gen_ctx *g, int o,
                           unsigned acts)
{
    int c = s->mover, h = s->height[o];
    bool mv = s->flags & F_MOVE, plain_only = s->flags & F_PLAIN;
    bool aim = mv && !plain_only && (acts >> ACT_AIM & 1);
    bool hop = mv && !plain_only && (acts >> ACT_HOP & 1);
    int top = s->pile[o][h - 1];
    int P = s->move_val, Pb = s->move_val + k->bonus;
    if (pc_colour(top) == c) {
        if (!pc_queen(top)) { /* the top Drone alone */
            if (mv) {
                int t = walk(k, s, c, o, WALK_PLAIN, P, false, false);
                if (t != o) EMIT(zig_mk(K_MOVE, o, t, 0, 0));
            }
            if (aim) {
                int t = walk(k, s, c, o, WALK_AIM, Pb, false, false);
                if (t != o) EMIT(zig_mk(K_AIM, o, t, 0, 0));
            }
            if (hop) {
                int t = walk(k, s, c, o, WALK_HOP, Pb, false, false);
                if (t != o) EMIT(zig_mk(K_HOP, o, t, 0, 0));
            }
        }
        if (acts >> ACT_LEAP & 1) { /* ZIG-R10: any own top piece */
            int t = leap(k, s, c, o);
            if (t != o) EMIT(zig_mk(K_LEAP, o, t, 0, 0));
        }
    }
    if (k->queen && mv) { /* ZIG-R28: the topmost Queen, if own, with all above her */
        int qi = -1;
        for (int i = h - 1; i >= 0; i--)
            if (pc_queen(s->pile[o][i])) {
                qi = i;
                break;
            }
        if (qi >= 0 && pc_colour(s->pile[o][qi]) == c) {
            bool foreign = false;
            for (int i = qi + 1; i < h; i++)
                if (pc_colour(s->pile[o][i]) != c)
                    foreign = true;
            int t = walk(k, s, c, o, WALK_PLAIN, P, true, foreign);
            if (t != o) EMIT(zig_mk(K_QMOVE, o, t, 0, 0));
            if (aim) {
                t = walk(k, s, c, o, WALK_AIM, Pb, true, foreign);
                if (t != o) EMIT(zig_mk(K_QAIM, o, t, 0, 0));
            }
            if (hop) {
                t = walk(k, s, c, o, WALK_HOP, Pb, true, foreign);
                if (t != o) EMIT(zig_mk(K_QHOP, o, t, 0, 0));
            }
        }
    }
}

/* Iterates the set bits of a 64-bit mask, lowest first. */
#define FOR_BITS(var, mask)                                                                  \
    for (uint64_t bits_ = (mask), var; bits_ && ((var = (uint64_t)__builtin_ctzll(bits_)), 1); \
         bits_ &= bits_ - 1)

/* The board mask b moved one square in direction d (ZIG_DX/ZIG_DY order);
 * squares that would leave the board drop out. */
static inline uint64_t shift_dir(uint64_t b, int d)
{
    const uint64_t not_a = ~0x0101010101010101ull, not_h = ~0x8080808080808080ull;
    switch (d) {
    case 0: return b << 8;
    case 1: return (b & not_h) << 9;
    case 2: return (b & not_h) << 1;
    case 3: return (b & not_h) >> 7;
    case 4: return b >> 8;
    case 5: return (b & not_a) >> 9;
    case 6: return (b & not_a) >> 1;
    default: return (b & not_a) << 7;
    }
}

/* The steps come in categories, listed in this order (then `end`). The
 * random_move shortcut counts each cheaply and generates only the one it
 * draws from, so this order is the order of the legal list. */
enum { CAT_MOVE, CAT_DIG, CAT_SWAP_A, CAT_SWAP_B, CAT_TIP, CAT_REDO, N_CAT };

static bool cat_open(const zig_state *s, int cat, unsigned acts)
{
    switch (cat) {
    case CAT_MOVE: return (s->flags & F_MOVE) || (acts >> ACT_LEAP & 1);
    case CAT_DIG: return acts >> ACT_DIG & 1;
    case CAT_SWAP_A: case CAT_SWAP_B: return acts >> ACT_SWAP & 1;
    case CAT_TIP: return acts >> ACT_TIP & 1;
    default: return acts >> ACT_REDO & 1;
    }
}

/* Moves and Leaps: own top pieces (any pile with Queens) on the Start or a non-Goal square. */
static void gen_movement(const zig_config *k, const zig_state *s, gen_ctx *g, unsigned acts)
{
    int c = s->mover, start = 64 + c;
    if (s->height[start]) {
        gen_moves_from(k, s, g, start, acts);
        if (g->first_only && g->n) return;
    }
    FOR_BITS(o, (k->queen ? s->occ : s->top[c]) & ~(1ull << k->goal[c])) {
        gen_moves_from(k, s, g, (int)o, acts);
        if (g->first_only && g->n) return;
    }
}

typedef struct move_flags {
    bool mv, aim, hop, leap; /* which of gen_moves_from's steps are open */
} move_flags;

static inline move_flags movement_open(const zig_state *s, unsigned acts)
{
    move_flags f;
    bool plain_only = s->flags & F_PLAIN;
    f.mv = s->flags & F_MOVE;
    f.aim = f.mv && !plain_only && (acts >> ACT_AIM & 1);
    f.hop = f.mv && !plain_only && (acts >> ACT_HOP & 1);
    f.leap = acts >> ACT_LEAP & 1;
    return f;
}

/* Without Queens: how many steps gen_moves_from lists for the own Drone on
 * top of o, without walking. The first square ahead decides Move and Aim
 * (ZIG-R5, R6: a Drone stops before a stack); a Hop always gets somewhere
 * (ZIG-R9: a run of pieces ends on an empty square or a stop, at the latest
 * the Goal); a Leap needs the first square empty (ZIG-R10). */
static inline int drone_steps_from(const zig_config *k, const zig_state *s, int o, move_flags f)
{
    int c = s->mover, q = k->ahead[c][o];
    if (q == ZIG_NOLOC) /* on the Goal, or off the colour's path */
        return 0;
    int open = q == k->goal[c] || s->height[q] < 2;
    return (f.mv ? open : 0) + (f.aim ? open : 0) + f.hop + (f.leap && !s->height[q]);
}

/* The r-th step gen_moves_from lists for the own Drone on top of o (r
 * below drone_steps_from), walking only for that one. */
static pips_move drone_step_at(const zig_config *k, const zig_state *s, int o, move_flags f,
                               int r)
{
    int c = s->mover, P = s->move_val, Pb = s->move_val + k->bonus;
    int q = k->ahead[c][o];
    bool open = q == k->goal[c] || s->height[q] < 2;
    if (f.mv && open && r-- == 0)
        return zig_mk(K_MOVE, o, walk(k, s, c, o, WALK_PLAIN, P, false, false), 0, 0);
    if (f.aim && open && r-- == 0)
        return zig_mk(K_AIM, o, walk(k, s, c, o, WALK_AIM, Pb, false, false), 0, 0);
    if (f.hop && r-- == 0)
        return zig_mk(K_HOP, o, walk(k, s, c, o, WALK_HOP, Pb, false, false), 0, 0);
    return zig_mk(K_LEAP, o, leap(k, s, c, o), 0, 0);
}

static int count_movement(const zig_config *k, const zig_state *s, unsigned acts)
{
    if (k->queen) {
        gen_ctx g = {NULL, 0, false};
        gen_movement(k, s, &g, acts);
        return (int)g.n;
    }
    int c = s->mover, start = 64 + c, n = 0;
    move_flags f = movement_open(s, acts);
    if (s->height[start])
        n += drone_steps_from(k, s, start, f);
    FOR_BITS(o, s->top[c] & ~(1ull << k->goal[c]))
        n += drone_steps_from(k, s, (int)o, f);
    return n;
}

/* ZIG-R11 Dig: own bottom piece, non-Goal square, to an adjacent square not higher. */
static void gen_dig(const zig_config *k, const zig_state *s, gen_ctx *g)
{
    FOR_BITS(o, s->bottom[s->mover] & ~k->goal_mask)
        for (int i = 0; i < k->n_dig[o]; i++)
            EMIT(zig_mk(K_DIG, (int)o, k->dig_to[o][i], 0, 0));
}

static int count_dig(const zig_config *k, const zig_state *s)
{
    int n = 0;
    FOR_BITS(o, s->bottom[s->mover] & ~k->goal_mask)
        n += k->n_dig[o];
    return n;
}

/* ZIG-R12 Swap (A): own top on p with the top on an adjacent q; board squares, not Goals. */
static void gen_swap_a(const zig_config *k, const zig_state *s, gen_ctx *g)
{
    uint64_t own_top = s->top[s->mover], free_sq = s->occ & ~k->goal_mask;
    FOR_BITS(p, own_top & ~k->goal_mask) {
        int tp = top_of(s, (int)p);
        for (int d = 0; d < 8; d++) {
            int q = k->nb[p][d];
            if (q == ZIG_NOLOC || !(free_sq >> q & 1))
                continue;
            if ((own_top >> q & 1) && q < (int)p)
                continue; /* listed from q already */
            if (top_of(s, q) == tp)
                continue;
            EMIT(q < (int)p ? zig_mk(K_SWAPA, q, (int)p, 0, 0) : zig_mk(K_SWAPA, (int)p, q, 0, 0));
        }
    }
}

static int count_swap_a(const zig_config *k, const zig_state *s)
{
    if (k->queen) {
        gen_ctx g = {NULL, 0, false};
        gen_swap_a(k, s, &g);
        return (int)g.n;
    }
    /* Without Queens two own tops are equal pieces, so only foreign tops pair. */
    uint64_t own_top = s->top[s->mover], free_sq = s->occ & ~k->goal_mask;
    int n = 0;
    FOR_BITS(p, own_top & ~k->goal_mask)
        n += __builtin_popcountll(k->nb_mask[p] & free_sq & ~own_top);
    return n;
}

/* ZIG-R12 Swap (B): within a stack holding an own piece; non-Goal board square or own Start. */
static void gen_swap_b(const zig_config *k, const zig_state *s, gen_ctx *g)
{
    int c = s->mover;
    uint64_t swap_stacks = s->stacks & ~k->goal_mask;
    /* without Queens a Start holds equal Drones only: nothing to swap there */
    for (int n_seen = k->queen ? -1 : 0; swap_stacks || n_seen < 0; n_seen++) {
        int loc = 64 + c;
        if (n_seen >= 0) {
            loc = __builtin_ctzll(swap_stacks);
            swap_stacks &= swap_stacks - 1;
        }
        int h = s->height[loc];
        if (h < 2)
            continue;
        const uint8_t *pl = s->pile[loc];
        for (int i = 0; i < h; i++)
            for (int j = i + 1; j < h; j++) {
                if (pl[i] == pl[j] || (pc_colour(pl[i]) != c && pc_colour(pl[j]) != c))
                    continue;
                EMIT(zig_mk(K_SWAPB, loc, 0, i + 1, j + 1));
            }
    }
}

/* ZIG-R13 Tip, one per (S, D): dirs[d] holds the squares S tippable in
 * direction d; returns their union. (A) an own top piece on P pushes
 * S = P + D (P a board square or the own Start); (B) a stack holding an own
 * piece tips any way; (C) a lone own piece tips forward. Tips never go
 * uphill (tip_mask) and never start on a Goal. */
static uint64_t tip_dirs(const zig_config *k, const zig_state *s, uint64_t dirs[8])
{
    int c = s->mover, start = 64 + c;
    uint64_t own_top = s->top[c], free_sq = s->occ & ~k->goal_mask;
    bool start_pushes = s->height[start] && pc_colour(top_of(s, start)) == c;
    uint64_t own_stacks = 0;
    FOR_BITS(S, s->stacks & free_sq) {
        const uint8_t *pl = s->pile[S];
        for (int i = 0; i < s->height[S]; i++)
            if (pc_colour(pl[i]) == c) {
                own_stacks |= 1ull << S;
                break;
            }
    }
    uint64_t singles = own_top & free_sq & ~s->stacks, all = 0;
    for (int d = 0; d < 8; d++) {
        uint64_t pushed = shift_dir(own_top, d) | (start_pushes ? k->start_nb[c][d] : 0);
        dirs[d] = ((pushed & free_sq) | own_stacks | (singles & k->fwd_mask[c][d])) &
                  k->tip_mask[d];
        all |= dirs[d];
    }
    return all;
}

static void gen_tip(const zig_config *k, const zig_state *s, gen_ctx *g)
{
    uint64_t dirs[8];
    uint64_t all = tip_dirs(k, s, dirs);
    FOR_BITS(S, all)
        for (int d = 0; d < 8; d++)
            if (dirs[d] >> S & 1)
                EMIT(zig_mk(K_TIP, (int)S, 0, d, 0));
    int start = 64 + s->mover;
    if (s->height[start]) /* the Start's forward Tip (ZIG-R16) */
        EMIT(zig_mk(K_TIP, start, 0, k->entry_dir[s->mover], 0));
}

static int count_tip(const zig_config *k, const zig_state *s)
{
    uint64_t dirs[8];
    tip_dirs(k, s, dirs);
    int n = s->height[64 + s->mover] ? 1 : 0;
    for (int d = 0; d < 8; d++)
        n += __builtin_popcountll(dirs[d]);
    return n;
}

/* ZIG-R19 RA needs an own piece off its Goal; ZIG-R20 RB only before any step. */
static void gen_redo(const zig_config *k, const zig_state *s, gen_ctx *g)
{
    int c = s->mover, goal = k->goal[c];
    int own_off = ((s->top[c] | s->bottom[c]) & ~(1ull << goal)) != 0;
    for (int l = 0; l < ZIG_LOCS && !own_off; l++) {
        if (l == goal)
            continue;
        for (int i = 0; i < s->height[l]; i++)
            if (pc_colour(s->pile[l][i]) == c) {
                own_off = 1;
                break;
            }
    }
    if (own_off)
        EMIT(zig_mk(K_RA, 0, 0, 0, 0));
    if (!(s->flags & F_STEPPED))
        EMIT(zig_mk(K_RB, 0, 0, 0, 0));
}

static void gen_cat(const zig_config *k, const zig_state *s, gen_ctx *g, int cat, unsigned acts)
{
    switch (cat) {
    case CAT_MOVE: gen_movement(k, s, g, acts); break;
    case CAT_DIG: gen_dig(k, s, g); break;
    case CAT_SWAP_A: gen_swap_a(k, s, g); break;
    case CAT_SWAP_B: gen_swap_b(k, s, g); break;
    case CAT_TIP: gen_tip(k, s, g); break;
    default: gen_redo(k, s, g); break;
    }
}

/* How many steps of category cat are legal (0 when it is not open). */
static int count_cat(const zig_config *k, const zig_state *s, int cat, unsigned acts)
{
    if (!cat_open(s, cat, acts))
        return 0;
    switch (cat) {
    case CAT_MOVE: return count_movement(k, s, acts);
    case CAT_DIG: return count_dig(k, s);
    case CAT_SWAP_A: return count_swap_a(k, s);
    case CAT_SWAP_B:
        /* without Queens a Start holds equal Drones only: no pair to swap */
        if (!(s->stacks & ~k->goal_mask) && (!k->queen || s->height[64 + s->mover] < 2))
            return 0;
        break;
    case CAT_TIP: return count_tip(k, s);
    default: { /* the common case of gen_redo: an own piece shows on the board */
        int c = s->mover;
        if ((s->top[c] | s->bottom[c]) & ~(1ull << k->goal[c]))
            return 1 + !(s->flags & F_STEPPED);
        break;
    }
    }
    gen_ctx g = {NULL, 0, false};
    gen_cat(k, s, &g, cat, acts);
    return (int)g.n;
}

static void gen_steps(const zig_config *k, const zig_state *s, gen_ctx *g)
{
    unsigned acts = actions_open(k, s);
    for (int cat = 0; cat < N_CAT; cat++) {
        if (!cat_open(s, cat, acts))
            continue;
        gen_cat(k, s, g, cat, acts);
        if (g->first_only && g->n)
            return;
    }
}

static size_t legal_steps(const zig_config *k, const zig_state *s, pips_move *out)
{
    gen_ctx g = {out, 0, false};
    gen_steps(k, s, &g);
    out[g.n] = zig_mk(K_END, 0, 0, 0, 0);
    return g.n + 1;
}

/* The number of legal steps per category; returns the total, `end` included. */
static size_t step_counts(const zig_config *k, const zig_state *s, unsigned acts,
                          int cnt[N_CAT])
{
    /* straight-line, as most categories are closed on a typical roll */
    cnt[CAT_MOVE] = (s->flags & F_MOVE) || (acts >> ACT_LEAP & 1) ? count_movement(k, s, acts) : 0;
    cnt[CAT_DIG] = acts >> ACT_DIG & 1 ? count_dig(k, s) : 0;
    cnt[CAT_SWAP_A] = cnt[CAT_SWAP_B] = cnt[CAT_TIP] = cnt[CAT_REDO] = 0;
    if (acts >> ACT_SWAP & 1) {
        cnt[CAT_SWAP_A] = count_swap_a(k, s);
        cnt[CAT_SWAP_B] = count_cat(k, s, CAT_SWAP_B, acts);
    }
    if (acts >> ACT_TIP & 1)
        cnt[CAT_TIP] = count_tip(k, s);
    if (acts >> ACT_REDO & 1)
        cnt[CAT_REDO] = count_cat(k, s, CAT_REDO, acts);
    size_t n = 1;
    for (int cat = 0; cat < N_CAT; cat++)
        n += (size_t)cnt[cat];
    return n;
}

/* Is any step besides `end` legal? (ZIG-R22: otherwise the turn ends.) */
static bool any_step(const zig_config *k, const zig_state *s)
{
    unsigned acts = actions_open(k, s);
    for (int cat = 0; cat < N_CAT; cat++) {
        if (!cat_open(s, cat, acts))
            continue;
        /* counting is cheap except for Queen movement and Swaps, and stacks */
        bool slow_count = cat == CAT_SWAP_B || (k->queen && (cat == CAT_MOVE || cat == CAT_SWAP_A));
        if (!slow_count) {
            if (count_cat(k, s, cat, acts))
                return true;
            continue;
        }
        gen_ctx g = {NULL, 0, true};
        gen_cat(k, s, &g, cat, acts);
        if (g.n)
            return true;
    }
    return false;
}

/* The r-th step of category cat (r below its count) found without listing
 * the category, where that is cheap: Drone movement (one walk), Digs,
 * Swaps (A) without Queens, Tips. False means: list the category. */
static bool direct_step_at(const zig_config *k, const zig_state *s, int cat, unsigned acts,
                           size_t r, pips_move *out)
{
    int c = s->mover, start = 64 + c;
    switch (cat) {
    case CAT_MOVE: {
        if (k->queen)
            return false;
        move_flags f = movement_open(s, acts);
        uint64_t from = s->top[c] & ~(1ull << k->goal[c]);
        for (int o = s->height[start] ? start : -1; o >= 0 || from;) {
            if (o < 0) {
                o = __builtin_ctzll(from);
                from &= from - 1;
            }
            size_t here = (size_t)drone_steps_from(k, s, o, f);
            if (r < here) {
                *out = drone_step_at(k, s, o, f, (int)r);
                return true;
            }
            r -= here;
            o = -1;
        }
        return false;
    }
    case CAT_DIG:
        FOR_BITS(o, s->bottom[c] & ~k->goal_mask) {
            if (r < k->n_dig[o]) {
                *out = zig_mk(K_DIG, (int)o, k->dig_to[o][r], 0, 0);
                return true;
            }
            r -= k->n_dig[o];
        }
        return false;
    case CAT_SWAP_A: {
        if (k->queen)
            return false;
        /* as count_swap_a: without Queens only foreign tops pair, in direction order */
        uint64_t own_top = s->top[c], free_sq = s->occ & ~k->goal_mask;
        FOR_BITS(p, own_top & ~k->goal_mask) {
            uint64_t partners = k->nb_mask[p] & free_sq & ~own_top;
            size_t here = (size_t)__builtin_popcountll(partners);
            if (r >= here) {
                r -= here;
                continue;
            }
            for (int d = 0; d < 8; d++) {
                int q = k->nb[p][d];
                if (q == ZIG_NOLOC || !(partners >> q & 1) || r-- > 0)
                    continue;
                *out = q < (int)p ? zig_mk(K_SWAPA, q, (int)p, 0, 0)
                                  : zig_mk(K_SWAPA, (int)p, q, 0, 0);
                return true;
            }
        }
        return false;
    }
    case CAT_TIP: {
        uint64_t dirs[8];
        FOR_BITS(S, tip_dirs(k, s, dirs)) {
            unsigned m = 0;
            for (int d = 0; d < 8; d++)
                m |= (unsigned)(dirs[d] >> S & 1) << d;
            size_t here = (size_t)__builtin_popcount(m);
            if (r >= here) {
                r -= here;
                continue;
            }
            while (r--)
                m &= m - 1;
            *out = zig_mk(K_TIP, (int)S, 0, __builtin_ctz(m), 0);
            return true;
        }
        if (r == 0 && s->height[start]) {
            *out = zig_mk(K_TIP, start, 0, k->entry_dir[c], 0);
            return true;
        }
        return false;
    }
    default:
        return false;
    }
}

/* The step legal_steps would list at index r (r below the total of cnt, the
 * counts of step_counts): only the category it falls in is looked at. */
static pips_move step_at(const zig_config *k, const zig_state *s, unsigned acts,
                         const int cnt[N_CAT], size_t r)
{
    for (int cat = 0; cat < N_CAT; cat++) {
        size_t n = (size_t)cnt[cat];
        if (r >= n) {
            r -= n;
            continue;
        }
        pips_move m;
        if (direct_step_at(k, s, cat, acts, r, &m))
            return m;
        pips_move buf[ZIG_MAX_MOVES];
        gen_ctx g = {buf, 0, false};
        gen_cat(k, s, &g, cat, acts);
        return buf[r];
    }
    return zig_mk(K_END, 0, 0, 0, 0);
}

/* ---- applying ------------------------------------------------------------------ */

static inline void push_top(zig_state *s, int loc, int piece)
{
    s->pile[loc][s->height[loc]++] = (uint8_t)piece;
}

/* Moves pieces [from_h, height) of o onto t, keeping their order. */
static void move_segment(zig_state *s, int o, int from_h, int t)
{
    int h = s->height[o];
    for (int i = from_h; i < h; i++) {
        push_top(s, t, s->pile[o][i]);
        s->pile[o][i] = 0;
    }
    s->height[o] = (uint8_t)from_h;
    refresh(s, o);
    refresh(s, t);
}

static void end_turn(const zig_config *k, zig_state *s)
{
    s->turns++;
    s->move_val = 0;
    s->action = ACT_NONE;
    s->flags = 0;
    if (k->max_turns && s->turns >= (uint32_t)k->max_turns) { /* ZIG-R24 */
        s->result = RES_DRAW;
        s->phase = PH_OVER;
        return;
    }
    s->mover = k->next_mover[s->mover];
    s->phase = PH_ROLL;
}

/* ZIG-R23: has the game been decided by the mover's finish? */
static bool decided(const zig_config *k, const zig_state *s)
{
    int c = s->mover;
    if (!colour_finished(k, s, c))
        return false;
    if (k->mode == MODE_TEAMS)
        return colour_finished(k, s, c ^ 2); /* partners sit opposite: R+Y, G+B */
    return true;
}

/* After a step or a reroll: a win ends the game; with only `end` left the turn ends. */
static void settle(const zig_config *k, zig_state *s)
{
    if (decided(k, s)) {
        s->result = RES_WIN;
        s->winner = s->mover;
        s->phase = PH_OVER;
        s->move_val = 0;
        s->action = ACT_NONE;
        s->flags = 0;
        return;
    }
    if (s->phase == PH_STEP && !any_step(k, s))
        end_turn(k, s);
}

static void do_tip(const zig_config *k, zig_state *s, int S, int d)
{
    uint8_t lifted[ZIG_MAXH];
    int h = s->height[S];
    memcpy(lifted, s->pile[S], (size_t)h);
    memset(s->pile[S], 0, ZIG_MAXH);
    s->height[S] = 0;
    int x = k->lx[S], y = k->ly[S];
    for (int i = 0; i < h; i++) { /* ZIG-R14: bottom first; off board goes home */
        int tx = x + (i + 1) * ZIG_DX[d], ty = y + (i + 1) * ZIG_DY[d];
        int t = on_board(tx, ty) ? (ty - 1) * 8 + tx - 1 : 64 + pc_colour(lifted[i]);
        push_top(s, t, lifted[i]);
        refresh(s, t);
    }
    refresh(s, S);
}

static void apply_step(const zig_config *k, zig_state *s, pips_move m)
{
    int kind = zig_kind(m), o = zig_from(m), t = zig_to(m);
    switch (kind) {
    case K_MOVE:
    case K_AIM:
    case K_HOP:
        move_segment(s, o, s->height[o] - 1, t);
        s->flags &= (uint8_t)~(kind == K_MOVE ? F_MOVE : F_MOVE | F_ACT);
        break;
    case K_QMOVE:
    case K_QAIM:
    case K_QHOP: {
        int qi = s->height[o] - 1;
        while (!pc_queen(s->pile[o][qi]))
            qi--;
        move_segment(s, o, qi, t);
        s->flags &= (uint8_t)~(kind == K_QMOVE ? F_MOVE : F_MOVE | F_ACT);
        break;
    }
    case K_LEAP:
        move_segment(s, o, s->height[o] - 1, t);
        s->flags &= (uint8_t)~F_ACT;
        break;
    case K_DIG: {
        int p = s->pile[o][0], h = s->height[o];
        memmove(s->pile[o], s->pile[o] + 1, (size_t)(h - 1));
        s->pile[o][h - 1] = 0;
        s->height[o]--;
        memmove(s->pile[t] + 1, s->pile[t], s->height[t]);
        s->pile[t][0] = (uint8_t)p;
        s->height[t]++;
        refresh(s, o);
        refresh(s, t);
        s->flags &= (uint8_t)~F_ACT;
        break;
    }
    case K_SWAPA: {
        uint8_t *a = &s->pile[o][s->height[o] - 1], *b = &s->pile[t][s->height[t] - 1];
        uint8_t tmp = *a;
        *a = *b;
        *b = tmp;
        refresh(s, o);
        refresh(s, t);
        s->flags &= (uint8_t)~F_ACT;
        break;
    }
    case K_SWAPB: {
        uint8_t *a = &s->pile[o][zig_a(m) - 1], *b = &s->pile[o][zig_b(m) - 1];
        uint8_t tmp = *a;
        *a = *b;
        *b = tmp;
        refresh(s, o);
        s->flags &= (uint8_t)~F_ACT;
        break;
    }
    case K_TIP:
        do_tip(k, s, o, zig_a(m));
        s->flags &= (uint8_t)~F_ACT;
        break;
    case K_RA: /* ZIG-R19: the unused movement is forfeited */
        s->flags &= (uint8_t)~(F_ACT | F_MOVE);
        s->flags |= F_STEPPED;
        s->phase = PH_RA;
        return;
    case K_RB:
        s->flags |= F_STEPPED;
        s->phase = PH_RB;
        return;
    case K_END:
        end_turn(k, s);
        return;
    default:
        return;
    }
    s->flags |= F_STEPPED;
    settle(k, s);
}

static void apply_chance(const zig_config *k, zig_state *s, pips_move m)
{
    switch (zig_kind(m)) {
    case K_ROLL:
        s->move_val = (uint8_t)zig_a(m);
        s->action = (uint8_t)zig_b(m);
        s->flags = F_MOVE | F_ACT;
        break;
    case K_ROLL_RA:
        s->move_val = (uint8_t)zig_a(m);
        s->flags |= F_MOVE | F_PLAIN;
        break;
    case K_ROLL_RB:
        s->action = (uint8_t)zig_a(m);
        s->flags |= F_RB | F_ACT;
        break;
    default:
        return;
    }
    s->phase = PH_STEP;
    settle(k, s);
}

/* ---- interface ---------------------------------------------------------------- */

static const char *const COLOUR_NAMES[4] = {"red", "green", "yellow", "blue"};
static const char *const COLOUR_TITLES[4] = {"Red", "Green", "Yellow", "Blue"};

static int parse_colour_name(const char *v)
{
    for (int c = 0; c < 4; c++)
        if (!strcmp(v, COLOUR_NAMES[c]))
            return c;
    return -1;
}

static bool zig_configure(const pips_game *gm, void *config, pips_error *err)
{
    zig_config *k = config;
    memset(k, 0, sizeof *k);
    const pips_options *o = &gm->options;
    long players, qh, mt;
    const char *v;
    if (!pips_parse_int(pips_options_get(o, "players"), 2, 4, &players))
        return pips_fail(err, PIPS_ERR_ARG, "option 'players': '%s' is not 2, 3 or 4",
                         pips_options_get(o, "players"));
    k->players = (int)players;
    v = pips_options_get(o, "mode");
    if (!strcmp(v, "standard")) k->mode = MODE_STANDARD;
    else if (!strcmp(v, "two_colour")) k->mode = MODE_TWO_COLOUR;
    else if (!strcmp(v, "teams")) k->mode = MODE_TEAMS;
    else
        return pips_fail(err, PIPS_ERR_ARG,
                         "option 'mode': '%s' is not standard, two_colour or teams", v);
    if (k->mode == MODE_TWO_COLOUR && players != 2)
        return pips_fail(err, PIPS_ERR_ARG, "option 'mode': two_colour needs players=2");
    if (k->mode == MODE_TEAMS && players != 4)
        return pips_fail(err, PIPS_ERR_ARG, "option 'mode': teams needs players=4");
    v = pips_options_get(o, "omit");
    int omit = parse_colour_name(v);
    if (omit < 0)
        return pips_fail(err, PIPS_ERR_ARG,
                         "option 'omit': '%s' is not green, red, blue or yellow", v);
    v = pips_options_get(o, "pair");
    bool pair_bg;
    if (!strcmp(v, "ry")) pair_bg = false;
    else if (!strcmp(v, "bg")) pair_bg = true;
    else
        return pips_fail(err, PIPS_ERR_ARG, "option 'pair': '%s' is not ry or bg", v);
    v = pips_options_get(o, "move_die");
    if (!strcmp(v, "d8")) k->d6 = false;
    else if (!strcmp(v, "d6")) k->d6 = true;
    else
        return pips_fail(err, PIPS_ERR_ARG, "option 'move_die': '%s' is not d8 or d6", v);
    v = pips_options_get(o, "action_die");
    if (!strcmp(v, "d8")) k->treehouse = false;
    else if (!strcmp(v, "treehouse")) k->treehouse = true;
    else
        return pips_fail(err, PIPS_ERR_ARG, "option 'action_die': '%s' is not d8 or treehouse",
                         v);
    if (!pips_parse_bool(pips_options_get(o, "queen"), &k->queen))
        return pips_fail(err, PIPS_ERR_ARG, "option 'queen': '%s' is not true or false",
                         pips_options_get(o, "queen"));
    if (!pips_parse_int(pips_options_get(o, "queen_height"), 1, 4, &qh))
        return pips_fail(err, PIPS_ERR_ARG, "option 'queen_height': '%s' is not 1..4",
                         pips_options_get(o, "queen_height"));
    k->queen_height = (int)qh;
    v = pips_options_get(o, "first");
    k->first = parse_colour_name(v);
    if (k->first < 0)
        return pips_fail(err, PIPS_ERR_ARG,
                         "option 'first': '%s' is not red, green, yellow or blue", v);
    v = pips_options_get(o, "turn_direction");
    if (!strcmp(v, "cw")) k->ccw = 0;
    else if (!strcmp(v, "ccw")) k->ccw = 1;
    else
        return pips_fail(err, PIPS_ERR_ARG, "option 'turn_direction': '%s' is not cw or ccw", v);
    if (!pips_parse_int(pips_options_get(o, "max_turns"), 0, 100000000, &mt))
        return pips_fail(err, PIPS_ERR_ARG, "option 'max_turns': '%s' is not 0..100000000",
                         pips_options_get(o, "max_turns"));
    k->max_turns = (int)mt;

    /* ZIG-R25 seating. */
    if (players == 4 || k->mode == MODE_TWO_COLOUR) k->present = 0xf;
    else if (players == 3) k->present = 0xfu & ~(1u << omit);
    else k->present = pair_bg ? (1u << ZIG_GREEN | 1u << ZIG_BLUE) : (1u << ZIG_RED | 1u << ZIG_YELLOW);
    if (!(k->present >> k->first & 1))
        return pips_fail(err, PIPS_ERR_ARG, "option 'first': %s is not in play",
                         COLOUR_NAMES[k->first]);
    /* Seats in clockwise order from Red (R, B, Y, G); turn order per ZIG-R3 from `first`. */
    static const uint8_t CW[4] = {ZIG_RED, ZIG_BLUE, ZIG_YELLOW, ZIG_GREEN};
    static const uint8_t CCW[4] = {ZIG_RED, ZIG_GREEN, ZIG_YELLOW, ZIG_BLUE};
    for (int c = 0; c < 4; c++)
        k->seat_of[c] = -1;
    k->n_seats = 0;
    if (k->mode == MODE_TWO_COLOUR) {
        k->seat_of[ZIG_RED] = k->seat_of[ZIG_YELLOW] = 0;
        k->seat_of[ZIG_BLUE] = k->seat_of[ZIG_GREEN] = 1;
        k->n_seats = 2;
    } else {
        for (int i = 0; i < 4; i++)
            if (k->present >> CW[i] & 1)
                k->seat_of[CW[i]] = k->n_seats++;
    }
    const uint8_t *order = k->ccw ? CCW : CW;
    int fi = 0;
    while (order[fi] != k->first)
        fi++;
    k->n_turn = 0;
    for (int i = 0; i < 4; i++) {
        int c = order[(fi + i) % 4];
        if (k->present >> c & 1)
            k->turn_order[k->n_turn++] = (uint8_t)c;
    }
    for (int i = 0; i < k->n_turn; i++)
        k->next_mover[k->turn_order[i]] = k->turn_order[(i + 1) % k->n_turn];
    k->npieces = k->queen ? 4 : 3;
    k->n_move_faces = k->d6 ? 6 : 8;
    k->n_action_faces = k->treehouse ? 6 : 8;
    k->bonus = k->d6 ? 2 : 1;
    build_geometry(k);
    /* ZIG-R30 outcome lists: movement first, then action; the d6 shows face + 1. */
    int base = k->d6 ? 1 : 0, n = 0;
    for (int m = 1; m <= k->n_move_faces; m++)
        for (int a = 0; a < k->n_action_faces; a++)
            k->roll_moves[n++] = zig_mk(K_ROLL, 0, 0, m + base, a);
    for (int m = 1; m <= k->n_move_faces; m++)
        k->ra_moves[m - 1] = zig_mk(K_ROLL_RA, 0, 0, m + base, 0);
    for (int a = 0; a < k->n_action_faces; a++)
        k->rb_moves[a] = zig_mk(K_ROLL_RB, 0, 0, a, 0);
    uint64_t idx = 0x21690000ull;
    for (int l = 0; l < ZIG_LOCS; l++)
        for (int h = 0; h < ZIG_MAXH; h++)
            for (int p = 0; p < 9; p++)
                k->zob_piece[l][h][p] = p ? pips_zobrist_key(idx++) : 0;
    for (int f = 0; f < 8; f++)
        for (int v2 = 0; v2 < 256; v2++)
            k->zob_misc[f][v2] = pips_zobrist_key(idx++);
    return true;
}

static int zig_num_players(const pips_game *gm) { return ((const zig_config *)gm->config)->n_seats; }

static size_t zig_max_moves(const pips_game *gm)
{
    (void)gm;
    return ZIG_MAX_MOVES;
}

static void zig_initial(const pips_game *gm, void *state)
{
    const zig_config *k = gm->config;
    zig_state *s = state;
    memset(s, 0, sizeof *s);
    for (int c = 0; c < 4; c++) {
        if (!(k->present >> c & 1))
            continue;
        for (int i = 0; i < k->npieces; i++) /* ZIG-R27: the Queen at queen_height */
            push_top(s, 64 + c, pc_make(c, k->queen && i + 1 == k->queen_height));
    }
    s->mover = (uint8_t)k->first;
    s->phase = PH_ROLL;
    s->action = ACT_NONE;
}

static int zig_to_move(const pips_game *gm, const void *state)
{
    const zig_config *k = gm->config;
    const zig_state *s = state;
    if (s->phase == PH_OVER)
        return PIPS_OVER;
    if (s->phase != PH_STEP)
        return PIPS_CHANCE;
    return k->seat_of[s->mover];
}

static size_t zig_legal_moves(const pips_game *gm, const void *state, pips_move *out)
{
    const zig_state *s = state;
    if (s->phase != PH_STEP)
        return 0;
    return legal_steps(gm->config, s, out);
}

static size_t zig_count_moves(const pips_game *gm, const void *state)
{
    const zig_state *s = state;
    if (s->phase != PH_STEP)
        return 0;
    int cnt[N_CAT];
    return step_counts(gm->config, s, actions_open(gm->config, s), cnt);
}

static size_t zig_chance_outcomes(const pips_game *gm, const void *state, pips_move *out,
                                  double *prob)
{
    const zig_config *k = gm->config;
    const zig_state *s = state;
    const pips_move *src;
    size_t n;
    double p;
    if (s->phase == PH_ROLL) {
        src = k->roll_moves;
        n = (size_t)(k->n_move_faces * k->n_action_faces);
    } else if (s->phase == PH_RA) {
        src = k->ra_moves;
        n = (size_t)k->n_move_faces;
    } else if (s->phase == PH_RB) {
        src = k->rb_moves;
        n = (size_t)k->n_action_faces;
    } else {
        return 0;
    }
    p = 1.0 / (double)n;
    memcpy(out, src, n * sizeof *out);
    if (prob)
        for (size_t i = 0; i < n; i++)
            prob[i] = p;
    return n;
}

/* An index below n drawn exactly as pips_sample_chance draws from n equal
 * probabilities, so seeded playouts are the same games with this shortcut:
 * one double; for a power of two the running sums are exact, so the index
 * is floor(r * n). */
static size_t draw_equal(pips_rng *rng, size_t n)
{
    double r = pips_rng_double(rng);
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

/* ZIG-R30: the opening roll (movement and action die together, listed
 * movement first), or RA's movement die, or RB's action die; all faces
 * equally likely, as chance_outcomes lists them. */
static bool zig_sample_chance(const pips_game *gm, const void *state, pips_rng *rng,
                              pips_move *out)
{
    const zig_config *k = gm->config;
    const zig_state *s = state;
    if (s->phase == PH_ROLL)
        *out = k->roll_moves[draw_equal(rng, (size_t)(k->n_move_faces * k->n_action_faces))];
    else if (s->phase == PH_RA)
        *out = k->ra_moves[draw_equal(rng, (size_t)k->n_move_faces)];
    else if (s->phase == PH_RB)
        *out = k->rb_moves[draw_equal(rng, (size_t)k->n_action_faces)];
    else
        return false;
    return true;
}

/* Uniform over the legal list, drawing exactly legal_moves[below(n)] (see
 * step_at), so seeded playouts are unchanged by the shortcut. */
static bool zig_random_move(const pips_game *gm, const void *state, pips_rng *rng,
                            pips_move *out)
{
    const zig_config *k = gm->config;
    const zig_state *s = state;
    if (s->phase != PH_STEP)
        return false;
    unsigned acts = actions_open(k, s);
    int cnt[N_CAT];
    size_t n = step_counts(k, s, acts, cnt);
    *out = step_at(k, s, acts, cnt, (size_t)pips_rng_below(rng, n));
    return true;
}

/* The light playout policy (pips_policy_playout). Uniform play mostly runs
 * into the turn cap (ZIG-R24): `end` is always legal (ZIG-R22) and random
 * steps rarely make progress. Here one step in POLICY_EXPLORE is uniform
 * over the legal list, so every step, `end` included, stays possible;
 * otherwise the movement step (Move, Aim, Hop, Leap) that takes an own piece
 * furthest along its path, the Goal best, the first listed on a tie (a plain
 * Move before an Aim that lands on the same square); with no movement step
 * open, a uniform step other than `end`. */
#define POLICY_EXPLORE 8

static bool zig_playout_move(const pips_game *gm, const void *state, pips_rng *rng,
                             pips_move *out)
{
    const zig_config *k = gm->config;
    const zig_state *s = state;
    if (s->phase != PH_STEP)
        return false;
    unsigned acts = actions_open(k, s);
    int cnt[N_CAT];
    size_t n = step_counts(k, s, acts, cnt);
    if (pips_rng_below(rng, POLICY_EXPLORE) == 0) {
        *out = step_at(k, s, acts, cnt, (size_t)pips_rng_below(rng, n));
        return true;
    }
    if (!cnt[CAT_MOVE]) { /* `end` is last; a decision node has another step (ZIG-R22) */
        *out = step_at(k, s, acts, cnt, (size_t)pips_rng_below(rng, n - 1));
        return true;
    }
    pips_move buf[ZIG_MAX_MOVES];
    gen_ctx g = {buf, 0, false};
    gen_movement(k, s, &g, acts);
    const uint8_t *pidx = k->pidx[s->mover];
    int goal = k->goal[s->mover], best = -1000;
    for (size_t i = 0; i < g.n; i++) {
        int to = zig_to(buf[i]);
        int gain = pidx[to] - pidx[zig_from(buf[i])] + (to == goal ? 100 : 0);
        if (gain > best) {
            best = gain;
            *out = buf[i];
        }
    }
    return true;
}

static void zig_apply(const pips_game *gm, void *state, pips_move m)
{
    zig_state *s = state;
    if (s->phase == PH_STEP)
        apply_step(gm->config, s, m);
    else if (s->phase != PH_OVER)
        apply_chance(gm->config, s, m);
}

static int winning_seats(const zig_config *k, const zig_state *s, bool *won)
{
    int n = 0;
    for (int i = 0; i < k->n_seats; i++)
        won[i] = false;
    if (s->result != RES_WIN)
        return 0;
    int c = s->winner;
    won[k->seat_of[c]] = true;
    n = 1;
    if (k->mode == MODE_TEAMS) {
        won[k->seat_of[c ^ 2]] = true;
        n = 2;
    }
    return n;
}

static void zig_returns(const pips_game *gm, const void *state, double *out)
{
    const zig_config *k = gm->config;
    const zig_state *s = state;
    bool won[PIPS_MAX_PLAYERS];
    int n = winning_seats(k, s, won);
    for (int i = 0; i < k->n_seats; i++)
        out[i] = n ? (won[i] ? 1.0 : 0.0) : 0.5;
}

static void zig_result_text(const pips_game *gm, const void *state, pips_str *out)
{
    const zig_config *k = gm->config;
    const zig_state *s = state;
    if (s->result == RES_DRAW) {
        pips_str_catf(out, "draw (turn cap of %d reached)", k->max_turns);
    } else if (s->result == RES_WIN) {
        int c = s->winner;
        if (k->mode == MODE_TEAMS)
            pips_str_catf(out, "%s and %s win", COLOUR_TITLES[c & 1 ? ZIG_GREEN : ZIG_RED],
                          COLOUR_TITLES[c & 1 ? ZIG_BLUE : ZIG_YELLOW]);
        else if (k->mode == MODE_TWO_COLOUR)
            pips_str_catf(out, "player %d wins (%s finished)", k->seat_of[c] + 1,
                          COLOUR_TITLES[c]);
        else
            pips_str_catf(out, "%s wins", COLOUR_TITLES[c]);
    } else {
        pips_str_cat(out, "in progress");
    }
}

/* ---- text ------------------------------------------------------------------------ */

static void loc_name(const zig_config *k, int loc, char *buf)
{
    int x = k->lx[loc], y = k->ly[loc];
    buf[0] = x == 0 ? '@' : (char)('a' + x - 1);
    buf[1] = (char)('0' + y);
    buf[2] = '\0';
}

static bool parse_loc(const zig_config *k, const char **pp, int *loc)
{
    const char *p = *pp;
    int x;
    if (*p == '@') x = 0;
    else if (*p >= 'a' && *p <= 'i') x = *p - 'a' + 1;
    else return false;
    if (p[1] < '0' || p[1] > '9')
        return false;
    int l = loc_of_xy(k, x, p[1] - '0');
    if (l < 0)
        return false;
    *loc = l;
    *pp = p + 2;
    return true;
}

static int act_of_char(char ch)
{
    for (int a = 0; a < 8; a++)
        if (ZIG_ACT_CH[a] == ch)
            return a;
    return -1;
}

/* Appends a location name at *p (two characters). */
static inline char *put_loc(const zig_config *k, char *p, int loc)
{
    if (loc >= ZIG_LOCS)
        loc = 0;
    int x = k->lx[loc], y = k->ly[loc];
    *p++ = x == 0 ? '@' : (char)('a' + x - 1);
    *p++ = (char)('0' + y);
    return p;
}

static inline char *put_str(char *p, const char *t)
{
    while (*t)
        *p++ = *t++;
    return p;
}

/* Written by hand rather than with snprintf: the invariant harness and
 * records convert every listed move. */
void pips_zig_move_text(const zig_config *k, pips_move m, char *buf)
{
    static const char *const PFX[] = {"", "M", "A", "H", "QM", "QA", "QH", "L", "D", "S"};
    int kind = zig_kind(m);
    char *p = buf;
    switch (kind) {
    case K_MOVE: case K_AIM: case K_HOP: case K_QMOVE: case K_QAIM: case K_QHOP:
    case K_LEAP: case K_DIG: case K_SWAPA:
        p = put_str(p, PFX[kind]);
        p = put_loc(k, p, zig_from(m));
        *p++ = '-';
        p = put_loc(k, p, zig_to(m));
        break;
    case K_SWAPB:
        *p++ = 'S';
        p = put_loc(k, p, zig_from(m));
        *p++ = ':';
        if (zig_a(m) >= 10) *p++ = (char)('0' + zig_a(m) / 10 % 10);
        *p++ = (char)('0' + zig_a(m) % 10);
        *p++ = '-';
        if (zig_b(m) >= 10) *p++ = (char)('0' + zig_b(m) / 10 % 10);
        *p++ = (char)('0' + zig_b(m) % 10);
        break;
    case K_TIP:
        *p++ = 'T';
        p = put_loc(k, p, zig_from(m));
        p = put_str(p, ZIG_DIR_NAME[zig_a(m) & 7]);
        break;
    case K_RA: p = put_str(p, "RA"); break;
    case K_RB: p = put_str(p, "RB"); break;
    case K_END: p = put_str(p, "end"); break;
    case K_ROLL:
        *p++ = (char)('0' + zig_a(m) % 10);
        *p++ = ZIG_ACT_CH[zig_b(m) & 7];
        break;
    case K_ROLL_RA:
        p = put_str(p, "RA:");
        *p++ = (char)('0' + zig_a(m) % 10);
        break;
    case K_ROLL_RB:
        p = put_str(p, "RB:");
        *p++ = ZIG_ACT_CH[zig_a(m) & 7];
        break;
    default: *p++ = '?'; break;
    }
    *p = '\0';
}

static void zig_move_to_text(const pips_game *gm, const void *state, pips_move m, char *buf)
{
    (void)state;
    pips_zig_move_text(gm->config, m, buf);
}

static bool zig_move_from_text(const pips_game *gm, const void *state, const char *text,
                               pips_move *m, pips_error *err)
{
    const zig_config *k = gm->config;
    const zig_state *s = state;
    const char *p = text;
    int o, t;
    if (s->phase == PH_OVER)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "move '%.40s': the game is over", text);
    if (s->phase != PH_STEP) { /* chance outcomes: "8A", "RA:6", "RB:L" */
        int lo = k->d6 ? 2 : 1, hi = k->d6 ? 7 : 8;
        if (s->phase == PH_ROLL) {
            if (p[0] >= '0' && p[0] <= '9' && act_of_char(p[1]) >= 0 && !p[2]) {
                int v = p[0] - '0', a = act_of_char(p[1]);
                if (v < lo || v > hi || a >= k->n_action_faces)
                    return pips_fail(err, PIPS_ERR_ILLEGAL,
                                     "roll '%.40s': not a face of the dice in use", text);
                *m = zig_mk(K_ROLL, 0, 0, v, a);
                return true;
            }
            return pips_fail(err, PIPS_ERR_ARG,
                             "roll '%.40s': expected movement value and action letter, e.g. 8A",
                             text);
        }
        if (s->phase == PH_RA) {
            if (!strncmp(p, "RA:", 3) && p[3] >= '0' && p[3] <= '9' && !p[4]) {
                int v = p[3] - '0';
                if (v < lo || v > hi)
                    return pips_fail(err, PIPS_ERR_ILLEGAL, "reroll '%.40s': no such face", text);
                *m = zig_mk(K_ROLL_RA, 0, 0, v, 0);
                return true;
            }
            return pips_fail(err, PIPS_ERR_ARG, "reroll '%.40s': expected RA:<value>", text);
        }
        if (!strncmp(p, "RB:", 3) && act_of_char(p[3]) >= 0 && !p[4]) {
            int a = act_of_char(p[3]);
            if (a >= k->n_action_faces)
                return pips_fail(err, PIPS_ERR_ILLEGAL, "reroll '%.40s': no such face", text);
            *m = zig_mk(K_ROLL_RB, 0, 0, a, 0);
            return true;
        }
        return pips_fail(err, PIPS_ERR_ARG, "reroll '%.40s': expected RB:<action letter>", text);
    }
    if (!strcmp(p, "RA")) { *m = zig_mk(K_RA, 0, 0, 0, 0); return true; }
    if (!strcmp(p, "RB")) { *m = zig_mk(K_RB, 0, 0, 0, 0); return true; }
    if (!strcmp(p, "end")) { *m = zig_mk(K_END, 0, 0, 0, 0); return true; }
    int kind = 0;
    if (p[0] == 'Q') {
        if (p[1] == 'M') kind = K_QMOVE;
        else if (p[1] == 'A') kind = K_QAIM;
        else if (p[1] == 'H') kind = K_QHOP;
        p += 2;
    } else {
        switch (p[0]) {
        case 'M': kind = K_MOVE; break;
        case 'A': kind = K_AIM; break;
        case 'H': kind = K_HOP; break;
        case 'L': kind = K_LEAP; break;
        case 'D': kind = K_DIG; break;
        case 'S': kind = K_SWAPA; break;
        case 'T': kind = K_TIP; break;
        default: break;
        }
        p++;
    }
    if (!kind || !parse_loc(k, &p, &o))
        return pips_fail(err, PIPS_ERR_ARG,
                         "move '%.40s': expected a step token (M, A, H, QM, QA, QH, L, D, S, T "
                         "with squares, RA, RB or end)", text);
    if (kind == K_TIP) {
        for (int d = 0; d < 8; d++)
            if (!strcmp(p, ZIG_DIR_NAME[d])) {
                *m = zig_mk(K_TIP, o, 0, d, 0);
                return true;
            }
        return pips_fail(err, PIPS_ERR_ARG, "move '%.40s': unknown direction '%.8s'", text, p);
    }
    if (kind == K_SWAPA && *p == ':') {
        long i, j;
        char num[8];
        const char *dash = strchr(p + 1, '-');
        if (!dash || dash - p - 1 >= (long)sizeof num)
            return pips_fail(err, PIPS_ERR_ARG, "move '%.40s': expected S<p>:<i>-<j>", text);
        memcpy(num, p + 1, (size_t)(dash - p - 1));
        num[dash - p - 1] = '\0';
        if (!pips_parse_int(num, 1, ZIG_MAXH, &i) || !pips_parse_int(dash + 1, 1, ZIG_MAXH, &j) ||
            i >= j)
            return pips_fail(err, PIPS_ERR_ARG,
                             "move '%.40s': heights must be 1..16 with i < j", text);
        *m = zig_mk(K_SWAPB, o, 0, (int)i, (int)j);
        return true;
    }
    if (*p++ != '-' || !parse_loc(k, &p, &t) || *p)
        return pips_fail(err, PIPS_ERR_ARG, "move '%.40s': expected <from>-<to>", text);
    if (kind == K_SWAPA && o > t)
        return pips_fail(err, PIPS_ERR_ARG,
                         "move '%.40s': a Swap names the earlier square first (ZIG-R31)", text);
    *m = zig_mk(kind, o, t, 0, 0);
    return true;
}

/* Direct legality of one step, without listing every step (the invariant
 * harness and records check each move). */
static bool step_is_legal(const zig_config *k, const zig_state *s, pips_move m)
{
    int kind = zig_kind(m), o = zig_from(m), t = zig_to(m), a = zig_a(m), b = zig_b(m);
    int c = s->mover;
    unsigned acts = actions_open(k, s);
    if (m >> 40)
        return false;
    switch (kind) {
    case K_END:
        return m == zig_mk(K_END, 0, 0, 0, 0);
    case K_RA:
    case K_RB: {
        if (m != zig_mk(kind, 0, 0, 0, 0) || !(acts >> ACT_REDO & 1))
            return false;
        if (kind == K_RB)
            return !(s->flags & F_STEPPED);
        for (int l = 0; l < ZIG_LOCS; l++)
            if (l != k->goal[c])
                for (int i = 0; i < s->height[l]; i++)
                    if (pc_colour(s->pile[l][i]) == c)
                        return true;
        return false;
    }
    case K_MOVE: case K_AIM: case K_HOP: case K_QMOVE: case K_QAIM: case K_QHOP: case K_LEAP: {
        if (a || b || o >= ZIG_LOCS || t >= ZIG_LOCS || !s->height[o] || o == k->goal[c] ||
            (o >= 64 && o != 64 + c))
            return false;
        pips_move buf[8];
        gen_ctx g = {buf, 0, false};
        gen_moves_from(k, s, &g, o, acts);
        for (size_t i = 0; i < g.n; i++)
            if (buf[i] == m)
                return true;
        return false;
    }
    case K_DIG:
        if (a || b || !(acts >> ACT_DIG & 1) || o >= 64 || t >= 64 || !s->height[o] ||
            pc_colour(s->pile[o][0]) != c || (k->goal_mask >> o & 1) || (k->goal_mask >> t & 1))
            return false;
        return abs(k->lx[o] - k->lx[t]) <= 1 && abs(k->ly[o] - k->ly[t]) <= 1 && o != t &&
               k->level[t] <= k->level[o];
    case K_SWAPA: {
        if (a || b || !(acts >> ACT_SWAP & 1) || o >= t || t >= 64 || !s->height[o] ||
            !s->height[t] || ((k->goal_mask >> o | k->goal_mask >> t) & 1))
            return false;
        if (abs(k->lx[o] - k->lx[t]) > 1 || abs(k->ly[o] - k->ly[t]) > 1)
            return false;
        int tp = top_of(s, o), tq = top_of(s, t);
        return tp != tq && (pc_colour(tp) == c || pc_colour(tq) == c);
    }
    case K_SWAPB: {
        if (t || !(acts >> ACT_SWAP & 1) || o >= ZIG_LOCS || (o >= 64 && o != 64 + c) ||
            (o < 64 && (k->goal_mask >> o & 1)) || a < 1 || a >= b || b > s->height[o])
            return false;
        int pa = s->pile[o][a - 1], pb = s->pile[o][b - 1];
        return pa != pb && (pc_colour(pa) == c || pc_colour(pb) == c);
    }
    case K_TIP: {
        if (t || b || a > 7 || !(acts >> ACT_TIP & 1) || o >= ZIG_LOCS || !s->height[o])
            return false;
        if (o >= 64)
            return o == 64 + c && a == k->entry_dir[c];
        if (k->goal_mask >> o & 1)
            return false;
        int x = k->lx[o], y = k->ly[o], lv = k->level[o], h = s->height[o];
        if (level_xy(x + ZIG_DX[a], y + ZIG_DY[a]) > lv)
            return false;
        int p = loc_of_xy(k, x - ZIG_DX[a], y - ZIG_DY[a]); /* (A) */
        if (p >= 0 && (p < 64 || p == 64 + c) && s->height[p] && pc_colour(top_of(s, p)) == c)
            return true;
        if (h >= 2) { /* (B) */
            for (int i = 0; i < h; i++)
                if (pc_colour(s->pile[o][i]) == c)
                    return true;
            return false;
        }
        if (pc_colour(s->pile[o][0]) != c) /* (C) */
            return false;
        int f = k->path[c][k->pidx[c][o] + 1];
        return k->lx[f] - x == ZIG_DX[a] && k->ly[f] - y == ZIG_DY[a];
    }
    default:
        return false;
    }
}

static bool zig_check_move(const pips_game *gm, const void *state, pips_move m,
                           pips_error *err)
{
    const zig_config *k = gm->config;
    const zig_state *s = state;
    char text[PIPS_MOVE_TEXT_MAX];
    if (s->phase == PH_OVER)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "the game is over");
    if (s->phase != PH_STEP) {
        int kind = zig_kind(m), a = zig_a(m), b = zig_b(m);
        int lo = k->d6 ? 2 : 1, hi = k->d6 ? 7 : 8;
        bool ok = (m >> 40) == 0 && zig_from(m) == 0 && zig_to(m) == 0;
        if (s->phase == PH_ROLL)
            ok = ok && kind == K_ROLL && a >= lo && a <= hi && b < k->n_action_faces;
        else if (s->phase == PH_RA)
            ok = ok && kind == K_ROLL_RA && a >= lo && a <= hi && !b;
        else
            ok = ok && kind == K_ROLL_RB && a < k->n_action_faces && !b;
        if (ok)
            return true;
        pips_zig_move_text(k, m, text);
        return pips_fail(err, PIPS_ERR_ILLEGAL, "'%s' is not an outcome of the dice here (%s)",
                         text, s->phase == PH_ROLL ? "opening roll" :
                         s->phase == PH_RA ? "RA's movement reroll" : "RB's action reroll");
    }
    if (step_is_legal(k, s, m))
        return true;
    pips_zig_move_text(k, m, text);
    return pips_fail(err, PIPS_ERR_ILLEGAL,
                     "move '%s' is not legal here (%c to play, roll %d%c%s%s; ZIG-R4..R22)",
                     text, ZIG_COLOUR_CH[s->mover], s->move_val, ZIG_ACT_CH[s->action],
                     s->flags & F_MOVE ? "" : ", movement used",
                     s->flags & F_ACT ? "" : ", action used");
}

/* State text: "mover=R phase=step move=8 action=A flags=MA turns=0 result=- |
 * h0:R,R,R ..." — every field, then the piles bottom first in location order
 * (board squares a1..h8, then Starts h0 i8 a9 @1); a Queen is "RQ". */
static const char *const PHASE_NAME[5] = {"roll", "step", "ra", "rb", "over"};
static const char FLAG_CH[5] = {'M', 'A', 'P', 'B', 'S'};

static void zig_state_to_text(const pips_game *gm, const void *state, pips_str *out)
{
    const zig_config *k = gm->config;
    const zig_state *s = state;
    char head[96], *h = head;
    h = put_str(h, "mover=");
    *h++ = ZIG_COLOUR_CH[s->mover];
    h = put_str(h, " phase=");
    h = put_str(h, PHASE_NAME[s->phase]);
    h = put_str(h, " move=");
    *h++ = (char)('0' + s->move_val % 10);
    h = put_str(h, " action=");
    *h++ = ZIG_ACT_CH[s->action];
    h = put_str(h, " flags=");
    if (!s->flags)
        *h++ = '-';
    for (int f = 0; f < 5; f++)
        if (s->flags >> f & 1)
            *h++ = FLAG_CH[f];
    h = put_str(h, " turns=");
    char digits[12];
    int nd = 0;
    uint32_t t = s->turns;
    do {
        digits[nd++] = (char)('0' + t % 10);
        t /= 10;
    } while (t);
    while (nd)
        *h++ = digits[--nd];
    h = put_str(h, " result=");
    if (s->result == RES_DRAW) h = put_str(h, "draw");
    else if (s->result == RES_WIN) *h++ = ZIG_COLOUR_CH[s->winner];
    else *h++ = '-';
    *h = '\0';
    pips_str_cat(out, head);
    pips_str_cat(out, " |");
    char buf[ZIG_LOCS * 4 + ZIG_MAXH * 4 * 3 + 8], *p = buf;
    for (int l = 0; l < ZIG_LOCS; l++) {
        if (!s->height[l])
            continue;
        *p++ = ' ';
        p = put_loc(k, p, l);
        *p++ = ':';
        for (int i = 0; i < s->height[l]; i++) {
            int pc = s->pile[l][i];
            if (i) *p++ = ',';
            *p++ = ZIG_COLOUR_CH[pc_colour(pc)];
            if (pc_queen(pc)) *p++ = 'Q';
        }
    }
    *p = '\0';
    pips_str_cat(out, buf);
}

static int colour_of_char(char ch)
{
    for (int c = 0; c < 4; c++)
        if (ZIG_COLOUR_CH[c] == ch)
            return c;
    return -1;
}

static bool field(const char **pp, const char *key, char *val, size_t cap)
{
    const char *p = *pp;
    while (*p == ' ') p++;
    size_t kl = strlen(key);
    if (strncmp(p, key, kl) || p[kl] != '=')
        return false;
    p += kl + 1;
    size_t n = 0;
    while (*p && *p != ' ') {
        if (n + 1 >= cap)
            return false;
        val[n++] = *p++;
    }
    val[n] = '\0';
    *pp = p;
    return n > 0;
}

static bool zig_state_from_text(const pips_game *gm, const char *text, void *state,
                                pips_error *err)
{
    const zig_config *k = gm->config;
    zig_state s;
    memset(&s, 0, sizeof s);
    const char *p = text;
    char v[32];
    if (!field(&p, "mover", v, sizeof v) || colour_of_char(v[0]) < 0 || v[1])
        return pips_fail(err, PIPS_ERR_ARG, "state: expected mover=R|G|Y|B first");
    s.mover = (uint8_t)colour_of_char(v[0]);
    if (!(k->present >> s.mover & 1))
        return pips_fail(err, PIPS_ERR_ARG, "state: mover %c is not in play", v[0]);
    if (!field(&p, "phase", v, sizeof v))
        return pips_fail(err, PIPS_ERR_ARG, "state: expected phase=roll|step|ra|rb|over");
    int ph = -1;
    for (int i = 0; i < 5; i++)
        if (!strcmp(v, PHASE_NAME[i])) ph = i;
    if (ph < 0)
        return pips_fail(err, PIPS_ERR_ARG, "state: unknown phase '%s'", v);
    s.phase = (uint8_t)ph;
    long mv;
    if (!field(&p, "move", v, sizeof v) || !pips_parse_int(v, 0, 8, &mv))
        return pips_fail(err, PIPS_ERR_ARG, "state: expected move=0..8");
    s.move_val = (uint8_t)mv;
    if (!field(&p, "action", v, sizeof v) || v[1])
        return pips_fail(err, PIPS_ERR_ARG, "state: expected action=T|S|H|D|A|W|L|R|-");
    int a = v[0] == '-' ? ACT_NONE : act_of_char(v[0]);
    if (a < 0 || (a != ACT_NONE && a >= k->n_action_faces))
        return pips_fail(err, PIPS_ERR_ARG, "state: action '%s' is not a face of the die", v);
    s.action = (uint8_t)a;
    if (!field(&p, "flags", v, sizeof v))
        return pips_fail(err, PIPS_ERR_ARG, "state: expected flags=<MAPBS letters>|-");
    if (strcmp(v, "-"))
        for (const char *q = v; *q; q++) {
            const char *f = memchr(FLAG_CH, *q, sizeof FLAG_CH);
            if (!f)
                return pips_fail(err, PIPS_ERR_ARG, "state: unknown flag '%c'", *q);
            s.flags |= (uint8_t)(1u << (f - FLAG_CH));
        }
    long turns;
    if (!field(&p, "turns", v, sizeof v) || !pips_parse_int(v, 0, 100000000, &turns))
        return pips_fail(err, PIPS_ERR_ARG, "state: expected turns=<count>");
    s.turns = (uint32_t)turns;
    if (!field(&p, "result", v, sizeof v))
        return pips_fail(err, PIPS_ERR_ARG, "state: expected result=-|draw|<colour>");
    if (!strcmp(v, "draw")) s.result = RES_DRAW;
    else if (!strcmp(v, "-")) s.result = RES_NONE;
    else if (colour_of_char(v[0]) >= 0 && !v[1] && (k->present >> colour_of_char(v[0]) & 1)) {
        s.result = RES_WIN;
        s.winner = (uint8_t)colour_of_char(v[0]);
    } else
        return pips_fail(err, PIPS_ERR_ARG, "state: bad result '%s'", v);
    if ((s.result != RES_NONE) != (s.phase == PH_OVER))
        return pips_fail(err, PIPS_ERR_ARG, "state: phase=over goes with a result, and only it");
    bool rolled = s.phase != PH_ROLL && s.phase != PH_OVER;
    int lo = k->d6 ? 2 : 1, hi = k->d6 ? 7 : 8;
    if (rolled ? (s.move_val < lo || s.move_val > hi || s.action == ACT_NONE)
               : (s.move_val || s.action != ACT_NONE || s.flags))
        return pips_fail(err, PIPS_ERR_ARG,
                         "state: dice and flags must be set exactly while a turn is under way");
    while (*p == ' ') p++;
    if (*p++ != '|')
        return pips_fail(err, PIPS_ERR_ARG, "state: expected '|' before the piles");
    int count[4] = {0, 0, 0, 0}, queens[4] = {0, 0, 0, 0};
    bool seen[ZIG_LOCS] = {false};
    while (*p) {
        while (*p == ' ') p++;
        if (!*p) break;
        int loc;
        long at = p - text;
        if (!parse_loc(k, &p, &loc) || *p++ != ':')
            return pips_fail(err, PIPS_ERR_ARG, "state at char %ld: expected <square>:<pieces>", at);
        if (seen[loc])
            return pips_fail(err, PIPS_ERR_ARG, "state at char %ld: square listed twice", at);
        seen[loc] = true;
        for (;;) {
            int c = colour_of_char(*p);
            if (c < 0)
                return pips_fail(err, PIPS_ERR_ARG, "state at char %ld: expected a piece letter",
                                 (long)(p - text));
            p++;
            bool q = false;
            if (*p == 'Q') { q = true; p++; }
            if (!(k->present >> c & 1))
                return pips_fail(err, PIPS_ERR_ARG, "state: colour %c is not in play",
                                 ZIG_COLOUR_CH[c]);
            if (q && !k->queen)
                return pips_fail(err, PIPS_ERR_ARG, "state: a Queen without the queen option");
            if (s.height[loc] >= ZIG_MAXH)
                return pips_fail(err, PIPS_ERR_ARG, "state: more than %d pieces", ZIG_MAXH);
            if (loc >= 64 ? loc != 64 + c
                          : ((k->goal_mask >> loc & 1) && loc != k->goal[c]))
                return pips_fail(err, PIPS_ERR_ARG,
                                 "state: %c on another colour's station (ZIG-R7)",
                                 ZIG_COLOUR_CH[c]);
            push_top(&s, loc, pc_make(c, q));
            count[c]++;
            queens[c] += q;
            if (*p != ',') break;
            p++;
        }
        if (*p && *p != ' ')
            return pips_fail(err, PIPS_ERR_ARG, "state at char %ld: unexpected '%c'",
                             (long)(p - text), *p);
    }
    /* Play never changes the piece set, but test positions (section 11) may
     * list fewer or extra Drones; at most one Queen each and 16 pieces in all,
     * so no pile can overflow. */
    int total = 0;
    for (int c = 0; c < 4; c++) {
        total += count[c];
        if (queens[c] > 1)
            return pips_fail(err, PIPS_ERR_ARG, "state: %c has two Queens", ZIG_COLOUR_CH[c]);
    }
    if (total > ZIG_MAXH)
        return pips_fail(err, PIPS_ERR_ARG, "state: more than %d pieces", ZIG_MAXH);
    for (int l = 0; l < 64; l++) { /* the derived masks (s was zeroed) */
        int h = s.height[l];
        if (!h)
            continue;
        s.occ |= 1ull << l;
        if (h >= 2)
            s.stacks |= 1ull << l;
        s.top[pc_colour(s.pile[l][h - 1])] |= 1ull << l;
        s.bottom[pc_colour(s.pile[l][0])] |= 1ull << l;
    }
    memcpy(state, &s, sizeof s);
    return true;
}

static uint64_t zig_hash(const pips_game *gm, const void *state)
{
    const zig_config *k = gm->config;
    const zig_state *s = state;
    uint64_t h = 0;
    for (int l = 0; l < ZIG_LOCS; l++)
        for (int i = 0; i < s->height[l]; i++)
            h ^= k->zob_piece[l][i][s->pile[l][i]];
    h ^= k->zob_misc[0][s->mover] ^ k->zob_misc[1][s->phase] ^ k->zob_misc[2][s->move_val] ^
         k->zob_misc[3][s->action] ^ k->zob_misc[4][s->flags] ^ k->zob_misc[5][s->result] ^
         k->zob_misc[6][s->winner] ^ pips_mix64(k->zob_misc[7][0] + s->turns);
    return h;
}

/* ---- render ---------------------------------------------------------------------- */

static const char *const ANSI_COLOUR[4] = {"\033[1;31m", "\033[1;32m", "\033[1;33m", "\033[1;34m"};
static const char *const ANSI_LEVEL[5] = {"", "\033[48;5;236m", "\033[48;5;239m",
                                          "\033[48;5;242m", "\033[48;5;245m"};

static void put_piece(pips_str *out, int p, const pips_render_opts *ro)
{
    char ch = ZIG_COLOUR_CH[pc_colour(p)];
    if (pc_queen(p))
        ch = (char)(ch - 'A' + 'a'); /* Queens in lower case */
    if (ro->colour) pips_str_cat(out, ANSI_COLOUR[pc_colour(p)]);
    pips_str_catn(out, &ch, 1);
    if (ro->colour) pips_str_cat(out, "\033[0m");
}

static int cmp_text(const void *a, const void *b) { return strcmp(a, b); }

static void zig_render(const pips_game *gm, const void *state, const pips_render_opts *ro,
                       pips_str *out)
{
    const zig_config *k = gm->config;
    const zig_state *s = state;
    static const char *const SHADE_U[5] = {" ", " ", "░", "▒", "▓"};
    static const char SHADE_A[5] = {' ', ' ', '.', ':', '#'};
    /* Each square is two lines of 6 columns: the pile (bottom to top, at most
     * 5 shown, "+" when taller), then the level shade with any wall (w<colour>)
     * or Goal (G<colour>) marking. */
    pips_str_cat(out, "    ");
    for (int x = 1; x <= 8; x++)
        pips_str_catf(out, "   %c   ", 'a' + x - 1);
    pips_str_cat(out, "\n");
    for (int y = 8; y >= 1; y--) {
        for (int line = 0; line < 2; line++) {
            pips_str_cat(out, line == 0 ? (char[]){' ', ' ', (char)('0' + y), ' ', 0} : "    ");
            for (int x = 1; x <= 8; x++) {
                int l = (y - 1) * 8 + x - 1, lv = k->level[l];
                pips_str_cat(out, ro->unicode ? "│" : "|");
                if (ro->colour) pips_str_cat(out, ANSI_LEVEL[lv]);
                int used = 0;
                if (line == 0) {
                    int h = s->height[l];
                    for (int i = 0; i < h && i < 5; i++, used++) {
                        if (i == 4 && h > 5) {
                            pips_str_cat(out, "+");
                            break;
                        }
                        put_piece(out, s->pile[l][i], ro);
                        if (ro->colour) pips_str_cat(out, ANSI_LEVEL[lv]);
                    }
                } else {
                    for (int c = 0; c < 4; c++) {
                        if (!(k->present >> c & 1))
                            continue;
                        bool wall = l == k->path[c][28] || l == k->path[c][48] ||
                                    l == k->path[c][60];
                        if (wall || l == k->goal[c]) {
                            char mark[3] = {wall ? 'w' : 'G', ZIG_COLOUR_CH[c], 0};
                            if (ro->colour) pips_str_cat(out, ANSI_COLOUR[c]);
                            pips_str_cat(out, mark);
                            if (ro->colour) pips_str_cat(out, "\033[0m"), pips_str_cat(out, ANSI_LEVEL[lv]);
                            used += 2;
                        }
                    }
                }
                for (; used < 6; used++) {
                    if (ro->unicode) pips_str_cat(out, SHADE_U[lv]);
                    else pips_str_catn(out, &SHADE_A[lv], 1);
                }
                if (ro->colour) pips_str_cat(out, "\033[0m");
            }
            pips_str_cat(out, ro->unicode ? "│\n" : "|\n");
        }
    }
    pips_str_cat(out, "Starts:");
    for (int c = 0; c < 4; c++) {
        if (!(k->present >> c & 1))
            continue;
        char nm[3];
        loc_name(k, 64 + c, nm);
        pips_str_catf(out, "  %s %s:", COLOUR_TITLES[c], nm);
        if (!s->height[64 + c]) pips_str_cat(out, "-");
        for (int i = 0; i < s->height[64 + c]; i++)
            put_piece(out, s->pile[64 + c][i], ro);
    }
    pips_str_cat(out, "\n(piles bottom to top; lower case = Queen; levels 1-4 shaded; "
                      "wX = wall of X, GX = Goal of X)\n");
    pips_str_catf(out, "turn %u, %s to move", (unsigned)s->turns + 1, COLOUR_TITLES[s->mover]);
    if (s->phase == PH_OVER) {
        pips_str_cat(out, " - game over: ");
        zig_result_text(gm, s, out);
        pips_str_cat(out, "\n");
        return;
    }
    if (s->phase == PH_ROLL) pips_str_cat(out, ": dice not yet rolled\n");
    else if (s->phase == PH_RA) pips_str_cat(out, ": RA taken, movement die to roll\n");
    else if (s->phase == PH_RB) pips_str_cat(out, ": RB taken, action die to roll\n");
    else {
        pips_str_catf(out, ": movement %d%s, action %c%s%s\n", s->move_val,
                      s->flags & F_MOVE ? "" : " (used)", ZIG_ACT_CH[s->action],
                      s->flags & F_RB ? " (rerolled)" : "", s->flags & F_ACT ? "" : " (used)");
        pips_move moves[ZIG_MAX_MOVES];
        size_t n = legal_steps(k, s, moves);
        /* ZIG-R31: displayed sorted bytewise */
        char (*txt)[16] = pips_malloc(gm->alloc, n * sizeof *txt);
        if (!txt)
            return;
        for (size_t i = 0; i < n; i++)
            pips_zig_move_text(k, moves[i], txt[i]);
        qsort(txt, n, sizeof *txt, cmp_text);
        pips_str_catf(out, "legal steps (%zu):", n);
        for (size_t i = 0; i < n; i++)
            pips_str_catf(out, " %s", txt[i]);
        pips_free(gm->alloc, txt);
        pips_str_cat(out, "\n");
    }
}

/* ---- evaluation ------------------------------------------------------------------- */

/* Race progress: each piece's index on its colour's path (0 Start .. 61
 * Goal), averaged per colour; a seat's share of the total is its value.
 * Two-colour seats count their better colour, teams the sum of both. */
static void zig_evaluate(const pips_game *gm, const void *state, double *out)
{
    const zig_config *k = gm->config;
    const zig_state *s = state;
    double prog[4] = {0, 0, 0, 0};
    for (int l = 0; l < ZIG_LOCS; l++)
        for (int i = 0; i < s->height[l]; i++) {
            int c = pc_colour(s->pile[l][i]);
            prog[c] += (1.0 + k->pidx[c][l]) / (62.0 * k->npieces);
        }
    double seat[PIPS_MAX_PLAYERS] = {0}, team[2] = {0, 0}, total = 0;
    for (int c = 0; c < 4; c++) {
        if (!(k->present >> c & 1))
            continue;
        int st = k->seat_of[c];
        if (k->mode == MODE_TWO_COLOUR)
            seat[st] = prog[c] > seat[st] ? prog[c] : seat[st];
        else
            seat[st] = prog[c];
        team[c & 1] += prog[c];
    }
    if (k->mode == MODE_TEAMS)
        for (int c = 0; c < 4; c++)
            seat[k->seat_of[c]] = team[c & 1];
    for (int i = 0; i < k->n_seats; i++)
        total += seat[i];
    for (int i = 0; i < k->n_seats; i++)
        out[i] = total > 0 ? seat[i] / total : 1.0 / k->n_seats;
    if (k->mode == MODE_TEAMS) /* each team's two seats share one half */
        for (int i = 0; i < k->n_seats; i++)
            out[i] *= 2.0;
}

/* Move-ordering hint for search: race progress of the mover's pieces first
 * (a step onto the Goal highest), Tips by the pieces they send home, `end`
 * last. Chance outcomes all score 0. */
static void zig_order_moves(const pips_game *gm, const void *state, const pips_move *moves,
                            size_t n, int *scores)
{
    const zig_config *k = gm->config;
    const zig_state *s = state;
    int c = s->mover;
    for (size_t i = 0; i < n; i++) {
        pips_move m = moves[i];
        int kind = zig_kind(m), o = zig_from(m), t = zig_to(m), score = 0;
        switch (kind) {
        case K_MOVE: case K_AIM: case K_HOP: case K_QMOVE: case K_QAIM: case K_QHOP:
        case K_LEAP:
            score = 10 * (k->pidx[c][t] - k->pidx[c][o]) + (t == k->goal[c] ? 1000 : 0);
            break;
        case K_SWAPA: { /* the own top piece moves from one square to the other */
            int from = pc_colour(top_of(s, o)) == c ? o : t, to = from == o ? t : o;
            score = 10 * (k->pidx[c][to] - k->pidx[c][from]);
            break;
        }
        case K_TIP: {
            int h = s->height[o], d = zig_a(m);
            for (int j = 0; j < h && o < 64; j++) {
                int tx = k->lx[o] + (j + 1) * ZIG_DX[d], ty = k->ly[o] + (j + 1) * ZIG_DY[d];
                if (!on_board(tx, ty))
                    score += pc_colour(s->pile[o][j]) == c ? -200 : 200;
            }
            break;
        }
        case K_DIG:
            score = s->height[o] >= 2 ? 20 : 0;
            break;
        case K_END:
            score = -1000;
            break;
        default:
            break;
        }
        scores[i] = score;
    }
}

/* ---- definition --------------------------------------------------------------------- */

static const pips_option_def zig_options[] = {
    {"players", "4", "2..4"},
    {"mode", "standard", "standard|two_colour|teams"},
    {"omit", "green", "green|red|blue|yellow (3 players)"},
    {"pair", "ry", "ry|bg (standard 2 players)"},
    {"move_die", "d8", "d8|d6"},
    {"action_die", "d8", "d8|treehouse"},
    {"queen", "false", "true|false"},
    {"queen_height", "1", "1..4"},
    {"first", "red", "red|green|yellow|blue"},
    {"turn_direction", "cw", "cw|ccw"},
    {"max_turns", "1000", "0..100000000 (0 = no cap)"},
};

#include "games/ziggurat/rules_text.inc"

const pips_game_def pips_ziggurat_def = {
    .name = "ziggurat",
    .title = "Ziggurat",
    .rules_text = ZIG_RULES,
    .notation_text = ZIG_NOTATION,
    .options = zig_options,
    .n_options = sizeof zig_options / sizeof zig_options[0],
    .config_size = sizeof(zig_config),
    .state_size = sizeof(zig_state),
    .flags = PIPS_GAME_CHANCE,
    .bench_perft_depth = 5,
    .bench_playouts = 900,
    .configure = zig_configure,
    .num_players = zig_num_players,
    .max_moves = zig_max_moves,
    .initial = zig_initial,
    .to_move = zig_to_move,
    .legal_moves = zig_legal_moves,
    .count_moves = zig_count_moves,
    .chance_outcomes = zig_chance_outcomes,
    .check_move = zig_check_move,
    .apply = zig_apply,
    .returns = zig_returns,
    .result_text = zig_result_text,
    .move_to_text = zig_move_to_text,
    .move_from_text = zig_move_from_text,
    .state_to_text = zig_state_to_text,
    .state_from_text = zig_state_from_text,
    .hash = zig_hash,
    .render = zig_render,
    .random_move = zig_random_move,
    .sample_chance = zig_sample_chance,
    .playout_move = zig_playout_move,
    .evaluate = zig_evaluate,
    .order_moves = zig_order_moves,
};
