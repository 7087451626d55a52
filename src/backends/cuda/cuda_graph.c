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
 */
#include <stdbool.h>
#include <stddef.h>

#include <cuda_runtime_api.h>

#include "cuda_check.h"
#include "cuda_common.h"
#include "cuda_kernels.h"
#include "cuda_methods.h"

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
static int capture_batch(const heat2d_config *cfg, cudaStream_t stream, double *dev_u,
                         double *dev_v, size_t batch, cudaGraph_t *graph, heat2d_error *err)
{
    HEAT2D_CUDA_CHECK(err, cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    double *current = dev_u;
    double *next = dev_v;
    cudaError_t rc = cudaSuccess;
    for (size_t step = 0; step < batch && rc == cudaSuccess; ++step) {
        rc = heat2d_cuda_step(current, next, cfg->nx, cfg->ny, cfg->alpha, stream);
        double *swap = current;
        current = next;
        next = swap;
    }
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

static int graph_solve(const heat2d_config *cfg, double *u, double *v, double **result,
                       heat2d_report *rep, heat2d_error *err)
{
    size_t bytes = 0;
    if (heat2d_grid_bytes(cfg->nx, cfg->ny, &bytes, err) != 0)
        return -1;
    double *dev_u = NULL;
    double *dev_v = NULL;
    cudaStream_t stream = NULL;
    cudaEvent_t loop_start = NULL;
    cudaEvent_t loop_stop = NULL;
    cudaGraph_t graph = NULL;
    cudaGraphExec_t exec = NULL;
    rep->transfers_measured = true;
    const size_t batch = graph_batch(cfg->steps);
    const size_t replays = batch > 0 ? cfg->steps / batch : 0;

    /* ENTER_S: the arrays, the upload, and the graph. */
    const double t_enter = heat2d_now();
    HEAT2D_CUDA_CHECK_GOTO(err, cudaMalloc((void **)&dev_u, bytes), fail);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaMalloc((void **)&dev_v, bytes), fail);
    /* Capture needs a stream other than the legacy default stream. */
    HEAT2D_CUDA_CHECK_GOTO(err, cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), fail);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventCreate(&loop_start), fail);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventCreate(&loop_stop), fail);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaMemcpy(dev_u, u, bytes, cudaMemcpyHostToDevice), fail);
    rep->h2d_count += 1;
    rep->h2d_bytes += bytes;
    if (batch > 0) {
        if (capture_batch(cfg, stream, dev_u, dev_v, batch, &graph, err) != 0)
            goto fail;
        HEAT2D_CUDA_CHECK_GOTO(err, cudaGraphInstantiate(&exec, graph, 0), fail);
        /* Puts the graph's resources on the device now rather than at the
         * first replay. */
        HEAT2D_CUDA_CHECK_GOTO(err, cudaGraphUpload(exec, stream), fail);
    }
    /* The upload (from pageable memory it may return before it lands) and
     * the graph upload must be done before the loop's clock starts. */
    HEAT2D_CUDA_CHECK_GOTO(err, cudaDeviceSynchronize(), fail);
    const double t_loop = heat2d_now();
    heat2d_report_phase(rep, "ENTER_S", t_loop - t_enter);

    /* GPU_LOOP_S: the replays, then the remainder as plain launches. */
    double *current = dev_u;
    double *next = dev_v;
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventRecord(loop_start, stream), fail);
    for (size_t k = 0; k < replays; ++k)
        HEAT2D_CUDA_CHECK_GOTO(err, cudaGraphLaunch(exec, stream), fail);
    for (size_t step = replays * batch; step < cfg->steps; ++step) {
        HEAT2D_CUDA_CHECK_GOTO(
            err, heat2d_cuda_step(current, next, cfg->nx, cfg->ny, cfg->alpha, stream), fail);
        double *swap = current;
        current = next;
        next = swap;
    }
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventRecord(loop_stop, stream), fail);
    /* Kernel faults surface here. */
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventSynchronize(loop_stop), fail);
    const double t_readback = heat2d_now();
    heat2d_report_phase(rep, "GPU_LOOP_S", t_readback - t_loop);
    float loop_ms = 0.0f;
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventElapsedTime(&loop_ms, loop_start, loop_stop), fail);
    rep->device_loop_s = (double)loop_ms / 1e3;

    /* READBACK_S: as cuda-resident, the buffer of the last step into the host
     * array that plays the same part. */
    double *host = current == dev_u ? u : v;
    HEAT2D_CUDA_CHECK_GOTO(err, cudaMemcpy(host, current, bytes, cudaMemcpyDeviceToHost), fail);
    rep->d2h_count += 1;
    rep->d2h_bytes += bytes;
    const double t_exit = heat2d_now();
    heat2d_report_phase(rep, "READBACK_S", t_exit - t_readback);

    /* EXIT_S: each handle is cleared once released, so that a failure here
     * leaves only the rest to the clean-up below. */
    if (exec != NULL) {
        HEAT2D_CUDA_CHECK_GOTO(err, cudaGraphExecDestroy(exec), fail);
        exec = NULL;
    }
    if (graph != NULL) {
        HEAT2D_CUDA_CHECK_GOTO(err, cudaGraphDestroy(graph), fail);
        graph = NULL;
    }
    HEAT2D_CUDA_CHECK_GOTO(err, cudaFree(dev_u), fail);
    dev_u = NULL;
    HEAT2D_CUDA_CHECK_GOTO(err, cudaFree(dev_v), fail);
    dev_v = NULL;
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventDestroy(loop_start), fail);
    loop_start = NULL;
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventDestroy(loop_stop), fail);
    loop_stop = NULL;
    HEAT2D_CUDA_CHECK_GOTO(err, cudaStreamDestroy(stream), fail);
    stream = NULL;
    heat2d_report_phase(rep, "EXIT_S", heat2d_now() - t_exit);
    *result = host;
    return 0;

fail:
    /* Best effort: err already holds the first failure; later ones are moot.
     * Wait for queued work first, so that nothing still uses what is freed. */
    if (stream != NULL)
        (void)cudaStreamSynchronize(stream);
    if (exec != NULL)
        (void)cudaGraphExecDestroy(exec);
    if (graph != NULL)
        (void)cudaGraphDestroy(graph);
    if (loop_start != NULL)
        (void)cudaEventDestroy(loop_start);
    if (loop_stop != NULL)
        (void)cudaEventDestroy(loop_stop);
    if (stream != NULL)
        (void)cudaStreamDestroy(stream);
    (void)cudaFree(dev_u);
    (void)cudaFree(dev_v);
    return -1;
}

const heat2d_method heat2d_method_cuda_graph = {
    .name = "cuda-graph",
    .seed_name = "CUDA_GRAPH",
    .style = HEAT2D_STYLE_RESIDENT,
    .gpu_only = true,
    .has_pinned_variant = false,
    .prepare = graph_prepare,
    .solve = graph_solve,
};
