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

#include "cuda_common.h"
#include "cuda_methods.h"

static int resident_prepare(const heat2d_config *cfg, heat2d_report *rep, heat2d_error *err)
{
    return heat2d_cuda_prepare("cuda-resident", cfg, rep, err);
}

static int resident_solve_any(const heat2d_config *cfg, void *u, void *v, void **result,
                              heat2d_report *rep, heat2d_error *err)
{
    heat2d_cuda_resident frame;
    int rc = heat2d_cuda_resident_enter(&frame, cfg, u, 0, rep, err);
    if (rc == 0)
        rc = heat2d_cuda_resident_start(&frame, rep, err);
    /* Every step a plain launch, ping-ponging from dev_u. */
    if (rc == 0)
        rc = heat2d_cuda_resident_finish(&frame, cfg, frame.dev_u, cfg->steps, u, v, result, rep,
                                         err);
    if (rc != 0)
        heat2d_cuda_resident_abandon(&frame);
    return rc;
}

HEAT2D_PRECISION_METHOD(heat2d_method_cuda_resident, resident_solve_any, .name = "cuda-resident",
                        .seed_name = "CUDA_RESIDENT", .style = HEAT2D_STYLE_RESIDENT,
                        .gpu_only = true, .prepare = resident_prepare);
