/* omp: the reference's update on every core. Each thread takes a band of
 * rows and runs the same vectorised row kernel as cpu, so every cell sees
 * the same operations in the same order and the field is bit-identical to
 * cpu's. One parallel region spans the whole loop; threads meet at one
 * barrier per step instead of being forked and joined each step. */
#include "heat2d.h"
#include "stencil_cpu.h"

#include <omp.h>
#include <stdio.h>

static int omp_prepare(const heat2d_config *cfg, heat2d_report *rep, heat2d_error *err)
{
    (void)cfg;
    (void)err;
    snprintf(rep->device, sizeof rep->device, "host (%d threads)", omp_get_max_threads());
    return 0;
}

static int omp_solve(const heat2d_config *cfg, double *u, double *v, double **result,
                     heat2d_report *rep, heat2d_error *err)
{
    (void)err;
    const size_t nx = cfg->nx;
    const size_t ny = cfg->ny;
    const size_t steps = cfg->steps;
    const double alpha = cfg->alpha;
    double t0 = heat2d_now();
#pragma omp parallel firstprivate(u, v)
    {
        /* A fixed band per thread: the same rows stay in the same core's
         * cache and on the same NUMA node step after step. */
        size_t threads = (size_t)omp_get_num_threads();
        size_t me = (size_t)omp_get_thread_num();
        size_t begin = ny * me / threads;
        size_t end = ny * (me + 1) / threads;
        for (size_t step = 0; step < steps; ++step) {
            heat2d_cpu_step_rows(nx, ny, begin, end, alpha, u, v);
            double *swap = u;
            u = v;
            v = swap;
#pragma omp barrier
        }
#pragma omp single
        *result = u;
    }
    heat2d_report_phase(rep, "CPU_LOOP_S", heat2d_now() - t0);
    return 0;
}

const heat2d_method heat2d_method_omp = {
    .name = "omp",
    .seed_name = "CPU_OPENMP",
    .style = HEAT2D_STYLE_HOST,
    .gpu_only = false,
    .has_pinned_variant = false,
    .prepare = omp_prepare,
    .solve = omp_solve,
};
