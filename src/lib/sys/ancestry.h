/* The processes above this one, as Linux's /proc shows them: whom a trial
 * belongs to (bench_watch.c), and whether an MPI launcher started us
 * (mpi_process.c, heat2d check). Elsewhere nothing is known: no parent,
 * no ancestor. */
#ifndef HEAT2D_ANCESTRY_H
#define HEAT2D_ANCESTRY_H

#include <stdbool.h>
#include <sys/types.h>

/* The parent of pid, or 0 when it cannot be told. */
pid_t heat2d_parent_of(pid_t pid);

/* Whether who is among this process's ancestors (at most 64 up). */
bool heat2d_has_ancestor(pid_t who);

/* Whether a process among this one's ancestors (at most depth up) runs a
 * program named one of names (its command name, as ps shows it). */
bool heat2d_ancestor_named(const char *const names[], int depth);

/* Whether an MPI launcher (mpirun, mpiexec, srun, hydra's proxy, their
 * daemons) is among this process's ancestors, a few levels up to allow a
 * wrapper script between; asked once. The launchers' variables count only
 * there: inherited by whatever starts below a shell that has them (a
 * user's exported PMI_RANK, a script copied from a job), they say nothing. */
bool heat2d_under_mpi_launcher(void);

/* Whether a launcher started this process as a rank of a job, of one rank
 * or more: one of its rank variables is set (OMPI_COMM_WORLD_SIZE,
 * PMIX_RANK, PMI_SIZE, PMI_RANK) and it is above us. */
bool heat2d_launched_as_rank(void);

#endif
