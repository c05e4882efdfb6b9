/*
 * stats.c — the statistics of the lab: Wilson score intervals for
 * proportions, Newcombe's interval for a difference of proportions, and the
 * chi-square upper tail (through the regularised incomplete gamma function)
 * for the seat-balance test. Pure functions, no state.
 */
#include <math.h>

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
