/* The frame of an OpenACC method's solve, in the precision of the
 * *_real.c file that includes it (heat2d_real.h): heat2d_acc_solve in f64,
 * heat2d_acc_solve_f32 in f32, both from acc_solve_real.c. */
#ifndef HEAT2D_ACC_SOLVE_H
#define HEAT2D_ACC_SOLVE_H

#include "acc_runtime.h"
#include "heat2d_real.h"

/* A method's timed loop: u holds the initial state, v the same; the loop
 * reports its phases into rep and returns whichever of u and v holds the
 * final field on the host, or NULL with err when a snapshot's handler
 * stopped it. alpha is cfg->alpha rounded to REAL. */
typedef REAL *(*FN(heat2d_acc_loop))(const heat2d_config *cfg, REAL alpha, REAL *u, REAL *v,
                                     heat2d_report *rep, heat2d_error *err);

/* A solve of heat2d_method's contract: loop, between
 * heat2d_acc_transfers_start and heat2d_acc_transfers_stop, which count what
 * crossed for arrays of nx*ny cells of REAL. */
int FN(heat2d_acc_solve)(FN(heat2d_acc_loop) loop, const heat2d_config *cfg, REAL *u, REAL *v,
                         REAL **result, heat2d_report *rep, heat2d_error *err);

#endif
