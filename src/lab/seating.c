/*
 * seating.c — who sits where in game i of a playtest: the seatings
 * (rotate, all, fixed) and the pooling of identical agent specs.
 *
 * `all` plays every distinct order of the seat specs once per cycle (a
 * spec given twice is one agent, so hard,medium,medium has 3 orders, not
 * 6), taken in lexicographic order of the pooled agent numbers. From 5
 * seats on, when the distinct orders outnumber it, a balanced design is
 * played instead: n rotations of each of a set of directed Hamiltonian
 * cycles on the n seat specs that together use every arc (x then y) the
 * same number of times. Each spec then takes each seat, and follows each
 * other spec around the table (the last seat followed by the first), the
 * same number of times per cycle. The cycles were found by an exhaustive
 * search; at 6 seats no set of 5 cycles exists (Tillson), so 10 cycles
 * cover every arc twice. tests/test_lab.c checks every count.
 *
 * Invariant: everything is a pure function of (seating, pooled specs,
 * game index), so every thread and MPI rank seats game i alike.
 */
#include <string.h>

#include "lab/lab_impl.h"

/* Each row a cycle of spec positions; seat s of rotation k gets spec
 * cycle[(s + k) % n]. */
static const unsigned char design5[][5] = {
    {0, 1, 2, 3, 4}, {0, 2, 4, 1, 3}, {0, 3, 1, 4, 2}, {0, 4, 3, 2, 1}};
static const unsigned char design6[][6] = {
    {0, 1, 2, 3, 4, 5}, {0, 1, 2, 3, 5, 4}, {0, 2, 1, 3, 4, 5}, {0, 2, 1, 5, 4, 3},
    {0, 3, 2, 5, 1, 4}, {0, 3, 5, 1, 4, 2}, {0, 4, 1, 5, 3, 2}, {0, 4, 2, 5, 3, 1},
    {0, 5, 2, 4, 1, 3}, {0, 5, 2, 4, 3, 1}};
static const unsigned char design7[][7] = {
    {0, 1, 2, 3, 4, 5, 6}, {0, 2, 1, 3, 6, 5, 4}, {0, 3, 1, 4, 6, 2, 5},
    {0, 4, 2, 6, 1, 5, 3}, {0, 5, 1, 6, 4, 3, 2}, {0, 6, 3, 5, 2, 4, 1}};
static const unsigned char design8[][8] = {
    {0, 1, 2, 3, 4, 5, 6, 7}, {0, 2, 1, 3, 5, 4, 7, 6}, {0, 3, 1, 4, 6, 2, 7, 5},
    {0, 4, 1, 5, 7, 2, 6, 3}, {0, 5, 3, 6, 1, 7, 4, 2}, {0, 6, 5, 2, 4, 3, 7, 1},
    {0, 7, 3, 2, 5, 1, 6, 4}};

/* The design's cycles for n seats (NULL below 5). */
static const unsigned char *design(int n, size_t *cycles)
{
    switch (n) {
    case 5: *cycles = sizeof design5 / sizeof design5[0]; return design5[0];
    case 6: *cycles = sizeof design6 / sizeof design6[0]; return design6[0];
    case 7: *cycles = sizeof design7 / sizeof design7[0]; return design7[0];
    case 8: *cycles = sizeof design8 / sizeof design8[0]; return design8[0];
    default: *cycles = 0; return NULL;
    }
}

bool pips_seating_parse(const char *name, pips_seating *out)
{
    static const char *const names[] = {"rotate", "all", "fixed"};
    for (int k = 0; k < 3; k++)
        if (name && !strcmp(name, names[k])) {
            *out = (pips_seating)k;
            return true;
        }
    return false;
}

const char *pips_seating_name(pips_seating s)
{
    return s == PIPS_SEATING_ALL ? "all" : s == PIPS_SEATING_FIXED ? "fixed" : "rotate";
}

size_t pips_pool_specs(const char *const *specs, size_t n, int *agent_of)
{
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++) {
        agent_of[i] = (int)distinct;
        for (size_t j = 0; j < i; j++)
            if (!strcmp(specs[i], specs[j])) {
                agent_of[i] = agent_of[j];
                break;
            }
        distinct += agent_of[i] == (int)distinct;
    }
    return distinct;
}

/* The agents of the specs in ascending order: the first distinct order. */
static void sorted_agents(const int *spec_agent, int np, int *out)
{
    memcpy(out, spec_agent, (size_t)np * sizeof *out);
    for (int i = 1; i < np; i++)
        for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
            int t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
}

/* The next order in lexicographic order; false after the last. */
static bool next_order(int *a, int n)
{
    int i = n - 2;
    while (i >= 0 && a[i] >= a[i + 1])
        i--;
    if (i < 0)
        return false;
    int j = n - 1;
    while (a[j] <= a[i])
        j--;
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
    for (int l = i + 1, r = n - 1; l < r; l++, r--) {
        t = a[l];
        a[l] = a[r];
        a[r] = t;
    }
    return true;
}

/* n! / (m1! m2! ...): the distinct orders of the pooled specs. */
static size_t distinct_orders(const int *spec_agent, int np)
{
    int mult[PIPS_LAB_MAX_SEATS] = {0};
    size_t count = 1;
    for (int i = 0; i < np; i++) {
        int m = ++mult[spec_agent[i]];
        count = count * (size_t)(i + 1) / (size_t)m; /* stays whole: a multinomial prefix */
    }
    return count;
}

/* True when `all` plays the balanced design rather than every order. */
static bool uses_design(const int *spec_agent, int np, size_t *rows)
{
    size_t cycles;
    if (!design(np, &cycles))
        return false;
    *rows = cycles * (size_t)np;
    return distinct_orders(spec_agent, np) > *rows;
}

size_t pips_seating_period(pips_seating s, const int *spec_agent, int np)
{
    if (np < 1 || np > PIPS_LAB_MAX_SEATS)
        return 0;
    if (s == PIPS_SEATING_FIXED)
        return 1;
    if (s == PIPS_SEATING_ROTATE)
        return (size_t)np;
    size_t rows;
    return uses_design(spec_agent, np, &rows) ? rows : distinct_orders(spec_agent, np);
}

bool pips_seating_order(pips_seating s, const int *spec_agent, int np, unsigned long game,
                        int *seat_agent)
{
    if (np < 1 || np > PIPS_LAB_MAX_SEATS)
        return false;
    for (int i = 0; i < np; i++)
        if (spec_agent[i] < 0 || spec_agent[i] >= np)
            return false;
    if (s == PIPS_SEATING_FIXED || np == 1) {
        memcpy(seat_agent, spec_agent, (size_t)np * sizeof *seat_agent);
        return true;
    }
    if (s == PIPS_SEATING_ROTATE) {
        for (int t = 0; t < np; t++)
            seat_agent[t] = spec_agent[((unsigned long)t + game % (unsigned long)np) %
                                        (unsigned long)np];
        return true;
    }
    size_t rows, cycles;
    if (uses_design(spec_agent, np, &rows)) {
        const unsigned char *cyc = design(np, &cycles);
        size_t row = game % rows, c = row / (size_t)np, k = row % (size_t)np;
        for (int t = 0; t < np; t++)
            seat_agent[t] = spec_agent[cyc[c * (size_t)np + ((size_t)t + k) % (size_t)np]];
        return true;
    }
    size_t period = distinct_orders(spec_agent, np);
    sorted_agents(spec_agent, np, seat_agent);
    for (size_t i = game % period; i > 0; i--)
        next_order(seat_agent, np);
    return true;
}
