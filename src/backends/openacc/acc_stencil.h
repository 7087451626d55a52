/* The OpenACC compute region of one time step, shared by acc-each and
 * acc-resident. Both arrays must already be present on the device. Written
 * as the original writes it: one collapsed loop over every cell, boundary
 * cells set to 0, interior cells updated in the reference's order. */
#ifndef HEAT2D_ACC_STENCIL_H
#define HEAT2D_ACC_STENCIL_H

#include <stddef.h>

static inline void heat2d_acc_step(size_t nx, size_t ny, double alpha, const double *restrict u,
                                   double *restrict v)
{
    size_t n = nx * ny;
#pragma acc parallel loop collapse(2) present(u [0:n], v [0:n])
    for (size_t j = 0; j < ny; ++j) {
        for (size_t i = 0; i < nx; ++i) {
            size_t k = j * nx + i;
            if (i == 0 || i == nx - 1 || j == 0 || j == ny - 1)
                v[k] = 0.0;
            else
                v[k] = u[k] + alpha * (u[k - 1] + u[k + 1] + u[k - nx] + u[k + nx] - 4.0 * u[k]);
        }
    }
}

#endif
