/*
 * dist.c — spreading a playtest over MPI ranks (only in a -DPIPS_MPI=ON
 * build; otherwise one process plays everything). The jobs of a run are
 * (variant, game) pairs, variant-major; rank r plays the jobs whose number
 * is r modulo the rank count. Afterwards the ranks add up their running
 * sums (MPI_Allreduce of the counts, which are exact integers, so the sum
 * is the one a single process makes) and share the decisive points and
 * kept records (MPI_Allgatherv): every rank computes the same report as a
 * single process would.
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
/* Replaces every rank's list (*items, n of elem bytes) by all ranks'
 * lists one after another, in rank order. */
static bool gather_all(void **items, size_t *n, size_t *cap, MPI_Datatype type, size_t elem,
                       int size)
{
    int mine = (int)*n, ok_in, ok_all = 0;
    int *counts = pips_calloc(NULL, (size_t)size, sizeof *counts);
    int *displs = pips_calloc(NULL, (size_t)size, sizeof *displs);
    ok_in = counts && displs;
    MPI_Allreduce(&ok_in, &ok_all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    void *all = NULL;
    if (ok_all) {
        MPI_Allgather(&mine, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
        size_t total = 0;
        for (int r = 0; r < size; r++) {
            displs[r] = (int)total;
            total += (size_t)counts[r];
        }
        all = pips_malloc(NULL, (total ? total : 1) * elem);
        ok_in = all != NULL;
        MPI_Allreduce(&ok_in, &ok_all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (ok_all) {
            MPI_Allgatherv(*items, mine, type, all, counts, displs, type, MPI_COMM_WORLD);
            pips_free(NULL, *items);
            *items = all;
            *n = *cap = total;
            all = NULL;
        }
    }
    pips_free(NULL, all);
    pips_free(NULL, counts);
    pips_free(NULL, displs);
    return ok_all;
}

static bool combine_acc(lab_acc *a, int size)
{
    unsigned long long cap = a->plies_cap, max_cap = 0;
    MPI_Allreduce(&cap, &max_cap, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    int ok_in = lab_acc_reserve(a, (size_t)max_cap), ok_all = 0;
    MPI_Allreduce(&ok_in, &ok_all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!ok_all)
        return false;
    size_t n = lab_acc_fields(a);
    uint64_t *buf = pips_malloc(NULL, n * sizeof *buf);
    ok_in = buf != NULL;
    MPI_Allreduce(&ok_in, &ok_all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!ok_all) {
        pips_free(NULL, buf);
        return false;
    }
    lab_acc_pack(a, buf, false);
    MPI_Allreduce(MPI_IN_PLACE, buf, (int)n, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    lab_acc_pack(a, buf, true);
    pips_free(NULL, buf);
    MPI_Allreduce(MPI_IN_PLACE, a->time_sum, LAB_MAX_N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, a->time_max, LAB_MAX_N, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    /* the decisive points and game hashes: every rank's list, in rank
     * order (sorted later) */
    return gather_all((void **)&a->decisive, &a->n_decisive, &a->decisive_cap, MPI_DOUBLE,
                      sizeof *a->decisive, size) &&
           gather_all((void **)&a->hashes, &a->n_hashes, &a->hashes_cap, MPI_UINT64_T,
                      sizeof *a->hashes, size);
}

/* Gives every rank every record: rank r holds the records of its jobs
 * (job j = variant * games + game, played by rank j mod size). */
static bool combine_records(char ***records, size_t n_var, unsigned long games, int rank,
                           int size)
{
    unsigned long jobs = (unsigned long)n_var * games;
    size_t n_bytes = 0;
    for (unsigned long j = (unsigned long)rank; j < jobs; j += (unsigned long)size) {
        const char *rec = records[j / games][j % games];
        n_bytes += strlen(rec ? rec : "") + 1;
    }
    char *mine = pips_malloc(NULL, n_bytes ? n_bytes : 1);
    int *counts = pips_calloc(NULL, (size_t)size, sizeof *counts);
    int *displs = pips_calloc(NULL, (size_t)size, sizeof *displs);
    int ok_in = mine && counts && displs, ok_all = 0;
    MPI_Allreduce(&ok_in, &ok_all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    char *all = NULL;
    if (ok_all) {
        size_t t = 0;
        for (unsigned long j = (unsigned long)rank; j < jobs; j += (unsigned long)size) {
            const char *rec = records[j / games][j % games];
            rec = rec ? rec : "";
            memcpy(mine + t, rec, strlen(rec) + 1);
            t += strlen(rec) + 1;
        }
        int my_bytes = (int)n_bytes;
        MPI_Allgather(&my_bytes, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
        size_t tb = 0;
        for (int r = 0; r < size; r++) {
            displs[r] = (int)tb;
            tb += (size_t)counts[r];
        }
        all = pips_malloc(NULL, tb ? tb : 1);
        ok_in = all != NULL;
        MPI_Allreduce(&ok_in, &ok_all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (ok_all)
            MPI_Allgatherv(mine, my_bytes, MPI_CHAR, all, counts, displs, MPI_CHAR,
                           MPI_COMM_WORLD);
        for (int r = 0; r < size && ok_all; r++) {
            if (r == rank)
                continue;
            const char *p = all + displs[r];
            for (unsigned long j = (unsigned long)r; j < jobs && ok_all; j += (unsigned long)size) {
                char **slot = &records[j / games][j % games];
                *slot = pips_strdup(NULL, p);
                ok_all = *slot != NULL;
                p += strlen(p) + 1;
            }
        }
    }
    pips_free(NULL, mine);
    pips_free(NULL, counts);
    pips_free(NULL, displs);
    pips_free(NULL, all);
    return ok_all;
}
#endif

bool lab_dist_combine(lab_acc *acc, size_t n, char ***records, unsigned long games,
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
    bool ok = true;
    for (size_t v = 0; v < n && ok; v++)
        ok = combine_acc(&acc[v], size);
    if (ok && records)
        ok = combine_records(records, n, games, rank, size);
    if (!ok)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory combining the results of all ranks");
    return true;
#else
    (void)acc;
    (void)n;
    (void)records;
    (void)games;
    (void)err;
    return local_ok;
#endif
}
