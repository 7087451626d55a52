/* cuda-tb: temporal blocking, several time steps per pass through device
 * memory.
 *
 * Arrays and transfers as cuda-resident (1 upload, 1 download of S bytes,
 * counted at the copy calls); the time loop runs passes of the temporal
 * blocking kernel (cuda_tb_kernels.cu), each of which takes the field several
 * steps forward while reading and writing device memory about once. The steps
 * that do not fill a pass of the main depth run as shallower passes, and a
 * last odd step as the plain kernel, so that any step count is exact.
 *
 * Each pass swaps the buffers once whatever its depth, so the buffer that
 * holds the last step on the device says nothing about the step count's
 * parity; the read-back goes by the parity instead, like every other method:
 * the first host array after an even number of steps, the second after an
 * odd one.
 */
#include <stdbool.h>
#include <stddef.h>

#include <cuda_runtime_api.h>

#include "cuda_check.h"
#include "cuda_common.h"
#include "cuda_kernels.h"
#include "cuda_methods.h"
#include "cuda_tb_kernels.h"

enum { kMaxDepths = 4 };

static int tb_prepare(const heat2d_config *cfg, heat2d_report *rep, heat2d_error *err)
{
    if (heat2d_cuda_prepare("cuda-tb", cfg, rep, err) != 0)
        return -1;
    /* Part of the untimed set-up: load the kernels now, not at the first
     * pass inside the loop. */
    const double t0 = heat2d_now();
    HEAT2D_CUDA_CHECK(err, heat2d_cuda_tb_load_kernels());
    rep->context_s += heat2d_now() - t0;
    return 0;
}

static int tb_solve(const heat2d_config *cfg, double *u, double *v, double **result,
                    heat2d_report *rep, heat2d_error *err)
{
    size_t bytes = 0;
    if (heat2d_grid_bytes(cfg->nx, cfg->ny, &bytes, err) != 0)
        return -1;
    double *dev_u = NULL;
    double *dev_v = NULL;
    cudaEvent_t loop_start = NULL;
    cudaEvent_t loop_stop = NULL;
    unsigned depths[kMaxDepths];
    heat2d_cuda_tb_plan plans[kMaxDepths];
    const unsigned n_depths = heat2d_cuda_tb_depths(depths, kMaxDepths);
    rep->transfers_measured = true;

    /* ENTER_S: the arrays, the upload, and the plans of the passes. */
    const double t_enter = heat2d_now();
    HEAT2D_CUDA_CHECK_GOTO(err, cudaMalloc((void **)&dev_u, bytes), fail);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaMalloc((void **)&dev_v, bytes), fail);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventCreate(&loop_start), fail);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventCreate(&loop_stop), fail);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaMemcpy(dev_u, u, bytes, cudaMemcpyHostToDevice), fail);
    rep->h2d_count += 1;
    rep->h2d_bytes += bytes;
    for (unsigned k = 0; k < n_depths; ++k)
        HEAT2D_CUDA_CHECK_GOTO(
            err, heat2d_cuda_tb_plan_pass(cfg->nx, cfg->ny, depths[k], &plans[k]), fail);
    /* An upload from pageable memory may return before it lands. */
    HEAT2D_CUDA_CHECK_GOTO(err, cudaDeviceSynchronize(), fail);
    const double t_loop = heat2d_now();
    heat2d_report_phase(rep, "ENTER_S", t_loop - t_enter);

    /* GPU_LOOP_S: the deepest passes that fit, then shallower ones, then a
     * plain step for what is left (at most one step). */
    double *current = dev_u;
    double *next = dev_v;
    size_t left = cfg->steps;
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventRecord(loop_start, 0), fail);
    for (unsigned k = 0; k < n_depths; ++k) {
        for (; left >= depths[k]; left -= depths[k]) {
            HEAT2D_CUDA_CHECK_GOTO(
                err, heat2d_cuda_tb_pass(&plans[k], current, next, cfg->nx, cfg->ny, cfg->alpha, 0),
                fail);
            double *swap = current;
            current = next;
            next = swap;
        }
    }
    for (; left > 0; --left) {
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

    /* READBACK_S: into the host array that the step count's parity names. */
    double *host = cfg->steps % 2 == 0 ? u : v;
    HEAT2D_CUDA_CHECK_GOTO(err, cudaMemcpy(host, current, bytes, cudaMemcpyDeviceToHost), fail);
    rep->d2h_count += 1;
    rep->d2h_bytes += bytes;
    const double t_exit = heat2d_now();
    heat2d_report_phase(rep, "READBACK_S", t_exit - t_readback);

    /* EXIT_S: each handle is cleared once released, so that a failure here
     * leaves only the rest to the clean-up below. */
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
    /* Best effort: err already holds the first failure; later ones are moot.
     * Queued passes must finish before their buffers go. */
    (void)cudaDeviceSynchronize();
    if (loop_start != NULL)
        (void)cudaEventDestroy(loop_start);
    if (loop_stop != NULL)
        (void)cudaEventDestroy(loop_stop);
    (void)cudaFree(dev_u);
    (void)cudaFree(dev_v);
    return -1;
}

const heat2d_method heat2d_method_cuda_tb = {
    .name = "cuda-tb",
    .seed_name = "CUDA_TB",
    .style = HEAT2D_STYLE_RESIDENT,
    .gpu_only = true,
    .has_pinned_variant = false,
    .prepare = tb_prepare,
    .solve = tb_solve,
};
