/*
 * icefrogs.c — IceFrogs (Jason Spears & Erik Oosterwal, 2008) under the
 * project's rulings ICF-R1..R11 (explained in docs/games/icefrogs.md), 2 to 6 players.
 *
 * Cells (ICF-R1) are named by rows a..i from the bottom tip (axial r = -4)
 * to the top tip (r = 4), numbered from the left (q increasing) in each row.
 * Internally a cell is the bit q + 8r + 30 (0..60) of a uint64 mask: each of
 * the six directions is then a shift by 1, 7 or 8, and no off-star neighbour
 * lands on a star cell's bit, so move generation floods whole sets of cells.
 * Start spaces (ICF-R2, R10): the star tips T0..T5 = a1 c1 g1 i1 g7 c7, each
 * 60 degrees on from the last; 2 players use T0 T3 (a1 i1), 3 use T0 T2 T4
 * (a1 g1 g7), 4 use T0 T1 T3 T4, 5 use T0..T4 and 6 all.
 *
 * A stack is its top piece (top[]), the piece under it (under[]) and the
 * pieces below those two, kept in one pool (deep[]) cell by cell in id order
 * and bottom first inside a cell, deep_h[] of them per cell. Most moves only
 * touch top[] and under[]; the pool moves only for stacks of three or more.
 * The masks cache the top pieces for move generation: own[p] holds the cells
 * whose top is player p's, kept by clearing only the old top owner's bit. A
 * piece code is owner << 2 | size (size 1..3), 0 = none.
 *
 * Invariants: pool entries past the last deep piece, supply of absent
 * players, padding and every cache are zero or derived from the stacks, so
 * equal positions are byte-equal; start spaces are empty unless the game
 * ended there (ICF-R8); stacks never hold a piece on a smaller one.
 * Move encoding: source * 64 + destination cell id, where source is a cell
 * id or 64..66 for entering a small, medium or large; ICF_PASS is a pass.
 */
#include "pips/game.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define ICF_CELLS 37
#define ICF_GRID 61 /* cell ids are bit positions q + 8r + 30, from 0 to 60 */
#define ICF_ROWS 9
#define ICF_PER_SIZE 5
#define ICF_MAX_PLAYERS 6
#define ICF_POOL (ICF_MAX_PLAYERS * 3 * ICF_PER_SIZE)
#define ICF_ENTER_BASE 64
#define ICF_PASS ((pips_move)(67 * 64))

enum { ICF_ONGOING = 0, ICF_WON = 1, ICF_DRAW_PASSES = 2, ICF_DRAW_PLIES = 3 };

typedef struct icf_state {
    uint64_t occ, ge2, ge3;           /* cache: cells with a top piece of size >= 1, 2, 3 */
    uint64_t own[ICF_MAX_PLAYERS];    /* cache: cells whose top piece is the player's */
    uint8_t top[ICF_GRID];            /* top piece code, 0 when empty */
    uint8_t under[ICF_GRID];          /* the piece below the top, 0 when none */
    uint8_t deep_h[ICF_GRID];         /* pieces below those two */
    uint8_t deep[ICF_POOL];           /* those pieces, by cell then bottom first */
    uint8_t supply[ICF_MAX_PLAYERS][4]; /* [player][size]; [.][0] unused */
    uint16_t ply;                     /* moves played, passes included */
    uint8_t to_move;
    uint8_t passes;                   /* passes in succession just before now */
    uint8_t status;
    uint8_t winner;
    uint8_t n_deep;                   /* cache: pieces in deep[] */
    uint8_t pad[3];                   /* zero */
} icf_state;

typedef struct icf_config {
    int players;
    int max_plies;
    uint64_t board;                    /* the 37 cells (ICF-R1) */
    uint64_t adj[ICF_GRID];            /* neighbours() of each cell */
    int8_t cells[ICF_CELLS];           /* cell ids in naming order a1, b1, b2, c1, ... */
    int8_t q[ICF_GRID], r[ICF_GRID];
    int8_t row[ICF_GRID], col[ICF_GRID]; /* row 0..8 (a..i), column 0.. in the row */
    int8_t mirror[ICF_GRID];           /* left-right reflection: (q, r) -> (-q - r, r) */
    int start[ICF_MAX_PLAYERS];
    uint64_t opp_starts[ICF_MAX_PLAYERS]; /* start spaces of each player's opponents */
    int8_t dist_goal[ICF_MAX_PLAYERS][ICF_GRID]; /* hex distance to nearest opponent start */
    uint64_t zobrist_turn[ICF_MAX_PLAYERS], zobrist_passes[ICF_MAX_PLAYERS + 1];
} icf_config;

static const char SIZE_CH[4] = {'?', 'S', 'M', 'L'};
static const int ROW_LEN[ICF_ROWS] = {1, 2, 7, 6, 5, 6, 7, 2, 1};

static inline int psize(int code) { return code & 3; }
static inline int powner(int code) { return code >> 2; }
static inline uint64_t bit(int c) { return (uint64_t)1 << c; }
static inline int cell_id(int q, int r) { return q + 8 * r + 30; }
static inline pips_move make_move(int src, int dst) { return (pips_move)(src * 64 + dst); }
static inline int move_src(pips_move m) { return (int)(m >> 6); }
static inline int move_dst(pips_move m) { return (int)(m & 63); }

/* The six axial directions as shifts of a cell mask: with ids q + 8r + 30,
 * (1,0) is +1, (-1,0) -1, (0,1) +8, (0,-1) -8, (-1,1) +7 and (1,-1) -7. No
 * cell's neighbour off the star lands on a star cell's bit, so masking with
 * the board after a shift is exact. */
static inline uint64_t neighbours(uint64_t x, uint64_t board)
{
    return ((x << 1) | (x >> 1) | (x << 8) | (x >> 8) | (x << 7) | (x >> 7)) & board;
}

/* Landing cells of single jumps from cells x over cells in `over`. */
static inline uint64_t jump_landings(uint64_t x, uint64_t over, uint64_t board)
{
    return (((((x << 1) & over) << 1) | (((x >> 1) & over) >> 1) | (((x << 8) & over) << 8) |
             (((x >> 8) & over) >> 8) | (((x << 7) & over) << 7) | (((x >> 7) & over) >> 7)) &
            board);
}

static bool on_star(int q, int r)
{
    int s = -q - r;
    int mx = q > r ? q : r, mn = q < r ? q : r;
    mx = s > mx ? s : mx;
    mn = s < mn ? s : mn;
    return mx <= 2 || mn >= -2;
}

static int hex_dist(int q1, int r1, int q2, int r2)
{
    int dq = q1 - q2, dr = r1 - r2, ds = -dq - dr;
    dq = dq < 0 ? -dq : dq;
    dr = dr < 0 ? -dr : dr;
    ds = ds < 0 ? -ds : ds;
    return dq > dr ? (dq > ds ? dq : ds) : (dr > ds ? dr : ds);
}

static void cell_name(const icf_config *cf, int c, char *buf)
{
    buf[0] = (char)('a' + cf->row[c]); /* rows hold at most 7 cells: one digit */
    buf[1] = (char)('1' + cf->col[c]);
    buf[2] = '\0';
}

/* Reads a cell name ("c3") at *p; advances *p past it. */
static bool read_cell(const icf_config *cf, const char **p, int *cell)
{
    const char *s = *p;
    char ch = *s;
    if (ch >= 'A' && ch <= 'I')
        ch = (char)(ch - 'A' + 'a');
    if (ch < 'a' || ch > 'i' || s[1] < '1' || s[1] > '9')
        return false;
    int row = ch - 'a', col = s[1] - '1';
    if (col >= ROW_LEN[row])
        return false;
    for (int i = 0; i < ICF_CELLS; i++) {
        int c = cf->cells[i];
        if (cf->row[c] == row && cf->col[c] == col) {
            *cell = c;
            *p = s + 2;
            return true;
        }
    }
    return false;
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

/* ---- configuration ---- */

static bool icf_configure(const pips_game *g, void *config, pips_error *err)
{
    icf_config *cf = config;
    memset(cf, 0, sizeof *cf);
    long v;
    if (!pips_game_opt_int(g, "players", &v, err))
        return false;
    cf->players = (int)v;
    /* ICF-R11: by default 150 moves per player before a draw */
    if (!strcmp(pips_options_get(&g->options, "max_plies"), "auto"))
        v = 150 * cf->players;
    else if (!pips_game_opt_int(g, "max_plies", &v, err))
        return false;
    cf->max_plies = (int)v;
    /* ICF-R1: cells row by row, bottom (r = -4) first, q increasing. */
    int n = 0;
    for (int r = -4; r <= 4; r++) {
        int col = 0;
        for (int q = -4; q <= 4; q++)
            if (on_star(q, r)) {
                int c = cell_id(q, r);
                cf->cells[n++] = (int8_t)c;
                cf->board |= bit(c);
                cf->q[c] = (int8_t)q;
                cf->r[c] = (int8_t)r;
                cf->row[c] = (int8_t)(r + 4);
                cf->col[c] = (int8_t)col++;
                cf->mirror[c] = (int8_t)cell_id(-q - r, r);
            }
    }
    for (int i = 0; i < ICF_CELLS; i++)
        cf->adj[cf->cells[i]] = neighbours(bit(cf->cells[i]), cf->board);
    /* ICF-R2, ICF-R10: the star tips in turning order, and which of them
     * the seats of each player count take. */
    static const int TIP[6][2] = {{2, -4}, {-2, -2}, {-4, 2}, {-2, 4}, {2, 2}, {4, -2}};
    static const int8_t SEAT_TIPS[7][6] = {
        [2] = {0, 3}, [3] = {0, 2, 4}, [4] = {0, 1, 3, 4}, [5] = {0, 1, 2, 3, 4},
        [6] = {0, 1, 2, 3, 4, 5},
    };
    for (int p = 0; p < cf->players; p++) {
        const int *qr = TIP[SEAT_TIPS[cf->players][p]];
        cf->start[p] = cell_id(qr[0], qr[1]);
    }
    for (int p = 0; p < cf->players; p++)
        for (int o = 0; o < cf->players; o++)
            if (o != p)
                cf->opp_starts[p] |= bit(cf->start[o]);
    for (int p = 0; p < cf->players; p++)
        for (int i = 0; i < ICF_CELLS; i++) {
            int c = cf->cells[i], best = 99;
            for (int o = 0; o < cf->players; o++) {
                if (o == p)
                    continue;
                int t = cf->start[o];
                int dd = hex_dist(cf->q[c], cf->r[c], cf->q[t], cf->r[t]);
                best = dd < best ? dd : best;
            }
            cf->dist_goal[p][c] = (int8_t)best;
        }
    for (int p = 0; p < ICF_MAX_PLAYERS; p++)
        cf->zobrist_turn[p] = pips_zobrist_key(ICF_GRID * ICF_POOL * 32 + p);
    for (int k = 0; k <= ICF_MAX_PLAYERS; k++)
        cf->zobrist_passes[k] = k ? pips_zobrist_key(ICF_GRID * ICF_POOL * 32 + 8 + k) : 0;
    return true;
}

static const icf_config *CF(const pips_game *g) { return g->config; }

static int icf_num_players(const pips_game *g) { return CF(g)->players; }

/* Every top piece of the mover (at most 15) plus three entering sizes, each
 * with at most 36 final cells; plus room for a pass. */
static size_t icf_max_moves(const pips_game *g)
{
    (void)g;
    return (size_t)(3 * ICF_PER_SIZE + 3) * (ICF_CELLS - 1) + 1;
}

static void icf_initial(const pips_game *g, void *state)
{
    icf_state *s = state;
    memset(s, 0, sizeof *s);
    for (int p = 0; p < CF(g)->players; p++)
        for (int z = 1; z <= 3; z++)
            s->supply[p][z] = ICF_PER_SIZE;
}

static int icf_to_move(const pips_game *g, const void *state)
{
    (void)g;
    const icf_state *s = state;
    return s->status ? PIPS_OVER : s->to_move;
}

/* ---- move generation ---- */

/* Masks of one position seen by a moving piece of size z: ge (tops it may
 * land on, size >= z), le (tops it may jump, size <= z) and empty cells. */
typedef struct icf_view {
    uint64_t ge, le, empty;
} icf_view;

static inline icf_view view_of(uint64_t board, uint64_t occ, uint64_t ge2, uint64_t ge3, int z)
{
    icf_view v;
    v.ge = z == 1 ? occ : z == 2 ? ge2 : ge3;
    v.le = z == 1 ? occ & ~ge2 : z == 2 ? occ & ~ge3 : occ;
    v.empty = board & ~occ;
    return v;
}

/* The final cells a piece can reach from cell `from` (v shows the board with
 * the piece lifted off `from`), before the forbidden cells are removed.
 * Steps (ICF-R4), then a visited-set flood of jump chains (ICF-R5): an empty
 * landing is a possible stop and a place to jump on from, a landing on a top
 * >= z ends there, and after a jump one final step onto a top >= z is
 * allowed. The flood moves every frontier cell at once, six directions at a
 * time, so it takes as many rounds as the longest new chain. Kept plain on
 * purpose: check_move uses it, so the tests that check every listed move
 * compare the generator's reach_fast against it. */
static inline uint64_t reach(uint64_t board, icf_view v, int from)
{
    uint64_t f = bit(from);
    uint64_t dest = neighbours(f, board) & (v.empty | v.ge);
    uint64_t seen = f, landed = 0, frontier = f;
    while (frontier) {
        uint64_t l = jump_landings(frontier, v.le, board);
        dest |= l & v.ge;
        frontier = l & v.empty & ~seen;
        seen |= frontier;
        landed |= frontier;
    }
    return dest | landed | (landed ? neighbours(landed, board) & v.ge : 0);
}

/* The view for the top piece of cell c lifted off (its under piece shows). */
static inline icf_view lifted_view(uint64_t board, const icf_state *s, int c, int z)
{
    uint64_t b = bit(c);
    int u = psize(s->under[c]);
    uint64_t occ = (s->occ & ~b) | (u ? b : 0);
    uint64_t ge2 = (s->ge2 & ~b) | (u >= 2 ? b : 0);
    uint64_t ge3 = (s->ge3 & ~b) | (u >= 3 ? b : 0);
    return view_of(board, occ, ge2, ge3, z);
}

/* Final cells of one source (a board cell, or ICF_ENTER_BASE + z - 1), after
 * ICF-R3 (not on the mover's own start) and ICF-R7 (not where it began). */
static uint64_t source_dests(const icf_config *cf, const icf_state *s, int src)
{
    int p = s->to_move, own = cf->start[p];
    if (src >= ICF_ENTER_BASE) {
        int z = src - ICF_ENTER_BASE + 1;
        if (!s->supply[p][z])
            return 0;
        /* the start space is always empty during play (ICF-R8) */
        return reach(cf->board, view_of(cf->board, s->occ, s->ge2, s->ge3, z), own) & ~bit(own);
    }
    int code = s->top[src];
    if (!code || powner(code) != p)
        return 0;
    return reach(cf->board, lifted_view(cf->board, s, src, psize(code)), src) & ~bit(own) &
           ~bit(src);
}

/* reach() for the move generator: the steps from the neighbour table, no
 * flood at all when no neighbour can be jumped (the common case), and the
 * first two rounds of the flood unrolled: from a first landing a chain
 * usually has nowhere new to go. */
static inline uint64_t reach_fast(const icf_config *cf, icf_view v, int from)
{
    uint64_t adj = cf->adj[from];
    uint64_t dest = adj & (v.empty | v.ge);
    if (!(adj & v.le))
        return dest;
    uint64_t board = cf->board, seen = bit(from);
    uint64_t l = jump_landings(seen, v.le, board);
    uint64_t landed = l & v.empty;
    dest |= l & v.ge;
    seen |= landed;
    l = jump_landings(landed, v.le, board);
    dest |= l & v.ge;
    uint64_t frontier = l & v.empty & ~seen;
    while (frontier) { /* longer chains */
        seen |= frontier;
        landed |= frontier;
        l = jump_landings(frontier, v.le, board);
        dest |= l & v.ge;
        frontier = l & v.empty & ~seen;
    }
    return dest | landed | (neighbours(landed, board) & v.ge);
}

/* Most sources of one player: every top piece (15) and three entering sizes. */
#define ICF_MAX_SOURCES (3 * ICF_PER_SIZE + 3)

/* The sources of the player to move in move order (own top pieces by cell,
 * then entering S, M, L) with their final cells (ICF-R3..R7); returns how
 * many. A source with no final cell is listed with an empty set. */
static int source_sets(const icf_config *cf, const icf_state *s, int *src, uint64_t *dest)
{
    int p = s->to_move, own = cf->start[p], k = 0;
    uint64_t not_own = ~bit(own);
    /* Every jump moves a piece by an even step in both axial coordinates, so
     * a chain never lands next to the cell it left: the piece can neither
     * jump over that cell nor step onto it after a jump, and landing on it
     * is excluded (ICF-R7). Lifting the piece therefore changes nothing, and
     * the unlifted masks serve every source (check_move lifts; the tests
     * compare the two). */
    icf_view views[4];
    for (int z = 1; z <= 3; z++)
        views[z] = view_of(cf->board, s->occ, s->ge2, s->ge3, z);
    for (uint64_t mine = s->own[p]; mine; mine &= mine - 1) {
        int c = __builtin_ctzll(mine);
        src[k] = c;
        dest[k++] = reach_fast(cf, views[psize(s->top[c])], c) & not_own & ~bit(c);
    }
    for (int z = 1; z <= 3; z++) {
        if (!s->supply[p][z])
            continue;
        src[k] = ICF_ENTER_BASE + z - 1;
        dest[k++] = reach_fast(cf, views[z], own) & not_own;
    }
    return k;
}

static size_t gen_moves(const icf_config *cf, const icf_state *s, pips_move *out,
                        bool count_only)
{
    int src[ICF_MAX_SOURCES];
    uint64_t dest[ICF_MAX_SOURCES];
    int k = source_sets(cf, s, src, dest);
    size_t n = 0;
    for (int i = 0; i < k; i++) {
        uint64_t d = dest[i];
        if (count_only) {
            n += (size_t)__builtin_popcountll(d);
            continue;
        }
        pips_move base = make_move(src[i], 0);
        for (; d; d &= d - 1)
            out[n++] = base + (pips_move)__builtin_ctzll(d);
    }
    if (n == 0) { /* ICF-R9: a forced pass */
        if (!count_only)
            out[0] = ICF_PASS;
        n = 1;
    }
    return n;
}

static size_t icf_legal_moves(const pips_game *g, const void *state, pips_move *out)
{
    const icf_state *s = state;
    return s->status ? 0 : gen_moves(CF(g), s, out, false);
}

static size_t icf_count_moves(const pips_game *g, const void *state)
{
    const icf_state *s = state;
    return s->status ? 0 : gen_moves(CF(g), s, NULL, true);
}

/* A uniformly random legal move without writing the list: one draw below
 * the number of moves picks a source by its share and then its final cell,
 * the move that picking by index from gen_moves' list would give. */
static bool icf_random_move(const pips_game *g, const void *state, pips_rng *rng,
                            pips_move *out)
{
    const icf_config *cf = CF(g);
    const icf_state *s = state;
    if (s->status)
        return false;
    int src[ICF_MAX_SOURCES];
    uint64_t dest[ICF_MAX_SOURCES];
    unsigned count[ICF_MAX_SOURCES], total = 0;
    int k = source_sets(cf, s, src, dest);
    for (int i = 0; i < k; i++) {
        count[i] = (unsigned)__builtin_popcountll(dest[i]);
        total += count[i];
    }
    if (total == 0) { /* ICF-R9: the forced pass is the only move */
        *out = ICF_PASS;
        return true;
    }
    unsigned r = (unsigned)pips_rng_below(rng, total);
    int i = 0;
    while (r >= count[i])
        r -= count[i++];
    uint64_t d = dest[i];
    while (r--)
        d &= d - 1;
    *out = make_move(src[i], __builtin_ctzll(d));
    return true;
}

static bool icf_check_move(const pips_game *g, const void *state, pips_move m, pips_error *err)
{
    const icf_config *cf = CF(g);
    const icf_state *s = state;
    if (s->status)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "the game is over");
    if (m == ICF_PASS) {
        pips_move only;
        if (gen_moves(cf, s, NULL, true) == 1 && (gen_moves(cf, s, &only, false), only == ICF_PASS))
            return true;
        return pips_fail(err, PIPS_ERR_ILLEGAL,
                         "pass: a player may pass only without a legal move (ICF-R9)");
    }
    int src = move_src(m), dst = move_dst(m);
    if (src >= ICF_ENTER_BASE + 3 || (src < ICF_ENTER_BASE && !(cf->board >> src & 1)) ||
        !(cf->board >> dst & 1))
        return pips_fail(err, PIPS_ERR_ARG, "not an IceFrogs move");
    char dn[4], sn[4];
    cell_name(cf, dst, dn);
    int p = s->to_move;
    const char *sep = "-";
    if (src >= ICF_ENTER_BASE) {
        int z = src - ICF_ENTER_BASE + 1;
        if (!s->supply[p][z])
            return pips_fail(err, PIPS_ERR_ILLEGAL, "%c+%s: no %c left in player %d's supply",
                             SIZE_CH[z], dn, SIZE_CH[z], p + 1);
        sn[0] = SIZE_CH[z];
        sn[1] = '\0';
        sep = "+";
    } else {
        cell_name(cf, src, sn);
        if (!s->top[src])
            return pips_fail(err, PIPS_ERR_ILLEGAL, "%s-%s: %s is empty", sn, dn, sn);
        if (powner(s->top[src]) != p)
            return pips_fail(err, PIPS_ERR_ILLEGAL,
                             "%s-%s: the top piece on %s is player %d's, not player %d's", sn, dn,
                             sn, powner(s->top[src]) + 1, p + 1);
        if (src == dst)
            return pips_fail(err, PIPS_ERR_ILLEGAL,
                             "%s-%s: a move that ends where it began is not a move (ICF-R7)",
                             sn, dn);
    }
    if (dst == cf->start[p])
        return pips_fail(err, PIPS_ERR_ILLEGAL,
                         "%s%s%s: a piece may not end on its own start space (ICF-R3)", sn, sep,
                         dn);
    if (!(source_dests(cf, s, src) >> dst & 1))
        return pips_fail(err, PIPS_ERR_ILLEGAL,
                         "%s%s%s: the piece cannot end on %s by a step or jumps (ICF-R4, ICF-R5)",
                         sn, sep, dn, dn);
    return true;
}

/* ---- applying moves ---- */

static inline int stack_height(const icf_state *s, int c)
{
    return s->deep_h[c] + (s->top[c] != 0) + (s->under[c] != 0);
}

/* Deep pieces of the cells before c: deep_h[] summed eight bytes at a time
 * (a multiply adds the bytes of a word; every sum stays below 256), the last
 * word masked to the cells before c. That word may reach past deep_h[] into
 * deep[], which lies in the same state and is masked off. */
static int deep_offset(const icf_state *s, int c)
{
    int off = 0, i = 0;
    uint64_t w;
    for (; i + 8 <= c; i += 8) {
        memcpy(&w, s->deep_h + i, 8);
        off += (int)((w * 0x0101010101010101ULL) >> 56);
    }
    if (c > i) {
        memcpy(&w, s->deep_h + i, 8);
        w &= ~0ULL >> (64 - 8 * (c - i));
        off += (int)((w * 0x0101010101010101ULL) >> 56);
    }
    return off;
}

/* Writes cell c's pieces bottom first into out and returns how many; off is
 * deep_offset(s, c), which callers walking the cells in id order keep by
 * adding deep_h[] as they go. */
static int read_stack(const icf_state *s, int c, int off, uint8_t *out)
{
    int h = s->deep_h[c];
    memcpy(out, s->deep + off, (size_t)h);
    if (s->under[c])
        out[h++] = s->under[c];
    if (s->top[c])
        out[h++] = s->top[c];
    return h;
}

/* Recomputes cell c's bits in the mask caches from its top piece, without
 * branches (an empty cell has code 0 and sets nothing); old_code is the top
 * piece it replaced (0 when none), whose owner alone can hold the cell. */
static inline void set_cell_bits(icf_state *s, int c, int old_code)
{
    uint64_t b = bit(c), keep = ~b;
    unsigned code = s->top[c], z = code & 3;
    uint64_t has = code ? b : 0;
    s->occ = (s->occ & keep) | has;
    s->ge2 = (s->ge2 & keep) | (has & (0 - (uint64_t)(z >> 1)));
    s->ge3 = (s->ge3 & keep) | (has & (0 - (uint64_t)(z >> 1 & z)));
    s->own[old_code >> 2] &= keep;
    s->own[code >> 2] |= has;
}

static int pop_piece(icf_state *s, int c)
{
    int code = s->top[c], below = 0;
    if (s->deep_h[c]) { /* the highest deep piece becomes the under piece */
        int idx = deep_offset(s, c) + s->deep_h[c] - 1, total = s->n_deep;
        below = s->deep[idx];
        memmove(s->deep + idx, s->deep + idx + 1, (size_t)(total - idx - 1));
        s->deep[total - 1] = 0;
        s->n_deep--;
        s->deep_h[c]--;
    }
    s->top[c] = s->under[c];
    s->under[c] = (uint8_t)below;
    set_cell_bits(s, c, code);
    return code;
}

static void push_piece(icf_state *s, int c, int code)
{
    if (s->under[c]) { /* the under piece goes down into the pool */
        int idx = deep_offset(s, c) + s->deep_h[c], total = s->n_deep;
        memmove(s->deep + idx + 1, s->deep + idx, (size_t)(total - idx));
        s->deep[idx] = s->under[c];
        s->n_deep++;
        s->deep_h[c]++;
    }
    s->under[c] = s->top[c];
    s->top[c] = (uint8_t)code;
    set_cell_bits(s, c, s->under[c]);
}

/* Status after the move that made ply s->ply (ICF-R8, ICF-R9). */
static void settle(const icf_config *cf, icf_state *s, int mover, int dst)
{
    if (dst >= 0 && (cf->opp_starts[mover] >> dst & 1)) {
        s->status = ICF_WON;
        s->winner = (uint8_t)mover;
    } else if (s->passes >= cf->players) {
        s->status = ICF_DRAW_PASSES;
    } else if (s->ply >= cf->max_plies) {
        s->status = ICF_DRAW_PLIES;
    }
}

static void icf_apply(const pips_game *g, void *state, pips_move m)
{
    const icf_config *cf = CF(g);
    icf_state *s = state;
    int p = s->to_move, dst = -1;
    if (m == ICF_PASS) {
        s->passes++;
    } else {
        int src = move_src(m), code;
        dst = move_dst(m);
        if (src >= ICF_ENTER_BASE) {
            int z = src - ICF_ENTER_BASE + 1;
            s->supply[p][z]--;
            code = p << 2 | z;
        } else {
            code = pop_piece(s, src);
        }
        push_piece(s, dst, code);
        s->passes = 0;
    }
    s->ply++;
    s->to_move = (uint8_t)((p + 1) % cf->players);
    settle(cf, s, p, dst);
}

static void icf_returns(const pips_game *g, const void *state, double *out)
{
    const icf_state *s = state;
    int n = CF(g)->players;
    for (int p = 0; p < n; p++)
        out[p] = s->status == ICF_WON ? (p == s->winner ? 1.0 : 0.0) : 0.5;
}

static void icf_result_text(const pips_game *g, const void *state, pips_str *out)
{
    (void)g;
    const icf_state *s = state;
    switch (s->status) {
    case ICF_WON: pips_str_catf(out, "player %d wins", s->winner + 1); break;
    case ICF_DRAW_PASSES: pips_str_cat(out, "draw (every player passed)"); break;
    case ICF_DRAW_PLIES: pips_str_cat(out, "draw (move limit)"); break;
    default: pips_str_cat(out, "in progress"); break;
    }
}

/* The lab's cap rate: a draw by max_plies (ICF-R11) is a cap. */
static bool icf_capped(const pips_game *g, const void *state)
{
    (void)g;
    return ((const icf_state *)state)->status == ICF_DRAW_PLIES;
}

/* ---- move text ---- */

static void icf_move_to_text(const pips_game *g, const void *state, pips_move m, char *buf)
{
    (void)state;
    const icf_config *cf = CF(g);
    if (m == ICF_PASS) {
        snprintf(buf, PIPS_MOVE_TEXT_MAX, "pass");
        return;
    }
    int src = move_src(m);
    char dn[4], sn[4];
    cell_name(cf, move_dst(m), dn);
    if (src >= ICF_ENTER_BASE) {
        snprintf(buf, PIPS_MOVE_TEXT_MAX, "%c+%s", SIZE_CH[src - ICF_ENTER_BASE + 1], dn);
    } else {
        cell_name(cf, src, sn);
        snprintf(buf, PIPS_MOVE_TEXT_MAX, "%s-%s", sn, dn);
    }
}

static bool icf_move_from_text(const pips_game *g, const void *state, const char *text,
                               pips_move *m, pips_error *err)
{
    (void)state;
    const icf_config *cf = CF(g);
    const char *p = text;
    while (*p == ' ')
        p++;
    size_t len = strlen(p);
    while (len && p[len - 1] == ' ')
        len--;
    if (len == 4 && !strncmp(p, "pass", 4)) {
        *m = ICF_PASS;
        return true;
    }
    int src, dst, z = size_of_char(*p);
    const char *q = p;
    if (z && p[1] == '+') {
        q = p + 2;
        src = ICF_ENTER_BASE + z - 1;
    } else if (read_cell(cf, &q, &src)) {
        if (*q != '-')
            return pips_fail(err, PIPS_ERR_ARG,
                             "move '%.40s': expected '-' after the first cell (e.g. c3-d4)",
                             text);
        q++;
    } else {
        return pips_fail(err, PIPS_ERR_ARG,
                         "move '%.40s': expected SIZE+CELL (M+b1), CELL-CELL (c3-d4) or pass",
                         text);
    }
    if (!read_cell(cf, &q, &dst))
        return pips_fail(err, PIPS_ERR_ARG,
                         "move '%.40s': '%.8s' is not a cell (rows a..i, numbered from the left)",
                         text, q);
    if ((size_t)(q - p) != len)
        return pips_fail(err, PIPS_ERR_ARG, "move '%.40s': unexpected text after the cell",
                         text);
    *m = make_move(src, dst);
    return true;
}

/* ---- state text ---- */

/* "CELL:PIECES ... ply=N passes=K", pieces bottom first as owner digit and
 * size letter ("c3:1L2M1S"), '-' for an empty board. Supplies, whose turn
 * and the result follow from these. */
static void icf_state_to_text(const pips_game *g, const void *state, pips_str *out)
{
    const icf_config *cf = CF(g);
    const icf_state *s = state;
    int off = 0;
    bool any = false;
    uint8_t stack[ICF_POOL];
    for (int c = 0; c < ICF_GRID; off += s->deep_h[c], c++) {
        int h = read_stack(s, c, off, stack);
        if (!h)
            continue;
        char nm[4];
        cell_name(cf, c, nm);
        pips_str_catf(out, "%s:", nm);
        for (int i = 0; i < h; i++)
            pips_str_catf(out, "%d%c", powner(stack[i]) + 1, SIZE_CH[psize(stack[i])]);
        pips_str_cat(out, " ");
        any = true;
    }
    if (!any)
        pips_str_cat(out, "- ");
    pips_str_catf(out, "ply=%d passes=%d", s->ply, s->passes);
}

/* Sets the board of s (zeroed before) from stacks listed bottom first. */
static void set_stacks(icf_state *s, const uint8_t (*stacks)[ICF_POOL], const int *heights)
{
    int n = 0;
    for (int c = 0; c < ICF_GRID; c++) {
        int h = heights[c];
        for (int i = 0; i + 2 < h; i++)
            s->deep[n++] = stacks[c][i];
        s->deep_h[c] = (uint8_t)(h > 2 ? h - 2 : 0);
        s->under[c] = h >= 2 ? stacks[c][h - 2] : 0;
        s->top[c] = h ? stacks[c][h - 1] : 0;
        set_cell_bits(s, c, 0); /* s starts empty */
    }
    s->n_deep = (uint8_t)n;
}

static bool icf_state_from_text(const pips_game *g, const char *text, void *state,
                                pips_error *err)
{
    const icf_config *cf = CF(g);
    uint8_t stacks[ICF_GRID][ICF_POOL];
    int heights[ICF_GRID] = {0}, count[ICF_MAX_PLAYERS][4];
    memset(count, 0, sizeof count);
    long ply = -1, passes = -1;
    bool dash = false;
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        long at = p - text;
        const char *end = p;
        while (*end && *end != ' ')
            end++;
        char tok[160];
        size_t tl = (size_t)(end - p);
        if (tl >= sizeof tok)
            return pips_fail(err, PIPS_ERR_ARG, "state at char %ld: token too long", at);
        memcpy(tok, p, tl);
        tok[tl] = '\0';
        p = end;
        if (!strcmp(tok, "-")) {
            dash = true;
            continue;
        }
        if (!strncmp(tok, "ply=", 4)) {
            if (ply >= 0 || !pips_parse_int(tok + 4, 0, cf->max_plies, &ply))
                return pips_fail(err, PIPS_ERR_ARG,
                                 "state at char %ld: '%s': ply must be 0..%d, given once", at,
                                 tok, cf->max_plies);
            continue;
        }
        if (!strncmp(tok, "passes=", 7)) {
            if (passes >= 0 || !pips_parse_int(tok + 7, 0, cf->players, &passes))
                return pips_fail(err, PIPS_ERR_ARG,
                                 "state at char %ld: '%s': passes must be 0..%d, given once", at,
                                 tok, cf->players);
            continue;
        }
        const char *q = tok;
        int c;
        if (!read_cell(cf, &q, &c) || *q != ':')
            return pips_fail(err, PIPS_ERR_ARG,
                             "state at char %ld: '%s': expected CELL:PIECES (c3:1L2M), "
                             "ply=N or passes=N",
                             at, tok);
        if (heights[c])
            return pips_fail(err, PIPS_ERR_ARG, "state at char %ld: cell %.3s listed twice",
                             at, tok);
        q++;
        int last = 4;
        while (*q) {
            int owner = *q - '1', z = size_of_char(q[1]);
            if (owner < 0 || owner >= cf->players || !z)
                return pips_fail(err, PIPS_ERR_ARG,
                                 "state at char %ld: '%s': a piece is a player 1..%d and S, M "
                                 "or L (e.g. 2M)",
                                 at, tok, cf->players);
            if (z > last)
                return pips_fail(err, PIPS_ERR_ARG,
                                 "state at char %ld: '%s': a piece never rests on a smaller one "
                                 "(ICF-R4, ICF-R5)",
                                 at, tok);
            if (++count[owner][z] > ICF_PER_SIZE)
                return pips_fail(err, PIPS_ERR_ARG,
                                 "state: player %d has more than %d pieces of size %c", owner + 1,
                                 ICF_PER_SIZE, SIZE_CH[z]);
            stacks[c][heights[c]++] = (uint8_t)(owner << 2 | z);
            last = z;
            q += 2;
        }
        if (!heights[c])
            return pips_fail(err, PIPS_ERR_ARG, "state at char %ld: '%s' lists no pieces", at,
                             tok);
    }
    bool any_cell = false;
    for (int c = 0; c < ICF_GRID; c++)
        any_cell |= heights[c] > 0;
    if (dash && any_cell)
        return pips_fail(err, PIPS_ERR_ARG, "state: '-' means an empty board but cells are listed");
    if (ply < 0 || passes < 0)
        return pips_fail(err, PIPS_ERR_ARG, "state: ply=N and passes=N are required");
    if (passes > ply)
        return pips_fail(err, PIPS_ERR_ARG, "state: more passes than plies");
    icf_state s;
    memset(&s, 0, sizeof s);
    set_stacks(&s, (const uint8_t (*)[ICF_POOL])stacks, heights);
    for (int pl = 0; pl < cf->players; pl++)
        for (int z = 1; z <= 3; z++)
            s.supply[pl][z] = (uint8_t)(ICF_PER_SIZE - count[pl][z]);
    s.ply = (uint16_t)ply;
    s.passes = (uint8_t)passes;
    s.to_move = (uint8_t)(ply % cf->players);
    /* Start spaces: empty, except the one where the game was just won. */
    int last_mover = (int)((ply + cf->players - 1) % cf->players), won_at = -1;
    for (int pl = 0; pl < cf->players; pl++) {
        int st = cf->start[pl];
        if (!heights[st])
            continue;
        char nm[4];
        cell_name(cf, st, nm);
        int owner = powner(s.top[st]);
        if (owner == pl)
            return pips_fail(err, PIPS_ERR_ARG,
                             "state: player %d's piece on their own start space %s (ICF-R3)",
                             pl + 1, nm);
        if (heights[st] > 1 || won_at >= 0 || owner != last_mover || ply == 0 || passes)
            return pips_fail(err, PIPS_ERR_ARG,
                             "state: start space %s is occupied, but the game would have ended "
                             "earlier (ICF-R8)",
                             nm);
        won_at = st;
    }
    if (won_at >= 0) {
        s.status = ICF_WON;
        s.winner = (uint8_t)last_mover;
    } else if (passes >= cf->players) {
        s.status = ICF_DRAW_PASSES;
    } else if (ply >= cf->max_plies) {
        s.status = ICF_DRAW_PLIES;
    }
    memcpy(state, &s, sizeof s);
    return true;
}

static uint64_t icf_hash(const pips_game *g, const void *state)
{
    (void)g;
    const icf_state *s = state;
    const icf_config *cf = CF(g);
    uint64_t h = cf->zobrist_turn[s->to_move] ^ cf->zobrist_passes[s->passes];
    uint8_t stack[ICF_POOL];
    for (int c = 0, off = 0; c < ICF_GRID; off += s->deep_h[c], c++) {
        int n = read_stack(s, c, off, stack);
        for (int i = 0; i < n; i++)
            h ^= pips_zobrist_key((uint64_t)(c * ICF_POOL + i) * 32 + stack[i]);
    }
    return h;
}

/* ---- render ---- */

/* Terminal columns of a UTF-8 text without escapes (continuation bytes take none). */
static int text_width(const char *t)
{
    int w = 0;
    for (; *t; t++)
        w += ((unsigned char)*t & 0xC0) != 0x80;
    return w;
}

static const char *player_colour(int p)
{
    static const char *const COL[ICF_MAX_PLAYERS] = {"\033[1;31m", "\033[1;34m",
                                                     "\033[1;32m", "\033[1;33m",
                                                     "\033[1;35m", "\033[1;36m"};
    return COL[p % ICF_MAX_PLAYERS];
}

static void icf_render(const pips_game *g, const void *state, const pips_render_opts *ro,
                       pips_str *out)
{
    const icf_config *cf = CF(g);
    const icf_state *s = state;
    /* Cell x position in half-cell units: 2q + r, from -6 to 6; 3 chars per unit. */
    for (int row = ICF_ROWS - 1; row >= 0; row--) {
        for (int line = 0; line < 2; line++) {
            pips_str_catf(out, "%c  ", line == 0 ? 'a' + row : ' ');
            int col_chars = 0;
            for (int c = 0; c < ICF_GRID; c++) {
                if (!(cf->board >> c & 1) || cf->row[c] != row)
                    continue;
                int x = (2 * cf->q[c] + cf->r[c] + 6) * 3;
                for (; col_chars < x; col_chars++)
                    pips_str_cat(out, " ");
                int start_of = -1;
                for (int pl = 0; pl < cf->players; pl++)
                    if (cf->start[pl] == c)
                        start_of = pl;
                /* A field is 4-5 characters ("1M/3"), but the buffer has room for
                 * any int the formats below print, so none can truncate. */
                char field[32];
                const char *colour = NULL;
                if (line == 0) {
                    char nm[4];
                    cell_name(cf, c, nm);
                    if (start_of >= 0) {
                        snprintf(field, sizeof field, "[%s]", nm);
                        colour = player_colour(start_of);
                    } else {
                        snprintf(field, sizeof field, " %s ", nm);
                    }
                } else if (!s->top[c]) {
                    if (start_of >= 0)
                        snprintf(field, sizeof field, " P%d ", start_of + 1);
                    else
                        snprintf(field, sizeof field, "  %s ", ro->unicode ? "·" : ".");
                    colour = start_of >= 0 ? player_colour(start_of) : NULL;
                } else {
                    int code = s->top[c];
                    if (s->under[c])
                        snprintf(field, sizeof field, "%d%c/%d", powner(code) + 1,
                                 SIZE_CH[psize(code)], stack_height(s, c) % 100);
                    else
                        snprintf(field, sizeof field, " %d%c ", powner(code) + 1,
                                 SIZE_CH[psize(code)]);
                    colour = player_colour(powner(code));
                }
                if (ro->colour && colour)
                    pips_str_cat(out, colour);
                pips_str_cat(out, field);
                if (ro->colour && colour)
                    pips_str_cat(out, "\033[0m");
                col_chars += text_width(field);
            }
            pips_str_cat(out, "\n");
        }
    }
    pips_str_cat(out, "(a piece is PLAYER+SIZE, e.g. 1M; 1M/3 = top of a stack of 3)\n");
    bool header = false;
    uint8_t stack[ICF_POOL];
    for (int c = 0, off = 0; c < ICF_GRID; off += s->deep_h[c], c++) {
        int h = read_stack(s, c, off, stack);
        if (h > 1) {
            char nm[4];
            cell_name(cf, c, nm);
            pips_str_catf(out, "%s %s:", header ? "," : "stacks, bottom first:", nm);
            for (int i = 0; i < h; i++)
                pips_str_catf(out, " %d%c", powner(stack[i]) + 1, SIZE_CH[psize(stack[i])]);
            header = true;
        }
    }
    if (header)
        pips_str_cat(out, "\n");
    pips_str_cat(out, "supply:");
    for (int pl = 0; pl < cf->players; pl++)
        pips_str_catf(out, "  P%d S%d M%d L%d", pl + 1, s->supply[pl][1], s->supply[pl][2],
                      s->supply[pl][3]);
    pips_str_catf(out, "\nply %d/%d   ", s->ply, cf->max_plies);
    if (s->status)
        icf_result_text(g, s, out);
    else
        pips_str_catf(out, "player %d to move", s->to_move + 1);
    pips_str_cat(out, "\n");
}

/* ---- symmetry ---- */

/* With two players the left-right reflection of the star keeps both start
 * spaces (a1 and i1) and every rule, so a position and its mirror image have
 * the same value; the canonical form is the byte-wise smaller of the two.
 * With three players the reflection swaps the start spaces of players 2 and
 * 3, which changes the seat order, so the form is the position itself. */
static void icf_canonical(const pips_game *g, const void *state, void *out)
{
    const icf_config *cf = CF(g);
    const icf_state *s = state;
    if (cf->players != 2) {
        memcpy(out, s, sizeof *s);
        return;
    }
    uint8_t stacks[ICF_GRID][ICF_POOL];
    int heights[ICF_GRID] = {0};
    for (int c = 0, off = 0; c < ICF_GRID; off += s->deep_h[c], c++)
        if (cf->board >> c & 1)
            heights[cf->mirror[c]] = read_stack(s, c, off, stacks[cf->mirror[c]]);
    icf_state m = *s;
    memset(m.top, 0, sizeof m.top);
    memset(m.under, 0, sizeof m.under);
    memset(m.deep_h, 0, sizeof m.deep_h);
    memset(m.deep, 0, sizeof m.deep);
    m.occ = m.ge2 = m.ge3 = 0;
    memset(m.own, 0, sizeof m.own);
    set_stacks(&m, (const uint8_t (*)[ICF_POOL])stacks, heights);
    memcpy(out, memcmp(&m, s, sizeof m) < 0 ? (const void *)&m : state, sizeof m);
}

/* ---- AI hooks ---- */

/* Could player p, were it to move in s, end a move on an opponent's start
 * space (ICF-R8, R11)? */
static bool can_win_now(const icf_config *cf, const icf_state *s, int p)
{
    icf_state t;
    if (p != s->to_move) { /* the generator reads the player to move */
        t = *s;
        t.to_move = (uint8_t)p;
        s = &t;
    }
    int src[ICF_MAX_SOURCES];
    uint64_t dest[ICF_MAX_SOURCES], all = 0;
    int k = source_sets(cf, s, src, dest);
    for (int i = 0; i < k; i++)
        all |= dest[i];
    return (all & cf->opp_starts[p]) != 0;
}

/* Three seats or more: the seat that wins within two moves whatever is
 * played, as far as that is settled, or -1: the mover when it can win at
 * once; the next seat when it could win now and every move of the mover
 * (a pass included) leaves it a winning move. */
static int settled_winner(const pips_game *g, const icf_state *s)
{
    const icf_config *cf = CF(g);
    int mover = s->to_move, next = (mover + 1) % cf->players;
    if (can_win_now(cf, s, mover))
        return mover;
    if (!can_win_now(cf, s, next))
        return -1; /* a move that opens a win for the next seat is the mover's choice */
    pips_move moves[ICF_MAX_SOURCES * ICF_CELLS];
    size_t n = gen_moves(cf, s, moves, false);
    for (size_t i = 0; i < n; i++) {
        icf_state child = *s;
        icf_apply(g, &child, moves[i]);
        if (child.status || !can_win_now(cf, &child, next))
            return -1;
    }
    return next;
}

/* Progress of each player: for every piece of theirs on top of a stack, how
 * close it is to the nearest opponent start space (closer counts more),
 * plus a little for pieces still in supply. Squashed to [0, 1] against the
 * best opponent.
 * With three seats or more, a position whose winner is settled within two
 * moves (settled_winner) is that seat's (1, the others 0, as if it were
 * over), whoever steered play into it: so the seat whose move opened the
 * way scores it 0, below every open one (squashed progress never reaches
 * 0), and a one-ply agent stops handing the game to another (issue 24). Two seats keep the plain progress values, which their
 * measured levels (all searches that see the reply) were tuned on. */
static void icf_evaluate(const pips_game *g, const void *state, double *out)
{
    const icf_config *cf = CF(g);
    const icf_state *s = state;
    int winner = cf->players >= 3 ? settled_winner(g, s) : -1;
    if (winner >= 0) {
        for (int p = 0; p < cf->players; p++)
            out[p] = p == winner ? 1.0 : 0.0;
        return;
    }
    /* each player's top pieces from its mask, in cell order as a scan of
     * the grid would add them (the playtest lab calls this after every turn) */
    double score[ICF_MAX_PLAYERS] = {0};
    for (int p = 0; p < cf->players; p++)
        for (uint64_t mine = s->own[p]; mine; mine &= mine - 1) {
            int c = __builtin_ctzll(mine);
            double close = 9.0 - cf->dist_goal[p][c];
            score[p] += close * close * (1.0 + 0.2 * psize(s->top[c]));
        }
    for (int p = 0; p < cf->players; p++) {
        double best_other = -1e9;
        for (int o = 0; o < cf->players; o++)
            if (o != p && score[o] > best_other)
                best_other = score[o];
        double diff = score[p] - best_other + (p == s->to_move ? 10.0 : 0.0);
        out[p] = 1.0 / (1.0 + exp(-diff / 60.0));
    }
}

/* Winning moves first, then moves that gain the most ground. */
static void icf_order_moves(const pips_game *g, const void *state, const pips_move *moves,
                            size_t n, int *scores)
{
    const icf_config *cf = CF(g);
    const icf_state *s = state;
    int p = s->to_move;
    for (size_t i = 0; i < n; i++) {
        if (moves[i] == ICF_PASS) {
            scores[i] = 0;
            continue;
        }
        int src = move_src(moves[i]), dst = move_dst(moves[i]);
        if (cf->opp_starts[p] >> dst & 1) {
            scores[i] = 1000;
            continue;
        }
        int from = src >= ICF_ENTER_BASE ? cf->start[p] : src;
        scores[i] = 10 * (cf->dist_goal[p][from] - cf->dist_goal[p][dst]) + 20;
    }
}

static const char *const AUTO_WORD[] = {"auto", NULL};

static const pips_option_def icf_options[] = {
    {"players", "2", "players, on the star tips (ICF-R2; 4-6 experimental, ICF-R10)",
     .type = PIPS_OPT_INT, .min = 2, .max = ICF_MAX_PLAYERS},
    {"max_plies", "auto", "moves (passes included) before a draw; auto = 150 x players (ICF-R11)",
     .type = PIPS_OPT_INT, .min = 1, .max = 10000, .choices = AUTO_WORD},
};

static const char ICF_RULES[] =
    "IceFrogs (Jason Spears & Erik Oosterwal, 2008), 2 to 6 players. Each player has 15\n"
    "pyramids of their colour in supply: 5 small (S), 5 medium (M), 5 large (L).\n"
    "\n"
    "ICF-R1 The star. 37 cells: a hexagon of 19 cells with a 3-cell triangle on each side.\n"
    "  Cells hold stacks; only the top piece of a stack moves.\n"
    "ICF-R2 Start spaces. Star tips. 2 players: P1 a1 (bottom tip), P2 i1 (top tip).\n"
    "  3 players: P1 a1, P2 g1 (upper left tip), P3 g7 (upper right tip).\n"
    "ICF-R3 A turn. Move one of your pieces that is on top of a stack, or put a pyramid\n"
    "  from your supply on your start space and move it from there. The piece must move\n"
    "  and may not end on its own start space.\n"
    "ICF-R4 Step. To an adjacent cell that is empty or whose top piece is at least as big.\n"
    "  A step ends the move.\n"
    "ICF-R5 Jump. Over an adjacent occupied cell whose top piece is at most as big,\n"
    "  landing just beyond. Landing on a top at least as big: the piece stacks and the\n"
    "  move ends; on a smaller top: not allowed; on an empty cell: stop, jump again, or\n"
    "  make one final step onto an adjacent top at least as big. No plain step to an\n"
    "  empty cell after a jump. Jumping is never compulsory.\n"
    "ICF-R6 Start spaces may be jumped through, but never ended on by their owner.\n"
    "ICF-R7 A move is its source and final cell: different paths to one final cell are\n"
    "  one move; a move that ends where it began is no move.\n"
    "ICF-R8 Winning. Ending a move on an opponent's start space wins at once.\n"
    "ICF-R9 No move. A player without a legal move passes. If every player passes in\n"
    "  succession, or after max_plies moves (passes included), the game is drawn.\n"
    "\n"
    "Experimental (the rulebook: \"more players may be possible but it needs to be tested\"):\n"
    "ICF-R10 players=2..6. Seats take the star tips in turning order T0 a1, T1 c1, T2 g1,\n"
    "  T3 i1, T4 g7, T5 c7: 2 players T0 T3, 3 players T0 T2 T4 (as ICF-R2), 4 players\n"
    "  T0 T1 T3 T4 (seats 1 and 3 face each other, as do 2 and 4), 5 players T0..T4,\n"
    "  6 players all. An unused tip is an ordinary cell. Turns go in seat order.\n"
    "ICF-R11 Winning as ICF-R8: ending on any opponent's start space wins at once (the\n"
    "  mover scores 1, everyone else 0). max_plies defaults to 150 x players.\n";

static const char ICF_NOTATION[] =
    "Cells: rows a (bottom tip) to i (top tip), each numbered from the left: a1; b1 b2;\n"
    "c1..c7; d1..d6; e1..e5; f1..f6; g1..g7; h1 h2; i1. The board drawing shows the names.\n"
    "Moves: SIZE+CELL enters a pyramid from supply and gives the cell where it ends\n"
    "(S+b1, M+c4, L+b2); FROM-TO moves a top piece and gives where it ends (c3-d4,\n"
    "b2-e3 after jumps); pass (only when forced). Sizes may be lower case.\n"
    "State text: the stacks bottom first as CELL:PIECES, a piece being the player number\n"
    "(1..6) and size (c3:1L2M1S), then ply=N passes=K, e.g. 'b1:1M h2:2S ply=2 passes=0';\n"
    "'-' stands for an empty board.\n";

#include "icefrogs_view.inc"

const pips_game_def pips_icefrogs_def = {
    .name = "icefrogs",
    .title = "IceFrogs",
    .rules_text = ICF_RULES,
    .notation_text = ICF_NOTATION,
    .options = icf_options,
    .n_options = sizeof icf_options / sizeof icf_options[0],
    .config_size = sizeof(icf_config),
    .state_size = sizeof(icf_state),
    .flags = PIPS_GAME_MOVE_TEXT_FIXED,
    /* about 0.2 s of perft and 0.6 s of playouts (~140 plies each) */
    .bench_perft_depth = 7,
    .bench_playouts = 8000,
    .configure = icf_configure,
    .num_players = icf_num_players,
    .max_moves = icf_max_moves,
    .initial = icf_initial,
    .to_move = icf_to_move,
    .legal_moves = icf_legal_moves,
    .count_moves = icf_count_moves,
    .random_move = icf_random_move,
    .check_move = icf_check_move,
    .apply = icf_apply,
    .returns = icf_returns,
    .result_text = icf_result_text,
    .capped = icf_capped,
    .move_to_text = icf_move_to_text,
    .move_from_text = icf_move_from_text,
    .state_to_text = icf_state_to_text,
    .state_from_text = icf_state_from_text,
    .hash = icf_hash,
    .render = icf_render,
    .state_view = icf_state_view,
    .evaluate = icf_evaluate,
    .order_moves = icf_order_moves,
    /* measured ladder in docs/ai.md; shuffle=1 lets alphabeta games vary */
    .levels = {"greedy", "mcts:iters=1000", "alphabeta:depth=4,shuffle=1",
               "alphabeta:depth=6,shuffle=1"},
    /* 3 to 6 seats: issue 24, docs/ai.md "Levels for three to six seats".
     * Four seats: neighbouring tips make the game a race that only a seat
     * which parries its neighbour's threat survives; greedy never parries,
     * so against greedy every lone seat but the first loses whatever it
     * plays (hard would win 1/4). Medium there is a small max^n search,
     * which parries, and hard a larger one; max models the searching seats
     * as searchers (opp=adapt), docs/ai.md "Max: opponents that search"; at
     * five and six seats too (docs/ai.md "Five and six seats: max"). */
    .levels_n = {{"random", "greedy", "mcts:iters=1000,order=eval,opp=greedy",
                  "mcts:iters=1000,order=eval,opp=adapt,settle=1"},
                 {"random", "mcts:iters=100,order=eval", "mcts:iters=1000,order=eval",
                  "mcts:iters=10000,order=eval,opp=adapt"},
                 {"random", "greedy", "mcts:iters=1000,order=eval,opp=greedy",
                  "mcts:iters=1000,order=eval,opp=adapt,settle=1"}},
    .canonical = icf_canonical,
};
