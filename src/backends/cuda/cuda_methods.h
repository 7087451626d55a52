/* The CUDA backend's public face: its methods and the bandwidth probe.
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

/* Measures the limits that SPEC section 5 quotes, on the device that the
 * methods use (HEAT2D_CUDA_DEVICE, default 0), in GB/s (1e9 bytes):
 * device-to-device cudaMemcpy of 1 GiB counting read plus write bytes (median
 * of 10 after a warm-up), and host-to-device / device-to-host cudaMemcpy of
 * 256 MiB from pageable (malloc) and pinned (cudaMallocHost) memory (median of
 * 5 after a warm-up). Needs about 2.3 GiB of device memory and 512 MiB of
 * host memory. Returns 0, or -1 with err filled. */
int heat2d_cuda_bandwidth(double *d2d_gbs, double *h2d_pageable_gbs, double *d2h_pageable_gbs,
                          double *h2d_pinned_gbs, double *d2h_pinned_gbs, heat2d_error *err);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_CUDA_METHODS_H */
