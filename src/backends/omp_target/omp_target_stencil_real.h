/* The OpenMP target update and step in one precision: heat2d_precisions.h
 * includes this file twice, defining REAL (double or float), FN(name) (the
 * name in that precision) and REAL_FMA (fma or fmaf). No include guard, on
 * purpose. */

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
