/*
 * drama.c — one game's drama and tension figures from the evaluations
 * after every turn (defined in docs/playtest.md, "Drama and tension", after
 * Browne's aesthetic measures as Ludii implements them).
 *
 * The leader after a turn is the seat with the unique greatest evaluation
 * (a tie has no leader). Invariant: a pure function of its input, so the
 * figures do not depend on the thread or rank that played the game.
 */
#include "lab/lab_impl.h"

/* The unique best seat of one row, or -1 on a tie. */
static int leader_of(const double *row, int np)
{
    int best = 0, ties = 1;
    for (int s = 1; s < np; s++) {
        if (row[s] > row[best]) {
            best = s;
            ties = 1;
        } else if (row[s] == row[best]) {
            ties++;
        }
    }
    return ties == 1 ? best : -1;
}

static double row_max(const double *row, int np)
{
    double m = row[0];
    for (int s = 1; s < np; s++)
        if (row[s] > m)
            m = row[s];
    return m;
}

void lab_drama_of(const double *eval, const int *turn_seat, size_t turns, int np, int winner,
                  lab_drama *out)
{
    out->lead_changes = 0;
    out->comeback = -1;
    out->drama = -1;
    out->uncertainty = -1;
    int last = -1;
    for (size_t t = 0; t < turns; t++) {
        int lead = leader_of(eval + t * (size_t)np, np);
        if (lead < 0)
            continue;
        out->lead_changes += last >= 0 && lead != last;
        last = lead;
    }
    if (winner < 0 || turns == 0)
        return;
    /* the position after the halfway turn, ceil(T / 2) */
    const double *half = eval + ((turns + 1) / 2 - 1) * (size_t)np;
    out->comeback = half[winner] < row_max(half, np);
    double behind = 0;
    size_t n_behind = 0;
    for (size_t t = 0; t < turns; t++) {
        const double *row = eval + t * (size_t)np;
        double gap = row_max(row, np) - row[winner];
        if (turn_seat[t] == winner && gap > 0) {
            behind += gap;
            n_behind++;
        }
    }
    out->drama = n_behind ? behind / (double)n_behind : 0;
    size_t from = turns;
    while (from > 0 && leader_of(eval + (from - 1) * (size_t)np, np) == winner)
        from--;
    out->uncertainty = (double)from / (double)turns;
}
