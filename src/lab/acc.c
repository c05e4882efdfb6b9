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
        !grow_u64(&acc->branch_n, acc->plies_cap, cap))
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
    if (!lab_acc_reserve(acc, (size_t)r->length + 1))
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

/* The length at rank pos (0-based) of the games sorted by length. */
static double length_at(const lab_acc *acc, uint64_t pos)
{
    uint64_t seen = 0;
    for (size_t k = 0; k < acc->plies_cap; k++) {
        seen += acc->len_count[k];
        if (seen > pos)
            return (double)k;
    }
    return 0;
}

/* The q-quantile of the lengths (linear interpolation between ranks). */
static double length_quantile(const lab_acc *acc, double q)
{
    if (!acc->games)
        return 0;
    double pos = q * (double)(acc->games - 1);
    uint64_t i = (uint64_t)pos;
    double a = length_at(acc, i);
    if (i + 1 >= acc->games)
        return a;
    return a + (pos - (double)i) * (length_at(acc, i + 1) - a);
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
    /* length: exact integer sums, then the quantiles from the counts */
    uint64_t sum = 0, sum2 = 0;
    size_t min_len = 0, max_len = 0;
    bool any = false;
    for (size_t k = 0; k < acc->plies_cap; k++) {
        if (!acc->len_count[k])
            continue;
        sum += acc->len_count[k] * k;
        sum2 += acc->len_count[k] * k * k;
        if (!any)
            min_len = k;
        max_len = k;
        any = true;
    }
    if (n) {
        st->len_mean = (double)sum / (double)n;
        double dn = (double)n, ds = (double)sum;
        double var = n > 1 ? ((double)sum2 - ds * ds / dn) / (dn - 1) : 0;
        st->len_sd = var > 0 ? sqrt(var) : 0;
        st->len_min = (double)min_len;
        st->len_max = (double)max_len;
        st->len_median = length_quantile(acc, 0.5);
        st->len_p10 = length_quantile(acc, 0.1);
        st->len_p25 = length_quantile(acc, 0.25);
        st->len_p75 = length_quantile(acc, 0.75);
        st->len_p90 = length_quantile(acc, 0.9);
    }
    /* histogram: integer-aligned bins covering min..max */
    double span = st->len_max - st->len_min + 1;
    st->hist_width = ceil(span / LAB_HIST_BINS);
    if (st->hist_width < 1)
        st->hist_width = 1;
    st->hist_lo = st->len_min;
    memset(st->hist, 0, sizeof st->hist);
    for (size_t k = min_len; any && k <= max_len; k++) {
        size_t b = (size_t)(((double)k - st->hist_lo) / st->hist_width);
        if (b >= LAB_HIST_BINS)
            b = LAB_HIST_BINS - 1;
        st->hist[b] += (unsigned long)acc->len_count[k];
    }
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
