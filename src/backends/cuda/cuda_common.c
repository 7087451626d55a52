/* What the CUDA methods share around their loops: prepare (device, kernels,
 * memory check) and the frame of the resident methods. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "cuda_check.h"
#include "cuda_common.h"
#include "cuda_device.h"
#include "cuda_kernels.h"
#include "snapshot_stats.h"

int heat2d_cuda_prepare(const char *who, const heat2d_config *cfg, heat2d_report *rep,
                        heat2d_error *err)
{
    /* Loading the kernels counts as context set-up: the runtime otherwise
     * loads them lazily at the first launch, inside the timed loop. */
    const double t0 = heat2d_now();
    int device = 0;
    char code[96];
    if (heat2d_cuda_open_device(who, rep->device, sizeof rep->device, &device, &rep->context_s,
                                err) != 0 ||
        heat2d_cuda_code_for(who, device, code, sizeof code, err) != 0)
        return -1;
    HEAT2D_CUDA_CHECK(err, heat2d_cuda_load_kernels());
    HEAT2D_CUDA_CHECK(err, heat2d_cuda_load_stats_kernels());
    rep->context_s = heat2d_now() - t0;
    rep->pass_steps = 1;
    rep->fp_ops_per_cell = HEAT2D_CUDA_STEP_FP_OPS;
    /* Both arrays live on the device: refuse a grid that cannot fit before
     * the clock starts, with the sizes, rather than fail in cudaMalloc. */
    size_t free_bytes = 0, total_bytes = 0;
    HEAT2D_CUDA_CHECK(err, cudaMemGetInfo(&free_bytes, &total_bytes));
    return heat2d_check_device_memory(who, cfg, free_bytes, rep->device, err);
}

int heat2d_cuda_resident_enter(heat2d_cuda_resident *r, const heat2d_config *cfg, const void *u,
                               cudaStream_t stream, heat2d_report *rep, heat2d_error *err)
{
    *r = (heat2d_cuda_resident){.stream = stream};
    if (heat2d_array_bytes(cfg, &r->bytes, err) != 0)
        return -1;
    rep->transfers_measured = true;
    /* What the OpenACC version's copyin(u) create(v) costs: v is only
     * created, the kernels write every cell of it, boundary included. */
    r->t_enter = heat2d_now();
    HEAT2D_CUDA_CHECK(err, cudaMalloc(&r->dev_u, r->bytes));
    HEAT2D_CUDA_CHECK(err, cudaMalloc(&r->dev_v, r->bytes));
    HEAT2D_CUDA_CHECK(err, cudaEventCreate(&r->loop_start));
    HEAT2D_CUDA_CHECK(err, cudaEventCreate(&r->loop_stop));
    if (cfg->output_every > 0) {
        HEAT2D_CUDA_CHECK(err, cudaMalloc(&r->stats_scratch, heat2d_cuda_stats_scratch_bytes()));
        HEAT2D_CUDA_CHECK(err, cudaMalloc(&r->dev_stats, 2 * sizeof(heat2d_cuda_stats)));
        HEAT2D_CUDA_CHECK(err, cudaMallocHost(&r->host_stats, 2 * sizeof(heat2d_cuda_stats)));
    }
    if (cfg->output_every > 0 && cfg->snapshot_copy == HEAT2D_SNAPSHOT_OVERLAP) {
        HEAT2D_CUDA_CHECK(err, cudaStreamCreateWithFlags(&r->copy_stream, cudaStreamNonBlocking));
        for (int b = 0; b < 2; ++b) {
            HEAT2D_CUDA_CHECK(err, cudaMalloc(&r->dev_snap[b], r->bytes));
            HEAT2D_CUDA_CHECK(err, cudaMallocHost(&r->host_snap[b], r->bytes));
            HEAT2D_CUDA_CHECK(err, cudaEventCreateWithFlags(&r->copied[b], cudaEventDisableTiming));
            HEAT2D_CUDA_CHECK(err, cudaEventCreateWithFlags(&r->landed[b], cudaEventDisableTiming));
        }
    }
    HEAT2D_CUDA_CHECK(err, cudaMemcpy(r->dev_u, u, r->bytes, cudaMemcpyHostToDevice));
    rep->h2d_count += 1;
    rep->h2d_bytes += r->bytes;
    return 0;
}

int heat2d_cuda_resident_start(heat2d_cuda_resident *r, heat2d_report *rep, heat2d_error *err)
{
    /* The upload's tail and any set-up must not be billed to the loop. */
    HEAT2D_CUDA_CHECK(err, cudaDeviceSynchronize());
    r->t_loop = heat2d_now();
    heat2d_report_phase(rep, "ENTER_S", r->t_loop - r->t_enter);
    HEAT2D_CUDA_CHECK(err, cudaEventRecord(r->loop_start, r->stream));
    return 0;
}

/* Queues the invariants of the field at current into buffer b's stats
 * (and, with copy, the field into copy in the same pass), then their way
 * down on stream: 40 bytes, counted apart from the arrays. */
static int queue_stats(heat2d_cuda_resident *r, const heat2d_config *cfg, const void *current,
                       void *copy, int b, cudaStream_t stream, heat2d_report *rep,
                       heat2d_error *err)
{
    heat2d_cuda_stats *dev = (heat2d_cuda_stats *)r->dev_stats + b;
    HEAT2D_CUDA_CHECK(err,
                      heat2d_cuda_snapshot_stats(cfg->precision, current, copy, cfg->nx * cfg->ny,
                                                 r->stats_scratch, dev, r->stream));
    if (stream != r->stream) {
        HEAT2D_CUDA_CHECK(err, cudaEventRecord(r->copied[b], r->stream));
        HEAT2D_CUDA_CHECK(err, cudaStreamWaitEvent(stream, r->copied[b], 0));
    }
    HEAT2D_CUDA_CHECK(err,
                      cudaMemcpyAsync((heat2d_cuda_stats *)r->host_stats + b, dev,
                                      sizeof(heat2d_cuda_stats), cudaMemcpyDeviceToHost, stream));
    rep->d2h_other_count += 1;
    rep->d2h_other_bytes += sizeof(heat2d_cuda_stats);
    return 0;
}

/* Buffer b's snapshot, landed in host memory, handed over with the
 * invariants the device found. */
static int hand_with_stats(heat2d_cuda_resident *r, const heat2d_config *cfg, int b, size_t step,
                           const void *host, heat2d_report *rep, heat2d_error *err)
{
    const heat2d_field_stats stats =
        heat2d_cuda_stats_field((const heat2d_cuda_stats *)r->host_stats + b);
    return heat2d_hand_snapshot(cfg, step, host, &stats, rep, err);
}

/* A plain snapshot: the loop stops, the field's invariants are found on
 * the device, the field comes down into host, the callback runs, the loop
 * goes on. */
static int plain_snapshot(heat2d_cuda_resident *r, const heat2d_config *cfg, const void *current,
                          size_t step, void *host, heat2d_report *rep, heat2d_error *err)
{
    const double t0 = heat2d_now();
    if (queue_stats(r, cfg, current, NULL, 0, r->stream, rep, err) != 0)
        return -1;
    HEAT2D_CUDA_CHECK(err, cudaStreamSynchronize(r->stream));
    HEAT2D_CUDA_CHECK(err, cudaMemcpy(host, current, r->bytes, cudaMemcpyDeviceToHost));
    rep->d2h_count += 1;
    rep->d2h_bytes += r->bytes;
    rep->snapshot_wait_s += heat2d_now() - t0;
    return hand_with_stats(r, cfg, 0, step, host, rep, err);
}

/* An overlapped snapshot into buffer b: queued behind the steps that made
 * it, copied device to device with its invariants found in the same pass,
 * then copied down on copy_stream while the next steps run. */
static int queue_snapshot(heat2d_cuda_resident *r, const heat2d_config *cfg, const void *current,
                          int b, heat2d_report *rep, heat2d_error *err)
{
    if (queue_stats(r, cfg, current, r->dev_snap[b], b, r->copy_stream, rep, err) != 0)
        return -1;
    HEAT2D_CUDA_CHECK(err, cudaMemcpyAsync(r->host_snap[b], r->dev_snap[b], r->bytes,
                                           cudaMemcpyDeviceToHost, r->copy_stream));
    HEAT2D_CUDA_CHECK(err, cudaEventRecord(r->landed[b], r->copy_stream));
    rep->d2h_count += 1;
    rep->d2h_bytes += r->bytes;
    return 0;
}

/* The overlapped snapshot in buffer b, once it has landed: what the host
 * waited for it counts apart from the callback. */
static int take_snapshot(heat2d_cuda_resident *r, const heat2d_config *cfg, int b, size_t step,
                         heat2d_report *rep, heat2d_error *err)
{
    const double t0 = heat2d_now();
    HEAT2D_CUDA_CHECK(err, cudaEventSynchronize(r->landed[b]));
    rep->snapshot_wait_s += heat2d_now() - t0;
    return hand_with_stats(r, cfg, b, step, r->host_snap[b], rep, err);
}

int heat2d_cuda_resident_run(heat2d_cuda_resident *r, const heat2d_config *cfg,
                             heat2d_cuda_advance advance, void *method, void *u, void *v,
                             void **result, heat2d_report *rep, heat2d_error *err)
{
    void *host = cfg->steps % 2 == 0 ? u : v;
    void *current = r->dev_u;
    const bool overlap = cfg->output_every > 0 && cfg->snapshot_copy == HEAT2D_SNAPSHOT_OVERLAP;
    /* Snapshots after every K steps before the last; the last is the
     * read-back. An overlapped one is taken (waited for, handed over) once
     * the steps after it are queued, so that the GPU computes meanwhile. */
    const size_t every = cfg->output_every > 0 ? cfg->output_every : cfg->steps;
    size_t done = 0, pending_step = 0;
    int pending = -1;
    for (int b = 0; done + every < cfg->steps; b ^= 1) {
        if (advance(method, r, cfg, &current, every, err) != 0)
            return -1;
        done += every;
        if (!overlap) {
            if (plain_snapshot(r, cfg, current, done, host, rep, err) != 0)
                return -1;
            continue;
        }
        if (queue_snapshot(r, cfg, current, b, rep, err) != 0)
            return -1;
        if (pending >= 0 && take_snapshot(r, cfg, pending, pending_step, rep, err) != 0)
            return -1;
        pending = b;
        pending_step = done;
    }
    if (advance(method, r, cfg, &current, cfg->steps - done, err) != 0)
        return -1;
    if (pending >= 0 && take_snapshot(r, cfg, pending, pending_step, rep, err) != 0)
        return -1;
    /* GPU_LOOP_S: the host's view (launches, then the wait); the events give
     * the device's view of the same interval. */
    HEAT2D_CUDA_CHECK(err, cudaEventRecord(r->loop_stop, r->stream));
    HEAT2D_CUDA_CHECK(err, cudaEventSynchronize(r->loop_stop));
    const double t_readback = heat2d_now();
    heat2d_report_phase(rep, "GPU_LOOP_S", t_readback - r->t_loop);
    float loop_ms = 0.0f;
    HEAT2D_CUDA_CHECK(err, cudaEventElapsedTime(&loop_ms, r->loop_start, r->loop_stop));
    rep->device_loop_s = (double)loop_ms / 1e3;

    /* READBACK_S: only the buffer of the last step (with snapshots, the
     * last of them: its invariants are found on the device first). */
    if (cfg->output_every > 0) {
        if (queue_stats(r, cfg, current, NULL, 0, r->stream, rep, err) != 0)
            return -1;
        HEAT2D_CUDA_CHECK(err, cudaStreamSynchronize(r->stream));
    }
    HEAT2D_CUDA_CHECK(err, cudaMemcpy(host, current, r->bytes, cudaMemcpyDeviceToHost));
    rep->d2h_count += 1;
    rep->d2h_bytes += r->bytes;
    const double t_exit = heat2d_now();
    heat2d_report_phase(rep, "READBACK_S", t_exit - t_readback);
    if (cfg->output_every > 0 && hand_with_stats(r, cfg, 0, cfg->steps, host, rep, err) != 0)
        return -1;

    /* EXIT_S: each handle is cleared once released, so that a failure here
     * leaves only the rest to _abandon. */
    const double t_free = heat2d_now();
    HEAT2D_CUDA_CHECK(err, cudaFree(r->dev_u));
    r->dev_u = NULL;
    HEAT2D_CUDA_CHECK(err, cudaFree(r->dev_v));
    r->dev_v = NULL;
    HEAT2D_CUDA_CHECK(err, cudaEventDestroy(r->loop_start));
    r->loop_start = NULL;
    HEAT2D_CUDA_CHECK(err, cudaEventDestroy(r->loop_stop));
    r->loop_stop = NULL;
    for (int b = 0; b < 2 && overlap; ++b) {
        HEAT2D_CUDA_CHECK(err, cudaFree(r->dev_snap[b]));
        r->dev_snap[b] = NULL;
        HEAT2D_CUDA_CHECK(err, cudaFreeHost(r->host_snap[b]));
        r->host_snap[b] = NULL;
        HEAT2D_CUDA_CHECK(err, cudaEventDestroy(r->copied[b]));
        r->copied[b] = NULL;
        HEAT2D_CUDA_CHECK(err, cudaEventDestroy(r->landed[b]));
        r->landed[b] = NULL;
    }
    if (r->copy_stream != NULL) {
        HEAT2D_CUDA_CHECK(err, cudaStreamDestroy(r->copy_stream));
        r->copy_stream = NULL;
    }
    HEAT2D_CUDA_CHECK(err, cudaFree(r->stats_scratch));
    r->stats_scratch = NULL;
    HEAT2D_CUDA_CHECK(err, cudaFree(r->dev_stats));
    r->dev_stats = NULL;
    HEAT2D_CUDA_CHECK(err, cudaFreeHost(r->host_stats));
    r->host_stats = NULL;
    heat2d_report_phase(rep, "EXIT_S", heat2d_now() - t_free);
    *result = host;
    return 0;
}

void heat2d_cuda_resident_abandon(heat2d_cuda_resident *r)
{
    /* Best effort: the first failure is already in err; queued kernels must
     * finish before their buffers go. */
    (void)cudaDeviceSynchronize();
    if (r->loop_start != NULL)
        (void)cudaEventDestroy(r->loop_start);
    if (r->loop_stop != NULL)
        (void)cudaEventDestroy(r->loop_stop);
    for (int b = 0; b < 2; ++b) {
        (void)cudaFree(r->dev_snap[b]);
        if (r->host_snap[b] != NULL)
            (void)cudaFreeHost(r->host_snap[b]);
        if (r->copied[b] != NULL)
            (void)cudaEventDestroy(r->copied[b]);
        if (r->landed[b] != NULL)
            (void)cudaEventDestroy(r->landed[b]);
    }
    if (r->copy_stream != NULL)
        (void)cudaStreamDestroy(r->copy_stream);
    (void)cudaFree(r->stats_scratch);
    (void)cudaFree(r->dev_stats);
    if (r->host_stats != NULL)
        (void)cudaFreeHost(r->host_stats);
    (void)cudaFree(r->dev_u);
    (void)cudaFree(r->dev_v);
    *r = (heat2d_cuda_resident){0};
}

void *heat2d_cuda_alloc_pinned(size_t bytes)
{
    void *p = NULL;
    return cudaMallocHost(&p, bytes) == cudaSuccess ? p : NULL;
}

void heat2d_cuda_free_pinned(void *p)
{
    if (p != NULL)
        (void)cudaFreeHost(p);
}

cudaError_t heat2d_cuda_plain_steps(void **current, void **next, size_t count,
                                    const heat2d_config *cfg, cudaStream_t stream)
{
    /* Once per batch, not per launch: whether the steps go into a graph
     * being captured (cuda-graph), where they are not launched dependent. */
    enum cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    const cudaError_t captured = cudaStreamIsCapturing(stream, &capture);
    if (captured != cudaSuccess)
        return captured;
    const bool dependent = capture == cudaStreamCaptureStatusNone;
    for (size_t step = 0; step < count; ++step) {
        cudaError_t rc = heat2d_cuda_step(cfg->precision, *current, *next, cfg->nx, cfg->ny,
                                          cfg->alpha, dependent, stream);
        if (rc != cudaSuccess)
            return rc;
        void *swap = *current;
        *current = *next;
        *next = swap;
    }
    return cudaSuccess;
}
