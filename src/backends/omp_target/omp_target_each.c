/* omp-target-each: acc-each's port in OpenMP. The target data region sits
 * inside the time loop, so u goes up and v comes down on every step; in
 * f32, 4-byte cells. Measurements: docs/performance.md, "omp-target". */
#include "omp_target_runtime.h"

static int omp_target_each_prepare(const heat2d_config *cfg, heat2d_report *rep, heat2d_error *err)
{
    return heat2d_omp_target_prepare("omp-target-each", cfg, rep, err);
}

/* Its solves, omp_target_each_real.c's in each precision. */
HEAT2D_REAL_METHOD(heat2d_method_omp_target_each, omp_target_each_solve, .name = "omp-target-each",
                   .seed_name = "OMP_TARGET_EACH_STEP", .style = HEAT2D_STYLE_EACH,
                   .gpu_only = true, .on_host_here = heat2d_omp_target_on_host_here,
                   .prepare = omp_target_each_prepare);
