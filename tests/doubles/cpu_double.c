/* cpu-double: a test double, built only with HEAT2D_TEST_DOUBLES=ON: cpu's
 * solve under a name of its own, so that a test can show that a method
 * joins the registry, heat2d methods, heat2d info, the check and the bench
 * from its file and its declaration alone (src/backends/cpu/methods.cmake). */
#include "heat2d.h"

extern const heat2d_method heat2d_method_cpu;

static int double_solve(const heat2d_config *cfg, double *u, double *v, double **result,
                        heat2d_report *rep, heat2d_error *err)
{
    return heat2d_method_cpu.solve(cfg, u, v, result, rep, err);
}

static int double_solve_f32(const heat2d_config *cfg, float *u, float *v, float **result,
                            heat2d_report *rep, heat2d_error *err)
{
    return heat2d_method_cpu.solve_f32(cfg, u, v, result, rep, err);
}

HEAT2D_METHOD(heat2d_method_cpu_double, double_solve, double_solve_f32, .name = "cpu-double",
              .seed_name = "CPU_DOUBLE", .style = HEAT2D_STYLE_HOST, .checks_each_step = true,
              .has_snapshots = true);
