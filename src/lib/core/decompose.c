/* The grid of ranks a distributed method cuts a grid into: in the lib, so
 * that the bench refuses a rank count that cannot split a size before it
 * starts mpirun, with the message the method itself would give. */
#include "heat2d_decompose.h"
#include "heat2d_config.h"

int heat2d_decompose(const char *who, size_t nx, size_t ny, int ranks, int dims[2],
                     heat2d_error *err)
{
    int best_px = 0;
    double best_cut = 0.0;
    for (int px = 1; px <= ranks; ++px) {
        if (ranks % px != 0)
            continue;
        int py = ranks / px;
        if ((size_t)px > nx || (size_t)py > ny)
            continue;
        /* In double: (PX-1)*ny cannot overflow, and exact ties stay exact
         * below 2^53 cells. */
        double cut = (double)(px - 1) * (double)ny + (double)(py - 1) * (double)nx;
        if (best_px == 0 || cut < best_cut) {
            best_px = px;
            best_cut = cut;
        }
    }
    if (best_px == 0)
        return heat2d_fail(err,
                           "%s: %d ranks cannot split a %zux%zu grid (no PXxPY = %d with PX <= "
                           "%zu and PY <= %zu); run with fewer ranks",
                           who, ranks, nx, ny, ranks, nx, ny);
    dims[0] = best_px;
    dims[1] = ranks / best_px;
    return 0;
}

size_t heat2d_halo_depth(const heat2d_config *cfg)
{
    return cfg->halo_depth > 1 ? cfg->halo_depth : 1;
}
