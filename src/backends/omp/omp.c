/* omp: the reference's update on every core. Each thread takes a band of
 * rows and runs the same vectorised row kernel as cpu, so every cell sees
 * the same operations in the same order and the field is bit-identical to
 * cpu's. One parallel region spans the whole loop; threads meet at one
 * barrier per step instead of being forked and joined each step. */
#include "heat2d.h"
#include "stencil_cpu.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>

/* At least this many cells per thread: below it, a step is shorter than
 * the barrier that ends it, and more threads only wait longer (on a busy
 * machine, much longer). 16k cells is 128 KiB per array and thread. */
enum { MIN_CELLS_PER_THREAD = 16384 };

static int omp_threads_for(const heat2d_config *cfg)
{
    size_t cells = cfg->nx * cfg->ny;
    size_t useful = cells / MIN_CELLS_PER_THREAD;
    size_t most = (size_t)omp_get_max_threads();
    /* Each thread needs a band of at least one row. */
    most = most < cfg->ny ? most : cfg->ny;
    return (int)(useful < 1 ? 1 : useful < most ? useful : most);
}

static int omp_prepare(const heat2d_config *cfg, heat2d_report *rep, heat2d_error *err)
{
    (void)err;
    snprintf(rep->device, sizeof rep->device, "host (%d threads)", omp_threads_for(cfg));
    return 0;
}

static int omp_solve(const heat2d_config *cfg, double *u, double *v, double **result,
                     heat2d_report *rep, heat2d_error *err)
{
    const size_t nx = cfg->nx;
    const size_t ny = cfg->ny;
    const size_t steps = cfg->steps;
    const double alpha = cfg->alpha;
    const size_t fault_step = cfg->fault_nan_step;
    const size_t fault_cell = heat2d_cpu_fault_cell(nx, ny);
    /* 1 + the steps done when some thread found a non-finite field; 0:
     * none yet. Written by any thread, read by all after the barrier. */
    size_t seen = 0;
    double *bad_field = NULL;
    double t0 = heat2d_now();
#pragma omp parallel firstprivate(u, v) num_threads(omp_threads_for(cfg))
    {
        /* A fixed band per thread: the same rows stay in the same core's
         * cache and on the same NUMA node step after step. */
        size_t threads = (size_t)omp_get_num_threads();
        size_t me = (size_t)omp_get_thread_num();
        size_t begin = ny * me / threads;
        size_t end = ny * (me + 1) / threads;
        bool stopped = false;
        for (size_t step = 0; step < steps; ++step) {
            if (!heat2d_cpu_step_rows(nx, ny, begin, end, alpha, u, v)) {
#pragma omp atomic write
                seen = step + 1;
            }
            /* Only the band's owner writes the cell: no race with the
             * thread that computed it. */
            if (step + 1 == fault_step && fault_cell >= begin * nx && fault_cell < end * nx)
                v[fault_cell] = NAN;
#pragma omp barrier
            /* A thread already in the next step may record step + 2 while a
             * slower one reads here; it is ignored until every thread has
             * passed the next barrier, so all leave at the same step. */
            size_t s;
#pragma omp atomic read
            s = seen;
            if (s != 0 && s <= step + 1) {
                stopped = true;
                break;
            }
            double *swap = u;
            u = v;
            v = swap;
        }
        if (stopped) {
#pragma omp single
            bad_field = u;
        } else {
            /* The last step's field: each thread checks the rows it wrote
             * itself, so no barrier is needed before reading them. */
            if (!heat2d_cpu_rows_finite(nx, begin, end, u)) {
#pragma omp atomic write
                seen = steps + 1;
            }
#pragma omp single
            *result = u;
        }
    }
    heat2d_report_phase(rep, "CPU_LOOP_S", heat2d_now() - t0);
    if (seen != 0)
        return heat2d_fail_nonfinite(nx, ny, bad_field != NULL ? bad_field : *result, seen - 1,
                                     err);
    return 0;
}

const heat2d_method heat2d_method_omp = {
    .name = "omp",
    .seed_name = "CPU_OPENMP",
    .style = HEAT2D_STYLE_HOST,
    .gpu_only = false,
    .has_pinned_variant = false,
    .checks_each_step = true,
    .prepare = omp_prepare,
    .solve = omp_solve,
};
