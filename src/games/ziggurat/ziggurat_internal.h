/*
 * ziggurat_internal.h — the private layout shared by the Ziggurat game
 * (ziggurat.c) and its record reader/writer (record.c): locations, pieces,
 * the state, the config and the move encoding.
 *
 * Locations: 0..63 are board squares, index = 8*(rank-1) + (file-1)
 * (a1 = 0, h8 = 63); 64 + c is the Start of colour c. Colours are indexed in
 * the board's rotation order Red 0, Green 1, Yellow 2, Blue 3 (ZIG-R1);
 * turn order is a separate table. A piece byte is 0 (none) or
 * 1 + colour + 4*queen. Piles are kept bottom first; unused slots are zero.
 */
#ifndef PIPS_ZIGGURAT_INTERNAL_H
#define PIPS_ZIGGURAT_INTERNAL_H

#include "pips/game.h"

#define ZIG_BOARD 64
#define ZIG_LOCS 68
#define ZIG_MAXH 16
#define ZIG_PATH 62
#define ZIG_NOLOC 255
#define ZIG_MAX_MOVES 800

enum { ZIG_RED = 0, ZIG_GREEN = 1, ZIG_YELLOW = 2, ZIG_BLUE = 3 };

/* Action faces, in the d8 table's order (face = index + 1). */
enum { ACT_TIP, ACT_SWAP, ACT_HOP, ACT_DIG, ACT_AIM, ACT_WILD, ACT_LEAP, ACT_REDO, ACT_NONE };

enum { PH_ROLL, PH_STEP, PH_RA, PH_RB, PH_OVER };

/* Turn flags. */
enum {
    F_MOVE = 1,       /* the movement value is unused */
    F_ACT = 2,        /* the action is unused */
    F_PLAIN = 4,      /* after RA: the movement allows a plain Move only */
    F_RB = 8,         /* RB was taken: the action face is a reroll */
    F_STEPPED = 16    /* a step was taken this turn */
};

enum { RES_NONE, RES_DRAW, RES_WIN };

typedef struct zig_state {
    uint8_t pile[ZIG_LOCS][ZIG_MAXH];
    uint8_t height[ZIG_LOCS];
    uint8_t mover;    /* colour taking its turn */
    uint8_t phase;
    uint8_t move_val; /* movement value (after the d6's +1); 0 before the roll */
    uint8_t action;   /* ACT_*; ACT_NONE before the roll */
    uint8_t flags;
    uint8_t result;   /* RES_* */
    uint8_t winner;   /* colour whose finish decided the game */
    uint8_t pad;
    uint32_t turns;   /* colour-turns completed */
    /* Derived from the board piles (kept in step by every change, rebuilt
     * by state_from_text): occupied squares, stacks, and per colour the
     * squares whose top / bottom piece is of that colour. */
    uint64_t occ, stacks;
    uint64_t top[4], bottom[4];
} zig_state;

/* Move kinds (bits 0-4); from (bits 8-15), to (16-23), a (24-31), b (32-39). */
enum {
    K_MOVE = 1, K_AIM, K_HOP, K_QMOVE, K_QAIM, K_QHOP, K_LEAP, K_DIG, K_SWAPA, K_SWAPB, K_TIP,
    K_RA, K_RB, K_END,
    K_ROLL,    /* opening roll: a = movement value, b = action face */
    K_ROLL_RA, /* RA's movement reroll: a = value */
    K_ROLL_RB  /* RB's action reroll: a = face */
};

static inline pips_move zig_mk(int kind, int from, int to, int a, int b)
{
    return (pips_move)kind | (pips_move)from << 8 | (pips_move)to << 16 | (pips_move)a << 24 |
           (pips_move)b << 32;
}
static inline int zig_kind(pips_move m) { return (int)(m & 0xff); }
static inline int zig_from(pips_move m) { return (int)(m >> 8 & 0xff); }
static inline int zig_to(pips_move m) { return (int)(m >> 16 & 0xff); }
static inline int zig_a(pips_move m) { return (int)(m >> 24 & 0xff); }
static inline int zig_b(pips_move m) { return (int)(m >> 32 & 0xff); }

enum { MODE_STANDARD, MODE_TWO_COLOUR, MODE_TEAMS };

typedef struct zig_config {
    int players, mode;
    unsigned present;  /* bit per colour in play */
    int n_turn;        /* colours in the turn cycle */
    uint8_t turn_order[4];
    uint8_t next_mover[4]; /* the colour after each in turn order */
    int seat_of[4];    /* seat of each colour (-1 when absent) */
    int n_seats;
    bool d6, treehouse, queen;
    int queen_height[4]; /* by colour (ZIG-R27) */
    int first, max_turns, npieces, ccw;
    int n_move_faces, n_action_faces, bonus;
    /* geometry */
    uint8_t path[4][ZIG_PATH];
    uint8_t pidx[4][ZIG_LOCS];  /* index on the colour's path, ZIG_NOLOC if none */
    uint8_t goal[4], entry[4];
    int8_t entry_dir[4];        /* direction index of the Start's forward Tip */
    uint64_t stops[4];          /* board squares that are stop squares per colour */
    uint8_t level[ZIG_LOCS];
    int8_t lx[ZIG_LOCS], ly[ZIG_LOCS];
    uint64_t goal_mask;
    uint8_t nb[ZIG_LOCS][8];     /* board neighbour per direction, ZIG_NOLOC off board */
    uint8_t dig_to[64][8];       /* ZIG-R11 Dig targets, in direction order */
    uint8_t n_dig[64];
    uint8_t tip_ok[64];          /* directions whose first landing is not uphill */
    uint8_t fwd_dir[4][64];      /* direction of forward(c, square) */
    uint8_t ahead[4][ZIG_LOCS];  /* the next square on c's path, ZIG_NOLOC at or off its end */
    /* The same as board masks, for move generation by bit sets: */
    uint64_t nb_mask[64];        /* the board neighbours of a square */
    uint64_t start_nb[4][8];     /* the Start's board neighbour in each direction */
    uint64_t fwd_mask[4][8];     /* squares whose fwd_dir[c] is d */
    uint64_t tip_mask[8];        /* squares whose tip_ok has direction d */
    pips_move roll_moves[64], ra_moves[8], rb_moves[8];
    uint64_t zob_piece[ZIG_LOCS][ZIG_MAXH][9];
    uint64_t zob_misc[8][256];
} zig_config;

static const int ZIG_DX[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int ZIG_DY[8] = {1, 1, 0, -1, -1, -1, 0, 1};
static const char *const ZIG_DIR_NAME[8] = {"N", "NE", "E", "SE", "S", "SW", "W", "NW"};
static const char ZIG_COLOUR_CH[4] = {'R', 'G', 'Y', 'B'};
static const char ZIG_ACT_CH[9] = {'T', 'S', 'H', 'D', 'A', 'W', 'L', 'R', '-'};
static const char *const ZIG_ACTION_NAME[8] = {"Tip", "Swap", "Hop", "Dig",
                                               "Aim", "Wild", "Leap", "Redo"};

/* The step/outcome token of m (ziggurat.c); buf holds PIPS_MOVE_TEXT_MAX bytes. */
void pips_zig_move_text(const zig_config *k, pips_move m, char *buf);

#endif
