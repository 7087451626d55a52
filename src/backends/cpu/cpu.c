/* cpu: the serial reference, faithful to the original's arithmetic; in f32
 * the same operations in float. The kernels are stencil_cpu_real.c's.
 * Measurements: docs/performance.md, "cpu". */
#include "heat2d.h"
#include "stencil_cpu.h"

#include <math.h>
#include <stdint.h>

/* A run in either precision: u and v hold cells of k->cell_bytes, u the
 * field after `done` steps. */
typedef struct cpu_run {
    const heat2d_cpu_kernels *k;
    const heat2d_config *cfg;
    heat2d_report *rep;
    void *u, *v;
    size_t done;
} cpu_run;

/* count steps; 1 when the field after `done` steps is not finite (the
 * kernel checks u as it reads it, so the run stops at the first step that
 * went wrong). */
static int cpu_advance(void *run, size_t count, heat2d_error *err)
{
    (void)err;
    cpu_run *r = run;
    const size_t nx = r->cfg->nx;
    const size_t ny = r->cfg->ny;
    for (size_t end = r->done + count; r->done < end; ++r->done) {
        if (!r->k->step_rows(nx, ny, 0, ny, r->cfg->alpha, r->u, r->v))
            return 1;
        if (r->done + 1 == r->cfg->fault_nan_step)
            r->k->set(r->v, heat2d_cpu_fault_cell(nx, ny), NAN);
        /* Jacobi: swap the roles, copy nothing. */
        void *swap = r->u;
        r->u = r->v;
        r->v = swap;
    }
    return 0;
}

/* A snapshot is the field itself: nothing to copy. */
static int cpu_snapshot(void *run, size_t done, heat2d_error *err)
{
    cpu_run *r = run;
    return heat2d_hand_snapshot(r->cfg, done, r->u, NULL, r->rep, err) != 0 ? -1 : 0;
}

static int cpu_loop(const heat2d_config *cfg, void *u, void *v, void **result, heat2d_report *rep,
                    heat2d_error *err)
{
    cpu_run r = {
        .k = heat2d_cpu_kernels_for(cfg->precision), .cfg = cfg, .rep = rep, .u = u, .v = v};
    double t0 = heat2d_now();
    int rc = heat2d_run_segments(cfg, cpu_advance, cpu_snapshot, &r, err);
    if (rc == 0 && cfg->output_every > 0)
        rc = cpu_snapshot(&r, cfg->steps, err);
    /* Steps done when a non-finite field was found; SIZE_MAX: none. */
    size_t bad_after = rc > 0 ? r.done : SIZE_MAX;
    if (rc == 0 && !r.k->rows_finite(cfg->nx, 0, cfg->ny, r.u))
        bad_after = cfg->steps;
    heat2d_report_phase(rep, "CPU_LOOP_S", heat2d_now() - t0);
    if (rc < 0)
        return -1;
    if (bad_after != SIZE_MAX)
        return heat2d_cpu_fail_nonfinite(r.k, cfg->nx, cfg->ny, r.u, bad_after, err);
    *result = r.u;
    return 0;
}

HEAT2D_PRECISION_METHOD(heat2d_method_cpu, cpu_loop, .name = "cpu", .seed_name = "CPU_REFERENCE",
                        .style = HEAT2D_STYLE_HOST, .checks_each_step = true,
                        .has_snapshots = true);
