/* The OpenACC update and step in one precision: heat2d_precisions.h includes this
 * file twice, defining REAL (double or float), FN(name) (the name in that
 * precision) and REAL_FMA (fma or fmaf). No include guard, on purpose. */

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
