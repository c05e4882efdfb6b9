/*
 * noname.h — what a front end needs to explain a Noname position beyond the
 * generic game interface: per-piece targets, hit distances, the points each
 * colour aims at a piece, who subdues it and what it scores; a preview of a
 * placement (its target, the attackers it would draw, the capture it would
 * make); building a move from its parts; and the two benchmarks.
 *
 * All functions take a game configured as "noname" and one of its states;
 * none changes the state. Colours are the letters r y g b k w p o c x, sizes
 * 'S', 'M', 'L'; lengths are in mm, coordinates in 0.1 mm, angles in 0.1 deg.
 */
#ifndef PIPS_NONAME_H
#define PIPS_NONAME_H

#include "pips/game.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const pips_game_def pips_noname_def;

#define NONAME_COLOURS "rygbkwpocx"

typedef struct noname_piece_info {
    unsigned id;
    char colour, size;       /* 'r'..; 'S' 'M' 'L' */
    bool lying;              /* attacker */
    int x, y, angle;         /* 0.1 mm, 0.1 deg (upright: centre, theta; lying: tip, heading) */
    unsigned target_id;      /* 0 = points at nothing (or a defender) */
    double hit_mm;           /* distance from the tip to the target */
    int points[10];          /* points aimed at this piece, by colour (NONAME_COLOURS order) */
    int attackers[10];       /* attackers aimed at this piece, by colour */
    char subdued_by[11];     /* letters of the colours subduing it, "" when free */
    bool own_linked;         /* NON-R14 */
    int score;               /* -v, 0 or +v for the player of its colour */
    int n_corners;           /* 4 upright (a square), 3 lying (tip first) */
    double corner_x[4], corner_y[4]; /* the footprint in mm, counter-clockwise */
} noname_piece_info;

/* Writes up to cap pieces in id order; returns how many are on the table. */
size_t noname_pieces(const pips_game *g, const void *state, noname_piece_info *out, size_t cap);

typedef struct noname_preview {
    unsigned new_id;          /* the id the placement would take */
    unsigned target_id;       /* what the new piece would point at (0 = nothing) */
    double hit_mm;
    size_t n_redirected;      /* attackers whose target would become the new piece */
    unsigned redirected[120]; /* their ids */
    unsigned captured_id;     /* the victim (0 = no capture) */
    int captured_to_seat;     /* the seat whose pad receives it (-1 without capture) */
} noname_preview;

/* Previews a placement: false with *err when it is illegal (as check_move). */
bool noname_preview_move(const pips_game *g, const void *state, pips_move m,
                         noname_preview *out, pips_error *err);

/* Builds a placement move. colour is a letter, size 'S'/'M'/'L'; lying picks
 * tip+heading, otherwise centre+theta (theta reduced mod 90 deg). Returns
 * PIPS_MOVE_NONE when a part is out of range. The skip is noname_skip(). */
pips_move noname_make_move(char colour, char size, bool lying, int x, int y, int angle);
pips_move noname_skip(void);

/* The footprint of a placement move in mm (for drawing a preview); returns
 * the number of corners (3 or 4), or 0 for the skip or a malformed move. */
int noname_move_footprint(pips_move m, double corner_x[4], double corner_y[4]);

/* Benchmarks (not timed tests), in process CPU time: random playouts from
 * candidates per second over `playouts` games from the start; and the mean
 * time in microseconds
 * of one legality check plus pointing update for a random placement among
 * `pieces` pieces already on the table (a players=8 game). */
double noname_bench_playouts(const pips_game *g, int playouts, uint64_t seed);
/* The same through pips_random_playout, which takes the random_move
 * shortcut (one candidate drawn per ply instead of the whole list). */
double noname_bench_fast_playouts(const pips_game *g, int playouts, uint64_t seed);
double noname_bench_placement_us(int pieces, int placements, uint64_t seed);

#ifdef __cplusplus
}
#endif
#endif
