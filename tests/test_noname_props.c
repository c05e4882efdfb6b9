/*
 * test_noname_props.c — property tests of the Noname geometry and of whole
 * games: overlap is symmetric and agrees with polygon clipping, rays agree
 * with segment intersection (NON §4); a piece never points at itself and
 * stored targets equal a fresh scan (NON-R5); a target moved along a ray
 * stays the target until a blocker comes first; rotating a position by 90
 * degrees keeps every target and score; random games from candidates with
 * 2..8 players stay legal, conserve pieces and end (NON §8, NON-R13).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>

#include "games/noname/noname_impl.h"
#include "noname_helpers.h"

static nn_place random_place(pips_rng *r, int cx, int cy, int spread)
{
    nn_place p;
    memset(&p, 0, sizeof p);
    p.colour = (int)pips_rng_below(r, NN_COLOURS);
    p.size = 1 + (int)pips_rng_below(r, 3);
    p.lying = pips_rng_below(r, 2);
    p.x = cx + (int)pips_rng_below(r, (uint64_t)spread);
    p.y = cy + (int)pips_rng_below(r, (uint64_t)spread);
    /* Many axis-aligned and 45-degree poses, where touching is common. */
    int pick = (int)pips_rng_below(r, 4);
    p.angle = pick == 0 ? 0 : pick == 1 ? 450 * (int)pips_rng_below(r, 8)
                                        : (int)pips_rng_below(r, 3600);
    if (!p.lying)
        p.angle %= 900;
    return p;
}

/* NON §4: overlap(a, b) == overlap(b, a); touching along an edge is legal. */
static void test_overlap_symmetric(void **st)
{
    (void)st;
    pips_rng r;
    pips_rng_seed(&r, 11);
    int overlaps = 0, n = 200000;
    for (int i = 0; i < n; i++) {
        nn_place a = random_place(&r, 1000, 1000, 500), b = random_place(&r, 1000, 1000, 500);
        nn_piece pa, pb;
        nn_build_piece(&pa, &a, 1);
        nn_build_piece(&pb, &b, 2);
        bool ab = nn_overlap(&pa, &pb), ba = nn_overlap(&pb, &pa);
        if (ab != ba)
            fail_msg("overlap not symmetric at pair %d", i);
        overlaps += ab;
        assert_true(nn_overlap(&pa, &pa)); /* a footprint overlaps itself */
    }
    assert_true(overlaps > n / 20 && overlaps < n - n / 20); /* both outcomes exercised */
    /* Edge contact in every rotation by 90 degrees: two squares side by side. */
    for (int q = 0; q < 4; q++) {
        nn_place a = {false, 0, 2, false, 3000, 3000, 0}, b = a;
        int dx[4] = {198, 0, -198, 0}, dy[4] = {0, 198, 0, -198};
        b.x += dx[q];
        b.y += dy[q];
        nn_piece pa, pb;
        nn_build_piece(&pa, &a, 1);
        nn_build_piece(&pb, &b, 2);
        assert_false(nn_overlap(&pa, &pb));
        b.x -= dx[q] / 198;
        b.y -= dy[q] / 198;
        nn_build_piece(&pb, &b, 2);
        assert_true(nn_overlap(&pa, &pb));
    }
}


/* ---- an independent oracle: polygon clipping and segment intersection ---- */

/* Area of the intersection of two convex counter-clockwise polygons. */
static double clip_area(const nn_piece *a, const nn_piece *b)
{
    double px[16], py[16], qx[16], qy[16];
    int n = a->nvert;
    for (int i = 0; i < n; i++) {
        px[i] = a->vx[i];
        py[i] = a->vy[i];
    }
    for (int e = 0; e < b->nvert && n > 0; e++) {
        double ax = b->vx[e], ay = b->vy[e];
        double bx = b->vx[(e + 1) % b->nvert], by = b->vy[(e + 1) % b->nvert];
        int m = 0;
        for (int i = 0; i < n; i++) {
            int j = (i + 1) % n;
            double si = (bx - ax) * (py[i] - ay) - (by - ay) * (px[i] - ax);
            double sj = (bx - ax) * (py[j] - ay) - (by - ay) * (px[j] - ax);
            if (si >= 0) {
                qx[m] = px[i];
                qy[m++] = py[i];
            }
            if ((si >= 0) != (sj >= 0)) {
                double t = si / (si - sj);
                qx[m] = px[i] + t * (px[j] - px[i]);
                qy[m++] = py[i] + t * (py[j] - py[i]);
            }
        }
        n = m;
        memcpy(px, qx, sizeof px);
        memcpy(py, qy, sizeof py);
    }
    double area = 0;
    for (int i = 0; i < n; i++) {
        int j = (i + 1) % n;
        area += px[i] * py[j] - px[j] * py[i];
    }
    return area / 2;
}

static double point_segment_distance(double x, double y, double ax, double ay, double bx,
                                     double by)
{
    double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / len2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double ex = ax + t * dx - x, ey = ay + t * dy - y;
    return sqrt(ex * ex + ey * ey);
}

/* The gap between two disjoint convex polygons (0 when they meet). */
static double polygon_gap(const nn_piece *a, const nn_piece *b)
{
    double best = INFINITY;
    for (int pass = 0; pass < 2; pass++) {
        const nn_piece *p = pass ? b : a, *q = pass ? a : b;
        for (int i = 0; i < p->nvert; i++)
            for (int e = 0; e < q->nvert; e++) {
                int f = (e + 1) % q->nvert;
                double d = point_segment_distance(p->vx[i], p->vy[i], q->vx[e], q->vy[e],
                                                  q->vx[f], q->vy[f]);
                if (d < best)
                    best = d;
            }
    }
    return best;
}

/* NON §4: the separating-axis test agrees with an independent oracle
 * whenever the answer is clear of the EPS tolerance: a real intersection
 * area means overlap, a real gap means none. */
static void test_overlap_oracle(void **st)
{
    (void)st;
    pips_rng r;
    pips_rng_seed(&r, 21);
    int overlap = 0, apart = 0;
    for (int i = 0; i < 100000; i++) {
        nn_place a = random_place(&r, 1000, 1000, 600), b = random_place(&r, 1000, 1000, 600);
        nn_piece pa, pb;
        nn_build_piece(&pa, &a, 1);
        nn_build_piece(&pb, &b, 2);
        double area = clip_area(&pa, &pb);
        bool sat = nn_overlap(&pa, &pb);
        if (area > 1e-2) {
            if (!sat)
                fail_msg("pair %d: area %g but no overlap", i, area);
            overlap++;
        } else if (area <= 0 && polygon_gap(&pa, &pb) > 1e-3) {
            if (sat)
                fail_msg("pair %d: apart but overlap reported", i);
            apart++;
        }
    }
    assert_true(overlap > 5000 && apart > 5000);
}

/* The entry distance of a ray into a polygon by segment intersection, or
 * -1 when it misses; *chord is how far the ray runs inside. */
static double oracle_entry(double tx, double ty, double ux, double uy, const nn_piece *q,
                           double *chord, double *slack)
{
    double t_lo = INFINITY, t_hi = -INFINITY;
    *slack = 0;
    for (int e = 0; e < q->nvert; e++) {
        int f = (e + 1) % q->nvert;
        double ex = q->vx[f] - q->vx[e], ey = q->vy[f] - q->vy[e];
        double den = ux * ey - uy * ex;
        if (fabs(den) < 1e-12)
            continue;
        double wx = q->vx[e] - tx, wy = q->vy[e] - ty;
        double t = (wx * ey - wy * ex) / den, s = (wx * uy - wy * ux) / den;
        if (s >= 0 && s <= 1) {
            if (t < t_lo) {
                t_lo = t;
                /* Pushing this edge out by EPS moves the entry by EPS / sin. */
                *slack = NN_EPS * sqrt(ex * ex + ey * ey) / fabs(den);
            }
            if (t > t_hi) t_hi = t;
        }
    }
    if (t_hi < 0 || t_lo == INFINITY)
        return -1;
    if (t_lo < 0) {
        t_lo = 0; /* the tip is inside */
        *slack = 0;
    }
    *chord = t_hi - t_lo;
    return t_lo;
}

/* NON §4 Ray: Cyrus-Beck with EPS agrees with segment intersection on every
 * clear hit (the EPS push may bring the entry nearer by EPS / sin of the
 * entry angle, never farther) and every clear miss. */
static void test_ray_oracle(void **st)
{
    (void)st;
    pips_rng r;
    pips_rng_seed(&r, 22);
    int hits = 0, misses = 0;
    for (int i = 0; i < 100000; i++) {
        nn_place a = random_place(&r, 1000, 1000, 1500), b = random_place(&r, 1500, 1500, 500);
        a.lying = true;
        nn_piece pa, pb;
        nn_build_piece(&pa, &a, 1);
        nn_build_piece(&pb, &b, 2);
        double chord = 0, slack = 0, got = 0;
        double want = oracle_entry(pa.x, pa.y, pa.ux, pa.uy, &pb, &chord, &slack);
        bool hit = nn_ray_hit(pa.x, pa.y, pa.ux, pa.uy, &pb, &got);
        if (want >= 0 && chord > 1e-2) {
            double tol = 1e-9 * (1 + want);
            if (!hit || got > want + tol || got < want - slack - tol)
                fail_msg("ray %d: oracle t=%.9f, engine %s %.9f", i, want, hit ? "t=" : "miss",
                         got);
            hits++;
        } else if (want < 0) {
            /* A clear miss: the ray passes every vertex by more than 1e-3. */
            double closest = INFINITY;
            for (int v = 0; v < pb.nvert; v++) {
                double dx = pb.vx[v] - pa.x, dy = pb.vy[v] - pa.y;
                double along = dx * pa.ux + dy * pa.uy;
                double d = along < 0 ? sqrt(dx * dx + dy * dy) : fabs(dx * pa.uy - dy * pa.ux);
                if (d < closest)
                    closest = d;
            }
            if (closest > 1e-3) {
                if (hit)
                    fail_msg("ray %d: oracle misses, engine hits at %.9f", i, got);
                misses++;
            }
        }
    }
    assert_true(hits > 5000 && misses > 5000);
}


/* NON-R5 tie rule, white-box: hits at t, t - 0.6 EPS and t - 1.2 EPS (ids 1,
 * 2, 3). The smallest t is id 3's; within EPS of it lie ids 2 and 3, so id 2
 * wins. (Chaining ties pairwise from id 1 would pick id 3 instead.) */
static void test_tie_window(void **st)
{
    (void)st;
    nn_state *s = calloc(1, sizeof *s);
    nn_table_reset(s, 6000, 6000);
    s->n_seats = 2;
    s->turn = 5;
    const double shift[3] = {0.0, 0.6 * NN_EPS, 1.2 * NN_EPS};
    for (int i = 0; i < 3; i++) {
        nn_place p = {false, 3, 2, false, 3000, 2990 + 10 * i, 0};
        nn_piece pc;
        nn_build_piece(&pc, &p, (uint32_t)(i + 1));
        pc.vx[2] -= shift[i]; /* the left edge moves towards the attacker */
        pc.vx[3] -= shift[i];
        nn_table_append(s, &pc);
    }
    nn_place ap = {false, 0, 1, true, 2000, 3000, 0};
    nn_piece a;
    nn_build_piece(&a, &ap, 4);
    double t;
    assert_int_equal(nn_scan_target(s, &a, -1, &t), 1);
    assert_true(fabs(t - (901.0 - 0.6 * NN_EPS - NN_EPS)) < 1e-9);
    /* Incrementally: ids 1 and 2 on the table, attacker id 3 points at id 1
     * (within EPS of id 2's smaller t). Appending id 4 at t - 1.2 EPS moves
     * the window: the target becomes id 2, neither the old target nor the
     * new piece. */
    nn_state *u = calloc(1, sizeof *u);
    nn_table_reset(u, 6000, 6000);
    u->n_seats = 2;
    nn_table_append(u, &s->table[0]);
    nn_table_append(u, &s->table[1]);
    a.id = 3;
    nn_table_append(u, &a);
    u->table[2].target = (int8_t)nn_scan_target(u, &u->table[2], 2, &u->table[2].hit_t);
    assert_int_equal(u->table[2].target, 0);
    nn_piece last = s->table[2];
    last.id = 4;
    double h;
    assert_int_equal(nn_target_with(u, 2, &last, &h), 1);
    nn_table_append(u, &last);
    assert_int_equal(nn_scan_target(u, &u->table[2], 2, &h), 1);
    free(u);
    free(s);
}

/* Plays a random game from candidates, calling visit at every node. */
typedef void (*visit_fn)(const pips_game *g, const void *s, void *ud);

static int play_random(const pips_game *g, void *s, uint64_t seed, visit_fn visit, void *ud)
{
    pips_rng r;
    pips_rng_seed(&r, seed);
    size_t cap = pips_max_moves(g);
    pips_move *moves = calloc(cap, sizeof *moves);
    g->def->initial(g, s);
    int plies = 0;
    while (g->def->to_move(g, s) != PIPS_OVER && plies < 100000) {
        if (visit)
            visit(g, s, ud);
        size_t n = pips_node_moves(g, s, &r, moves, NULL);
        assert_true(n > 0 && n <= cap);
        g->def->apply(g, s, moves[pips_rng_below(&r, n)]);
        plies++;
    }
    if (visit)
        visit(g, s, ud);
    free(moves);
    return plies;
}

static void check_targets(const pips_game *g, const void *state, void *ud)
{
    (void)g;
    (void)ud;
    const nn_state *s = state;
    for (int i = 0; i < s->n_table; i++) {
        const nn_piece *a = &s->table[i];
        if (!a->lying) {
            assert_int_equal(a->target, -1);
            continue;
        }
        assert_int_not_equal(a->target, i);
        double t, t_all;
        int fresh = nn_scan_target(s, a, i, &t);
        assert_int_equal(fresh, a->target);
        assert_true(t == a->hit_t);
        /* The grid walk finds what a scan of every piece finds. */
        assert_int_equal(nn_scan_target_all(s, a, i, &t_all), fresh);
        assert_true(t_all == t);
    }
}

/* NON-R5: never the attacker itself; incremental targets equal a fresh scan. */
static void test_never_points_at_itself(void **st)
{
    (void)st;
    pips_game *g = nt_game(NULL, 0);
    void *s = pips_state_new(g, NULL);
    for (uint64_t seed = 0; seed < 120; seed++)
        play_random(g, s, seed, check_targets, NULL);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* A target slid along the ray stays the target until a blocker is nearer. */
static void test_target_along_ray(void **st)
{
    (void)st;
    pips_game *g = nt_game(NULL, 0);
    pips_rng r;
    pips_rng_seed(&r, 5);
    int checked = 0;
    for (int trial = 0; trial < 40; trial++) {
        int heading = (int)pips_rng_below(&r, 3600);
        double ux, uy;
        nn_trig(heading, &ux, &uy);
        /* The attacker's tip at the centre, the blocker 150 mm out. */
        int tx = 3000, ty = 3000;
        double block_d = 1500;
        int bx = (int)lround(tx + block_d * ux), by = (int)lround(ty + block_d * uy);
        for (int d = 150; d <= 2600; d += 25) {
            int x = (int)lround(tx + d * ux), y = (int)lround(ty + d * uy);
            char text[512];
            snprintf(text, sizeof text,
                     "seats r,b turn 4 to r passes 0 pads r:rS1 b:bS1 table "
                     "#1 rS@%d.%d,%d.%d>%d.%d #2 bM@%d.%d,%d.%d/U #3 bS@%d.%d,%d.%d/U",
                     tx / 10, tx % 10, ty / 10, ty % 10, heading / 10, heading % 10, x / 10,
                     x % 10, y / 10, y % 10, bx / 10, bx % 10, by / 10, by % 10);
            /* Overlapping layouts (target on the blocker) are rejected: skip them. */
            pips_error err;
            void *s = pips_state_new(g, NULL);
            char full[1024];
            pips_str t;
            pips_str_init(&t, NULL);
            void *init = pips_state_new(g, NULL);
            g->def->initial(g, init);
            g->def->state_to_text(g, init, &t);
            const char *cut = strstr(pips_str_cstr(&t), "seats ");
            snprintf(full, sizeof full, "%.*s%s", (int)(cut - pips_str_cstr(&t)),
                     pips_str_cstr(&t), text);
            pips_str_free(&t);
            pips_state_free(g, init);
            if (g->def->state_from_text(g, full, s, &err)) {
                noname_piece_info a = nt_piece(g, s, 1);
                if (d < block_d - 250)
                    assert_int_equal(a.target_id, 2);
                else if (d > block_d + 250)
                    assert_int_equal(a.target_id, 3);
                checked++;
            }
            pips_state_free(g, s);
        }
    }
    assert_true(checked > 1000);
    pips_game_free(g);
}

/* The text of a position rotated by +90 degrees about the centre of a
 * square table: (x, y) -> (W - y, x); headings +90; upright theta is kept
 * (it is taken mod 90). */
static void rotated_text(const pips_game *g, const void *state, char *out, size_t cap)
{
    const nn_state *s = state;
    const nn_config *c = g->config;
    pips_str t;
    pips_str_init(&t, NULL);
    g->def->state_to_text(g, s, &t);
    const char *tab = strstr(strstr(pips_str_cstr(&t), " pads "), " table ");
    size_t used = (size_t)snprintf(out, cap, "%.*s table", (int)(tab - pips_str_cstr(&t)),
                                   pips_str_cstr(&t));
    if (!s->n_table)
        used += (size_t)snprintf(out + used, cap - used, " -");
    for (int i = 0; i < s->n_table; i++) {
        const nn_piece *q = &s->table[i];
        int x = c->width - q->y, y = q->x;
        int a = q->lying ? (q->angle + 900) % 3600 : q->angle;
        used += (size_t)snprintf(out + used, cap - used, " #%u %c%c@%d.%d,%d.%d%s%d.%d", q->id,
                                 NN_COLOUR_CH[q->colour], NN_SIZE_CH[q->size], x / 10, x % 10,
                                 y / 10, y % 10, q->lying ? ">" : "/U", a / 10, a % 10);
    }
    pips_str_free(&t);
}

typedef struct rot_ctx {
    int positions;
} rot_ctx;

static void check_rotation(const pips_game *g, const void *state, void *ud)
{
    rot_ctx *rc = ud;
    char text[16384];
    rotated_text(g, state, text, sizeof text);
    void *rot = pips_state_new(g, NULL);
    pips_error err;
    if (!g->def->state_from_text(g, text, rot, &err))
        fail_msg("rotated position rejected: %s\n%s", err.msg, text);
    noname_piece_info a[128], b[128];
    size_t na = noname_pieces(g, state, a, 128), nb = noname_pieces(g, rot, b, 128);
    assert_int_equal(na, nb);
    for (size_t i = 0; i < na; i++) {
        assert_int_equal(a[i].id, b[i].id);
        if (a[i].target_id != b[i].target_id)
            fail_msg("#%u: target #%u becomes #%u after rotation", a[i].id, a[i].target_id,
                     b[i].target_id);
        assert_true(fabs(a[i].hit_mm - b[i].hit_mm) < 1e-6);
        assert_string_equal(a[i].subdued_by, b[i].subdued_by);
        assert_int_equal(a[i].score, b[i].score);
    }
    int sa[PIPS_MAX_PLAYERS], sb[PIPS_MAX_PLAYERS];
    g->def->scores(g, state, sa);
    g->def->scores(g, rot, sb);
    assert_memory_equal(sa, sb, sizeof(int) * (size_t)pips_num_players(g));
    rc->positions++;
    pips_state_free(g, rot);
}

/* Rotating a whole position by 90 degrees keeps every target and score. */
static void test_rotation_invariance(void **st)
{
    (void)st;
    const char *opts[] = {"players=3"};
    pips_game *g = nt_game(opts, 1);
    void *s = pips_state_new(g, NULL);
    rot_ctx rc = {0};
    for (uint64_t seed = 0; seed < 40; seed++)
        play_random(g, s, 1000 + seed, check_rotation, &rc);
    assert_true(rc.positions > 700);
    pips_state_free(g, s);
    pips_game_free(g);
}

typedef struct game_ctx {
    int players;
    long candidates_checked;
} game_ctx;

static void check_node(const pips_game *g, const void *state, void *ud)
{
    game_ctx *gc = ud;
    const nn_state *s = state;
    /* Conservation: every colour still has 5 of each size, on pads or table. */
    int count[NN_COLOURS][4] = {{0}};
    for (int i = 0; i < s->n_table; i++)
        count[s->table[i].colour][s->table[i].size]++;
    for (int seat = 0; seat < s->n_seats; seat++)
        for (int col = 0; col < NN_COLOURS; col++)
            for (int z = 1; z <= 3; z++)
                count[col][z] += s->pad[seat][col][z];
    for (int seat = 0; seat < s->n_seats; seat++)
        for (int z = 1; z <= 3; z++)
            assert_int_equal(count[s->seat_colour[seat]][z], NN_PER_SIZE);
    /* The position text round-trips byte-equal under every option set. */
    pips_str text;
    pips_str_init(&text, NULL);
    g->def->state_to_text(g, s, &text);
    void *back = pips_state_new(g, NULL);
    pips_error perr;
    if (!g->def->state_from_text(g, pips_str_cstr(&text), back, &perr))
        fail_msg("'%s' rejected: %s", pips_str_cstr(&text), perr.msg);
    assert_memory_equal(back, s, g->def->state_size);
    assert_true(g->def->hash(g, back) == g->def->hash(g, s));
    pips_state_free(g, back);
    pips_str_free(&text);
    /* No two footprints overlap and all lie on the table (pairwise, no grid). */
    for (int i = 0; i < s->n_table; i++) {
        assert_true(nn_outside(&s->table[i], s->width, s->height) <= NN_EPS);
        for (int j = i + 1; j < s->n_table; j++)
            assert_false(nn_overlap(&s->table[i], &s->table[j]));
    }
    /* The grid's first overlap equals a linear search, for random poses. */
    pips_rng pr;
    pips_rng_seed(&pr, (uint64_t)s->turn);
    for (int k = 0; k < 20; k++) {
        nn_place p = random_place(&pr, 0, 0, s->width);
        nn_piece pc;
        nn_build_piece(&pc, &p, s->turn);
        int linear = -1;
        for (int j = 0; j < s->n_table && linear < 0; j++)
            if (nn_overlap(&pc, &s->table[j]))
                linear = j;
        assert_int_equal(nn_first_overlap(s, &pc), linear);
        if (p.lying) {
            double t1, t2;
            assert_int_equal(nn_scan_target(s, &pc, -1, &t1), nn_scan_target_all(s, &pc, -1, &t2));
        }
    }
    /* nn_targets (the generator's bounded scan) agrees with the full scan
     * for attackers aimed at each piece from a random heading and distance
     * (those hit their aim or something in front of it) and for every j. */
    for (int aim = 0; aim < s->n_table; aim++) {
        const nn_piece *v = &s->table[aim];
        int heading = (int)pips_rng_below(&pr, 3600);
        double ux, uy;
        nn_trig(heading, &ux, &uy);
        double dist = v->rad + 1 + (double)pips_rng_below(&pr, 600);
        nn_place p = {false, 0, 1 + (int)pips_rng_below(&pr, 3), true,
                      (int)lround(v->cx - dist * ux), (int)lround(v->cy - dist * uy), heading};
        if (p.x < 0 || p.y < 0 || p.x > NN_MAX_COORD || p.y > NN_MAX_COORD)
            continue;
        nn_piece pc;
        nn_build_piece(&pc, &p, s->turn);
        double t;
        int target = nn_scan_target(s, &pc, -1, &t);
        for (int j = 0; j < s->n_table; j++)
            assert_int_equal(nn_targets(s, &pc, j), target == j);
    }
    if (g->def->to_move(g, s) == PIPS_OVER) {
        double ret[PIPS_MAX_PLAYERS], sum = 0;
        g->def->returns(g, s, ret);
        for (int i = 0; i < gc->players; i++)
            sum += ret[i];
        assert_true(fabs(sum - 1.0) < 1e-9);
        return;
    }
    pips_rng r;
    pips_rng_seed(&r, (uint64_t)s->turn * 7919 + (uint64_t)gc->players);
    pips_move moves[NN_CAND_MAX];
    size_t n = g->def->candidates(g, s, &r, moves);
    assert_true(n >= 1);
    for (size_t i = 0; i < n; i++) {
        pips_error err;
        if (!pips_check_move(g, s, moves[i], &err))
            fail_msg("candidate %zu illegal: %s", i, err.msg);
        for (size_t j = 0; j < i; j++)
            assert_true(moves[i] != moves[j]);
    }
    gc->candidates_checked += (long)n;
}

/* Random games from candidates with 2..8 players under several options. */
static void test_random_games(void **st)
{
    (void)st;
    const char *extra[4] = {"capture_to=colour", "capture_to=placer", "multi_attacker=any",
                            "multi_attacker=off"};
    for (int players = 2; players <= 8; players++) {
        char popt[32];
        snprintf(popt, sizeof popt, "players=%d", players);
        const char *opts[3] = {popt, extra[players % 4], "candidates=24"};
        pips_game *g = nt_game(opts, 3);
        void *s = pips_state_new(g, NULL);
        game_ctx gc = {players, 0};
        for (uint64_t seed = 0; seed < (players <= 6 ? 12u : 4u); seed++) {
            int plies = play_random(g, s, seed * 31 + (uint64_t)players, check_node, &gc);
            assert_true(plies >= 15 * players);
            assert_int_equal(g->def->to_move(g, s), PIPS_OVER);
        }
        assert_true(gc.candidates_checked > 1000);
        pips_state_free(g, s);
        pips_game_free(g);
    }
}


/* The random_move shortcut for playouts: every move legal, games end, and
 * pips_random_playout (which takes it) finishes games. */
static void test_random_move(void **st)
{
    (void)st;
    for (int players = 2; players <= 8; players += 3) {
        char popt[32];
        snprintf(popt, sizeof popt, "players=%d", players);
        const char *opts[1] = {popt};
        pips_game *g = nt_game(opts, 1);
        void *s = pips_state_new(g, NULL);
        pips_rng r;
        pips_rng_seed(&r, (uint64_t)players);
        for (int game = 0; game < 10; game++) {
            g->def->initial(g, s);
            int plies = 0;
            while (g->def->to_move(g, s) != PIPS_OVER) {
                pips_move m;
                pips_error err;
                assert_true(g->def->random_move(g, s, &r, &m));
                if (!pips_check_move(g, s, m, &err))
                    fail_msg("random_move gave an illegal move: %s", err.msg);
                g->def->apply(g, s, m);
                plies++;
            }
            assert_true(plies >= 15 * players);
            pips_move m;
            assert_false(g->def->random_move(g, s, &r, &m));
            g->def->initial(g, s);
            pips_move buf[NN_CAND_MAX];
            pips_random_playout(g, s, &r, buf, 1000000);
            assert_int_equal(g->def->to_move(g, s), PIPS_OVER);
        }
        pips_state_free(g, s);
        pips_game_free(g);
    }
}

/* A crowded small table: candidates fall back to the room scan, and a
 * player with no room may skip (NON-R16); the game still ends. */
static void test_crowded_table(void **st)
{
    (void)st;
    const char *opts[] = {"players=8", "table=100.0x100.0"};
    pips_game *g = nt_game(opts, 2);
    void *s = pips_state_new(g, NULL);
    int skips_with_pieces = 0;
    for (uint64_t seed = 0; seed < 5; seed++) {
        pips_rng r;
        pips_rng_seed(&r, seed);
        g->def->initial(g, s);
        pips_move moves[NN_CAND_MAX];
        while (g->def->to_move(g, s) != PIPS_OVER) {
            const nn_state *ns = s;
            size_t n = pips_node_moves(g, s, &r, moves, NULL);
            assert_true(n >= 1);
            if (n == 1 && moves[0] == noname_skip() && nn_pad_total(ns, ns->to_move) > 0) {
                nn_place room;
                assert_false(nn_find_room(g->config, ns, &room));
                skips_with_pieces++;
            }
            pips_error err;
            assert_true(pips_check_move(g, s, moves[0], &err) || !fprintf(stderr, "%s\n", err.msg));
            g->def->apply(g, s, moves[pips_rng_below(&r, n)]);
        }
    }
    assert_true(skips_with_pieces > 0);
    pips_state_free(g, s);
    pips_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_overlap_symmetric),  cmocka_unit_test(test_overlap_oracle),
        cmocka_unit_test(test_ray_oracle),         cmocka_unit_test(test_tie_window),         cmocka_unit_test(test_never_points_at_itself),
        cmocka_unit_test(test_target_along_ray),   cmocka_unit_test(test_rotation_invariance),
        cmocka_unit_test(test_random_games),       cmocka_unit_test(test_random_move),       cmocka_unit_test(test_crowded_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
