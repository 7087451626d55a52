/* What the OpenMP target methods share: the update of one cell, and the
 * target region of one whole time step as the original writes it. Both
 * arrays must already be mapped. Written over REAL and FN (heat2d_real.h),
 * for the methods' *_real.c files. Function bodies in a header because
 * they are device code that must be inlined: a `declare target` function
 * and the regions that call it are compiled in one file, and the update
 * inlined into each region keeps it one kernel without calls. */
#ifndef HEAT2D_OMP_TARGET_STENCIL_H
#define HEAT2D_OMP_TARGET_STENCIL_H

#include "heat2d_real.h"

#include <math.h>
#include <stddef.h>

/* u + alpha*(uW + uE + uS + uN - 4u), every operation rounded where the
 * reference rounds it, so that the GPU's field is bit-identical to cpu's.
 *
 * -ffp-contract=off is not enough on NVIDIA GPUs: the PTX that GCC's nvptx
 * back end writes for alpha*d + c is a mul and an add without a rounding
 * modifier, which ptxas (in the driver, at load) may fuse into one fma,
 * and does (acc_stencil.h, where OpenACC meets the same). fma(alpha, d,
 * -0.0) carries its rounding (fma.rn) and is the product rounded once,
 * exactly alpha*d (adding -0 changes no value and no zero's sign); the add
 * after it has nothing left to fuse with, and 4*c is exact. Unlike OpenACC,
 * OpenMP offers no device test that GCC folds away (omp_is_initial_device
 * stays a call per cell), so the host runs the fma too: a library call per
 * cell, where only OMP_TARGET_OFFLOAD=DISABLED puts these methods, the
 * same bits at a host's pace. */
#pragma omp declare target
static inline REAL FN(heat2d_omp_target_update)(REAL c, REAL w, REAL e, REAL s, REAL n, REAL alpha)
{
    const REAL d = w + e + s + n - (REAL)4 * c;
    return c + REAL_FMA(alpha, d, (REAL)-0.0);
}
#pragma omp end declare target

/* One step over every cell, written as the original writes it: one
 * collapsed loop, boundary cells set to 0, interior cells updated. The
 * host waits for the region before it goes on. */
static inline void FN(heat2d_omp_target_step)(size_t nx, size_t ny, REAL alpha,
                                              const REAL *restrict u, REAL *restrict v)
{
#pragma omp target teams distribute parallel for simd collapse(2)
    for (size_t j = 0; j < ny; ++j) {
        for (size_t i = 0; i < nx; ++i) {
            const size_t k = j * nx + i;
            if (i == 0 || i == nx - 1 || j == 0 || j == ny - 1)
                v[k] = 0;
            else
                v[k] = FN(heat2d_omp_target_update)(u[k], u[k - 1], u[k + 1], u[k - nx], u[k + nx],
                                                    alpha);
        }
    }
}

#endif
