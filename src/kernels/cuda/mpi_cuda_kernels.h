/* mpi-cuda's halo kernels, behind C launchers so that the host side stays C11.
 * Arrays are a rank's local block with its one-cell halo (mpi_common.h), in
 * device memory, rows `stride` doubles apart. Each launcher queues its work on
 * `stream` and returns the launch status (cudaGetLastError() after the
 * launch). Internal to src/backends/mpi. */
#ifndef HEAT2D_MPI_CUDA_KERNELS_H
#define HEAT2D_MPI_CUDA_KERNELS_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "heat2d.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every array holds cells of precision (double, or float with alpha
 * rounded to float). */

/* dst[k] = src[k*stride], k < count: a column into a contiguous buffer. */
cudaError_t heat2d_mpi_cuda_pack_column(heat2d_precision precision, const void *src, size_t stride,
                                        size_t count, void *dst, cudaStream_t stream);

/* dst[k*stride] = src[k], k < count: a contiguous buffer into a column. */
cudaError_t heat2d_mpi_cuda_unpack_column(heat2d_precision precision, const void *src, void *dst,
                                          size_t stride, size_t count, cudaStream_t stream);

/* dst[k*stride] = 0, k < count: a column of the global boundary. */
cudaError_t heat2d_mpi_cuda_zero_column(heat2d_precision precision, void *dst, size_t stride,
                                        size_t count, cudaStream_t stream);

/* Loads the kernels into the current context now rather than at their first
 * launch, inside the timed loop. */
cudaError_t heat2d_mpi_cuda_load_kernels(void);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_MPI_CUDA_KERNELS_H */
