/*
 * stats.c — the statistics of the lab: Wilson score intervals for
 * proportions, Newcombe's interval for a difference of proportions, the
 * chi-square upper tail (through the regularised incomplete gamma function)
 * for the seat-balance test, the z-tests of a sweep's differences with the
 * Holm-Bonferroni correction, and round axis ticks for the plots. Pure
 * functions, no state.
 */
#include <math.h>
#include <stdlib.h>

#include "lab/lab_impl.h"

double lab_rate(double x, double n) { return n > 0 ? x / n : 0; }

void pips_wilson(double p_hat, double n, double z, double *lo, double *hi)
{
    if (n <= 0) {
        *lo = 0;
        *hi = 1;
        return;
    }
    double z2 = z * z;
    double denom = 1 + z2 / n;
    double centre = (p_hat + z2 / (2 * n)) / denom;
    double half = z * sqrt(p_hat * (1 - p_hat) / n + z2 / (4 * n * n)) / denom;
    *lo = centre - half < 0 ? 0 : centre - half;
    *hi = centre + half > 1 ? 1 : centre + half;
}

void pips_diff_interval(double p1, double n1, double p2, double n2, double z, double *lo,
                        double *hi)
{
    double l1, u1, l2, u2;
    pips_wilson(p1, n1, z, &l1, &u1);
    pips_wilson(p2, n2, z, &l2, &u2);
    double d = p1 - p2;
    *lo = d - sqrt((p1 - l1) * (p1 - l1) + (u2 - p2) * (u2 - p2));
    *hi = d + sqrt((u1 - p1) * (u1 - p1) + (p2 - l2) * (p2 - l2));
}

/* P(a, x) by its power series; good for x < a + 1. */
static double gamma_p_series(double a, double x)
{
    double term = 1 / a, sum = term;
    for (int n = 1; n < 1000; n++) {
        term *= x / (a + n);
        sum += term;
        if (fabs(term) < fabs(sum) * 1e-15)
            break;
    }
    return sum * exp(-x + a * log(x) - lgamma(a));
}

/* Q(a, x) by its continued fraction (modified Lentz); good for x >= a + 1. */
static double gamma_q_fraction(double a, double x)
{
    const double tiny = 1e-300;
    double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
    for (int i = 1; i < 1000; i++) {
        double an = -i * (i - a);
        b += 2;
        d = an * d + b;
        if (fabs(d) < tiny)
            d = tiny;
        c = b + an / c;
        if (fabs(c) < tiny)
            c = tiny;
        d = 1 / d;
        double delta = d * c;
        h *= delta;
        if (fabs(delta - 1) < 1e-15)
            break;
    }
    return exp(-x + a * log(x) - lgamma(a)) * h;
}

double pips_chi2_sf(double x, int k)
{
    if (k <= 0)
        return 1;
    if (x <= 0)
        return 1;
    double a = k / 2.0, h = x / 2;
    return h < a + 1 ? 1 - gamma_p_series(a, h) : gamma_q_fraction(a, h);
}

double pips_normal_p2(double z) { return erfc(fabs(z) / sqrt(2.0)); }

double pips_two_prop_p(double x1, double n1, double x2, double n2)
{
    if (n1 <= 0 || n2 <= 0)
        return 1;
    double pooled = (x1 + x2) / (n1 + n2);
    double se = sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
    double d = x1 / n1 - x2 / n2;
    if (!(se > 0))
        return d == 0 ? 1 : 0;
    return pips_normal_p2(d / se);
}

double pips_mean_diff_p(double m1, double sd1, double n1, double m2, double sd2, double n2)
{
    if (n1 <= 0 || n2 <= 0)
        return 1;
    double se = sqrt(sd1 * sd1 / n1 + sd2 * sd2 / n2);
    if (!(se > 0))
        return m1 == m2 ? 1 : 0;
    return pips_normal_p2((m1 - m2) / se);
}

typedef struct ranked {
    double p;
    size_t i;
} ranked;

static int cmp_ranked(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->p != y->p)
        return x->p < y->p ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

void pips_holm(const double *p, size_t n, double *adj)
{
    ranked *r = malloc((n ? n : 1) * sizeof *r);
    if (!r) {
        /* Bonferroni: never smaller than Holm's, so still a valid bound */
        for (size_t i = 0; i < n; i++)
            adj[i] = fmin(1, p[i] * (double)n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        r[i] = (ranked){p[i], i};
    qsort(r, n, sizeof *r, cmp_ranked);
    double running = 0;
    for (size_t k = 0; k < n; k++) {
        double a = fmin(1, (double)(n - k) * r[k].p);
        running = fmax(running, a); /* step-down: adjusted values never decrease */
        adj[r[k].i] = running;
    }
    free(r);
}

void lab_nice_ticks(double lo, double hi, int max_ticks, double *first, double *last,
                    double *step)
{
    if (max_ticks < 1)
        max_ticks = 1;
    if (!(hi > lo)) {
        hi = lo + 1;
    }
    double raw = (hi - lo) / max_ticks;
    double mag = pow(10, floor(log10(raw)));
    static const double mults[] = {1, 2, 2.5, 5, 10};
    double s = mag * 10;
    for (size_t i = 0; i < sizeof mults / sizeof mults[0]; i++)
        if (mults[i] * mag >= raw * (1 - 1e-9)) {
            s = mults[i] * mag;
            break;
        }
    /* the chosen step may still need one more interval after rounding out */
    for (;;) {
        double f = floor(lo / s + 1e-9) * s, l = ceil(hi / s - 1e-9) * s;
        if ((l - f) / s <= max_ticks + 1e-9) {
            *first = f;
            *last = l;
            *step = s;
            return;
        }
        double m = s / pow(10, floor(log10(s) + 1e-9));
        s = m < 1.5 ? s * 2 : m < 2.2 ? s * 1.25 : m < 3 ? s * 2 : s * 2;
    }
}

lab_interval lab_rate_interval(double x, double n)
{
    lab_interval r = {lab_rate(x, n), 0, 1, n > 0};
    pips_wilson(r.value, n, LAB_Z95, &r.lo, &r.hi);
    return r;
}

lab_interval lab_mean_interval(double mean, double sd, double n)
{
    double half = n > 0 ? LAB_Z95 * sd / sqrt(n) : 0;
    return (lab_interval){mean, mean - half, mean + half, n > 0};
}

lab_interval lab_first_seat_advantage(const ruleset_stats *st)
{
    lab_interval r = lab_rate_interval(st->seat[0].score, st->seat[0].n);
    double even = 1.0 / st->np;
    r.value -= even;
    r.lo -= even;
    r.hi -= even;
    return r;
}

double lab_cap_games(const ruleset_stats *st) { return (double)st->games; }

int lab_agent_seats(const pips_playtest *pt, size_t k, int np)
{
    return pt->agent_seats[k] ? pt->agent_seats[k] : np;
}
