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
 * Measurements: docs/performance.md, "cuda-tb".
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

static int tb_solve_any(const heat2d_config *cfg, void *u, void *v, void **result,
                        heat2d_report *rep, heat2d_error *err)
{
    unsigned depths[kMaxDepths];
    heat2d_cuda_tb_plan plans[kMaxDepths];
    const unsigned n_depths = heat2d_cuda_tb_depths(depths, kMaxDepths);

    /* ENTER_S: the arrays, the upload, and the plans of the passes. */
    heat2d_cuda_resident frame;
    if (heat2d_cuda_resident_enter(&frame, cfg, u, 0, rep, err) != 0)
        goto fail;
    for (unsigned k = 0; k < n_depths; ++k)
        HEAT2D_CUDA_CHECK_GOTO(
            err, heat2d_cuda_tb_plan_pass(cfg->precision, cfg->nx, cfg->ny, depths[k], &plans[k]),
            fail);
    rep->pass_steps = depths[0];
    rep->fp_ops_per_cell = plans[0].fp_ops;
    if (heat2d_cuda_resident_start(&frame, rep, err) != 0)
        goto fail;

    /* GPU_LOOP_S: the deepest passes that fit, then shallower ones, then a
     * plain step for what is left (at most one step). The buffer a pass ends
     * in does not follow the step count; the read-back's host array does. */
    void *current = frame.dev_u;
    void *next = frame.dev_v;
    size_t left = cfg->steps;
    for (unsigned k = 0; k < n_depths; ++k) {
        for (; left >= depths[k]; left -= depths[k]) {
            HEAT2D_CUDA_CHECK_GOTO(
                err, heat2d_cuda_tb_pass(&plans[k], current, next, cfg->nx, cfg->ny, cfg->alpha, 0),
                fail);
            void *swap = current;
            current = next;
            next = swap;
        }
    }
    if (heat2d_cuda_resident_finish(&frame, cfg, current, left, u, v, result, rep, err) != 0)
        goto fail;
    return 0;

fail:
    heat2d_cuda_resident_abandon(&frame);
    return -1;
}

HEAT2D_PRECISION_METHOD(heat2d_method_cuda_tb, tb_solve_any, .name = "cuda-tb",
                        .seed_name = "CUDA_TB", .style = HEAT2D_STYLE_RESIDENT, .gpu_only = true,
                        .prepare = tb_prepare);
