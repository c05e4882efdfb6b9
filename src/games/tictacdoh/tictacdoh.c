/*
 * tictacdoh.c — Tic Tac Doh! (Brian Schultze, 2003) under the project's
 * rulings TTD-R1..R10 (explained in docs/games/tictacdoh.md), with 2 to 4
 * players (TTD-R8) and 1 to 3 stashes (TTD-R10).
 *
 * The grid is unbounded but every position fits a 3x3 window holding the
 * first piece (TTD-R1), so cells are kept on a 5x5 array centred on the
 * first piece's cell (0,0): x and y run -2..2, y upward. A cell's stack is
 * kept bottom first. Whose turn it is follows from how many pieces are
 * placed (the stash is shared), so the state text lists only the stacks.
 * Every end but a draw is a win of the player who placed last (a line,
 * TTD-R5, or nobody able to move, TTD-R9), so the state needs no seat: the
 * winner is (placed - 1) mod players, and apply never reads the config.
 *
 * Invariants: status, bbox and stash always agree with the stacks; unused
 * stack slots are zero, so equal positions are byte-equal.
 * Move encoding: cell index * 4 + size (1 = S, 2 = M, 3 = L).
 */
#include "pips/game.h"
#include "tictacdoh_lines.h"

#include <stdio.h>
#include <string.h>

#define TTD_SIDE 5
#define TTD_CELLS 25
#define TTD_PER_SIZE 5 /* pieces of each size in one stash */
#define TTD_MAX_PLAYERS 4
#define TTD_MAX_PLACED 27 /* 9 cells of a 3x3 window, 3 high (TTD-R10) */

/* TTD_WON: the player who placed last won. */
enum { TTD_ONGOING = 0, TTD_WON = 1, TTD_DRAW = 3 };

typedef struct ttd_state {
    uint8_t piece[TTD_CELLS][3]; /* sizes 1..3 bottom first, 0 = none */
    uint8_t height[TTD_CELLS];
    uint8_t stash[4];            /* [size] pieces left; [0] unused */
    uint8_t placed;
    uint8_t status;
    int8_t minx, maxx, miny, maxy; /* bounding box; all 0 when placed == 0 */
    /* Bitboards over the 25 cells (bit = cell index), derived from the stacks. */
    uint32_t occ;       /* occupied cells */
    uint32_t near;      /* cells touching an occupied cell (diagonals count) */
    uint32_t top[5];    /* [z] cells whose top piece is size z; [0], [4] stay 0 */
    uint32_t counts[4]; /* [z] cells that count as size z (TTD-R4) */
    uint32_t single, tree2, nest2; /* stacks of height 1, 2-high trees, 2-high nests */
    uint32_t room;      /* empty cells a piece may go to (near and inside the window) */
} ttd_state;

typedef struct ttd_config {
    int players; /* TTD-R8 */
    int stashes; /* TTD-R10 */
    uint8_t seat_of[TTD_MAX_PLACED + 1]; /* [placed]: the seat to move */
} ttd_config;

static const char SIZE_CH[4] = {'?', 'S', 'M', 'L'};

#define ROW(y) (0x1Fu << (5 * (y)))

static inline int cell_of(int x, int y) { return (y + 2) * TTD_SIDE + (x + 2); }
static inline int cell_x(int c) { return c % TTD_SIDE - 2; }
static inline int cell_y(int c) { return c / TTD_SIDE - 2; }
static inline pips_move make_move(int cell, int size) { return (pips_move)(cell * 4 + size); }
static inline int move_cell(pips_move m) { return (int)(m >> 2); }
static inline int move_size(pips_move m) { return (int)(m & 3); }

/* Cells touching any cell of m, orthogonally or diagonally (m included). */
static inline uint32_t dilate(uint32_t m)
{
    uint32_t v = m | (m << 5) | (m >> 5);
    return (v | ((v << 1) & ~COL(0)) | ((v >> 1) & ~COL(4))) & ALL_CELLS;
}

/* cell_x() and cell_y() of each cell. */
static const int8_t CELL_X[TTD_CELLS] = {-2, -1, 0, 1, 2, -2, -1, 0, 1, 2, -2, -1, 0,
                                         1,  2,  -2, -1, 0, 1, 2, -2, -1, 0, 1, 2};
static const int8_t CELL_Y[TTD_CELLS] = {-2, -2, -2, -2, -2, -1, -1, -1, -1, -1, 0, 0, 0,
                                         0,  0,  1,  1,  1,  1,  1,  2,  2,  2, 2, 2};

/* dilate() of each single cell, for the placement fast path. */
static const uint32_t CELL_DILATE[TTD_CELLS] = {
    0x0000063u, 0x00000E7u, 0x00001CEu, 0x000039Cu, 0x0000318u,
    0x0000C63u, 0x0001CE7u, 0x00039CEu, 0x000739Cu, 0x0006318u,
    0x0018C60u, 0x0039CE0u, 0x00739C0u, 0x00E7380u, 0x00C6300u,
    0x0318C00u, 0x0739C00u, 0x0E73800u, 0x1CE7000u, 0x18C6000u,
    0x0318000u, 0x0738000u, 0x0E70000u, 0x1CE0000u, 0x18C0000u,
};

/* Cells at most two columns and two rows from each cell: a piece set there
 * still fits a 3x3 window with that cell (TTD-R1). The cells that fit every
 * window holding the bounding box are the cells of this table at two
 * opposite corners of the box. */
static const uint32_t CELL_SPAN2[TTD_CELLS] = {
    0x0001CE7u, 0x0003DEFu, 0x0007FFFu, 0x0007BDEu, 0x000739Cu,
    0x0039CE7u, 0x007BDEFu, 0x00FFFFFu, 0x00F7BDEu, 0x00E739Cu,
    0x0739CE7u, 0x0F7BDEFu, 0x1FFFFFFu, 0x1EF7BDEu, 0x1CE739Cu,
    0x0739CE0u, 0x0F7BDE0u, 0x1FFFFE0u, 0x1EF7BC0u, 0x1CE7380u,
    0x0739C00u, 0x0F7BC00u, 0x1FFFC00u, 0x1EF7800u, 0x1CE7000u,
};

/* Bit k set when the 3x3 pattern k (bit 3 * row + column) holds a row,
 * column or diagonal: TTD-R5 within the window. */
static const uint64_t LINE_PATTERNS[8] = {
    0xFF80808080808080ULL, 0xFFF0AA80FAF0AA80ULL, 0xFFCC8080CCCC8080ULL, 0xFFFCAA80FEFCAA80ULL,
    0xFFFAF0F0AAAA8080ULL, 0xFFFAFAF0FAFAAA80ULL, 0xFFFEF0F0EEEE8080ULL, 0xFFFFFFFFFFFFFFFFULL,
};

/* has_line() for cells of the bounding box (which fits 3x3, TTD-R1) whose
 * lower-left corner is cell `corner`: moved to the grid's lower-left corner,
 * the box's rows are gathered into a 9-bit pattern that indexes
 * LINE_PATTERNS. */
static inline bool has_line_in_box(uint32_t m, int corner)
{
    uint32_t v = m >> corner;
    uint32_t k = (v & 7u) | (v >> 2 & 0x38u) | (v >> 4 & 0x1C0u);
    return LINE_PATTERNS[k >> 6] >> (k & 63) & 1;
}

/* Cells inside every 3x3 window that still holds the bounding box (TTD-R1). */
static inline uint32_t window_mask(const ttd_state *s)
{
    int x0 = s->maxx > 0 ? s->maxx : 0, x1 = s->minx < 0 ? s->minx + 4 : 4; /* array columns */
    int y0 = s->maxy > 0 ? s->maxy : 0, y1 = s->miny < 0 ? s->miny + 4 : 4;
    uint32_t cols = ((1u << (x1 + 1)) - (1u << x0)) * 0x108421u; /* replicate over the rows */
    uint32_t rows = (1u << (5 * (y1 + 1))) - (1u << (5 * y0));
    return cols & rows;
}

/* TTD-R4: the sizes a cell counts as, as a bit mask (bit s for size s). */
static unsigned cell_mask(const ttd_state *s, int c)
{
    int h = s->height[c];
    if (h == 0)
        return 0;
    const uint8_t *p = s->piece[c];
    if (h == 1 || p[1] > p[0])
        return 1u << p[h - 1]; /* single piece, or a nest: the top only */
    unsigned m = 0;            /* a tree counts as every size in it */
    for (int i = 0; i < h; i++)
        m |= 1u << p[i];
    return m;
}

/* Brings the bitboards of cell c up to date with its stack. */
static void update_cell_masks(ttd_state *s, int c)
{
    uint32_t bit = 1u << c;
    int h = s->height[c];
    for (int z = 0; z <= 4; z++)
        s->top[z] &= ~bit;
    s->single &= ~bit;
    s->tree2 &= ~bit;
    s->nest2 &= ~bit;
    unsigned cm = cell_mask(s, c);
    for (int z = 1; z <= 3; z++)
        s->counts[z] = (cm >> z & 1) ? s->counts[z] | bit : s->counts[z] & ~bit;
    if (h == 0) {
        s->occ &= ~bit;
        return;
    }
    s->occ |= bit;
    s->top[s->piece[c][h - 1]] |= bit;
    if (h == 1)
        s->single |= bit;
    else if (h == 2)
        *(s->piece[c][1] < s->piece[c][0] ? &s->tree2 : &s->nest2) |= bit;
}

static void recompute_derived(ttd_state *s)
{
    s->minx = s->miny = 2;
    s->maxx = s->maxy = -2;
    for (int c = 0; c < TTD_CELLS; c++) {
        update_cell_masks(s, c);
        if (s->height[c]) {
            int x = cell_x(c), y = cell_y(c);
            if (x < s->minx) s->minx = (int8_t)x;
            if (x > s->maxx) s->maxx = (int8_t)x;
            if (y < s->miny) s->miny = (int8_t)y;
            if (y > s->maxy) s->maxy = (int8_t)y;
        }
    }
    if (!s->occ)
        s->minx = s->maxx = s->miny = s->maxy = 0;
    s->near = dilate(s->occ) & ~s->occ;
    s->room = s->occ ? s->near & window_mask(s) : 0;
}

/* TTD-R2/R3: the cells where a piece of size z may go now. */
static inline uint32_t targets(const ttd_state *s, int z)
{
    if (!s->stash[z])
        return 0;
    uint32_t empty = s->room;
    uint32_t stack = (s->single & (s->top[z - 1] | s->top[z + 1])) | (s->tree2 & s->top[z + 1]) |
                     (s->nest2 & s->top[z - 1]);
    return empty | stack;
}

/* targets() of the three sizes at once, t[1..3], sharing the stack terms: a
 * smaller piece goes on a single or a 2-high tree one size up, a larger one
 * on a single or a 2-high nest one size down (TTD-R3). */
static inline void all_targets(const ttd_state *s, uint32_t t[4])
{
    uint32_t tree_base = s->single | s->tree2, nest_base = s->single | s->nest2;
    t[1] = s->stash[1] ? s->room | (tree_base & s->top[2]) : 0;
    t[2] = s->stash[2] ? s->room | (nest_base & s->top[1]) | (tree_base & s->top[3]) : 0;
    t[3] = s->stash[3] ? s->room | (nest_base & s->top[2]) : 0;
}

/* One halving step of nth_cell: when the r-th set bit lies above the low
 * `width` bits, drop them and count them off. Branch free. */
static inline void rank_step(uint32_t *bits, unsigned *r, int *cell, int width)
{
    unsigned low = (unsigned)__builtin_popcount(*bits & ((1u << width) - 1));
    unsigned above = 0u - (unsigned)(*r >= low); /* all ones when r lies above */
    *r -= low & above;
    *bits >>= width & (int)above;
    *cell += width & (int)above;
}

/* The cell of the r-th set bit of bits (0-based, r < popcount), by halving
 * the window five times without a branch: a random r would make the
 * branches of a bit-clearing walk mispredict about once a draw. */
static inline int nth_cell(uint32_t bits, unsigned r)
{
    int cell = 0;
    rank_step(&bits, &r, &cell, 16);
    rank_step(&bits, &r, &cell, 8);
    rank_step(&bits, &r, &cell, 4);
    rank_step(&bits, &r, &cell, 2);
    rank_step(&bits, &r, &cell, 1);
    return cell;
}

static size_t gen_moves(const ttd_state *s, pips_move *out, bool count_only)
{
    size_t n = 0;
    if (s->placed == 0) {
        for (int z = 1; z <= 3; z++) {
            if (!count_only)
                out[n] = make_move(cell_of(0, 0), z);
            n++;
        }
        return n;
    }
    for (int z = 1; z <= 3; z++) {
        uint32_t t = targets(s, z);
        if (count_only) {
            n += (size_t)__builtin_popcount(t);
            continue;
        }
        while (t) {
            int c = __builtin_ctz(t);
            t &= t - 1;
            out[n++] = make_move(c, z);
        }
    }
    return n;
}

/* TTD-R3: may a piece of `size` go on top of cell c? */
static bool can_stack(const ttd_state *s, int c, int size)
{
    return ((s->single & (s->top[size - 1] | s->top[size + 1])) | (s->tree2 & s->top[size + 1]) |
            (s->nest2 & s->top[size - 1])) >> c & 1;
}

/* Are all pieces placed (TTD-R6)? Only a single stash can run out: more
 * stashes hold 30 or more pieces, beyond the 27 places of a 3x3 window
 * (TTD-R10). The placement count goes first: it is in a register after a
 * placement, while the stash was just written a byte at a time. */
static inline bool stash_empty(const ttd_state *s, int placed)
{
    return placed == 3 * TTD_PER_SIZE && (s->stash[1] | s->stash[2] | s->stash[3]) == 0;
}

/* Status of a position read from text (TTD-R5, R6, R9): a line means the
 * last placer won. Placements take status_after() instead. */
static void update_status(ttd_state *s)
{
    bool line = has_line(s->counts[1]) || has_line(s->counts[2]) || has_line(s->counts[3]);
    if (line)
        s->status = TTD_WON;
    else if (stash_empty(s, s->placed))
        s->status = TTD_DRAW;
    else if (s->room)
        s->status = TTD_ONGOING; /* pieces remain and an empty cell takes any size */
    else {
        uint32_t t[4];
        all_targets(s, t);
        /* TTD-R9: nobody can move; the last placer wins */
        s->status = (t[1] | t[2] | t[3]) ? TTD_ONGOING : TTD_WON;
    }
}

/* ---- interface ---- */

static bool ttd_configure(const pips_game *g, void *config, pips_error *err)
{
    ttd_config *cf = config;
    memset(cf, 0, sizeof *cf);
    long v;
    if (!pips_game_opt_int(g, "players", &v, err))
        return false;
    cf->players = (int)v;
    if (!pips_game_opt_int(g, "stashes", &v, err))
        return false;
    cf->stashes = (int)v;
    for (int placed = 0; placed <= TTD_MAX_PLACED; placed++)
        cf->seat_of[placed] = (uint8_t)(placed % cf->players);
    return true;
}

static const ttd_config *CF(const pips_game *g) { return g->config; }

static int ttd_num_players(const pips_game *g) { return CF(g)->players; }

/* The seat that won a TTD_WON state: whoever placed last. */
static int ttd_winner(const pips_game *g, const ttd_state *s)
{
    return (s->placed - 1) % CF(g)->players;
}

/* Seat names: X and O with two players (as the rulebook's grid game), else
 * player numbers. */
static void seat_name(const pips_game *g, int seat, pips_str *out)
{
    if (CF(g)->players == 2)
        pips_str_cat(out, seat ? "O" : "X");
    else
        pips_str_catf(out, "player %d", seat + 1);
}

static size_t ttd_max_moves(const pips_game *g)
{
    (void)g;
    return TTD_CELLS * 3;
}

static void ttd_initial(const pips_game *g, void *state)
{
    ttd_state *s = state;
    memset(s, 0, sizeof *s);
    for (int z = 1; z <= 3; z++)
        s->stash[z] = (uint8_t)(TTD_PER_SIZE * CF(g)->stashes);
}

static int ttd_to_move(const pips_game *g, const void *state)
{
    const ttd_state *s = state;
    return s->status ? PIPS_OVER : CF(g)->seat_of[s->placed];
}

static size_t ttd_legal_moves(const pips_game *g, const void *state, pips_move *out)
{
    (void)g;
    const ttd_state *s = state;
    return s->status ? 0 : gen_moves(s, out, false);
}

static size_t ttd_count_moves(const pips_game *g, const void *state)
{
    (void)g;
    const ttd_state *s = state;
    return s->status ? 0 : gen_moves(s, NULL, true);
}

static bool ttd_random_move(const pips_game *g, const void *state, pips_rng *rng,
                            pips_move *out)
{
    (void)g;
    const ttd_state *s = state;
    if (s->status)
        return false;
    if (s->placed == 0) {
        *out = make_move(cell_of(0, 0), 1 + (int)pips_rng_below(rng, 3));
        return true;
    }
    /* The r-th move of gen_moves' order (sizes, then cells) without
     * writing the list. */
    uint32_t t[4];
    all_targets(s, t);
    unsigned n1 = (unsigned)__builtin_popcount(t[1]), n2 = (unsigned)__builtin_popcount(t[2]);
    unsigned total = n1 + n2 + (unsigned)__builtin_popcount(t[3]);
    if (!total)
        return false;
    unsigned r = (unsigned)pips_rng_below(rng, total);
    /* the size without branches (a random r mispredicts them) */
    unsigned past1 = r >= n1, past2 = r >= n1 + n2;
    int z = 1 + (int)past1 + (int)past2;
    r -= (n1 & (0u - past1)) + (n2 & (0u - past2));
    *out = make_move(nth_cell(t[z], r), z);
    return true;
}

static bool ttd_check_move(const pips_game *g, const void *state, pips_move m,
                           pips_error *err)
{
    (void)g;
    const ttd_state *s = state;
    int c = move_cell(m), z = move_size(m);
    if (s->status)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "the game is over");
    if (m >= TTD_CELLS * 4 || z == 0)
        return pips_fail(err, PIPS_ERR_ARG, "not a Tic Tac Doh! move");
    int x = cell_x(c), y = cell_y(c);
    if (!s->stash[z])
        return pips_fail(err, PIPS_ERR_ILLEGAL, "no %c piece is left in the stash", SIZE_CH[z]);
    if (s->placed == 0) {
        if (x || y)
            return pips_fail(err, PIPS_ERR_ILLEGAL,
                             "the first piece defines cell 0,0 (TTD-R1); write %c@0,0",
                             SIZE_CH[z]);
        return true;
    }
    if (s->height[c]) {
        int h = s->height[c], top = s->piece[c][h - 1];
        if (h >= 3)
            return pips_fail(err, PIPS_ERR_ILLEGAL, "cell %d,%d already holds 3 pieces (TTD-R3)",
                             x, y);
        if (z != top + 1 && z != top - 1)
            return pips_fail(err, PIPS_ERR_ILLEGAL,
                             "%c on %c: sizes must differ by exactly one (TTD-R3)", SIZE_CH[z],
                             SIZE_CH[top]);
        if (!can_stack(s, c, z))
            return pips_fail(err, PIPS_ERR_ILLEGAL,
                             "%c on %c-%c would mix a tree and a nest (TTD-R3)", SIZE_CH[z],
                             SIZE_CH[s->piece[c][0]], SIZE_CH[top]);
        return true;
    }
    if (!(s->room >> c & 1)) {
        int minx = x < s->minx ? x : s->minx, maxx = x > s->maxx ? x : s->maxx;
        int miny = y < s->miny ? y : s->miny, maxy = y > s->maxy ? y : s->maxy;
        if (maxx - minx > 2 || maxy - miny > 2)
            return pips_fail(err, PIPS_ERR_ILLEGAL,
                             "cell %d,%d lies outside every 3x3 window of the pieces (TTD-R1)",
                             x, y);
        return pips_fail(err, PIPS_ERR_ILLEGAL,
                         "cell %d,%d touches no piece, even diagonally (TTD-R2)", x, y);
    }
    return true;
}

/* update_status() after a placement of size z on a box with lower-left
 * corner `corner`: only counts[z] gained a cell, so only it can hold a new
 * line; room is the state's room after the placement. */
static inline uint8_t status_after(const ttd_state *s, uint32_t counts_z, int corner,
                                   int placed, uint32_t room)
{
    if (has_line_in_box(counts_z, corner))
        return TTD_WON;
    if (stash_empty(s, placed))
        return TTD_DRAW;
    if (room)
        return TTD_ONGOING; /* pieces remain and an empty cell takes any size */
    uint32_t t[4];
    all_targets(s, t);
    /* TTD-R9: nobody can move; the last placer wins */
    return (t[1] | t[2] | t[3]) ? TTD_ONGOING : TTD_WON;
}

/* ttd_apply() for a piece going on top of a stack (the rarer case). */
static __attribute__((noinline)) void apply_on_stack(ttd_state *s, int c, int z)
{
    int h = s->height[c] + 1, placed = s->placed + 1;
    uint32_t bit = 1u << c, counts_z = s->counts[z] | bit; /* the new top always counts */
    s->height[c] = (uint8_t)h;
    s->piece[c][h - 1] = (uint8_t)z;
    s->stash[z]--;
    s->placed = (uint8_t)placed;
    s->top[z] |= bit;
    s->counts[z] = counts_z;
    int below = s->piece[c][h - 2];
    bool tree = s->piece[c][1] < s->piece[c][0];
    s->top[below] &= ~bit;
    s->single &= ~bit;
    if (h == 2)
        *(tree ? &s->tree2 : &s->nest2) |= bit;
    else
        s->tree2 &= ~bit, s->nest2 &= ~bit;
    if (!tree)
        s->counts[below] &= ~bit; /* a nest counts only as its top */
    s->status = status_after(s, counts_z, cell_of(s->minx, s->miny), placed, s->room);
}

static void ttd_apply(const pips_game *g, void *state, pips_move m)
{
    (void)g;
    ttd_state *s = state;
    int c = move_cell(m), z = move_size(m);
    if (s->height[c]) {
        apply_on_stack(s, c, z);
        return;
    }
    /* A new cell: the box, the touching cells and the room change too. */
    int placed = s->placed + 1;
    uint32_t bit = 1u << c, counts_z = s->counts[z] | bit;
    s->height[c] = 1;
    s->piece[c][0] = (uint8_t)z;
    s->stash[z]--;
    s->placed = (uint8_t)placed;
    s->top[z] |= bit;
    s->counts[z] = counts_z;
    int x = CELL_X[c], y = CELL_Y[c];
    int minx = x, maxx = x, miny = y, maxy = y;
    if (placed == 1) {
        s->minx = s->maxx = (int8_t)x;
        s->miny = s->maxy = (int8_t)y;
    } else {
        minx = s->minx, maxx = s->maxx, miny = s->miny, maxy = s->maxy;
        if (x < minx) s->minx = (int8_t)(minx = x);
        if (x > maxx) s->maxx = (int8_t)(maxx = x);
        if (y < miny) s->miny = (int8_t)(miny = y);
        if (y > maxy) s->maxy = (int8_t)(maxy = y);
    }
    uint32_t occ = s->occ | bit, near = (s->near | CELL_DILATE[c]) & ~occ;
    s->occ = occ;
    s->single |= bit;
    s->near = near;
    /* window_mask() from two opposite corners of the box */
    int corner = cell_of(minx, miny);
    uint32_t room = near & CELL_SPAN2[corner] & CELL_SPAN2[cell_of(maxx, maxy)];
    s->room = room;
    s->status = status_after(s, counts_z, corner, placed, room);
}

static void ttd_undo(const pips_game *g, void *state, pips_move m)
{
    (void)g;
    ttd_state *s = state;
    int c = move_cell(m), z = move_size(m);
    s->piece[c][--s->height[c]] = 0;
    s->stash[z]++;
    s->placed--;
    s->status = TTD_ONGOING;
    recompute_derived(s);
}

/* TTD-R8: the winner scores 1, everyone else 0; a draw is 0.5 for all. */
static void ttd_returns(const pips_game *g, const void *state, double *out)
{
    const ttd_state *s = state;
    int n = CF(g)->players, winner = s->status == TTD_WON ? ttd_winner(g, s) : -1;
    for (int p = 0; p < n; p++)
        out[p] = winner < 0 ? 0.5 : p == winner ? 1.0 : 0.0;
}

static void ttd_result_text(const pips_game *g, const void *state, pips_str *out)
{
    const ttd_state *s = state;
    if (s->status == TTD_WON) {
        seat_name(g, ttd_winner(g, s), out);
        pips_str_cat(out, " wins");
    } else {
        pips_str_cat(out, s->status == TTD_DRAW ? "draw" : "in progress");
    }
}

static void ttd_move_to_text(const pips_game *g, const void *state, pips_move m, char *buf)
{
    (void)g;
    (void)state;
    int c = move_cell(m), z = move_size(m);
    if (m >= TTD_CELLS * 4 || z == 0)
        snprintf(buf, PIPS_MOVE_TEXT_MAX, "?");
    else
        snprintf(buf, PIPS_MOVE_TEXT_MAX, "%c@%d,%d", SIZE_CH[z], cell_x(c), cell_y(c));
}

static int size_of_char(char ch)
{
    switch (ch) {
    case 'S': case 's': return 1;
    case 'M': case 'm': return 2;
    case 'L': case 'l': return 3;
    default: return 0;
    }
}

/* Reads a signed coordinate in -2..2 at *p; advances *p. */
static bool read_coord(const char **p, int *v)
{
    const char *q = *p;
    int sign = 1;
    if (*q == '-' || *q == '+')
        sign = *q++ == '-' ? -1 : 1;
    if (*q < '0' || *q > '9')
        return false;
    int n = 0;
    while (*q >= '0' && *q <= '9' && n < 100)
        n = n * 10 + (*q++ - '0');
    *v = sign * n;
    *p = q;
    return true;
}

static bool ttd_move_from_text(const pips_game *g, const void *state, const char *text,
                               pips_move *m, pips_error *err)
{
    (void)g;
    (void)state;
    const char *p = text;
    while (*p == ' ')
        p++;
    int z = size_of_char(*p);
    if (!z)
        return pips_fail(err, PIPS_ERR_ARG,
                         "move '%.40s': expected a size S, M or L first (e.g. M@1,-1)", text);
    p++;
    if (*p++ != '@')
        return pips_fail(err, PIPS_ERR_ARG, "move '%.40s': expected '@' after the size", text);
    int x, y;
    if (!read_coord(&p, &x) || *p++ != ',' || !read_coord(&p, &y))
        return pips_fail(err, PIPS_ERR_ARG,
                         "move '%.40s': expected a cell as x,y (e.g. M@1,-1)", text);
    while (*p == ' ')
        p++;
    if (*p)
        return pips_fail(err, PIPS_ERR_ARG, "move '%.40s': unexpected text after the cell",
                         text);
    if (x < -2 || x > 2 || y < -2 || y > 2)
        return pips_fail(err, PIPS_ERR_ILLEGAL,
                         "move '%.40s': cell %d,%d is too far from the first piece (TTD-R1)",
                         text, x, y);
    *m = make_move(cell_of(x, y), z);
    return true;
}

/* State text: the stacks, bottom first, in cell order: "0,0:LM 1,0:S"; "-"
 * for the empty grid. Whose turn it is follows from the piece count. */
static void ttd_state_to_text(const pips_game *g, const void *state, pips_str *out)
{
    (void)g;
    const ttd_state *s = state;
    bool first = true;
    for (int c = 0; c < TTD_CELLS; c++) {
        if (!s->height[c])
            continue;
        pips_str_catf(out, "%s%d,%d:", first ? "" : " ", cell_x(c), cell_y(c));
        for (int i = 0; i < s->height[c]; i++)
            pips_str_catn(out, &SIZE_CH[s->piece[c][i]], 1);
        first = false;
    }
    if (first)
        pips_str_cat(out, "-");
}

static bool ttd_state_from_text(const pips_game *g, const char *text, void *state,
                                pips_error *err)
{
    ttd_state s;
    ttd_initial(g, &s);
    const char *p = text;
    while (*p == ' ')
        p++;
    if (*p == '-' && (p[1] == '\0' || p[1] == ' ')) {
        p++;
        while (*p == ' ')
            p++;
        if (*p)
            return pips_fail(err, PIPS_ERR_ARG, "state: unexpected text after '-'");
        memcpy(state, &s, sizeof s);
        return true;
    }
    int last_cell = -1;
    while (*p) {
        int x, y;
        long at = p - text;
        if (!read_coord(&p, &x) || *p++ != ',' || !read_coord(&p, &y) || *p++ != ':')
            return pips_fail(err, PIPS_ERR_ARG, "state at char %ld: expected x,y:SIZES", at);
        if (x < -2 || x > 2 || y < -2 || y > 2)
            return pips_fail(err, PIPS_ERR_ARG, "state at char %ld: cell %d,%d out of range",
                             at, x, y);
        int c = cell_of(x, y);
        if (c <= last_cell)
            return pips_fail(err, PIPS_ERR_ARG,
                             "state at char %ld: cells must be listed once, in order", at);
        last_cell = c;
        int h = 0;
        while (size_of_char(*p)) {
            int z = size_of_char(*p++);
            if (h == 3)
                return pips_fail(err, PIPS_ERR_ARG, "state: cell %d,%d holds more than 3", x, y);
            if (h && !can_stack(&s, c, z))
                return pips_fail(err, PIPS_ERR_ARG, "state: cell %d,%d is not a tree or nest",
                                 x, y);
            if (!s.stash[z])
                return pips_fail(err, PIPS_ERR_ARG, "state: more than %d pieces of size %c",
                                 TTD_PER_SIZE * CF(g)->stashes, SIZE_CH[z]);
            s.piece[c][h++] = (uint8_t)z;
            s.height[c] = (uint8_t)h;
            update_cell_masks(&s, c);
            s.stash[z]--;
            s.placed++;
        }
        if (!h)
            return pips_fail(err, PIPS_ERR_ARG, "state: cell %d,%d lists no pieces", x, y);
        if (*p && *p != ' ')
            return pips_fail(err, PIPS_ERR_ARG, "state at char %ld: unexpected '%c'",
                             (long)(p - text), *p);
        while (*p == ' ')
            p++;
    }
    if (s.placed == 0)
        return pips_fail(err, PIPS_ERR_ARG, "state: empty text (write '-' for no pieces)");
    if (!s.height[cell_of(0, 0)])
        return pips_fail(err, PIPS_ERR_ARG, "state: cell 0,0 (the first piece) is empty");
    recompute_derived(&s);
    if (s.maxx - s.minx > 2 || s.maxy - s.miny > 2)
        return pips_fail(err, PIPS_ERR_ARG, "state: pieces do not fit a 3x3 window (TTD-R1)");
    /* Every occupied cell must be reachable through touching cells (TTD-R2). */
    unsigned seen = 1u << cell_of(0, 0), frontier = seen;
    while (frontier) {
        unsigned next = 0;
        for (int c = 0; c < TTD_CELLS; c++) {
            if (!(frontier >> c & 1))
                continue;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = cell_x(c) + dx, ny = cell_y(c) + dy;
                    if (nx < -2 || nx > 2 || ny < -2 || ny > 2)
                        continue;
                    int n = cell_of(nx, ny);
                    if (s.height[n] && !(seen >> n & 1)) {
                        seen |= 1u << n;
                        next |= 1u << n;
                    }
                }
        }
        frontier = next;
    }
    for (int c = 0; c < TTD_CELLS; c++)
        if (s.height[c] && !(seen >> c & 1))
            return pips_fail(err, PIPS_ERR_ARG, "state: cell %d,%d touches no other piece",
                             cell_x(c), cell_y(c));
    /* Status: a line means the last placer won (the game stops at a line). */
    update_status(&s);
    memcpy(state, &s, sizeof s);
    return true;
}

static uint64_t ttd_hash(const pips_game *g, const void *state)
{
    (void)g;
    const ttd_state *s = state;
    uint64_t h = 0;
    for (int c = 0; c < TTD_CELLS; c++)
        for (int i = 0; i < s->height[c]; i++)
            h ^= pips_zobrist_key((uint64_t)(c * 3 + i) * 4 + s->piece[c][i]);
    return h;
}

static const char *size_colour(int z)
{
    return z == 1 ? "\033[1;34m" : z == 2 ? "\033[1;31m" : "\033[1;33m";
}

/* One horizontal border of the grid: kind 0 top, 1 middle, 2 bottom. */
static void render_border(pips_str *out, int columns, int kind, bool unicode)
{
    static const char *const uni[3][3] = {{"┌", "┬", "┐"}, {"├", "┼", "┤"}, {"└", "┴", "┘"}};
    pips_str_cat(out, "      ");
    for (int i = 0; i < columns; i++) {
        pips_str_cat(out, unicode ? uni[kind][i ? 1 : 0] : "+");
        for (int k = 0; k < 10; k++)
            pips_str_cat(out, unicode ? "─" : "-");
    }
    pips_str_cat(out, unicode ? uni[kind][2] : "+");
    pips_str_cat(out, "\n");
}

/* The grid around the pieces: every cell a piece could still reach, each
 * showing its stack bottom first and whether it is a tree or a nest; empty
 * cells open to a placement show a dot. */
static void ttd_render(const pips_game *g, const void *state, const pips_render_opts *ro,
                       pips_str *out)
{
    const ttd_state *s = state;
    uint32_t open = s->status ? 0 : s->room;
    int x0 = 0, x1 = 0, y0 = 0, y1 = 0;
    if (s->placed) {
        x0 = s->maxx - 2 > -2 ? s->maxx - 2 : -2;
        x1 = s->minx + 2 < 2 ? s->minx + 2 : 2;
        y0 = s->maxy - 2 > -2 ? s->maxy - 2 : -2;
        y1 = s->miny + 2 < 2 ? s->miny + 2 : 2;
    } else {
        open = 1u << cell_of(0, 0);
    }
    const char *vline = ro->unicode ? "│" : "|";
    int columns = x1 - x0 + 1;
    pips_str_cat(out, "      ");
    for (int x = x0; x <= x1; x++)
        pips_str_catf(out, "   x=%-2d    ", x);
    pips_str_cat(out, "\n");
    render_border(out, columns, 0, ro->unicode);
    for (int y = y1; y >= y0; y--) {
        pips_str_catf(out, " y=%-2d ", y);
        for (int x = x0; x <= x1; x++) {
            int c = cell_of(x, y), h = s->height[c], used = 1;
            pips_str_cat(out, vline);
            pips_str_cat(out, " ");
            if (h == 0 && (open >> c & 1)) {
                pips_str_cat(out, ro->unicode ? "·" : ".");
                used++;
            }
            for (int i = 0; i < h; i++) {
                int z = s->piece[c][i];
                if (ro->colour)
                    pips_str_cat(out, size_colour(z));
                pips_str_catn(out, &SIZE_CH[z], 1);
                if (ro->colour)
                    pips_str_cat(out, "\033[0m");
                used++;
            }
            if (h > 1) {
                pips_str_cat(out, s->piece[c][1] < s->piece[c][0] ? " tree" : " nest");
                used += 5;
            }
            for (; used < 10; used++)
                pips_str_cat(out, " ");
        }
        pips_str_cat(out, vline);
        pips_str_cat(out, "\n");
        render_border(out, columns, y > y0 ? 1 : 2, ro->unicode);
    }
    pips_str_catf(out, "stash: S %d  M %d  L %d   placed %d/%d   ", s->stash[1], s->stash[2],
                  s->stash[3], s->placed, 3 * TTD_PER_SIZE * CF(g)->stashes);
    if (s->status) {
        ttd_result_text(g, s, out);
    } else {
        seat_name(g, CF(g)->seat_of[s->placed], out);
        pips_str_cat(out, " to move");
    }
    pips_str_cat(out, "\n");
}

/* Canonical form: the pieces translated to a standard place and the least of
 * the 8 rotations/reflections. Legality depends only on relative placement
 * (TTD-R1..R3), so all these states have the same value. */
static void ttd_canonical(const pips_game *g, const void *state, void *outp)
{
    (void)g;
    const ttd_state *s = state;
    ttd_state best, cand;
    bool have = false;
    if (s->placed == 0) {
        memcpy(outp, s, sizeof *s);
        return;
    }
    for (int sym = 0; sym < 8; sym++) {
        memset(&cand, 0, sizeof cand);
        memcpy(cand.stash, s->stash, sizeof cand.stash);
        cand.placed = s->placed;
        cand.status = s->status;
        /* transform each occupied cell, then translate the box */
        int tx[TTD_CELLS], ty[TTD_CELLS];
        int minx = 99, miny = 99, maxx = -99, maxy = -99;
        for (int c = 0; c < TTD_CELLS; c++) {
            if (!s->height[c])
                continue;
            int x = cell_x(c), y = cell_y(c), u = x, v = y;
            if (sym & 1) u = -u;
            if (sym & 2) v = -v;
            if (sym & 4) { int t = u; u = v; v = t; }
            tx[c] = u;
            ty[c] = v;
            if (u < minx) minx = u;
            if (u > maxx) maxx = u;
            if (v < miny) miny = v;
            if (v > maxy) maxy = v;
        }
        /* a box of width w sits so that 3-w free columns remain on each side */
        int offx = (maxx - minx == 0 ? 0 : -1) - minx;
        int offy = (maxy - miny == 0 ? 0 : -1) - miny;
        for (int c = 0; c < TTD_CELLS; c++) {
            if (!s->height[c])
                continue;
            int d = cell_of(tx[c] + offx, ty[c] + offy);
            memcpy(cand.piece[d], s->piece[c], 3);
            cand.height[d] = s->height[c];
        }
        recompute_derived(&cand);
        if (!have || memcmp(&cand, &best, sizeof cand) < 0) {
            best = cand;
            have = true;
        }
    }
    memcpy(outp, &best, sizeof best);
}

/* Does the player to move have a placement that completes a line now? */
static bool has_winning_move(const ttd_state *s)
{
    if (s->status || s->placed == 0)
        return false;
    for (int z = 1; z <= 3; z++) /* the placed piece always counts as z */
        if (targets(s, z) & completing_cells(s->counts[z]))
            return true;
    return false;
}

/* Heuristic for agents. Everyone shares every piece, so a near-line helps
 * whoever moves next: the mover wins at once if some placement completes a
 * line, and if every placement leaves the next seat a line, that seat wins
 * (with two seats, the mover's opponent; with more, a third party, so the
 * seat that left the mover in that spot gets no credit for it: TTD-R8's
 * lone winner). Otherwise the position is quiet: the mover's share is 1/n,
 * nudged by how many of its placements are safe, and the others share the
 * rest. With two seats the values are bit for bit the two-player ones. */
/* The placements of the player to move in s that neither end the game nor
 * leave the next player a line; *n gets how many placements there are. */
static size_t safe_placements(const pips_game *g, const ttd_state *s, size_t *n)
{
    pips_move moves[TTD_CELLS * 3];
    size_t safe = 0;
    *n = gen_moves(s, moves, false);
    for (size_t i = 0; i < *n; i++) {
        ttd_state child = *s;
        ttd_apply(g, &child, moves[i]);
        safe += child.status == TTD_ONGOING && !has_winning_move(&child);
    }
    return safe;
}

static void ttd_evaluate(const pips_game *g, const void *state, double *out)
{
    const ttd_state *s = state;
    int n_players = CF(g)->players, mover = CF(g)->seat_of[s->placed];
    double v = 2.0 / n_players * 0.5; /* the mover's share; exact 0.5 at two seats */
    if (has_winning_move(s)) {
        v = 0.95;
    } else {
        size_t n, safe = safe_placements(g, s, &n);
        if (n && safe == 0) { /* the next seat wins; the others share 0.05 */
            int next = (mover + 1) % n_players;
            for (int p = 0; p < n_players; p++)
                out[p] = p == next ? 1.0 - 0.05 : 0.05 / (n_players - 1);
            return;
        }
        if (n)
            v = 2.0 / n_players * (0.45 + 0.1 * (double)safe / (double)n);
    }
    for (int p = 0; p < n_players; p++) /* the others share what the mover lacks */
        out[p] = p == mover ? v : (1.0 - v) / (n_players - 1);
}

/* Move ordering: winning placements first, then those that give the
 * opponent no immediate win. With three or four seats a placement after
 * which every placement of the next seat leaves the one after it a line is
 * no better than giving a line away: it hands that seat the game (TTD-R8).
 * (With two seats that seat is the mover, and the order stays as it was.) */
static void ttd_order_moves(const pips_game *g, const void *state, const pips_move *moves,
                            size_t n, int *scores)
{
    const ttd_state *s = state;
    for (size_t i = 0; i < n; i++) {
        ttd_state child = *s;
        ttd_apply(g, &child, moves[i]);
        if (child.status == TTD_WON) {
            scores[i] = 2;
        } else if (has_winning_move(&child)) {
            scores[i] = 0;
        } else if (CF(g)->players > 2 && child.status == TTD_ONGOING) {
            size_t replies, safe = safe_placements(g, &child, &replies);
            scores[i] = replies && safe == 0 ? 0 : 1;
        } else {
            scores[i] = 1;
        }
    }
}

static const pips_option_def ttd_options[] = {
    {"players", "2", "players, placing in seat order from one shared stash (TTD-R8)",
     .type = PIPS_OPT_INT, .min = 2, .max = TTD_MAX_PLAYERS},
    {"stashes", "1", "stashes in the shared supply, each 5 S, 5 M and 5 L (TTD-R10)",
     .type = PIPS_OPT_INT, .min = 1, .max = 3},
};

static const char TTD_RULES[] =
    "Tic Tac Doh! (Brian Schultze, 2003) - two players share one stash of 15 pyramids:\n"
    "5 small (S), 5 medium (M), 5 large (L). Players take turns placing one piece.\n"
    "The pieces belong to nobody: either player may place any size left.\n"
    "\n"
    "TTD-R1 Grid. There is no board: the first piece's cell is 0,0 and every cell is named\n"
    "  relative to it (x to the right, y up). After every placement all pieces must fit in\n"
    "  some 3x3 window.\n"
    "TTD-R2 Placement. Place on an empty cell touching a piece (diagonals count), or on top\n"
    "  of a stack. The first piece may be any size.\n"
    "TTD-R3 Stacking. The new piece must be exactly one size from the top piece. A smaller\n"
    "  piece on a larger one starts a tree (L-M, L-M-S); a larger on a smaller starts a nest\n"
    "  (S-M, S-M-L). The third piece must continue the same way; stacks hold at most 3.\n"
    "TTD-R4 Counting. A single piece counts as its size, a tree as every size it holds, a\n"
    "  nest only as its top (largest) piece.\n"
    "TTD-R5 Winning. Three cells in a row, column or diagonal that all count as one common\n"
    "  size: the player who just placed wins.\n"
    "TTD-R6 Draw. All pieces placed without a line.\n"
    "TTD-R7 Stuck. If pieces remain but the player to move cannot place any, the other\n"
    "  player wins.\n"
    "\n"
    "Experimental variants (the rulebook: it \"might work\" for 3 or 4; untried):\n"
    "TTD-R8 players=3 or 4. Turns go in seat order; the pieces still belong to nobody and\n"
    "  TTD-R1..R6 are unchanged: whoever completes a line wins (1, everyone else 0); all\n"
    "  pieces placed without a line is a draw for everyone.\n"
    "TTD-R9 Stuck, any count. Every player may place the same pieces, so a player who\n"
    "  cannot move leaves nobody able to: the player who placed last wins (TTD-R7).\n"
    "TTD-R10 stashes=2 or 3: the supply holds 5 x stashes pieces of each size. More\n"
    "  than the 27 places of a 3x3 window, so the game ends by a line or by TTD-R9.\n"
    "\n"
    "Seats: X moves first, O second; with 3 or 4 players, players 1 to 4.\n";

static const char TTD_NOTATION[] =
    "A move is SIZE@X,Y: the size S, M or L and the cell relative to the first piece,\n"
    "x to the right and y up, each from -2 to 2. The first move is always at 0,0.\n"
    "Examples: L@0,0 (first move), M@1,-1 (diagonally down-right of the first piece),\n"
    "S@0,0 (on top of the first piece). Lower-case sizes are accepted.\n"
    "State text lists the stacks bottom first in cell order, e.g. '0,0:LM 1,0:S'.\n";

#include "tictacdoh_view.inc"

const pips_game_def pips_tictacdoh_def = {
    .name = "tictacdoh",
    .title = "Tic Tac Doh!",
    .rules_text = TTD_RULES,
    .notation_text = TTD_NOTATION,
    .options = ttd_options,
    .n_options = sizeof ttd_options / sizeof ttd_options[0],
    .config_size = sizeof(ttd_config),
    .state_size = sizeof(ttd_state),
    .flags = PIPS_GAME_MOVE_TEXT_FIXED,
    .bench_perft_depth = 5,
    .bench_playouts = 200000,
    .configure = ttd_configure,
    .num_players = ttd_num_players,
    .max_moves = ttd_max_moves,
    .initial = ttd_initial,
    .to_move = ttd_to_move,
    .legal_moves = ttd_legal_moves,
    .count_moves = ttd_count_moves,
    .check_move = ttd_check_move,
    .random_move = ttd_random_move,
    .apply = ttd_apply,
    .undo = ttd_undo,
    .returns = ttd_returns,
    .result_text = ttd_result_text,
    .move_to_text = ttd_move_to_text,
    .move_from_text = ttd_move_from_text,
    .state_to_text = ttd_state_to_text,
    .state_from_text = ttd_state_from_text,
    .hash = ttd_hash,
    .render = ttd_render,
    .state_view = ttd_state_view,
    .evaluate = ttd_evaluate,
    .order_moves = ttd_order_moves,
    /* measured ladder in docs/ai.md; max is the oracle (2 seats, 1 stash: solved
     * from the start in 525,000 nodes), budgeted in nodes so it plays the same
     * on any load */
    .levels = {"mcts:iters=200", "greedy", "mcts:iters=1000",
               "oracle:positions=1500000,fallback=mcts:iters=10000"},
    /* 3 and 4 seats: issue 24, docs/ai.md "Levels for three to six seats" */
    .levels_n = {{"random", "greedy", "mcts:iters=1000,opp=greedy",
                  "mcts:iters=3000,opp=adapt,oppiters=1000,exact=2000000,pick=4,prior=0.5"},
                 {"random", "greedy", "mcts:iters=3000,opp=greedy,settle=1",
                  "mcts:iters=10000,opp=adapt,oppiters=3000,oppsettle=1,exact=2000000,pick=4,"
                  "prior=0.5,settle=1"}},
    .canonical = ttd_canonical,
};
