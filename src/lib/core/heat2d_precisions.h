/* Includes the file named by HEAT2D_REAL_SOURCE twice, so that the code in
 * it is written once for both precisions: with REAL double, REAL_FMA fma
 * and FN(name) the plain name, then with REAL float, REAL_FMA fmaf and
 * FN(name) the name ending in _f32. No include guard, on purpose: each
 * includer defines HEAT2D_REAL_SOURCE first. (The directive backends'
 * device code; the host's row kernels have their own, with vector types.) */
#define REAL     double
#define FN(name) name
#define REAL_FMA fma
#include HEAT2D_REAL_SOURCE
#undef REAL
#undef FN
#undef REAL_FMA

#define REAL     float
#define FN(name) name##_f32
#define REAL_FMA fmaf
#include HEAT2D_REAL_SOURCE
#undef REAL
#undef FN
#undef REAL_FMA

#undef HEAT2D_REAL_SOURCE
