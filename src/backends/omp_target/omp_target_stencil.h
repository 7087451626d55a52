/* What the OpenMP target methods share: the update of one cell, and the
 * target region of one whole time step as the original writes it. Both
 * arrays must already be mapped. */
#ifndef HEAT2D_OMP_TARGET_STENCIL_H
#define HEAT2D_OMP_TARGET_STENCIL_H

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
#define HEAT2D_REAL_SOURCE "omp_target_stencil_real.h"
#include "heat2d_precisions.h"

#endif
