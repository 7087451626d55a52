/* acc-each's loop in one precision: acc_precisions.h includes this
 * file twice, defining REAL (double or float), FN(name) (the name in that
 * precision) and ACC_FMA (fma or fmaf). No include guard, on purpose. */

static int FN(acc_each_solve)(const heat2d_config *cfg, REAL *u, REAL *v, REAL **result,
                              heat2d_report *rep, heat2d_error *err)
{
    size_t n = cfg->nx * cfg->ny;
    const REAL alpha = (REAL)cfg->alpha;
    if (heat2d_acc_transfers_start(err) != 0)
        return -1;
    double t0 = heat2d_now();
    for (size_t step = 0; step < cfg->steps; ++step) {
#pragma acc data copyin(u [0:n]) copyout(v [0:n])
        {
            FN(heat2d_acc_step)(cfg->nx, cfg->ny, alpha, u, v);
        }
        /* v is back on the host, so swapping the host pointers is safe. */
        REAL *swap = u;
        u = v;
        v = swap;
    }
    heat2d_report_phase(rep, "STEP_REGIONS_S", heat2d_now() - t0);
    if (heat2d_acc_transfers_stop(rep, n * sizeof(REAL), err) != 0)
        return -1;
    *result = u;
    return 0;
}
