/* The cell type of a precision-generic source (docs/architecture.md,
 * "Precision"): a file named NAME_real.c is written once over REAL and
 * FN(name), and the build compiles it once per precision
 * (heat2d_real_sources, cmake/Precision.cmake), through a wrapper that
 * defines HEAT2D_REAL_F32 (0 or 1) and includes it. This header turns that
 * into:
 *   REAL       double or float, the cells' type
 *   REAL_BITS  an unsigned integer of REAL's width
 *   REAL_F32   0 or 1, for the few places a precision's code differs
 *   REAL_FMA   fma or fmaf
 *   FN(name)   a name in this precision: the plain name in f64, name_f32
 *              in f32, so that both compilations link side by side
 * Declarations and macros only. */
#ifndef HEAT2D_REAL_H
#define HEAT2D_REAL_H

#include <math.h>
#include <stdint.h>

#ifndef HEAT2D_REAL_F32
#error "a *_real.c file is compiled through heat2d_real_sources() (cmake/Precision.cmake)"
#endif

#if HEAT2D_REAL_F32
#define REAL      float
#define REAL_BITS uint32_t
#define REAL_F32  1
#define REAL_FMA  fmaf
#define FN(name)  name##_f32
#else
#define REAL      double
#define REAL_BITS uint64_t
#define REAL_F32  0
#define REAL_FMA  fma
#define FN(name)  name
#endif

#endif /* HEAT2D_REAL_H */
