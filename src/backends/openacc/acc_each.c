/* acc-each: the naive port. The data region sits inside the time loop, so
 * u goes up and v comes down on every step; in f32, 4-byte cells.
 * Measurements: docs/performance.md, "acc-each". */
#include "acc_runtime.h"
#include "acc_stencil.h"

static int acc_each_prepare(const heat2d_config *cfg, heat2d_report *rep, heat2d_error *err)
{
    return heat2d_acc_prepare("acc-each", cfg, rep, err);
}

#define HEAT2D_REAL_SOURCE "acc_each_real.h"
#include "heat2d_precisions.h"

HEAT2D_METHOD(heat2d_method_acc_each, acc_each_solve, acc_each_solve_f32, .name = "acc-each",
              .seed_name = "ACC_EACH_STEP", .style = HEAT2D_STYLE_EACH, .gpu_only = true,
              .on_host_here = heat2d_acc_on_host_here, .prepare = acc_each_prepare);
