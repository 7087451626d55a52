/* What the OpenACC methods share: the update of one cell, and the compute
 * region of one whole time step as the original writes it. Both arrays must
 * already be present on the device. */
#ifndef HEAT2D_ACC_STENCIL_H
#define HEAT2D_ACC_STENCIL_H

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

/* The update and the whole step in each precision, from one source: f64
 * under the plain names (heat2d_acc_update, heat2d_acc_step), f32 under
 * names ending in _f32, every operation in float, alpha's product an
 * fmaf(alpha, d, -0.0f) on a device for the same reason as above. */
#define HEAT2D_REAL_SOURCE "acc_stencil_real.h"
#include "heat2d_precisions.h"

#endif
