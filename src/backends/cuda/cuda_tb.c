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
#include "cuda_tb_kernels.h"

#include <stdlib.h>

enum { kMaxDepths = 4 };

static int tb_prepare(const heat2d_config *cfg, heat2d_report *rep, heat2d_error *err)
{
    /* The tuning knob names a variant, or the run is refused: never the
     * default quietly in place of the one asked for. */
    const char *variant = getenv("HEAT2D_CUDA_TB_VARIANT");
    char names[256];
    if (variant != NULL && variant[0] != '\0' &&
        !heat2d_cuda_tb_variant_known(variant, names, sizeof names))
        return heat2d_fail(err, "cuda-tb: HEAT2D_CUDA_TB_VARIANT=%s is not a variant (%s)", variant,
                           names);
    if (heat2d_cuda_prepare("cuda-tb", cfg, rep, err) != 0)
        return -1;
    /* Part of the untimed set-up: load the kernels now, not at the first
     * pass inside the loop. */
    const double t0 = heat2d_now();
    HEAT2D_CUDA_CHECK(err, heat2d_cuda_tb_load_kernels());
    rep->context_s += heat2d_now() - t0;
    return 0;
}

/* The passes of one run: their depths, deepest first, and their plans. */
typedef struct tb_state {
    unsigned n_depths;
    unsigned depths[kMaxDepths];
    heat2d_cuda_tb_plan plans[kMaxDepths];
} tb_state;

/* The deepest passes that fit, then shallower ones, then a plain step for
 * what is left (at most one step). The buffer a pass ends in does not
 * follow the step count; the frame's read-back follows *current. */
static int tb_advance(void *method, heat2d_cuda_resident *r, const heat2d_config *cfg,
                      void **current, size_t count, heat2d_error *err)
{
    const tb_state *t = method;
    void *next = *current == r->dev_u ? r->dev_v : r->dev_u;
    size_t left = count;
    /* Once per batch: passes captured into a graph are not launched
     * dependent (as heat2d_cuda_plain_steps). */
    enum cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    HEAT2D_CUDA_CHECK(err, cudaStreamIsCapturing(r->stream, &capture));
    const bool dependent = capture == cudaStreamCaptureStatusNone;
    for (unsigned k = 0; k < t->n_depths; ++k)
        for (; left >= t->depths[k]; left -= t->depths[k]) {
            HEAT2D_CUDA_CHECK(err, heat2d_cuda_tb_pass(&t->plans[k], *current, next, cfg->nx,
                                                       cfg->ny, dependent, r->stream));
            void *swap = *current;
            *current = next;
            next = swap;
        }
    HEAT2D_CUDA_CHECK(err, heat2d_cuda_plain_steps(current, &next, left, cfg, r->stream));
    return 0;
}

static int tb_solve_any(const heat2d_config *cfg, void *u, void *v, void **result,
                        heat2d_report *rep, heat2d_error *err)
{
    tb_state t = {0};
    t.n_depths = heat2d_cuda_tb_depths(cfg->precision, cfg->nx, cfg->ny, t.depths, kMaxDepths);

    /* ENTER_S: the arrays, the upload, and the plans of the passes. */
    heat2d_cuda_resident frame;
    if (heat2d_cuda_resident_enter(&frame, cfg, u, 0, rep, err) != 0)
        goto fail;
    /* The bound the scheme keeps every cell within: max |u0|. */
    const double bound = cfg->initial != NULL ? cfg->initial->scale : 1.0;
    for (unsigned k = 0; k < t.n_depths; ++k)
        HEAT2D_CUDA_CHECK_GOTO(err,
                               heat2d_cuda_tb_plan_pass(cfg->precision, cfg->nx, cfg->ny,
                                                        t.depths[k], cfg->alpha, bound,
                                                        &t.plans[k]),
                               fail);
    rep->pass_steps = t.depths[0];
    rep->fp_ops_per_cell = t.plans[0].fp_ops;
    if (heat2d_cuda_resident_start(&frame, rep, err) != 0 ||
        heat2d_cuda_resident_run(&frame, cfg, tb_advance, &t, u, v, result, rep, err) != 0)
        goto fail;
    return 0;

fail:
    heat2d_cuda_resident_abandon(&frame);
    return -1;
}

HEAT2D_PRECISION_METHOD(heat2d_method_cuda_tb, tb_solve_any, .name = "cuda-tb",
                        .seed_name = "CUDA_TB", .style = HEAT2D_STYLE_RESIDENT, .gpu_only = true,
                        .prepare = tb_prepare, .within_tolerance = true, .has_pinned_variant = true,
                        .has_snapshots = true, .overlapped_snapshots = true,
                        .device_snapshot_stats = true, .alloc_pinned = heat2d_cuda_alloc_pinned,
                        .free_pinned = heat2d_cuda_free_pinned);
