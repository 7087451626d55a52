/* Includes the file named by HEAT2D_ACC_REAL_SOURCE twice, so that the code
 * in it is written once for both precisions: with REAL double, ACC_FMA fma
 * and FN(name) the plain name, then with REAL float, ACC_FMA fmaf and
 * FN(name) the name ending in _f32. No include guard, on purpose: each
 * includer defines HEAT2D_ACC_REAL_SOURCE first. */
#define REAL     double
#define FN(name) name
#define ACC_FMA  fma
#include HEAT2D_ACC_REAL_SOURCE
#undef REAL
#undef FN
#undef ACC_FMA

#define REAL     float
#define FN(name) name##_f32
#define ACC_FMA  fmaf
#include HEAT2D_ACC_REAL_SOURCE
#undef REAL
#undef FN
#undef ACC_FMA

#undef HEAT2D_ACC_REAL_SOURCE
