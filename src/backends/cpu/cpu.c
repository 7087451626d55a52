/* cpu: the serial reference, faithful to the original's arithmetic. */
#include "heat2d.h"
#include "stencil_cpu.h"

#include <math.h>
#include <stdint.h>

static int cpu_solve(const heat2d_config *cfg, double *u, double *v, double **result,
                     heat2d_report *rep, heat2d_error *err)
{
    const size_t nx = cfg->nx;
    const size_t ny = cfg->ny;
    /* Steps done when a non-finite field was found; SIZE_MAX: none. */
    size_t bad_after = SIZE_MAX;
    double t0 = heat2d_now();
    for (size_t step = 0; step < cfg->steps; ++step) {
        /* u is the field after `step` steps; the kernel checks it as it
         * reads it, so the run stops at the first step that went wrong. */
        if (!heat2d_cpu_step_rows(nx, ny, 0, ny, cfg->alpha, u, v)) {
            bad_after = step;
            break;
        }
        if (step + 1 == cfg->fault_nan_step)
            v[heat2d_cpu_fault_cell(nx, ny)] = NAN;
        /* Jacobi: swap the roles, copy nothing. */
        double *swap = u;
        u = v;
        v = swap;
    }
    if (bad_after == SIZE_MAX && !heat2d_cpu_rows_finite(nx, 0, ny, u))
        bad_after = cfg->steps;
    heat2d_report_phase(rep, "CPU_LOOP_S", heat2d_now() - t0);
    if (bad_after != SIZE_MAX)
        return heat2d_fail_nonfinite(nx, ny, u, bad_after, err);
    *result = u;
    return 0;
}

const heat2d_method heat2d_method_cpu = {
    .name = "cpu",
    .seed_name = "CPU_REFERENCE",
    .style = HEAT2D_STYLE_HOST,
    .gpu_only = false,
    .has_pinned_variant = false,
    .checks_each_step = true,
    .prepare = NULL,
    .solve = cpu_solve,
};
