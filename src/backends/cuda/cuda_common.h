/* What the CUDA methods share: their prepare and the frame of the resident
 * methods. Internal to src/backends/cuda. */
#ifndef HEAT2D_CUDA_COMMON_H
#define HEAT2D_CUDA_COMMON_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "heat2d.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The methods' untimed prepare(): the device opened into rep->device and the
 * kernels loaded, both timed in rep->context_s, then a check that the
 * grid's two arrays fit in the device's free memory. */
int heat2d_cuda_prepare(const char *who, const heat2d_config *cfg, heat2d_report *rep,
                        heat2d_error *err);

/* What every resident method (cuda-resident, cuda-graph, cuda-tb) does
 * around its own loop: both arrays on the device, u uploaded once, the loop
 * timed by the host clock and by device events, the last step read back
 * once, everything freed; with the phases ENTER_S, GPU_LOOP_S, READBACK_S,
 * EXIT_S and the transfers counted at the copy calls. */
typedef struct heat2d_cuda_resident {
    size_t bytes; /* of one array, in cfg->precision */
    void *dev_u;  /* holds the host's u after heat2d_cuda_resident_enter */
    void *dev_v;
    cudaStream_t stream; /* the loop's stream; 0 for the default stream */
    cudaEvent_t loop_start;
    cudaEvent_t loop_stop;
    double t_enter;
    double t_loop;
} heat2d_cuda_resident;

/* ENTER_S begins: both arrays, the loop's events, the upload of u into
 * dev_u. The method then adds its own set-up (a graph, pass plans) and
 * calls heat2d_cuda_resident_start. On failure, call _abandon. */
int heat2d_cuda_resident_enter(heat2d_cuda_resident *r, const heat2d_config *cfg, const void *u,
                               cudaStream_t stream, heat2d_report *rep, heat2d_error *err);

/* ENTER_S ends once all set-up has landed (an upload from pageable memory
 * may return before it has); the loop's clocks start. */
int heat2d_cuda_resident_start(heat2d_cuda_resident *r, heat2d_report *rep, heat2d_error *err);

/* The loop's last plain_steps steps, launched plainly from current (dev_u
 * or dev_v, the buffer the method's own passes ended in) on the loop's
 * stream; then the loop ends (kernel faults surface here). The buffer of the
 * last step comes back into the host array that the step count's parity
 * names, as the seed's `update self` does: v after an odd number of steps,
 * u after an even one; *result points at it. Then the device memory is
 * released. */
int heat2d_cuda_resident_finish(heat2d_cuda_resident *r, const heat2d_config *cfg, void *current,
                                size_t plain_steps, void *u, void *v, void **result,
                                heat2d_report *rep, heat2d_error *err);

/* After a failure: waits for queued work, then releases what is left. */
void heat2d_cuda_resident_abandon(heat2d_cuda_resident *r);

/* Launches count plain steps on stream, ping-ponging: each step reads
 * *current and writes *next, then the two swap, so that on return *current
 * holds the last step. Stops at the first failed launch. */
cudaError_t heat2d_cuda_plain_steps(void **current, void **next, size_t count,
                                    const heat2d_config *cfg, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_CUDA_COMMON_H */
