/* What the OpenACC methods share: the update of one cell, and the compute
 * region of one whole time step as the original writes it. Both arrays must
 * already be present on the device. Written over REAL and FN
 * (heat2d_real.h), for the methods' *_real.c files. Function bodies in a
 * header because they are device code that must be inlined: an `acc
 * routine` and the region that calls it are compiled in one file, and the
 * update inlined into each kernel keeps it one kernel without calls. */
#ifndef HEAT2D_ACC_STENCIL_H
#define HEAT2D_ACC_STENCIL_H

#include "heat2d_real.h"

#include <math.h>
#include <openacc.h>
#include <stddef.h>

/* u + alpha*(uW + uE + uS + uN - 4u), every operation rounded where the
 * reference rounds it, so that the GPU's field is bit-identical to cpu's.
 *
 * -ffp-contract=off is not enough on NVIDIA GPUs: GCC's nvptx back end
 * writes mul.f64 and add.f64 without a rounding modifier, and PTX lets
 * ptxas (inside the driver, which compiles the PTX when the program
 * starts) fuse such a pair into one fma, whatever the compiler was told.
 * It does: alpha*d + c became one DFMA, and the field drifted from cpu's
 * by about 3e-18. fma.rn carries its rounding mode, so ptxas leaves it
 * alone; fma(alpha, d, -0.0) is the product rounded once, exactly
 * alpha*d (adding -0 changes no value and no zero's sign, IEEE 754), and
 * the add after it has no multiply left to fuse with. The remaining
 * 4.0*c - ptxas may fuse it into the subtraction - is exact (a power of
 * two times a value far from overflow), so fused or not it rounds the same.
 * On the host, where nothing fuses (-ffp-contract=off), the plain product
 * is kept: there fma() would be a library call per cell. Whether the code
 * runs on a device is a constant in each of the compiler's two
 * compilations (host and device), folded away: GCC folds its builtin, but
 * with -std=c11 (strict ISO, no GNU builtins under plain names) an
 * acc_on_device() call stays a call, once per cell. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__NVCOMPILER) && !defined(__PGI)
#define HEAT2D_ACC_ON_DEVICE() __builtin_acc_on_device(acc_device_not_host)
#else
#define HEAT2D_ACC_ON_DEVICE() acc_on_device(acc_device_not_host)
#endif

/* The update and the whole step in this file's precision: f64 under the
 * plain names (heat2d_acc_update, heat2d_acc_step), f32 under names ending
 * in _f32, every operation in float, alpha's product an fmaf(alpha, d,
 * -0.0f) on a device for the same reason as above. */
#pragma acc routine seq
static inline REAL FN(heat2d_acc_update)(REAL c, REAL w, REAL e, REAL s, REAL n, REAL alpha)
{
    REAL d = w + e + s + n - (REAL)4 * c;
    REAL p = HEAT2D_ACC_ON_DEVICE() ? REAL_FMA(alpha, d, (REAL)-0.0) : alpha * d;
    return c + p;
}

/* Interior cell k of v from its neighbours in u, rows of nx cells: the
 * body of acc-resident's row and collapse schedules. (The step below keeps
 * its own store: merged with the boundary's 0, it compiles to one store.) */
#pragma acc routine seq
static inline void FN(heat2d_acc_update_cell)(const REAL *restrict u, REAL *restrict v, size_t nx,
                                              size_t k, REAL alpha)
{
    v[k] = FN(heat2d_acc_update)(u[k], u[k - 1], u[k + 1], u[k - nx], u[k + nx], alpha);
}

/* One step over every cell, written as the original writes it: one
 * collapsed loop, boundary cells set to 0, interior cells updated.
 * Synchronous: the host waits for the kernel before it goes on. */
static inline void FN(heat2d_acc_step)(size_t nx, size_t ny, REAL alpha, const REAL *restrict u,
                                       REAL *restrict v)
{
    size_t n = nx * ny;
#pragma acc parallel loop collapse(2) present(u [0:n], v [0:n])
    for (size_t j = 0; j < ny; ++j) {
        for (size_t i = 0; i < nx; ++i) {
            size_t k = j * nx + i;
            if (i == 0 || i == nx - 1 || j == 0 || j == ny - 1)
                v[k] = 0;
            else
                v[k] = FN(heat2d_acc_update)(u[k], u[k - 1], u[k + 1], u[k - nx], u[k + nx], alpha);
        }
    }
}

#endif
