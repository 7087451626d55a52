/* The rule that decides where cuda-tb's scaled four-operation form runs
 * (level t carries u / alpha^t): inside each precision's range it does,
 * and where alpha^depth is not a normal number or bound / alpha^depth
 * nears the largest value, the fused form runs instead. Host code only:
 * no GPU needed. */
#include "cuda_tb_kernels.h"
#include "unit_check.h"

#include <float.h>
#include <math.h>

static bool in_range(heat2d_precision p, unsigned depth, double alpha, double bound)
{
    return heat2d_cuda_tb_scaled_in_range(p, depth, alpha, bound);
}

int main(void)
{
    /* The problem's own alphas and the unit field. */
    check(in_range(HEAT2D_F64, 8, 0.1, 1.0), "f64 depth 8 alpha 0.1 is scaled");
    check(in_range(HEAT2D_F32, 9, 0.1, 1.0), "f32 depth 9 alpha 0.1 is scaled");
    check(in_range(HEAT2D_F64, 8, 0.25, 1.0), "f64 alpha 0.25 is scaled");
    check(in_range(HEAT2D_F32, 9, 0.01, 1.0), "f32 alpha 0.01 (1e18 a pass) is scaled");
    check(in_range(HEAT2D_F64, 8, 0.1, 0.0), "a zero field is scaled");
    /* alpha^depth below the smallest normal number. */
    check(!in_range(HEAT2D_F32, 9, 1e-5, 1.0), "f32 alpha 1e-5 (1e-45 a pass) is not");
    check(in_range(HEAT2D_F64, 9, 1e-5, 1.0), "f64 alpha 1e-5 is");
    check(!in_range(HEAT2D_F64, 8, 1e-39, 1.0), "f64 alpha 1e-39 (1e-312 a pass) is not");
    /* A large field: bound / alpha^depth against the largest value / 2^10. */
    const double edge32 = (double)FLT_MAX / 1024.0 * pow(0.01, 9);
    check(in_range(HEAT2D_F32, 9, 0.01, edge32 * 0.99), "f32 just inside the headroom");
    check(!in_range(HEAT2D_F32, 9, 0.01, edge32 * 1.01), "f32 just outside it");
    check(!in_range(HEAT2D_F64, 8, 0.1, DBL_MAX / 1e3), "f64 bound near DBL_MAX is not");
    check(!in_range(HEAT2D_F64, 8, 0.0, 1.0), "alpha 0 is not");
    printf("tb_range: %lu passed, %lu failed\n", passed, failed);
    return failed == 0 && passed == 12 ? 0 : 1;
}
