/* The frame of an OpenMP target method's solve, in the precision of the
 * *_real.c file that includes it (heat2d_real.h): heat2d_omp_target_solve
 * in f64, heat2d_omp_target_solve_f32 in f32, both from
 * omp_target_solve_real.c. */
#ifndef HEAT2D_OMP_TARGET_SOLVE_H
#define HEAT2D_OMP_TARGET_SOLVE_H

#include "heat2d_real.h"
#include "omp_target_runtime.h"

/* A method's timed loop: u holds the initial state, v the same; the loop
 * reports its phases into rep and returns whichever of u and v holds the
 * final field on the host, or NULL with err when a snapshot's handler
 * stopped it. alpha is cfg->alpha rounded to REAL. */
typedef REAL *(*FN(heat2d_omp_target_loop))(const heat2d_config *cfg, REAL alpha, REAL *u, REAL *v,
                                            heat2d_report *rep, heat2d_error *err);

/* A solve of heat2d_method's contract: loop, between the transfer
 * counters' start and stop, for arrays of nx*ny cells of REAL. */
int FN(heat2d_omp_target_solve)(FN(heat2d_omp_target_loop) loop, const heat2d_config *cfg, REAL *u,
                                REAL *v, REAL **result, heat2d_report *rep, heat2d_error *err);

#endif
