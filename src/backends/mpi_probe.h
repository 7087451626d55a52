/* Whether MPI starts on this machine, asked before anything plans an MPI
 * method (heat2d check, heat2d bench). MPI is an optional part: where it
 * cannot start (OpenMPI with no ssh or rsh, a broken installation), its
 * methods are left out with a note that says why and what to do, and the
 * main job goes on. The question is put to a child process, since a failed
 * MPI_Init prints pages and aborts the process that called it. */
#ifndef HEAT2D_MPI_PROBE_H
#define HEAT2D_MPI_PROBE_H

#include "methods.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct heat2d_mpi_probe {
    bool starts;
    /* Why not: the last meaningful line of MPI's own report (joined to
     * the line it explains), or how the child ended. */
    char reason[400];
    /* What to do about it, in words. */
    char fix[160];
} heat2d_mpi_probe;

/* The method the probe runs: the first distributed method of the build
 * that needs no GPU, else the first distributed one; NULL when the build
 * has none (then nothing needs MPI). */
const heat2d_method *heat2d_mpi_probe_method(void);

/* Runs the probe method on 8x8 for one step in a child process of its own
 * group (killed with this process by a fatal signal), MPI started and
 * ended there as a run does, its output captured, and fills p. Asked once
 * a process: later calls give the first answer. A build without MPI
 * methods starts nothing and answers "starts". */
void heat2d_mpi_probe_run(heat2d_mpi_probe *p);

/* "MPI could not start (REASON): the MPI methods (NAMES) are skipped; FIX":
 * the one line that check and bench write for p, names the methods they
 * leave out. */
void heat2d_mpi_skip_text(const heat2d_mpi_probe *p, const char *names, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_MPI_PROBE_H */
