/* cpu: the serial reference, faithful to the original's arithmetic; in f32
 * the same operations in float. The kernels are stencil_cpu_real.h's.
 * Measurements: docs/performance.md, "cpu". */
#include "heat2d.h"
#include "stencil_cpu.h"

#include <math.h>
#include <stdint.h>

/* The loop in either precision: u and v hold cells of k->cell_bytes. */
static int cpu_loop(const heat2d_config *cfg, void *u, void *v, void **result, heat2d_report *rep,
                    heat2d_error *err)
{
    const heat2d_cpu_kernels *k = heat2d_cpu_kernels_for(cfg->precision);
    const size_t nx = cfg->nx;
    const size_t ny = cfg->ny;
    /* Steps done when a non-finite field was found; SIZE_MAX: none. */
    size_t bad_after = SIZE_MAX;
    double t0 = heat2d_now();
    for (size_t step = 0; step < cfg->steps; ++step) {
        /* u is the field after `step` steps; the kernel checks it as it
         * reads it, so the run stops at the first step that went wrong. */
        if (!k->step_rows(nx, ny, 0, ny, cfg->alpha, u, v)) {
            bad_after = step;
            break;
        }
        if (step + 1 == cfg->fault_nan_step)
            k->set(v, heat2d_cpu_fault_cell(nx, ny), NAN);
        /* Jacobi: swap the roles, copy nothing. */
        void *swap = u;
        u = v;
        v = swap;
        /* A snapshot is the field itself: nothing to copy. */
        const size_t done = step + 1;
        if (cfg->output_every > 0 && (done % cfg->output_every == 0 || done == cfg->steps) &&
            heat2d_hand_snapshot(cfg, done, u, NULL, rep, err) != 0) {
            heat2d_report_phase(rep, "CPU_LOOP_S", heat2d_now() - t0);
            return -1;
        }
    }
    if (bad_after == SIZE_MAX && !k->rows_finite(nx, 0, ny, u))
        bad_after = cfg->steps;
    heat2d_report_phase(rep, "CPU_LOOP_S", heat2d_now() - t0);
    if (bad_after != SIZE_MAX)
        return heat2d_cpu_fail_nonfinite(k, nx, ny, u, bad_after, err);
    *result = u;
    return 0;
}

HEAT2D_PRECISION_METHOD(heat2d_method_cpu, cpu_loop, .name = "cpu", .seed_name = "CPU_REFERENCE",
                        .style = HEAT2D_STYLE_HOST, .checks_each_step = true,
                        .has_snapshots = true);
