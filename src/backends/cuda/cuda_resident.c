/* cuda-resident: both arrays live on the device for the whole time loop.
 *
 * The CUDA counterpart of the article's ACC_PERSISTENT: u goes up once (v is
 * only created: the kernel writes every cell of it, boundary included), the
 * steps ping-pong between the two device buffers, and only the buffer holding
 * the last step comes back. Transfers: 1 upload and 1 download of S bytes.
 * The kernel is cuda_kernels.cu's.
 * Measurements: docs/performance.md, "cuda-resident".
 */
#include <stdbool.h>
#include <stddef.h>

#include <cuda_runtime_api.h>

#include "cuda_check.h"
#include "cuda_common.h"

static int resident_prepare(const heat2d_config *cfg, heat2d_report *rep, heat2d_error *err)
{
    return heat2d_cuda_prepare("cuda-resident", cfg, rep, err);
}

/* Every step a plain launch, ping-ponging between the two buffers. */
static int plain_advance(void *method, heat2d_cuda_resident *r, const heat2d_config *cfg,
                         void **current, size_t count, heat2d_error *err)
{
    (void)method;
    void *next = *current == r->dev_u ? r->dev_v : r->dev_u;
    HEAT2D_CUDA_CHECK(err, heat2d_cuda_plain_steps(current, &next, count, cfg, r->stream));
    return 0;
}

static int resident_solve_any(const heat2d_config *cfg, void *u, void *v, void **result,
                              heat2d_report *rep, heat2d_error *err)
{
    heat2d_cuda_resident frame;
    int rc = heat2d_cuda_resident_enter(&frame, cfg, u, 0, rep, err);
    if (rc == 0)
        rc = heat2d_cuda_resident_start(&frame, rep, err);
    if (rc == 0)
        rc = heat2d_cuda_resident_run(&frame, cfg, plain_advance, NULL, u, v, result, rep, err);
    if (rc != 0)
        heat2d_cuda_resident_abandon(&frame);
    return rc;
}

HEAT2D_PRECISION_METHOD(heat2d_method_cuda_resident, resident_solve_any, .name = "cuda-resident",
                        .seed_name = "CUDA_RESIDENT", .style = HEAT2D_STYLE_RESIDENT,
                        .gpu_only = true, .prepare = resident_prepare, .has_pinned_variant = true,
                        .has_snapshots = true, .overlapped_snapshots = true,
                        .device_snapshot_stats = true, .alloc_pinned = heat2d_cuda_alloc_pinned,
                        .free_pinned = heat2d_cuda_free_pinned);
