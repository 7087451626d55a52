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
 * timed by the host clock and by device events, with a snapshot every
 * cfg->output_every steps, the last step read back once, everything freed;
 * with the phases ENTER_S, GPU_LOOP_S, READBACK_S, EXIT_S and the transfers
 * counted at the copy calls. */
typedef struct heat2d_cuda_resident {
    size_t bytes; /* of one array, in cfg->precision */
    void *dev_u;  /* holds the host's u after heat2d_cuda_resident_enter */
    void *dev_v;
    cudaStream_t stream; /* the loop's stream; 0 for the default stream */
    cudaEvent_t loop_start;
    cudaEvent_t loop_stop;
    double t_enter;
    double t_loop;
    /* Overlapped snapshots: each goes device to device into dev_snap[b] on
     * the loop's stream (copied[b]), then down into the page-locked
     * host_snap[b] on copy_stream (landed[b]), two in turn, so that the
     * steps after it never overwrite a snapshot in flight. */
    void *dev_snap[2];
    void *host_snap[2];
    cudaStream_t copy_stream;
    cudaEvent_t copied[2];
    cudaEvent_t landed[2];
    /* Each snapshot's invariants, found on the device as it is copied
     * (snapshot_stats.h): the reduction's scratch, and for each buffer b
     * the result on the device and where it lands on the host. */
    void *stats_scratch;
    void *dev_stats;  /* two heat2d_cuda_stats */
    void *host_stats; /* two heat2d_cuda_stats, page-locked */
} heat2d_cuda_resident;

/* How a method advances its field: count steps from *current (the other
 * buffer of r is free to write), queued on r->stream; on return *current
 * names the buffer that holds the last of them. */
typedef int (*heat2d_cuda_advance)(void *method, heat2d_cuda_resident *r, const heat2d_config *cfg,
                                   void **current, size_t count, heat2d_error *err);

/* ENTER_S begins: both arrays, the loop's events, the buffers of
 * snapshots and of their invariants, the upload of u into dev_u. The method then adds
 * its own set-up (a graph, pass plans) and calls heat2d_cuda_resident_start.
 * On failure, call _abandon. */
int heat2d_cuda_resident_enter(heat2d_cuda_resident *r, const heat2d_config *cfg, const void *u,
                               cudaStream_t stream, heat2d_report *rep, heat2d_error *err);

/* ENTER_S ends once all set-up has landed (an upload from pageable memory
 * may return before it has); the loop's clocks start. */
int heat2d_cuda_resident_start(heat2d_cuda_resident *r, heat2d_report *rep, heat2d_error *err);

/* The loop: cfg->steps steps from dev_u through advance, a snapshot after
 * every cfg->output_every of them (plain or overlapped) and after the last,
 * each handed over with its invariants found on the device;
 * then the loop ends (kernel faults surface here) and the buffer of the
 * last step comes back into the host array that the step count's parity
 * names, as the seed's `update self` does (v after an odd number of steps,
 * u after an even one; *result points at it): that read-back is the last
 * snapshot. Then the device memory is released. */
int heat2d_cuda_resident_run(heat2d_cuda_resident *r, const heat2d_config *cfg,
                             heat2d_cuda_advance advance, void *method, void *u, void *v,
                             void **result, heat2d_report *rep, heat2d_error *err);

/* After a failure: waits for queued work, then releases what is left. */
void heat2d_cuda_resident_abandon(heat2d_cuda_resident *r);

/* Page-locked host memory for a pinned run's arrays (the resident methods'
 * alloc_pinned and free_pinned). */
void *heat2d_cuda_alloc_pinned(size_t bytes);
void heat2d_cuda_free_pinned(void *p);

/* Launches count plain steps on stream, ping-ponging: each step reads
 * *current and writes *next, then the two swap, so that on return *current
 * holds the last step. Stops at the first failed launch. */
cudaError_t heat2d_cuda_plain_steps(void **current, void **next, size_t count,
                                    const heat2d_config *cfg, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_CUDA_COMMON_H */
