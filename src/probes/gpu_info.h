/* The GPU as heat2d info reports it: the device the CUDA methods would
 * use, its compute capability, which of the build's code it runs, and the
 * limits every GPU result is a fraction of (SPEC section 5). Present only
 * in builds with HEAT2D_HAVE_CUDA; needs no CUDA header. */
#ifndef HEAT2D_GPU_INFO_H
#define HEAT2D_GPU_INFO_H

#include "heat2d.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The limits that SPEC section 5 quotes, in GB/s (1e9 bytes). */
typedef struct heat2d_gpu_limits {
    double device_copy;  /* device-to-device, read plus write bytes */
    double h2d_pageable; /* one direction alone, from malloc memory */
    double d2h_pageable;
    double h2d_pinned; /* one direction alone, from cudaMallocHost memory */
    double d2h_pinned;
    /* Pinned, both directions at once: each direction moves the same bytes,
     * in chunks on its own stream, and the rate is those bytes over the time
     * until both are done. What the link sustains in each direction while
     * the other is busy, the floor of a method that overlaps its uploads
     * with its downloads. */
    double both_pinned;
    /* Fused multiply-adds, 2 FLOP each, in TFLOP/s: the arithmetic bound,
     * which on GPUs with slow FP64 (1/64 of FP32 on consumer cards) can be
     * tighter than memory. */
    double fp64_tflops;
    double fp32_tflops;
} heat2d_gpu_limits;

/* Measures the limits on the device that the methods use
 * (HEAT2D_CUDA_DEVICE, default 0): device-to-device cudaMemcpy of 1 GiB
 * (median of 10 after a warm-up), host-to-device / device-to-host
 * cudaMemcpy of 256 MiB from pageable and pinned memory (median of 5 after
 * a warm-up), 256 MiB each way at once in 16 chunks (median of 5), and
 * FP64 and FP32 FMA throughput (median of 5). Needs
 * about 2.3 GiB of device memory and 768 MiB of host memory. Returns 0, or
 * -1 with err filled. */
int heat2d_cuda_bandwidth(heat2d_gpu_limits *limits, heat2d_error *err);

/* GPU_DEVICE=, GPU_COMPUTE_CAPABILITY= and CUDA_CODE= lines into out, each
 * with the reason where it cannot be known (no device, no code for it). */
void heat2d_gpu_info_print(FILE *out);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_GPU_INFO_H */
