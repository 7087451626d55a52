/* The CUDA backend's public face: its methods.
 * Present only in builds with HEAT2D_HAVE_CUDA; needs no CUDA header. */
#ifndef HEAT2D_CUDA_METHODS_H
#define HEAT2D_CUDA_METHODS_H

#include "heat2d.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cudaMemcpy u up, one kernel, cudaMemcpy v down, every step (SPEC section 2);
 * pageable host memory unless cfg->pinned. */
extern const heat2d_method heat2d_method_cuda_each;

/* Both arrays on the device for the whole loop: one upload, one download. */
extern const heat2d_method heat2d_method_cuda_resident;

/* cuda-resident's loop replayed as a CUDA graph of a batch of steps: the
 * launch overhead that dominates small grids, removed. */
extern const heat2d_method heat2d_method_cuda_graph;

/* Temporal blocking: several steps per pass through device memory. */
extern const heat2d_method heat2d_method_cuda_tb;

/* cuda-each's per-step model (u up, v down, every step, through page-locked
 * host memory) with each step cut into chunks of rows so that uploads,
 * kernels and downloads overlap on three streams. */
extern const heat2d_method heat2d_method_cuda_overlap;

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_CUDA_METHODS_H */
