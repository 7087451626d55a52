/* The serial update of one time step, shared by every host method. */
#ifndef HEAT2D_STENCIL_CPU_H
#define HEAT2D_STENCIL_CPU_H

#include <stdbool.h>
#include <stddef.h>

/* v = one explicit step of u over rows [j_begin, j_end) of an nx-wide grid
 * with ny rows. Boundary cells get 0; interior cells evaluate
 * u + alpha*(uW + uE + uS + uN - 4u) in exactly that order.
 *
 * Returns whether every interior value of u in those rows was finite. The
 * kernel loads each of them anyway, so the test costs no memory traffic:
 * over all rows of a step it checks the whole field the previous step
 * produced (boundary cells excepted: they are written 0 every step, and a
 * NaN put there reaches an interior cell in one step). */
bool heat2d_cpu_step_rows(size_t nx, size_t ny, size_t j_begin, size_t j_end, double alpha,
                          const double *u, double *v);

/* heat2d_cpu_step_rows with non-temporal (streaming) stores for v: the same
 * operations in the same order, so the same bits, and the same finiteness
 * check. An ordinary store first reads the line it writes into the cache
 * (write-allocate), so a step moves 24 bytes a cell to and from memory; a
 * streaming store writes the line without reading it: 16 bytes. That pays
 * only when the field does not fit in the caches, where every byte of a step
 * goes to memory anyway; a field that fits would be pushed out of them. The
 * stores are fenced before returning, so that a barrier after the call
 * publishes them to other threads. Without SSE2 (not x86-64), the same as
 * heat2d_cpu_step_rows. */
bool heat2d_cpu_step_rows_stream(size_t nx, size_t ny, size_t j_begin, size_t j_end, double alpha,
                                 const double *u, double *v);

/* Whether heat2d_cpu_step_rows_stream really streams on this build. */
bool heat2d_cpu_stream_stores(void);

/* The same update over a rectangle of an array with row stride `stride`:
 * cells (i, j) with i in [i_begin, i_end), j in [j_begin, j_end), every one of
 * them updated (the caller leaves out cells on the global boundary and
 * writes those 0 itself). Each cell reads its four neighbours at +-1 and
 * +-stride, which may lie outside the rectangle (a halo). Used by mpi-cpu on
 * a rank's block; the expression is heat2d_cpu_step_rows's, in one shared
 * loop, so the two are bit-identical cell by cell. Returns whether every
 * centre value read was finite. */
bool heat2d_cpu_step_block(size_t stride, size_t i_begin, size_t i_end, size_t j_begin,
                           size_t j_end, double alpha, const double *u, double *v);

/* Whether every cell of rows [j_begin, j_end) is finite: the check of the
 * last step's field, which no further step reads. */
bool heat2d_cpu_rows_finite(size_t nx, size_t j_begin, size_t j_end, const double *u);

/* The cell HEAT2D_FAULT_NAN_AT_STEP poisons: (nx-2, ny-2), the last interior
 * cell, far from the centre row and in the last band of the omp method. */
static inline size_t heat2d_cpu_fault_cell(size_t nx, size_t ny)
{
    return (ny - 2) * nx + (nx - 2);
}

#endif
