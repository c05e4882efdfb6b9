/*
 * acc.c — the running sums of a playtest variant (lab_acc) and the figures
 * computed from them. Games are added as they finish, so a run keeps a few
 * kilobytes per variant however many games it plays (plus one double per
 * game with a decisive point), never one record per game.
 *
 * Invariant: the sums are integers (counts, fixed-point returns) or a
 * multiset that is sorted before use, so the figures are the same for any
 * order of adding games and any split over threads or MPI ranks. Only the
 * timing sums (wall clock) depend on the run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab/lab_impl.h"

bool lab_grow(void **items, size_t *cap, size_t first, size_t elem)
{
    size_t n = *cap ? *cap * 2 : first;
    void *p = pips_realloc(NULL, *items, n * elem);
    if (!p)
        return false;
    *items = p;
    *cap = n;
    return true;
}

bool lab_acc_init(lab_acc *acc, int np)
{
    memset(acc, 0, sizeof *acc);
    acc->np = np;
    return lab_acc_reserve(acc, 64);
}

void lab_acc_free(lab_acc *acc)
{
    pips_free(NULL, acc->len_count);
    pips_free(NULL, acc->branch_sum);
    pips_free(NULL, acc->branch_n);
    pips_free(NULL, acc->decisive);
    pips_free(NULL, acc->turn_count);
    pips_free(NULL, acc->round_count);
    pips_free(NULL, acc->hashes);
    memset(acc, 0, sizeof *acc);
}

static bool grow_u64(uint64_t **a, size_t old, size_t cap)
{
    uint64_t *n = pips_realloc(NULL, *a, cap * sizeof *n);
    if (!n)
        return false;
    memset(n + old, 0, (cap - old) * sizeof *n);
    *a = n;
    return true;
}

bool lab_acc_reserve(lab_acc *acc, size_t plies)
{
    if (plies <= acc->plies_cap)
        return true;
    size_t cap = acc->plies_cap ? acc->plies_cap : 64;
    while (cap < plies)
        cap *= 2;
    if (!grow_u64(&acc->len_count, acc->plies_cap, cap) ||
        !grow_u64(&acc->branch_sum, acc->plies_cap, cap) ||
        !grow_u64(&acc->branch_n, acc->plies_cap, cap) ||
        !grow_u64(&acc->turn_count, acc->plies_cap, cap) ||
        !grow_u64(&acc->round_count, acc->plies_cap, cap))
        return false; /* the arrays that grew keep their zeroed tails */
    acc->plies_cap = cap;
    return true;
}

static void tally(lab_tally *t, double ret, int outcome)
{
    t->n++;
    t->score_fx += (int64_t)llround(ret * LAB_FX_ONE);
    if (outcome > 0)
        t->w++;
    else if (outcome == 0)
        t->d++;
    else
        t->l++;
}

bool lab_acc_add(lab_acc *acc, const game_result *r)
{
    int np = acc->np;
    size_t most = r->length > r->turns ? r->length : r->turns;
    if (!lab_acc_reserve(acc, most + 1))
        return false;
    if (acc->n_hashes == acc->hashes_cap &&
        !lab_grow((void **)&acc->hashes, &acc->hashes_cap, 64, sizeof *acc->hashes))
        return false;
    if (r->decisive >= 0 && acc->n_decisive == acc->decisive_cap &&
        !lab_grow((void **)&acc->decisive, &acc->decisive_cap, 64, sizeof *acc->decisive))
        return false;
    double best = 0;
    for (int t = 0; t < np; t++)
        if (r->returns[t] > best)
            best = r->returns[t];
    for (int s = 0; s < np; s++) {
        /* a draw: tied for the best return with others; with no winner a
         * seat whose return is below the best has lost */
        int outcome = r->winner == s ? 1 : r->winner < 0 && r->returns[s] == best ? 0 : -1;
        int k = r->seat_agent[s];
        tally(&acc->agent[k], r->returns[s], outcome);
        tally(&acc->seat[s], r->returns[s], outcome);
        tally(&acc->agent_seat[k][s], r->returns[s], outcome);
        acc->time_sum[k] += r->time_sum[s];
        acc->time_moves[k] += r->moves[s];
        if (r->time_max[s] > acc->time_max[k])
            acc->time_max[k] = r->time_max[s];
    }
    acc->games++;
    if (r->winner < 0)
        acc->draws++;
    else
        acc->seat_wins[r->winner]++;
    acc->unfinished += r->unfinished;
    acc->capped += r->unfinished || r->capped;
    acc->len_count[r->length]++;
    for (uint32_t k = 0; k < r->length; k++) {
        acc->branch_sum[k] += r->branching[k];
        acc->branch_n[k]++;
    }
    if (r->decisive >= 0)
        acc->decisive[acc->n_decisive++] = r->decisive;
    acc->turn_count[r->turns]++;
    acc->round_count[r->rounds]++;
    acc->hashes[acc->n_hashes++] = r->hash;
    const lab_drama *dr = &r->drama;
    if (dr->lead_changes >= 0) {
        acc->lead_n++;
        acc->lead_sum += (uint64_t)dr->lead_changes;
        acc->lead_sum2 += (uint64_t)dr->lead_changes * (uint64_t)dr->lead_changes;
    }
    if (dr->comeback >= 0) {
        acc->comeback_n++;
        acc->comeback_x += (uint64_t)dr->comeback;
    }
    if (dr->drama >= 0 && dr->uncertainty >= 0) {
        acc->drama_n++;
        acc->drama_fx += llround(dr->drama * LAB_FX_ONE);
        acc->drama2_fx += llround(dr->drama * dr->drama * LAB_FX_ONE);
        acc->unc_fx += llround(dr->uncertainty * LAB_FX_ONE);
        acc->unc2_fx += llround(dr->uncertainty * dr->uncertainty * LAB_FX_ONE);
    }
    return true;
}

static void wdl_of(const lab_tally *t, wdl *out)
{
    out->n = (double)t->n;
    out->w = (double)t->w;
    out->d = (double)t->d;
    out->l = (double)t->l;
    out->score = (double)t->score_fx / LAB_FX_ONE;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The value at rank pos (0-based) of the games sorted by it. */
static double count_at(const uint64_t *count, size_t cap, uint64_t pos)
{
    uint64_t seen = 0;
    for (size_t k = 0; k < cap; k++) {
        seen += count[k];
        if (seen > pos)
            return (double)k;
    }
    return 0;
}

/* The q-quantile of n games (linear interpolation between ranks). */
static double count_quantile(const uint64_t *count, size_t cap, uint64_t n, double q)
{
    if (!n)
        return 0;
    double pos = q * (double)(n - 1);
    uint64_t i = (uint64_t)pos;
    double a = count_at(count, cap, i);
    if (i + 1 >= n)
        return a;
    return a + (pos - (double)i) * (count_at(count, cap, i + 1) - a);
}

/* Mean, sd, quantiles and histogram of n games counted by value. */
static void summarise(const uint64_t *count, size_t cap, uint64_t n, lab_summary *out)
{
    memset(out, 0, sizeof *out);
    uint64_t sum = 0, sum2 = 0;
    size_t lo = 0, hi = 0;
    bool any = false;
    for (size_t k = 0; k < cap; k++) {
        if (!count[k])
            continue;
        sum += count[k] * k;
        sum2 += count[k] * k * k;
        if (!any)
            lo = k;
        hi = k;
        any = true;
    }
    if (n) {
        double dn = (double)n, ds = (double)sum;
        out->mean = ds / dn;
        double var = n > 1 ? ((double)sum2 - ds * ds / dn) / (dn - 1) : 0;
        out->sd = var > 0 ? sqrt(var) : 0;
        out->min = (double)lo;
        out->max = (double)hi;
        out->median = count_quantile(count, cap, n, 0.5);
        out->p10 = count_quantile(count, cap, n, 0.1);
        out->p25 = count_quantile(count, cap, n, 0.25);
        out->p75 = count_quantile(count, cap, n, 0.75);
        out->p90 = count_quantile(count, cap, n, 0.9);
    }
    /* integer-aligned bins covering min..max */
    out->hist_width = ceil((out->max - out->min + 1) / LAB_HIST_BINS);
    if (out->hist_width < 1)
        out->hist_width = 1;
    out->hist_lo = out->min;
    for (size_t k = lo; any && k <= hi; k++) {
        size_t b = (size_t)(((double)k - out->hist_lo) / out->hist_width);
        if (b >= LAB_HIST_BINS)
            b = LAB_HIST_BINS - 1;
        out->hist[b] += (unsigned long)count[k];
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Mean and sd of n per-game figures from their fixed-point sums. */
static void fx_moments(int64_t sum_fx, int64_t sum2_fx, uint64_t n, double *mean, double *sd)
{
    *mean = *sd = 0;
    if (!n)
        return;
    double dn = (double)n, s = (double)sum_fx / LAB_FX_ONE, s2 = (double)sum2_fx / LAB_FX_ONE;
    *mean = s / dn;
    double var = n > 1 ? (s2 - s * s / dn) / (dn - 1) : 0;
    *sd = var > 0 ? sqrt(var) : 0;
}

static double sorted_quantile(const double *v, size_t n, double q)
{
    if (n == 0)
        return 0;
    double pos = q * (double)(n - 1);
    size_t i = (size_t)pos;
    if (i + 1 >= n)
        return v[n - 1];
    return v[i] + (pos - (double)i) * (v[i + 1] - v[i]);
}

bool lab_acc_finish(lab_acc *acc, int n_agents, ruleset_stats *st, pips_error *err)
{
    int np = acc->np;
    uint64_t n = acc->games;
    st->games = (unsigned long)n;
    st->np = np;
    st->n_agents = n_agents;
    for (int k = 0; k < LAB_MAX_N; k++) {
        wdl_of(&acc->agent[k], &st->agent[k]);
        wdl_of(&acc->seat[k], &st->seat[k]);
        for (int s = 0; s < LAB_MAX_N; s++)
            wdl_of(&acc->agent_seat[k][s], &st->agent_seat[k][s]);
        st->time_mean[k] = acc->time_moves[k] ? acc->time_sum[k] / (double)acc->time_moves[k] : 0;
        st->time_max[k] = acc->time_max[k];
        st->time_moves[k] = (unsigned long)acc->time_moves[k];
    }
    st->draws = (double)acc->draws;
    st->unfinished = (double)acc->unfinished;
    st->capped = (double)acc->capped;
    /* seat balance */
    st->decisive_games = (double)(n - acc->draws);
    if (st->decisive_games > 0 && np > 1) {
        double expect = st->decisive_games / np, chi2 = 0;
        for (int s = 0; s < np; s++) {
            double dev = (double)acc->seat_wins[s] - expect;
            chi2 += dev * dev / expect;
        }
        st->chi2 = chi2;
        st->chi2_p = pips_chi2_sf(chi2, np - 1);
    } else {
        st->chi2 = 0;
        st->chi2_p = 1;
    }
    double lo = 1, hi = 0;
    for (int s = 0; s < np; s++) {
        double rate = lab_rate(st->seat[s].score, st->seat[s].n);
        lo = fmin(lo, rate);
        hi = fmax(hi, rate);
    }
    st->seat_spread = n ? hi - lo : 0;
    /* length, turns and rounds: exact integer sums, quantiles from the counts */
    lab_summary len;
    summarise(acc->len_count, acc->plies_cap, n, &len);
    st->len_mean = len.mean;
    st->len_sd = len.sd;
    st->len_min = len.min;
    st->len_max = len.max;
    st->len_median = len.median;
    st->len_p10 = len.p10;
    st->len_p25 = len.p25;
    st->len_p75 = len.p75;
    st->len_p90 = len.p90;
    memcpy(st->hist, len.hist, sizeof st->hist);
    st->hist_lo = len.hist_lo;
    st->hist_width = len.hist_width;
    size_t max_len = (size_t)len.max;
    summarise(acc->turn_count, acc->plies_cap, n, &st->turns);
    summarise(acc->round_count, acc->plies_cap, n, &st->rounds);
    /* drama and tension */
    st->lead_games = (unsigned long)acc->lead_n;
    if (acc->lead_n) {
        uint64_t ln = acc->lead_n;
        double dn = (double)ln, s = (double)acc->lead_sum;
        st->lead_mean = s / dn;
        double var = ln > 1 ? ((double)acc->lead_sum2 - s * s / dn) / (dn - 1) : 0;
        st->lead_sd = var > 0 ? sqrt(var) : 0;
    }
    st->comeback_n = (double)acc->comeback_n;
    st->comeback_x = (double)acc->comeback_x;
    st->drama_games = (unsigned long)acc->drama_n;
    fx_moments(acc->drama_fx, acc->drama2_fx, acc->drama_n, &st->drama_mean, &st->drama_sd);
    fx_moments(acc->unc_fx, acc->unc2_fx, acc->drama_n, &st->unc_mean, &st->unc_sd);
    /* distinct games: the sorted hashes, counted once each */
    if (acc->n_hashes)
        qsort(acc->hashes, acc->n_hashes, sizeof *acc->hashes, cmp_u64);
    st->distinct_games = 0;
    for (size_t i = 0; i < acc->n_hashes; i++)
        st->distinct_games += i == 0 || acc->hashes[i] != acc->hashes[i - 1];
    /* branching by ply */
    st->branch_plies = max_len;
    st->branch_mean = pips_calloc(NULL, max_len ? max_len : 1, sizeof *st->branch_mean);
    st->branch_count = pips_calloc(NULL, max_len ? max_len : 1, sizeof *st->branch_count);
    if (!st->branch_mean || !st->branch_count)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
    uint64_t bsum = 0, bn = 0;
    for (size_t k = 0; k < max_len; k++) {
        st->branch_count[k] = (unsigned long)acc->branch_n[k];
        if (acc->branch_n[k])
            st->branch_mean[k] = (double)acc->branch_sum[k] / (double)acc->branch_n[k];
        bsum += acc->branch_sum[k];
        bn += acc->branch_n[k];
    }
    st->branch_overall = bn ? (double)bsum / (double)bn : 0;
    /* decisiveness: sorted first, so the sums do not depend on arrival order */
    size_t nd = acc->n_decisive;
    st->decisive_known = (unsigned long)nd;
    if (nd) {
        qsort(acc->decisive, nd, sizeof *acc->decisive, cmp_double);
        double dsum = 0, dsum2 = 0;
        for (size_t i = 0; i < nd; i++)
            dsum += acc->decisive[i];
        st->decisive_mean = dsum / (double)nd;
        for (size_t i = 0; i < nd; i++) {
            double dev = acc->decisive[i] - st->decisive_mean;
            dsum2 += dev * dev;
        }
        st->decisive_sd = nd > 1 ? sqrt(dsum2 / (double)(nd - 1)) : 0;
        st->decisive_median = sorted_quantile(acc->decisive, nd, 0.5);
    }
    return true;
}

/* Every count of an accumulator, in one flat array of uint64 (the
 * fixed-point scores are two's complement, so sums wrap the same way). */
size_t lab_acc_fields(const lab_acc *a)
{
    return 4 + LAB_MAX_N + 5 * (2 * LAB_MAX_N + LAB_MAX_N * LAB_MAX_N) + 5 * a->plies_cap +
           LAB_MAX_N + 10;
}

static uint64_t *tally_slot(uint64_t *p, lab_tally *t, bool store)
{
    uint64_t *f[5] = {&t->n, &t->w, &t->d, &t->l, (uint64_t *)&t->score_fx};
    for (int k = 0; k < 5; k++) {
        if (store)
            *f[k] = p[k];
        else
            p[k] = *f[k];
    }
    return p + 5;
}

/* Copies the counts of a into p (store false) or back from p (store true). */
void lab_acc_pack(lab_acc *a, uint64_t *p, bool store)
{
    uint64_t *fixed[4] = {&a->games, &a->draws, &a->unfinished, &a->capped};
    for (int k = 0; k < 4; k++, p++) {
        if (store)
            *fixed[k] = *p;
        else
            *p = *fixed[k];
    }
    for (int s = 0; s < LAB_MAX_N; s++, p++) {
        if (store)
            a->seat_wins[s] = *p;
        else
            *p = a->seat_wins[s];
    }
    for (int k = 0; k < LAB_MAX_N; k++) {
        p = tally_slot(p, &a->agent[k], store);
        p = tally_slot(p, &a->seat[k], store);
        for (int s = 0; s < LAB_MAX_N; s++)
            p = tally_slot(p, &a->agent_seat[k][s], store);
    }
    uint64_t *arrays[5] = {a->len_count, a->branch_sum, a->branch_n, a->turn_count,
                           a->round_count};
    for (int k = 0; k < 5; k++, p += a->plies_cap) {
        if (store)
            memcpy(arrays[k], p, a->plies_cap * sizeof *p);
        else
            memcpy(p, arrays[k], a->plies_cap * sizeof *p);
    }
    for (int s = 0; s < LAB_MAX_N; s++, p++) {
        if (store)
            a->time_moves[s] = *p;
        else
            *p = a->time_moves[s];
    }
    /* the drama sums (fixed-point ones as two's complement) */
    uint64_t *drama[10] = {&a->lead_n, &a->lead_sum, &a->lead_sum2, &a->comeback_n, &a->comeback_x,
                          &a->drama_n, (uint64_t *)&a->drama_fx, (uint64_t *)&a->drama2_fx,
                          (uint64_t *)&a->unc_fx, (uint64_t *)&a->unc2_fx};
    for (int k = 0; k < 10; k++, p++) {
        if (store)
            *drama[k] = *p;
        else
            *p = *drama[k];
    }
}

