/* The process hooks of an MPI build (process.h): starting and ending MPI,
 * this process's rank and the job's size, and ending the whole job. */
#include "ancestry.h"
#include "mpi_common.h"
#include "process.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>

/* Whether heat2d called MPI_Init, and so owes the MPI_Finalize; a program
 * that started MPI itself ends it itself. */
static bool started_here = false;

static bool mpi_running(void)
{
    int initialized = 0;
    int finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    return initialized && !finalized;
}

void heat2d_process_finalize(void)
{
    if (started_here && mpi_running())
        MPI_Finalize();
}

/* The program ends through main's return, which calls
 * heat2d_process_finalize; this covers every other way out of a program
 * that ran a distributed method in process (the unit tests, exit() on an
 * error path), because OpenMPI complains about a process that leaves
 * without MPI_Finalize. */
static void finalize_at_exit(void)
{
    heat2d_process_finalize();
}

int heat2d_mpi_start(const char *who, heat2d_error *err)
{
    int initialized = 0;
    int finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (finalized)
        return heat2d_fail(err, "%s: MPI was already finalized in this process", who);
    if (!initialized) {
        /* Plain MPI_Init: one thread makes every MPI call. */
        if (MPI_Init(NULL, NULL) != MPI_SUCCESS)
            return heat2d_fail(err, "%s: MPI_Init failed", who);
        started_here = true;
        atexit(finalize_at_exit);
    }
    /* Return codes instead of MPI's default abort, so that a failed call
     * becomes the one-line message every heat2d failure is; the Cartesian
     * communicator inherits the handler. */
    HEAT2D_MPI_CHECK(err, MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    return 0;
}

/* The first of the launchers' variables that holds a number: OpenMPI's
 * mpirun sets OMPI_COMM_WORLD_*, MPICH's hydra (and Slurm's PMI) PMI_*;
 * only under a launcher (heat2d_under_mpi_launcher says why). */
static int launcher_value(const char *const names[], int fallback)
{
    if (!heat2d_under_mpi_launcher())
        return fallback;
    for (size_t k = 0; names[k] != NULL; ++k) {
        const char *text = getenv(names[k]);
        if (text == NULL || text[0] == '\0')
            continue;
        char *end = NULL;
        long value = strtol(text, &end, 10);
        if (*end == '\0' && value >= 0 && value <= INT_MAX)
            return (int)value;
    }
    return fallback;
}

int heat2d_process_rank(void)
{
    if (mpi_running()) {
        int rank = 0;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        return rank;
    }
    static const char *const names[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", NULL};
    return launcher_value(names, 0);
}

int heat2d_process_count(void)
{
    if (mpi_running()) {
        int size = 1;
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        return size;
    }
    static const char *const names[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", NULL};
    return launcher_value(names, 1);
}

void heat2d_process_abort(int status)
{
    if (!mpi_running())
        return;
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 1)
        MPI_Abort(MPI_COMM_WORLD, status);
}

int heat2d_process_join(const char *method, const heat2d_config *cfg, heat2d_error *err)
{
    if (heat2d_process_count() <= 1)
        return 0;
    if (heat2d_mpi_start(method, err) != 0)
        return -1;
    return heat2d_mpi_settings_agree(method, cfg, err);
}
