/*
 * nimitz.c — Nimitz (Erik Oosterwal, 2010) under the project's rulings
 * NIM-R1..R5 (explained in docs/games/nimitz.md): options, the placement rules, move
 * and state text, hashing, the terminal drawing and the game definition.
 *
 * Two independent checks of NIM-R2..R4 live here on purpose: the mask-table
 * generator (nim_cell_options in nimitz.h: precomputed clash and stacking
 * masks over pieces) used for play, perft and the solver, and check_move,
 * which compares colour, size and orientation neighbour by neighbour to say
 * why a move is refused. The tests compare them on random positions. The
 * playout path (nim_random, nim_any_move) uses a branch-free twin of the
 * mask-table generator, nim_cell_options_flat; the tests check its draws
 * against the generator's list.
 *
 * Invariants: see nimitz.h. Whose turn it is and the store follow from the
 * pieces on the board, so the state text lists only the stacks.
 */
#include "games/nimitz/nimitz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Colours 1-5 are a Rainbow set's, 6-10 a Xeno set's (the rulings' colors=C). */
static const char COLOUR_CH[] = "roygbcpwkx";
static const char *const COLOUR_NAME[NIM_MAX_COLOURS] = {
    "red", "orange", "yellow", "green", "blue", "cyan", "purple", "white", "black", "clear"};
static const char SIZE_CH[] = "SML";
static const char *const SIZE_NAME[3] = {"small", "medium", "large"};
static const char ORIENT_CH[] = "UNESW";
static const char *const ORIENT_NAME[5] = {"upright", "north", "east", "south", "west"};

static const nim_config *cfg(const pips_game *g) { return g->config; }

typedef uint64_t nim_v2 __attribute__((vector_size(16)));

/* ---- generator (fast path) ---------------------------------------------- */

size_t nim_count(const nim_config *cf, const nim_state *s)
{
    unsigned avail = nim_avail(s);
    size_t n = 0;
    for (int c = 0; c < cf->cells; c++) {
        unsigned pm, om;
        if (nim_cell_options(cf, s, c, avail, &pm, &om))
            n += (size_t)nim_popcount(pm) * (size_t)nim_popcount(om);
    }
    return n;
}

bool nim_any_move(const nim_config *cf, const nim_state *s)
{
    unsigned avail = nim_avail(s);
    if (!avail)
        return false;
    for (int c = 0; c < cf->cells; c++) {
        unsigned pm, om;
        if (nim_cell_options_flat(cf, s, c, avail, &pm, &om) && pm && om)
            return true;
    }
    return false;
}

size_t nim_generate(const nim_config *cf, const nim_state *s, pips_move *out)
{
    unsigned avail = nim_avail(s);
    size_t n = 0;
    for (int c = 0; c < cf->cells; c++) {
        unsigned pm, om;
        if (!nim_cell_options(cf, s, c, avail, &pm, &om) || !pm || !om)
            continue;
        /* The pieces once, then two-lane stores per orientation. */
        nim_v2 list[NIM_PIECES / 2];
        uint64_t *flat = (uint64_t *)list;
        size_t k = 0;
        for (unsigned pb = pm; pb; pb &= pb - 1)
            flat[k++] = (uint64_t)__builtin_ctz(pb);
        for (unsigned ob = om; ob; ob &= ob - 1) {
            uint64_t b = nim_make_move(c, __builtin_ctz(ob), 0);
            nim_v2 base = {b, b};
            size_t i = 0;
            for (; 2 * i + 1 < k; i++) {
                nim_v2 v = list[i] | base;
                memcpy(out + n + 2 * i, &v, sizeof v);
            }
            if (k & 1)
                out[n + k - 1] = b | flat[k - 1];
            n += k;
        }
    }
    return n;
}

/* The index-th set bit of a 32-bit mask (0-based, index < popcount), by
 * halving the window without a branch (random ranks mispredict branches). */
static inline void rank_step(unsigned *mask, unsigned *index, int *at, int width)
{
    unsigned low = (unsigned)__builtin_popcount(*mask & ((1u << width) - 1));
    unsigned above = 0u - (unsigned)(*index >= low); /* all ones: the bit lies above */
    *index -= low & above;
    *mask >>= width & (int)above;
    *at += width & (int)above;
}

static inline int nth_bit32(unsigned mask, unsigned index)
{
    int at = 0;
    rank_step(&mask, &index, &at, 16);
    rank_step(&mask, &index, &at, 8);
    rank_step(&mask, &index, &at, 4);
    rank_step(&mask, &index, &at, 2);
    rank_step(&mask, &index, &at, 1);
    return at;
}

/* nth_bit32 for an orientation mask (5 bits): three halvings suffice. */
static inline int nth_bit8(unsigned mask, unsigned index)
{
    int at = 0;
    rank_step(&mask, &index, &at, 4);
    rank_step(&mask, &index, &at, 2);
    rank_step(&mask, &index, &at, 1);
    return at;
}

/* A uniformly random legal move, drawn by counting: cell c offers
 * |pieces| x |orientations| moves (the product nim_generate writes), so one
 * draw below the total picks a cell by its share, then an orientation and a
 * piece by the quotient and remainder. Every legal move has the same chance
 * 1/total, as when picking from the written list, and it is the very move
 * that list holds at the drawn index. */
pips_move nim_random(const nim_config *cf, const nim_state *s, pips_rng *rng)
{
    unsigned avail = nim_avail(s);
    if (!avail)
        return PIPS_MOVE_NONE;
    unsigned pms[NIM_MAX_CELLS], oms[NIM_MAX_CELLS], counts[NIM_MAX_CELLS], total = 0;
    for (int c = 0; c < cf->cells; c++) {
        unsigned pm = 0, om = 0;
        nim_cell_options_flat(cf, s, c, avail, &pm, &om);
        pms[c] = pm;
        oms[c] = om;
        counts[c] = (unsigned)__builtin_popcount(pm) * (unsigned)__builtin_popcount(om);
        total += counts[c];
    }
    if (!total)
        return PIPS_MOVE_NONE;
    unsigned r = (unsigned)pips_rng_below(rng, total);
    /* The cell: how many cells end at or below r (running totals grow, so
     * they are the first ones); r then counts from the cell's first move. */
    unsigned running = 0, before = 0;
    int c = 0;
    for (int i = 0; i < cf->cells; i++) {
        running += counts[i];
        unsigned passed = 0u - (unsigned)(running <= r);
        c += (int)(passed & 1);
        before = (before & ~passed) | (running & passed);
    }
    r -= before;
    unsigned per_orient = (unsigned)__builtin_popcount(pms[c]);
    unsigned oi = r / per_orient;
    return nim_make_move(c, nth_bit8(oms[c], oi), nth_bit32(pms[c], r - oi * per_orient));
}

void nim_place(const nim_config *cf, nim_state *s, pips_move m)
{
    (void)cf;
    int c = nim_move_cell(m), o = nim_move_orient(m), p = nim_move_piece(m);
    int h = s->height[c];
    s->occ[h] |= 1ull << c;
    if (h == 0)
        s->orient[c] = (uint8_t)o;
    s->lorient[c][h] = (uint8_t)o;
    s->slot[c][h] = (uint8_t)(p + 1);
    s->height[c] = (uint8_t)(h + 1);
    if (--s->store[p] == 0)
        s->avail &= ~(1u << p);
    s->placed++;
}

void nim_unplace(const nim_config *cf, nim_state *s, pips_move m)
{
    (void)cf;
    int c = nim_move_cell(m), p = nim_move_piece(m);
    int h = s->height[c] - 1;
    s->occ[h] &= ~(1ull << c);
    if (h == 0)
        s->orient[c] = 0;
    s->lorient[c][h] = 0;
    s->slot[c][h] = 0;
    s->height[c] = (uint8_t)h;
    s->store[p]++;
    s->avail |= 1u << p;
    s->placed--;
}

/* ---- options ------------------------------------------------------------- */

static void add_cell_grid(nim_config *cf, const bool *grid)
{
    cf->cells = 0;
    for (int r = 0; r < cf->rows; r++)
        for (int col = 0; col < cf->cols; col++) {
            int i = r * cf->cols + col;
            if (grid[i]) {
                cf->cell_at[i] = (int8_t)cf->cells;
                cf->cell_row[cf->cells] = (uint8_t)r;
                cf->cell_col[cf->cells] = (uint8_t)col;
                cf->cells++;
            } else {
                cf->cell_at[i] = -1;
            }
        }
}

static int cell_at(const nim_config *cf, int r, int col)
{
    if (r < 0 || col < 0 || r >= cf->rows || col >= cf->cols)
        return -1;
    return cf->cell_at[r * cf->cols + col];
}

/* Parses the board option into rows, cols and a cell grid (row 0 = rank 1). */
static bool parse_board(const char *v, nim_config *cf, bool *grid, pips_error *err)
{
    memset(grid, 0, sizeof(bool) * NIM_MAX_SIDE * NIM_MAX_SIDE);
    long r = 0, c = 0;
    if (!strcmp(v, "coaster") || !strcmp(v, "volcano")) {
        r = c = v[0] == 'c' ? 3 : 5;
    } else if (v[0] >= '0' && v[0] <= '9') {
        const char *x = strchr(v, 'x');
        char rows_text[16];
        if (!x || (size_t)(x - v) >= sizeof rows_text)
            return pips_fail(err, PIPS_ERR_ARG,
                             "option 'board': '%.64s' is not RxC (e.g. board=4x4)", v);
        memcpy(rows_text, v, (size_t)(x - v));
        rows_text[x - v] = '\0';
        if (!pips_parse_int(rows_text, 1, 64, &r) || !pips_parse_int(x + 1, 1, 64, &c))
            return pips_fail(err, PIPS_ERR_ARG,
                             "option 'board': '%.64s' is not RxC with R and C from 1 to 64", v);
        if (c > NIM_MAX_SIDE || r > NIM_MAX_SIDE)
            return pips_fail(err, PIPS_ERR_ARG,
                             "option 'board': %ldx%ld has a side over %d (files are a..z)", r,
                             c, NIM_MAX_SIDE);
        if (r * c > NIM_MAX_CELLS)
            return pips_fail(err, PIPS_ERR_ARG,
                             "option 'board': %ldx%ld has %ld cells, the limit is %d", r, c,
                             r * c, NIM_MAX_CELLS);
    } else if (v[0] == '#' || v[0] == '.') {
        /* rows top first, separated by '/' */
        long nrows = 1, width = -1, cur = 0;
        for (const char *p = v;; p++) {
            if (*p == '#' || *p == '.') {
                cur++;
            } else if (*p == '/' || *p == '\0') {
                if (cur == 0)
                    return pips_fail(err, PIPS_ERR_ARG,
                                     "option 'board': layout row %ld is empty", nrows);
                if (width >= 0 && cur != width)
                    return pips_fail(err, PIPS_ERR_ARG,
                                     "option 'board': layout row %ld has %ld cells, row 1 has "
                                     "%ld (pad with '.')",
                                     nrows, cur, width);
                width = cur;
                cur = 0;
                if (*p == '\0')
                    break;
                nrows++;
            } else {
                return pips_fail(err, PIPS_ERR_ARG,
                                 "option 'board': layout character '%c' at %ld is not '#' "
                                 "(cell), '.' (hole) or '/' (next row)",
                                 *p, (long)(p - v) + 1);
            }
        }
        if (nrows > NIM_MAX_SIDE || width > NIM_MAX_SIDE)
            return pips_fail(err, PIPS_ERR_ARG,
                             "option 'board': layout is %ldx%ld, sides are limited to %d", nrows,
                             width, NIM_MAX_SIDE);
        r = nrows;
        c = width;
        long row = 0, col = 0, count = 0;
        for (const char *p = v; *p; p++) {
            if (*p == '/') {
                row++;
                col = 0;
                continue;
            }
            if (*p == '#') {
                grid[(r - 1 - row) * c + col] = true;
                count++;
            }
            col++;
        }
        if (count == 0)
            return pips_fail(err, PIPS_ERR_ARG, "option 'board': layout has no cell ('#')");
        if (count > NIM_MAX_CELLS)
            return pips_fail(err, PIPS_ERR_ARG,
                             "option 'board': layout has %ld cells, the limit is %d", count,
                             NIM_MAX_CELLS);
        cf->rows = (int)r;
        cf->cols = (int)c;
        return true;
    } else {
        return pips_fail(err, PIPS_ERR_ARG,
                         "option 'board': '%.64s' is not coaster, volcano, RxC or a layout of "
                         "'#' and '.' rows separated by '/'",
                         v);
    }
    for (long i = 0; i < r * c; i++)
        grid[i] = true;
    cf->rows = (int)r;
    cf->cols = (int)c;
    return true;
}

/* The dihedral transforms of the bounding grid that map cells onto cells. */
static void find_symmetries(nim_config *cf)
{
    cf->n_syms = 0;
    for (int t = 0; t < 8; t++) {
        bool swap = t & 4;
        int nr = swap ? cf->cols : cf->rows, nc = swap ? cf->rows : cf->cols;
        if (nr != cf->rows || nc != cf->cols)
            continue;
        bool ok = true;
        uint8_t map[NIM_MAX_CELLS];
        for (int i = 0; i < cf->cells && ok; i++) {
            int r = cf->cell_row[i], c = cf->cell_col[i];
            if (t & 1)
                c = cf->cols - 1 - c;
            if (t & 2)
                r = cf->rows - 1 - r;
            if (swap) {
                int tmp = r;
                r = c;
                c = tmp;
            }
            int j = cell_at(cf, r, c);
            ok = j >= 0;
            map[i] = (uint8_t)(ok ? j : 0);
        }
        if (ok)
            memcpy(cf->sym[cf->n_syms++], map, sizeof map);
    }
}

static bool nim_configure(const pips_game *g, void *config, pips_error *err)
{
    nim_config *cf = config;
    memset(cf, 0, sizeof *cf);
    bool grid[NIM_MAX_SIDE * NIM_MAX_SIDE];
    if (!parse_board(pips_options_get(&g->options, "board"), cf, grid, err))
        return false;
    long v;
    if (!pips_option_int(&g->options, "players", 2, 6, &v, err))
        return false;
    cf->players = (int)v;
    if (!pips_option_int(&g->options, "sets", 1, 4, &v, err))
        return false;
    cf->sets = (int)v;
    if (!pips_option_int(&g->options, "colors", 2, NIM_MAX_COLOURS, &v, err))
        return false;
    cf->colours = (int)v;
    if (!pips_option_bool(&g->options, "misere", &cf->misere, err))
        return false;
    int tree;
    if (!pips_game_opt_choice(g, "tree_orientation", &tree, err))
        return false;
    cf->free_orient = tree == 1; /* NIM-R3's variant: TREE_ORIENTATION_CHOICES[1] */
    for (int o = 0; o < NIM_ORIENTS; o++)
        cf->stack_orients[o] = cf->free_orient ? 31u : 1u << o;
    add_cell_grid(cf, grid);
    for (int i = 0; i < cf->cells; i++) {
        static const int dr[4] = {1, -1, 0, 0}, dc[4] = {0, 0, 1, -1};
        for (int d = 0; d < 4; d++) {
            int j = cell_at(cf, cf->cell_row[i] + dr[d], cf->cell_col[i] + dc[d]);
            if (j >= 0)
                cf->adj[i] |= 1ull << j;
        }
    }
    find_symmetries(cf);
    for (int p = 0; p < NIM_PIECES; p++)
        for (int q = 0; q < NIM_PIECES; q++) {
            if (p / 3 == q / 3 || p % 3 == q % 3)
                cf->clash[p] |= 1u << q;
            if (p / 3 != q / 3 && q % 3 < p % 3)
                cf->on_top[p] |= 1u << q;
        }
    cf->on_top_slot[0] = (1u << NIM_PIECES) - 1;
    for (int p = 0; p < NIM_PIECES; p++) {
        cf->clash_slot[p + 1] = cf->clash[p];
        cf->on_top_slot[p + 1] = cf->on_top[p];
    }
    for (int i = 0; i < cf->cells; i++) {
        int k = 0;
        for (uint64_t nb = cf->adj[i]; nb; nb &= nb - 1)
            cf->nbr[i][k++] = (uint8_t)__builtin_ctzll(nb);
        while (k < 4)
            cf->nbr[i][k++] = (uint8_t)i;
    }
    for (int c = 0; c < NIM_MAX_CELLS; c++) {
        for (int l = 0; l < 3; l++)
            for (int p = 0; p < NIM_PIECES; p++) /* the five Rainbow colours' keys first */
                cf->zob_piece[c][l][p] =
                    pips_zobrist_key(p < 15 ? (uint64_t)(c * 3 + l) * 16 + (uint64_t)p
                                            : 8192 + (uint64_t)(c * 3 + l) * 16 + (uint64_t)p);
        for (int o = 0; o < NIM_ORIENTS; o++) {
            cf->zob_orient[c][o] = pips_zobrist_key(4096 + (uint64_t)c * 8 + (uint64_t)o);
            for (int l = 0; l < 3; l++)
                cf->zob_level_orient[c][l][o] =
                    pips_zobrist_key(16384 + (uint64_t)(c * 3 + l) * 8 + (uint64_t)o);
        }
    }
    return true;
}

/* ---- interface ------------------------------------------------------------ */

static int nim_num_players(const pips_game *g) { return cfg(g)->players; }

static size_t nim_max_moves(const pips_game *g)
{
    const nim_config *cf = cfg(g);
    return (size_t)cf->cells * (size_t)cf->colours * 3 * NIM_ORIENTS;
}

static void nim_initial(const pips_game *g, void *state)
{
    const nim_config *cf = cfg(g);
    nim_state *s = state;
    memset(s, 0, sizeof *s);
    for (int p = 0; p < cf->colours * 3; p++) {
        s->store[p] = (uint8_t)cf->sets;
        s->avail |= 1u << p;
    }
}

static int nim_to_move(const pips_game *g, const void *state)
{
    const nim_state *s = state;
    return s->over ? PIPS_OVER : s->placed % cfg(g)->players;
}

static size_t nim_legal_moves(const pips_game *g, const void *state, pips_move *out)
{
    const nim_state *s = state;
    return s->over ? 0 : nim_generate(cfg(g), s, out);
}

static bool nim_random_move(const pips_game *g, const void *state, pips_rng *rng,
                            pips_move *out)
{
    const nim_state *s = state;
    if (s->over)
        return false;
    *out = nim_random(cfg(g), s, rng);
    return *out != PIPS_MOVE_NONE;
}

static size_t nim_count_moves(const pips_game *g, const void *state)
{
    const nim_state *s = state;
    return s->over ? 0 : nim_count(cfg(g), s);
}

static void cell_name(const nim_config *cf, int c, char *buf, size_t n)
{
    (void)n; /* buffers are 8 bytes: a letter, at most 2 digits, NUL */
    int rank = cf->cell_row[c] + 1, i = 0;
    buf[i++] = (char)('a' + cf->cell_col[c]);
    if (rank >= 10)
        buf[i++] = (char)('0' + rank / 10);
    buf[i++] = (char)('0' + rank % 10);
    buf[i] = '\0';
}

static const char *piece_name(int p, char *buf, size_t n)
{
    snprintf(buf, n, "%s %s", COLOUR_NAME[p / 3], SIZE_NAME[p % 3]);
    return buf;
}

/* NIM-R1..R4, checked neighbour by neighbour so a refusal can say why. */
static bool nim_check_move(const pips_game *g, const void *state, pips_move m, pips_error *err)
{
    const nim_config *cf = cfg(g);
    const nim_state *s = state;
    if (s->over)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "the game is over");
    int c = nim_move_cell(m), o = nim_move_orient(m), p = nim_move_piece(m);
    if (m >> 14 || c >= cf->cells || o >= NIM_ORIENTS || p >= NIM_PIECES)
        return pips_fail(err, PIPS_ERR_ARG, "not a Nimitz move on this board");
    char cn[8], pn[32], nn[8];
    if (p / 3 >= cf->colours)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "colour %s is not in play (colors=%d)",
                         COLOUR_NAME[p / 3], cf->colours);
    if (!s->store[p])
        return pips_fail(err, PIPS_ERR_ILLEGAL, "no %s pyramid is left in the store (NIM-R1)",
                         piece_name(p, pn, sizeof pn));
    int h = s->height[c];
    cell_name(cf, c, cn, sizeof cn);
    if (h == 3)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "cell %s already holds a 3-level tree (NIM-R2)",
                         cn);
    if (h) {
        int below = s->slot[c][h - 1] - 1;
        if (below % 3 <= p % 3)
            return pips_fail(err, PIPS_ERR_ILLEGAL,
                             "a %s pyramid cannot go on the %s one on %s: a tree needs a "
                             "strictly smaller piece on top (NIM-R2)",
                             SIZE_NAME[p % 3], SIZE_NAME[below % 3], cn);
        if (below / 3 == p / 3)
            return pips_fail(err, PIPS_ERR_ILLEGAL,
                             "a %s pyramid cannot go on the %s one on %s: same colour (NIM-R2)",
                             COLOUR_NAME[p / 3], COLOUR_NAME[below / 3], cn);
        if (!cf->free_orient && s->orient[c] != o)
            return pips_fail(err, PIPS_ERR_ILLEGAL,
                             "the tree on %s points %s, so a piece on it must too (NIM-R3; "
                             "tree_orientation=free allows any)",
                             cn, ORIENT_NAME[s->orient[c]]);
    }
    for (int n = 0; n < cf->cells; n++) {
        if (!(cf->adj[c] >> n & 1) || s->height[n] <= h)
            continue;
        int q = s->slot[n][h] - 1;
        const char *what = q / 3 == p / 3 ? "colour"
                         : q % 3 == p % 3 ? "size"
                         : s->lorient[n][h] == o ? "orientation"
                                             : NULL;
        if (what) {
            cell_name(cf, n, nn, sizeof nn);
            piece_name(p, pn, sizeof pn);
            return pips_fail(err, PIPS_ERR_ILLEGAL,
                             "%s at level %d on %s shares its %s with the neighbour on %s at "
                             "that level (NIM-R4)",
                             pn, h + 1, cn, what, nn);
        }
    }
    return true;
}

static void nim_apply(const pips_game *g, void *state, pips_move m)
{
    nim_state *s = state;
    nim_place(cfg(g), s, m);
    s->over = !nim_any_move(cfg(g), s);
}

static void nim_undo(const pips_game *g, void *state, pips_move m)
{
    nim_state *s = state;
    nim_unplace(cfg(g), s, m);
    s->over = 0;
}

/* NIM-R5: the winner of a finished game. */
static int winner(const nim_config *cf, const nim_state *s)
{
    if (cf->misere)
        return s->placed % cf->players;
    return (s->placed + cf->players - 1) % cf->players;
}

static void nim_returns(const pips_game *g, const void *state, double *out)
{
    const nim_config *cf = cfg(g);
    int w = winner(cf, state);
    for (int p = 0; p < cf->players; p++)
        out[p] = p == w ? 1.0 : 0.0;
}

static void nim_result_text(const pips_game *g, const void *state, pips_str *out)
{
    const nim_config *cf = cfg(g);
    const nim_state *s = state;
    if (!s->over) {
        pips_str_cat(out, "in progress");
        return;
    }
    int w = winner(cf, s);
    pips_str_catf(out, "player %d wins (%s)", w + 1,
                  cf->misere ? "misere: could not place" : "made the last placement");
}

static void nim_move_to_text(const pips_game *g, const void *state, pips_move m, char *buf)
{
    (void)state;
    const nim_config *cf = cfg(g);
    int c = nim_move_cell(m), o = nim_move_orient(m), p = nim_move_piece(m);
    if (m >> 14 || c >= cf->cells || o >= NIM_ORIENTS || p >= NIM_PIECES) {
        snprintf(buf, PIPS_MOVE_TEXT_MAX, "?");
        return;
    }
    snprintf(buf, PIPS_MOVE_TEXT_MAX, "%c%c@%c%d:%c", COLOUR_CH[p / 3], SIZE_CH[p % 3],
             'a' + cf->cell_col[c], cf->cell_row[c] + 1, ORIENT_CH[o]);
}

static int index_of(const char *set, int n, char ch)
{
    if (ch >= 'A' && ch <= 'Z')
        ch = (char)(ch - 'A' + 'a');
    for (int i = 0; i < n; i++) {
        char t = set[i];
        if (t >= 'A' && t <= 'Z')
            t = (char)(t - 'A' + 'a');
        if (t == ch)
            return i;
    }
    return -1;
}

/* Reads a cell name (file letter, rank number) at *p. */
static bool read_cell(const nim_config *cf, const char **p, int *cell, char *why, size_t wn)
{
    const char *q = *p;
    char f = *q;
    if (f >= 'A' && f <= 'Z')
        f = (char)(f - 'A' + 'a');
    if (f < 'a' || f > 'z') {
        snprintf(why, wn, "expected a cell such as b2");
        return false;
    }
    q++;
    if (*q < '1' || *q > '9') {
        snprintf(why, wn, "expected a rank number after file '%c'", f);
        return false;
    }
    int rank = 0;
    while (*q >= '0' && *q <= '9' && rank < 1000)
        rank = rank * 10 + (*q++ - '0');
    int c = cell_at(cf, rank - 1, f - 'a');
    if (c < 0) {
        snprintf(why, wn, "%c%d is not a cell of this board", f, rank);
        return false;
    }
    *cell = c;
    *p = q;
    return true;
}

static bool nim_move_from_text(const pips_game *g, const void *state, const char *text,
                               pips_move *m, pips_error *err)
{
    const nim_config *cf = cfg(g);
    const nim_state *s = state;
    const char *p = text;
    while (*p == ' ')
        p++;
    int k = index_of(COLOUR_CH, cf->colours, *p);
    if (k < 0)
        return pips_fail(err, PIPS_ERR_ARG,
                         "move '%.40s': unknown colour '%c' (colours: %.*s)", text,
                         *p ? *p : ' ', cf->colours, COLOUR_CH);
    p++;
    int z = index_of(SIZE_CH, 3, *p);
    if (z < 0)
        return pips_fail(err, PIPS_ERR_ARG,
                         "move '%.40s': expected a size S, M or L after the colour", text);
    p++;
    if (*p++ != '@')
        return pips_fail(err, PIPS_ERR_ARG,
                         "move '%.40s': expected '@' after the piece (e.g. rL@b2:N)", text);
    int c;
    char why[64];
    if (!read_cell(cf, &p, &c, why, sizeof why))
        return pips_fail(err, PIPS_ERR_ARG, "move '%.40s': %s", text, why);
    int o;
    if (*p == ':') {
        p++;
        o = index_of(ORIENT_CH, NIM_ORIENTS, *p);
        if (o < 0)
            return pips_fail(err, PIPS_ERR_ARG,
                             "move '%.40s': unknown orientation '%c' (U, N, E, S or W)", text,
                             *p ? *p : ' ');
        p++;
    } else if (s->height[c] && !cf->free_orient) {
        o = s->orient[c]; /* NIM-R3: a tree keeps its orientation */
    } else if (s->height[c]) {
        return pips_fail(err, PIPS_ERR_ARG,
                         "move '%.40s': with tree_orientation=free a piece on a stack needs an "
                         "orientation too, e.g. %.8s:U (NIM-R3)",
                         text, text);
    } else {
        return pips_fail(err, PIPS_ERR_ARG,
                         "move '%.40s': a piece on an empty cell needs an orientation, e.g. "
                         "%.8s:U",
                         text, text);
    }
    while (*p == ' ')
        p++;
    if (*p)
        return pips_fail(err, PIPS_ERR_ARG, "move '%.40s': unexpected text '%.10s' at the end",
                         text, p);
    *m = nim_make_move(c, o, k * 3 + z);
    return true;
}

/* State text: occupied cells in cell order, "b2:N:rLoM" (cell, orientation,
 * pieces bottom first); "-" for an empty board. With tree_orientation=free a
 * tree whose levels differ lists one orientation per level, "b2:NEW:rLoMyS". */
static void nim_state_to_text(const pips_game *g, const void *state, pips_str *out)
{
    const nim_config *cf = cfg(g);
    const nim_state *s = state;
    bool first = true;
    for (int c = 0; c < cf->cells; c++) {
        if (!s->height[c])
            continue;
        pips_str_catf(out, "%s%c%d:%c", first ? "" : " ", 'a' + cf->cell_col[c],
                      cf->cell_row[c] + 1, ORIENT_CH[s->orient[c]]);
        bool one = true;
        for (int l = 1; l < s->height[c]; l++)
            one &= s->lorient[c][l] == s->orient[c];
        for (int l = 1; !one && l < s->height[c]; l++)
            pips_str_catn(out, &ORIENT_CH[s->lorient[c][l]], 1);
        pips_str_cat(out, ":");
        for (int l = 0; l < s->height[c]; l++) {
            int p = s->slot[c][l] - 1;
            char pc[2] = {COLOUR_CH[p / 3], SIZE_CH[p % 3]};
            pips_str_catn(out, pc, 2);
        }
        first = false;
    }
    if (first)
        pips_str_cat(out, "-");
}

static bool nim_state_from_text(const pips_game *g, const char *text, void *state,
                                pips_error *err)
{
    const nim_config *cf = cfg(g);
    nim_state s;
    nim_initial(g, &s);
    const char *p = text;
    while (*p == ' ')
        p++;
    if (*p == '-') {
        p++;
        while (*p == ' ')
            p++;
        if (*p)
            return pips_fail(err, PIPS_ERR_ARG, "state: unexpected text after '-'");
        memcpy(state, &s, sizeof s);
        return true;
    }
    if (!*p)
        return pips_fail(err, PIPS_ERR_ARG, "state: empty text (write '-' for an empty board)");
    while (*p) {
        long at = (long)(p - text) + 1;
        int c;
        char why[64];
        if (!read_cell(cf, &p, &c, why, sizeof why))
            return pips_fail(err, PIPS_ERR_ARG, "state at char %ld: %s", at, why);
        char cn[8];
        cell_name(cf, c, cn, sizeof cn);
        if (s.height[c])
            return pips_fail(err, PIPS_ERR_ARG, "state at char %ld: cell %s listed twice", at,
                             cn);
        /* One orientation for the whole tree, or (free only) one per level. */
        int lo[3], n_o = 0;
        if (*p == ':')
            for (p++; n_o < 3 && (lo[n_o] = index_of(ORIENT_CH, NIM_ORIENTS, *p)) >= 0; p++)
                n_o++;
        if (!n_o || *p != ':')
            return pips_fail(err, PIPS_ERR_ARG,
                             "state at char %ld: expected %s:O:PIECES with O one of U N E S W",
                             at, cn);
        if (n_o > 1 && !cf->free_orient)
            return pips_fail(err, PIPS_ERR_ARG,
                             "state at char %ld: %s lists %d orientations, but a tree keeps one "
                             "(NIM-R3; tree_orientation=free allows one per level)",
                             at, cn, n_o);
        p++;
        int o = lo[0], h = 0;
        while (*p && *p != ' ') {
            int k = index_of(COLOUR_CH, cf->colours, p[0]);
            int z = k < 0 ? -1 : index_of(SIZE_CH, 3, p[1]);
            if (z < 0)
                return pips_fail(err, PIPS_ERR_ARG,
                                 "state at char %ld: '%.2s' on %s is not a piece such as rL",
                                 (long)(p - text) + 1, p, cn);
            if (h == 3)
                return pips_fail(err, PIPS_ERR_ARG, "state: %s holds more than 3 pieces", cn);
            int piece = k * 3 + z;
            if (h) {
                int below = s.slot[c][h - 1] - 1;
                if (below % 3 <= z || below / 3 == k)
                    return pips_fail(err, PIPS_ERR_ARG,
                                     "state: the stack on %s is not a tree of smaller pieces of "
                                     "other colours (NIM-R2)",
                                     cn);
            }
            if (!s.store[piece])
                return pips_fail(err, PIPS_ERR_ARG,
                                 "state: more %s %s pyramids than the %d set(s) hold",
                                 COLOUR_NAME[k], SIZE_NAME[z], cf->sets);
            if (n_o > 1 && h >= n_o)
                return pips_fail(err, PIPS_ERR_ARG,
                                 "state: %s lists %d orientations for more pieces", cn, n_o);
            nim_place(cf, &s, nim_make_move(c, n_o > 1 ? lo[h] : o, piece));
            h++;
            p += 2;
        }
        if (!h)
            return pips_fail(err, PIPS_ERR_ARG, "state: %s lists no pieces", cn);
        if (n_o > 1 && n_o != h)
            return pips_fail(err, PIPS_ERR_ARG,
                             "state: %s lists %d orientations and %d piece(s) (give one, or "
                             "one a level)",
                             cn, n_o, h);
        while (*p == ' ')
            p++;
    }
    /* NIM-R4 holds between neighbours at every level of a reachable position. */
    for (int c = 0; c < cf->cells; c++)
        for (int n = c + 1; n < cf->cells; n++) {
            if (!(cf->adj[c] >> n & 1))
                continue;
            int lv = s.height[c] < s.height[n] ? s.height[c] : s.height[n];
            for (int l = 0; l < lv; l++) {
                int a = s.slot[c][l] - 1, b = s.slot[n][l] - 1;
                if (a / 3 == b / 3 || a % 3 == b % 3 || s.lorient[c][l] == s.lorient[n][l]) {
                    char cn[8], nn[8];
                    cell_name(cf, c, cn, sizeof cn);
                    cell_name(cf, n, nn, sizeof nn);
                    return pips_fail(err, PIPS_ERR_ARG,
                                     "state: %s and %s share a property at level %d (NIM-R4)",
                                     cn, nn, l + 1);
                }
            }
        }
    s.over = !nim_any_move(cf, &s);
    memcpy(state, &s, sizeof s);
    return true;
}

/* The canonical form under the symmetries the rulings allow (rules/nimitz.md,
 * "Symmetries"): the board layout's own, and any renaming of the colours
 * (every colour starts with the same count) and of the five orientations.
 * For each board symmetry the cells are read in the image's order and the
 * colours and orientations renamed in order of first appearance; the least
 * reading (a cell's sizes, orientation name, then its levels' colour names)
 * is rebuilt by placing its pieces on an empty board, so every symmetric
 * variant of a position gives the same state. With tree_orientation=free a
 * level's orientation is its own and this renaming would not be complete:
 * the state is returned as it is (no symmetry is used). */
static void nim_canonical(const pips_game *g, const void *state, void *out)
{
    const nim_config *cf = cfg(g);
    const nim_state *s = state;
    if (cf->free_orient) {
        memmove(out, state, sizeof *s);
        return;
    }
    enum { CODE = 5 }; /* a cell's reading: sizes, orientation, three colours */
    uint8_t best[NIM_MAX_CELLS * CODE], cur[NIM_MAX_CELLS * CODE];
    uint8_t best_at[NIM_MAX_CELLS], best_cmap[NIM_MAX_COLOURS], best_omap[NIM_ORIENTS];
    int n = cf->cells;
    for (int t = 0; t < cf->n_syms; t++) {
        uint8_t at[NIM_MAX_CELLS], cmap[NIM_MAX_COLOURS], omap[NIM_ORIENTS];
        memset(cmap, 0xff, sizeof cmap);
        memset(omap, 0xff, sizeof omap);
        int cnext = 0, onext = 0;
        for (int c = 0; c < n; c++)
            at[cf->sym[t][c]] = (uint8_t)c;
        for (int j = 0; j < n; j++) {
            int c = at[j], h = s->height[c];
            uint8_t *code = cur + j * CODE;
            memset(code, 0xff, CODE);
            code[0] = 0;
            for (int l = 0; l < h; l++)
                code[0] |= (uint8_t)(1u << ((s->slot[c][l] - 1) % 3));
            if (h == 0)
                continue;
            if (omap[s->orient[c]] == 0xff)
                omap[s->orient[c]] = (uint8_t)onext++;
            code[1] = omap[s->orient[c]];
            for (int l = 0; l < h; l++) {
                int col = (s->slot[c][l] - 1) / 3;
                if (cmap[col] == 0xff)
                    cmap[col] = (uint8_t)cnext++;
                code[2 + l] = cmap[col];
            }
        }
        if (t == 0 || memcmp(cur, best, (size_t)n * CODE) < 0) {
            memcpy(best, cur, (size_t)n * CODE);
            memcpy(best_at, at, sizeof at);
            memcpy(best_cmap, cmap, sizeof cmap);
            memcpy(best_omap, omap, sizeof omap);
        }
    }
    nim_state c;
    nim_initial(g, &c);
    for (int j = 0; j < n; j++) {
        int from = best_at[j];
        for (int l = 0; l < s->height[from]; l++) {
            int piece = s->slot[from][l] - 1, col = piece / 3;
            nim_place(cf, &c,
                      nim_make_move(j, best_omap[s->orient[from]], best_cmap[col] * 3 + piece % 3));
        }
    }
    c.over = s->over;
    memcpy(out, &c, sizeof c);
}

static uint64_t nim_hash(const pips_game *g, const void *state)
{
    const nim_config *cf = cfg(g);
    const nim_state *s = state;
    uint64_t h = 0;
    for (int c = 0; c < cf->cells; c++) {
        if (!s->height[c])
            continue;
        h ^= cf->zob_orient[c][s->orient[c]];
        for (int l = 0; l < s->height[c]; l++)
            h ^= cf->zob_piece[c][l][s->slot[c][l] - 1];
        if (cf->free_orient) /* shared trees: the bottom's orientation says it all */
            for (int l = 1; l < s->height[c]; l++)
                h ^= cf->zob_level_orient[c][l][s->lorient[c][l]];
    }
    return h;
}

/* ---- drawing ---------------------------------------------------------------- */

static const char *const COLOUR_ANSI[NIM_MAX_COLOURS] = {
    "\033[1;31m", "\033[1;38;5;208m", "\033[1;33m", "\033[1;32m", "\033[1;34m",
    "\033[1;36m", "\033[1;35m", "\033[1;97m", "\033[1;90m", "\033[2;37m"};
static const char *const ARROW_UNI[5] = {"\u25cf", "\u2191", "\u2192", "\u2193", "\u2190"};
static const char ARROW_ASCII[5] = {'o', '^', '>', 'v', '<'};

/* Each cell is CELL_WIDTH columns, " A cc cc cc ": the orientation sign,
 * then the pieces bottom first as colour letter + size letter; with
 * tree_orientation=free " Acc Acc Acc", each piece after its own sign. */
#define CELL_WIDTH 12
static void draw_sign(const pips_render_opts *ro, int o, pips_str *out)
{
    pips_str_cat(out, " ");
    if (ro->unicode)
        pips_str_cat(out, ARROW_UNI[o]);
    else
        pips_str_catn(out, &ARROW_ASCII[o], 1);
}

static void nim_render(const pips_game *g, const void *state, const pips_render_opts *ro,
                       pips_str *out)
{
    const nim_config *cf = cfg(g);
    const nim_state *s = state;
    const char *h = ro->unicode ? "\u2500" : "-";
    const char *v = ro->unicode ? "\u2502" : "|";
    /* box corners and joints: [top, middle, bottom][left, inner, right] */
    static const char *const joint_uni[3][3] = {{"\u250c", "\u252c", "\u2510"},
                                                {"\u251c", "\u253c", "\u2524"},
                                                {"\u2514", "\u2534", "\u2518"}};
    pips_str_cat(out, "   ");
    for (int col = 0; col < cf->cols; col++)
        pips_str_catf(out, "       %c     ", 'a' + col);
    pips_str_cat(out, "\n");
    for (int r = cf->rows - 1; r >= -1; r--) {
        int row_kind = r == cf->rows - 1 ? 0 : r >= 0 ? 1 : 2;
        pips_str_cat(out, "   ");
        for (int col = 0; col < cf->cols; col++) {
            pips_str_cat(out, ro->unicode ? joint_uni[row_kind][col ? 1 : 0] : "+");
            for (int k = 0; k < CELL_WIDTH; k++)
                pips_str_cat(out, h);
        }
        pips_str_cat(out, ro->unicode ? joint_uni[row_kind][2] : "+");
        pips_str_cat(out, "\n");
        if (r < 0)
            break;
        pips_str_catf(out, "%2d ", r + 1);
        for (int col = 0; col < cf->cols; col++) {
            int c = cell_at(cf, r, col);
            pips_str_cat(out, v);
            if (c < 0) {
                pips_str_cat(out, ro->unicode ? " \u2591\u2591\u2591\u2591\u2591\u2591\u2591\u2591\u2591\u2591 "
                                              : " ########## ");
                continue;
            }
            if (!s->height[c]) {
                pips_str_cat(out, ro->unicode ? "     \u00b7      " : "     .      ");
                continue;
            }
            if (!cf->free_orient)
                draw_sign(ro, s->orient[c], out);
            for (int l = 0; l < 3; l++) {
                if (l >= s->height[c]) {
                    pips_str_cat(out, cf->free_orient ? "    " : "   ");
                    continue;
                }
                int p = s->slot[c][l] - 1;
                if (cf->free_orient)
                    draw_sign(ro, s->lorient[c][l], out);
                else
                    pips_str_cat(out, " ");
                if (ro->colour)
                    pips_str_cat(out, COLOUR_ANSI[p / 3]);
                char pc[2] = {COLOUR_CH[p / 3], SIZE_CH[p % 3]};
                pips_str_catn(out, pc, 2);
                if (ro->colour)
                    pips_str_cat(out, "\033[0m");
            }
            pips_str_cat(out, cf->free_orient ? "" : " ");
        }
        pips_str_catf(out, "%s\n", v);
    }
    pips_str_cat(out, "cells: orientation (");
    for (int o = 0; o < NIM_ORIENTS; o++) {
        if (ro->unicode)
            pips_str_cat(out, ARROW_UNI[o]);
        else
            pips_str_catn(out, &ARROW_ASCII[o], 1);
        pips_str_catf(out, "=%c%s", ORIENT_CH[o], o < 4 ? " " : "");
    }
    pips_str_cat(out, cf->free_orient ? "), before each piece, bottom first\nstore:"
                                      : "), then pieces bottom first\nstore:");
    for (int k = 0; k < cf->colours; k++) {
        pips_str_cat(out, " ");
        if (ro->colour)
            pips_str_cat(out, COLOUR_ANSI[k]);
        pips_str_catf(out, "%c", COLOUR_CH[k]);
        for (int z = 2; z >= 0; z--)
            pips_str_catf(out, " %c%d", SIZE_CH[z], s->store[k * 3 + z]);
        if (ro->colour)
            pips_str_cat(out, "\033[0m");
        pips_str_cat(out, k + 1 < cf->colours ? " |" : "");
    }
    pips_str_catf(out, "\nplaced %d   ", s->placed);
    if (s->over)
        nim_result_text(g, s, out);
    else
        pips_str_catf(out, "player %d to move, %zu placements", s->placed % cf->players + 1,
                      nim_count(cf, s));
    pips_str_catf(out, "%s\n", cf->misere ? "   (misere)" : "");
}

/* ---- definition -------------------------------------------------------------- */

static const char *const TREE_ORIENTATION_CHOICES[] = {"shared", "free", NULL};
static const pips_option_def nim_options[] = {
    {"board", "coaster", "the board: Martian Coaster (3x3), volcano (5x5), a rectangle or a drawn layout",
     .type = PIPS_OPT_TEXT,
     .pattern = "coaster|volcano|RxC|layout of '#'/'.' rows joined by '/' (<= 64 cells)"},
    {"players", "2", "players, taking turns in seat order", .type = PIPS_OPT_INT, .min = 2,
     .max = 6},
    {"sets", "1", "identical Treehouse sets in the store", .type = PIPS_OPT_INT, .min = 1,
     .max = 4},
    {"colors", "5",
     "colours in play, the first of red, orange, yellow, green, blue (Rainbow), cyan, purple, "
     "white, black, clear (Xeno)",
     .type = PIPS_OPT_INT, .min = 2, .max = 10},
    {"misere", "false", "misere play: whoever makes the last placement loses (NIM-R5)",
     .type = PIPS_OPT_BOOL},
    {"tree_orientation", "shared",
     "shared: a piece on a stack takes the stack's orientation; free: any (NIM-R3)",
     .type = PIPS_OPT_CHOICE, .choices = TREE_ORIENTATION_CHOICES},
};

static const char NIM_RULES[] =
    "Nimitz (Erik Oosterwal, 2010) - an impartial placement game for 2 to 6 players.\n"
    "The store holds `sets` Treehouse sets: one small, medium and large pyramid of each\n"
    "colour (red, orange, yellow, green, blue from a Rainbow set, then cyan, purple, white,\n"
    "black, clear from a Xeno set; `colors` keeps the first ones, default 5). Players take\n"
    "turns in seat order; nobody owns pieces.\n"
    "\n"
    "NIM-R1 Move. Take any pyramid from the store and place it on an empty cell (level 1)\n"
    "  or on top of a cell's stack (level = height + 1).\n"
    "NIM-R2 Trees only. A piece on a stack must be strictly smaller than the top piece and\n"
    "  of another colour, so stacks are trees of at most 3 levels (L, M, S bottom up).\n"
    "NIM-R3 One orientation per tree. A piece on an empty cell is upright (U) or flat\n"
    "  pointing N, E, S or W; a piece on a stack takes the orientation of the stack.\n"
    "  tree_orientation=free: a piece on a stack may take any of the five.\n"
    "NIM-R4 Neighbours. For each orthogonal neighbour whose stack reaches the new piece's\n"
    "  level, the piece there at that level must differ from the new one in colour, in\n"
    "  size and in orientation. Other levels do not matter.\n"
    "NIM-R5 End. The game ends when the player to move cannot place. Normal play: the\n"
    "  player who placed last wins. Misere (misere=true): the player who cannot place wins.\n"
    "  Everyone else loses.\n";

static const char NIM_NOTATION[] =
    "A move is COLOUR SIZE @ CELL : ORIENTATION, e.g. rL@b2:N.\n"
    "  colour r o y g b (red orange yellow green blue), c p w k x with colors > 5 (cyan\n"
    "  purple white black clear), size S M L,\n"
    "  cell = file letter (a = left) + rank number (1 = bottom row),\n"
    "  orientation U (upright) or N E S W (flat, pointing that way).\n"
    "On a stack the orientation is the stack's (NIM-R3): it may be left out (oM@b2) and,\n"
    "if given, must be the stack's. Moves are always written with it, so the text of a move\n"
    "is unique. Letters are accepted in either case. With tree_orientation=free a piece on\n"
    "a stack may point anywhere and the orientation must be given.\n"
    "State text lists the occupied cells in order as CELL:O:PIECES (pieces bottom first),\n"
    "e.g. 'a1:U:rL b2:N:gLoMrS', or '-' for an empty board. Turn and store follow from it.\n"
    "A free tree whose levels differ gives one orientation a level: 'b2:NEW:gLoMrS'.\n";

const pips_game_def pips_nimitz_def = {
    .name = "nimitz",
    .title = "Nimitz",
    .rules_text = NIM_RULES,
    .notation_text = NIM_NOTATION,
    .options = nim_options,
    .n_options = sizeof nim_options / sizeof nim_options[0],
    .config_size = sizeof(nim_config),
    .state_size = sizeof(nim_state),
    .flags = PIPS_GAME_IMPARTIAL | PIPS_GAME_MOVE_TEXT_FIXED,
    .bench_perft_depth = 3,
    .bench_playouts = 200000,
    .bench_extra = nim_bench_extra,
    .configure = nim_configure,
    .num_players = nim_num_players,
    .max_moves = nim_max_moves,
    .initial = nim_initial,
    .to_move = nim_to_move,
    .legal_moves = nim_legal_moves,
    .count_moves = nim_count_moves,
    .check_move = nim_check_move,
    .random_move = nim_random_move,
    .apply = nim_apply,
    .undo = nim_undo,
    .returns = nim_returns,
    .result_text = nim_result_text,
    .move_to_text = nim_move_to_text,
    .move_from_text = nim_move_from_text,
    .state_to_text = nim_state_to_text,
    .state_from_text = nim_state_from_text,
    .hash = nim_hash,
    .canonical = nim_canonical,
    .render = nim_render,
    .state_view = nim_state_view,
    .solve = nim_solve,
    .known_value = nim_known_value,
    .evaluate = nim_evaluate,
    /* measured ladder in docs/ai.md; hard and max are the oracle (2 seats),
     * max alone with the coaster's book; their budgets are solver nodes on one
     * thread (about 1 s and 4 s of processor time), so a seed replays a game */
    .levels = {"random", "greedy", "oracle:positions=1000000,table_mb=64,book=0,fallback=greedy",
               "oracle:positions=4000000,fallback=greedy"},
    /* 3 to 6 seats: issue 24, docs/ai.md "Levels for three to six seats";
     * evals= caps the opening's costly searches by work, not time, so a
     * seed replays a game on any load; three-seat max models hard by searches
     * of hard's size (oppevals=); at four seats no search we could afford
     * is a measured step below max, so hard is greedy, medium a noisy
     * greedy, and max models the others as greedy (opp=adapt took the
     * noisy seats for searchers) ("Four seats in Nimitz and Noname:
     * searches cluster") */
    .levels_n = {{"random", "greedy", "mcts:iters=1000,evals=15000,opp=greedy",
                  "mcts:iters=3000,evals=120000,opp=adapt,oppiters=1000,oppevals=3000"},
                 {"random", "greedy:noise=0.6", "greedy",
                  "mcts:iters=3000,evals=60000,opp=greedy,settle=1"},
                 {"random", "greedy", "mcts:iters=1000,evals=15000,opp=greedy",
                  "mcts:iters=3000,evals=60000,opp=adapt,oppiters=100"}},
};
