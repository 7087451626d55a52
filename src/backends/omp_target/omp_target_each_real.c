/* omp-target-each's loop, written once for both precisions
 * (heat2d_real.h); the method is omp_target_each.c's. */
#include "omp_target_solve.h"
#include "omp_target_stencil.h"

HEAT2D_REAL_SOLVERS(omp_target_each_solve);

static REAL *FN(omp_target_each_loop)(const heat2d_config *cfg, REAL alpha, REAL *u, REAL *v,
                                      heat2d_report *rep, heat2d_error *err)
{
    (void)err; /* takes no snapshots */
    const size_t n = cfg->nx * cfg->ny;
    const double t0 = heat2d_now();
    for (size_t step = 0; step < cfg->steps; ++step) {
#pragma omp target data map(to : u [0:n]) map(from : v [0:n])
        {
            FN(heat2d_omp_target_step)(cfg->nx, cfg->ny, alpha, u, v);
        }
        /* v is back on the host, so swapping the host pointers is safe. */
        REAL *swap = u;
        u = v;
        v = swap;
    }
    heat2d_report_phase(rep, "STEP_REGIONS_S", heat2d_now() - t0);
    return u;
}

int FN(omp_target_each_solve)(const heat2d_config *cfg, REAL *u, REAL *v, REAL **result,
                              heat2d_report *rep, heat2d_error *err)
{
    return FN(heat2d_omp_target_solve)(FN(omp_target_each_loop), cfg, u, v, result, rep, err);
}
