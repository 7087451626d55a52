/* The one way C code is written once for both precisions
 * (docs/architecture.md, "Precision"): includes the file named by
 * HEAT2D_REAL_SOURCE twice, first with REAL double, REAL_BITS uint64_t,
 * REAL_F32 0, REAL_FMA fma and FN(name) the plain name, then with REAL
 * float, REAL_BITS uint32_t, REAL_F32 1, REAL_FMA fmaf and FN(name) the
 * name ending in _f32. No include guard, on purpose: each includer defines
 * HEAT2D_REAL_SOURCE first (and includes <stdint.h> for REAL_BITS). The
 * host's row kernels, the directive backends' device code and loops. */
#define REAL      double
#define REAL_BITS uint64_t
#define REAL_F32  0
#define FN(name)  name
#define REAL_FMA  fma
#include HEAT2D_REAL_SOURCE
#undef REAL
#undef REAL_BITS
#undef REAL_F32
#undef FN
#undef REAL_FMA

#define REAL      float
#define REAL_BITS uint32_t
#define REAL_F32  1
#define FN(name)  name##_f32
#define REAL_FMA  fmaf
#include HEAT2D_REAL_SOURCE
#undef REAL
#undef REAL_BITS
#undef REAL_F32
#undef FN
#undef REAL_FMA

#undef HEAT2D_REAL_SOURCE
