/* cuda-each: every step crosses the bus both ways.
 *
 * The CUDA counterpart of the article's ACC_EACH_STEP, the deliberately bad
 * design whose cost the article measures: each step uploads u, runs the
 * kernel, downloads v, then swaps the host pointers, so the host always holds
 * the latest field. Transfers: N uploads and N downloads of S bytes.
 *
 * Unlike the OpenACC data region inside the loop, the device buffers are
 * allocated once, before the loop (ALLOC_S), so that STEP_REGIONS_S is the
 * transfers plus the kernels and nothing else.
 *
 * Host memory is the caller's malloc'd, pageable u and v, as in the article.
 * With cfg->pinned the same two arrays are page-locked in place with
 * cudaHostRegister (PIN_S, inside the timed region, because a program that
 * wants pinned transfers pays for it), so the copies run at pinned bandwidth
 * without an extra host copy.
 * Measurements: docs/performance.md, "cuda-each".
 */
#include <stdbool.h>
#include <stddef.h>

#include <cuda_runtime_api.h>

#include "cuda_check.h"
#include "cuda_common.h"
#include "cuda_kernels.h"
#include "cuda_methods.h"

static int each_prepare(const heat2d_config *cfg, heat2d_report *rep, heat2d_error *err)
{
    return heat2d_cuda_prepare("cuda-each", cfg, rep, err);
}

/* One step's copy times from its events (upload m[0]..m[1], download
 * m[2]..m[3]), once the last of them has passed. */
static int read_copy_times(cudaEvent_t m[4], heat2d_report *rep, heat2d_error *err)
{
    float up_ms = 0.0f, down_ms = 0.0f;
    HEAT2D_CUDA_CHECK(err, cudaEventSynchronize(m[3]));
    HEAT2D_CUDA_CHECK(err, cudaEventElapsedTime(&up_ms, m[0], m[1]));
    HEAT2D_CUDA_CHECK(err, cudaEventElapsedTime(&down_ms, m[2], m[3]));
    rep->h2d_s += (double)up_ms / 1e3;
    rep->d2h_s += (double)down_ms / 1e3;
    return 0;
}

static int each_solve_any(const heat2d_config *cfg, void *u, void *v, void **result,
                          heat2d_report *rep, heat2d_error *err)
{
    size_t bytes = 0;
    if (heat2d_array_bytes(cfg, &bytes, err) != 0)
        return -1;
    void *dev_u = NULL;
    void *dev_v = NULL;
    /* The host arrays as registered; u and v are swapped below, these not. */
    void *pinned_u = NULL;
    void *pinned_v = NULL;
    cudaEvent_t marks[2][4] = {{NULL}};
    rep->transfers_measured = true;

    const double t_start = heat2d_now();
    if (cfg->pinned) {
        /* Small arrays may share a page; the runtime accepts registering
         * both. */
        HEAT2D_CUDA_CHECK_GOTO(err, cudaHostRegister(u, bytes, cudaHostRegisterDefault), fail);
        pinned_u = u;
        HEAT2D_CUDA_CHECK_GOTO(err, cudaHostRegister(v, bytes, cudaHostRegisterDefault), fail);
        pinned_v = v;
    }
    const double t_alloc = heat2d_now();
    if (cfg->pinned)
        heat2d_report_phase(rep, "PIN_S", t_alloc - t_start);

    HEAT2D_CUDA_CHECK_GOTO(err, cudaMalloc(&dev_u, bytes), fail);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaMalloc(&dev_v, bytes), fail);
    const double t_loop = heat2d_now();
    heat2d_report_phase(rep, "ALLOC_S", t_loop - t_alloc);

    /* STEP_REGIONS_S. cudaMemcpy to the host returns only once the data has
     * landed (pageable or pinned), so the host clock after the loop is honest
     * and the swap below is safe. Events around the copies time them on the
     * device (H2D_S, D2H_S); a step's are read during the next step, when
     * they have long passed, so that the loop waits for nothing more than
     * its copies. */
    for (int k = 0; k < 8; ++k)
        HEAT2D_CUDA_CHECK_GOTO(err, cudaEventCreate(&marks[k / 4][k % 4]), fail);
    rep->h2d_s = rep->d2h_s = 0.0;
    for (size_t step = 0; step <= cfg->steps; ++step) {
        if (step > 0 && read_copy_times(marks[(step - 1) % 2], rep, err) != 0)
            goto fail;
        if (step == cfg->steps)
            break;
        cudaEvent_t *m = marks[step % 2];
        HEAT2D_CUDA_CHECK_GOTO(err, cudaEventRecord(m[0], 0), fail);
        HEAT2D_CUDA_CHECK_GOTO(err, cudaMemcpy(dev_u, u, bytes, cudaMemcpyHostToDevice), fail);
        HEAT2D_CUDA_CHECK_GOTO(err, cudaEventRecord(m[1], 0), fail);
        rep->h2d_count += 1;
        rep->h2d_bytes += bytes;
        HEAT2D_CUDA_CHECK_GOTO(
            err,
            heat2d_cuda_step(cfg->precision, dev_u, dev_v, cfg->nx, cfg->ny, cfg->alpha, true, 0),
            fail);
        HEAT2D_CUDA_CHECK_GOTO(err, cudaEventRecord(m[2], 0), fail);
        HEAT2D_CUDA_CHECK_GOTO(err, cudaMemcpy(v, dev_v, bytes, cudaMemcpyDeviceToHost), fail);
        HEAT2D_CUDA_CHECK_GOTO(err, cudaEventRecord(m[3], 0), fail);
        rep->d2h_count += 1;
        rep->d2h_bytes += bytes;
        void *swap = u;
        u = v;
        v = swap;
    }
    const double t_exit = heat2d_now();
    heat2d_report_phase(rep, "STEP_REGIONS_S", t_exit - t_loop);
    for (int k = 0; k < 8; ++k) {
        HEAT2D_CUDA_CHECK_GOTO(err, cudaEventDestroy(marks[k / 4][k % 4]), fail);
        marks[k / 4][k % 4] = NULL;
    }

    /* EXIT_S: device buffers, then the page locks. Each pointer is cleared
     * only once released, so that a failure here leaves the rest to the
     * clean-up below. */
    HEAT2D_CUDA_CHECK_GOTO(err, cudaFree(dev_u), fail);
    dev_u = NULL;
    HEAT2D_CUDA_CHECK_GOTO(err, cudaFree(dev_v), fail);
    dev_v = NULL;
    if (pinned_u != NULL) {
        HEAT2D_CUDA_CHECK_GOTO(err, cudaHostUnregister(pinned_u), fail);
        pinned_u = NULL;
    }
    if (pinned_v != NULL) {
        HEAT2D_CUDA_CHECK_GOTO(err, cudaHostUnregister(pinned_v), fail);
        pinned_v = NULL;
    }
    heat2d_report_phase(rep, "EXIT_S", heat2d_now() - t_exit);
    /* After the swap u holds the latest step: the second array after an odd
     * number of steps, the first after an even number. */
    *result = u;
    return 0;

fail:
    /* Best effort: err already holds the first failure; later ones are moot. */
    for (int k = 0; k < 8; ++k)
        if (marks[k / 4][k % 4] != NULL)
            (void)cudaEventDestroy(marks[k / 4][k % 4]);
    (void)cudaFree(dev_u);
    (void)cudaFree(dev_v);
    if (pinned_u != NULL)
        (void)cudaHostUnregister(pinned_u);
    if (pinned_v != NULL)
        (void)cudaHostUnregister(pinned_v);
    return -1;
}

HEAT2D_PRECISION_METHOD(heat2d_method_cuda_each, each_solve_any, .name = "cuda-each",
                        .seed_name = "CUDA_EACH_STEP", .style = HEAT2D_STYLE_EACH, .gpu_only = true,
                        .has_pinned_variant = true, .prepare = each_prepare);
