/* acc-each: the naive port. The data region sits inside the time loop, so
 * u goes up and v comes down on every step; in f32, 4-byte cells.
 * Measurements: docs/performance.md, "acc-each". */
#include "acc_runtime.h"

static int acc_each_prepare(const heat2d_config *cfg, heat2d_report *rep, heat2d_error *err)
{
    return heat2d_acc_prepare("acc-each", cfg, rep, err);
}

/* Its solves, acc_each_real.c's in each precision. */
HEAT2D_REAL_METHOD(heat2d_method_acc_each, acc_each_solve, .name = "acc-each",
                   .seed_name = "ACC_EACH_STEP", .style = HEAT2D_STYLE_EACH, .gpu_only = true,
                   .on_host_here = heat2d_acc_on_host_here, .prepare = acc_each_prepare);
