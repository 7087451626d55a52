/* acc-each: the naive port. The data region sits inside the time loop, so
 * u goes up and v comes down on every step. */
#include "acc_runtime.h"
#include "acc_stencil.h"

static int acc_each_prepare(const heat2d_config *cfg, heat2d_report *rep, heat2d_error *err)
{
    return heat2d_acc_prepare("acc-each", cfg, rep, err);
}

static int acc_each_solve(const heat2d_config *cfg, double *u, double *v, double **result,
                          heat2d_report *rep, heat2d_error *err)
{
    size_t n = cfg->nx * cfg->ny;
    if (heat2d_acc_transfers_start(err) != 0)
        return -1;
    double t0 = heat2d_now();
    for (size_t step = 0; step < cfg->steps; ++step) {
#pragma acc data copyin(u [0:n]) copyout(v [0:n])
        {
            heat2d_acc_step(cfg->nx, cfg->ny, cfg->alpha, u, v);
        }
        /* v is back on the host, so swapping the host pointers is safe. */
        double *swap = u;
        u = v;
        v = swap;
    }
    heat2d_report_phase(rep, "STEP_REGIONS_S", heat2d_now() - t0);
    if (heat2d_acc_transfers_stop(rep, n * sizeof(double), err) != 0)
        return -1;
    *result = u;
    return 0;
}

const heat2d_method heat2d_method_acc_each = {
    .name = "acc-each",
    .seed_name = "ACC_EACH_STEP",
    .style = HEAT2D_STYLE_EACH,
    .prepare = acc_each_prepare,
    .solve = acc_each_solve,
};
