/* The process a program runs in: its rank among the job's processes, their
 * count, and how the job ends. The library declares these and calls none of
 * them; every program links one implementation: process_serial.c (one
 * process, no MPI in the build) or the MPI backend's mpi_process.c. */
#ifndef HEAT2D_PROCESS_H
#define HEAT2D_PROCESS_H

#ifdef __cplusplus
extern "C" {
#endif

/* This process's rank and the job's process count. With MPI, the MPI
 * library is started only by a distributed method's prepare (a run of any
 * other method never touches it); before that, both come from the
 * launcher's environment (mpirun, srun), so that every rank can tell from
 * the first argument it parses whether it is the one that prints. */
int heat2d_process_rank(void);
int heat2d_process_count(void);

/* A run started by a launcher among several processes (mpirun -np 2
 * heat2d run, or one part of an MPMD launch): starts MPI and agrees on the
 * settings with the other ranks, as a distributed method's prepare does
 * again, before the run makes anything; for a method that is not
 * distributed, so that no rank is left waiting in MPI for this one (the
 * caller then refuses to run one process's method on several). 0 when
 * this process is alone; -1 with err when the ranks disagree. */
struct heat2d_config;
struct heat2d_error;
int heat2d_process_join(const char *method, const struct heat2d_config *cfg,
                        struct heat2d_error *err);

/* Ends MPI if a method started it; called once before the program exits. */
void heat2d_process_finalize(void);

/* Ends every process of the job with status (MPI_Abort) when there is more
 * than one; returns when this is the only one. */
void heat2d_process_abort(int status);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_PROCESS_H */
