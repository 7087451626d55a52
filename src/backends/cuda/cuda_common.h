/* Device selection shared by the CUDA methods and the bandwidth probe.
 * Internal to src/backends/cuda. */
#ifndef HEAT2D_CUDA_COMMON_H
#define HEAT2D_CUDA_COMMON_H

#include <stddef.h>

#include "heat2d.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Makes the device named by HEAT2D_CUDA_DEVICE (a device index, default 0)
 * current on the calling thread and creates its context, timing that in
 * *context_s; copies the device's name into name. who prefixes the message
 * when there is no usable device (e.g. "cuda-each: no CUDA device: ..."). */
int heat2d_cuda_open(const char *who, char *name, size_t name_size, double *context_s,
                     heat2d_error *err);

/* The methods' untimed prepare(): heat2d_cuda_open into rep->device and
 * rep->context_s, then a check that the grid's two arrays fit in the
 * device's free memory. */
int heat2d_cuda_prepare(const char *who, const heat2d_config *cfg, heat2d_report *rep,
                        heat2d_error *err);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_CUDA_COMMON_H */
