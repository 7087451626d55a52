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

/* What a run holds: the device buffers, the host arrays as registered (u
 * and v are swapped by the loop, these not), and each step's copy events. */
typedef struct each_state {
    size_t bytes;
    void *dev_u;
    void *dev_v;
    void *pinned_u;
    void *pinned_v;
    cudaEvent_t marks[2][4];
} each_state;

/* PIN_S (with cfg->pinned: the caller's two arrays page-locked in place)
 * and ALLOC_S (the device buffers); returns when the loop may begin in
 * *t_loop. */
static int each_setup(each_state *st, const heat2d_config *cfg, void *u, void *v, double *t_loop,
                      heat2d_report *rep, heat2d_error *err)
{
    const double t_start = heat2d_now();
    if (cfg->pinned) {
        /* Small arrays may share a page; the runtime accepts registering
         * both. */
        HEAT2D_CUDA_CHECK(err, cudaHostRegister(u, st->bytes, cudaHostRegisterDefault));
        st->pinned_u = u;
        HEAT2D_CUDA_CHECK(err, cudaHostRegister(v, st->bytes, cudaHostRegisterDefault));
        st->pinned_v = v;
    }
    const double t_alloc = heat2d_now();
    if (cfg->pinned)
        heat2d_report_phase(rep, "PIN_S", t_alloc - t_start);
    HEAT2D_CUDA_CHECK(err, cudaMalloc(&st->dev_u, st->bytes));
    HEAT2D_CUDA_CHECK(err, cudaMalloc(&st->dev_v, st->bytes));
    *t_loop = heat2d_now();
    heat2d_report_phase(rep, "ALLOC_S", *t_loop - t_alloc);
    return 0;
}

/* One step: u up, the kernel, v down, each copy between two of m's events. */
static int each_step(each_state *st, const heat2d_config *cfg, const void *u, void *v,
                     cudaEvent_t m[4], heat2d_report *rep, heat2d_error *err)
{
    HEAT2D_CUDA_CHECK(err, cudaEventRecord(m[0], 0));
    HEAT2D_CUDA_CHECK(err, cudaMemcpy(st->dev_u, u, st->bytes, cudaMemcpyHostToDevice));
    HEAT2D_CUDA_CHECK(err, cudaEventRecord(m[1], 0));
    rep->h2d_count += 1;
    rep->h2d_bytes += st->bytes;
    HEAT2D_CUDA_CHECK(err, heat2d_cuda_step(cfg->precision, st->dev_u, st->dev_v, cfg->nx, cfg->ny,
                                            cfg->alpha, true, 0));
    HEAT2D_CUDA_CHECK(err, cudaEventRecord(m[2], 0));
    HEAT2D_CUDA_CHECK(err, cudaMemcpy(v, st->dev_v, st->bytes, cudaMemcpyDeviceToHost));
    HEAT2D_CUDA_CHECK(err, cudaEventRecord(m[3], 0));
    rep->d2h_count += 1;
    rep->d2h_bytes += st->bytes;
    return 0;
}

/* STEP_REGIONS_S. cudaMemcpy to the host returns only once the data has
 * landed (pageable or pinned), so the host clock after the loop is honest
 * and the swap is safe. Events around the copies time them on the device
 * (H2D_S, D2H_S); a step's are read during the next step, when they have
 * long passed, so that the loop waits for nothing more than its copies.
 * On return *u holds the latest step: the second array after an odd
 * number of steps, the first after an even number. */
static int each_loop(each_state *st, const heat2d_config *cfg, void **u, void **v,
                     heat2d_report *rep, heat2d_error *err)
{
    for (int k = 0; k < 8; ++k)
        HEAT2D_CUDA_CHECK(err, cudaEventCreate(&st->marks[k / 4][k % 4]));
    rep->h2d_s = rep->d2h_s = 0.0;
    for (size_t step = 0; step <= cfg->steps; ++step) {
        if (step > 0 && read_copy_times(st->marks[(step - 1) % 2], rep, err) != 0)
            return -1;
        if (step == cfg->steps)
            break;
        if (each_step(st, cfg, *u, *v, st->marks[step % 2], rep, err) != 0)
            return -1;
        void *swap = *u;
        *u = *v;
        *v = swap;
    }
    return 0;
}

/* Events, device buffers, then the page locks, each cleared once released.
 * With err, stops at the first failure (err says which), leaving the rest
 * to a later call without; without, tries them all. */
static int each_release(each_state *st, heat2d_error *err)
{
    for (int k = 0; k < 8; ++k)
        HEAT2D_CUDA_RELEASE(err, st->marks[k / 4][k % 4],
                            cudaEventDestroy(st->marks[k / 4][k % 4]));
    HEAT2D_CUDA_RELEASE(err, st->dev_u, cudaFree(st->dev_u));
    HEAT2D_CUDA_RELEASE(err, st->dev_v, cudaFree(st->dev_v));
    HEAT2D_CUDA_RELEASE(err, st->pinned_u, cudaHostUnregister(st->pinned_u));
    HEAT2D_CUDA_RELEASE(err, st->pinned_v, cudaHostUnregister(st->pinned_v));
    return 0;
}

static int each_solve_any(const heat2d_config *cfg, void *u, void *v, void **result,
                          heat2d_report *rep, heat2d_error *err)
{
    each_state st = {0};
    if (heat2d_array_bytes(cfg, &st.bytes, err) != 0)
        return -1;
    rep->transfers_measured = true;
    double t_loop = 0.0;
    if (each_setup(&st, cfg, u, v, &t_loop, rep, err) != 0 ||
        each_loop(&st, cfg, &u, &v, rep, err) != 0)
        goto fail;
    const double t_exit = heat2d_now();
    heat2d_report_phase(rep, "STEP_REGIONS_S", t_exit - t_loop);
    /* EXIT_S: a failure here leaves the rest to the clean-up below. */
    if (each_release(&st, err) != 0)
        goto fail;
    heat2d_report_phase(rep, "EXIT_S", heat2d_now() - t_exit);
    *result = u;
    return 0;

fail:
    /* Best effort: err already holds the first failure; later ones are moot. */
    (void)each_release(&st, NULL);
    return -1;
}

HEAT2D_PRECISION_METHOD(heat2d_method_cuda_each, each_solve_any, .name = "cuda-each",
                        .seed_name = "CUDA_EACH_STEP", .style = HEAT2D_STYLE_EACH, .gpu_only = true,
                        .has_pinned_variant = true, .prepare = each_prepare);
