/*
 * noname_impl.h — private types shared by the Noname sources: the model
 * constants (NON-R17), the configuration, the fixed-size state and the
 * geometry/rules core (noname_geom.c) used by the interface (noname.c) and
 * the candidate generator (noname_cand.c).
 *
 * Units: coordinates are integers in 0.1 mm, angles integers in 0.1 degree
 * (NON §4). Geometry is computed in double in 0.1 mm units, so EPS is
 * 1e-6 mm = 1e-5 units.
 *
 * State invariants: table pieces are kept in increasing id order in
 * table[0..n_table); every cached double (footprint, normals, circle, ray,
 * hit distance) is a pure function of the piece's integer fields and of the
 * other pieces, computed by the same code on every path (apply and
 * state_from_text), so equal positions are byte-equal. Unused table slots
 * and struct bytes are zero; target is -1 when a piece points at nothing
 * (hit_t is then 0).
 */
#ifndef PIPS_NONAME_IMPL_H
#define PIPS_NONAME_IMPL_H

#include "pips/game.h"

#define NN_COLOURS 10     /* r y g b k w p o c x */
#define NN_PER_SIZE 5     /* pieces of one size in one colour */
#define NN_MAX_SEATS 8
#define NN_MAX_TABLE (NN_MAX_SEATS * 3 * NN_PER_SIZE)
#define NN_EPS 1e-5       /* NON-R17: 1e-6 mm in 0.1 mm units */
#define NN_MAX_COORD 65535 /* largest coordinate the move encoding holds (6553.5 mm) */
#define NN_CAND_MAX 256   /* most candidates per call (option candidates) */

extern const char NN_COLOUR_CH[NN_COLOURS];
extern const char NN_SIZE_CH[4];
extern const int NN_BASE[4];   /* base width w per size, 0.1 mm (NON §2) */
extern const int NN_FACE[4];   /* face length l per size, 0.1 mm (NON §2) */

enum { NN_CAPTURE_COLOUR = 0, NN_CAPTURE_PLACER = 1 };
enum { NN_MULTI_COLOUR = 0, NN_MULTI_ANY = 1, NN_MULTI_OFF = 2 };

typedef struct nn_config {
    int players;
    int capture_to;     /* NN_CAPTURE_* */
    int multi_attacker; /* NN_MULTI_* */
    int turn_cap;       /* 0 = none */
    int width, height;  /* table size, 0.1 mm */
    int first_player;   /* seat index 0.. */
    int candidates;     /* candidates written per call (not a rule option) */
} nn_config;

/* One piece on the table. Field order leaves no padding bytes. */
typedef struct nn_piece {
    double vx[4], vy[4];   /* footprint corners, counter-clockwise */
    double nx[4], ny[4];   /* unit outward normal of edge i -> i+1 */
    double minx, maxx, miny, maxy; /* bounding box of the footprint */
    double cx, cy, rad;    /* a circle holding the footprint */
    double ux, uy;         /* heading of an attacker (0 for a defender) */
    double hit_t;          /* distance to the target, 0.1 mm (0 without one) */
    int32_t x, y;          /* upright: centre; lying: tip */
    uint32_t id;
    int16_t angle;         /* upright: theta mod 900; lying: phi 0..3599 */
    uint8_t colour;        /* 0..NN_COLOURS-1 */
    uint8_t size;          /* 1..3 */
    uint8_t lying;         /* 1 = attacker */
    uint8_t nvert;         /* 3 or 4 */
    int8_t target;         /* table index of the target, -1 = none */
    uint8_t zero_pad[5];
} nn_piece;

/* The fields the quick rejects read, kept contiguous for the scans. */
typedef struct nn_box {
    double minx, maxx, miny, maxy, cx, cy, rad, zero;
} nn_box;

#define NN_GRID 16 /* broad phase: the table cut into NN_GRID x NN_GRID cells */

typedef struct nn_state {
    nn_piece table[NN_MAX_TABLE];
    nn_box box[NN_MAX_TABLE]; /* box[i] mirrors table[i] */
    /* Bit i of a cell: table[i]'s box, grown by NN_GRID_MARGIN, meets the cell. */
    uint64_t grid[NN_GRID * NN_GRID][2];
    uint8_t pad[NN_MAX_SEATS][NN_COLOURS][4]; /* [seat][colour][size] counts */
    uint8_t seat_colour[NN_MAX_SEATS];
    uint32_t turn;       /* number of the next turn, from 1; the next id */
    int32_t width, height; /* the table, 0.1 mm (sizes the grid) */
    uint16_t n_table;
    uint8_t n_seats;
    uint8_t to_move;     /* seat */
    uint8_t passes;      /* consecutive turns without a placement (NON-R16) */
    uint8_t over;        /* 1 when the game has ended (NON §8) */
    uint8_t zero_pad2[6];
} nn_state;

_Static_assert(sizeof(nn_piece) % 8 == 0, "nn_piece has tail padding");
_Static_assert(sizeof(nn_state) == (sizeof(nn_piece) + sizeof(nn_box)) * NN_MAX_TABLE +
                                     NN_GRID * NN_GRID * 16 + 352, "nn_state has padding");

/* A decoded placement. */
typedef struct nn_place {
    bool skip;
    int colour, size;
    bool lying;
    int x, y, angle;
} nn_place;

/* ---- move encoding (noname_geom.c) ---- */
pips_move nn_encode(const nn_place *p);
bool nn_decode(pips_move m, nn_place *p); /* false when m is not a move shape */

/* ---- geometry ---- */
void nn_trig(int angle_tenths, double *c, double *s);
/* Builds the piece's footprint and cached geometry from its integer fields. */
void nn_build_piece(nn_piece *pc, const nn_place *p, uint32_t id);
bool nn_overlap(const nn_piece *a, const nn_piece *b);
/* How far the footprint sticks out of the table, 0.1 mm (<= EPS: inside). */
double nn_outside(const nn_piece *p, int width, int height);
/* Ray from tip (tx,ty) along (ux,uy) against footprint q: true on a hit, *t = entry. */
bool nn_ray_hit(double tx, double ty, double ux, double uy, const nn_piece *q, double *t);
/* The target of attacker index a over the table (id-order scan, NON-R5). */
int nn_scan_target(const nn_state *s, const nn_piece *a, int self, double *t);
/* nn_scan_target(s, a, -1, &t) == j for an attacker a not on the table,
 * faster: once j is known to be hit, only pieces entered no later than it
 * are scanned (the candidate generator's test of an aimed attack). */
bool nn_targets(const nn_state *s, const nn_piece *a, int j);
/* The same scan over every piece, without the grid (a reference for tests). */
int nn_scan_target_all(const nn_state *s, const nn_piece *a, int self, double *t);
/* Empties the table and sizes the grid for a width x height table. */
void nn_table_reset(nn_state *s, int width, int height);
/* Attacker index i's target if pc were appended (index n_table); no change. */
int nn_target_with(const nn_state *s, int i, const nn_piece *pc, double *t);

/* ---- rules core ---- */
int nn_seat_of_colour(const nn_state *s, int colour);
int nn_pad_total(const nn_state *s, int seat);
bool nn_pads_empty(const nn_state *s);
/* Appends a built piece to the table (ids increase). */
void nn_table_append(nn_state *s, const nn_piece *pc);
/* The first table piece the placement overlaps, or -1. */
int nn_first_overlap(const nn_state *s, const nn_piece *p);
/* Validates a placement for the mover; false with *err (state untouched). */
bool nn_check(const nn_config *c, const nn_state *s, const nn_place *p, pips_error *err);
/* Plays a legal placement or skip. Returns the captured piece's id or 0. */
uint32_t nn_play(const nn_config *c, nn_state *s, const nn_place *p);
void nn_recompute_targets(nn_state *s);
void nn_refresh_over(const nn_config *c, nn_state *s);
/* Per table piece: points aimed at it by each colour and attacker counts. */
typedef struct nn_pressure {
    uint8_t points[NN_MAX_TABLE][NN_COLOURS];
    uint8_t attackers[NN_MAX_TABLE][NN_COLOURS];
} nn_pressure;
void nn_pressure_of(const nn_state *s, nn_pressure *pr);
/* Score of table piece i (NON-R14) given the pressure. */
int nn_piece_score(const nn_state *s, const nn_pressure *pr, int i);
void nn_scores(const nn_state *s, int *out);
/* NON-R16: finds an upright placement on the whole-mm grid; false = no room. */
bool nn_find_room(const nn_config *c, const nn_state *s, nn_place *found);

/* ---- candidates (noname_cand.c) ---- */
size_t nn_candidates(const nn_config *c, const nn_state *s, pips_rng *rng, pips_move *out);
/* One legal move drawn like a pick from the candidates (playouts). */
pips_move nn_random_move(const nn_config *c, const nn_state *s, pips_rng *rng);

/* ---- the structured view (noname_view.c, pips/view.h) ---- */
bool nn_state_view(const pips_game *g, const void *state, struct json_t *view);

#endif
