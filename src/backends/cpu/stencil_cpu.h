/* The serial update of one time step, shared by every host method. */
#ifndef HEAT2D_STENCIL_CPU_H
#define HEAT2D_STENCIL_CPU_H

#include <stddef.h>

/* v = one explicit step of u over rows [j_begin, j_end) of an nx-wide grid
 * with ny rows. Boundary cells get 0; interior cells evaluate
 * u + alpha*(uW + uE + uS + uN - 4u) in exactly that order. */
void heat2d_cpu_step_rows(size_t nx, size_t ny, size_t j_begin, size_t j_end, double alpha,
                          const double *u, double *v);

#endif
