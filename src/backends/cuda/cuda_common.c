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

/* The field at current down into host; where snapshots are taken, its
 * invariants first, found on the device into buffer 0's, the loop waiting
 * for both. */
static int copy_down(heat2d_cuda_resident *r, const heat2d_config *cfg, const void *current,
                     void *host, heat2d_report *rep, heat2d_error *err)
{
    if (cfg->output_every > 0) {
        if (queue_stats(r, cfg, current, NULL, 0, r->stream, rep, err) != 0)
            return -1;
        HEAT2D_CUDA_CHECK(err, cudaStreamSynchronize(r->stream));
    }
    HEAT2D_CUDA_CHECK(err, cudaMemcpy(host, current, r->bytes, cudaMemcpyDeviceToHost));
    rep->d2h_count += 1;
    rep->d2h_bytes += r->bytes;
    return 0;
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

/* The loop's state for heat2d_run_segments: the method's advance, the
 * buffer that holds the field, and the overlapped snapshot not yet taken. */
typedef struct resident_loop {
    heat2d_cuda_resident *r;
    const heat2d_config *cfg;
    heat2d_report *rep;
    heat2d_cuda_advance advance;
    void *method;
    void *current;
    void *host; /* where a plain snapshot and the read-back land */
    bool overlap;
    int next_buffer; /* the overlapped snapshots' buffers, in turn */
    int pending;     /* the buffer queued but not taken; -1: none */
    size_t pending_step;
} resident_loop;

static int loop_advance(void *loop, size_t count, heat2d_error *err)
{
    resident_loop *l = loop;
    return l->advance(l->method, l->r, l->cfg, &l->current, count, err);
}

/* A plain snapshot: the loop stops, the field comes down, the callback
 * runs, the loop goes on. An overlapped one is queued, and the one before
 * it taken (waited for, handed over) now that the steps after it are
 * queued, so that the GPU computes meanwhile. */
static int loop_snapshot(void *loop, size_t done, heat2d_error *err)
{
    resident_loop *l = loop;
    if (!l->overlap) {
        const double t0 = heat2d_now();
        if (copy_down(l->r, l->cfg, l->current, l->host, l->rep, err) != 0)
            return -1;
        l->rep->snapshot_wait_s += heat2d_now() - t0;
        return hand_with_stats(l->r, l->cfg, 0, done, l->host, l->rep, err);
    }
    if (queue_snapshot(l->r, l->cfg, l->current, l->next_buffer, l->rep, err) != 0)
        return -1;
    if (l->pending >= 0 &&
        take_snapshot(l->r, l->cfg, l->pending, l->pending_step, l->rep, err) != 0)
        return -1;
    l->pending = l->next_buffer;
    l->pending_step = done;
    l->next_buffer ^= 1;
    return 0;
}

/* Releases each handle that r holds and clears it. With err, stops at the
 * first failure (err says which), leaving the rest to _abandon; without,
 * tries them all. */
static int release_frame(heat2d_cuda_resident *r, heat2d_error *err)
{
    cudaEvent_t *events[] = {&r->loop_start, &r->loop_stop, &r->copied[0],
                             &r->copied[1],  &r->landed[0], &r->landed[1]};
    for (size_t k = 0; k < sizeof events / sizeof events[0]; ++k)
        HEAT2D_CUDA_RELEASE(err, *events[k], cudaEventDestroy(*events[k]));
    HEAT2D_CUDA_RELEASE(err, r->copy_stream, cudaStreamDestroy(r->copy_stream));
    void **device[] = {&r->dev_u,       &r->dev_v,         &r->dev_snap[0],
                       &r->dev_snap[1], &r->stats_scratch, &r->dev_stats};
    for (size_t k = 0; k < sizeof device / sizeof device[0]; ++k)
        HEAT2D_CUDA_RELEASE(err, *device[k], cudaFree(*device[k]));
    void **host[] = {&r->host_snap[0], &r->host_snap[1], &r->host_stats};
    for (size_t k = 0; k < sizeof host / sizeof host[0]; ++k)
        HEAT2D_CUDA_RELEASE(err, *host[k], cudaFreeHost(*host[k]));
    return 0;
}

/* GPU_LOOP_S ends at *t_end: the host's view (launches, then the wait),
 * and the events' view of the same interval on the device. Kernel faults
 * surface here. */
static int end_loop(heat2d_cuda_resident *r, double *t_end, heat2d_report *rep, heat2d_error *err)
{
    HEAT2D_CUDA_CHECK(err, cudaEventRecord(r->loop_stop, r->stream));
    HEAT2D_CUDA_CHECK(err, cudaEventSynchronize(r->loop_stop));
    *t_end = heat2d_now();
    heat2d_report_phase(rep, "GPU_LOOP_S", *t_end - r->t_loop);
    float loop_ms = 0.0f;
    HEAT2D_CUDA_CHECK(err, cudaEventElapsedTime(&loop_ms, r->loop_start, r->loop_stop));
    rep->device_loop_s = (double)loop_ms / 1e3;
    return 0;
}

int heat2d_cuda_resident_run(heat2d_cuda_resident *r, const heat2d_config *cfg,
                             heat2d_cuda_advance advance, void *method, void *u, void *v,
                             void **result, heat2d_report *rep, heat2d_error *err)
{
    resident_loop l = {
        .r = r,
        .cfg = cfg,
        .rep = rep,
        .advance = advance,
        .method = method,
        .current = r->dev_u,
        .host = cfg->steps % 2 == 0 ? u : v,
        .overlap = cfg->output_every > 0 && cfg->snapshot_copy == HEAT2D_SNAPSHOT_OVERLAP,
        .pending = -1,
    };
    double t_readback = 0.0;
    if (heat2d_run_segments(cfg, loop_advance, loop_snapshot, &l, err) != 0 ||
        (l.pending >= 0 && take_snapshot(r, cfg, l.pending, l.pending_step, rep, err) != 0) ||
        end_loop(r, &t_readback, rep, err) != 0)
        return -1;

    /* READBACK_S: only the buffer of the last step (with snapshots, the
     * last of them: its invariants are found on the device first). */
    if (copy_down(r, cfg, l.current, l.host, rep, err) != 0)
        return -1;
    const double t_exit = heat2d_now();
    heat2d_report_phase(rep, "READBACK_S", t_exit - t_readback);
    if (cfg->output_every > 0 && hand_with_stats(r, cfg, 0, cfg->steps, l.host, rep, err) != 0)
        return -1;

    /* EXIT_S: a failure here leaves only the rest to _abandon. */
    const double t_free = heat2d_now();
    if (release_frame(r, err) != 0)
        return -1;
    heat2d_report_phase(rep, "EXIT_S", heat2d_now() - t_free);
    *result = l.host;
    return 0;
}

void heat2d_cuda_resident_abandon(heat2d_cuda_resident *r)
{
    /* Best effort: the first failure is already in err; queued kernels must
     * finish before their buffers go. */
    (void)cudaDeviceSynchronize();
    (void)release_frame(r, NULL);
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
