/* cuda-resident: both arrays live on the device for the whole time loop.
 *
 * The CUDA counterpart of the article's ACC_PERSISTENT: u goes up once (v is
 * only created: the kernel writes every cell of it, boundary included), the
 * steps ping-pong between the two device buffers, and only the buffer holding
 * the last step comes back. Transfers: 1 upload and 1 download of S bytes.
 */
#include <stdbool.h>
#include <stddef.h>

#include <cuda_runtime_api.h>

#include "cuda_check.h"
#include "cuda_common.h"
#include "cuda_kernels.h"
#include "cuda_methods.h"

static int resident_prepare(const heat2d_config *cfg, heat2d_report *rep, heat2d_error *err)
{
    return heat2d_cuda_prepare("cuda-resident", cfg, rep, err);
}

static int resident_solve(const heat2d_config *cfg, double *u, double *v, double **result,
                          heat2d_report *rep, heat2d_error *err)
{
    size_t bytes = 0;
    if (heat2d_grid_bytes(cfg->nx, cfg->ny, &bytes, err) != 0)
        return -1;
    double *dev_u = NULL;
    double *dev_v = NULL;
    cudaEvent_t loop_start = NULL;
    cudaEvent_t loop_stop = NULL;
    rep->transfers_measured = true;

    /* ENTER_S: what the OpenACC version's copyin(u) create(v) costs. */
    const double t_enter = heat2d_now();
    HEAT2D_CUDA_CHECK_GOTO(err, cudaMalloc((void **)&dev_u, bytes), fail);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaMalloc((void **)&dev_v, bytes), fail);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventCreate(&loop_start), fail);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventCreate(&loop_stop), fail);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaMemcpy(dev_u, u, bytes, cudaMemcpyHostToDevice), fail);
    rep->h2d_count += 1;
    rep->h2d_bytes += bytes;
    /* An upload from pageable memory may return once the data is staged,
     * before it lands; wait, so that its tail is not billed to the loop. */
    HEAT2D_CUDA_CHECK_GOTO(err, cudaDeviceSynchronize(), fail);
    const double t_loop = heat2d_now();
    heat2d_report_phase(rep, "ENTER_S", t_loop - t_enter);

    /* GPU_LOOP_S: launches only; events give the device's view of the same
     * interval, the host clock what the caller waits. */
    double *current = dev_u;
    double *next = dev_v;
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventRecord(loop_start, 0), fail);
    for (size_t step = 0; step < cfg->steps; ++step) {
        HEAT2D_CUDA_CHECK_GOTO(
            err, heat2d_cuda_step(current, next, cfg->nx, cfg->ny, cfg->alpha, 0), fail);
        double *swap = current;
        current = next;
        next = swap;
    }
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventRecord(loop_stop, 0), fail);
    /* Kernel faults surface here. */
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventSynchronize(loop_stop), fail);
    const double t_readback = heat2d_now();
    heat2d_report_phase(rep, "GPU_LOOP_S", t_readback - t_loop);
    float loop_ms = 0.0f;
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventElapsedTime(&loop_ms, loop_start, loop_stop), fail);
    rep->device_loop_s = (double)loop_ms / 1e3;

    /* READBACK_S: the last step is in the second buffer after an odd number of
     * steps, in the first after an even number; bring it back into the host
     * array that plays the same part, as the seed's update self does. */
    double *host = current == dev_u ? u : v;
    HEAT2D_CUDA_CHECK_GOTO(err, cudaMemcpy(host, current, bytes, cudaMemcpyDeviceToHost), fail);
    rep->d2h_count += 1;
    rep->d2h_bytes += bytes;
    const double t_exit = heat2d_now();
    heat2d_report_phase(rep, "READBACK_S", t_exit - t_readback);

    /* EXIT_S: release the device copies. Each handle is cleared only once
     * released, so that a failure here leaves the rest to the clean-up
     * below. */
    HEAT2D_CUDA_CHECK_GOTO(err, cudaFree(dev_u), fail);
    dev_u = NULL;
    HEAT2D_CUDA_CHECK_GOTO(err, cudaFree(dev_v), fail);
    dev_v = NULL;
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventDestroy(loop_start), fail);
    loop_start = NULL;
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventDestroy(loop_stop), fail);
    loop_stop = NULL;
    heat2d_report_phase(rep, "EXIT_S", heat2d_now() - t_exit);
    *result = host;
    return 0;

fail:
    /* Best effort: err already holds the first failure; later ones are moot. */
    if (loop_start != NULL)
        (void)cudaEventDestroy(loop_start);
    if (loop_stop != NULL)
        (void)cudaEventDestroy(loop_stop);
    (void)cudaFree(dev_u);
    (void)cudaFree(dev_v);
    return -1;
}

const heat2d_method heat2d_method_cuda_resident = {
    .name = "cuda-resident",
    .seed_name = "CUDA_RESIDENT",
    .style = HEAT2D_STYLE_RESIDENT,
    .gpu_only = true,
    .has_pinned_variant = false,
    .prepare = resident_prepare,
    .solve = resident_solve,
};
