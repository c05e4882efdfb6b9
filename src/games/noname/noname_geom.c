/*
 * noname_geom.c — the Noname geometry and rules core: the model constants
 * (NON-R17), footprints (NON §4), the separating-axis overlap test with EPS,
 * table bounds, Cyrus-Beck ray clipping with EPS-pushed edges, the pointing
 * scan with its lower-id tie-break (NON-R5), capture with E1/E2 (NON-R6..R11),
 * skipping and the game end (NON-R12, R13, R16), and scoring (NON-R14, R15).
 *
 * Invariants: every function is deterministic and depends only on its
 * arguments; the cached geometry in a piece is rebuilt by nn_build_piece
 * alone, and targets are always what a full id-order scan gives, so states
 * reached by play and by state text are byte-equal.
 */
#include "games/noname/noname_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char NN_COLOUR_CH[NN_COLOURS] = {'r', 'y', 'g', 'b', 'k', 'w', 'p', 'o', 'c', 'x'};
const char NN_SIZE_CH[4] = {'?', 'S', 'M', 'L'};
const int NN_BASE[4] = {0, 143, 198, 254};
const int NN_FACE[4] = {0, 264, 363, 463};

/* ---- move encoding: bits 0-3 colour+1 (0 = skip), 4-5 size, 6 lying,
 * 8-23 x, 24-39 y, 40-51 angle. The skip is the move 0. ---- */

pips_move nn_encode(const nn_place *p)
{
    if (p->skip)
        return 0;
    return (pips_move)(p->colour + 1) | (pips_move)p->size << 4 | (pips_move)(p->lying ? 1 : 0)
           << 6 | (pips_move)p->x << 8 | (pips_move)p->y << 24 | (pips_move)p->angle << 40;
}

bool nn_decode(pips_move m, nn_place *p)
{
    memset(p, 0, sizeof *p);
    if (m == 0) {
        p->skip = true;
        return true;
    }
    int col = (int)(m & 15), size = (int)(m >> 4 & 3), lying = (int)(m >> 6 & 1);
    int angle = (int)(m >> 40 & 4095);
    if (col < 1 || col > NN_COLOURS || size < 1 || (m >> 7 & 1) || (m >> 52) != 0)
        return false;
    if (angle >= (lying ? 3600 : 900))
        return false;
    p->colour = col - 1;
    p->size = size;
    p->lying = lying;
    p->x = (int)(m >> 8 & 0xFFFF);
    p->y = (int)(m >> 24 & 0xFFFF);
    p->angle = angle;
    return true;
}

/* ---- geometry ---- */

/* cos of 0.0 .. 90.0 degrees in 0.1 degree steps (generated once with libm's
 * cos and stored as exact hexadecimal doubles, so every machine computes the
 * same geometry). */
static const double COS_TENTHS[901] = {
#include "games/noname/noname_cos.inc"
};

/* Exact at multiples of 90 degrees: the angle is reduced to a quadrant in
 * integers and only the remainder is looked up (NON §4 Units). */
void nn_trig(int a, double *c, double *s)
{
    a %= 3600;
    if (a < 0)
        a += 3600;
    int q = a / 900, r = a % 900;
    double c0 = COS_TENTHS[r], s0 = COS_TENTHS[900 - r];
    switch (q) {
    case 0: *c = c0; *s = s0; break;
    case 1: *c = -s0; *s = c0; break;
    case 2: *c = -c0; *s = -s0; break;
    default: *c = s0; *s = -c0; break;
    }
}

void nn_build_piece(nn_piece *pc, const nn_place *p, uint32_t id)
{
    /* Every field is written below (the struct has no padding), so equal
     * pieces are byte-equal without clearing the whole struct first. */
    pc->ux = pc->uy = 0;
    pc->hit_t = 0;
    memset(pc->zero_pad, 0, sizeof pc->zero_pad);
    pc->x = p->x;
    pc->y = p->y;
    pc->id = id;
    pc->angle = (int16_t)p->angle;
    pc->colour = (uint8_t)p->colour;
    pc->size = (uint8_t)p->size;
    pc->lying = p->lying ? 1 : 0;
    pc->target = -1;
    double c, s, x = p->x, y = p->y;
    nn_trig(p->angle, &c, &s);
    if (!p->lying) {
        /* Upright square: corners (x,y) + R(theta)(+-w/2, +-w/2), counter-clockwise. */
        double h = NN_BASE[p->size] / 2.0;
        static const double sx[4] = {1, 1, -1, -1}, sy[4] = {-1, 1, 1, -1};
        for (int i = 0; i < 4; i++) {
            double lx = sx[i] * h, ly = sy[i] * h;
            pc->vx[i] = x + c * lx - s * ly;
            pc->vy[i] = y + s * lx + c * ly;
        }
        pc->nx[0] = c; pc->ny[0] = s;
        pc->nx[1] = -s; pc->ny[1] = c;
        pc->nx[2] = -c; pc->ny[2] = -s;
        pc->nx[3] = s; pc->ny[3] = -c;
        pc->nvert = 4;
        pc->cx = x;
        pc->cy = y;
    } else {
        /* Lying triangle: tip T, base midpoint B = T - l u, corners B +- (w/2) n. */
        double l = NN_FACE[p->size], h = NN_BASE[p->size] / 2.0;
        pc->vx[3] = pc->vy[3] = pc->nx[3] = pc->ny[3] = 0;
        double bx = x - l * c, by = y - l * s;
        pc->vx[0] = x; pc->vy[0] = y;
        pc->vx[1] = bx - h * s; pc->vy[1] = by + h * c;
        pc->vx[2] = bx + h * s; pc->vy[2] = by - h * c;
        /* Side normals: the local normal (h, +-l)/|.| rotated by the heading;
         * the base normal is exactly -u. */
        double len = sqrt(l * l + h * h), a = h / len, b = l / len;
        pc->nx[0] = c * a - s * b; pc->ny[0] = s * a + c * b;
        pc->nx[1] = -c; pc->ny[1] = -s;
        pc->nx[2] = c * a + s * b; pc->ny[2] = s * a - c * b;
        pc->nvert = 3;
        pc->ux = c;
        pc->uy = s;
        pc->cx = (pc->vx[0] + pc->vx[1] + pc->vx[2]) / 3.0;
        pc->cy = (pc->vy[0] + pc->vy[1] + pc->vy[2]) / 3.0;
    }
    pc->minx = pc->maxx = pc->vx[0];
    pc->miny = pc->maxy = pc->vy[0];
    double r2 = 0;
    for (int i = 0; i < pc->nvert; i++) {
        if (pc->vx[i] < pc->minx) pc->minx = pc->vx[i];
        if (pc->vx[i] > pc->maxx) pc->maxx = pc->vx[i];
        if (pc->vy[i] < pc->miny) pc->miny = pc->vy[i];
        if (pc->vy[i] > pc->maxy) pc->maxy = pc->vy[i];
        double dx = pc->vx[i] - pc->cx, dy = pc->vy[i] - pc->cy;
        if (dx * dx + dy * dy > r2)
            r2 = dx * dx + dy * dy;
    }
    pc->rad = sqrt(r2) + 1e-3; /* margin well above EPS keeps the quick reject conservative */
}

static void project(const nn_piece *p, double ax, double ay, double *lo, double *hi)
{
    double mn = p->vx[0] * ax + p->vy[0] * ay, mx = mn;
    for (int i = 1; i < p->nvert; i++) {
        double v = p->vx[i] * ax + p->vy[i] * ay;
        if (v < mn) mn = v;
        if (v > mx) mx = v;
    }
    *lo = mn;
    *hi = mx;
}

static bool separated_on(const nn_piece *a, const nn_piece *b, double ax, double ay)
{
    double alo, ahi, blo, bhi;
    project(a, ax, ay, &alo, &ahi);
    project(b, ax, ay, &blo, &bhi);
    return ahi <= blo + NN_EPS || bhi <= alo + NN_EPS;
}

/* NON §4 Overlap: edge normals of both polygons; touching within EPS is legal. */
bool nn_overlap(const nn_piece *a, const nn_piece *b)
{
    /* Disjoint boxes mean a positive gap, which an edge normal also shows. */
    if (a->maxx < b->minx || b->maxx < a->minx || a->maxy < b->miny || b->maxy < a->miny)
        return false;
    for (int i = 0; i < a->nvert; i++)
        if (separated_on(a, b, a->nx[i], a->ny[i]))
            return false;
    for (int i = 0; i < b->nvert; i++)
        if (separated_on(a, b, b->nx[i], b->ny[i]))
            return false;
    return true;
}

double nn_outside(const nn_piece *p, int width, int height)
{
    /* The box's extremes are the vertices' extremes. */
    double worst = 0;
    if (-p->minx > worst) worst = -p->minx;
    if (p->maxx - width > worst) worst = p->maxx - width;
    if (-p->miny > worst) worst = -p->miny;
    if (p->maxy - height > worst) worst = p->maxy - height;
    return worst;
}

/* NON §4 Ray: Cyrus-Beck against the edge half-planes pushed out by EPS. */
static inline bool clip_ray(double tx, double ty, double ux, double uy, const nn_piece *q,
                            double *t)
{
    double t_in = 0.0, t_out = INFINITY;
    for (int i = 0; i < q->nvert; i++) {
        double nx = q->nx[i], ny = q->ny[i];
        double d = nx * q->vx[i] + ny * q->vy[i];
        double num = d + NN_EPS - (nx * tx + ny * ty), den = nx * ux + ny * uy;
        if (den == 0.0) {
            if (num < 0)
                return false;
        } else if (den > 0) {
            double v = num / den;
            if (v < t_out) t_out = v;
        } else {
            double v = num / den;
            if (v > t_in) t_in = v;
        }
        if (t_in > t_out)
            return false;
    }
    *t = t_in;
    return true;
}

bool nn_ray_hit(double tx, double ty, double ux, double uy, const nn_piece *q, double *t)
{
    double dx = q->cx - tx, dy = q->cy - ty;
    double along = dx * ux + dy * uy, perp = dx * uy - dy * ux;
    if (along < -q->rad || perp > q->rad || perp < -q->rad)
        return false;
    return clip_ray(tx, ty, ux, uy, q, t);
}

/* ---- broad phase: cells of a 16 x 16 grid list the pieces near them ---- */

#define NN_GRID_MARGIN 0.5 /* 0.05 mm: far above EPS and rounding */

/* The cell holding coordinate v, clamped to the grid (truncation equals
 * floor here: negative values clamp to 0 either way). */
static int cell_of(double v, double cell)
{
    if (v <= 0)
        return 0;
    int c = (int)(v / cell);
    return c >= NN_GRID ? NN_GRID - 1 : c;
}

static void grid_mark(nn_state *s, int k)
{
    const nn_box *b = &s->box[k];
    double cw = s->width / (double)NN_GRID, ch = s->height / (double)NN_GRID;
    int x0 = cell_of(b->minx - NN_GRID_MARGIN, cw), x1 = cell_of(b->maxx + NN_GRID_MARGIN, cw);
    int y0 = cell_of(b->miny - NN_GRID_MARGIN, ch), y1 = cell_of(b->maxy + NN_GRID_MARGIN, ch);
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++)
            s->grid[y * NN_GRID + x][k >> 6] |= 1ull << (k & 63);
}

static void grid_rebuild(nn_state *s)
{
    memset(s->grid, 0, sizeof s->grid);
    for (int k = 0; k < s->n_table; k++)
        grid_mark(s, k);
}

void nn_table_reset(nn_state *s, int width, int height)
{
    memset(s->table, 0, sizeof s->table);
    memset(s->box, 0, sizeof s->box);
    memset(s->grid, 0, sizeof s->grid);
    s->n_table = 0;
    s->width = width;
    s->height = height;
}

/* The pieces listed in the cells a rectangle meets. */
static void rect_mask(const nn_state *s, double minx, double maxx, double miny, double maxy,
                      uint64_t m[2])
{
    double cw = s->width / (double)NN_GRID, ch = s->height / (double)NN_GRID;
    int x0 = cell_of(minx, cw), x1 = cell_of(maxx, cw);
    int y0 = cell_of(miny, ch), y1 = cell_of(maxy, ch);
    m[0] = m[1] = 0;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            m[0] |= s->grid[y * NN_GRID + x][0];
            m[1] |= s->grid[y * NN_GRID + x][1];
        }
}

/* The pieces listed in the cells a box (grown by the margin) meets. */
static void box_mask(const nn_state *s, const nn_piece *p, uint64_t m[2])
{
    rect_mask(s, p->minx - NN_GRID_MARGIN, p->maxx + NN_GRID_MARGIN, p->miny - NN_GRID_MARGIN,
              p->maxy + NN_GRID_MARGIN, m);
}

/* The pieces listed in the cells a ray crosses from its tip to the edge of
 * the grid (a grid walk). A hit point lies in its piece's box grown by EPS,
 * and every cell within the margin of it lists the piece, so rounding at a
 * cell corner cannot lose a hit. */
static void ray_mask(const nn_state *s, double tx, double ty, double ux, double uy, uint64_t m[2])
{
    double cw = s->width / (double)NN_GRID, ch = s->height / (double)NN_GRID;
    double gx = tx / cw, gy = ty / ch, dx = ux / cw, dy = uy / ch;
    int cx = cell_of(tx, cw), cy = cell_of(ty, ch);
    int sx = dx > 0 ? 1 : dx < 0 ? -1 : 0, sy = dy > 0 ? 1 : dy < 0 ? -1 : 0;
    double next_x = sx > 0 ? (cx + 1 - gx) / dx : sx < 0 ? (gx - cx) / -dx : INFINITY;
    double next_y = sy > 0 ? (cy + 1 - gy) / dy : sy < 0 ? (gy - cy) / -dy : INFINITY;
    double step_x = sx ? 1.0 / fabs(dx) : INFINITY, step_y = sy ? 1.0 / fabs(dy) : INFINITY;
    m[0] = m[1] = 0;
    for (;;) {
        m[0] |= s->grid[cy * NN_GRID + cx][0];
        m[1] |= s->grid[cy * NN_GRID + cx][1];
        if (next_x < next_y) {
            cx += sx;
            next_x += step_x;
        } else {
            cy += sy;
            next_y += step_y;
        }
        if (cx < 0 || cx >= NN_GRID || cy < 0 || cy >= NN_GRID || (!sx && !sy))
            break;
    }
}

static void all_mask(const nn_state *s, uint64_t m[2])
{
    int n = s->n_table;
    m[0] = n >= 64 ? ~0ull : (1ull << n) - 1;
    m[1] = n <= 64 ? 0 : n >= 128 ? ~0ull : (1ull << (n - 64)) - 1;
}

/* NON-R5: the target is the hit at the smallest t; hits within EPS of that
 * smallest t are tied and the lowest id among them wins. The pieces in
 * `mask` are scanned in id order, then `extra` (a piece about to be
 * appended, index n_table). A piece whose circle starts beyond the window
 * cannot matter. */
static int scan_core(const nn_state *s, const nn_piece *a, int self, const uint64_t mask[2],
                     const nn_piece *extra, double limit, double *t)
{
    int hit_idx[NN_MAX_TABLE + 1], n_hits = 0;
    double hit_t[NN_MAX_TABLE + 1], min_t = INFINITY;
    /* limit: a hit is known at this t, so no piece entered beyond it + EPS
     * can be the target or tie with it (INFINITY: nothing is known) */
    double tx = a->x, ty = a->y, ux = a->ux, uy = a->uy;
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = mask[w]; bits; bits &= bits - 1) {
            int j = w * 64 + __builtin_ctzll(bits);
            const nn_box *q = &s->box[j];
            double dx = q->cx - tx, dy = q->cy - ty;
            double along = dx * ux + dy * uy, perp = dx * uy - dy * ux;
            if (along < -q->rad || perp > q->rad || perp < -q->rad || j == self ||
                along - q->rad > (min_t < limit ? min_t : limit) + NN_EPS)
                continue;
            double h;
            if (clip_ray(tx, ty, ux, uy, &s->table[j], &h)) {
                hit_idx[n_hits] = j;
                hit_t[n_hits++] = h;
                if (h < min_t)
                    min_t = h;
            }
        }
    double h;
    if (extra && nn_ray_hit(tx, ty, ux, uy, extra, &h)) {
        hit_idx[n_hits] = s->n_table;
        hit_t[n_hits++] = h;
        if (h < min_t)
            min_t = h;
    }
    for (int i = 0; i < n_hits; i++)
        if (hit_t[i] <= min_t + NN_EPS) {
            *t = hit_t[i];
            return hit_idx[i];
        }
    *t = 0.0;
    return -1;
}

/* The candidate set for a ray: the grid walk from a tip on the table when
 * the table is crowded, else every piece (the result is the same). */
static void ray_candidates(const nn_state *s, const nn_piece *a, uint64_t m[2])
{
    if (s->n_table <= 24 || a->x > s->width || a->y > s->height)
        all_mask(s, m); /* on a sparse table the walk costs more than it saves */
    else
        ray_mask(s, a->x, a->y, a->ux, a->uy, m);
}

int nn_scan_target(const nn_state *s, const nn_piece *a, int self, double *t)
{
    uint64_t m[2];
    ray_candidates(s, a, m);
    return scan_core(s, a, self, m, NULL, INFINITY, t);
}

int nn_scan_target_all(const nn_state *s, const nn_piece *a, int self, double *t)
{
    uint64_t m[2];
    all_mask(s, m);
    return scan_core(s, a, self, m, NULL, INFINITY, t);
}

bool nn_targets(const nn_state *s, const nn_piece *a, int j)
{
    double tj, t;
    if (!clip_ray(a->x, a->y, a->ux, a->uy, &s->table[j], &tj))
        return false;
    /* A piece entered by tj + EPS is hit on the segment from the tip to
     * there, and the hit point lies in the piece's box grown by EPS: a cell
     * of the segment's box lists it (the grid's margin is wider). */
    double ex = a->x + (tj + NN_EPS) * a->ux, ey = a->y + (tj + NN_EPS) * a->uy;
    uint64_t m[2];
    rect_mask(s, fmin(a->x, ex), fmax(a->x, ex), fmin(a->y, ey), fmax(a->y, ey), m);
    return scan_core(s, a, -1, m, NULL, tj, &t) == j;
}

/* Attacker i's target once pc is appended. A hit on pc no nearer than the
 * current target changes nothing (pc has the highest id, and the smallest
 * t stays); a nearer one needs a rescan, since the tie window moves. */
int nn_target_with(const nn_state *s, int i, const nn_piece *pc, double *t)
{
    const nn_piece *a = &s->table[i];
    double h;
    if (!a->lying || !nn_ray_hit(a->x, a->y, a->ux, a->uy, pc, &h) ||
        (a->target >= 0 && h >= a->hit_t)) {
        *t = a->hit_t;
        return a->target;
    }
    uint64_t m[2];
    ray_candidates(s, a, m);
    return scan_core(s, a, i, m, pc, INFINITY, t);
}

/* ---- rules core ---- */

int nn_seat_of_colour(const nn_state *s, int colour)
{
    for (int i = 0; i < s->n_seats; i++)
        if (s->seat_colour[i] == colour)
            return i;
    return -1;
}

int nn_pad_total(const nn_state *s, int seat)
{
    int n = 0;
    for (int c = 0; c < NN_COLOURS; c++)
        for (int z = 1; z <= 3; z++)
            n += s->pad[seat][c][z];
    return n;
}

bool nn_pads_empty(const nn_state *s)
{
    for (int i = 0; i < s->n_seats; i++)
        if (nn_pad_total(s, i))
            return false;
    return true;
}

void nn_table_append(nn_state *s, const nn_piece *pc)
{
    int k = s->n_table++;
    s->table[k] = *pc;
    nn_box *b = &s->box[k];
    b->minx = pc->minx;
    b->maxx = pc->maxx;
    b->miny = pc->miny;
    b->maxy = pc->maxy;
    b->cx = pc->cx;
    b->cy = pc->cy;
    b->rad = pc->rad;
    b->zero = 0;
    grid_mark(s, k);
}

int nn_first_overlap(const nn_state *s, const nn_piece *p)
{
    double x0 = p->minx, x1 = p->maxx, y0 = p->miny, y1 = p->maxy;
    uint64_t m[2];
    box_mask(s, p, m);
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = m[w]; bits; bits &= bits - 1) {
            int j = w * 64 + __builtin_ctzll(bits);
            const nn_box *q = &s->box[j];
            if (x1 < q->minx || q->maxx < x0 || y1 < q->miny || q->maxy < y0)
                continue;
            if (nn_overlap(p, &s->table[j]))
                return j;
        }
    return -1;
}

static int colour_on_pad(const nn_state *s, int seat, int colour)
{
    return s->pad[seat][colour][1] + s->pad[seat][colour][2] + s->pad[seat][colour][3];
}

static void pad_text(const nn_state *s, int seat, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int c = 0; c < NN_COLOURS; c++)
        for (int z = 1; z <= 3; z++)
            if (s->pad[seat][c][z] && used + 8 < cap)
                used += (size_t)snprintf(buf + used, cap - used, "%s%c%c%d", used ? " " : "",
                                         NN_COLOUR_CH[c], NN_SIZE_CH[z], s->pad[seat][c][z]);
    if (!used)
        snprintf(buf, cap, "empty");
}

bool nn_check(const nn_config *c, const nn_state *s, const nn_place *p, pips_error *err)
{
    int me = s->to_move;
    char padbuf[160];
    if (s->over)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "the game is over");
    if (p->skip) {
        if (nn_pad_total(s, me) == 0)
            return true;
        nn_place room;
        if (!nn_find_room(c, s, &room))
            return true;
        return pips_fail(err, PIPS_ERR_ILLEGAL,
                         "'--': a player with pieces on the pad may skip only when no piece "
                         "fits (NON-R16); %c%c fits upright at %d.%d,%d.%d",
                         NN_COLOUR_CH[room.colour], NN_SIZE_CH[room.size], room.x / 10,
                         room.x % 10, room.y / 10, room.y % 10);
    }
    if (p->colour < 0 || p->colour >= NN_COLOURS || p->size < 1 || p->size > 3)
        return pips_fail(err, PIPS_ERR_ARG, "not a Noname placement");
    if (p->x < 0 || p->y < 0 || p->x > NN_MAX_COORD || p->y > NN_MAX_COORD || p->angle < 0 ||
        p->angle >= (p->lying ? 3600 : 900))
        return pips_fail(err, PIPS_ERR_ARG, "placement coordinates or angle out of range");
    if (!s->pad[me][p->colour][p->size]) {
        pad_text(s, me, padbuf, sizeof padbuf);
        return pips_fail(err, PIPS_ERR_ILLEGAL, "%c%c is not on %c's pad (pad: %s)",
                         NN_COLOUR_CH[p->colour], NN_SIZE_CH[p->size],
                         NN_COLOUR_CH[s->seat_colour[me]], padbuf);
    }
    if (p->lying && p->colour != s->seat_colour[me] && colour_on_pad(s, me, p->colour) < 2)
        return pips_fail(err, PIPS_ERR_ILLEGAL,
                         "a %c prisoner may lie only while another %c prisoner stays on the "
                         "pad (NON §7, NON-R3); this one must stand upright (/U)",
                         NN_COLOUR_CH[p->colour], NN_COLOUR_CH[p->colour]);
    nn_piece pc;
    nn_build_piece(&pc, p, s->turn);
    double out = nn_outside(&pc, c->width, c->height);
    if (out > NN_EPS)
        return pips_fail(err, PIPS_ERR_ILLEGAL,
                         "the footprint sticks out of the %.1f x %.1f mm table by %.4f mm "
                         "(NON §4)",
                         c->width / 10.0, c->height / 10.0, out / 10.0);
    int j = nn_first_overlap(s, &pc);
    if (j >= 0) {
        const nn_piece *q = &s->table[j];
        if (q->lying)
            return pips_fail(err, PIPS_ERR_ILLEGAL,
                             "the footprint overlaps #%u %c%c@%d.%d,%d.%d>%d.%d (NON §4)",
                             q->id, NN_COLOUR_CH[q->colour], NN_SIZE_CH[q->size], q->x / 10,
                             q->x % 10, q->y / 10, q->y % 10, q->angle / 10, q->angle % 10);
        return pips_fail(err, PIPS_ERR_ILLEGAL,
                         "the footprint overlaps #%u %c%c@%d.%d,%d.%d/U%d.%d (NON §4)", q->id,
                         NN_COLOUR_CH[q->colour], NN_SIZE_CH[q->size], q->x / 10, q->x % 10,
                         q->y / 10, q->y % 10, q->angle / 10, q->angle % 10);
    }
    return true;
}

void nn_recompute_targets(nn_state *s)
{
    for (int i = 0; i < s->n_table; i++) {
        nn_piece *a = &s->table[i];
        if (!a->lying)
            continue;
        double t;
        a->target = (int8_t)nn_scan_target(s, a, i, &t);
        a->hit_t = t;
    }
}

void nn_refresh_over(const nn_config *c, nn_state *s)
{
    s->over = (uint8_t)(nn_pads_empty(s) || (c->turn_cap && s->turn > (uint32_t)c->turn_cap) ||
                        s->passes >= s->n_seats);
}

static void end_turn(const nn_config *c, nn_state *s)
{
    s->turn++;
    s->to_move = (uint8_t)((s->to_move + 1) % s->n_seats);
    nn_refresh_over(c, s);
}

uint32_t nn_play(const nn_config *c, nn_state *s, const nn_place *p)
{
    if (p->skip) {
        if (s->passes < 255)
            s->passes++;
        end_turn(c, s);
        return 0;
    }
    int me = s->to_move;
    s->pad[me][p->colour][p->size]--;
    int k = s->n_table;
    nn_piece built;
    nn_build_piece(&built, p, s->turn);
    /* Existing attackers first, against the table plus the new piece. */
    int8_t new_target[NN_MAX_TABLE];
    double new_t[NN_MAX_TABLE];
    for (int i = 0; i < k; i++)
        new_target[i] = (int8_t)nn_target_with(s, i, &built, &new_t[i]);
    nn_table_append(s, &built);
    for (int i = 0; i < k; i++) {
        s->table[i].target = new_target[i];
        s->table[i].hit_t = new_t[i];
    }
    nn_piece *pc = &s->table[k];
    uint32_t captured = 0;
    if (pc->lying) {
        double t;
        pc->target = (int8_t)nn_scan_target(s, pc, k, &t);
        pc->hit_t = t;
        int v = pc->target;
        /* NON §6: capture when the new attacker's colour subdues its target,
         * except E1 (own colour) and E2 (multi_attacker). */
        if (v >= 0 && s->table[v].colour != pc->colour) {
            int pts = 0, n_col = 0, n_all = 0;
            for (int i = 0; i < s->n_table; i++) {
                const nn_piece *a = &s->table[i];
                if (!a->lying || a->target != v)
                    continue;
                n_all++;
                if (a->colour == pc->colour) {
                    pts += a->size;
                    n_col++;
                }
            }
            const nn_piece *vic = &s->table[v];
            bool capture = pts >= vic->size;
            if (capture && vic->size >= 2) {
                if (c->multi_attacker == NN_MULTI_COLOUR)
                    capture = n_col >= 2;
                else if (c->multi_attacker == NN_MULTI_ANY)
                    capture = n_all >= 2;
            }
            if (capture) {
                int dest = c->capture_to == NN_CAPTURE_PLACER ? me
                                                              : nn_seat_of_colour(s, pc->colour);
                if (dest < 0)
                    dest = me; /* a colour always has a seat; kept total for safety */
                s->pad[dest][vic->colour][vic->size]++;
                captured = vic->id;
                memmove(&s->table[v], &s->table[v + 1],
                        (size_t)(s->n_table - v - 1) * sizeof s->table[0]);
                memmove(&s->box[v], &s->box[v + 1], (size_t)(s->n_table - v - 1) * sizeof s->box[0]);
                s->n_table--;
                memset(&s->table[s->n_table], 0, sizeof s->table[0]);
                memset(&s->box[s->n_table], 0, sizeof s->box[0]);
                grid_rebuild(s);
                nn_recompute_targets(s);
            }
        }
    }
    s->passes = 0;
    end_turn(c, s);
    return captured;
}

void nn_pressure_of(const nn_state *s, nn_pressure *pr)
{
    memset(pr, 0, sizeof *pr);
    for (int i = 0; i < s->n_table; i++) {
        const nn_piece *a = &s->table[i];
        if (a->lying && a->target >= 0) {
            pr->points[a->target][a->colour] += a->size;
            pr->attackers[a->target][a->colour]++;
        }
    }
}

/* NON-R14: own-linked -v, else subdued 0, else +v. */
int nn_piece_score(const nn_state *s, const nn_pressure *pr, int i)
{
    const nn_piece *q = &s->table[i];
    int v = q->size, c = q->colour;
    bool own = pr->attackers[i][c] > 0 ||
               (q->lying && q->target >= 0 && s->table[q->target].colour == c);
    if (own)
        return -v;
    for (int k = 0; k < NN_COLOURS; k++)
        if (pr->points[i][k] >= v)
            return 0;
    return v;
}

void nn_scores(const nn_state *s, int *out)
{
    nn_pressure pr;
    nn_pressure_of(s, &pr);
    for (int i = 0; i < s->n_seats; i++)
        out[i] = 0;
    for (int i = 0; i < s->n_table; i++) {
        int seat = nn_seat_of_colour(s, s->table[i].colour);
        if (seat >= 0)
            out[seat] += nn_piece_score(s, &pr, i);
    }
}

/* NON-R16: upright, theta 0, centres on whole millimetres, smallest size on
 * the pad first (a larger square holds the smaller one, so if no small
 * piece fits, no larger one does; the larger sizes are scanned anyway to
 * follow the ruling's wording). */
bool nn_find_room(const nn_config *c, const nn_state *s, nn_place *found)
{
    int me = s->to_move;
    for (int z = 1; z <= 3; z++) {
        int colour = -1;
        for (int k = 0; k < NN_COLOURS && colour < 0; k++)
            if (s->pad[me][k][z])
                colour = k;
        if (colour < 0)
            continue;
        double h = NN_BASE[z] / 2.0;
        for (int y = 0; y <= c->height; y += 10) {
            if (y - h < -NN_EPS || y + h > c->height + NN_EPS)
                continue;
            /* Pieces whose band meets this row. */
            int near[NN_MAX_TABLE], n_near = 0;
            for (int j = 0; j < s->n_table; j++)
                if (s->table[j].maxy >= y - h && s->table[j].miny <= y + h)
                    near[n_near++] = j;
            for (int x = 0; x <= c->width; x += 10) {
                if (x - h < -NN_EPS || x + h > c->width + NN_EPS)
                    continue;
                nn_place p = {false, colour, z, false, x, y, 0};
                nn_piece pc;
                bool ok = true, built = false;
                for (int q = 0; q < n_near && ok; q++) {
                    const nn_piece *o = &s->table[near[q]];
                    if (o->maxx < x - h || o->minx > x + h)
                        continue;
                    if (!built) {
                        nn_build_piece(&pc, &p, s->turn);
                        built = true;
                    }
                    ok = !nn_overlap(&pc, o);
                }
                if (ok) {
                    *found = p;
                    return true;
                }
            }
        }
    }
    return false;
}
