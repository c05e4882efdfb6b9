/*
 * dist.c — spreading a playtest over MPI ranks (only in a -DPIPS_MPI=ON
 * build; otherwise one process plays everything). Rank r plays the games
 * whose number is r modulo the rank count; afterwards every rank sends the
 * results of its games to every other (MPI_Allgatherv of a flat buffer), so
 * each rank holds all games and aggregates them in game order: the report
 * is the same as a single process's.
 *
 * A game travels as doubles: its number, the fixed fields, then its
 * branching list; kept records travel as one byte buffer of NUL-terminated
 * texts in the same order.
 */
#include <string.h>

#include "lab/lab_impl.h"

#ifdef PIPS_MPI
#include <mpi.h>
#endif

bool pips_lab_mpi_begin(int *argc, char ***argv)
{
#ifdef PIPS_MPI
    int inited = 0;
    MPI_Initialized(&inited);
    if (!inited)
        return MPI_Init(argc, argv) == MPI_SUCCESS;
    return true;
#else
    (void)argc;
    (void)argv;
    return true;
#endif
}

void pips_lab_mpi_end(void)
{
#ifdef PIPS_MPI
    int inited = 0, finished = 0;
    MPI_Initialized(&inited);
    MPI_Finalized(&finished);
    if (inited && !finished)
        MPI_Finalize();
#endif
}

void lab_dist_get(int *rank, int *size)
{
    *rank = 0;
    *size = 1;
#ifdef PIPS_MPI
    int inited = 0, finished = 0;
    MPI_Initialized(&inited);
    MPI_Finalized(&finished);
    if (inited && !finished) {
        MPI_Comm_rank(MPI_COMM_WORLD, rank);
        MPI_Comm_size(MPI_COMM_WORLD, size);
    }
#endif
}

int pips_lab_rank(void)
{
    int rank, size;
    lab_dist_get(&rank, &size);
    return rank;
}

#ifdef PIPS_MPI
/* doubles per game before its branching list */
static size_t fixed_doubles(int np) { return 1 + (size_t)np * 5 + 5; }

static size_t pack_game(const game_result *r, unsigned long index, int np, double *out)
{
    size_t k = 0;
    out[k++] = (double)index;
    for (int s = 0; s < np; s++) {
        out[k++] = r->seat_agent[s];
        out[k++] = r->returns[s];
        out[k++] = r->time_sum[s];
        out[k++] = r->time_max[s];
        out[k++] = r->moves[s];
    }
    out[k++] = r->winner;
    out[k++] = r->unfinished;
    out[k++] = r->length;
    out[k++] = r->chance_plies;
    out[k++] = r->decisive;
    for (uint32_t i = 0; i < r->length; i++)
        out[k++] = r->branching[i];
    return k;
}

static bool unpack_game(const double *in, size_t avail, int np, game_result *res,
                        unsigned long games, size_t *used, unsigned long *index)
{
    size_t fixed = fixed_doubles(np);
    if (avail < fixed)
        return false;
    size_t k = 0;
    unsigned long i = (unsigned long)in[k++];
    if (i >= games)
        return false;
    game_result *r = &res[i];
    for (int s = 0; s < np; s++) {
        r->seat_agent[s] = (int)in[k++];
        r->returns[s] = in[k++];
        r->time_sum[s] = in[k++];
        r->time_max[s] = in[k++];
        r->moves[s] = (uint32_t)in[k++];
    }
    r->winner = (int)in[k++];
    r->unfinished = in[k++] != 0;
    r->length = (uint32_t)in[k++];
    r->chance_plies = (uint32_t)in[k++];
    r->decisive = in[k++];
    if (avail < fixed + r->length)
        return false;
    r->branching = pips_malloc(NULL, (r->length ? r->length : 1) * sizeof *r->branching);
    if (!r->branching)
        return false;
    for (uint32_t b = 0; b < r->length; b++)
        r->branching[b] = (uint32_t)in[k++];
    *used = k;
    *index = i;
    return true;
}
#endif

bool lab_dist_exchange(game_result *res, unsigned long games, int np, bool records,
                       bool local_ok, pips_error *err)
{
#ifdef PIPS_MPI
    int rank, size;
    lab_dist_get(&rank, &size);
    if (size <= 1)
        return local_ok;
    int ok_in = local_ok ? 1 : 0, ok_all = 0;
    MPI_Allreduce(&ok_in, &ok_all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!ok_all) {
        if (local_ok)
            pips_fail(err, PIPS_ERR_ARG, "another MPI rank failed (see its message)");
        return false;
    }
    /* pack this rank's games */
    size_t n_doubles = 0, n_bytes = 0;
    for (unsigned long i = (unsigned long)rank; i < games; i += (unsigned long)size) {
        n_doubles += fixed_doubles(np) + res[i].length;
        if (records)
            n_bytes += strlen(res[i].record ? res[i].record : "") + 1;
    }
    double *mine = pips_malloc(NULL, (n_doubles ? n_doubles : 1) * sizeof *mine);
    char *my_text = pips_malloc(NULL, n_bytes ? n_bytes : 1);
    int *counts = pips_calloc(NULL, (size_t)size, sizeof *counts);
    int *displs = pips_calloc(NULL, (size_t)size, sizeof *displs);
    double *all = NULL;
    char *all_text = NULL;
    bool ok = mine && my_text && counts && displs;
    if (ok) {
        size_t k = 0, t = 0;
        for (unsigned long i = (unsigned long)rank; i < games; i += (unsigned long)size) {
            k += pack_game(&res[i], i, np, mine + k);
            if (records) {
                const char *rec = res[i].record ? res[i].record : "";
                memcpy(my_text + t, rec, strlen(rec) + 1);
                t += strlen(rec) + 1;
            }
        }
        int my_count = (int)n_doubles;
        MPI_Allgather(&my_count, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
        size_t total = 0;
        for (int r = 0; r < size; r++) {
            displs[r] = (int)total;
            total += (size_t)counts[r];
        }
        all = pips_malloc(NULL, (total ? total : 1) * sizeof *all);
        ok = all != NULL;
        MPI_Allgatherv(mine, my_count, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE,
                       MPI_COMM_WORLD);
        /* unpack the other ranks' games */
        for (int r = 0; r < size && ok; r++) {
            if (r == rank)
                continue;
            size_t pos = (size_t)displs[r], end = pos + (size_t)counts[r];
            while (pos < end && ok) {
                size_t used;
                unsigned long index;
                ok = unpack_game(all + pos, end - pos, np, res, games, &used, &index);
                pos += used;
            }
        }
        if (records) {
            int my_bytes = (int)n_bytes;
            MPI_Allgather(&my_bytes, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
            size_t tb = 0;
            for (int r = 0; r < size; r++) {
                displs[r] = (int)tb;
                tb += (size_t)counts[r];
            }
            all_text = pips_malloc(NULL, tb ? tb : 1);
            MPI_Allgatherv(my_text, my_bytes, MPI_CHAR, all_text, counts, displs, MPI_CHAR,
                           MPI_COMM_WORLD);
            for (int r = 0; r < size && ok && all_text; r++) {
                if (r == rank)
                    continue;
                const char *p = all_text + displs[r];
                for (unsigned long i = (unsigned long)r; i < games && ok; i += (unsigned long)size) {
                    res[i].record = pips_strdup(NULL, p);
                    ok = res[i].record != NULL;
                    p += strlen(p) + 1;
                }
            }
            ok = ok && all_text;
        }
    }
    pips_free(NULL, mine);
    pips_free(NULL, my_text);
    pips_free(NULL, counts);
    pips_free(NULL, displs);
    pips_free(NULL, all);
    pips_free(NULL, all_text);
    if (!ok)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory gathering the games of all ranks");
    return true;
#else
    (void)res;
    (void)games;
    (void)np;
    (void)records;
    (void)err;
    return local_ok;
#endif
}
