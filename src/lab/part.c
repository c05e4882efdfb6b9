/*
 * part.c — a playtest played as one part of a longer run (a ladder's
 * table, a skill step): its options come from the run's (game, options,
 * games, threads, stop flag), it seats every order of its seats at 3+
 * seats (each rotation at 2), and its progress is reported to the run's
 * callback counted on from the games of the parts before it. A part's
 * caller reads results only, so drama and tension are not measured.
 */
#include "lab/lab_impl.h"

static void part_progress(void *ud, unsigned long done, unsigned long total)
{
    (void)total; /* this part's; the run's is part->total */
    const lab_part *part = ud;
    part->progress(part->progress_ud, part->before + done, part->total);
}

static pips_seating part_seating(int np)
{
    return np >= 3 ? PIPS_SEATING_ALL : PIPS_SEATING_ROTATE;
}

unsigned long lab_part_whole_games(unsigned long games, const int *spec_agent, int np,
                                   unsigned long *period)
{
    *period = pips_seating_period(part_seating(np), spec_agent, np);
    return *period ? (games + *period - 1) / *period * *period : games;
}

pips_playtest_opts lab_part_opts(const lab_part *part, const char *const *seats, int np,
                                 uint64_t seed)
{
    pips_playtest_opts po = {0};
    po.game = part->game;
    po.opts = part->opts;
    po.n_opts = part->n_opts;
    po.seats = seats;
    po.n_seats = (size_t)np;
    po.games = part->games;
    po.seed = seed;
    po.threads = part->threads;
    po.seating = part_seating(np);
    po.stop = part->stop;
    po.no_drama = true; /* a part reports results only: no evaluation per move for drama */
    if (part->progress) {
        po.progress = part_progress;
        po.progress_ud = (void *)part;
    }
    return po;
}
