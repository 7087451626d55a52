/* cuda-graph: cuda-resident's arithmetic, its time loop replayed as a CUDA
 * graph.
 *
 * On small grids a step's kernel is shorter than its launch (a few
 * microseconds at 512^2), so the loop measures the launch path rather than the
 * GPU. Here a batch of steps (an even number, at most kMaxBatch kernels,
 * ping-ponging between the two buffers) is captured once into a graph, and
 * the loop replays it; the few steps left over after the last whole batch are
 * launched plainly. Because a batch is even, every replay starts and ends in
 * the first buffer, so the remainder and the read-back follow cuda-resident's
 * rule unchanged. Building and instantiating the graph is set-up: it counts
 * in ENTER_S, next to the allocation and the upload. Transfers: 1 upload and 1
 * download of S bytes, counted at the copy calls.
 * Measurements: docs/performance.md, "cuda-graph".
 */
#include <stdbool.h>
#include <stddef.h>

#include <cuda_runtime_api.h>

#include "cuda_check.h"
#include "cuda_common.h"
#include "cuda_kernels.h"

/* Kernels in one graph: enough that replays are rare next to the steps, few
 * enough that instantiation stays well under a millisecond. */
enum { kMaxBatch = 64 };

static int graph_prepare(const heat2d_config *cfg, heat2d_report *rep, heat2d_error *err)
{
    return heat2d_cuda_prepare("cuda-graph", cfg, rep, err);
}

/* An even batch near steps / ceil(steps / kMaxBatch), so that the remainder
 * after the replays is small; 0 when there are fewer than 2 steps. */
static size_t graph_batch(size_t steps)
{
    const size_t batches = (steps + kMaxBatch - 1) / kMaxBatch;
    return batches == 0 ? 0 : (steps / batches) & ~(size_t)1;
}

/* Captures batch steps from u (even, so the batch ends in u again) into
 * *graph. On failure the capture is ended, whatever it holds is destroyed,
 * and err says why. */
static int capture_batch(const heat2d_config *cfg, cudaStream_t stream, void *dev_u, void *dev_v,
                         size_t batch, cudaGraph_t *graph, heat2d_error *err)
{
    HEAT2D_CUDA_CHECK(err, cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    void *current = dev_u;
    void *next = dev_v;
    const cudaError_t rc = heat2d_cuda_plain_steps(&current, &next, batch, cfg, stream);
    /* End the capture in every case, so that the stream is usable again. */
    cudaGraph_t captured = NULL;
    const cudaError_t end_rc = cudaStreamEndCapture(stream, &captured);
    if (rc != cudaSuccess || end_rc != cudaSuccess) {
        if (captured != NULL)
            (void)cudaGraphDestroy(captured);
        return heat2d_cuda_fail(err, __FILE__, __LINE__, "capturing the step kernels",
                                rc != cudaSuccess ? rc : end_rc);
    }
    *graph = captured;
    return 0;
}

/* The graphs of one run: a batch of steps captured from each buffer (a
 * segment between two snapshots may start in either), instantiated. */
typedef struct graph_state {
    size_t batch;
    cudaGraph_t graph[2];
    cudaGraphExec_t exec[2];
} graph_state;

/* Replays of the batch from the buffer the field is in (an even batch ends
 * where it began), then the rest as plain launches. */
static int graph_advance(void *method, heat2d_cuda_resident *r, const heat2d_config *cfg,
                         void **current, size_t count, heat2d_error *err)
{
    const graph_state *g = method;
    const size_t replays = g->batch > 0 ? count / g->batch : 0;
    const int from_v = *current == r->dev_v;
    for (size_t k = 0; k < replays; ++k)
        HEAT2D_CUDA_CHECK(err, cudaGraphLaunch(g->exec[from_v], r->stream));
    void *next = *current == r->dev_u ? r->dev_v : r->dev_u;
    HEAT2D_CUDA_CHECK(
        err, heat2d_cuda_plain_steps(current, &next, count - replays * g->batch, cfg, r->stream));
    return 0;
}

static void graph_release(graph_state *g)
{
    for (int k = 0; k < 2; ++k) {
        if (g->exec[k] != NULL)
            (void)cudaGraphExecDestroy(g->exec[k]);
        if (g->graph[k] != NULL)
            (void)cudaGraphDestroy(g->graph[k]);
    }
}

static int graph_solve_any(const heat2d_config *cfg, void *u, void *v, void **result,
                           heat2d_report *rep, heat2d_error *err)
{
    cudaStream_t stream = NULL;
    heat2d_cuda_resident frame = {0};
    /* The longest segment between snapshots is the first. */
    graph_state g = {.batch = graph_batch(heat2d_next_snapshot(0, cfg->steps, cfg->output_every))};

    /* ENTER_S: the arrays, the upload, and the graphs. Capture needs a
     * stream other than the legacy default stream; a run without snapshots
     * starts in dev_u and needs only its graph. */
    HEAT2D_CUDA_CHECK_GOTO(err, cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), fail);
    if (heat2d_cuda_resident_enter(&frame, cfg, u, stream, rep, err) != 0)
        goto fail;
    for (int k = 0; k < (cfg->output_every > 0 ? 2 : 1) && g.batch > 0; ++k) {
        void *from = k == 0 ? frame.dev_u : frame.dev_v;
        void *to = k == 0 ? frame.dev_v : frame.dev_u;
        if (capture_batch(cfg, stream, from, to, g.batch, &g.graph[k], err) != 0)
            goto fail;
        HEAT2D_CUDA_CHECK_GOTO(err, cudaGraphInstantiate(&g.exec[k], g.graph[k], 0), fail);
        /* Puts the graph's resources on the device now rather than at the
         * first replay. */
        HEAT2D_CUDA_CHECK_GOTO(err, cudaGraphUpload(g.exec[k], stream), fail);
    }
    if (heat2d_cuda_resident_start(&frame, rep, err) != 0 ||
        heat2d_cuda_resident_run(&frame, cfg, graph_advance, &g, u, v, result, rep, err) != 0)
        goto fail;

    /* The graphs and their stream go after the arrays: every replay is
     * done. */
    graph_release(&g);
    HEAT2D_CUDA_CHECK(err, cudaStreamDestroy(stream));
    return 0;

fail:
    /* Best effort: err already holds the first failure; later ones are moot.
     * Wait for queued work first, so that nothing still uses what is freed. */
    if (stream != NULL)
        (void)cudaStreamSynchronize(stream);
    heat2d_cuda_resident_abandon(&frame);
    graph_release(&g);
    if (stream != NULL)
        (void)cudaStreamDestroy(stream);
    return -1;
}

HEAT2D_PRECISION_METHOD(heat2d_method_cuda_graph, graph_solve_any, .name = "cuda-graph",
                        .seed_name = "CUDA_GRAPH", .style = HEAT2D_STYLE_RESIDENT, .gpu_only = true,
                        .prepare = graph_prepare, .has_pinned_variant = true, .has_snapshots = true,
                        .overlapped_snapshots = true, .device_snapshot_stats = true,
                        .alloc_pinned = heat2d_cuda_alloc_pinned,
                        .free_pinned = heat2d_cuda_free_pinned);
