/* The CUDA backend's kernels, behind C launchers so that the host side of the
 * backend stays C11. Used by src/backends/cuda, and by mpi-cuda for its
 * rank blocks' update. */
#ifndef HEAT2D_CUDA_KERNELS_H
#define HEAT2D_CUDA_KERNELS_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "heat2d.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Queues one Jacobi step v <- step(u) of SPEC section 1 on stream: boundary
 * cells 0, interior cells u + alpha*(uW + uE + uS + uN - 4u) evaluated left to
 * right without FMA contraction, so bit-identical to the cpu method in the
 * same precision. u and v are device arrays of nx*ny cells of precision
 * (double, or float with alpha rounded to float) that must not overlap. Returns the launch
 * status (cudaGetLastError() after the launch); faults inside the kernel
 * surface at the next synchronising call.
 *
 * dependent: launch it programmatically dependent on the kernel queued
 * before it on stream (Hopper's programmatic dependent launch), so that its
 * launch overlaps that kernel's tail; after a copy or an event wait it
 * changes nothing. False for a stream being captured into a graph, where
 * it measured slower.
 * Measurements: docs/performance.md, "cuda-resident", "cuda-graph". */
/* Floating-point instructions the step kernel issues per cell: three adds,
 * the product 4u, a subtraction, alpha's product and the last add. */
#define HEAT2D_CUDA_STEP_FP_OPS 7

cudaError_t heat2d_cuda_step(heat2d_precision precision, const void *u, void *v, size_t nx,
                             size_t ny, double alpha, bool dependent, cudaStream_t stream);

/* The same step restricted to rows j_begin..j_end-1 of v (0 <= j_begin <=
 * j_end <= ny), same arithmetic, so bit-identical to the matching rows of
 * heat2d_cuda_step. Reads u rows j_begin-1..j_end where they exist, and
 * nothing else: those rows must be in place when the kernel runs. An empty
 * range queues nothing; a range outside the grid is cudaErrorInvalidValue. */
cudaError_t heat2d_cuda_step_rows(heat2d_precision precision, const void *u, void *v, size_t nx,
                                  size_t ny, size_t j_begin, size_t j_end, double alpha,
                                  cudaStream_t stream);

/* The same step over the rectangle [i_begin,i_end) x [j_begin,j_end) of
 * arrays of rows of stride cells, every cell of which has its four
 * neighbours inside the arrays (so 0 < i_begin, i_end < stride, 0 < j_begin,
 * and row j_end exists) and is interior: mpi-cuda's rank blocks, whose halos
 * hold the neighbours' cells. Same arithmetic, so bit-identical to the
 * matching cells of heat2d_cuda_step; cells outside the rectangle are not
 * written. dependent as for heat2d_cuda_step. An empty rectangle queues
 * nothing; one that touches the arrays' first or last column or first row
 * is cudaErrorInvalidValue. */
cudaError_t heat2d_cuda_step_rectangle(heat2d_precision precision, const void *u, void *v,
                                       size_t stride, size_t i_begin, size_t i_end, size_t j_begin,
                                       size_t j_end, double alpha, bool dependent,
                                       cudaStream_t stream);

/* Loads the kernels' module into the current context now, rather than at the
 * first launch (CUDA's lazy loading), so that the cost stays out of timed
 * loops. */
cudaError_t heat2d_cuda_load_kernels(void);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_CUDA_KERNELS_H */
