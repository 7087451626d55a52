/* omp-target-each's loop in one precision: heat2d_precisions.h includes
 * this file twice, defining REAL (double or float) and FN(name) (the name
 * in that precision). No include guard, on purpose. */

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

static int FN(omp_target_each_solve)(const heat2d_config *cfg, REAL *u, REAL *v, REAL **result,
                                     heat2d_report *rep, heat2d_error *err)
{
    return FN(heat2d_omp_target_solve)(FN(omp_target_each_loop), cfg, u, v, result, rep, err);
}
