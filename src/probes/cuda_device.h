/* Choosing the GPU and creating its context: what every method that runs on
 * a CUDA device (CUDA, OpenACC through CUPTI, mpi-cuda) and the bandwidth
 * probe do before their clocks start. */
#ifndef HEAT2D_CUDA_DEVICE_H
#define HEAT2D_CUDA_DEVICE_H

#include <stddef.h>

#include "heat2d.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Makes the device named by HEAT2D_CUDA_DEVICE (a device index, default 0)
 * current on the calling thread and creates its context, timing that in
 * *context_s; copies the device's name into name (if non-NULL) and its index
 * into *device (if non-NULL). who prefixes the message when there is no
 * usable device (e.g. "cuda-each: no CUDA device: ..."). */
int heat2d_cuda_open_device(const char *who, char *name, size_t name_size, int *device,
                            double *context_s, heat2d_error *err);

/* The current device's free memory in bytes, for a method whose runtime
 * cannot say (OpenMP). */
int heat2d_cuda_free_memory(size_t *free_bytes, heat2d_error *err);

/* The device's multiprocessors (SMs), into *count. */
int heat2d_cuda_multiprocessors(int device, int *count, heat2d_error *err);

/* The device's compute capability, major.minor. */
int heat2d_cuda_capability(int device, int *major, int *minor, heat2d_error *err);

/* Which of this build's code the device runs, into text: "SASS sm_XY" or
 * "PTX compute_XY, JIT-compiled by the driver"; -1 with "WHO: this build
 * has no code for ... rebuild with -DCMAKE_CUDA_ARCHITECTURES=XY" when it
 * has none that the device can run. */
int heat2d_cuda_code_for(const char *who, int device, char *text, size_t size, heat2d_error *err);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_CUDA_DEVICE_H */
