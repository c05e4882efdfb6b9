/*
 * noname_cand.c — the Noname candidate generator (NON §4 "Move space and
 * AI"): a sample of placements for agents and "suggest", since each piece
 * has about 1e11 poses. Kinds: attacks on table pieces from several headings
 * (16 directions plus the target's edge normals), aim offsets and tip gaps;
 * blocks across enemy rays; prisoner dumps into rays; defenders on a 30 mm
 * grid at 0 and 45 degrees; and random poses.
 *
 * Invariants: every candidate written is legal (checked with the engine's
 * own tests), listed once, and there are at most the option candidates (max_moves); a live node
 * always gets at least one move (a room-scan placement or the skip, which
 * is then legal by NON-R12/R16). All randomness comes from the rng.
 */
#include "games/noname/noname_impl.h"

#include <math.h>
#include <string.h>

#define NN_PI 3.14159265358979323846


typedef struct cand_ctx {
    const nn_config *c;
    const nn_state *s;
    pips_rng *rng;
    pips_move *out;
    size_t n, cap;
    int me, mine;                 /* seat and its colour */
    int n_kinds;                  /* distinct (colour, size) on the pad */
    int kind_col[NN_COLOURS * 3], kind_size[NN_COLOURS * 3];
    bool may_lie[NN_COLOURS];
    int n_lie_kinds, lie_kind[NN_COLOURS * 3];
    uint64_t bits;  /* random bits not used yet */
    int spare_bits; /* 32-bit draws left in bits */
    const nn_pressure *pr; /* points and attackers aimed at each piece (tactics only) */
} cand_ctx;

/* The engine's legality tests without message text; builds the footprint. */
static bool legal_quick(const cand_ctx *k, const nn_place *p, nn_piece *pc)
{
    if (p->x < 0 || p->y < 0 || p->x > NN_MAX_COORD || p->y > NN_MAX_COORD)
        return false;
    nn_build_piece(pc, p, k->s->turn);
    if (nn_outside(pc, k->c->width, k->c->height) > NN_EPS)
        return false;
    return nn_first_overlap(k->s, pc) < 0;
}

static bool push(cand_ctx *k, const nn_place *p)
{
    if (k->n >= k->cap)
        return false;
    pips_move m = nn_encode(p);
    for (size_t i = 0; i < k->n; i++)
        if (k->out[i] == m)
            return false;
    k->out[k->n++] = m;
    return true;
}

/* A value in [0, n) from 32 fresh random bits (multiply-shift; the bias,
 * under n / 2^32, is immaterial for sampling candidates). Two draws per
 * 64-bit step of the generator. */
static int below(cand_ctx *k, int n)
{
    if (!k->spare_bits) {
        k->bits = pips_rng_next(k->rng);
        k->spare_bits = 2;
    }
    uint32_t r = (uint32_t)(k->bits >> (32 * --k->spare_bits));
    return (int)(((uint64_t)r * (uint64_t)n) >> 32);
}

static double unit(cand_ctx *k) { return below(k, 1 << 30) / (double)(1 << 30); }

static int angle_of(double ux, double uy)
{
    int a = (int)lround(atan2(uy, ux) * (1800.0 / NN_PI));
    a %= 3600;
    return a < 0 ? a + 3600 : a;
}

/* Rounds v to a whole 0.1 mm, away from the direction d (backs a tip off). */
static int snap_back(double v, double d)
{
    return (int)(d > 0 ? floor(v) : d < 0 ? ceil(v) : lround(v));
}

/* Whether every attacker aimed at table piece j still is with pc added (a
 * capture counting on them must not block their rays). */
static bool keeps_attackers(const cand_ctx *k, int j, const nn_piece *pc)
{
    const nn_state *s = k->s;
    double t;
    for (int i = 0; i < s->n_table; i++)
        if (s->table[i].lying && s->table[i].target == j && nn_target_with(s, i, pc, &t) != j)
            return false;
    return true;
}

/* One try at an attack pose of pad kind `kind` aimed at table piece j: a
 * heading among 16 directions and j's edge normals, an aim offset and a tip
 * gap (NON §4 "Move space and AI"). Pushes it and returns true when it is
 * legal, its first hit is j and (with keep) the attackers already aimed at
 * j stay so. */
static bool aim_at(cand_ctx *k, int j, int kind, bool keep)
{
    static const int gaps[4] = {0, 20, 100, 400};
    static const double offs[3] = {0.0, 0.4, -0.4};
    const nn_piece *v = &k->s->table[j];
    int h = below(k, 16 + v->nvert), heading;
    if (h < 16)
        heading = h * 225;
    else
        heading = angle_of(-v->nx[h - 16], -v->ny[h - 16]);
    double ux, uy;
    nn_trig(heading, &ux, &uy);
    double off = offs[below(k, 3)] * NN_BASE[v->size];
    double ax = v->cx - uy * off, ay = v->cy + ux * off;
    double back = 2 * v->rad + 10, qx = ax - back * ux, qy = ay - back * uy, te;
    if (!nn_ray_hit(qx, qy, ux, uy, v, &te))
        return false;
    double d = te - gaps[below(k, 4)];
    if (d < 0)
        return false;
    nn_place p = {false, k->kind_col[kind], k->kind_size[kind], true,
                  snap_back(qx + d * ux, ux), snap_back(qy + d * uy, uy), heading};
    nn_piece pc;
    return legal_quick(k, &p, &pc) && nn_targets(k->s, &pc, j) &&
           (!keep || keeps_attackers(k, j, &pc)) && push(k, &p);
}

/* Up to `tries` tries at one attack of kind on j; true once one is listed. */
static bool aim_tries(cand_ctx *k, int j, int kind, int tries, bool keep)
{
    for (int i = 0; i < tries; i++)
        if (aim_at(k, j, kind, keep))
            return true;
    return false;
}

static void gen_attacks(cand_ctx *k, int quota)
{
    const nn_state *s = k->s;
    if (!s->n_table || !k->n_lie_kinds)
        return;
    int made = 0;
    for (int attempt = 0; attempt < quota * 3 && made < quota; attempt++) {
        int j = below(k, s->n_table); /* two statements: the draws keep their order */
        made += aim_at(k, j, k->lie_kind[below(k, k->n_lie_kinds)], false);
    }
}

/* An upright piece of a random kind centred at distance d along a ray. */
static bool put_in_ray(cand_ctx *k, const nn_piece *a, double d, int kind)
{
    int z = k->kind_size[kind];
    double reach = NN_BASE[z] * 0.7072 + 1.0; /* half-diagonal: clear of the tip */
    if (d < reach)
        d = reach;
    if (a->target >= 0 && d > a->hit_t - reach)
        return false;
    nn_place p = {false, k->kind_col[kind], z, false, (int)lround(a->x + d * a->ux),
                  (int)lround(a->y + d * a->uy), a->angle % 900};
    nn_piece pc;
    return legal_quick(k, &p, &pc) && push(k, &p);
}

static void gen_blocks(cand_ctx *k, int quota)
{
    const nn_state *s = k->s;
    if (!s->n_table)
        return;
    int made = 0;
    for (int attempt = 0; attempt < quota * 3 && made < quota; attempt++) {
        const nn_piece *a = &s->table[below(k, s->n_table)];
        if (!a->lying || a->target < 0 || a->colour == k->mine ||
            s->table[a->target].colour != k->mine)
            continue;
        made += put_in_ray(k, a, a->hit_t * (0.2 + 0.6 * unit(k)),
                           below(k, k->n_kinds));
    }
}

/* Prisoners of colour p upright in a colour-p ray, or in one of our rays. */
static void gen_dumps(cand_ctx *k, int quota)
{
    const nn_state *s = k->s;
    int pris[NN_COLOURS * 3], n_pris = 0;
    for (int i = 0; i < k->n_kinds; i++)
        if (k->kind_col[i] != k->mine)
            pris[n_pris++] = i;
    if (!n_pris || !s->n_table)
        return;
    int made = 0;
    for (int attempt = 0; attempt < quota * 3 && made < quota; attempt++) {
        int kind = pris[below(k, n_pris)];
        const nn_piece *a = &s->table[below(k, s->n_table)];
        if (!a->lying || (a->colour != k->kind_col[kind] && a->colour != k->mine))
            continue;
        double far = a->target >= 0 ? a->hit_t : 600.0;
        made += put_in_ray(k, a, far * 0.5 * unit(k), kind);
    }
}

static void gen_defenders(cand_ctx *k, int quota)
{
    int made = 0, nx = k->c->width / 300, ny = k->c->height / 300;
    if (nx < 1 || ny < 1)
        return;
    for (int attempt = 0; attempt < quota * 2 && made < quota; attempt++) {
        int kind = below(k, k->n_kinds);
        nn_place p = {false, k->kind_col[kind], k->kind_size[kind], false,
                      300 * (1 + below(k, nx)), 300 * (1 + below(k, ny)), below(k, 2) * 450};
        nn_piece pc;
        if (legal_quick(k, &p, &pc))
            made += push(k, &p);
    }
}

static void gen_random(cand_ctx *k, int quota)
{
    int made = 0;
    for (int attempt = 0; attempt < quota * 3 && made < quota; attempt++) {
        int kind = below(k, k->n_kinds);
        bool lie = k->may_lie[k->kind_col[kind]] && below(k, 2);
        nn_place p = {false, k->kind_col[kind], k->kind_size[kind], lie,
                      below(k, k->c->width + 1), below(k, k->c->height + 1),
                      below(k, lie ? 3600 : 900)};
        nn_piece pc;
        if (legal_quick(k, &p, &pc))
            made += push(k, &p);
    }
}

/* ---- tactics: captures, defences, prisoners' safe spots ---- */

/* NON §6: whether a colour-c attacker of size z laid at table piece j would
 * capture it (E1 and E2 included), given the points already aimed at j. */
static bool would_capture(const cand_ctx *k, int j, int c, int z)
{
    const nn_piece *v = &k->s->table[j];
    if (v->colour == c || k->pr->points[j][c] + z < v->size)
        return false;
    if (v->size < 2 || k->c->multi_attacker == NN_MULTI_OFF)
        return true;
    int others = k->pr->attackers[j][c];
    if (k->c->multi_attacker == NN_MULTI_ANY)
        for (int col = 0; col < NN_COLOURS; col++)
            others += col == c ? 0 : k->pr->attackers[j][col];
    return others >= 1;
}

/* Whether another seat could capture table piece j on its turn with a piece
 * it may lay (NON §7): the threats a defence answers. */
static bool threatened(const cand_ctx *k, int j)
{
    const nn_state *s = k->s;
    for (int o = 0; o < s->n_seats; o++) {
        if (o == k->me)
            continue;
        for (int c = 0; c < NN_COLOURS; c++) {
            int total = s->pad[o][c][1] + s->pad[o][c][2] + s->pad[o][c][3];
            if (!total || (c != s->seat_colour[o] && total < 2))
                continue;
            for (int z = 1; z <= 3; z++)
                if (s->pad[o][c][z] && would_capture(k, j, c, z))
                    return true;
        }
    }
    return false;
}

/* Captures (NON-R6): for every victim worth taking, the smallest and the
 * largest size of each colour that completes the capture (a larger attacker
 * is harder to take back, NON-R8). Victims whose owner scores them negative
 * are left alone ("when not to capture"), and so are our own free pieces. */
static void gen_captures(cand_ctx *k, int quota)
{
    const nn_state *s = k->s;
    int n = s->n_table, start = n ? below(k, n) : 0, made = 0;
    for (int step = 0; step < n && made < quota; step++) {
        int j = (start + step) % n, score = nn_piece_score(s, k->pr, j);
        if (s->table[j].colour == k->mine ? score >= 0 : score < 0)
            continue;
        /* lie_kind lists each colour's sizes together, smallest first */
        for (int i = 0; i < k->n_lie_kinds && made < quota;) {
            int c = k->kind_col[k->lie_kind[i]], end = i;
            while (end < k->n_lie_kinds && k->kind_col[k->lie_kind[end]] == c)
                end++;
            int small = -1;
            for (int m = i; m < end && small < 0; m++)
                if (would_capture(k, j, c, k->kind_size[k->lie_kind[m]]))
                    small = k->lie_kind[m];
            if (small >= 0) {
                made += aim_tries(k, j, small, 4, true);
                if (k->lie_kind[end - 1] != small && made < quota)
                    made += aim_tries(k, j, k->lie_kind[end - 1], 4, true);
            }
            i = end;
        }
    }
}

/* A pad kind of colour col (the largest when big), or -1. */
static int kind_of_colour(const cand_ctx *k, int col, bool big)
{
    int found = -1;
    for (int i = 0; i < k->n_kinds; i++)
        if (k->kind_col[i] == col && (found < 0 || big))
            found = i;
    return found;
}

/* Defences of our threatened pieces (free, or subdued and worth freeing): a
 * blocker across each enemy ray aimed at the piece, preferably a prisoner of
 * the attacker's colour (the attacker then points at its own colour and
 * scores negative, NON-R14). */
static void gen_defences(cand_ctx *k, int quota)
{
    const nn_state *s = k->s;
    int made = 0;
    for (int j = 0; j < s->n_table && made < quota; j++) {
        if (s->table[j].colour != k->mine || nn_piece_score(s, k->pr, j) < 0 ||
            !threatened(k, j))
            continue;
        for (int i = 0; i < s->n_table && made < quota; i++) {
            const nn_piece *a = &s->table[i];
            if (!a->lying || a->target != j || a->colour == k->mine)
                continue;
            int kind = kind_of_colour(k, a->colour, false);
            if (kind < 0)
                kind = kind_of_colour(k, k->mine, false);
            if (kind < 0)
                kind = below(k, k->n_kinds);
            made += put_in_ray(k, a, a->hit_t * (0.3 + 0.4 * unit(k)), kind);
        }
    }
}

/* Prisoners' safe spots (the rulebook's "what to do with prisoners"): a
 * colour-c prisoner laid at a colour-c piece (both then score negative),
 * stood in a colour-c attacker's ray (negative), or stood in one of our
 * attackers' rays that alone subdues it (zero). */
static void gen_prisoner_spots(cand_ctx *k, int quota)
{
    const nn_state *s = k->s;
    int made = 0;
    for (int kind = 0; kind < k->n_kinds && made < quota; kind++) {
        int c = k->kind_col[kind], z = k->kind_size[kind], before = made;
        if (c == k->mine)
            continue;
        for (int j = 0; j < s->n_table && made < quota && made - before < 2; j++) {
            const nn_piece *q = &s->table[j];
            if (k->may_lie[c] && q->colour == c && nn_piece_score(s, k->pr, j) >= 0)
                made += aim_tries(k, j, kind, 3, false);
            if (q->lying && (q->colour == c || (q->colour == k->mine && q->size >= z))) {
                double far = q->target >= 0 ? q->hit_t : 600.0;
                made += put_in_ray(k, q, far * (0.2 + 0.3 * unit(k)), kind);
            }
        }
    }
}

/* Sets up the context: the mover's pad kinds and which may lie. Returns
 * false when the pad is empty. */
static bool ctx_init(cand_ctx *k, const nn_config *c, const nn_state *s, pips_rng *rng,
                     pips_move *out, size_t cap)
{
    memset(k, 0, sizeof *k);
    k->c = c;
    k->s = s;
    k->rng = rng;
    k->out = out;
    k->cap = cap;
    k->me = s->to_move;
    k->mine = s->seat_colour[k->me];
    for (int col = 0; col < NN_COLOURS; col++) {
        int total = 0;
        for (int z = 1; z <= 3; z++)
            if (s->pad[k->me][col][z]) {
                k->kind_col[k->n_kinds] = col;
                k->kind_size[k->n_kinds++] = z;
                total += s->pad[k->me][col][z];
            }
        k->may_lie[col] = col == k->mine || total >= 2; /* NON §7, NON-R3 */
    }
    for (int i = 0; i < k->n_kinds; i++)
        if (k->may_lie[k->kind_col[i]])
            k->lie_kind[k->n_lie_kinds++] = i;
    return k->n_kinds > 0;
}

/* When nothing was found: a room-scan placement, else the skip (NON-R16);
 * with an empty pad, the skip (NON-R12). */
static void fallback(cand_ctx *k)
{
    nn_place p;
    if (k->n_kinds && nn_find_room(k->c, k->s, &p)) {
        push(k, &p);
        return;
    }
    memset(&p, 0, sizeof p);
    p.skip = true;
    push(k, &p);
}

size_t nn_candidates(const nn_config *c, const nn_state *s, pips_rng *rng, pips_move *out)
{
    cand_ctx k;
    nn_pressure pr;
    if (!ctx_init(&k, c, s, rng, out, (size_t)c->candidates)) {
        fallback(&k);
        return k.n;
    }
    nn_pressure_of(s, &pr);
    k.pr = &pr;
    /* Tactics first (at most three quarters of the list), then the mix:
     * an eighth each of blocks, dumps, defenders and random poses, attacks
     * filling what the others leave. */
    int total = c->candidates, eighth = total / 8 > 0 ? total / 8 : 1;
    int tactical = total - total / 4;
    gen_captures(&k, tactical);
    gen_defences(&k, tactical - (int)k.n);
    gen_prisoner_spots(&k, tactical - (int)k.n);
    gen_blocks(&k, eighth);
    gen_dumps(&k, eighth);
    gen_defenders(&k, eighth);
    gen_random(&k, eighth);
    gen_attacks(&k, total - (int)k.n);
    if (k.n < k.cap)
        gen_random(&k, total - (int)k.n);
    if (!k.n)
        fallback(&k);
    return k.n;
}

/* One move drawn like a pick from the candidate list, without building the
 * list: a kind chosen with the list's proportions (half attacks, an eighth
 * each of blocks, dumps, defenders and random poses), then one candidate of
 * that kind. A kind that yields nothing falls back to attacks, then random
 * poses, then the room scan or the skip. */
pips_move nn_random_move(const nn_config *c, const nn_state *s, pips_rng *rng)
{
    pips_move m = 0;
    cand_ctx k;
    if (ctx_init(&k, c, s, rng, &m, 1)) {
        int pick = below(&k, 8);
        if (pick == 4)
            gen_blocks(&k, 1);
        else if (pick == 5)
            gen_dumps(&k, 1);
        else if (pick == 6)
            gen_defenders(&k, 1);
        else if (pick == 7)
            gen_random(&k, 1);
        if (!k.n)
            gen_attacks(&k, 1);
        for (int tries = 0; tries < 4 && !k.n; tries++)
            gen_random(&k, 1);
    }
    if (!k.n)
        fallback(&k);
    return m;
}
