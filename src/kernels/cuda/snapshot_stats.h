/* A snapshot's invariants found on the device, fused with its copy into a
 * snapshot buffer: the host then never scans the field to check it. Behind
 * a C launcher, for the resident CUDA methods. */
#ifndef HEAT2D_SNAPSHOT_STATS_H
#define HEAT2D_SNAPSHOT_STATS_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "heat2d.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the device found, as it lands on the host: heat2d_field_stats with
 * device-sized integers (first_nonfinite ULLONG_MAX when none). */
typedef struct heat2d_cuda_stats {
    double sum;
    double lo;
    double hi;
    unsigned long long nonfinite;
    unsigned long long first_nonfinite;
} heat2d_cuda_stats;

/* Bytes of device scratch that one heat2d_cuda_snapshot_stats needs (a
 * partial result for each of its blocks). */
size_t heat2d_cuda_stats_scratch_bytes(void);

/* Queues on stream, for the n cells of field (doubles, or floats in f32):
 * their stats into *result (device memory) and, when copy is not NULL, the
 * cells into copy as well, in one pass. The sum is added in a fixed order,
 * so the same field gives the same stats every time on the same device;
 * lo, hi and the non-finite cells are exact. scratch: device memory of
 * heat2d_cuda_stats_scratch_bytes(). Returns the launches' status. */
cudaError_t heat2d_cuda_snapshot_stats(heat2d_precision precision, const void *field, void *copy,
                                       size_t n, void *scratch, heat2d_cuda_stats *result,
                                       cudaStream_t stream);

/* The stats as the library's heat2d_field_stats. */
heat2d_field_stats heat2d_cuda_stats_field(const heat2d_cuda_stats *s);

/* Loads the kernels now rather than at their first launch (see
 * heat2d_cuda_load_kernels). */
cudaError_t heat2d_cuda_load_stats_kernels(void);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_SNAPSHOT_STATS_H */
