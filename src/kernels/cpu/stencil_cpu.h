/* The serial update of one time step, shared by every host method. */
#ifndef HEAT2D_STENCIL_CPU_H
#define HEAT2D_STENCIL_CPU_H

#include "heat2d.h"

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

/* The same kernels in float (f32 runs): float arrays, alpha already
 * rounded to float by the caller, every operation in float, in the order
 * above. One source (stencil_cpu_real.c) makes both precisions. */
bool heat2d_cpu_step_rows_f32(size_t nx, size_t ny, size_t j_begin, size_t j_end, float alpha,
                              const float *u, float *v);
bool heat2d_cpu_step_rows_stream_f32(size_t nx, size_t ny, size_t j_begin, size_t j_end,
                                     float alpha, const float *u, float *v);
bool heat2d_cpu_step_block_f32(size_t stride, size_t i_begin, size_t i_end, size_t j_begin,
                               size_t j_end, float alpha, const float *u, float *v);
bool heat2d_cpu_rows_finite_f32(size_t nx, size_t j_begin, size_t j_end, const float *u);

/* The kernels of one precision behind untyped arrays, so that a method's
 * loop is written once for both: the arrays hold cells of cell_bytes, alpha
 * is rounded to the cell type inside, get and set read and write cell k. */
typedef struct heat2d_cpu_kernels {
    size_t cell_bytes;
    bool (*step_rows)(size_t nx, size_t ny, size_t j_begin, size_t j_end, double alpha,
                      const void *u, void *v);
    bool (*step_rows_stream)(size_t nx, size_t ny, size_t j_begin, size_t j_end, double alpha,
                             const void *u, void *v);
    bool (*step_block)(size_t stride, size_t i_begin, size_t i_end, size_t j_begin, size_t j_end,
                       double alpha, const void *u, void *v);
    bool (*rows_finite)(size_t nx, size_t j_begin, size_t j_end, const void *u);
    double (*get)(const void *field, size_t k);
    void (*set)(void *field, size_t k, double value);
} heat2d_cpu_kernels;

/* Each precision's table, from its compilation of stencil_cpu_real.c;
 * heat2d_cpu_kernels_for picks the run's. */
extern const heat2d_cpu_kernels heat2d_cpu_kernels_table;
extern const heat2d_cpu_kernels heat2d_cpu_kernels_table_f32;

const heat2d_cpu_kernels *heat2d_cpu_kernels_for(heat2d_precision p);

/* heat2d_fail_nonfinite for a field of k's cells. */
int heat2d_cpu_fail_nonfinite(const heat2d_cpu_kernels *k, size_t nx, size_t ny, const void *field,
                              size_t step, heat2d_error *err);

/* The cell HEAT2D_FAULT_NAN_AT_STEP poisons: (nx-2, ny-2), the last interior
 * cell, far from the centre row and in the last band of the omp method. */
size_t heat2d_cpu_fault_cell(size_t nx, size_t ny);

#endif
