/* cpu: the serial reference, faithful to the original's arithmetic. */
#include "heat2d.h"
#include "stencil_cpu.h"

static int cpu_solve(const heat2d_config *cfg, double *u, double *v, double **result,
                     heat2d_report *rep, heat2d_error *err)
{
    (void)err;
    double t0 = heat2d_now();
    for (size_t step = 0; step < cfg->steps; ++step) {
        heat2d_cpu_step_rows(cfg->nx, cfg->ny, 0, cfg->ny, cfg->alpha, u, v);
        /* Jacobi: swap the roles, copy nothing. */
        double *swap = u;
        u = v;
        v = swap;
    }
    heat2d_report_phase(rep, "CPU_LOOP_S", heat2d_now() - t0);
    *result = u;
    return 0;
}

const heat2d_method heat2d_method_cpu = {
    .name = "cpu",
    .seed_name = "CPU_REFERENCE",
    .style = HEAT2D_STYLE_HOST,
    .gpu_only = false,
    .has_pinned_variant = false,
    .prepare = NULL,
    .solve = cpu_solve,
};
