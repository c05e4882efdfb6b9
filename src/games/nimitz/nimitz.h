/*
 * nimitz.h — private to Nimitz: the configured board, the state layout and
 * the fast placement generator shared by the game (nimitz.c) and its exact
 * solver (nimitz_solve.c).
 *
 * Cells are numbered 0..n-1 over the real cells of the layout, bottom rank
 * first and left to right within a rank, so every board fits a 64-bit mask.
 * A piece is 0..29 = colour * 3 + size (size 0 = S, 1 = M, 2 = L; colours
 * 0..9, `colors` keeps the first ones); a stack slot holds 1 + piece, 0 for
 * none. Orientations are 0..4 = U, N, E, S, W. With tree_orientation=shared
 * (NIM-R3) a tree has one orientation; with `free` each level has its own:
 * `lorient[c][l]` is the orientation of the piece at level l (0 when none),
 * `orient[c]` that of the bottom piece, the tree's in shared mode.
 *
 * Invariants of a state: the level masks, the per-cell arrays, the store,
 * `avail` and `placed` always agree; an empty cell has height 0, orientation 0 and zero
 * slots, and so does an empty level in lorient; `over` is 1 exactly when the
 * player to move has no placement.
 * Move encoding: cell << 8 | orientation << 5 | piece (the order of moves by
 * value is cell, orientation, piece).
 */
#ifndef PIPS_NIMITZ_H
#define PIPS_NIMITZ_H

#include "pips/game.h"

#define NIM_MAX_CELLS 64
#define NIM_MAX_SIDE 26 /* files are letters a..z */
#define NIM_MAX_COLOURS 10
#define NIM_PIECES (NIM_MAX_COLOURS * 3)
#define NIM_ORIENTS 5
#define NIM_MAX_SYMS 8

typedef struct nim_config {
    int cells, rows, cols;
    int players, sets, colours;
    bool misere;
    bool free_orient; /* tree_orientation=free (NIM-R3's variant) */
    int8_t cell_at[NIM_MAX_SIDE * NIM_MAX_SIDE]; /* row-major from rank 1; -1 = hole */
    uint8_t cell_row[NIM_MAX_CELLS];             /* 0 = rank 1 (bottom) */
    uint8_t cell_col[NIM_MAX_CELLS];             /* 0 = file a */
    uint64_t adj[NIM_MAX_CELLS];                 /* orthogonal neighbours */
    int n_syms;                                  /* board symmetries, identity first */
    uint8_t sym[NIM_MAX_SYMS][NIM_MAX_CELLS];    /* cell -> image cell */
    uint32_t clash[NIM_PIECES];  /* pieces sharing colour or size with p (NIM-R4) */
    uint32_t on_top[NIM_PIECES]; /* pieces that may stand on p (NIM-R2) */
    /* For the branch-free playout path: the neighbours of each cell padded
     * to four with the cell itself, and clash[] and on_top[] indexed by slot
     * value (0, no piece: nothing clashes and any piece may go). */
    uint8_t nbr[NIM_MAX_CELLS][4];
    uint32_t clash_slot[NIM_PIECES + 1];
    uint32_t on_top_slot[NIM_PIECES + 1];
    /* stack_orients[o]: the orientations a piece on a stack of orientation o
     * may take: o alone when shared (NIM-R3), all five when free. */
    uint32_t stack_orients[NIM_ORIENTS];
    uint64_t zob_piece[NIM_MAX_CELLS][3][NIM_PIECES];
    uint64_t zob_orient[NIM_MAX_CELLS][NIM_ORIENTS];
    uint64_t zob_level_orient[NIM_MAX_CELLS][3][NIM_ORIENTS]; /* free mode, levels 2-3 */
} nim_config;

typedef struct nim_state {
    uint64_t occ[3]; /* cells with a piece at level l (0-based) */
    uint8_t slot[NIM_MAX_CELLS][3];
    uint8_t lorient[NIM_MAX_CELLS][3]; /* orientation per level */
    uint8_t orient[NIM_MAX_CELLS];     /* the bottom piece's (the tree's) */
    uint8_t height[NIM_MAX_CELLS];
    uint8_t store[NIM_PIECES];
    uint8_t placed;
    uint8_t over;
    uint32_t avail; /* bit p: store[p] > 0 */
    uint8_t pad[4];
} nim_state;

static inline pips_move nim_make_move(int cell, int orient, int piece)
{
    return (pips_move)((unsigned)cell << 8 | (unsigned)orient << 5 | (unsigned)piece);
}
static inline int nim_move_cell(pips_move m) { return (int)(m >> 8); }
static inline int nim_move_orient(pips_move m) { return (int)(m >> 5 & 7); }
static inline int nim_move_piece(pips_move m) { return (int)(m & 31); }

/* The pieces (mask over 0..29) and orientations (mask over 0..4) that may go
 * on cell c now (NIM-R1..R4). Returns false when the cell is full. */
static inline bool nim_cell_options(const nim_config *cf, const nim_state *s, int c,
                                    unsigned avail, unsigned *pieces, unsigned *orients)
{
    int h = s->height[c];
    if (h == 3)
        return false;
    unsigned bad = 0, obad = 0;
    for (uint64_t nb = cf->adj[c] & s->occ[h]; nb; nb &= nb - 1) {
        int n = __builtin_ctzll(nb);
        bad |= cf->clash[s->slot[n][h] - 1];
        obad |= 1u << s->lorient[n][h];
    }
    unsigned pm = avail & ~bad, om = 31u & ~obad;
    if (h) { /* NIM-R2: smaller, other colour; NIM-R3: same orientation unless free */
        pm &= cf->on_top[s->slot[c][h - 1] - 1];
        om &= cf->stack_orients[s->lorient[c][h - 1]];
    }
    *pieces = pm;
    *orients = om;
    return true;
}

/* nim_cell_options() without data-dependent branches but the full-cell test,
 * for playouts, whose random positions make the neighbour loop's branches
 * mispredict. A padding neighbour is the cell itself, whose slot at its own
 * height is empty, so it rules nothing out; so does an empty neighbour. */
static inline bool nim_cell_options_flat(const nim_config *cf, const nim_state *s, int c,
                                         unsigned avail, unsigned *pieces, unsigned *orients)
{
    int h = s->height[c];
    if (h == 3)
        return false;
    const uint8_t *nb = cf->nbr[c];
    unsigned v0 = s->slot[nb[0]][h], v1 = s->slot[nb[1]][h];
    unsigned v2 = s->slot[nb[2]][h], v3 = s->slot[nb[3]][h];
    unsigned bad = cf->clash_slot[v0] | cf->clash_slot[v1] | cf->clash_slot[v2] |
                   cf->clash_slot[v3];
    unsigned obad = ((1u << s->lorient[nb[0]][h]) & (0u - (unsigned)(v0 != 0))) |
                    ((1u << s->lorient[nb[1]][h]) & (0u - (unsigned)(v1 != 0))) |
                    ((1u << s->lorient[nb[2]][h]) & (0u - (unsigned)(v2 != 0))) |
                    ((1u << s->lorient[nb[3]][h]) & (0u - (unsigned)(v3 != 0)));
    /* NIM-R2/R3 on a stack; an empty cell has slot[c][0] == 0 (any piece)
     * and any orientation. */
    int hb = h - (h > 0);
    unsigned below = s->slot[c][hb];
    *pieces = avail & ~bad & cf->on_top_slot[below];
    *orients = 31u & ~obad &
               (cf->stack_orients[s->lorient[c][hb]] | (0u - (unsigned)(h == 0)));
    return true;
}

/* Bits set in a 32-bit mask (no popcnt instruction is assumed). */
static inline unsigned nim_popcount(unsigned x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (x * 0x01010101u) >> 24;
}

/* Bit mask of the pieces still in the store. */
static inline unsigned nim_avail(const nim_state *s) { return s->avail; }

size_t nim_count(const nim_config *cf, const nim_state *s);
bool nim_any_move(const nim_config *cf, const nim_state *s);
size_t nim_generate(const nim_config *cf, const nim_state *s, pips_move *out);
/* A uniformly random legal move (as if picked from nim_generate's list), or
 * PIPS_MOVE_NONE when there is none. */
pips_move nim_random(const nim_config *cf, const nim_state *s, pips_rng *rng);
void nim_place(const nim_config *cf, nim_state *s, pips_move m);
void nim_unplace(const nim_config *cf, nim_state *s, pips_move m);

bool nim_solve(const pips_game *g, const void *state, const pips_solve_opts *so,
               pips_solve_result *res, pips_error *err);
/* def->known_value: the coaster's book (nimitz_book.inc). */
bool nim_known_value(const pips_game *g, const void *state, pips_value *v);
void nim_bench_extra(const pips_game *g, pips_str *out);
bool nim_state_view(const pips_game *g, const void *state, struct json_t *view); /* nimitz_view.c */
/* The agents' evaluation hook (nimitz_eval.c). */
void nim_evaluate(const pips_game *g, const void *state, double *out);

#endif
