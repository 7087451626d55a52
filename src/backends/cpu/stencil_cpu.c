#include "stencil_cpu.h"

#include <string.h>

void heat2d_cpu_step_rows(size_t nx, size_t ny, size_t j_begin, size_t j_end, double alpha,
                          const double *u, double *v)
{
    for (size_t j = j_begin; j < j_end; ++j) {
        double *restrict out = v + j * nx;
        if (j == 0 || j == ny - 1) {
            memset(out, 0, nx * sizeof(double));
            continue;
        }
        const double *restrict centre = u + j * nx;
        const double *restrict south = centre - nx;
        const double *restrict north = centre + nx;
        /* The interior loop has no branch, so the compiler vectorises it;
         * the parenthesisation is the original's left-to-right order, and
         * -ffp-contract=off keeps every rounding step where it was. */
        out[0] = 0.0;
        for (size_t i = 1; i + 1 < nx; ++i)
            out[i] = centre[i] + alpha * (centre[i - 1] + centre[i + 1] + south[i] + north[i] -
                                          4.0 * centre[i]);
        out[nx - 1] = 0.0;
    }
}
